"""A tournament moves on once, whatever happens while it does.

* Two processes on one PostgreSQL database end a round's last two games at the same moment
  (two :class:`GameService` instances, each with its own connections; a barrier holds each
  transaction, its game saved, until the other's is there too): the tournament's row lock
  makes the second wait for the first and see its result, so exactly one next round is
  paired (without the lock neither sees both results, and the tournament stalls).
* A cancellation, or a withdrawal (from a Swiss, a round robin, a league), at the moment a
  game of the tournament ends: both take their locks in one order (games, then the
  tournament, then the players' ratings), so one waits for the other; in opposite orders
  PostgreSQL ended one of them as a deadlock, failing a player's command.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime

import psycopg
import pytest

from bot.games import (
    GameService,
    GameStatus,
    ServiceError,
    TournamentFormat,
    TournamentStatus,
    rounds,
    tournaments,
)
from bot.games.announcements import TOURNAMENT_GAME, TOURNAMENT_NEWS
from bot.storage import Claim, Game, Store, Tournament, UserId, Writer, open_database

GUILD, CHANNEL, ORGANISER = 1, 2, 100
RACES = 10
"""Tournaments raced, each at every round's end (the barrier makes each race certain; the
repetitions vary which transaction takes the lock first)."""
MEETING_TIMEOUT = 10.0
"""Seconds a transaction waits at the barrier for the other one (a hang fails, not blocks)."""


# --- two processes end a round's last two games at once (PostgreSQL) -------------------------


class Meeting:
    """Holds :func:`rounds.lock_for_end` (inside the game-ending transaction, the game saved,
    before the tournament's row is read) until ``parties`` transactions are there at once."""

    def __init__(self) -> None:
        self.barrier: asyncio.Barrier | None = None
        self.met = 0

    def arm(self, parties: int = 2) -> None:
        self.barrier = asyncio.Barrier(parties)

    def hook(
        self, original: Callable[[Writer, Game], Awaitable[None]]
    ) -> Callable[[Writer, Game], Awaitable[None]]:
        async def lock_for_end(tx: Writer, game: Game) -> None:
            barrier = self.barrier
            if barrier is not None:
                async with asyncio.timeout(MEETING_TIMEOUT):
                    await barrier.wait()
                self.met += 1
            await original(tx, game)

        return lock_for_end


@pytest.fixture
async def two_services(postgres_url: str) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services on one PostgreSQL database, as two processes have (each its own pool)."""
    first = GameService(Store(await open_database(postgres_url)), rng=random.Random(1))
    second = GameService(Store(await open_database(postgres_url)), rng=random.Random(2))
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def _rows(url: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as conn:
        return list(conn.execute(sql, params).fetchall())


async def _begin_waiting(service: GameService, tournament_id: int) -> list[int]:
    """What the Discord side does for each game waiting for its thread: the game begins."""
    begun = []
    for pair in (await service.tournaments.standing(tournament_id)).pairings:
        if pair.game_id is None or await service.tournaments.pending_game(pair.game_id) is None:
            continue
        started = await service.tournaments.begin_game(pair.game_id, 50_000 + pair.game_id, 2)
        assert started is not None
        begun.append(pair.game_id)
    return begun


async def _lose(service: GameService, game_id: int) -> None:
    """The game's higher-numbered player resigns (so results are known in advance)."""
    game = await service.get_game(game_id)
    await service.resign(game_id, max(game.player_ids))


ROUND_SIZES = {
    TournamentFormat.SWISS: [2, 2, 2],
    TournamentFormat.KNOCKOUT: [2, 1],
    TournamentFormat.ROUND_ROBIN: [6],
}
"""Four players' tournaments: how many games each round has (a round robin's are all paired
at once, as one)."""


@pytest.mark.postgres
@pytest.mark.parametrize("fmt", list(ROUND_SIZES))
async def test_two_processes_ending_a_rounds_last_two_games_at_once_pair_one_next_round(
    two_services: tuple[GameService, GameService],
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    fmt: TournamentFormat,
) -> None:
    first, second = two_services
    meeting = Meeting()
    monkeypatch.setattr(rounds, "lock_for_end", meeting.hook(rounds.lock_for_end))
    sizes = ROUND_SIZES[fmt]
    races = 0
    for race in range(RACES):
        players = [1_000 * (race + 1) + p for p in range(1, 5)]
        made = await first.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            by=ORGANISER,
            organiser=True,
            name=f"Race {race}",
            format=fmt,
            rounds=len(sizes) if fmt is TournamentFormat.SWISS else None,
        )
        for player in players:
            await (first if player % 2 else second).tournaments.join(made.id, player)
        await first.tournaments.start(made.id, ORGANISER, organiser=True)
        for round_number, size in enumerate(sizes, start=1):
            where = f"{fmt} race {race}, round {round_number}"
            games = await _begin_waiting(first, made.id)
            assert len(games) == size, where
            if size == 1:  # a knockout's final: nothing to race
                await _lose(first, games[0])
                continue
            # All but the last two end first (a round robin's whole schedule is one round).
            *earlier, one, other = games
            for game_id in earlier:
                await _lose(first, game_id)
            # Which process ends which game, and which comes first, changes from race to race.
            ends = [_lose(first, one), _lose(second, other)]
            if race % 2:
                ends.reverse()
            meeting.arm()
            await asyncio.gather(*ends)
            meeting.barrier = None
            races += 1
            standing = await first.tournaments.standing(made.id)
            tournament = standing.tournament
            if round_number == len(sizes):
                assert tournament.status is TournamentStatus.FINISHED, where
                continue
            assert tournament.round == round_number + 1, f"{where}: the next round not paired"
            paired = [p for p in standing.pairings if p.round == round_number + 1]
            assert len(paired) == sizes[round_number], f"{where}: {len(paired)} pairings"
        standing = await first.tournaments.standing(made.id)
        assert standing.tournament.status is TournamentStatus.FINISHED
        assert len(standing.pairings) == sum(sizes)
        if not fmt.all_at_once:
            per_round = [
                sum(1 for p in standing.pairings if p.round == r) for r in range(1, len(sizes) + 1)
            ]
            assert per_round == sizes
        for pair in standing.pairings:
            assert pair.game_id is not None
            assert (await first.get_game(pair.game_id)).status is GameStatus.FINISHED
        # Every game announced once (its thread), the end once.
        announced = _rows(
            postgres_url,
            "SELECT game_id, count(*) FROM notifications WHERE kind = %s GROUP BY game_id",
            (TOURNAMENT_GAME,),
        )
        assert all(count == 1 for _, count in announced)
        news = [
            json.loads(str(payload))
            for (payload,) in _rows(
                postgres_url,
                "SELECT payload FROM notifications WHERE kind = %s",
                (TOURNAMENT_NEWS,),
            )
        ]
        finals = [n for n in news if n["tournament"] == made.id and n.get("final")]
        assert len(finals) == 1, f"{fmt} race {race}: {len(finals)} final posts"
    assert meeting.met == 2 * races  # every race's two transactions were open at once


