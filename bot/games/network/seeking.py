"""Network challenges (:class:`NetworkLobby`): open ones ("seeks"), which any member of any
server may take, and direct ones to one member; the seeks a player may take; accepting one,
exactly once across processes, which begins a network game in its players' homes.

A network challenge is a ``challenges`` row (``network = 1``; its server and channel: where it
was made), so the lobby's expiry and the conditional close serve it unchanged. Every open or
close of a seek counts one more in the network's ``seeks`` count, in its transaction: the boards
showing an older count are behind.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games.core.checks import check_clock, check_open, unexpired_challenge
from bot.games.core.errors import (
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    NotYourChallenge,
    OpenChallengeNotDeclinable,
    SelfChallenge,
)
from bot.games.core.network import NETWORK, homes_for
from bot.games.core.parts import Shared, UseCases
from bot.games.core.ratings import START_RATING
from bot.games.core.setups import record_opening
from bot.games.core.starts import Place, new_game_of
from bot.games.core.timecontrol import TimeControl, to_columns
from bot.games.network.announcements import direct_challenge, network_home, seek_closed
from bot.games.network.errors import (
    InvalidRatingRange,
    NetworkChallengeTaken,
    NoNetworkChannel,
    NotANetworkPlayer,
    NotInNetwork,
    OutOfRange,
    OwnNetworkChallenge,
    PlayerUnavailable,
    SeekUnavailable,
    ServerLeftNetwork,
)
from bot.storage import (
    Challenge,
    ChallengeStatus,
    ChannelId,
    Claim,
    Game,
    GameHome,
    GuildId,
    NewChallenge,
    Setup,
    UserId,
    Writer,
)
from rules import Colour

log = logging.getLogger(__name__)

LOWEST_RATING: Final = 0
HIGHEST_RATING: Final = 3000
"""The range a network challenge's bounds are chosen in."""
SEEKS_LISTED: Final = 25
"""The most seeks a player is shown (Discord's longest select menu)."""
BOARD_SEEKS: Final = 10
"""The seeks a network channel's board shows."""


@dataclass(frozen=True, slots=True)
class NetworkGameStarted:
    """A network challenge accepted: the challenge, its game (pending until its homes are
    ready), its homes, and the outbox rows that make them ready."""

    challenge: Challenge
    game: Game
    homes: tuple[GameHome, ...]
    announcements: tuple[int, ...]
    edits: tuple[int, ...] = ()
    """The row that edits the seek's own post to say it is taken (none when it was tapped
    there: that tap's answer edits it)."""


