"""The game service: the bot's use cases, in plain async Python, knowing nothing of Discord.

It is the Discord layer's only door to the data. Challenges are made, accepted, declined,
cancelled and expired; games are played, resigned and aborted; games and records are looked up.
Its parts hold the rest: :attr:`GameService.clocks` (deadlines, reminders, vacations),
:attr:`~GameService.takebacks`, :attr:`~GameService.ratings`, :attr:`~GameService.plans`
(conditional moves), :attr:`~GameService.digests` (turn notices and the daily digest),
:attr:`~GameService.puzzles` (puzzles, puzzle ratings, the daily puzzle) and
:attr:`~GameService.outbox` (announcements to deliver). Every use case either succeeds
completely and durably before it returns, or raises one of :mod:`bot.games.core.errors` (or a rules
error, unchanged) and changes nothing. Every ending goes through
:func:`bot.games.core.endings.finish`.

Time comes from an injected clock (a callable returning an aware datetime), chance from an
injected :class:`random.Random`, so tests control both.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import logging
import random
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

import rules
from bot.games.clocks.timekeeping import Clocks, LostOnTime, Reminded, Reminder
from bot.games.core import announcements, turns
from bot.games.core.checks import check_running, game_for_action, runs
from bot.games.core.clocks import (
    CLOCK_CHOICES,
    GameClock,
    acting,
    check_deadline,
    continued,
    is_past_deadline,
    refuse_late,
    time_control_of,
)
from bot.games.core.endings import Ending, GameEndHooks, finish
from bot.games.core.errors import (
    GameChanged,
    GameFinished,
    GameNotFound,
    NoGameHere,
    NotAPlayer,
    PlyOutOfRange,
)
from bot.games.core.housekeeping import JobDone, PeriodicJobs
from bot.games.core.leases import Leases
from bot.games.core.outbox import DEFAULT_LEASE, Outbox
from bot.games.core.ratings import Ratings
from bot.games.core.results import (
    AbortOutcome,
    GameEnded,
    GameRecord,
    GameStarted,
    MoveOutcome,
    PlayedMove,
)
from bot.games.core.timecontrol import (
    Bank,
    DaysPerMove,
    TimeControl,
    from_columns,
    is_offered,
    to_columns,
)
from bot.games.core.turns import new_moves as _new_moves
from bot.games.core.turns import played_move as _played
from bot.games.core.turns import played_turn
from bot.games.lobby.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeClosed,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    ChannelBusy,
    ChannelNotAllowed,
    InvalidClock,
    InvalidTimeControl,
    NotYourChallenge,
    OpenChallengeNotDeclinable,
    OwnChallenge,
    SelfChallenge,
)
from bot.games.lobby.rematches import check_rematch, rematch_colour
from bot.games.lobby.setups import new_seed, random_setup
from bot.games.notices.digests import DigestQueued, Digests, DigestsQueued
from bot.games.plans.planning import Planning
from bot.games.play.errors import AbortNeedsOrganiser, AbortTooLate, NotYourTurn
from bot.games.puzzles.solving import DailyQueued, PuzzleBook, Puzzles
from bot.games.takebacks.requests import Takebacks
from bot.games.tournaments.running import Tournaments
from bot.storage import (
    BoardTheme,
    Challenge,
    ChallengeStatus,
    ChannelId,
    ChannelTaken,
    Game,
    GuildId,
    GuildSettings,
    NewChallenge,
    NewGame,
    PlayerPrefs,
    Setup,
    Store,
    UserId,
    VersionConflict,
    Writer,
    open_database,
)
from bot.storage.plans import PlansWaiting
from rules import Colour, Move, Position
from rules.position import DVONN_PIECES

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime."""

DEFAULT_CHALLENGE_TTL: Final = timedelta(days=2)
"""How long a challenge stays open."""


def utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


class ServerDefault(enum.Enum):
    """The type of :data:`SERVER_DEFAULT`."""

    CLOCK = "the server's default clock"


SERVER_DEFAULT: Final = ServerDefault.CLOCK
"""For :meth:`GameService.create_challenge`'s ``clock``: use the server's default."""
FIRST_OWN_PIECE: Final = DVONN_PIECES + 1
"""Positions from this ply on tell games apart: before it only DVONN pieces stand, as in many."""


