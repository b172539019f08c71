"""Tournaments and leagues: the use cases, over the storage, knowing nothing of Discord.

A server's organisers (Manage Server, or the role its settings name; the Discord layer says
whether the caller is one) make tournaments of every format; any player may make a small round
robin among friends (:data:`PLAYERS_OWN_MOST` players, :data:`PLAYERS_OWN_PER_DAY` a day).
Players join and leave until it begins (by the organiser, when full, or at its time); then
they may withdraw (their games still to play are lost, the played ones kept).

Its games are ordinary games of the bot: each is made waiting for its thread
(:attr:`~bot.storage.GameStatus.PENDING`) and announced; the Discord layer makes the thread
and calls :meth:`Tournaments.begin_game`, which starts the clock and writes the game's first
post. When one ends, :mod:`bot.games.tournaments.rounds` moves the tournament on in the same
transaction (:meth:`Tournaments.game_ended`, the tournaments' hook at every game's end).
A large league's season is planned and made by the housekeeping job ``tournaments: seasons
being made`` (:meth:`Tournaments.make_seasons`): the next season of one whose last game ended
(:meth:`Tournaments.plan_seasons`, computed outside any write transaction), then its divisions,
a batch a transaction.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games.core import announcements, clocks, timecontrol
from bot.games.core.checks import runs
from bot.games.core.endings import AfterEnd, Ending, GameEnd, ended, finish
from bot.games.core.results import GameStarted
from bot.games.tournaments import rounds, standings, withdrawals
from bot.games.tournaments.announcements import tournament_news, tournament_opened
from bot.games.tournaments.errors import (
    AlreadyJoined,
    ChampionshipMembersOnly,
    NotEntered,
    NotOrganiser,
    OrganisersOnly,
    RoleRequired,
    TooFewPlayers,
    TooManyOwnTournaments,
    TooManyRounds,
    TooSmallMaximum,
    TournamentFull,
    TournamentNeedsClock,
    TournamentNotFound,
    TournamentNotStarted,
    TournamentOver,
    TournamentStarted,
)
from bot.games.tournaments.reading import TournamentReads
from bot.games.tournaments.swiss import most_swiss_rounds
from bot.storage import (
    ChannelId,
    EndReason,
    Entrant,
    Game,
    GameStatus,
    GuildId,
    NewTournament,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    UserId,
    Writer,
)

log = logging.getLogger(__name__)

PLAYERS_OWN_MOST: Final = 8
"""The most players of a round robin a player makes among friends."""
PLAYERS_OWN_PER_DAY: Final = 3
"""How many tournaments of their own a player may make in a day."""
MIN_PLAYERS: Final = 2
"""The fewest players any tournament begins with (a league: a division's worth, 3)."""
NAME_LENGTH: Final = 60
SEASONS_PASS_SECONDS: Final = 20.0
"""How long a housekeeping pass makes a league season's divisions before it lets the next pass
go on (:meth:`Tournaments.make_seasons`): a thousand divisions take minutes."""
PLAN_ATTEMPTS: Final = 3
"""How many times a housekeeping pass computes a league's next season whose inputs keep
changing before it leaves it to the next pass (:meth:`Tournaments.plan_seasons`)."""


@dataclass(frozen=True, slots=True)
class Joined:
    """A player joined; ``started``: the tournament began because they filled it."""

    tournament: Tournament
    entrant: Entrant
    players: int
    started: bool = False


@dataclass(frozen=True, slots=True)
class Begun:
    """What the housekeeping pass's tournament job did: the tournaments it began (their posts
    are nobody's in particular: the outbox's deliverer takes them)."""

    tournaments: tuple[Tournament, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class SeasonsMade:
    """What the housekeeping pass's job making league seasons did: how many divisions it made
    (their games' posts are nobody's in particular: the outbox's deliverer takes them)."""

    divisions: int = 0
    planned: int = 0
    """League seasons whose next season's plan it wrote (:meth:`Tournaments.plan_seasons`)."""

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


class Tournaments(TournamentReads):
    """The use cases of tournaments and leagues; the games they end run the features'
    ``hooks``, of which :meth:`game_ended` is the tournaments' own."""

    async def game_ended(self, end: GameEnd) -> AfterEnd | None:
        """The tournaments' part in every game's end (a hook of
        :class:`~bot.games.core.endings.GameEndHooks`). Before the game is rated, a tournament's
        game takes the locks its end goes on to need (:func:`rounds.lock_for_end`); once its
        end is announced, the tournament records the result and goes on
        (:func:`rounds.game_over`), and then, for a loss on time, a loser who never moved in the
        game loses their other games (:func:`withdrawals.after_loss_on_time`)."""
        paired = await rounds.lock_for_end(end.tx, end.game)
        if paired is None:
            return None

        async def after() -> None:
            await rounds.game_over(end.tx, end.game, paired, end.now)
            if end.game.end_reason is EndReason.TIME:
                await withdrawals.after_loss_on_time(
                    end.tx, end.game, end.now, end.claim, self._hooks
                )

        return after

    # --- making and entering ---------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: GuildId,
        channel_id: ChannelId,
        by: UserId,
        organiser: bool,
        name: str,
        format: TournamentFormat,
        clock: str = timecontrol.LITTLE_GOLEM.to_text(),
        rated: bool | None = None,
        rounds: int | None = None,
        max_players: int | None = None,
        starts_at: datetime | None = None,
        role_id: int | None = None,
        division_size: int | None = None,
        moves_down: int | None = None,
    ) -> Tournament:
        """Make a tournament, open for entries. ``organiser``: the caller may run the server's
        tournaments (rated unless ``rated`` is ``False``); a player who may not makes a round
        robin of their own (at most :data:`PLAYERS_OWN_MOST` players, unrated: asking for
        ``rated`` is refused, :data:`PLAYERS_OWN_PER_DAY` a day). Its games
        have a ``clock`` (a time control's spelling, Little Golem's bank unless chosen): without
        one, a player who went away would hold up the tournament for ever."""
        now = self._now()
        if timecontrol.parse(clock) is None:
            raise TournamentNeedsClock()
        players_own = not organiser
        if players_own:
            if (
                format is not TournamentFormat.ROUND_ROBIN
                or rated
                or (max_players is not None and max_players > PLAYERS_OWN_MOST)
            ):
                raise OrganisersOnly(PLAYERS_OWN_MOST)
            max_players = max_players or PLAYERS_OWN_MOST
        needed = 3 if format is TournamentFormat.LEAGUE else MIN_PLAYERS
        if max_players is not None and max_players < needed:
            raise TooSmallMaximum(max_players, needed)
        if format is TournamentFormat.SWISS:
            rounds = rounds or 5
            if max_players is not None and rounds > most_swiss_rounds(max_players):
                raise TooManyRounds(rounds, max_players, most_swiss_rounds(max_players))
        else:
            rounds = None
        if format is TournamentFormat.LEAGUE:
            division_size = division_size or standings.DIVISION_SIZE
            moves_down = standings.RELEGATED if moves_down is None else moves_down
        else:
            division_size = moves_down = None
        async with self._store.write() as tx:
            if players_own:
                made = await tx.tournaments_made_by(by, now - timedelta(days=1))
                if made >= PLAYERS_OWN_PER_DAY:
                    raise TooManyOwnTournaments(made)
            await tx.ensure_players([by], now)
            tournament = await tx.insert_tournament(
                NewTournament(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    name=name.strip()[:NAME_LENGTH] or "DVONN",
                    format=format,
                    organiser_id=by,
                    created_at=now,
                    players_own=players_own,
                    clock=clock,
                    rated=not players_own if rated is None else rated,
                    rounds=rounds,
                    max_players=max_players,
                    starts_at=starts_at,
                    role_id=role_id,
                    division_size=division_size,
                    moves_down=moves_down,
                )
            )
            await tx.enqueue(tournament_opened(tournament), now)
        log.info("tournament %s (%s) made by %s", tournament.id, format, by)
        return tournament

    async def join(
        self, tournament_id: int, user_id: UserId, roles: Collection[int] = ()
    ) -> Joined:
        """Enter a tournament that takes entries (a league: at any time; a newcomer plays the
        next season, in the lowest division; the network championship: network members only).
        It begins if this fills it and it has no start time of its own."""
        now = self._now()
        async with self._store.write() as tx:
            tournament = await _open_tournament(tx, tournament_id)
            if tournament.is_over:
                raise TournamentOver(tournament.id, tournament.name)
            if tournament.is_running and not tournament.is_league:
                raise TournamentStarted(tournament.id, tournament.name)
            if tournament.role_id is not None and tournament.role_id not in roles:
                raise RoleRequired(tournament.id, tournament.name, tournament.role_id)
            if rounds.is_championship(tournament):  # the network's: its members only
                member = await tx.member(user_id, lock=False)
                if member is None or not member.is_member:
                    raise ChampionshipMembersOnly(user_id)
            entrants = await tx.entrants(tournament.id)
            mine = next((e for e in entrants if e.user_id == user_id), None)
            if mine is not None and not mine.withdrawn:
                raise AlreadyJoined(tournament.id, tournament.name)
            playing = [e for e in entrants if not e.withdrawn]
            if tournament.max_players is not None and len(playing) >= tournament.max_players:
                raise TournamentFull(tournament.id, tournament.name, tournament.max_players)
            await tx.ensure_players([user_id], now)
            seed = max((e.seed for e in entrants), default=0) + 1
            if mine is not None:  # back in a league after leaving it: a newcomer again
                entrant = dataclasses.replace(mine, withdrawn_at=None, division=None, seed=seed)
                await tx.save_entrant(entrant)
            else:
                entrant = Entrant(tournament.id, user_id, seed, now)
                await tx.add_entrant(entrant)
            count = len(playing) + 1
            started = (
                tournament.is_open
                and tournament.starts_at is None
                and tournament.max_players is not None
                and count >= tournament.max_players
            )
            if started:
                tournament = await rounds.begin(tx, tournament, now)
        log.info("tournament %s: %s joined (%d in)", tournament.id, user_id, count)
        return Joined(tournament, entrant, count, started)

    async def leave(self, tournament_id: int, user_id: UserId) -> Tournament:
        """Leave a tournament before it begins (a league: leave it for good, withdrawing)."""
        now = self._now()
        async with self._store.write() as tx:
            await tx.lock_games_first(tournament_id, user_id)  # as a game's end takes them
            tournament = await _open_tournament(tx, tournament_id)
            if tournament.is_running and tournament.is_league:
                await withdrawals.withdraw(
                    tx, tournament, user_id, now, self._outbox.claim(), hooks=self._hooks
                )
                return tournament
            if not tournament.is_open:
                raise TournamentStarted(tournament.id, tournament.name)
            if not await tx.remove_entrant(tournament.id, user_id):
                raise NotEntered(tournament.id, tournament.name)
        return tournament

    async def withdraw(self, tournament_id: int, user_id: UserId) -> Tournament:
        """Withdraw from a running tournament: the games still to play are lost (a running
        game as by resignation, a game not begun as a forfeit), those played count."""
        now = self._now()
        async with self._store.write() as tx:
            await tx.lock_games_first(tournament_id, user_id)  # as a game's end takes them
            tournament = await _open_tournament(tx, tournament_id)
            if tournament.is_open:
                raise TournamentNotStarted(tournament.id, tournament.name)
            if tournament.is_over:
                raise TournamentOver(tournament.id, tournament.name)
            await withdrawals.withdraw(
                tx, tournament, user_id, now, self._outbox.claim(), hooks=self._hooks
            )
        log.info("tournament %s: %s withdrew", tournament_id, user_id)
        return tournament

    # --- running ---------------------------------------------------------------------------

    async def start(self, tournament_id: int, by: UserId, *, organiser: bool) -> Tournament:
        """The organiser starts a tournament now, with the players in."""
        now = self._now()
        async with self._store.write() as tx:
            tournament = await _open_tournament(tx, tournament_id)
            _check_organiser(tournament, by, organiser)
            if not tournament.is_open:
                raise TournamentStarted(tournament.id, tournament.name)
            return await self._begin(tx, tournament, now)

    async def _begin(self, tx: Writer, tournament: Tournament, now: datetime) -> Tournament:
        playing = [e for e in await tx.entrants(tournament.id) if not e.withdrawn]
        needed = 3 if tournament.is_league else MIN_PLAYERS
        if len(playing) < needed:
            raise TooFewPlayers(tournament.id, tournament.name, len(playing), needed)
        most = most_swiss_rounds(len(playing))  # an odd count: the bye's seat too
        if tournament.rounds is not None and tournament.rounds > most:
            raise TooManyRounds(tournament.rounds, len(playing), most)
        started = await rounds.begin(tx, tournament, now)
        log.info("tournament %s began with %d players", tournament.id, len(playing))
        return started

    async def begin_due(self) -> Begun:
        """The housekeeping pass's job: :meth:`start_due`."""
        return Begun(tuple(await self.start_due()))

    async def start_due(self) -> list[Tournament]:
        """Begin the open tournaments whose start time has come (housekeeping); one with too
        few players is cancelled, and says so."""
        begun = []
        for tournament_id in await self._store.tournaments_due(self._now()):
            now = self._now()
            async with self._store.write() as tx:
                tournament = await tx.tournament(tournament_id)
                if tournament is None or not tournament.is_open:
                    continue
                try:
                    begun.append(await self._begin(tx, tournament, now))
                except (TooFewPlayers, TooManyRounds):
                    if rounds.is_championship(tournament):
                        continue  # the network's stands: it begins once enough have entered
                    await self._cancel_in(tx, tournament, tournament.organiser_id, now)
        return begun

    async def make_seasons(self) -> SeasonsMade:
        """The housekeeping pass's job ``tournaments: seasons being made``: the divisions of a
        league season still to make (a season of more than
        :data:`~bot.games.tournaments.rounds.MADE_AT_ONCE` divisions, whose start only planned
        them), made :data:`~bot.games.tournaments.rounds.DIVISIONS_A_BATCH` a transaction,
        until none is left. A batch takes the
        league's row first, so that two processes take turns, and a division's places go in the
        transaction that makes it: a process killed between two batches leaves the next pass
        the divisions not made, and nothing is made twice. A pass spends at most
        :data:`SEASONS_PASS_SECONDS` at it (the next goes on), so that the pass's other jobs
        (losses on time, reminders) wait no longer for a thousand divisions. A player placed
        who withdrew since loses their games in it at once, as one withdrawing during a season
        (those games are this batch's own, locked by nobody else). The plan of a league
        cancelled meanwhile is dropped. A season over whose next is not planned yet is planned
        first (:meth:`plan_seasons`)."""
        planned = await self.plan_seasons()
        made = 0
        started = time.monotonic()
        for league_id, season in await self._store.seasons_being_made():
            while time.monotonic() - started < SEASONS_PASS_SECONDS:
                now = self._now()
                async with self._store.write() as tx:
                    league = await tx.tournament(league_id)
                    if league is None or not league.is_running or league.season != season:
                        dropped = await tx.drop_season_places(league_id)
                        log.warning("league %s: %d places of no season to make", league_id, dropped)
                        break
                    batch = await rounds.make_divisions(tx, league, now)
                    for division, user_id in batch.withdrawn:
                        await withdrawals.forfeit_rest(
                            tx, division, user_id, now, self._outbox.claim(), hooks=self._hooks
                        )
                if not batch.divisions:
                    break
                made += batch.divisions
                log.info("league %s: season %s, %d divisions made", league_id, season, made)
        return SeasonsMade(made, planned)

    async def plan_seasons(self) -> int:
        """Plan the next season of every league whose season is over unplanned (a league of
        more than :data:`~bot.games.tournaments.rounds.MADE_AT_ONCE` divisions, whose last
        game's end only ended it): what the plan needs is read and the next season computed
        (a thousand divisions' standings, the pyramid: seconds of pure Python) outside any
        write transaction, then written in one short one, which first reads the league's row
        (two processes take turns) and the season's mark
        (:meth:`~bot.storage.Writer.season_mark`): if anything the plan was computed from
        changed meanwhile (a withdrawal, a newcomer, a result, another process planning it),
        nothing is written and it is computed again (:data:`PLAN_ATTEMPTS` times at most,
        then left to the next pass). Returns how many seasons it planned."""
        planned = 0
        for league_id, season in await self._store.seasons_over():
            for _ in range(PLAN_ATTEMPTS):
                done = await self._plan_season(league_id, season)
                if done is not None:
                    planned += done
                    break
            else:
                log.warning(
                    "league %s: season %s changed while planned: next pass", league_id, season
                )
        return planned

    async def _plan_season(self, league_id: int, season: int) -> bool | None:
        """Plan ``league_id``'s season after ``season``: ``True`` if written, ``False`` if there
        is none to plan (any more), ``None`` if something changed while it was computed."""
        mark = await self._store.season_mark(league_id, season)  # before what it sums up
        league = await self._store.tournament(league_id)
        if league is None or not league.is_running or league.season != season:
            return False
        divisions = await self._store.divisions(league_id, season)
        if not divisions or not all(d.status is TournamentStatus.FINISHED for d in divisions):
            return False
        if await self._store.season_places(league_id, season):
            return False
        now = self._now()
        computing = time.perf_counter()
        end = await rounds.read_season_end(self._store, league, divisions)
        # Seconds of pure Python: in a thread, so that the event loop answers players meanwhile.
        ended = await asyncio.to_thread(rounds.next_season_of, end, now)
        log.info(
            "league %s: season %s's next computed in %.1f s",
            league_id,
            season,
            time.perf_counter() - computing,
        )
        async with self._store.write() as tx:
            current = await tx.tournament(league_id)  # the league's lock first, as a batch
            if current is None or await tx.season_mark(league_id, season) != mark:
                log.info(
                    "league %s: season %s changed while its next was computed", league_id, season
                )
                return None
            await rounds.end_season(tx, current, ended, now)
        return True

    async def cancel(self, tournament_id: int, by: UserId, *, organiser: bool) -> Tournament:
        """The organiser calls a tournament off: its running games are aborted."""
        now = self._now()
        async with self._store.write() as tx:
            await tx.lock_games_first(tournament_id)  # as a game's end takes them
            tournament = await _open_tournament(tx, tournament_id)
            _check_organiser(tournament, by, organiser)
            if tournament.is_over:
                raise TournamentOver(tournament.id, tournament.name)
            return await self._cancel_in(tx, tournament, by, now)

    async def _cancel_in(
        self, tx: Writer, tournament: Tournament, by: UserId, now: datetime
    ) -> Tournament:
        cancelled = await tx.save_tournament(
            dataclasses.replace(tournament, status=TournamentStatus.CANCELLED, finished_at=now)
        )
        for part in await rounds.parts_of(tx, cancelled):
            if part.is_division and part.is_running:
                await tx.save_tournament(
                    dataclasses.replace(part, status=TournamentStatus.CANCELLED, finished_at=now)
                )
            for pairing in await tx.pairings(part.id):
                if pairing.game_id is None or pairing.is_decided:
                    continue
                game = await tx.game(pairing.game_id)
                if game is None:
                    continue
                if game.status is GameStatus.ACTIVE:
                    claim = rounds.unclaimed(self._outbox.claim(), now)  # posted by the caller
                    await finish(tx, game, Ending.abort(by), now, claim, hooks=self._hooks)
                elif game.status is GameStatus.PENDING:
                    await tx.save_game(ended(game, Ending.abort(by), now), game.version)
        await rounds.news(tx, cancelled, tournament_news(cancelled, cancelled=True), now)
        log.info("tournament %s cancelled by %s", tournament.id, by)
        return cancelled

    async def begin_game(
        self, game_id: int, channel_id: ChannelId, parent_channel_id: ChannelId | None
    ) -> GameStarted | None:
        """A tournament's game got its thread: it begins there, its clock starts, and its
        first post is written (claimed by this process). ``None`` if it had begun already (a
        second try) or ended without play (a withdrawal)."""
        now = self._now()
        async with self._store.write() as tx:
            game = await tx.game(game_id)
            if game is None or game.status is not GameStatus.PENDING:
                return None
            control = timecontrol.from_columns(game.clock_days, game.bank)
            paused = None
            if control is not None:
                paused = (await tx.prefs(game.white_id, lock=False)).vacation_until
            begins = clocks.GameClock.starting(control, now, paused).deadline_at
            if not await tx.begin_pending_game(game_id, channel_id, parent_channel_id, begins, now):
                return None
            begun = await tx.game(game_id)
            assert begun is not None
            notice = await tx.enqueue(announcements.started(begun), now, self._outbox.claim())
        return GameStarted(None, begun, notice)

    async def pending_game(self, game_id: int) -> Game | None:
        """A tournament's game still waiting for its thread, if it is."""
        game = await self._store.game(game_id)
        return game if game is not None and game.status is GameStatus.PENDING else None


def _check_organiser(tournament: Tournament, by: UserId, organiser: bool) -> None:
    if not runs(tournament, by, organiser=organiser):
        raise NotOrganiser(tournament.id, by)


async def _open_tournament(tx: Writer, tournament_id: int) -> Tournament:
    tournament = await tx.tournament(tournament_id)
    if tournament is None:
        raise TournamentNotFound(tournament_id)
    return tournament
