"""Benchmark: the latency of the service's "play a move" (load, validate, commit).

    python -m bot.games.bench [--stored 10000] [--concurrent 100] [--moves 5000]
                              [--think-ms 500 0] [--synchronous FULL] [--seed 1] [--db PATH]

Stores ``--stored`` finished games (random games with their whole records), then plays
``--concurrent`` games at once, each driven by its own task playing random legal moves for both
sides, and times every :meth:`GameService.play` call until ``--moves`` moves are played (a game
that ends is replaced by a new one). Prints p50/p90/p99/max latency and the throughput, once
for each ``--think-ms``: the mean pause before each move (random, 0 to twice that).

The default runs two scenarios. With 500 ms pauses the 100 games make about 200 moves a second,
thousands of times what players on Discord make, but the service is not saturated: this is the
latency a player sees. With no pause every game plays flat out, so the service is saturated and
a move mostly waits for the 99 moves queued before it: that run measures throughput, and its
latency is simply 100 / throughput (Little's law).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import rules
from bot.games.service import GameService
from bot.storage import EndReason, Game, GameStatus, NewGame, NewMove, Result, SQLiteDatabase, Store

_PLAYERS = 2000
_START = datetime(2025, 1, 1, tzinfo=UTC)


def _random_game(rng: random.Random) -> tuple[list[rules.Move], rules.Position]:
    pos = rules.new_game()
    moves: list[rules.Move] = []
    while legal := rules.legal_moves(pos):
        move = rng.choice(legal)
        moves.append(move)
        pos = rules.play(pos, move)
    return moves, pos


async def store_finished_games(store: Store, count: int, rng: random.Random) -> None:
    """Insert ``count`` finished random games, records included, in a few big transactions."""
    per_transaction = 500
    for first in range(0, count, per_transaction):
        async with store.write() as tx:
            await tx.ensure_players(range(1, _PLAYERS + 1), _START)
            for number in range(first, min(count, first + per_transaction)):
                white, black = rng.sample(range(1, _PLAYERS + 1), 2)
                moves, final = _random_game(rng)
                when = _START + timedelta(minutes=number)
                game = await tx.insert_game(
                    NewGame(
                        guild_id=1 + number % 50,
                        channel_id=1_000_000 + number,
                        parent_channel_id=None,
                        challenge_id=None,
                        white_id=white,
                        black_id=black,
                        position=rules.new_game(),
                        clock_days=None,
                        deadline_at=None,
                        created_at=when,
                    )
                )
                outcome = rules.outcome(final)
                assert outcome is not None
                finished = dataclasses.replace(
                    game,
                    position=final,
                    status=GameStatus.FINISHED,
                    result=Result.won_by(outcome.winner),
                    end_reason=EndReason.SCORE,
                    score=(outcome.white, outcome.black),
                    finished_at=when,
                )
                colours = [rules.colour_to_act(ply) for ply in range(len(moves))]
                await tx.save_game(
                    finished,
                    game.version,
                    [
                        NewMove(ply, c, game.player(c), m, False, when)
                        for ply, (c, m) in enumerate(zip(colours, moves, strict=True))
                    ],
                )


async def _new_game(service: GameService, channel: int, rng: random.Random) -> Game:
    a, b = rng.sample(range(_PLAYERS + 1, 2 * _PLAYERS), 2)
    challenge = await service.create_challenge(
        guild_id=99, channel_id=channel, challenger_id=a, opponent_id=b
    )
    return (await service.accept_challenge(challenge.id, b)).game


async def play_concurrently(
    service: GameService,
    concurrent: int,
    total_moves: int,
    *,
    think_ms: float,
    seed: int,
    first_channel: int,
) -> list[float]:
    """Play ``total_moves`` moves over ``concurrent`` games at once (in channels from
    ``first_channel`` on); every move's latency in seconds."""
    latencies: list[float] = []
    remaining = total_moves

    async def worker(index: int, game: Game) -> None:
        nonlocal remaining
        rng = random.Random(seed * 1000 + index)
        while remaining > 0:
            remaining -= 1
            if think_ms:
                await asyncio.sleep(rng.uniform(0, 2 * think_ms) / 1000)
            move = rng.choice(rules.legal_moves(game.position))
            user = game.to_move_id
            assert user is not None
            start = time.perf_counter()
            outcome = await service.play(game.id, user, move)
            latencies.append(time.perf_counter() - start)
            game = outcome.game
            if not game.is_active:  # a game ended: its players start another (not timed)
                game = await _new_game(service, first_channel + index, rng)

    # Start every game first, so that the timed moves do not queue behind 100 new games.
    rng = random.Random(seed)
    games = [await _new_game(service, first_channel + i, rng) for i in range(concurrent)]
    await asyncio.gather(*(worker(index, game) for index, game in enumerate(games)))
    return latencies


def _percentile(sorted_values: list[float], fraction: float) -> float:
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


async def run(args: argparse.Namespace, path: Path) -> None:
    rng = random.Random(args.seed)
    db = await SQLiteDatabase.open(path, synchronous=args.synchronous)
    store = Store(db)
    service = GameService(store, rng=rng)
    ms = 1000
    try:
        started = time.perf_counter()
        # Reusing a --db file: store only what it lacks.
        finished = (await db.fetch_all("SELECT count(*) FROM games WHERE status = 'finished'"))[0][
            0
        ]
        await store_finished_games(store, max(0, args.stored - finished), rng)
        stored_moves = (await db.fetch_all("SELECT count(*) FROM moves"))[0][0]
        print(
            f"{max(finished, args.stored):,} finished games stored ({stored_moves:,} moves; "
            f"{time.perf_counter() - started:.1f} s); synchronous={args.synchronous}"
        )
        print(f"play a move, {args.concurrent} games played at once, {args.moves:,} moves timed:")
        for think_ms in args.think_ms:
            # Fresh channels: the games of an earlier scenario (or run) are still running.
            last_channel = (await db.fetch_all("SELECT max(channel_id) FROM games"))[0][0]
            started = time.perf_counter()
            latencies = await play_concurrently(
                service,
                args.concurrent,
                args.moves,
                think_ms=think_ms,
                seed=args.seed,
                first_channel=max(2_000_000, (last_channel or 0) + 1),
            )
            elapsed = time.perf_counter() - started
            values = sorted(latencies)
            pause = f"pause 0-{2 * think_ms:g} ms" if think_ms else "no pause (saturated)"
            print(
                f"  {pause:>22}: p50 {_percentile(values, 0.50) * ms:6.2f} ms"
                f"   p90 {_percentile(values, 0.90) * ms:6.2f} ms"
                f"   p99 {_percentile(values, 0.99) * ms:6.2f} ms"
                f"   max {values[-1] * ms:6.2f} ms"
                f"   mean {statistics.fmean(values) * ms:6.2f} ms"
                f"   {len(values) / elapsed:,.0f} moves/s"
            )
    finally:
        await service.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--stored", type=int, default=10_000, help="finished games stored")
    parser.add_argument("--concurrent", type=int, default=100, help="games played at once")
    parser.add_argument("--moves", type=int, default=5_000, help="moves timed per scenario")
    parser.add_argument(
        "--think-ms",
        type=float,
        nargs="+",
        default=[500.0, 0.0],
        help="mean pause before each move, one scenario per value (default: 500 0)",
    )
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="database file (default: a fresh temporary one)")
    args = parser.parse_args(argv)
    if args.db is not None:
        asyncio.run(run(args, args.db))
        return
    with tempfile.TemporaryDirectory(prefix="dvonn-bench-") as folder:
        asyncio.run(run(args, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    main()