class NetworkLobby(UseCases):
    """The network's challenges."""

    def __init__(self, shared: Shared, rng: random.Random, challenge_ttl: timedelta) -> None:
        super().__init__(shared)
        self._rng = rng
        self._challenge_ttl = challenge_ttl

    async def create(
        self,
        challenger_id: UserId,
        *,
        guild_id: GuildId | None,
        channel_id: ChannelId,
        opponent_id: UserId | None = None,
        colour: Colour | None = None,
        clock: TimeControl | None = None,
        setup: Setup = Setup.STANDARD,
        min_rating: int | None = None,
        max_rating: int | None = None,
    ) -> Challenge:
        """A network challenge made in ``channel_id`` of ``guild_id`` (``None``: DMs): open to
        every member whose network rating is in ``min_rating``..``max_rating`` (either bound
        ``None``: none), or direct to ``opponent_id`` (no range; posted in their home: its
        announcement is written here). ``colour``: the challenger's (``None``: drawn).

        Raises :class:`NotInNetwork`, :class:`SelfChallenge`, :class:`NotANetworkPlayer`,
        :class:`PlayerUnavailable` (a block either way), :class:`InvalidRatingRange`,
        :class:`InvalidClock`, :class:`InvalidTimeControl`, :class:`NoNetworkChannel` and
        :class:`ServerLeftNetwork` (an open one made in a server not in the network, where it
        would be posted)."""
        check_clock(clock)
        if opponent_id == challenger_id:
            raise SelfChallenge(challenger_id)
        if opponent_id is not None:
            min_rating = max_rating = None
        _check_range(min_rating, max_rating)
        clock_days, bank = to_columns(clock)
        now = self._now()
        async with self._store.write() as tx:
            if opponent_id is None:  # posted where made (a direct one: in its opponent's home)
                await _check_server(tx, guild_id)
            await _check_member(tx, challenger_id)
            if opponent_id is not None:
                opponent = await tx.member(opponent_id, lock=False)
                if opponent is None or not opponent.is_member:
                    raise NotANetworkPlayer(opponent_id)
                if await tx.blocked_either(challenger_id, opponent_id):
                    raise PlayerUnavailable(challenger_id, opponent_id)
            challenge = await tx.insert_challenge(
                NewChallenge(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=challenger_id,
                    opponent_id=opponent_id,
                    challenger_colour=colour,
                    clock_days=clock_days,
                    bank=bank,
                    created_at=now,
                    expires_at=now + self._challenge_ttl,
                    setup=setup,
                    network=True,
                    min_rating=min_rating,
                    max_rating=max_rating,
                )
            )
            if opponent_id is None:
                await tx.bump_seeks()
            else:
                await tx.enqueue(direct_challenge(challenge), now)
        log.info("network challenge %s: %s challenges %s", challenge.id, challenger_id, opponent_id)
        return challenge

    async def accept(
        self,
        challenge_id: int,
        user_id: UserId,
        *,
        guild_id: GuildId | None = None,
        tapped: int | None = None,
    ) -> NetworkGameStarted:
        """``user_id`` accepts a network challenge (from ``guild_id``, where they tapped it;
        ``None``: DMs; ``tapped``: the message they tapped, whose answer shows it taken, so a
        seek's own post tapped is not edited again): exactly once, across processes (the
        challenge's row is locked, then closed only if still open). Its game is inserted
        pending, with its homes (:func:`bot.games.core.network.homes_for`) and a row to make
        each ready; it begins when the last is
        (:meth:`bot.games.network.games.NetworkGames.home_ready`).

        Raises :class:`ChallengeNotFound`, :class:`NetworkChallengeTaken` (and the other
        :class:`ChallengeClosed`), :class:`OwnNetworkChallenge`, :class:`ChallengeNotForYou`,
        :class:`NotInNetwork`, :class:`PlayerUnavailable` (a seek's:
        :class:`SeekUnavailable`), :class:`OutOfRange`,
        :class:`ServerLeftNetwork` (the challenge's server, or the one tapped in, left)."""
        rating = await self._store.rating(NETWORK, user_id)
        shown = round(START_RATING if rating is None else rating.rating)
        now = self._now()
        async with self._store.write() as tx:
            challenge = await unexpired_challenge(tx, challenge_id, now)
            started = None
            if challenge is not None:
                started = await self._accept_in(
                    tx, challenge, user_id, now, guild_id=guild_id, rating=shown, tapped=tapped
                )
            else:
                expired = await tx.challenge(challenge_id)
                if expired is not None and expired.network and expired.is_open_to_anyone:
                    await tx.bump_seeks()
        if started is None:
            raise ChallengeExpired(challenge_id)
        log.info(
            "network game %s: %s (white) vs %s (black)",
            started.game.id,
            started.game.white_id,
            started.game.black_id,
        )
        return started

    async def _accept_in(
        self,
        tx: Writer,
        challenge: Challenge,
        user_id: UserId,
        now: datetime,
        *,
        guild_id: GuildId | None,
        rating: int,
        tapped: int | None,
    ) -> NetworkGameStarted:
        if not challenge.network:
            raise ChallengeNotFound(challenge.id)
        if challenge.guild_id is not None and await _has_left(tx, challenge.guild_id):
            raise ServerLeftNetwork(challenge.guild_id)
        if guild_id is not None and await _has_left(tx, guild_id):
            raise ServerLeftNetwork(guild_id)
        if challenge.status is ChallengeStatus.ACCEPTED:
            raise NetworkChallengeTaken(challenge.id)
        check_open(challenge)
        if user_id == challenge.challenger_id:
            raise OwnNetworkChallenge(challenge.id, user_id)
        if challenge.opponent_id is not None and user_id != challenge.opponent_id:
            raise ChallengeNotForYou(challenge.id, user_id, challenge.opponent_id)
        await _check_member(tx, user_id)
        if await tx.blocked_either(challenge.challenger_id, user_id):
            if challenge.is_open_to_anyone:  # a seek: shown on the boards whatever the blocks
                raise SeekUnavailable(user_id, challenge.challenger_id)
            raise PlayerUnavailable(user_id, challenge.challenger_id)
        low = LOWEST_RATING if challenge.min_rating is None else challenge.min_rating
        high = HIGHEST_RATING if challenge.max_rating is None else challenge.max_rating
        if challenge.opponent_id is None and not low <= rating <= high:
            raise OutOfRange(challenge.id, rating, low, high)
        place = Place(guild_id=None, channel_id=challenge.channel_id)
        start = await new_game_of(tx, challenge, user_id, self._rng, now, place=place, network=True)
        game = await tx.insert_game(start.game)
        await record_opening(tx, game, start.opening, now)
        accepted = await tx.close_challenge(
            challenge.id, ChallengeStatus.ACCEPTED, at=now, by=user_id, game_id=game.id
        )
        await tx.add_homes(game.id, await homes_for(tx, game.white_id, game.black_id), now)
        homes = await tx.homes(game.id)
        written = [await tx.enqueue(network_home(game.id, h.seat), now) for h in homes]
        if challenge.is_open_to_anyone:
            await tx.bump_seeks()
        edits = await edit_posts(tx, [accepted], now, self._outbox.claim(), tapped=tapped)
        return NetworkGameStarted(accepted, game, tuple(homes), tuple(written), tuple(edits))

    async def decline(
        self, challenge_id: int, user_id: UserId, *, tapped: int | None = None
    ) -> Challenge:
        """The player a direct network challenge was made to says no. Raises
        :class:`ChallengeNotFound`, :class:`ChallengeClosed`, :class:`OwnNetworkChallenge`,
        :class:`OpenChallengeNotDeclinable`, :class:`ChallengeNotForYou`."""

        def check(challenge: Challenge) -> None:
            if user_id == challenge.challenger_id:
                raise OwnNetworkChallenge(challenge_id, user_id)
            if challenge.opponent_id is None:
                raise OpenChallengeNotDeclinable(challenge_id, user_id)
            if user_id != challenge.opponent_id:
                raise ChallengeNotForYou(challenge_id, user_id, challenge.opponent_id)

        return await self._close(challenge_id, user_id, ChallengeStatus.DECLINED, check, tapped)

    async def cancel(
        self, challenge_id: int, user_id: UserId, *, tapped: int | None = None
    ) -> Challenge:
        """The challenger withdraws a network challenge (``tapped``: the message tapped, whose
        answer shows it; a seek's own post elsewhere is edited through the outbox). Raises
        :class:`ChallengeNotFound`, :class:`ChallengeClosed`, :class:`NotYourChallenge`."""

        def check(challenge: Challenge) -> None:
            if user_id != challenge.challenger_id:
                raise NotYourChallenge(challenge_id, user_id)

        return await self._close(challenge_id, user_id, ChallengeStatus.CANCELLED, check, tapped)

    async def _close(
        self,
        challenge_id: int,
        user_id: UserId,
        status: ChallengeStatus,
        check: Callable[[Challenge], None],
        tapped: int | None,
    ) -> Challenge:
        now = self._now()
        async with self._store.write() as tx:
            challenge = await unexpired_challenge(tx, challenge_id, now)
            closed = None
            if challenge is not None:
                if not challenge.network:
                    raise ChallengeNotFound(challenge_id)
                check_open(challenge)
                check(challenge)
                closed = await tx.close_challenge(challenge_id, status, at=now, by=user_id)
                await edit_posts(tx, [closed], now, tapped=tapped)  # by the next poll
            if closed is None or closed.is_open_to_anyone:
                await tx.bump_seeks()  # expired just now, or a seek closed
        if closed is None:
            raise ChallengeExpired(challenge_id)
        return closed

    async def expire_due(self) -> SeeksExpired:
        """The housekeeping job: close the network challenges whose time is up, counting the
        seeks closed (the boards showing them are behind). Run before the lobby's expiry,
        which would close them without counting."""
        now = self._now()
        async with self._store.write() as tx:
            expired = await tx.expire_network_challenges(now)
            if any(c.is_open_to_anyone for c in expired):
                await tx.bump_seeks()
            edits = await edit_posts(tx, expired, now, self._outbox.claim())
        return SeeksExpired(tuple(expired), tuple(edits))

    async def challenge(self, challenge_id: int) -> Challenge:
        """A network challenge by id; raises :class:`ChallengeNotFound`."""
        challenge = await self._store.challenge(challenge_id)
        if challenge is None or not challenge.network:
            raise ChallengeNotFound(challenge_id)
        return challenge

    async def seeks_for(self, user_id: UserId, limit: int = SEEKS_LISTED) -> list[Challenge]:
        """The seeks ``user_id`` may take now, the newest first: not their own, none of a
        player either of them blocked, and those whose range holds their network rating."""
        rating = await self._store.rating(NETWORK, user_id)
        shown = START_RATING if rating is None else rating.rating
        return await self._store.open_network_challenges(
            self._now(), viewer=user_id, rating=shown, limit=limit
        )

    async def board(self, limit: int = BOARD_SEEKS) -> list[Challenge]:
        """The newest seeks, as every network channel's board shows them."""
        return await self._store.open_network_challenges(self._now(), limit=limit)

    async def seeks_version(self) -> int:
        """The network's ``seeks`` count now (a board showing less is behind)."""
        return await self._store.seeks_version()

    async def seek_posted(self, challenge_id: int, message_id: int) -> tuple[int, ...]:
        """A seek's own post, where it was made, is ``message_id``: kept, to edit once the seek
        closes. Closed already (taken before its post was known): the row that edits it now,
        claimed here (to post at once)."""
        now = self._now()
        async with self._store.write() as tx:
            challenge = await tx.set_challenge_message(challenge_id, message_id)
            if challenge is None or challenge.status is ChallengeStatus.OPEN:
                return ()
            return tuple(await edit_posts(tx, [challenge], now, self._outbox.claim()))


