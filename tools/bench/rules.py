"""Benchmark: complete random games per second through the public API.

    python -m tools.bench.rules [--seconds 5] [--seed 1]

Each turn calls ``legal_moves`` and then ``play`` with a random choice, as a player (or a
random engine) would, until the game is over. Runs on one core.
"""

from __future__ import annotations

import argparse
import random
import time

import rules


def random_game(rng: random.Random) -> int:
    """Play one uniformly random game; return its number of plies."""
    pos = rules.new_game()
    choice = rng.choice
    while True:
        moves = rules.legal_moves(pos)
        if not moves:
            return pos.ply
        pos = rules.play(pos, choice(moves))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to run (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    random_game(rng)  # warm up the tables and caches
    games = plies = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while (now := time.perf_counter()) < deadline:
        plies += random_game(rng)
        games += 1
    elapsed = now - start
    print(f"{games} random games ({plies} plies) in {elapsed:.2f} s on one core")
    print(f"{games / elapsed:,.0f} games/s, {plies / elapsed:,.0f} plies/s")


if __name__ == "__main__":
    main()
