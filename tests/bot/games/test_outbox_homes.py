"""Games with two homes in the outbox: one row per home for each announcement, claimed and
posted per home; and ordinary games (one place) writing and posting exactly what they did
before homes existed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import timedelta

import pytest

import rules
from bot.games.core import announcements
from bot.games.service import GameService
from bot.storage import (
    Game,
    HomeSeat,
    NewGame,
    NewHome,
    Notification,
    Store,
    open_database,
)
from bot.storage import games as stored_games
from tests.bot.clock import ManualClock
from tests.bot.games import ordinary_outbox
from tests.bot.games.test_service import ALICE, BOB, start_game


@pytest.fixture
async def second(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database."""
    service = GameService(Store(await open_database(database_target)), clock=clock)
    yield service
    await service.close()


async def test_ordinary_games_write_and_post_exactly_what_they_did_before_homes(
    service: GameService, clock: ManualClock
) -> None:
    # Recorded (tests/bot/data/ordinary_outbox.json) by the same script before the outbox
    # knew homes: every row of a whole game's announcements (and of the other games' kinds),
    # as written and once delivered, and every post made from them.
    before = json.loads(ordinary_outbox.GOLDEN.read_text(encoding="utf-8"))
    now = await ordinary_outbox.run(service, clock)
    assert len(now["written"]) == len(before["written"]) == 102
    assert now["written"] == before["written"]
    assert now["posts"] == before["posts"]
    assert now["delivered"] == before["delivered"]
    # Every one of them is of its game's one place (the column is new; nothing else is).
    homes = await service.store.db.fetch_all("SELECT DISTINCT home FROM notifications")
    assert [row[0] for row in homes] == [""]


# --- network games: hand-written homes (no command makes them yet) ---------------------------

GUILD_A, GUILD_B = 7001, 7002
NETWORK_A, NETWORK_B = 7101, 7102
THREAD_A, THREAD_B = 7201, 7202
ROUTE = "1234:5678:the-command-s-token"


async def network_game(
    service: GameService, homes: Sequence[NewHome] | None = None, *, white: int = ALICE
) -> Game:
    """A running network game between ``white`` and Bob, with its homes (by default a thread
    in each player's server), its first post written, as the network's use cases will make
    one: through the Writer, in one transaction."""
    black = BOB
    if homes is None:
        homes = (
            NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A, channel_id=THREAD_A),
            NewHome(HomeSeat.BLACK, GUILD_B, NETWORK_B, channel_id=THREAD_B),
        )
    now = service.now()
    async with service.store.write() as tx:
        await tx.ensure_players([white, black], now)
        await tx.join(white, "Alice", GUILD_A, now)
        await tx.join(black, "Bob", GUILD_B, now)
        game = await tx.insert_game(
            NewGame(
                guild_id=None,
                channel_id=homes[0].channel_id or 0,
                parent_channel_id=homes[0].parent_channel_id,
                challenge_id=None,
                white_id=white,
                black_id=black,
                position=rules.new_game(),
                clock_days=3,
                deadline_at=now + timedelta(days=3),
                created_at=now,
                network=True,
            )
        )
        await tx.add_homes(game.id, homes, now)
        await tx.enqueue(announcements.started(game), now, service.outbox.claim())
    return game


async def all_rows(service: GameService) -> list[Notification]:
    """Every row of the outbox, sent or not, oldest first."""
    found = await service.store.db.fetch_all("SELECT id FROM notifications ORDER BY id")
    rows = []
    for (row_id,) in found:
        row = await service.store.db.fetch_one(
            "SELECT id, kind, user_id, game_id, payload, created_at, attempts, claimed_by, "
            "leased_until, answer, home FROM notifications WHERE id = ?",
            (row_id,),
        )
        assert row is not None
        rows.append(
            Notification(
                id=row["id"],
                kind=row["kind"],
                user_id=row["user_id"],
                game_id=row["game_id"],
                payload=json.loads(row["payload"]),
                created_at=service.now(),
                attempts=row["attempts"],
                claimed_by=row["claimed_by"],
                answer=row["answer"],
                home=row["home"],
            )
        )
    return rows


async def play(service: GameService, game: Game, count: int) -> tuple[Game, list[int]]:
    """Play ``count`` placements (the first legal each time); the rows the moves returned."""
    returned = []
    for _ in range(count):
        assert game.to_move_id is not None
        outcome = await service.play(game.id, game.to_move_id, rules.legal_moves(game.position)[0])
        returned.append(outcome.announcement)
        game = outcome.game
    return game, returned


async def test_an_ordinary_game_s_rows_are_of_its_one_place(service: GameService) -> None:
    game = await start_game(service)
    await play(service, game, 2)
    rows = await all_rows(service)
    assert [(r.kind, r.home) for r in rows] == [("game_started", ""), ("turn", ""), ("turn", "")]
    assert await service.outbox.homes_of(game.id) == ("",)


