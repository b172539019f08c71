"""The outbox's claims: two deliverers racing for the same rows each take different ones, a
game's rows go out oldest first, and a crashed deliverer's rows are taken over after its lease."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

import rules
from bot.games import GameService
from bot.games.outbox import Outbox
from bot.storage import Store, open_database
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
