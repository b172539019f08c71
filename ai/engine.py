"""Thinking off the event loop: a process pool that serves several games fairly.

Within a coroutine (the bot's turn)::

    move = await engine.choose(position.to_text(), Level.STRONG, 2.0, game=game_id)

Requests wait in one queue per game and are handed to the workers round-robin across games, so
a game that asks for many moves (hints, say) cannot starve the others. Positions cross the
process boundary as :meth:`rules.Position.to_text` strings and moves come back as text.

A game review asks for the engine's estimate of many positions (:meth:`Engine.estimate`, see
:mod:`ai.review`); they queue the same way, so a review shares the workers fairly with the
games being played.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.context import BaseContext
from types import TracebackType
from typing import Any

from ai.choose import choose_move
from ai.levels import Level
from ai.review import Estimate, estimate
from ai.workers import process_pool
from rules import Move, Position, legal_moves, parse_move


def _warm_up() -> None:
    """Run in each worker as it starts: build the lazily filled tables before the first game."""
    choose_move(Position(), level=Level.BEGINNER)


def think_in_worker(position_text: str, level: str, budget: float | None, seed: int) -> str:
    """The worker's side: read the position, choose, answer in text."""
    pos = Position.from_text(position_text)
    return str(choose_move(pos, level=Level(level), budget=budget, seed=seed))


def estimate_in_worker(
    position_text: str,
    budget: float | None,
    max_nodes: int | None,
    seed: int,
    depth: int | None = None,
) -> tuple[str, float, bool, int]:
    """The worker's side of a review's search: read the position, estimate, answer plainly."""
    pos = Position.from_text(position_text)
    return estimate(pos, budget=budget, max_nodes=max_nodes, seed=seed, depth=depth).to_wire()


@dataclass(eq=False, slots=True)
class _Request:
    work: functools.partial[Any]
    """The worker function and its arguments (picklable: a module-level function)."""
    read: Callable[[Any], Any]
    """Turns the worker's plain answer into the caller's."""
    answer: asyncio.Future[Any]
    attempts: int = field(default=0)


