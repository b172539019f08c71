"""The lobby: challenges made, accepted, declined, cancelled and expired, games against the bot
started, and rematches offered; each game begins here (its setup placed, its clock started,
its first post announced).

Every use case either succeeds completely and durably before it returns, or raises one of
:mod:`bot.games.lobby.errors` and changes nothing.
"""

from __future__ import annotations

import enum
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

import rules
from bot.games.core import announcements
from bot.games.core.clocks import time_control_of
from bot.games.core.parts import Shared, UseCases
from bot.games.core.results import GameStarted
from bot.games.core.setups import new_opening, record_opening
from bot.games.core.starts import Place, new_game_of
from bot.games.core.timecontrol import TimeControl, from_columns, to_columns
from bot.games.lobby.checks import channel_taken, check_clock, check_open, unexpired_challenge
from bot.games.lobby.errors import (
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    ChannelBusy,
    ChannelNotAllowed,
    NotYourChallenge,
    OpenChallengeNotDeclinable,
    OwnChallenge,
    SelfChallenge,
)
from bot.games.lobby.rematches import check_rematch, rematch_colour
from bot.storage import (
    Challenge,
    ChallengeStatus,
    ChannelId,
    Game,
    GuildId,
    NewChallenge,
    NewGame,
    Setup,
    UserId,
    Writer,
)
from rules import Colour

log = logging.getLogger(__name__)

DEFAULT_CHALLENGE_TTL: Final = timedelta(days=2)
"""How long a challenge stays open."""


class ServerDefault(enum.Enum):
    """The type of :data:`SERVER_DEFAULT`."""

    CLOCK = "the server's default clock"


SERVER_DEFAULT: Final = ServerDefault.CLOCK
"""For :meth:`Lobby.create_challenge`'s ``clock``: use the server's default."""


