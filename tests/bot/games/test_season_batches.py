"""A league season made in batches of divisions, through the game service, on both backends.

A season's plan is written where it starts; a league of no more divisions than a batch is made
whole there, as it always was; a larger one's divisions are made by the housekeeping job
``tournaments: seasons being made``, a batch a transaction, each division exactly once,
whether a process dies between two batches (the next pass goes on) or two processes make it at
once. The season is not over while divisions remain to be made. A small league's last game's end
begins its next season, as it always did; a large one's only ends the season, and the same job
plans the next (computed outside any write transaction, written in a short one that checks
nothing changed meanwhile: planned once, by one of two processes, computed again if a
withdrawal came in between), then makes it the same way. A season is made at once up to
:data:`~bot.games.tournaments.rounds.MADE_AT_ONCE` divisions (twenty), then by batches of
:data:`~bot.games.tournaments.rounds.DIVISIONS_A_BATCH` (five); the tests make both two, so that
a league of seven divisions of three is a large one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence
from datetime import datetime

import pytest

from bot.games.service import GameService
from bot.games.tournaments import rounds, standings
from bot.storage import Store, Tournament, TournamentFormat, TournamentStatus, Writer, open_database
from bot.storage.models import GameStatus
from tests.bot.clock import ManualClock

GUILD, CHANNEL, ORGANISER = 7, 8, 9
SIZE = 3
"""Players a division: 21 players make seven divisions."""
PLAYERS = list(range(2001, 2022))
BATCH = 2


async def service_on(target: str, clock: ManualClock) -> GameService:
    return GameService(Store(await open_database(target)), clock=clock, rng=random.Random(5))


@pytest.fixture
async def service(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    made = await service_on(database_target, clock)
    yield made
    await made.close()


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rounds, "MADE_AT_ONCE", BATCH)
    monkeypatch.setattr(rounds, "DIVISIONS_A_BATCH", BATCH)


async def start_league(service: GameService, players: list[int] = PLAYERS) -> Tournament:
    league = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        by=ORGANISER,
        organiser=True,
        name="League",
        format=TournamentFormat.LEAGUE,
        division_size=SIZE,
    )
    for player in players:
        await service.tournaments.join(league.id, player)
    return await service.tournaments.start(league.id, ORGANISER, organiser=True)


async def made(service: GameService, league_id: int, season: int = 1) -> dict[int, list[int]]:
    """Each division of ``season`` made: its players, by seed (every division once, checked,
    with its round robin's games, each pairing one game of its own)."""
    db = service.store.db
    rows = await db.fetch_all(
        "SELECT division, count(*) AS n FROM tournaments WHERE league_id = ? AND season = ? "
        "GROUP BY division ORDER BY division",
        (league_id, season),
    )
    assert all(row["n"] == 1 for row in rows), rows
    divisions = {}
    for division in await service.store.league_divisions(league_id):
        if division.season != season:
            continue
        assert division.division is not None
        players = [e.user_id for e in await service.store.entrants(division.id)]
        pairings = [p for p in await service.store.pairings(division.id) if p.black_id]
        assert len(pairings) == len(players) * (len(players) - 1) // 2, (division, pairings)
        assert all(p.game_id is not None for p in pairings)
        divisions[division.division] = players
    games = await db.fetch_all(
        "SELECT g.game_id, count(*) AS n FROM tournament_games g JOIN tournaments t "
        "ON t.id = g.tournament_id WHERE t.league_id = ? AND t.season = ? "
        "AND g.game_id IS NOT NULL GROUP BY g.game_id",
        (league_id, season),
    )
    assert all(row["n"] == 1 for row in games)
    return divisions


async def places_left(service: GameService) -> int:
    row = await service.store.db.fetch_one("SELECT count(*) AS n FROM season_places")
    assert row is not None
    return int(row["n"])


def first_season() -> dict[int, list[int]]:
    """The divisions the first season is made of, as a league always cut them."""
    cut = standings.divisions(PLAYERS, size=SIZE)
    return {n: list(members) for n, members in enumerate(cut, start=1)}


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each batch's divisions made, in order (a spy on :func:`rounds.make_divisions`)."""
    batches: list[int] = []
    real = rounds.make_divisions

    async def spy(
        tx: Writer, league: Tournament, now: datetime, *, batch: int | None = None
    ) -> rounds.MadeDivisions:
        done = await real(tx, league, now, batch=batch)
        batches.append(done.divisions)
        return done

    monkeypatch.setattr(rounds, "make_divisions", spy)
    return batches


async def make_one_batch(service: GameService, league_id: int) -> rounds.MadeDivisions:
    """One batch of a league's season, as the job makes it."""
    async with service.store.write() as tx:
        league = await tx.tournament(league_id)
        assert league is not None
        return await rounds.make_divisions(tx, league, service.now())


async def play_season(service: GameService, league_id: int, season: int) -> None:
    """Every game of ``season`` begun in a thread of its own and won by White."""
    for division in await service.store.league_divisions(league_id):
        if division.season != season:
            continue
        for pairing in await service.store.pairings(division.id):
            if pairing.game_id is None or pairing.black_id is None:
                continue
            game = await service.store.game(pairing.game_id)
            assert game is not None
            if game.status is GameStatus.PENDING:
                await service.tournaments.begin_game(game.id, 50_000 + game.id, CHANNEL)
            game = await service.store.game(pairing.game_id)
            assert game is not None
            if game.status is GameStatus.ACTIVE:
                await service.resign(game.id, pairing.black_id)


async def test_a_league_of_no_more_divisions_than_a_batch_is_made_whole_at_its_start(
    service: GameService,
) -> None:
    league = await start_league(service)  # seven divisions: made at once up to twenty
    assert await made(service, league.id) == first_season()
    assert await places_left(service) == 0
    assert (await service.tournaments.make_seasons()).divisions == 0
    entrants = await service.store.entrants(league.id)
    where = {p: n for n, members in first_season().items() for p in members}
    assert {e.user_id: e.division for e in entrants} == where
    assert "tournaments: seasons being made" in service.housekeeping.names


@pytest.mark.usefixtures("small_batches")
async def test_a_larger_season_is_made_a_batch_a_transaction_each_division_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches = counting(monkeypatch)
    league = await start_league(service)
    assert batches == []  # the plan only, where the season starts
    assert await made(service, league.id) == {}
    assert await places_left(service) == len(PLAYERS)
    assert (await make_one_batch(service, league.id)).divisions == BATCH
    assert await made(service, league.id) == {n: first_season()[n] for n in (1, 2)}
    pending = await service.store.db.fetch_all(
        "SELECT id FROM games WHERE status = ?", (GameStatus.PENDING.value,)
    )
    assert len(pending) == 2 * 3  # two divisions of three: three games each
    batches.clear()
    done = await service.tournaments.make_seasons()
    assert done.divisions == 5
    assert batches == [2, 2, 1, 0]
    assert await made(service, league.id) == first_season()
    assert await places_left(service) == 0
    entrants = await service.store.entrants(league.id)
    where = {p: n for n, members in first_season().items() for p in members}
    assert {e.user_id: e.division for e in entrants} == where
    # A second pass has nothing left to make.
    assert (await service.tournaments.make_seasons()).divisions == 0
    assert await made(service, league.id) == first_season()


@pytest.mark.usefixtures("small_batches")
async def test_a_process_killed_between_batches_leaves_the_rest_to_the_next(
    database_target: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await service_on(database_target, clock)
    league = await start_league(first)
    real = rounds.make_divisions
    calls = 0

    async def dies_in_the_second(
        tx: Writer, league: Tournament, now: datetime, *, batch: int | None = None
    ) -> rounds.MadeDivisions:
        nonlocal calls
        calls += 1
        done = await real(tx, league, now, batch=batch)
        if calls == 2:  # its divisions written, not committed: the process is gone
            raise KeyboardInterrupt
        return done

    monkeypatch.setattr(rounds, "make_divisions", dies_in_the_second)
    with pytest.raises(KeyboardInterrupt):
        await first.tournaments.make_seasons()
    await first.close()
    monkeypatch.setattr(rounds, "make_divisions", real)
    second = await service_on(database_target, clock)
    try:
        assert set(await made(second, league.id)) == {1, 2}  # the job's first batch
        assert await places_left(second) == 5 * SIZE
        assert (await second.tournaments.make_seasons()).divisions == 5
        assert await made(second, league.id) == first_season()
        assert await places_left(second) == 0
    finally:
        await second.close()


@pytest.mark.usefixtures("small_batches")
async def test_two_processes_making_a_season_at_once_make_each_division_once(
    database_target: str, clock: ManualClock
) -> None:
    one = await service_on(database_target, clock)
    two = await service_on(database_target, clock)
    try:
        league = await start_league(one)
        done = await asyncio.gather(one.tournaments.make_seasons(), two.tournaments.make_seasons())
        assert sum(d.divisions for d in done) == 7
        assert await made(one, league.id) == first_season()
        assert await places_left(one) == 0
    finally:
        await one.close()
        await two.close()


@pytest.mark.usefixtures("small_batches")
async def test_a_season_is_not_over_while_divisions_remain_and_the_next_is_made_so_too(
    service: GameService,
) -> None:
    league = await start_league(service)
    await make_one_batch(service, league.id)
    await play_season(service, league.id, 1)  # the two divisions made
    running = await service.store.tournament(league.id)
    assert running is not None and running.season == 1 and running.is_running
    assert [d.status for d in await service.store.league_divisions(league.id)] == [
        TournamentStatus.FINISHED
    ] * 2
    assert await places_left(service) == 5 * SIZE
    # The standings read while it is being made: the divisions made.
    assert len(await service.store.league_divisions(league.id)) == 2
    await service.tournaments.make_seasons()
    await play_season(service, league.id, 1)  # the last game's end ends season 1
    over = await service.store.tournament(league.id)
    assert over is not None and over.season == 1 and over.is_running
    assert await service.store.seasons_over() == [(league.id, 1)]
    assert await places_left(service) == 0  # the job plans season 2, then makes it
    done = await service.tournaments.make_seasons()
    assert (done.planned, done.divisions) == (1, 7)
    later = await service.store.tournament(league.id)
    assert later is not None and later.season == 2
    second = await made(service, league.id, 2)
    assert sorted(second) == list(range(1, 8))
    assert sorted(p for members in second.values() for p in members) == PLAYERS


@pytest.mark.usefixtures("small_batches")
async def test_a_player_withdrawn_before_their_division_is_made_loses_its_games(
    service: GameService,
) -> None:
    league = await start_league(service)
    leaver = first_season()[5][0]
    await service.tournaments.withdraw(league.id, leaver)
    await service.tournaments.make_seasons()
    divisions = await made(service, league.id)
    assert divisions[5] == first_season()[5]  # the plan's seats
    fifth = next(d for d in await service.store.league_divisions(league.id) if d.division == 5)
    theirs = [e for e in await service.store.entrants(fifth.id) if e.user_id == leaver]
    assert theirs[0].withdrawn
    lost = [
        p
        for p in await service.store.pairings(fifth.id)
        if leaver in p.player_ids and p.black_id is not None
    ]
    assert lost and all(p.is_decided and p.forfeit for p in lost)


@pytest.mark.usefixtures("small_batches")
async def test_a_league_cancelled_while_being_made_makes_no_more(service: GameService) -> None:
    league = await start_league(service)
    await service.tournaments.cancel(league.id, ORGANISER, organiser=True)
    assert (await service.tournaments.make_seasons()).divisions == 0
    assert await places_left(service) == 0
    assert await made(service, league.id) == {}


async def season_over(service: GameService) -> Tournament:
    """A large league whose first season was made and played to its last game."""
    league = await start_league(service)
    await service.tournaments.make_seasons()
    await play_season(service, league.id, 1)
    return league


def season_two(
    service_players: dict[int, list[int]], leaving: frozenset[int] = frozenset()
) -> None:
    """Season 2 holds every player still in, once."""
    placed = sorted(p for members in service_players.values() for p in members)
    assert placed == [p for p in PLAYERS if p not in leaving]


def computing(monkeypatch: pytest.MonkeyPatch) -> list[rounds.NextSeason]:
    """Each next season computed (a spy on :func:`rounds.next_season_of`)."""
    computed: list[rounds.NextSeason] = []
    real = rounds.next_season_of

    def spy(end: rounds.SeasonEnd, now: datetime) -> rounds.NextSeason:
        computed.append(real(end, now))
        return computed[-1]

    monkeypatch.setattr(rounds, "next_season_of", spy)
    return computed


async def test_a_small_league_s_last_game_begins_its_next_season_as_always(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed = computing(monkeypatch)
    league = await start_league(service)  # seven divisions: no more than twenty
    await play_season(service, league.id, 1)
    assert len(computed) == 1  # in the last game's end
    later = await service.store.tournament(league.id)
    assert later is not None and later.season == 2
    season_two(await made(service, league.id, 2))
    assert await service.store.seasons_over() == []
    assert (await service.tournaments.make_seasons()).planned == 0


@pytest.mark.usefixtures("small_batches")
async def test_a_large_league_s_last_game_only_ends_its_season_the_job_plans_it_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    computed = computing(monkeypatch)
    league = await season_over(service)
    assert computed == []  # nothing computed, nothing written in the last game's end
    assert await places_left(service) == 0
    assert await made(service, league.id, 2) == {}
    unchanged = await service.store.tournament(league.id)
    assert unchanged is not None and unchanged.season == 1 and unchanged.is_running
    assert await service.store.seasons_over() == [(league.id, 1)]
    assert await service.tournaments.plan_seasons() == 1
    assert len(computed) == 1
    later = await service.store.tournament(league.id)
    assert later is not None and later.season == 2
    assert await places_left(service) == len(PLAYERS)  # planned: made by batches
    assert await service.store.seasons_over() == []
    assert await service.tournaments.plan_seasons() == 0  # once
    assert len(computed) == 1
    done = await service.tournaments.make_seasons()
    assert (done.planned, done.divisions) == (0, 7)
    season_two(await made(service, league.id, 2))
    assert await places_left(service) == 0


@pytest.mark.usefixtures("small_batches")
async def test_two_processes_planning_a_season_at_once_plan_it_once(
    database_target: str, clock: ManualClock
) -> None:
    one = await service_on(database_target, clock)
    two = await service_on(database_target, clock)
    try:
        league = await season_over(one)
        done = await asyncio.gather(one.tournaments.make_seasons(), two.tournaments.make_seasons())
        assert sum(d.planned for d in done) == 1
        rows = await one.store.db.fetch_all(
            "SELECT season FROM tournaments WHERE league_id = ? GROUP BY season", (league.id,)
        )
        assert sorted(row["season"] for row in rows) == [1, 2]
        await one.tournaments.make_seasons()
        season_two(await made(one, league.id, 2))
        later = await one.store.tournament(league.id)
        assert later is not None and later.season == 2
    finally:
        await one.close()
        await two.close()


@pytest.mark.usefixtures("small_batches")
async def test_a_season_planned_by_another_process_while_computed_is_not_planned_again(
    database_target: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = await service_on(database_target, clock)
    two = await service_on(database_target, clock)
    try:
        league = await season_over(one)
        real = rounds.read_season_end
        reads = 0

        async def other_plans_meanwhile(
            reader: rounds.SeasonReader, league: Tournament, divisions: Sequence[Tournament]
        ) -> rounds.SeasonEnd:
            nonlocal reads
            reads += 1
            end = await real(reader, league, divisions)
            if reads == 1:
                assert await two.tournaments.plan_seasons() == 1  # the second read is two's
            return end

        monkeypatch.setattr(rounds, "read_season_end", other_plans_meanwhile)
        assert await one.tournaments.plan_seasons() == 0
        assert reads == 2  # one's, then two's; one then found it planned: nothing written
        assert await places_left(one) == len(PLAYERS)
        later = await one.store.tournament(league.id)
        assert later is not None and later.season == 2
        await one.tournaments.make_seasons()
        season_two(await made(one, league.id, 2))
    finally:
        await one.close()
        await two.close()


@pytest.mark.usefixtures("small_batches")
async def test_a_withdrawal_while_the_next_season_is_computed_makes_it_computed_again(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    league = await season_over(service)
    leaver = first_season()[7][0]
    computed = computing(monkeypatch)
    real = rounds.read_season_end

    async def withdrawn_meanwhile(
        reader: rounds.SeasonReader, league: Tournament, divisions: Sequence[Tournament]
    ) -> rounds.SeasonEnd:
        end = await real(reader, league, divisions)
        if not computed:  # after the first read, before its plan is written
            await service.tournaments.withdraw(league.id, leaver)
        return end

    monkeypatch.setattr(rounds, "read_season_end", withdrawn_meanwhile)
    assert await service.tournaments.plan_seasons() == 1
    assert len(computed) == 2  # the first, stale, not written
    stale, fresh = (sorted(p for d in c.placed for p in d) for c in computed)
    assert leaver in stale and leaver not in fresh
    await service.tournaments.make_seasons()
    season_two(await made(service, league.id, 2), leaving=frozenset({leaver}))


@pytest.mark.usefixtures("small_batches")
async def test_a_process_killed_while_planning_leaves_the_season_to_plan(
    database_target: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await service_on(database_target, clock)
    league = await season_over(first)
    real = rounds.end_season

    async def dies(tx: Writer, league: Tournament, ended: rounds.NextSeason, now: datetime) -> None:
        await real(tx, league, ended, now)
        raise KeyboardInterrupt  # the plan written, not committed: the process is gone

    monkeypatch.setattr(rounds, "end_season", dies)
    with pytest.raises(KeyboardInterrupt):
        await first.tournaments.make_seasons()
    await first.close()
    monkeypatch.setattr(rounds, "end_season", real)
    second = await service_on(database_target, clock)
    try:
        assert await places_left(second) == 0
        assert await second.store.seasons_over() == [(league.id, 1)]
        done = await second.tournaments.make_seasons()
        assert (done.planned, done.divisions) == (1, 7)
        season_two(await made(second, league.id, 2))
    finally:
        await second.close()


@pytest.mark.usefixtures("small_batches")
async def test_the_season_s_mark_changes_with_what_its_next_season_is_computed_from(
    service: GameService,
) -> None:
    league = await season_over(service)
    store = service.store
    marks = [await store.season_mark(league.id, 1)]
    async with store.write() as tx:
        assert await tx.season_mark(league.id, 1) == marks[0]  # the same, read either way
    await service.tournaments.join(league.id, 3001)  # a newcomer for the next season
    marks.append(await store.season_mark(league.id, 1))
    await service.tournaments.withdraw(league.id, PLAYERS[0])
    marks.append(await store.season_mark(league.id, 1))
    # A result other than it was (no path of the bot does it; the mark sees it all the same).
    row = await store.db.fetch_one(
        "SELECT g.tournament_id, g.round, g.board FROM tournament_games g JOIN tournaments t "
        "ON t.id = g.tournament_id WHERE t.league_id = ? AND g.result = 'white' LIMIT 1",
        (league.id,),
    )
    assert row is not None
    async with store.db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_games SET result = 'black' "
            "WHERE tournament_id = ? AND round = ? AND board = ?",
            (row["tournament_id"], row["round"], row["board"]),
        )
    marks.append(await store.season_mark(league.id, 1))
    assert len(set(marks)) == len(marks), marks
    assert await service.tournaments.plan_seasons() == 1
    assert await store.season_mark(league.id, 1) != marks[-1]  # the league's row: season 2