@dataclass(frozen=True, slots=True)
class ChallengesExpired:
    """What the housekeeping pass's challenge job did: the challenges it closed (it posts
    nothing: their posts are updated when next looked at)."""

    challenges: tuple[Challenge, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class Sweep:
    """What one housekeeping pass did: each periodic job's result, in the order run."""

    done: tuple[JobDone, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        """The outbox rows this pass wrote, leased to its caller to deliver now."""
        return tuple(row for job in self.done for row in job.announcements)

    @property
    def lost_on_time(self) -> tuple[GameEnded, ...]:
        return tuple(g for job in self.done if isinstance(job, LostOnTime) for g in job.games)

    @property
    def reminders(self) -> tuple[Reminder, ...]:
        return tuple(r for job in self.done if isinstance(job, Reminded) for r in job.reminders)

    @property
    def digests(self) -> tuple[DigestQueued, ...]:
        return tuple(d for job in self.done if isinstance(job, DigestsQueued) for d in job.digests)

    @property
    def daily_puzzles(self) -> DailyQueued:
        return next((job for job in self.done if isinstance(job, DailyQueued)), DailyQueued())


class GameService:
    """The use cases. Create it over an open :class:`Store` (or with :meth:`open`)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
        challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL,
        default_clock: TimeControl | None = None,
        outbox_lease: timedelta = DEFAULT_LEASE,
        puzzles: PuzzleBook | None = None,
    ) -> None:
        """``default_clock``: the clock of a challenge that names none, in a server without a
        default of its own (``None``: no clock). ``outbox_lease``: how long a claim on an
        announcement holds (see :mod:`bot.games.core.outbox`). ``puzzles``: the puzzles
        (``None``: :mod:`ai.puzzles`', read when first needed)."""
        _check_clock(default_clock)
        self.store = store
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self._challenge_ttl = challenge_ttl
        self._default_clock = default_clock
        self.outbox = Outbox(store, self.now, outbox_lease)
        self.leases = Leases(store, self.now, self.outbox.claimant, outbox_lease)
        self.game_ends = GameEndHooks()
        """What the features do when a game ends (every part that ends games runs them)."""
        self.clocks = Clocks(store, self.now, self.outbox, hooks=self.game_ends)
        self.digests = Digests(store, self.now, self.outbox)
        self.takebacks = Takebacks(store, self.now, self.outbox, hooks=self.game_ends)
        self.ratings = Ratings(store, self.now)
        self.tournaments = Tournaments(store, self.now, self.outbox, hooks=self.game_ends)
        self.game_ends.register(self.tournaments.game_ended)
        self.plans = Planning(store, self.now, self.outbox, hooks=self.game_ends)
        self.puzzles = Puzzles(
            store,
            self.now,
            self.outbox,
            self._rng,
            PuzzleBook.standard if puzzles is None else puzzles,
        )
        self.housekeeping = PeriodicJobs()
        """The housekeeping pass's jobs, each feature's own, in the order they run."""
        self.housekeeping.add("challenges: expiry", self._expire_challenges)
        self.housekeeping.add("clocks: losses on time", self.clocks.lose_late_games)
        self.housekeeping.add("ratings: games left unrated", self.ratings.rate_unrated)
        self.housekeeping.add("clocks: reminders", self.clocks.remind)
        self.housekeeping.add("notices: daily digests", self.digests.queue_digests)
        self.housekeeping.add("puzzles: the daily puzzle", self.puzzles.queue_daily)
        self.housekeeping.add("tournaments: starts due", self.tournaments.begin_due)

    @classmethod
    async def open(
        cls,
        database: Path | str,
        *,
        clock: Clock = utc_now,
        rng: random.Random | None = None,
        challenge_ttl: timedelta = DEFAULT_CHALLENGE_TTL,
        default_clock: TimeControl | None = None,
        outbox_lease: timedelta = DEFAULT_LEASE,
    ) -> GameService:
        """Open the database ``database`` names, an SQLite file's path or a PostgreSQL URL
        (creating and migrating it), and a service over it."""
        db = await open_database(database)
        service = cls(
            Store(db),
            clock=clock,
            rng=rng,
            challenge_ttl=challenge_ttl,
            default_clock=default_clock,
            outbox_lease=outbox_lease,
        )
        try:
            await db.hold_life(service.outbox.claimant)
        except BaseException:
            await db.close()
            raise
        return service

    async def lose_channel(self, game_id: int) -> list[int]:
        """A game's thread or channel refused the bot's posts (it lost its permissions there,
        or the channel is gone): record it once, give up the game's unsent posts, and tell its
        players by DM. Returns the announcements written (none if it was recorded already)."""
        now = self.now()
        async with self.store.write() as tx:
            game = await tx.game(game_id)
            if game is None or not await tx.lose_channel(game_id, now):
                return []
            written = [
                await tx.enqueue(announcements.channel_lost(game, user), now, self.outbox.claim())
                for user in game.human_ids
            ]
        log.warning(
            "game %s: its channel %s refused the bot's posts; they are given up there",
            game_id,
            game.channel_id,
        )
        return written

    async def regain_channel(self, game_id: int) -> None:
        """The bot may post where a game is played again (a player's command there says so)."""
        async with self.store.write() as tx:
            regained = await tx.regain_channel(game_id)
        if regained:
            log.info("game %s: the bot may post in its channel again", game_id)

    async def take_over(self) -> tuple[int, int]:
        """Free the claims on posts and the leases on background work of every process that
        has died, so that the next taker (this process, or another) goes on with them at once
        instead of when their leases run out; a live process's are left to it. Which processes
        live the database says (:meth:`bot.storage.Database.alive`): on SQLite only this one
        (the file serves one process), on PostgreSQL those whose life lock is held. Returns how
        many claims and leases were freed."""
        own = self.outbox.claimant
        await self.store.db.hold_life(own)  # before any claim of ours (a no-op after open)
        others = await self.store.holders() - {own}
        dead = others - await self.store.db.alive(others)
        if not dead:
            return 0, 0
        async with self.store.write() as tx:
            freed = await tx.release_holders(dead)
        log.info("took over from %d ended processes: %d posts, %d leases", len(dead), *freed)
        return freed

    async def close(self) -> None:
        """Finish pending writes, give up this process's leases, close the database."""
        await self.outbox.close()
        try:
            await self.leases.release_all()
        except Exception:
            log.warning("could not give up this process's leases; they run out by themselves")
        await self.store.close()

    def now(self) -> datetime:
        """The injected clock's time, checked to be aware, in UTC."""
        moment = self._clock()
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise ValueError(f"the service's clock must return aware datetimes, not {moment!r}")
        return moment.astimezone(UTC)

    async def sweep(self) -> Sweep:
        """One housekeeping pass: every job of :attr:`housekeeping`, in order (challenges
        expired, games ended whose deadline passed, what a crash left unrated rated, reminders
        and the daily digests due queued, the daily puzzle's posts and counts, the tournaments
        due begun). The bot runs it every minute, tests after moving the clock."""
        return Sweep(await self.housekeeping.run())

    # --- challenges ----------------------------------------------------------------------------

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
            settings = await self.store.guild_settings(guild_id)
            if not settings.allows(channel_id, parent_channel_id):
                raise ChannelNotAllowed(channel_id, tuple(sorted(settings.channels)))
        if opponent_id == challenger_id:
            raise SelfChallenge(challenger_id)
        if isinstance(clock, ServerDefault):
            clock = await self._server_clock(guild_id)
        else:
            _check_clock(clock)
        clock_days, bank = to_columns(clock)
        now = self.now()
        async with self.store.write() as tx:
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
        now = self.now()
        found = await self.store.game(game_id)
        settings = None
        if found is not None and found.guild_id is not None:
            settings = await self.store.guild_settings(found.guild_id)
        async with self.store.write() as tx:
            game = await check_rematch(tx, game_id, user_id, now)
            if game.computer_id is not None:
                raise ValueError(f"game {game_id} is against the bot: its rematch starts at once")
            control = time_control_of(game)
            _check_clock(control)
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
        async with self.store.write() as tx:
            return await check_rematch(tx, game_id, user_id, self.now())

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
            settings = await self.store.guild_settings(guild_id)
            if not settings.allows(channel_id, parent_channel_id):
                raise ChannelNotAllowed(channel_id, tuple(sorted(settings.channels)))
        now = self.now()
        colour = human_colour or self._rng.choice(list(Colour))
        white, black = (
            (human_id, computer_id) if colour is Colour.WHITE else (computer_id, human_id)
        )
        place = channel_id if thread_id is None else thread_id
        seed, opening = _opening(setup)
        async with self._channel_taken(), self.store.write() as tx:
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
            await _record_opening(tx, game, opening, now)
            notice = await tx.enqueue(announcements.started(game), now, self.outbox.claim())
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
        now = self.now()
        async with self._channel_taken(), self.store.write() as tx:
            challenge = await _unexpired_challenge(tx, challenge_id, now)
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

    @contextlib.asynccontextmanager
    async def _channel_taken(self) -> AsyncIterator[None]:
        """Turns the database's refusal of a second running game in a channel, which another
        process's transaction started beside this one's, into the player's error."""
        try:
            yield
        except ChannelTaken as taken:
            busy = await self.store.active_game_in_channel(taken.channel_id)
            raise ChannelBusy(0 if busy is None else busy.id, taken.channel_id) from None

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
        _check_open(challenge)
        if user_id == challenge.challenger_id:
            raise OwnChallenge(challenge.id, user_id)
        if challenge.opponent_id is not None and user_id != challenge.opponent_id:
            raise ChallengeNotForYou(challenge.id, user_id, challenge.opponent_id)
        channel_id = challenge.channel_id if thread_id is None else thread_id
        busy = await tx.active_game_in_channel(channel_id)
        if busy is not None:
            raise ChannelBusy(busy.id, channel_id)
        colour = challenge.challenger_colour or self._rng.choice(list(Colour))
        challenger, accepter = challenge.challenger_id, user_id
        white, black = (challenger, accepter) if colour is Colour.WHITE else (accepter, challenger)
        await tx.ensure_players([user_id], now)
        seed, opening = _opening(challenge.setup)
        position = opening[-1].after if opening else rules.new_game()
        control = from_columns(challenge.clock_days, challenge.bank)
        paused_until = None
        if control is not None:
            first = white if position.turn is Colour.WHITE else black
            paused_until = (await tx.prefs(first, lock=False)).vacation_until
        clock = GameClock.starting(control, now, paused_until)
        game = await tx.insert_game(
            NewGame(
                guild_id=challenge.guild_id,
                channel_id=channel_id,
                parent_channel_id=None if thread_id is None else challenge.channel_id,
                challenge_id=challenge.id,
                white_id=white,
                black_id=black,
                position=position,
                clock_days=clock.clock_days,
                deadline_at=clock.deadline_at,
                bank=clock.bank,
                white_bank=clock.white_bank,
                black_bank=clock.black_bank,
                created_at=now,
                # A server without the bot keeps no ladder it could show: not rated.
                rated=not private,
                private=private,
                setup_seed=seed,
                rematch_of=challenge.rematch_of,
            )
        )
        await _record_opening(tx, game, opening, now)
        accepted = await tx.close_challenge(
            challenge.id, ChallengeStatus.ACCEPTED, at=now, by=user_id, game_id=game.id
        )
        notice = await tx.enqueue(announcements.started(game), now, self.outbox.claim())
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

    async def _expire_challenges(self) -> ChallengesExpired:
        """The housekeeping pass's job: :meth:`expire_challenges`."""
        return ChallengesExpired(tuple(await self.expire_challenges()))

    async def expire_challenges(self) -> list[Challenge]:
        """Close the challenges whose time is up; returns them (to update their posts)."""
        now = self.now()
        async with self.store.write() as tx:
            return await tx.expire_challenges(now)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id; raises :class:`ChallengeNotFound`."""
        challenge = await self.store.challenge(challenge_id)
        if challenge is None:
            raise ChallengeNotFound(challenge_id)
        return challenge

    async def open_challenges(self, channel_id: ChannelId) -> list[Challenge]:
        """The challenges that can still be accepted in a channel, oldest first."""
        now = self.now()
        return [c for c in await self.store.open_challenges(channel_id) if not c.is_expired(now)]

    async def _close_challenge(
        self,
        challenge_id: int,
        user_id: UserId,
        status: ChallengeStatus,
        check: Callable[[Challenge], None],
    ) -> Challenge:
        now = self.now()
        async with self.store.write() as tx:
            challenge = await _unexpired_challenge(tx, challenge_id, now)
            closed = None
            if challenge is not None:
                _check_open(challenge)
                check(challenge)
                closed = await tx.close_challenge(challenge_id, status, at=now, by=user_id)
        if closed is None:
            raise ChallengeExpired(challenge_id)
        return closed

    async def _server_clock(self, guild_id: GuildId | None) -> TimeControl | None:
        if guild_id is not None:
            settings = await self.store.guild_settings(guild_id)
            if settings.default_bank is not None:
                return from_columns(None, settings.default_bank)
            if settings.default_clock_days is not None:
                # 0: the server wants no clock
                return from_columns(settings.default_clock_days, None)
        return self._default_clock

    # --- playing -------------------------------------------------------------------------------

    async def play(
        self,
        game_id: int,
        user_id: UserId,
        move: str | Move,
        *,
        expected_version: int | None = None,
        answer: str | None = None,
    ) -> MoveOutcome:
        """Play ``move`` (text such as ``"e3f4"``, or a rules move) for ``user_id``.

        ``answer``: the interaction (its route) whose answer the turn's post may be made as;
        it is kept with the announcement (see :attr:`bot.storage.Notification.answer`).

        Checks, in order: the game exists (:class:`GameNotFound`), the user plays in it
        (:class:`NotAPlayer`), it is running (:class:`GameFinished`), it is still at
        ``expected_version`` if given (:class:`GameChanged`), it is the user's turn
        (:class:`NotYourTurn`), the text is a move (:class:`rules.InvalidMoveError`), the
        user's deadline has not passed (else the game is lost on time now, and
        :class:`~bot.games.core.errors.LostOnTime` raised:
        :func:`bot.games.core.clocks.check_deadline`),
        the move is legal (:class:`rules.IllegalMoveError`). Then records it, with a PASS for
        the next player if they have no legal move, and ends the game if the rules say it is
        over; every reply planned for it is played at once, in the same transaction (see
        :mod:`bot.games.plans.planning`: :attr:`MoveOutcome.replies`); all of it is committed (and
        synced) before this returns. If another action was recorded in the meantime, nothing
        is and :class:`GameChanged` is raised.

        If the call is cancelled while its move is being committed, the move may still be
        recorded: the next read of the game says.
        """
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        colour = game.colour_of(user_id)
        if colour is None:
            raise NotAPlayer(game_id, user_id)
        if not game.is_active:
            raise GameFinished(game_id)
        if expected_version is not None and expected_version != game.version:
            raise GameChanged(game_id, expected_version)
        before = game.position
        if before.turn is not colour:
            raise NotYourTurn(game_id, user_id, colour, before.turn)
        parsed = rules.parse_move(move) if isinstance(move, str) else move
        now = self.now()
        if is_past_deadline(game, now):  # the save below is of this version: at this moment
            raise await refuse_late(
                self.store, game, user_id, now, self.outbox, hooks=self.game_ends
            )
        # A pass is never a choice: the turn records at once every pass it forces, so it goes
        # to the player who can move (possibly the mover again).
        turn = turns.turn(before, parsed)
        played = played_turn(game, turn, now)
        position = turn.after
        log.info("game %s: %s plays %s", game_id, user_id, parsed)
        if rules.is_over(position):  # its ending drops the game's lines: none is due
            ended = await self._finish_by_move(game, position, played, now, answer)
            return MoveOutcome(ended.game, before, tuple(played), ended, ended.announcement)
        paused_until = mover_paused_until = None
        if game.deadline_at is not None:
            paused_until = (await self.store.prefs(game.player(position.turn))).vacation_until
        if game.bank is not None:
            mover_paused_until = (await self.store.prefs(user_id)).vacation_until
        updated = continued(
            game, position, now, paused_until, mover_paused_until=mover_paused_until
        )
        try:
            saved = await self.store.save_announced(
                updated,
                game.version,
                _new_moves(played, game, updated),
                announcements.turn(updated, played, answer=answer),
                self.outbox.claim(),
                # A game against the bot has no planned lines; any other game's move is saved
                # only if its game has none, looked for in the save's transaction.
                unplanned=game.computer_id is None,
            )
        except VersionConflict:
            raise GameChanged(game_id, game.version) from None
        except PlansWaiting:  # the game has lines: played with them, in one transaction
            return await self.plans.play(game, parsed, now, answer)
        assert saved.notice_id is not None
        return MoveOutcome(saved.game, before, tuple(played), None, saved.notice_id)

    async def _finish_by_move(
        self,
        game: Game,
        position: Position,
        played: list[PlayedMove],
        now: datetime,
        answer: str | None,
    ) -> GameEnded:
        try:
            async with self.store.write() as tx:
                return await finish(
                    tx,
                    game,
                    Ending.by_rules(position),
                    now,
                    self.outbox.claim(),
                    hooks=self.game_ends,
                    position=position,
                    moves=_new_moves(played, game, game),
                    announce=lambda final, change: announcements.turn(
                        final, played, over=True, change=change, answer=answer
                    ),
                )
        except VersionConflict:
            raise GameChanged(game.id, game.version) from None

    async def resign(
        self, game_id: int, user_id: UserId, *, expected_version: int | None = None
    ) -> GameEnded:
        """``user_id`` gives up; the opponent wins. Raises :class:`GameNotFound`,
        :class:`NotAPlayer`, :class:`GameFinished`, :class:`GameChanged`, and
        :class:`~bot.games.core.errors.DeadlinePassed` once the deadline has passed (the game is
        lost on time instead)."""
        now = self.now()
        async with acting(self.store) as tx:
            game = await game_for_action(tx.game, game_id, user_id, expected_version)
            await check_deadline(tx, game, user_id, now, self.outbox, hooks=self.game_ends)
            ending = Ending.resignation(game, user_id)
            ended = await finish(tx, game, ending, now, self.outbox.claim(), hooks=self.game_ends)
        log.info("game %s: %s resigned", game_id, user_id)
        return ended

    async def abort(
        self,
        game_id: int,
        user_id: UserId,
        *,
        moderator: bool = False,
        organiser: bool = False,
        expected_version: int | None = None,
    ) -> AbortOutcome:
        """Call a game off without a result.

        A moderator (``moderator=True``: the caller checked the permission) aborts any running
        game at once; so does whoever runs the tournament a game belongs to (``organiser=True``:
        the caller may run the server's tournaments; a players' own is run by its maker), in a
        game they do not play, and nobody else. A player may abort another game only while not
        both players have moved a piece in the movement phase, and only by agreement: the first
        call asks, the opponent's call aborts (the bot, as an opponent, agrees at once).
        Raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`GameFinished`,
        :class:`GameChanged`, :class:`AbortTooLate`, :class:`AbortNeedsOrganiser`, and (a
        player's, not a moderator's or an organiser's)
        :class:`~bot.games.core.errors.DeadlinePassed` once the deadline has passed (the game is
        lost on time instead).
        """
        now = self.now()
        async with acting(self.store) as tx:
            game = await tx.game(game_id)
            if game is None:
                raise GameNotFound(game_id)
            pairing = None if moderator else await tx.pairing_of_game(game_id)
            if pairing is not None:  # a tournament's game: whoever runs the tournament decides
                check_running(game, expected_version)
                tournament = await tx.tournament(pairing.tournament_id)
                if (
                    tournament is None
                    or game.is_player(user_id)
                    or not runs(tournament, user_id, organiser=organiser)
                ):
                    raise AbortNeedsOrganiser("" if tournament is None else tournament.name)
                moderator = True  # called off with authority, not by agreement
            elif moderator:
                check_running(game, expected_version)
            else:
                if not game.is_player(user_id):
                    raise NotAPlayer(game_id, user_id)
                check_running(game, expected_version)
                await check_deadline(tx, game, user_id, now, self.outbox, hooks=self.game_ends)
                if len(await tx.phase_two_movers(game_id)) == 2:
                    raise AbortTooLate(game_id)
                opponent = game.opponent_of(user_id)
                # The bot agrees at once, as it does to takebacks.
                if opponent not in (game.abort_requested_by, game.computer_id):
                    asked = dataclasses.replace(game, abort_requested_by=user_id, updated_at=now)
                    saved = await tx.save_game(asked, game.version)
                    log.info("game %s: %s proposes to abort", game_id, user_id)
                    return AbortOutcome(saved, user_id, None, waiting_for=opponent)
            ended = await finish(
                tx, game, Ending.abort(user_id), now, self.outbox.claim(), hooks=self.game_ends
            )
        log.info("game %s aborted by %s (moderator: %s)", game_id, user_id, moderator)
        requester = user_id if moderator else (game.abort_requested_by or user_id)
        return AbortOutcome(ended.game, requester, ended, by_moderator=moderator)

    # --- queries -------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> Game:
        """A game by id; raises :class:`GameNotFound`."""
        game = await self.store.game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return game

    async def game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The game running in a channel or thread, if any."""
        return await self.store.active_game_in_channel(channel_id)

    async def require_game_in_channel(self, channel_id: ChannelId) -> Game:
        """The game running in a channel or thread; raises :class:`NoGameHere` if none is."""
        game = await self.store.active_game_in_channel(channel_id)
        if game is None:
            raise NoGameHere(channel_id)
        return game

    async def latest_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The channel's running game, or else the last one played there."""
        return await self.store.latest_game_in_channel(channel_id)

    async def games_with_computer_to_move(self) -> list[Game]:
        """Running games against the bot in which it is the bot's turn (after a restart, say)."""
        return await self.store.games_with_computer_to_move()

    async def running_game_through(self, moves: Sequence[Move]) -> int | None:
        """A running game that stands now where ``moves`` pass (after any of them from the
        fourth on: every game starts alike), if any. What a review of such moves would say could
        help that game's players."""
        positions = rules.replay(list(moves))[FIRST_OWN_PIECE:]
        return await self.store.running_game_at([pos.to_text() for pos in positions])

    async def running_games(self) -> int:
        """How many games are being played (for the operator's metrics)."""
        return await self.store.running_games()

    async def active_games(self, user_id: UserId) -> list[Game]:
        """The user's running games in every server, the most recently changed first."""
        return await self.store.active_games_of(user_id)

    async def record(self, game_id: int) -> GameRecord:
        """A game with its whole record; raises :class:`GameNotFound`."""
        found = await self.store.game_with_moves(game_id)
        if found is None:
            raise GameNotFound(game_id)
        game, moves = found
        return GameRecord(game, tuple(moves))

    async def position_at(self, game_id: int, ply: int) -> Position:
        """The position after ``ply`` actions (0: the empty board); raises
        :class:`GameNotFound`, :class:`PlyOutOfRange`."""
        record = await self.record(game_id)
        if not 0 <= ply <= record.game.ply:
            raise PlyOutOfRange(game_id, ply, record.game.ply)
        return rules.replay([m.move for m in record.moves[:ply]])[-1]

    # --- players ---------------------------------------------------------------------------

    async def prefs(self, user_id: UserId) -> PlayerPrefs:
        """What the bot remembers of a player: reminders, vacations, language."""
        return await self.store.prefs(user_id)

    async def remember_locale(self, user_id: UserId, locale: str) -> None:
        """Keep the language a player uses, for messages sent outside an interaction."""
        now = self.now()
        async with self.store.write() as tx:
            await tx.ensure_players([user_id], now)
            await tx.save_locale(user_id, locale)

    async def save_theme(self, user_id: UserId, theme: BoardTheme | None) -> None:
        """A player's own theme, for what the bot shows them privately (``None``: the
        default)."""
        now = self.now()
        async with self.store.write() as tx:
            await tx.ensure_players([user_id], now)
            await tx.save_theme(user_id, theme)

    async def remember_reply_route(self, game_id: int, route: str, lasts: timedelta) -> None:
        """Keep the latest way to answer in a private game (an interaction's, good for
        ``lasts``), written before the change it will carry, so that whichever process
        delivers the change can use it."""
        now = self.now()
        async with self.store.write() as tx:
            await tx.save_reply_route(game_id, route, now + lasts)

    async def reply_route(self, game_id: int) -> str | None:
        """The way to answer in a private game, if there is a good one now."""
        return await self.store.reply_route(game_id, self.now())

    async def remember_guild_locale(self, guild_id: GuildId, locale: str) -> None:
        """Keep a server's language as Discord reports it: every process posts in it, also
        one that does not serve that server's shard."""
        await self.remember_guild_locales({guild_id: locale})

    async def remember_guild_locales(self, locales: Mapping[GuildId, str]) -> None:
        """:meth:`remember_guild_locale` for many servers, in one transaction."""
        now = self.now()
        async with self.store.write() as tx:
            for guild_id, locale in sorted(locales.items()):
                await tx.save_guild_locale(guild_id, locale, now)

    async def guild_locale(self, guild_id: GuildId) -> str | None:
        """A server's language as Discord last reported it, if known."""
        return await self.store.guild_locale(guild_id)

    # --- server settings -----------------------------------------------------------------------

    async def guild_settings(self, guild_id: GuildId) -> GuildSettings:
        """A server's settings (defaults if it never changed them)."""
        return await self.store.guild_settings(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> GuildSettings:
        """Store a server's settings; raises :class:`InvalidClock` or
        :class:`InvalidTimeControl` for a clock not offered."""
        # days 0 and None are "no clock" and "not set"
        _check_clock(from_columns(settings.default_clock_days, settings.default_bank))
        if settings.default_bank is not None and settings.default_clock_days is not None:
            raise InvalidTimeControl(settings.default_bank)
        async with self.store.write() as tx:
            await tx.save_guild_settings(settings, self.now())
        return settings


# --- helpers -----------------------------------------------------------------------------------


def _check_clock(control: TimeControl | None) -> None:
    """Raises :class:`InvalidClock` or :class:`InvalidTimeControl` for a clock not offered."""
    if is_offered(control):
        return
    if isinstance(control, DaysPerMove):
        raise InvalidClock(control.days, CLOCK_CHOICES)
    assert isinstance(control, Bank)
    raise InvalidTimeControl(control.to_text())


async def _unexpired_challenge(tx: Writer, challenge_id: int, now: datetime) -> Challenge | None:
    """The challenge, or ``None`` if it has just been found expired (the expiry is recorded:
    the caller lets its transaction commit, then raises :class:`ChallengeExpired`)."""
    challenge = await tx.challenge(challenge_id)
    if challenge is None:
        raise ChallengeNotFound(challenge_id)
    if challenge.status is ChallengeStatus.OPEN and challenge.is_expired(now):
        await tx.close_challenge(challenge_id, ChallengeStatus.EXPIRED, at=now)
        return None
    return challenge


def _check_open(challenge: Challenge) -> None:
    closed: dict[ChallengeStatus, type[ChallengeClosed]] = {
        ChallengeStatus.ACCEPTED: ChallengeAlreadyAccepted,
        ChallengeStatus.DECLINED: ChallengeDeclined,
        ChallengeStatus.CANCELLED: ChallengeCancelled,
        ChallengeStatus.EXPIRED: ChallengeExpired,
    }
    if challenge.status in closed:
        raise closed[challenge.status](challenge.id)


def _opening(setup: Setup) -> tuple[int | None, list[rules.MoveResult]]:
    """A new game's setup: its seed and what it places (nothing for a standard one)."""
    if setup is Setup.STANDARD:
        return None, []
    seed = new_seed()
    return seed, random_setup(seed)


async def _record_opening(
    tx: Writer, game: Game, opening: list[rules.MoveResult], now: datetime
) -> None:
    """Record a random setup's placements as the game's first moves: automatic, for they are
    not the players' own acts (a player who never moved after them is still absent)."""
    played = [_played(game, result, now, automatic=True) for result in opening]
    await tx.append_moves(game.id, _new_moves(played, game, game))
