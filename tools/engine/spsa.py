"""Tune the compiled search's weights by playing it against itself (a developer's tool, never
run by the bot): simultaneous perturbation stochastic approximation, SPSA, as chess engines
tune theirs.

    python -m tools.engine.spsa --iterations 3000 --nodes 30000 --jobs 2 --out /tmp/spsa.jsonl

Each iteration pushes every weight a step up or down at random, plays a pair of games (the same
DVONN pieces at random, each side White once) between the weights pushed one way and the other,
and moves the weights toward the side that scored more: ``weight += a_k / c_k * result *
direction``, where ``result`` is the pair's score of the first side less the second's (-2 to
2). The steps shrink as in Spall's schedule (``c_k = c / k^0.101``, ``a_k = a / (A + k)^0.602``,
``A`` a tenth of the iterations), ``c`` set by each weight's final step and ``a`` by
``--rate`` times its square. The games are played to a node limit, not a clock, so a run on a
busy machine plays the same games. Every ``--jobs`` pairs are played from the same weights.

The weights after each round go to ``--out`` (a JSON line each), and at the end the tuned
weights are printed as a player for :mod:`tools.engine.match` (``strongest{moves=31,...}``), to
measure against the weights in use. The placement's evaluation is only ever set against
itself, so the scale of its weights changes no move: they were first tuned at four times the
size of :class:`ai.evaluation.PlacementWeights`', for finer steps, and are kept at that size.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ai import native
from tools.engine import movement_fit
from tools.engine.match import MatchSettings, play_game, tally

NODES: Final = 30_000
"""Nodes a move in the tuning games."""
OPENING_PLIES: Final = 3
"""The DVONN pieces are placed at random, the same for both games of a pair."""
RATE: Final = 0.006
"""``a`` over ``c`` squared at the end: how far one pair's result moves a weight."""
ALPHA: Final = 0.602
GAMMA: Final = 0.101


@dataclass(frozen=True, slots=True)
class Tuned:
    """A weight to tune (a :class:`ai.native.NativeWeights` field), where it starts and the
    size of its last step (``c`` at the end)."""

    name: str
    start: float
    step: float


MOVEMENT: Final = tuple(name for name in movement_fit.NAMES if name != "stacks")
"""The first set of movement weights (``stacks`` stays: the others are only set against it)."""
PLACEMENT: Final = ("next_to_dvonn", "near_dvonn", "edge", "dvonn_distance", "bunched")
LATE: Final = tuple(f"late_{name}" for name in MOVEMENT)
"""The movement weights for late in the game (the evaluation moves to them over 40 moves)."""
SETS: Final = {"first": MOVEMENT + PLACEMENT, "late": (*LATE, "field_bonus")}
"""What ``--weights`` names: the first movement set and the placement (the first run), or
the late set and how much more a cell beside a DVONN piece counts."""


def default_tuned(names: Sequence[str] = SETS["first"]) -> tuple[Tuned, ...]:
    """The weights ``names`` as in use, each with a last step of about a sixth of its size (at
    least 2)."""
    weights = native.DEFAULT_WEIGHTS
    starts = {name: float(getattr(weights, name)) for name in names}
    return tuple(Tuned(name, start, max(2.0, abs(start) / 6)) for name, start in starts.items())


@dataclass(frozen=True, slots=True)
class Schedule:
    """Spall's gains for ``iterations`` iterations, ``rate`` being ``a / c^2`` at the end."""

    iterations: int
    rate: float = RATE

    def step(self, tuned: Tuned, k: int) -> float:
        """``c_k``: how far iteration ``k`` (from 1) pushes the weight each way."""
        return tuned.step * float((self.iterations / k) ** GAMMA)

    def gain(self, tuned: Tuned, k: int) -> float:
        """``a_k / c_k``: how far a result of 1 moves the weight at iteration ``k``."""
        big_a = self.iterations / 10
        a_end = self.rate * tuned.step**2
        a_k = a_end * float(((big_a + self.iterations) / (big_a + k)) ** ALPHA)
        return a_k / self.step(tuned, k)


def player(values: Mapping[str, float], *, nodes: int | None) -> str:
    """The compiled strongest level with these weights, as :func:`tools.engine.players.parse_player`
    reads it."""
    changes = [f"{name}={round(value)}" for name, value in values.items()]
    if nodes is not None:
        changes.insert(0, f"compiled_nodes={nodes}")
    return "strongest{" + ",".join(changes) + "}"


