"""The network championship through the game service, on both backends: made once by its job
when a first season's start is configured; entered by network members only; its first season
a pyramid by network rating, begun by the clock; its games network games with homes (begun
when their homes are ready), no server's news; a season played through the service by
resignations; who moves up and down (Little Golem's rule, counted here by hand); the next
season begun by itself with a newcomer in the lowest level; a withdrawn player and one who left
the network out of it; a blocked pair never in one division when it can be avoided."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta

import pytest

from bot.config import FIRST_SEASON_WAIT
from bot.games.core.network import NETWORK, NETWORK_HOME
from bot.games.service import GameService
from bot.games.tournaments import pyramid, rounds
from bot.games.tournaments.announcements import (
    TOURNAMENT_GAME,
    TOURNAMENT_NEWS,
    TOURNAMENT_OPENED,
)
from bot.games.tournaments.championship import DivisionView, Move
from bot.games.tournaments.errors import (
    AlreadyJoined,
    ChampionshipMembersOnly,
    NoChampionship,
    NoSuchDivision,
    NotEntered,
)
from bot.games.tournaments.standings import Standing
from bot.games.tournaments.tables import table
from bot.storage import RatingRow, Store, open_database
from bot.storage.models import GameStatus, TournamentStatus
from tests.bot.clock import ManualClock

GUILDS = {501: 601, 502: 602, 503: 603}
"""Three servers in the network, and their network channels."""
PLAYERS = list(range(1001, 1024))
"""23 players, entering in this order."""
HOMES = [501, 502, 503, None]
"""Where each is homed, in turn (None: their DMs)."""
STAR = 1023
"""The last to enter, with the best network rating: division 1 all the same."""
BLOCKER, BLOCKED = 1011, 1012
"""A blocked pair that the first season's snake would deal into one division (checked)."""
WITHDRAWN = 1014
"""Withdraws in the first season (in a division of seven)."""
LEAVER = 1015
"""Leaves the network during the first season: out of the next."""
NEWCOMER = 1030
"""Enters while the first season runs."""
OUTSIDER = 1040
"""Never joins the network."""


def strength(player: int) -> int:
    """Who beats whom: the higher wins every game. Those low in the first season's ladder
    (1016 to 1022) are strongest, so the division below sends them up."""
    return {STAR: 50}.get(player, player - 1000 + (100 if player >= 1016 else 0))