class Engine:
    """A pool of ``workers`` processes choosing moves for many games at once.

    Use it as an async context manager, or call :meth:`close`. ``mp_context`` defaults to
    ``spawn``: forking a process that runs other threads (database drivers, discord.py) is
    unsafe. ``executor`` replaces the process pool (a thread pool in tests, say); the engine
    then still hands it at most ``workers`` requests at a time, and shuts it down on close.
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        mp_context: BaseContext | None = None,
        executor: Executor | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"an engine needs at least one worker, not {workers}")
        self.workers = workers
        self._context = mp_context or multiprocessing.get_context("spawn")
        self._pool: Executor | None = executor
        self._queues: dict[Hashable, deque[_Request]] = {}
        self._turns: deque[Hashable] = deque()  # games with waiting requests, in serving order
        self._running = 0
        self._closed = False

    # --- public API --------------------------------------------------------------------------

    async def choose(
        self,
        position: str | Position,
        level: Level | str,
        budget: float | None,
        *,
        seed: int = 0,
        game: Hashable = None,
    ) -> Move:
        """The move ``level`` plays in ``position`` (a position text, or a position).

        ``budget`` is the thinking time in seconds once a worker takes the request (time spent
        waiting for a free worker is not counted). ``game`` groups requests for fair queueing.
        Raises ``ValueError`` for a finished game, a bad position text or budget, and
        ``RuntimeError`` once the engine is closed.
        """
        text, pos = self._request(position, budget)
        if not legal_moves(pos):
            raise ValueError("the game is over: there is no move to choose")
        level = level if isinstance(level, Level) else Level.parse(level)
        work = functools.partial(think_in_worker, text, level.value, budget, seed)
        move: Move = await self._submit(work, parse_move, game)
        return move

    async def estimate(
        self,
        position: str | Position,
        budget: float | None,
        *,
        max_nodes: int | None = None,
        seed: int = 0,
        depth: int | None = None,
        game: Hashable = None,
    ) -> Estimate:
        """The review's search of ``position`` (:func:`ai.review.estimate`): the engine's move
        and what the position is worth to the side to act.

        ``budget`` as for :meth:`choose`; with ``budget=None``, ``max_nodes`` bounds the search;
        ``depth``, if given, how many plies deep it may go at most.
        Raises ``ValueError`` unless the side to act has a choice, or for a bad position text,
        budget or depth, and ``RuntimeError`` once the engine is closed.
        """
        text, pos = self._request(position, budget)
        if len(legal_moves(pos)) < 2:
            raise ValueError("nothing to weigh: the side to act has no choice here")
        if depth is not None and depth < 1:
            raise ValueError(f"a search goes at least one ply deep, not {depth}")
        work = functools.partial(estimate_in_worker, text, budget, max_nodes, seed, depth)
        found: Estimate = await self._submit(work, Estimate.from_wire, game)
        return found

    def pending(self) -> int:
        """Requests waiting for a worker (not counting the ones being thought about)."""
        return sum(len(q) for q in self._queues.values())

    async def close(self) -> None:
        """Stop the workers; requests still waiting fail with ``RuntimeError``."""
        self._closed = True
        for queue in self._queues.values():
            for request in queue:
                if not request.answer.done():
                    request.answer.set_exception(RuntimeError("the engine was closed"))
        self._queues.clear()
        self._turns.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: pool.shutdown(wait=True, cancel_futures=True)
            )

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- scheduling --------------------------------------------------------------------------

    def _request(self, position: str | Position, budget: float | None) -> tuple[str, Position]:
        """A request's position as text and read, once the engine, the budget and the text have
        been checked (before anything is queued)."""
        if self._closed:
            raise RuntimeError("the engine is closed")
        if budget is not None and budget <= 0:
            raise ValueError(f"the time budget must be positive, not {budget}")
        if isinstance(position, Position):
            return position.to_text(), position
        return position, Position.from_text(position)  # PositionTextError (a ValueError)

    async def _submit(
        self, work: functools.partial[Any], read: Callable[[Any], Any], game: Hashable
    ) -> Any:
        """Queue ``work`` behind ``game``'s other requests and wait for its answer."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        request = _Request(work, read, answer)
        queue = self._queues.get(game)
        if queue is None:
            self._queues[game] = queue = deque()
            self._turns.append(game)
        queue.append(request)
        self._dispatch()
        return await answer

    def _executor(self) -> Executor:
        if self._pool is None:
            # Its workers end with this process, even when it is killed (ai.workers).
            self._pool = process_pool(self.workers, self._context, initializer=_warm_up)
        return self._pool

    def _next_request(self) -> _Request | None:
        """The next request, round-robin over the games; skips requests nobody awaits now."""
        while self._turns:
            game = self._turns.popleft()
            queue = self._queues[game]
            request = queue.popleft()
            if queue:
                self._turns.append(game)  # its next request waits for the other games' turns
            else:
                del self._queues[game]
            if not request.answer.done():  # a cancelled caller leaves a done future behind
                return request
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.workers and not self._closed:
            request = self._next_request()
            if request is None:
                return
            self._running += 1
            request.attempts += 1
            pool = self._executor()
            work = loop.run_in_executor(pool, request.work)
            work.add_done_callback(functools.partial(self._finished, request, pool))

    def _finished(self, request: _Request, pool: Executor, done: asyncio.Future[Any]) -> None:
        self._running -= 1
        answer = request.answer
        if not answer.done():
            error = None if done.cancelled() else done.exception()
            if done.cancelled():
                answer.set_exception(RuntimeError("the engine was closed"))
            elif isinstance(error, BrokenProcessPool) and request.attempts < 2 and not self._closed:
                # A worker died (killed, out of memory): start a fresh pool and try once more.
                if self._pool is pool:  # the first of its requests to notice replaces it
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
                self._requeue(request)
            elif error is not None:
                answer.set_exception(error)
            else:
                try:
                    answer.set_result(request.read(done.result()))
                except Exception as unreadable:  # the caller gets it, not the event loop
                    answer.set_exception(unreadable)
        if not self._closed:
            self._dispatch()

    def _requeue(self, request: _Request) -> None:
        key = ("retry", id(request))
        self._queues[key] = deque([request])
        self._turns.appendleft(key)
