"""The outbox's claims: two deliverers racing for the same rows each take different ones, a
game's rows go out oldest first, and a crashed deliverer's rows are taken over after its lease."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

import rules
from bot.games.core.outbox import Outbox
from bot.games.service import GameService
from bot.storage import Notification, Store, open_database
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import start_game


@pytest.fixture
async def second(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database."""
    service = GameService(Store(await open_database(database_target)), clock=clock)
    yield service
    await service.close()


async def _play(service: GameService, games: int, moves: int) -> list[int]:
    """Start games and play moves in them; returns the announcements written, in order."""
    rng = random.Random(1)
    written: list[int] = []
    for channel in range(games):
        game = await start_game(service, channel=100 + channel)
        for _ in range(moves):
            mover = game.to_move_id
            assert mover is not None
            move = rng.choice([m for m in rules.legal_moves(game.position) if m != rules.PASS])
            outcome = await service.play(game.id, mover, move)
            written.append(outcome.announcement)
            game = outcome.game
    return written


async def _deliver_all(outbox: Outbox, posted: list[tuple[str, int, int]]) -> None:
    """A deliverer's loop: claim each game's next row, "post" it, mark it; until none is left."""
    while found := await outbox.claimable():
        for notification in found:
            assert notification.game_id is not None
            while (row := await outbox.claim_next(notification.game_id)) is not None:
                posted.append((outbox.claimant, row.game_id or 0, row.id))
                await asyncio.sleep(0.005)  # posting takes a while: the other one runs
                outbox.sent(row.id)
                await outbox.flush()


async def test_two_deliverers_racing_post_each_row_once_in_order(
    service: GameService, second: GameService, clock: ManualClock, database_target: str
) -> None:
    written = await _play(service, games=4, moves=6)
    assert await second.outbox.claimable() == []  # the writer holds them: nobody else posts
    clock.advance(service.outbox.lease * 2)  # the writer died: its claims run out
    third = GameService(Store(await open_database(database_target)), clock=clock)
    try:
        posted: list[tuple[str, int, int]] = []
        await asyncio.gather(
            _deliver_all(second.outbox, posted), _deliver_all(third.outbox, posted)
        )
    finally:
        await third.close()
    ids = [row for _, _, row in posted]
    assert sorted(ids) == sorted(set(ids)), "a row was posted twice"
    assert set(written) <= set(ids)  # and the games' first posts too
    for game in {g for _, g, _ in posted}:
        in_game = [row for _, g, row in posted if g == game]
        assert in_game == sorted(in_game), f"game {game}'s rows out of order"
    assert {who for who, _, _ in posted} == {second.outbox.claimant, third.outbox.claimant}


async def test_a_live_claim_is_not_taken_and_a_clean_stop_lets_go_of_it(
    service: GameService, second: GameService, clock: ManualClock
) -> None:
    (written,) = await _play(service, games=1, moves=1)
    game = await service.outbox.get(written)
    assert game is not None and game.game_id is not None
    assert await second.outbox.claim_next(game.game_id) is None  # the writer still holds it
    await service.outbox.close()  # a clean stop: the claims are let go at once
    taken = await second.outbox.claim_next(game.game_id)
    assert taken is not None and taken.claimed_by == second.outbox.claimant


async def test_a_row_whose_mark_commits_during_the_next_claim_is_not_posted_again(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = await _play(service, games=1, moves=2)
    outbox, store = service.outbox, service.store
    row = await outbox.get(first)
    assert row is not None and row.game_id is not None
    while (claimed := await outbox.claim_next(row.game_id)) is not None and claimed.id < first:
        outbox.sent(claimed.id)  # the game's first post
        await outbox.flush()
    assert claimed is not None and claimed.id == first
    outbox.sent(first)  # posted: its mark waits for the next batch
    read = store.unsent_notifications

    async def read_then_flush(game_id: int, limit: int = 20) -> list[Notification]:
        rows = await read(game_id, limit)
        await outbox.flush()  # the batch commits while the read is on its way back
        return rows

    monkeypatch.setattr(store, "unsent_notifications", read_then_flush)
    after = await outbox.claim_next(row.game_id)
    assert after is not None and after.id == second, "the posted row was claimed again"


async def test_an_ended_process_s_claims_and_leases_are_taken_over_at_once(
    database_target: str, clock: ManualClock
) -> None:
    dead = await GameService.open(database_target, clock=clock)
    written = await _play(dead, games=2, moves=2)
    assert await dead.leases.take("computer:1")
    # The process ends without a clean stop (killed): its database connections close and
    # nothing else happens; its claims and its lease have not run out.
    await dead.store.db.close()
    heir = await GameService.open(database_target, clock=clock)
    try:
        assert await heir.outbox.claimable() == []
        assert await heir.leases.held_by_others("computer:") == {"computer:1"}
        claims, leases = await heir.take_over()
        assert claims == len(written) + 2 and leases == 1  # the games' first posts too
        found = await heir.outbox.claimable()
        assert {n.game_id for n in found} == {1, 2}  # each game's oldest row, at once
        assert await heir.leases.held_by_others("computer:") == set()
        assert await heir.take_over() == (0, 0)
    finally:
        await heir.close()


async def test_a_live_process_s_claims_and_leases_are_left_to_it(
    database_target: str, clock: ManualClock
) -> None:
    live = await GameService.open(database_target, clock=clock)
    other = await GameService.open(database_target, clock=clock)
    try:
        await _play(live, games=1, moves=2)
        assert await live.leases.take("computer:1")
        assert await other.take_over() == (0, 0)
        assert await other.outbox.claimable() == []
        assert not await other.leases.take("computer:1")
    finally:
        await other.close()
        await live.close()