# --- a withdrawal or a cancellation while a game of the tournament ends (PostgreSQL) ----------


class Rendezvous:
    """Holds each named side at its point until every side is at its own, or until
    ``patience`` runs out (a side that waits for the other's lock never gets to its point)."""

    def __init__(self, *sides: str, patience: float = 0.5) -> None:
        self.sides = set(sides)
        self.arrived: set[str] = set()
        self.patience = patience
        self._all = asyncio.Event()

    async def reach(self, side: str) -> None:
        if side in self.arrived or side not in self.sides:
            return
        self.arrived.add(side)
        if self.arrived == self.sides:
            self._all.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._all.wait(), self.patience)


SIDE: contextvars.ContextVar[str] = contextvars.ContextVar("side", default="")
"""Which of the racing calls a task makes (each task of a gather has its own context)."""


async def _as(side: str, call: Awaitable[object]) -> object:
    SIDE.set(side)
    return await call


@pytest.mark.postgres
@pytest.mark.parametrize("change", ["cancel", "withdraw", "league", "round_robin"])
async def test_a_withdrawal_or_a_cancellation_while_a_game_ends_waits_and_never_deadlocks(
    two_services: tuple[GameService, GameService],
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    """The game's end holds its game and then wants its tournament; the organiser's
    cancellation (or a player's withdrawal, from a tournament or a league) holds the
    tournament and then wants its games. In the same order, one waits for the other;
    in opposite orders, PostgreSQL ends one of them as a deadlock (the player's command
    fails). Each side is held where it has taken its first lock until the other is at
    its own: both must succeed, or be refused for a reason a player is told."""
    first, second = two_services
    meeting: Rendezvous | None = None
    lock_for_end = rounds.lock_for_end
    withdraw = rounds.withdraw
    cancel_in = tournaments.Tournaments._cancel_in

    async def held_end(tx: Writer, game: Game) -> None:
        if meeting is not None and SIDE.get() == "end":
            await meeting.reach("end")
        await lock_for_end(tx, game)

    async def held_withdraw(
        tx: Writer, tournament: Tournament, user_id: UserId, now: datetime, claim: Claim
    ) -> None:
        if meeting is not None:
            await meeting.reach("change")
        await withdraw(tx, tournament, user_id, now, claim)

    async def held_cancel(
        self: tournaments.Tournaments,
        tx: Writer,
        tournament: Tournament,
        by: UserId,
        now: datetime,
    ) -> Tournament:
        if meeting is not None:
            await meeting.reach("change")
        return await cancel_in(self, tx, tournament, by, now)

    monkeypatch.setattr(rounds, "lock_for_end", held_end)
    monkeypatch.setattr(rounds, "withdraw", held_withdraw)
    monkeypatch.setattr(tournaments.Tournaments, "_cancel_in", held_cancel)
    outcomes: list[str] = []
    for race in range(RACES // 2):
        players = [1_000 * (race + 1) + p for p in range(1, 5)]
        fmt = {
            "league": TournamentFormat.LEAGUE,
            "round_robin": TournamentFormat.ROUND_ROBIN,
        }.get(change, TournamentFormat.SWISS)
        made = await first.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            by=ORGANISER,
            organiser=True,
            name=f"Race {race}",
            format=fmt,
            rounds=3 if fmt is TournamentFormat.SWISS else None,
        )
        for player in players:
            await first.tournaments.join(made.id, player)
        await first.tournaments.start(made.id, ORGANISER, organiser=True)
        parts = (await first.tournaments.standing(made.id)).divisions or ()
        games: list[int] = []
        for part in (made.id, *(d.tournament.id for d in parts)):
            games += await _begin_waiting(first, part)
        game = await first.get_game(games[0])
        quitter, opponent = sorted(game.player_ids)
        if change == "round_robin":
            # A game of two of the quitter's opponents: its end and the withdrawal's
            # forfeits rate the same player.
            others = [await first.get_game(g) for g in games]
            game = next(g for g in others if quitter not in g.player_ids)
            opponent = min(game.player_ids)
        if change == "league":
            # The division's last game: its end also ends the season, and wants the league.
            for game_id in games[1:]:
                await _lose(first, game_id)
        # The quitter leaves (or the organiser calls it all off) as the opponent resigns.
        if change == "cancel":
            changing: Awaitable[object] = first.tournaments.cancel(
                made.id, ORGANISER, organiser=True
            )
        elif change in ("withdraw", "round_robin"):
            changing = first.tournaments.withdraw(made.id, quitter)
        else:
            changing = first.tournaments.leave(made.id, quitter)
        ending = second.resign(game.id, opponent)
        pair = [_as("change", changing), _as("end", ending)]
        if race % 2:
            pair.reverse()
        meeting = Rendezvous("change", "end")
        results = await asyncio.gather(*pair, return_exceptions=True)
        meeting = None
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, ServiceError):
                raise result  # a deadlock, not a refusal a player can be told
        outcomes.append(" ".join(type(r).__name__ for r in results))
        ended = await first.get_game(game.id)
        assert ended.status in (GameStatus.FINISHED, GameStatus.ABORTED)
        tournament = await first.tournaments.get(made.id)
        if change == "cancel":
            assert tournament.status is TournamentStatus.CANCELLED
        else:
            entrants = (await first.tournaments.standing(made.id)).entrants
            assert any(e.user_id == quitter and e.withdrawn for e in entrants)
    print(outcomes)