async def test_each_announcement_of_a_network_game_is_a_row_per_home(
    service: GameService,
) -> None:
    game = await network_game(service)
    game, returned = await play(service, game, 3)  # the moves' own path (their group commit)
    async with service.store.write() as tx:  # and any other announcement's (enqueue)
        await tx.enqueue(announcements.ended(game), service.now())
    rows = await all_rows(service)
    assert [(r.kind, r.home) for r in rows] == [
        (kind, home)
        for kind in ("game_started", "turn", "turn", "turn", "game_ended")
        for home in ("W", "B")
    ]
    for white, black in zip(rows[::2], rows[1::2], strict=True):
        assert (white.kind, white.payload, white.game_id) == (black.kind, black.payload, game.id)
        assert white.claimed_by == black.claimed_by  # the writer holds both, as it held one
    # A move's outcome names one of its rows (the white home's: no home was named).
    assert returned == [rows[2].id, rows[4].id, rows[6].id]
    assert await service.outbox.homes_of(game.id) == ("W", "B")


async def test_the_answer_stays_on_the_row_of_the_home_it_was_asked_in(
    service: GameService,
) -> None:
    game = await network_game(service)
    notice = announcements.turn(game, [], answer=ROUTE)
    async with service.store.write() as tx:
        returned = await tx.enqueue(replace(notice, answer_home="B"), service.now())
        unnamed = await tx.enqueue(notice, service.now())
    by_id = {r.id: r for r in await all_rows(service)}
    assert (by_id[returned].home, by_id[returned].answer) == ("B", ROUTE)
    assert by_id[returned - 1].home == "W" and by_id[returned - 1].answer is None
    # No home named: no home's post may take the command's answer.
    assert by_id[unnamed].home == "W"
    assert [by_id[unnamed].answer, by_id[unnamed + 1].answer] == [None, None]
    # One home of both players: it keeps the answer.
    shared = await network_game(service, [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A, channel_id=1)])
    async with service.store.write() as tx:
        one = await tx.enqueue(announcements.turn(shared, [], answer=ROUTE), service.now())
    assert [(r.home, r.answer) for r in await all_rows(service) if r.id == one] == [("*", ROUTE)]


async def test_the_answer_to_a_move_is_the_post_in_the_mover_s_home(
    service: GameService,
) -> None:
    game = await network_game(service)
    returned = []
    for mover in (ALICE, BOB):
        outcome = await service.play(
            game.id, mover, rules.legal_moves(game.position)[0], answer=ROUTE
        )
        returned.append(outcome.announcement)
        game = outcome.game
    by_id = {r.id: r for r in await all_rows(service)}
    assert [(by_id[i].home, by_id[i].answer) for i in returned] == [("W", ROUTE), ("B", ROUTE)]
    others = [r for r in by_id.values() if r.kind == "turn" and r.id not in returned]
    assert [(r.home, r.answer) for r in others] == [("B", None), ("W", None)]
    # An ordinary game's turn keeps its answer, as it did.
    ordinary = await start_game(service, channel=THREAD_A + 100)
    outcome = await service.play(
        ordinary.id, ALICE, rules.legal_moves(ordinary.position)[0], answer=ROUTE
    )
    row = [r for r in await all_rows(service) if r.id == outcome.announcement]
    assert [(r.home, r.answer) for r in row] == [("", ROUTE)]


async def test_a_post_that_names_its_home_is_one_row(service: GameService) -> None:
    game = await network_game(service)
    async with service.store.write() as tx:
        await tx.enqueue(replace(announcements.started(game), home="B"), service.now())
    assert [r.home for r in await all_rows(service)] == ["W", "B", "B"]


async def test_each_home_is_claimed_in_its_own_order_and_one_held_never_holds_the_other(
    service: GameService, second: GameService, clock: ManualClock
) -> None:
    game = await network_game(service)
    await play(service, game, 2)
    clock.advance(service.outbox.lease * 2)  # the writer's claims ran out
    heads = await second.outbox.claimable()
    assert [(r.game_id, r.home, r.kind) for r in heads] == [
        (game.id, "W", "game_started"),
        (game.id, "B", "game_started"),
    ]
    # White's home is rate limited: its first post waits, and its later ones behind it.
    white = await second.outbox.claim_next(game.id, "W")
    assert white is not None and white.kind == "game_started"
    await second.outbox.postpone(white, 600)
    assert await second.outbox.claim_next(game.id, "W") is None
    # Black's home goes on: all three of its posts, in order.
    posted = []
    while (row := await second.outbox.claim_next(game.id, "B")) is not None:
        assert row.home == "B"
        posted.append(row.kind)
        second.outbox.sent(row.id)
        await second.outbox.flush()
    assert posted == ["game_started", "turn", "turn"]
    assert [(r.home, r.kind) for r in await second.outbox.claimable()] == []
    # Another process holding a home's head: the home's rows wait for it, not the other's.
    clock.advance(timedelta(seconds=601))
    assert [(r.home, r.kind) for r in await second.outbox.claimable()] == [("W", "game_started")]
    held = await service.outbox.claim_next(game.id, "W")
    assert held is not None
    assert await second.outbox.claim_next(game.id, "W") is None
    # An ordinary game's lane (home "") finds none of a network game's rows.
    assert await second.outbox.claim_next(game.id) is None


