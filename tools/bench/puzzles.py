"""Benchmark: the time to serve a puzzle, from the request to its board's PNG.

    python -m tools.bench.puzzles [--puzzles 3000] [--players 1000] [--tried 40]
                                  [--requests 2000] [--concurrent 1 4]
                                  [--render-processes 2] [--database TARGET] [--seed 1]

Each request is what ``/puzzle`` does before it answers: the service chooses a puzzle near the
player's rating among those they never tried and begins their try (one transaction:
:meth:`bot.games.puzzles.solving.Puzzles.start`), then the board is drawn as the answer shows it
(the same :func:`render.board_png` call, in worker processes as the bot's renderer makes it).
Before the timed requests, ``--players`` players have each tried ``--tried`` puzzles of a
book of ``--puzzles`` (the shipped ones, given new names and ratings spread over 600-2600), so
every choice leaves a history out. After each request the try is given up (not timed), so the
next request of that player chooses again. Prints p50/p90/p99/max of the choice, the drawing
and the whole, for each ``--concurrent`` (requests under way at once). The goal: p99 of the
whole at most 100 ms.

``--database``: an SQLite file (by default a fresh temporary one) or a ``postgresql://`` URL of
an empty database.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import ai.puzzles
import render
from ai.workers import process_pool
from bot.games.puzzles.book import PuzzleBook
from bot.games.puzzles.solving import PuzzleShown
from bot.games.service import GameService
from bot.storage import NewAttempt, Store, open_database
from tools.bench._stats import percentile

_START = datetime(2025, 1, 1, tzinfo=UTC)
GOAL_MS = 100.0


def book(size: int, rng: random.Random) -> PuzzleBook:
    """``size`` puzzles: the shipped ones over and over, renamed, at ratings spread evenly."""
    shipped = ai.puzzles.load()
    return PuzzleBook(
        dataclasses.replace(
            shipped[number % len(shipped)],
            id=f"b{number:05d}",
            rating=rng.randint(ai.puzzles.MIN_RATING, ai.puzzles.MAX_RATING),
        )
        for number in range(size)
    )


async def store_history(
    service: GameService, puzzles: PuzzleBook, players: int, tried: int, rng: random.Random
) -> None:
    """Each player has tried ``tried`` puzzles (solved or not), in a few big transactions."""
    ids = puzzles.ids()
    now = _START
    async with service.store.write() as tx:
        await tx.ensure_players(range(1, players + 1), now)
    for first in range(1, players + 1, 200):
        async with service.store.write() as tx:
            for player in range(first, min(players + 1, first + 200)):
                for puzzle_id in rng.sample(ids, min(tried, len(ids))):
                    attempt = await tx.insert_attempt(NewAttempt(player, puzzle_id, True, now))
                    await tx.end_attempt(attempt.id, 0, ("A1",), solved=rng.random() < 0.6, now=now)


def _draw(shown: PuzzleShown) -> bytes:
    """The board of a puzzle as its answer draws it (in a worker)."""
    solver = shown.puzzle.solver()
    names = ("You", "Opponent") if solver.value == "W" else ("Opponent", "You")
    return render.board_png(
        shown.position,
        players=names,
        status=render.Status(f"{solver} to play and win", f"Puzzle {shown.puzzle.id}", solver),
    )


def _ms(seconds: float) -> float:
    return seconds * 1000


def _percentiles(values: Sequence[float]) -> str:
    return (
        f"p50 {percentile(values, 0.50):6.1f}  p90 {percentile(values, 0.90):6.1f}  "
        f"p99 {percentile(values, 0.99):6.1f}  max {max(values):6.1f}  "
        f"mean {statistics.fmean(values):6.1f}"
    )


async def serve(
    service: GameService,
    pool: Executor,
    *,
    players: int,
    requests: int,
    concurrent: int,
    seed: int,
) -> tuple[list[float], list[float], list[float]]:
    """``requests`` puzzles served, ``concurrent`` at once; the times (ms) to choose, to draw,
    and in all."""
    rng = random.Random(seed)
    chosen: list[float] = []
    drawn: list[float] = []
    whole: list[float] = []
    loop = asyncio.get_running_loop()
    left = requests
    busy: set[int] = set()

    async def one() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            player = rng.randint(1, players)
            while player in busy:  # one request of a player at a time, as in Discord
                player = rng.randint(1, players)
            busy.add(player)
            started = time.perf_counter()
            shown = await service.puzzles.start(player)
            picked = time.perf_counter()
            await loop.run_in_executor(pool, functools.partial(_draw, shown))
            done = time.perf_counter()
            chosen.append(_ms(picked - started))
            drawn.append(_ms(done - picked))
            whole.append(_ms(done - started))
            await service.puzzles.give_up(player, shown.attempt.id, shown.attempt.step)
            busy.discard(player)

    await asyncio.gather(*(one() for _ in range(concurrent)))
    return chosen, drawn, whole


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    puzzles = book(args.puzzles, rng)
    with tempfile.TemporaryDirectory() as folder:
        target = args.database or str(Path(folder) / "bench.sqlite3")
        clock = _Clock()
        service = GameService(
            Store(await open_database(target)), clock=clock, rng=rng, puzzles=puzzles
        )
        pool = process_pool(args.render_processes, multiprocessing.get_context("spawn"))
        try:
            loaded = time.perf_counter()
            await store_history(service, puzzles, args.players, args.tried, rng)
            print(
                f"{args.players} players who tried {args.tried} puzzles each, of "
                f"{len(puzzles)}: stored in {time.perf_counter() - loaded:.1f} s ({target})"
            )
            for _ in range(args.render_processes):  # the workers start (Pillow's import)
                await asyncio.get_running_loop().run_in_executor(
                    pool, functools.partial(_draw, await service.puzzles.start(1))
                )
            await service.puzzles.give_up(1, (await service.puzzles.current(1)).attempt.id, 0)
            failed = False
            for concurrent in args.concurrent:
                chosen, drawn, whole = await serve(
                    service,
                    pool,
                    players=args.players,
                    requests=args.requests,
                    concurrent=concurrent,
                    seed=args.seed,
                )
                print(f"\n{args.requests} puzzles served, {concurrent} at once (ms):")
                print(f"  choose + begin the try  {_percentiles(chosen)}")
                print(f"  draw the board          {_percentiles(drawn)}")
                print(f"  in all                  {_percentiles(whole)}")
                p99 = percentile(whole, 0.99)
                verdict = "within" if p99 <= GOAL_MS else "OVER"
                print(f"  p99 {p99:.1f} ms: {verdict} the goal of {GOAL_MS:.0f} ms")
                failed |= p99 > GOAL_MS
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            await service.close()
    return 1 if failed else 0


class _Clock:
    """A second a call: tries begin and end in order, as they would."""

    def __init__(self) -> None:
        self._now = _START

    def __call__(self) -> datetime:
        self._now += timedelta(seconds=1)
        return self._now


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench.puzzles", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--puzzles", type=int, default=3000, help="puzzles in the book")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tried", type=int, default=40, help="puzzles each player tried before")
    parser.add_argument("--requests", type=int, default=2000, help="puzzles served, each run")
    parser.add_argument(
        "--concurrent", type=int, nargs="+", default=[1, 4], help="requests under way at once"
    )
    parser.add_argument("--render-processes", type=int, default=2, help="as DVONN_RENDER_...")
    parser.add_argument("--database", default=None, help="an SQLite path or a PostgreSQL URL")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