def pushed(
    theta: Mapping[str, float],
    tuned: Sequence[Tuned],
    directions: Sequence[int],
    *,
    schedule: Schedule,
    k: int,
    sign: int,
) -> dict[str, float]:
    """The weights pushed by ``sign`` (+1 or -1) in ``directions`` at iteration ``k``."""
    return {
        t.name: theta[t.name] + sign * d * schedule.step(t, k)
        for t, d in zip(tuned, directions, strict=True)
    }


def play_pair(work: tuple[str, str, int]) -> int:
    """The score of the first player less the second's over a pair of games from the same
    start, each side White once: its wins less its losses, -2 to 2."""
    first, second, seed = work
    settings = MatchSettings(a=first, b=second, budget=None, seed=seed, opening_plies=OPENING_PLIES)
    pair = tally(play_game(settings, index) for index in (0, 1))
    return pair.wins - pair.losses


def tune(
    tuned: Sequence[Tuned],
    *,
    iterations: int,
    nodes: int,
    seed: int,
    jobs: int,
    rate: float = RATE,
    out: Path | None = None,
) -> dict[str, float]:
    """Run SPSA for ``iterations`` pairs of games, ``jobs`` pairs at a time from the same
    weights; returns the tuned weights."""
    schedule = Schedule(iterations, rate)
    rng = random.Random(seed)
    theta = {t.name: t.start for t in tuned}
    with ExitStack() as stack:
        # One pool for the whole run: a pool a round would cost more than its games.
        pool = stack.enter_context(ProcessPoolExecutor(jobs)) if jobs > 1 else None
        for k in range(1, iterations + 1, jobs):
            batch = range(k, min(k + jobs, iterations + 1))
            results = _round(
                theta, tuned, batch, schedule=schedule, rng=rng, nodes=nodes, seed=seed, pool=pool
            )
            if out is not None:
                line = {"iteration": batch.stop - 1, "results": results, "theta": theta}
                with out.open("a", encoding="utf-8") as file:
                    file.write(json.dumps(line) + "\n")
    return theta


def _round(
    theta: dict[str, float],
    tuned: Sequence[Tuned],
    batch: range,
    *,
    schedule: Schedule,
    rng: random.Random,
    nodes: int,
    seed: int,
    pool: ProcessPoolExecutor | None,
) -> list[int]:
    """Play the pairs of iterations ``batch`` from ``theta`` and move it by their results."""
    directions = [[rng.choice((-1, 1)) for _ in tuned] for _ in batch]
    work = [
        (
            player(pushed(theta, tuned, d, schedule=schedule, k=i, sign=+1), nodes=nodes),
            player(pushed(theta, tuned, d, schedule=schedule, k=i, sign=-1), nodes=nodes),
            seed * 1_000_003 + i,
        )
        for i, d in zip(batch, directions, strict=True)
    ]
    results = list(pool.map(play_pair, work) if pool else map(play_pair, work))
    for i, d, result in zip(batch, directions, results, strict=True):
        for t, direction in zip(tuned, d, strict=True):
            theta[t.name] += schedule.gain(t, i) * result * direction
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.engine.spsa", description=__doc__)
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--weights",
        choices=sorted(SETS),
        default="first",
        help="which weights to tune: the first movement set and the placement's (the default), "
        "or the late movement set and field_bonus",
    )
    parser.add_argument(
        "--start",
        default="",
        help="weights to start from instead of those in use, as NAME=VALUE,... (a tuned line)",
    )
    parser.add_argument("--out", type=Path, help="the weights after each round, a JSON line each")
    args = parser.parse_args(argv)
    if not native.available():
        parser.exit(2, "the compiled search is not built: run python -m ai.native.build\n")
    tuned = default_tuned(SETS[args.weights])
    starts = dict(item.split("=") for item in filter(None, args.start.split(",")))
    if unknown := starts.keys() - {t.name for t in tuned}:
        parser.error(f"--start names weights this tool does not tune: {', '.join(sorted(unknown))}")
    tuned = tuple(
        Tuned(t.name, float(starts[t.name]), t.step) if t.name in starts else t for t in tuned
    )
    theta = tune(
        tuned,
        iterations=args.iterations,
        nodes=args.nodes,
        seed=args.seed,
        jobs=args.jobs,
        rate=args.rate,
        out=args.out,
    )
    for t in tuned:
        print(f"{t.name:>15} {t.start:8.1f} -> {theta[t.name]:8.1f}")
    print("tuned:", player(theta, nodes=None))
    print("start:", player({t.name: t.start for t in tuned}, nodes=None))


if __name__ == "__main__":
    main()