async def test_a_lost_home_gives_up_its_own_posts_only(
    service: GameService, clock: ManualClock
) -> None:
    game = await network_game(service)
    await play(service, game, 2)
    assert not await service.outbox.lose_home(game.id, "W", THREAD_B)  # not White's home
    assert await service.outbox.lose_home(game.id, "W", THREAD_A)
    assert not await service.outbox.lose_home(game.id, "W", THREAD_A)  # once
    assert await service.store.unsent_notifications(game.id, home="W") == []
    assert [r.kind for r in await service.store.unsent_notifications(game.id, home="B")] == [
        "game_started",
        "turn",
        "turn",
    ]
    home = await service.outbox.home(game.id, "W")
    assert home is not None and home.lost_at is not None
    clock.advance(service.outbox.lease * 2)
    assert [r.home for r in await service.outbox.claimable()] == ["B"]


async def test_the_placement_board_to_replace_is_the_one_of_the_same_home(
    service: GameService,
) -> None:
    game = await network_game(service)
    await play(service, game, 2)
    messages = {}
    for home in ("W", "B"):
        while (row := await service.outbox.claim_next(game.id, home)) is not None:
            messages[row.id] = 1000 * (1 if home == "W" else 2) + row.id
            service.outbox.sent(row.id, messages[row.id])
            if row.kind == "turn":
                earlier = await service.outbox.last_turn_post(row)
                if earlier is not None:
                    before, message_id = earlier
                    assert before.home == home and message_id == messages[before.id]
    await service.outbox.flush()
    rows = await all_rows(service)
    last_white = max(r.id for r in rows if r.home == "W")
    last_black = max(r.id for r in rows if r.home == "B")
    found_white = await service.store.last_turn(game.id, last_white + 1, "W")
    found_black = await service.store.last_turn(game.id, last_black + 1, "B")
    assert found_white is not None and found_black is not None
    assert (found_white[0].id, found_white[1]) == (last_white, messages[last_white])
    assert (found_black[0].id, found_black[1]) == (last_black, messages[last_black])
    assert await service.store.last_turn(game.id, last_black + 1) is None  # no row of one place


async def test_an_ordinary_game_is_looked_up_once_a_network_game_each_time(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    ordinary = await start_game(service)
    network = await network_game(service)
    looks: list[int] = []
    read = service.store.home_seats

    async def counted(game_id: int) -> list[str]:
        looks.append(game_id)
        return await read(game_id)

    monkeypatch.setattr(service.store, "home_seats", counted)
    assert service.outbox.has_homes(ordinary.id) is None
    for _ in range(3):
        assert await service.outbox.homes_of(ordinary.id) == ("",)
        assert await service.outbox.homes_of(network.id) == ("W", "B")
    assert looks == [ordinary.id, network.id, network.id, network.id]
    assert service.outbox.has_homes(ordinary.id) is False
    assert service.outbox.has_homes(network.id) is True


async def test_a_network_game_is_found_in_each_of_its_homes(service: GameService) -> None:
    ordinary = await start_game(service, channel=THREAD_A + 100)
    game = await network_game(service)
    dm = 7300  # the bot's DM channel with Bob, home of two network games
    first = await network_game(
        service,
        [
            NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A, channel_id=THREAD_A + 10),
            NewHome(HomeSeat.BLACK, user_id=BOB, channel_id=dm),
        ],
    )
    second = await network_game(
        service,
        [
            NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A, channel_id=THREAD_A + 20),
            NewHome(HomeSeat.BLACK, user_id=BOB, channel_id=dm),
        ],
    )
    store = service.store
    for channel, expected in (
        (THREAD_A, game.id),
        (THREAD_B, game.id),
        (THREAD_A + 100, ordinary.id),
        (THREAD_A + 20, second.id),
        (dm, None),  # two games there: a command must say which
        (NETWORK_A, None),  # the network channel itself is no game's
    ):
        found = await store.active_game_in_channel(channel)
        assert (found and found.id) == expected, channel
        async with store.write() as tx:
            found = await tx.active_game_in_channel(channel)
        assert (found and found.id) == expected, channel
    assert [g.id for g in await store.network_games_in_channel(dm)] == [first.id, second.id]
    assert await store.network_games_in_channel(THREAD_A + 100) == []
    await service.resign(second.id, BOB)
    found = await store.active_game_in_channel(dm)
    assert found is not None and found.id == first.id


async def test_the_running_game_of_a_channel_is_looked_up_by_its_index(
    service: GameService, database_target: str
) -> None:
    # Every command in a game's thread asks for it: the unique index of running ordinary games
    # by channel (narrowed to ordinary games) must serve it, not a scan of all running games.
    if "://" in database_target:
        pytest.skip("SQLite's query plan")
    sql = stored_games._SELECT_ACTIVE_IN_CHANNEL
    plan = await service.store.db.fetch_all(f"EXPLAIN QUERY PLAN {sql}", (1,))
    assert "USING INDEX games_active_by_channel" in " ".join(str(row[-1]) for row in plan)
