"""Benchmark: how closely each level keeps its time budget.

    python -m tools.bench.ai [--budget 2] [--positions 40] [--levels strong,strongest] [--seed 1]

Thinks once per level on each of ``--positions`` positions taken from seeded random games, from
the first placements to the end of the moves, and prints per level the wall time per move
(median, 99th percentile, longest), the longest overshoot of the budget, the longest CPU time
of one move, and the nodes searched per second. A wall time well above the CPU time means the
process waited for a core (another program was running), not that the search ignored its clock.

Where the compiled search is built, ``strongest`` uses it and ``strongest-python`` is the same
level searching in Python; the two alternate position by position, so both see the same load.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from dataclasses import dataclass

from ai import native
from ai.choose import think
from ai.levels import Level, LevelSpec
from rules import Position, legal_moves, play
from rules.position import PLACEMENT_PLIES
from tools.bench._stats import percentile


def sample_positions(count: int, seed: int) -> list[Position]:
    """``count`` positions with a move to choose, each at a random ply of a random game."""
    rng = random.Random(f"bench/{seed}")
    positions: list[Position] = []
    while len(positions) < count:
        pos, stop = Position(), rng.randrange(3, 95)
        while pos.ply < stop and legal_moves(pos):
            pos = play(pos, rng.choice(legal_moves(pos)))
        if len(legal_moves(pos)) > 1:
            positions.append(pos)
    return positions


@dataclass(frozen=True, slots=True)
class Timing:
    wall: float
    cpu: float
    nodes: int


PYTHON_SUFFIX = "-python"


def spec_of(name: str) -> tuple[Level, LevelSpec]:
    """A level by name; ``strongest-python`` is the strongest level without the compiled search."""
    level = Level.parse(name.removesuffix(PYTHON_SUFFIX))
    spec = level.spec
    if name.endswith(PYTHON_SUFFIX):
        spec = dataclasses.replace(spec, compiled=False)
    return level, spec


def time_levels(
    specs: dict[str, tuple[Level, LevelSpec]], positions: list[Position], budget: float
) -> dict[str, list[Timing]]:
    """Each level's timing on each position (levels by name, as :func:`spec_of` reads them);
    the levels take turns on every position."""
    names = list(specs)
    timings: dict[str, list[Timing]] = {name: [] for name in names}
    for index, pos in enumerate(positions):
        for name in names if index % 2 == 0 else reversed(names):
            level, spec = specs[name]
            wall, cpu = time.perf_counter(), time.process_time()
            result = think(pos, level=level, budget=budget, seed=index, spec=spec)
            elapsed = time.perf_counter() - wall
            timings[name].append(Timing(elapsed, time.process_time() - cpu, result.nodes))
    return timings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per move")
    parser.add_argument("--positions", type=int, default=40)
    default = [level.value for level in Level]
    if native.available():
        default.append(Level.STRONGEST.value + PYTHON_SUFFIX)
    parser.add_argument("--levels", default=",".join(default))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    specs = {name: spec_of(name) for name in args.levels.split(",")}  # unknown ones stop here
    positions = sample_positions(args.positions, args.seed)
    think(positions[0], level=Level.STRONGEST, budget=0.05)  # build the lazily filled tables
    placing = sum(pos.ply < PLACEMENT_PLIES for pos in positions)
    print(
        f"budget {args.budget:g} s/move; {len(positions)} positions ({placing} placing, "
        f"{len(positions) - placing} moving); seed {args.seed}"
    )
    print(
        f"{'level':17}{'median':>9}{'p99':>9}{'longest':>9}{'over by':>10}{'CPU max':>9}"
        f"{'nodes/s':>12}   (seconds)"
    )
    for name, timings in time_levels(specs, positions, args.budget).items():
        walls = [t.wall for t in timings]
        longest = max(walls)
        rate = sum(t.nodes for t in timings) / max(sum(t.cpu for t in timings), 1e-9)
        print(
            f"{name:17}{statistics.median(walls):9.3f}{percentile(walls, 0.99):9.3f}"
            f"{longest:9.3f}{max(0.0, longest - args.budget):10.3f}"
            f"{max(t.cpu for t in timings):9.3f}{rate:12,.0f}"
        )


if __name__ == "__main__":
    main()