@dataclass(frozen=True, slots=True)
class ChallengesExpired:
    """What the housekeeping pass's challenge job did: the challenges it closed (it posts
    nothing: their posts are updated when next looked at)."""

    challenges: tuple[Challenge, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


class Lobby(UseCases):
    """The lobby's use cases, over the store."""

    def __init__(
        self,
        shared: Shared,
        rng: random.Random,
        *,
        challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL,
        default_clock: TimeControl | None = None,
    ) -> None:
        """``default_clock``: the clock of a challenge that names none, in a server without a
        default of its own (``None``: no clock)."""
        check_clock(default_clock)
        super().__init__(shared)
        self._rng = rng
        self._challenge_ttl = challenge_ttl
        self._default_clock = default_clock

    async def create_challenge(
        self,
        *,
        guild_id: GuildId | None,
        channel_id: ChannelId,
        challenger_id: UserId,
        opponent_id: UserId | None = None,
        colour: Colour | None = None,
        clock: TimeControl | ServerDefault | None = SERVER_DEFAULT,
        parent_channel_id: ChannelId | None = None,
        setup: Setup = Setup.STANDARD,
    ) -> Challenge:
        """Challenge ``opponent_id``, or anyone in the channel when it is ``None``.

        ``colour`` is the challenger's (``None``: drawn at random on acceptance); ``clock``
        one of :data:`bot.games.core.timecontrol.CHOICES` (days per move or a time bank), ``None``
        for no clock, or :data:`SERVER_DEFAULT`. ``parent_channel_id``: the channel of a
        thread the challenge is made in. ``setup``: who places the 49 pieces (the players, or
        the bot at random when the game begins: :mod:`bot.games.lobby.setups`). Raises
        :class:`SelfChallenge`, :class:`InvalidClock`, :class:`InvalidTimeControl`,
        :class:`ChannelNotAllowed`.
        """
        if guild_id is not None:
            settings = await self._store.guild_settings(guild_id)
            if not settings.allows(channel_id, parent_channel_id):
                raise ChannelNotAllowed(channel_id, tuple(sorted(settings.channels)))
        if opponent_id == challenger_id:
            raise SelfChallenge(challenger_id)
        if isinstance(clock, ServerDefault):
            clock = await self._server_clock(guild_id)
        else:
            check_clock(clock)
        clock_days, bank = to_columns(clock)
        now = self._now()
        async with self._store.write() as tx:
            users = [challenger_id] if opponent_id is None else [challenger_id, opponent_id]
            await tx.ensure_players(users, now)
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
                )
            )
        log.info("challenge %s: %s challenges %s", challenge.id, challenger_id, opponent_id)
        return challenge

    async def offer_rematch(
        self,
        game_id: int,
        user_id: UserId,
        *,
        channel_id: ChannelId,
        parent_channel_id: ChannelId | None = None,
    ) -> Challenge:
        """A player of a finished game challenges the other to play it again: colours
        swapped, the same clock and setup (see :mod:`bot.games.lobby.rematches`), posted in
        ``channel_id`` (a thread of ``parent_channel_id``, if given). A game against the bot
        has its rematch at once instead (:meth:`start_computer_game`).

        Raises :class:`GameNotFound`, :class:`NotAPlayer`, the refusals of
        :func:`bot.games.lobby.rematches.check_rematch`, :class:`InvalidClock`,
        :class:`InvalidTimeControl` (a clock no longer offered), :class:`ChannelNotAllowed`.
        """
        now = self._now()
        found = await self._store.game(game_id)
        settings = None
        if found is not None and found.guild_id is not None:
            settings = await self._store.guild_settings(found.guild_id)
        async with self._store.write() as tx:
            game = await check_rematch(tx, game_id, user_id, now)
            if game.computer_id is not None:
                raise ValueError(f"game {game_id} is against the bot: its rematch starts at once")
            control = time_control_of(game)
            check_clock(control)
            clock_days, bank = to_columns(control)
            if settings is not None and not settings.allows(channel_id, parent_channel_id):
                raise ChannelNotAllowed(channel_id, tuple(sorted(settings.channels)))
            challenge = await tx.insert_challenge(
                NewChallenge(
                    guild_id=game.guild_id,
                    channel_id=channel_id,
                    challenger_id=user_id,
                    opponent_id=game.opponent_of(user_id),
                    challenger_colour=rematch_colour(game, user_id),
                    clock_days=clock_days,
                    bank=bank,
                    created_at=now,
                    expires_at=now + self._challenge_ttl,
                    setup=game.setup,
                    rematch_of=game.id,
                )
            )
        log.info("challenge %s: %s offers a rematch of game %s", challenge.id, user_id, game_id)
        return challenge

    async def check_rematch(self, game_id: int, user_id: UserId) -> Game:
        """The finished game ``user_id`` may have a rematch of now (to look before a post is
        made for nothing); raises as :meth:`offer_rematch` does."""
        async with self._store.write() as tx:
            return await check_rematch(tx, game_id, user_id, self._now())

    async def start_computer_game(
        self,
        *,
        guild_id: GuildId | None,
        channel_id: ChannelId,
        human_id: UserId,
        computer_id: UserId,
        level: str,
        human_colour: Colour | None = None,
        thread_id: ChannelId | None = None,
        private: bool = False,
        setup: Setup = Setup.STANDARD,
        rematch_of: int | None = None,
        parent_channel_id: ChannelId | None = None,
    ) -> GameStarted:
        """Start a game against the bot at once, unrated (the human ladder is for humans).

        ``human_colour`` ``None``: drawn at random. Played in ``thread_id`` if given, else in
        ``channel_id`` (a thread of ``parent_channel_id``, if given). ``setup``: who places the
        pieces (:meth:`create_challenge`). ``rematch_of``: the finished game against the bot
        this one plays again (the caller swaps the colours; the game's rematch is checked and
        recorded in the same transaction). Raises :class:`ChannelBusy`,
        :class:`ChannelNotAllowed`, and for a rematch the refusals of
        :func:`bot.games.lobby.rematches.check_rematch`.
        """
        if guild_id is not None:
            settings = await self._store.guild_settings(guild_id)
            if not settings.allows(channel_id, parent_channel_id):
                raise ChannelNotAllowed(channel_id, tuple(sorted(settings.channels)))
        now = self._now()
        colour = human_colour or self._rng.choice(list(Colour))
        white, black = (
            (human_id, computer_id) if colour is Colour.WHITE else (computer_id, human_id)
        )
        place = channel_id if thread_id is None else thread_id
        seed, opening = new_opening(setup)
        async with channel_taken(self._store), self._store.write() as tx:
            if rematch_of is not None:
                old = await check_rematch(tx, rematch_of, human_id, now)
                if old.computer_id != computer_id:
                    raise ValueError(f"game {rematch_of} is not against the bot")
            busy = await tx.active_game_in_channel(place)
            if busy is not None:
                raise ChannelBusy(busy.id, place)
            await tx.ensure_players([human_id, computer_id], now)
            game = await tx.insert_game(
                NewGame(
                    guild_id=guild_id,
                    channel_id=place,
                    parent_channel_id=None if thread_id is None else channel_id,
                    challenge_id=None,
                    white_id=white,
                    black_id=black,
                    position=opening[-1].after if opening else rules.new_game(),
                    clock_days=None,
                    deadline_at=None,
                    created_at=now,
                    rated=False,
                    computer_id=computer_id,
                    computer_level=level,
                    private=private,
                    setup_seed=seed,
                    rematch_of=rematch_of,
                )
            )
            await record_opening(tx, game, opening, now)
            notice = await tx.enqueue(announcements.started(game), now, self._outbox.claim())
        log.info("game %s started: %s vs the computer (%s)", game.id, human_id, level)
        return GameStarted(None, game, notice)

    async def accept_challenge(
        self,
        challenge_id: int,
        user_id: UserId,
        *,
        thread_id: ChannelId | None = None,
        private: bool = False,
    ) -> GameStarted:
        """Accept a challenge and start its game.

        The game is played in ``thread_id`` (a thread of the challenge's channel) if given,
        else in the challenge's channel itself. Colours are drawn unless the challenger chose.
        ``private``: the bot cannot post there on its own (see :attr:`Game.private`).
        Raises :class:`ChallengeNotFound`, :class:`ChallengeClosed` (its subclasses say why),
        :class:`OwnChallenge`, :class:`ChallengeNotForYou`, :class:`ChannelBusy`.

        The Discord layer may look before it leaps (:meth:`get_challenge`,
        :meth:`game_in_channel`) before creating a thread, and should delete the thread if this
        raises anyway.
        """
        now = self._now()
        async with channel_taken(self._store), self._store.write() as tx:
            challenge = await unexpired_challenge(tx, challenge_id, now)
            started = (
                None
                if challenge is None
                else await self._start_game(tx, challenge, user_id, thread_id, now, private=private)
            )
        if started is None:
            raise ChallengeExpired(challenge_id)
        game = started.game
        log.info("game %s started: %s (white) vs %s (black)", game.id, game.white_id, game.black_id)
        return started

    async def _start_game(
        self,
        tx: Writer,
        challenge: Challenge,
        user_id: UserId,
        thread_id: ChannelId | None,
        now: datetime,
        *,
        private: bool = False,
    ) -> GameStarted:
        if challenge.network:  # the network's (NetworkLobby), never a channel's game
            raise ChallengeNotFound(challenge.id)
        check_open(challenge)
        if user_id == challenge.challenger_id:
            raise OwnChallenge(challenge.id, user_id)
        if challenge.opponent_id is not None and user_id != challenge.opponent_id:
            raise ChallengeNotForYou(challenge.id, user_id, challenge.opponent_id)
        channel_id = challenge.channel_id if thread_id is None else thread_id
        busy = await tx.active_game_in_channel(channel_id)
        if busy is not None:
            raise ChannelBusy(busy.id, channel_id)
        place = Place(
            guild_id=challenge.guild_id,
            channel_id=channel_id,
            parent_channel_id=None if thread_id is None else challenge.channel_id,
            private=private,
        )
        start = await new_game_of(tx, challenge, user_id, self._rng, now, place=place)
        game = await tx.insert_game(start.game)
        await record_opening(tx, game, start.opening, now)
        accepted = await tx.close_challenge(
            challenge.id, ChallengeStatus.ACCEPTED, at=now, by=user_id, game_id=game.id
        )
        notice = await tx.enqueue(announcements.started(game), now, self._outbox.claim())
        return GameStarted(accepted, game, notice)

    async def decline_challenge(self, challenge_id: int, user_id: UserId) -> Challenge:
        """The challenged player says no. Raises :class:`ChallengeNotFound`,
        :class:`ChallengeClosed`, :class:`OpenChallengeNotDeclinable`, :class:`OwnChallenge`,
        :class:`ChallengeNotForYou`."""

        def check(challenge: Challenge) -> None:
            if user_id == challenge.challenger_id:
                raise OwnChallenge(challenge_id, user_id)
            if challenge.opponent_id is None:
                raise OpenChallengeNotDeclinable(challenge_id, user_id)
            if user_id != challenge.opponent_id:
                raise ChallengeNotForYou(challenge_id, user_id, challenge.opponent_id)

        return await self._close_challenge(challenge_id, user_id, ChallengeStatus.DECLINED, check)

    async def cancel_challenge(self, challenge_id: int, user_id: UserId) -> Challenge:
        """The challenger withdraws. Raises :class:`ChallengeNotFound`,
        :class:`ChallengeClosed`, :class:`NotYourChallenge`."""

        def check(challenge: Challenge) -> None:
            if user_id != challenge.challenger_id:
                raise NotYourChallenge(challenge_id, user_id)

        return await self._close_challenge(challenge_id, user_id, ChallengeStatus.CANCELLED, check)

    async def expire_due(self) -> ChallengesExpired:
        """The housekeeping pass's job: :meth:`expire_challenges`."""
        return ChallengesExpired(tuple(await self.expire_challenges()))

    async def expire_challenges(self) -> list[Challenge]:
        """Close the challenges whose time is up; returns them (to update their posts)."""
        now = self._now()
        async with self._store.write() as tx:
            return await tx.expire_challenges(now)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id; raises :class:`ChallengeNotFound`."""
        challenge = await self._store.challenge(challenge_id)
        if challenge is None:
            raise ChallengeNotFound(challenge_id)
        return challenge

    async def open_challenges(self, channel_id: ChannelId) -> list[Challenge]:
        """The challenges that can still be accepted in a channel, oldest first."""
        now = self._now()
        return [c for c in await self._store.open_challenges(channel_id) if not c.is_expired(now)]

    async def _close_challenge(
        self,
        challenge_id: int,
        user_id: UserId,
        status: ChallengeStatus,
        check: Callable[[Challenge], None],
    ) -> Challenge:
        now = self._now()
        async with self._store.write() as tx:
            challenge = await unexpired_challenge(tx, challenge_id, now)
            closed = None
            if challenge is not None:
                if challenge.network:  # the network's: closed by NetworkLobby
                    raise ChallengeNotFound(challenge_id)
                check_open(challenge)
                check(challenge)
                closed = await tx.close_challenge(challenge_id, status, at=now, by=user_id)
        if closed is None:
            raise ChallengeExpired(challenge_id)
        return closed

    async def _server_clock(self, guild_id: GuildId | None) -> TimeControl | None:
        if guild_id is not None:
            settings = await self._store.guild_settings(guild_id)
            if settings.default_bank is not None:
                return from_columns(None, settings.default_bank)
            if settings.default_clock_days is not None:
                # 0: the server wants no clock
                return from_columns(settings.default_clock_days, None)
        return self._default_clock
