"""The game service: the bot's use cases, in plain async Python, knowing nothing of Discord.

It is the Discord layer's only door to the data, and the composition root of
:mod:`bot.games`: it makes each feature's part over one store, outbox and clock, registers what
they do at a game's end (:attr:`GameService.game_ends`) and in the housekeeping pass
(:attr:`~GameService.housekeeping`), and answers the queries that are no feature's (games and
records looked up, players' and servers' settings). Its parts: :attr:`~GameService.lobby`
(challenges, games against the bot, rematches; its use cases are also called on the service
itself, as ``service.create_challenge``), :attr:`~GameService.playing` (moves, resignations,
aborts; likewise ``service.play``), :attr:`~GameService.clocks` (losses on time, reminders,
vacations), :attr:`~GameService.takebacks`, :attr:`~GameService.ratings`,
:attr:`~GameService.plans` (conditional moves), :attr:`~GameService.digests` (turn notices and
the daily digest), :attr:`~GameService.tournaments`, :attr:`~GameService.championship` (the
network championship, a league the bot runs), :attr:`~GameService.puzzles` (puzzles, puzzle
ratings, the daily puzzle), :attr:`~GameService.lessons` (the lessons a player takes) and
:attr:`~GameService.outbox` (announcements to deliver).
Every use case either succeeds completely and durably before it returns, or raises one of the
service's errors (:mod:`bot.games.core.errors` and each feature's ``errors``; or a rules error,
unchanged) and changes nothing. Every ending goes through :func:`bot.games.core.endings.finish`.

Time comes from an injected clock (a callable returning an aware datetime), chance from an
injected :class:`random.Random`, so tests control both.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

import rules
from bot.games.clocks.timekeeping import Clocks, LostOnTime, Reminded, Reminder
from bot.games.core import announcements
from bot.games.core.endings import GameEndHooks
from bot.games.core.errors import GameNotFound, NoGameHere, PlyOutOfRange
from bot.games.core.housekeeping import JobDone, PeriodicJobs
from bot.games.core.leases import Leases
from bot.games.core.outbox import DEFAULT_LEASE, Outbox
from bot.games.core.parts import Shared
from bot.games.core.ratings import Ratings
from bot.games.core.results import GameEnded, GameRecord
from bot.games.core.timecontrol import LITTLE_GOLEM, TimeControl, from_columns, parse
from bot.games.lessons.learning import Learning
from bot.games.lobby.challenges import DEFAULT_CHALLENGE_TTL, Lobby
from bot.games.lobby.checks import check_clock
from bot.games.lobby.errors import InvalidTimeControl
from bot.games.network.network import Network
from bot.games.notices.digests import DigestQueued, Digests, DigestsQueued
from bot.games.plans.planning import Planning
from bot.games.play.moves import Play
from bot.games.puzzles.book import PuzzleBook
from bot.games.puzzles.solving import DailyQueued, Puzzles
from bot.games.takebacks.requests import Takebacks
from bot.games.tournaments.championship import Championship
from bot.games.tournaments.running import Tournaments
from bot.storage import (
    BoardTheme,
    ChannelId,
    Game,
    GuildId,
    GuildSettings,
    PlayerPrefs,
    Store,
    UserId,
    open_database,
)
from rules import Move, Position
from rules.position import DVONN_PIECES

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
"""Returns the current time as an aware datetime."""


def utc_now() -> datetime:
    """The real clock."""
    return datetime.now(UTC)


FIRST_OWN_PIECE: Final = DVONN_PIECES + 1
"""Positions from this ply on tell games apart: before it only DVONN pieces stand, as in many."""


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
        network: bool = False,
        network_clock: TimeControl | str | None = None,
        network_season_start: datetime | timedelta | None = None,
    ) -> None:
        """``default_clock``: the clock of a challenge that names none, in a server without a
        default of its own (``None``: no clock). ``outbox_lease``: how long a claim on an
        announcement holds (see :mod:`bot.games.core.outbox`). ``puzzles``: the puzzles
        (``None``: :mod:`ai.puzzles`', read when first needed). ``network``: the DVONN network
        is on (its periodic jobs run; its use cases, :attr:`network`, are there either way).
        ``network_clock``: the network championship's clock (a time control or its spelling;
        ``None``: Little Golem's); ``network_season_start``: its first season's start (aware),
        or how long after the championship opens (``None``: no championship is made)."""
        self.store = store
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self.outbox = Outbox(store, self.now, outbox_lease)
        self.leases = Leases(store, self.now, self.outbox.claimant, outbox_lease)
        self.game_ends = GameEndHooks()
        """What the features do when a game ends (every part that ends games runs them)."""
        shared = Shared(store, self.now, self.outbox, self.game_ends)
        """What every feature works over (:mod:`bot.games.core.parts`)."""
        self.clocks = Clocks(shared)
        self.digests = Digests(shared)
        self.takebacks = Takebacks(shared)
        self.ratings = Ratings(store, self.now)
        self.tournaments = Tournaments(shared)
        self.game_ends.register(self.tournaments.game_ended)
        self.championship = Championship(
            shared,
            self.tournaments,
            clock=_championship_clock(network_clock),
            season_start=network_season_start,
        )
        """The network championship (a league of the whole network the bot runs)."""
        self.plans = Planning(shared)
        self.lobby = Lobby(
            shared, self._rng, challenge_ttl=challenge_ttl, default_clock=default_clock
        )
        self.playing = Play(shared, with_plans=self.plans.play)
        # The lobby's and the play's use cases, called on the service as they always were.
        self.create_challenge = self.lobby.create_challenge
        self.offer_rematch = self.lobby.offer_rematch
        self.check_rematch = self.lobby.check_rematch
        self.start_computer_game = self.lobby.start_computer_game
        self.accept_challenge = self.lobby.accept_challenge
        self.decline_challenge = self.lobby.decline_challenge
        self.cancel_challenge = self.lobby.cancel_challenge
        self.expire_challenges = self.lobby.expire_challenges
        self.get_challenge = self.lobby.get_challenge
        self.open_challenges = self.lobby.open_challenges
        self.play = self.playing.play
        self.resign = self.playing.resign
        self.abort = self.playing.abort
        self.puzzles = Puzzles(
            shared, self._rng, PuzzleBook.standard if puzzles is None else puzzles
        )
        self.lessons = Learning(shared)
        self.housekeeping = PeriodicJobs()
        """The housekeeping pass's jobs, each feature's own, in the order they run."""
        self.network = Network(shared, self._rng, challenge_ttl)
        """The DVONN network: members, servers, blocks, network challenges and games' homes."""
        if network:  # before the lobby's expiry, which would close network challenges unseen
            self.network.add_jobs(self.housekeeping)
            # Before the tournaments' starts, which begin its first season when due.
            self.housekeeping.add("network: championship", self.championship.open_due)
        self.housekeeping.add("challenges: expiry", self.lobby.expire_due)
        self.housekeeping.add("clocks: losses on time", self.clocks.lose_late_games)
        self.housekeeping.add("ratings: games left unrated", self.ratings.rate_unrated)
        self.housekeeping.add("clocks: reminders", self.clocks.remind)
        self.housekeeping.add("notices: daily digests", self.digests.queue_digests)
        self.housekeeping.add("puzzles: the daily puzzle", self.puzzles.queue_daily)
        self.housekeeping.add("tournaments: starts due", self.tournaments.begin_due)
        self.housekeeping.add("tournaments: seasons being made", self.tournaments.make_seasons)

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
        network: bool = False,
        network_clock: TimeControl | str | None = None,
        network_season_start: datetime | timedelta | None = None,
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
            network=network,
            network_clock=network_clock,
            network_season_start=network_season_start,
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
        check_clock(from_columns(settings.default_clock_days, settings.default_bank))
        if settings.default_bank is not None and settings.default_clock_days is not None:
            raise InvalidTimeControl(settings.default_bank)
        async with self.store.write() as tx:
            await tx.save_guild_settings(settings, self.now())
        return settings


def _championship_clock(clock: TimeControl | str | None) -> str:
    """The network championship's clock as stored: Little Golem's unless configured; it
    must be a clock (a player who went away would hold a season up for ever)."""
    control = LITTLE_GOLEM if clock is None else parse(clock) if isinstance(clock, str) else clock
    if control is None:
        raise ValueError(f"the network championship needs a clock, not {clock!r}")
    return control.to_text()
