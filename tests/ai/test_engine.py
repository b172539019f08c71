"""The process-pool engine: answers, serves several games at once, and serves them fairly."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

import rules
from ai import Level
from ai.engine import Engine, think_in_worker

from .positions import position_at, random_game


async def test_the_process_pool_answers_concurrent_requests_with_legal_moves() -> None:
    positions = [position_at(seed, 0.6) for seed in range(6)]
    positions = [p for p in positions if rules.legal_moves(p)][:4]
    levels = [Level.BEGINNER, Level.MEDIUM, Level.STRONG, Level.STRONGEST]
    async with Engine(workers=2) as engine:
        moves = await asyncio.gather(
            *(
                engine.choose(pos.to_text(), level, 0.1, seed=1, game=index)
                for index, (pos, level) in enumerate(zip(positions, levels, strict=False))
            )
        )
    for pos, move in zip(positions, moves, strict=False):
        assert move in rules.legal_moves(pos)


async def test_requests_are_served_round_robin_across_games() -> None:
    # One worker: answers come back in the order requests were handed out. Game "a" asks
    # three times before "b" and "c" ask once; they must not wait for all of a's requests.
    pos = position_at(1, 0.7)
    order: list[str] = []
    engine = Engine(workers=1, executor=ThreadPoolExecutor(max_workers=1))

    async def ask(label: str) -> None:
        move = await engine.choose(pos, Level.BEGINNER, None, game=label[0])
        assert move in rules.legal_moves(pos)
        order.append(label)

    try:
        tasks = [asyncio.create_task(ask(label)) for label in ["a1", "a2", "a3", "b1", "c1"]]
        await asyncio.gather(*tasks)
    finally:
        await engine.close()
    assert order == ["a1", "a2", "b1", "c1", "a3"]


async def test_a_cancelled_request_does_not_hold_up_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pos = position_at(2, 0.7)
    # The worker thinks only once the test lets it: a fixed sleep let the first request finish
    # on a busy machine before the others were counted (its thread holds the GIL).
    go = threading.Event()

    def think_when_let(*args: Any) -> str:
        assert go.wait(timeout=30)
        return think_in_worker(*args)

    monkeypatch.setattr("ai.engine.think_in_worker", think_when_let)
    engine = Engine(workers=1, executor=ThreadPoolExecutor(max_workers=1))
    try:
        first = asyncio.create_task(engine.choose(pos, Level.STRONG, 0.2, game=1))
        waiting = asyncio.create_task(engine.choose(pos, Level.STRONG, 0.2, game=2))
        third = asyncio.create_task(engine.choose(pos, Level.BEGINNER, None, game=3))
        await asyncio.sleep(0)  # all three asked: the first is being thought about
        assert engine.pending() == 2
        waiting.cancel()
        go.set()
        assert await first in rules.legal_moves(pos)
        assert await third in rules.legal_moves(pos)
        assert waiting.cancelled()
    finally:
        go.set()
        await engine.close()


async def test_bad_requests_fail_before_reaching_a_worker() -> None:
    engine = Engine(workers=1, executor=ThreadPoolExecutor(max_workers=1))
    try:
        with pytest.raises(ValueError, match="over"):
            await engine.choose(random_game(3)[-1].to_text(), Level.STRONG, 0.1)
        with pytest.raises(rules.PositionTextError):
            await engine.choose("not a position", Level.STRONG, 0.1)
        with pytest.raises(ValueError, match="unknown level"):
            await engine.choose(rules.new_game(), "grandmaster", 0.1)
        with pytest.raises(ValueError, match="positive"):
            await engine.choose(rules.new_game(), Level.EASY, 0)
    finally:
        await engine.close()
    with pytest.raises(RuntimeError, match="closed"):
        await engine.choose(rules.new_game(), Level.STRONG, 0.1)


async def test_closing_fails_the_requests_still_waiting() -> None:
    pos = position_at(4, 0.7)
    engine = Engine(workers=1, executor=ThreadPoolExecutor(max_workers=1))
    running = asyncio.create_task(engine.choose(pos, Level.STRONG, 0.2, game=1))
    queued = asyncio.create_task(engine.choose(pos, Level.STRONG, 0.2, game=2))
    # Close as soon as one request is being thought about and the other waits: a fixed sleep
    # let the first finish on a busy machine (its thread holds the GIL), and then both ran.
    while engine.pending() != 1:
        await asyncio.sleep(0)
    await engine.close()
    with pytest.raises(RuntimeError, match="closed"):
        await queued
    # The request already being thought about either finished or was told the engine closed.
    try:
        assert await running in rules.legal_moves(pos)
    except RuntimeError as error:
        assert "closed" in str(error)


def test_an_engine_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="worker"):
        Engine(workers=0)


class BrokenOnce(ThreadPoolExecutor):
    """An executor whose first job fails as if its worker process had died."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.broken = False

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not self.broken:
            self.broken = True
            future: Future[object] = Future()
            future.set_exception(BrokenProcessPool("a worker died"))
            return future
        return super().submit(fn, *args, **kwargs)


async def test_a_dead_worker_is_replaced_and_the_request_retried() -> None:
    pos = position_at(5, 0.7)
    broken = BrokenOnce()
    async with Engine(workers=1, executor=broken) as engine:
        move = await engine.choose(pos, Level.MEDIUM, 0.1)
    assert broken.broken
    assert move in rules.legal_moves(pos)


async def test_an_answer_that_cannot_be_read_fails_the_request_not_the_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = iter(["not a move", "E3"])
    monkeypatch.setattr("ai.engine.think_in_worker", lambda *_args: next(answers))
    pos = rules.new_game()
    async with Engine(workers=1, executor=ThreadPoolExecutor(1)) as engine:
        with pytest.raises(rules.RulesError):
            await asyncio.wait_for(engine.choose(pos, Level.EASY, 0.1), timeout=5)
        # The engine goes on serving.
        move = await asyncio.wait_for(engine.choose(pos, Level.EASY, 0.1), timeout=5)
        assert move == rules.Place(rules.E3)