@dataclass(frozen=True, slots=True)
class SeeksExpired:
    """What the job closing network challenges did: the challenges closed, and the rows that
    edit their own posts to say they expired (the boards are brought up to date by their own
    job)."""

    challenges: tuple[Challenge, ...] = ()
    edits: tuple[int, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return self.edits


async def edit_posts(
    tx: Writer,
    closed: Iterable[Challenge],
    now: datetime,
    claim: Claim | None = None,
    *,
    tapped: int | None = None,
) -> list[int]:
    """The rows that edit the own posts of network challenges just ``closed`` to say so
    (:data:`~bot.games.network.announcements.SEEK_CLOSED`): those whose post is known, but the
    one ``tapped`` (the tap's answer edits it). ``claim``: the caller posts them at once; else
    the outbox's next poll does (a seek's post not known yet is edited once it is:
    :meth:`NetworkLobby.seek_posted`)."""
    return [
        await tx.enqueue(seek_closed(c), now, claim)
        for c in closed
        if c.network and c.message_id is not None and c.message_id != tapped
    ]


def _check_range(low: int | None, high: int | None) -> None:
    bounds = [b for b in (low, high) if b is not None]
    in_range = all(LOWEST_RATING <= b <= HIGHEST_RATING for b in bounds)
    if not in_range or (low is not None and high is not None and low > high):
        raise InvalidRatingRange(
            LOWEST_RATING if low is None else low,
            HIGHEST_RATING if high is None else high,
            LOWEST_RATING,
            HIGHEST_RATING,
        )


async def _check_member(tx: Writer, user_id: UserId) -> None:
    member = await tx.member(user_id, lock=False)
    if member is None or not member.is_member:
        raise NotInNetwork(user_id)


async def _has_left(tx: Writer, guild_id: GuildId) -> bool:
    server = await tx.network_server(guild_id, lock=False)
    return server is not None and not server.is_live


async def _check_server(tx: Writer, guild_id: GuildId | None) -> None:
    """A network challenge is made in DMs, or in a server that takes part now (its post is
    seen there)."""
    if guild_id is None:
        return
    server = await tx.network_server(guild_id, lock=False)
    if server is None:
        raise NoNetworkChannel(guild_id)
    if not server.is_live:
        raise ServerLeftNetwork(guild_id)