@pytest.fixture
async def champ(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """The network on, three servers in it, the 23 players members, one blocking another, the
    star rated; the championship's first season a day away."""
    db = await open_database(database_target)
    service = GameService(
        Store(db),
        clock=clock,
        rng=random.Random(3),
        network=True,
        network_clock="days:3",
        network_season_start=clock() + timedelta(days=1),
    )
    for guild, channel in GUILDS.items():
        await service.network.set_channel(guild, channel, 99)
    for n, player in enumerate([*PLAYERS, NEWCOMER]):
        await service.network.join(player, f"P{player}", HOMES[n % len(HOMES)])
    await service.network.block(BLOCKER, BLOCKED)
    async with service.store.write() as tx:
        await tx.add_rating(RatingRow(NETWORK, STAR, 1800.0, 100.0, 0.06), clock())
    yield service
    await service.close()


async def kinds(service: GameService, *kinds: str) -> int:
    marks = ", ".join("?" for _ in kinds)
    row = await service.store.db.fetch_one(
        f"SELECT COUNT(*) AS n FROM notifications WHERE kind IN ({marks})", kinds
    )
    assert row is not None
    return int(row["n"])


async def games_of(service: GameService, status: GameStatus) -> list[int]:
    rows = await service.store.db.fetch_all(
        "SELECT id FROM games WHERE network = 1 AND status = ? ORDER BY id", (status.value,)
    )
    return [int(r["id"]) for r in rows]


async def ready_homes(service: GameService) -> int:
    """Every pending network game's homes made ready (as the Discord side does on reading
    their rows); returns the games begun. Each home has exactly one row to make it."""
    begun = 0
    homes_rows = await service.store.db.fetch_all(
        "SELECT payload FROM notifications WHERE kind = ?", (NETWORK_HOME,)
    )
    written = [json.loads(r["payload"]) for r in homes_rows]
    for game_id in await games_of(service, GameStatus.PENDING):
        homes = await service.store.homes(game_id)
        assert homes, game_id
        for n, home in enumerate(homes):
            mine = [p for p in written if p == {"game": game_id, "seat": home.seat.value}]
            assert len(mine) == 1, (game_id, home, mine)
            ready = await service.network.home_ready(
                game_id, home.seat, 100_000 + game_id * 10 + n, home.parent_channel_id
            )
        begun += ready.started is not None
    return begun


async def season_divisions(service: GameService, season: int) -> list[list[int]]:
    championship = await service.championship.current()
    assert championship is not None
    every = await service.store.league_divisions(championship.id)
    parts = [d for d in every if d.season == season]
    assert [d.division for d in parts] == list(range(1, len(parts) + 1))
    return [[e.user_id for e in await service.store.entrants(d.id)] for d in parts]


async def play_all(service: GameService) -> int:
    """Every running network game ended by the weaker player's resignation; returns how many.
    Ends at once the season's last: the next season begins by itself, its games pending."""
    ended = 0
    for game_id in await games_of(service, GameStatus.ACTIVE):
        game = await service.get_game(game_id)
        if game.status is not GameStatus.ACTIVE:
            continue
        loser = min(game.white_id, game.black_id, key=strength)
        await service.resign(game_id, loser)
        ended += 1
    return ended


def level_of(divisions: Sequence[Sequence[int]], player: int) -> int | None:
    for number, members in enumerate(divisions, start=1):
        if player in members:
            return pyramid.level_of(number)
    return None


async def test_the_job_makes_the_championship_once_and_only_when_a_start_is_configured(
    champ: GameService, clock: ManualClock
) -> None:
    # Without a start configured, the job makes none; without the network on, there is no job.
    bare = GameService(champ.store, clock=clock, network=True)
    assert "network: championship" in bare.housekeeping.names
    assert (await bare.championship.open_due()).championship is None
    assert await bare.championship.current() is None
    off = GameService(champ.store, clock=clock, network_season_start=clock())
    assert "network: championship" not in off.housekeeping.names
    with pytest.raises(NoChampionship):
        await bare.championship.enter(1001)  # none configured: none to enter
    await champ.sweep()
    await champ.sweep()
    made = await champ.store.tournaments_in(NETWORK, [TournamentStatus.OPEN])
    assert len(made) == 1
    championship = made[0]
    assert championship.guild_id == NETWORK and championship.channel_id == 0
    assert championship.is_league and championship.division_size == 10
    assert championship.clock == "days:3" and championship.starts_at == clock() + timedelta(days=1)
    assert await kinds(champ, TOURNAMENT_OPENED, TOURNAMENT_NEWS) == 0  # no server's post


async def test_by_default_its_first_season_starts_a_week_after_it_opened(
    database_target: str, clock: ManualClock
) -> None:
    """The operator's default (``DVONN_NETWORK_SEASON_START`` unset): a wait, not a moment. Made
    once (a later pass or restart makes no other), its start counted from when it opened."""
    store = Store(await open_database(database_target))
    try:
        service = GameService(
            store, clock=clock, network=True, network_season_start=FIRST_SEASON_WAIT
        )
        # Not while nobody is in the network (a bot nobody plays the network on makes none).
        assert (await service.championship.open_due()).championship is None
        assert await service.championship.current() is None
        await service.network.join(2001, "Ann", None)
        opened = (await service.championship.open_due()).championship
        assert opened is not None and opened.starts_at == clock() + timedelta(days=7)
        clock.advance(hours=5)
        again = GameService(
            store, clock=clock, network=True, network_season_start=FIRST_SEASON_WAIT
        )
        assert (await again.championship.open_due()).championship is None
        current = await again.championship.current()
        assert current is not None and current.id == opened.id
        assert current.starts_at == opened.starts_at  # not moved by the restart
    finally:
        await store.close()


async def test_by_default_it_opens_when_first_asked_for(
    database_target: str, clock: ManualClock
) -> None:
    """Nobody in the network yet, someone asks for the championship: it opens then."""
    store = Store(await open_database(database_target))
    try:
        service = GameService(
            store, clock=clock, network=True, network_season_start=FIRST_SEASON_WAIT
        )
        shown = await service.championship.view(viewer=OUTSIDER)
        assert shown.championship.starts_at == clock() + timedelta(days=7)
        assert shown.players == 0 and shown.season is None
        assert (await service.championship.current()) == shown.championship
    finally:
        await store.close()


async def test_only_network_members_enter_once_and_withdraw_before_it_begins(
    champ: GameService,
) -> None:
    await champ.sweep()
    with pytest.raises(ChampionshipMembersOnly):
        await champ.championship.enter(OUTSIDER)
    await champ.network.leave(1001)
    with pytest.raises(ChampionshipMembersOnly):
        await champ.championship.enter(1001)
    await champ.championship.enter(1002)
    with pytest.raises(AlreadyJoined):
        await champ.championship.enter(1002)
    await champ.championship.withdraw(1002)  # before the start: the entry taken back
    with pytest.raises(NotEntered):
        await champ.championship.withdraw(1002)
    view = await champ.championship.view(1002)
    assert view.players == 0 and view.season is None and not view.entered


async def test_too_few_at_the_start_it_waits_open_and_begins_once_enough_are_in(
    champ: GameService, clock: ManualClock
) -> None:
    await champ.sweep()
    await champ.championship.enter(1001)
    clock.advance(days=2)
    await champ.sweep()
    waiting = await champ.championship.current()
    assert waiting is not None and waiting.is_open  # not called off, as a server's would be
    for player in (1002, 1003):
        await champ.championship.enter(player)
    await champ.sweep()
    running = await champ.championship.current()
    assert running is not None and running.is_running and running.season == 1
    assert await season_divisions(champ, 1) == [[1001, 1002, 1003]]


async def test_a_season_is_played_in_homes_and_the_next_begins_by_itself(
    champ: GameService, clock: ManualClock
) -> None:
    await champ.sweep()
    for player in PLAYERS:
        await champ.championship.enter(player)
    # The first season's snake would deal the blocked pair into one division.
    ladder = [STAR, *PLAYERS[:-1]]
    unblocked = pyramid.divide(ladder)
    assert any(BLOCKER in d and BLOCKED in d for d in unblocked)

    clock.advance(days=1, minutes=1)
    await champ.sweep()
    championship = await champ.championship.current()
    assert championship is not None and championship.is_running and championship.season == 1
    first = await season_divisions(champ, 1)
    # 23 players: level 1 of ten (by network rating: the star first), level 2 two divisions.
    assert [len(d) for d in first] == [10, 7, 6]
    assert first[0] == [STAR, *PLAYERS[:9]]
    assert sorted(p for d in first for p in d) == sorted(PLAYERS)
    assert not any(BLOCKER in d and BLOCKED in d for d in first)
    assert await champ.championship.division_numbers() == [1, 2, 3]

    # Its games are network games of no server, pending until their homes are ready.
    pending = await games_of(champ, GameStatus.PENDING)
    assert len(pending) == 45 + 21 + 15
    game = await champ.get_game(pending[0])
    assert game.network and game.guild_id is None and game.status is GameStatus.PENDING
    assert await kinds(champ, TOURNAMENT_GAME, TOURNAMENT_NEWS, TOURNAMENT_OPENED) == 0
    assert await ready_homes(champ) == len(pending)
    assert await games_of(champ, GameStatus.PENDING) == []

    # A newcomer enters while it runs; one withdraws (their games lost); one leaves the network
    # (their games play on); a non-member may not enter.
    await champ.championship.enter(NEWCOMER)
    with pytest.raises(ChampionshipMembersOnly):
        await champ.championship.enter(OUTSIDER)
    await champ.championship.withdraw(WITHDRAWN)
    await champ.network.leave(LEAVER)

    played = await play_all(champ)
    assert played == 45 + 21 + 15 - 6  # the withdrawn player's six were lost by withdrawing
    assert await kinds(champ, TOURNAMENT_NEWS, TOURNAMENT_GAME, TOURNAMENT_OPENED) == 0

    # Its games counted for the network's ratings only.
    rated = await champ.store.rating(NETWORK, STAR)
    assert rated is not None and rated.games == 9
    guild_rated = await champ.store.db.fetch_one(
        "SELECT COUNT(*) AS n FROM ratings WHERE guild_id <> ?", (NETWORK,)
    )
    assert guild_rated is not None and guild_rated["n"] == 0

    # The next season began by itself, in the transaction of the last game's end.
    championship = await champ.championship.current()
    assert championship is not None and championship.season == 2
    second = await season_divisions(champ, 2)
    in_second = sorted(p for d in second for p in d)
    assert WITHDRAWN not in in_second and LEAVER not in in_second
    assert NEWCOMER in in_second and level_of(second, NEWCOMER) == 2
    assert len(in_second) == 23 - 2 + 1

    # Little Golem's rule, counted by hand: the first two of each level-2 division go up; the
    # top division takes four in, so its four last go down; the rest stay.
    def ranked(members: Sequence[int]) -> list[int]:
        return sorted((p for p in members if p != WITHDRAWN), key=strength, reverse=True)

    up = ranked(first[1])[:2] + ranked(first[2])[:2]
    top = ranked(first[0])
    assert sorted(second[0]) == sorted(top[:6] + up)
    down = top[6:]
    assert all(level_of(second, p) == 2 for p in down)
    assert [len(d) for d in second] == [10, 6, 6]
    assert not any(BLOCKER in d and BLOCKED in d for d in second)

    # The first season's standings say who went where; any division can be read.
    view = await champ.championship.view(division=1, season=1)
    assert view.season == 1 and view.level == 1 and view.divisions == 3
    assert view.moves == dict.fromkeys(down, Move.DOWN)
    below = [await champ.championship.view(division=n, season=1) for n in (2, 3)]
    assert [v.level for v in below] == [2, 2]
    assert {p: m for v in below for p, m in v.moves.items()} == dict.fromkeys(up, Move.UP)
    assert view.names[STAR] == f"P{STAR}"
    ranks = [row.player for row in _table(view)]
    assert ranks == top
    mine = await champ.championship.view(NEWCOMER)
    assert mine.season == 2 and mine.level == 2 and mine.entered
    assert mine.division is not None
    assert any(e.user_id == NEWCOMER for e in mine.division.entrants)
    with pytest.raises(NoSuchDivision):
        await champ.championship.view(division=9)

    # The second season is played the same way, with homes again.
    assert await ready_homes(champ) == len(await games_of(champ, GameStatus.ACTIVE))
    # While it runs, the standings show where the rule would send players were it over now.
    during = await champ.championship.view(division=2)
    assert during.season == 2 and during.division is not None
    ranked_two = ranked([e.user_id for e in during.division.entrants])
    await play_all(champ)
    third = await season_divisions(champ, 3)
    assert not any(BLOCKER in d and BLOCKED in d for d in third)
    assert set(ranked_two[:2]) <= set(third[0])
    after = await champ.championship.view(division=2, season=2)
    assert after.moves == dict.fromkeys(ranked_two[:2], Move.UP)  # the lowest level: none down


def _table(view: DivisionView) -> list[Standing]:
    assert view.division is not None
    part = view.division
    return table(part.tournament, part.entrants, part.pairings)


async def test_a_season_being_drawn_reads_as_such_until_its_divisions_are_made(
    champ: GameService, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A season larger than is made at once (made so here: more than one division) is planned
    where it starts; until the job has made a reader's division, the standings say it is being
    drawn, and who moves where is read from the plan."""
    monkeypatch.setattr(rounds, "MADE_AT_ONCE", 1)
    monkeypatch.setattr(rounds, "DIVISIONS_A_BATCH", 1)
    await champ.sweep()
    for player in PLAYERS:
        await champ.championship.enter(player)
    clock.advance(days=1, minutes=1)
    await champ.tournaments.start_due()  # the pass's first job; its next makes the divisions
    drawn = await champ.championship.view(STAR)
    assert drawn.season == 1 and drawn.division is None and drawn.drawing == 3
    with pytest.raises(NoSuchDivision):
        await champ.championship.view(STAR, division=4)
    assert await season_divisions(champ, 1) == []
    async with champ.store.write() as tx:  # one batch, as the job makes it
        league = await champ.championship.current()
        assert league is not None
        locked = await tx.tournament(league.id)
        assert locked is not None
        await rounds.make_divisions(tx, locked, clock())
    top = await champ.championship.view(STAR)
    assert top.division is not None and top.division.tournament.division == 1
    assert top.drawing == 2
    lowest = await champ.championship.view(PLAYERS[-2])  # in a division still to make
    assert lowest.division is None and lowest.drawing == 2
    assert (await champ.tournaments.make_seasons()).divisions == 2
    assert [len(d) for d in await season_divisions(champ, 1)] == [10, 7, 6]
    made = await champ.championship.view(PLAYERS[-2])
    assert made.division is not None and made.drawing == 0
