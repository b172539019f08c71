"""Benchmark: how long a board PNG takes to draw and encode, and how big it is.

    python -m tools.bench.render [--runs 30] [--size 800]

Renders every gallery sample (placement, mid-game, tall stacks, removals, game over)
``--runs`` times at the default size with ``render.board_png`` (drawing and PNG encoding),
after one warm-up render that fills the caches. Prints the median time and the PNG size per
sample, then the overall median and the largest file. Goals: median <= 30 ms, PNG <= 250 KB.
Then the same for the gallery's standings tables (``render.standings.standings_png``).
"""

from __future__ import annotations

import argparse
import statistics
import time

from render.geometry import DEFAULT_WIDTH
from render.standings import standings_png
from tools.gallery import standings_samples
from tools.gallery.samples import samples

GOAL_MS = 30.0
GOAL_KB = 250.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="renders per sample (default 30)")
    parser.add_argument("--size", type=int, default=DEFAULT_WIDTH, help="image width in pixels")
    args = parser.parse_args(argv)

    cases = samples()
    cold_start = time.perf_counter()
    cases[0].png(size=args.size)
    cold_ms = (time.perf_counter() - cold_start) * 1000

    all_times: list[float] = []
    largest = 0
    print(f"{'sample':<22} {'median ms':>9} {'PNG KB':>7}")
    for sample in cases:
        sample.png(size=args.size)  # warm-up: fills the caches for this look
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            png = sample.png(size=args.size)
            times.append((time.perf_counter() - start) * 1000)
        all_times += times
        largest = max(largest, len(png))
        print(f"{sample.name:<22} {statistics.median(times):9.1f} {len(png) / 1024:7.1f}")

    median = statistics.median(all_times)
    print(f"first render, caches empty: {cold_ms:.0f} ms")
    print(
        f"median {median:.1f} ms per board PNG at {args.size} px (goal <= {GOAL_MS:.0f} ms); "
        f"largest PNG {largest / 1024:.1f} KB (goal <= {GOAL_KB:.0f} KB)"
    )

    tables = standings_samples()
    standings_times: list[float] = []
    largest = 0
    for _, table, theme in tables:
        standings_png(table, theme=theme)  # warm-up
        for _ in range(args.runs):
            start = time.perf_counter()
            png = standings_png(table, theme=theme)
            standings_times.append((time.perf_counter() - start) * 1000)
        largest = max(largest, len(png))
    print(
        f"standings: median {statistics.median(standings_times):.1f} ms per table PNG "
        f"({len(tables)} tables); largest PNG {largest / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
