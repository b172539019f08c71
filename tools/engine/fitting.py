"""What the developer's fitting tools (:mod:`tools.engine.placement_fit`,
:mod:`tools.engine.movement_fit`) share: games played in several processes and kept a JSON
line each, least squares (normal equations filled a row at a time), and the figures that say
how well a fit predicts. Plain Python: the tools fit a few hundred weights at most."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

HELD_OUT: Final = 0.1
"""The share of the games kept out of a fit to measure it."""


def in_processes(
    work: Callable[[Item], Result], items: Sequence[Item], jobs: int
) -> Iterator[Result]:
    """``work`` of each item, in order, in ``jobs`` processes (one: in this one). ``work`` must
    be a module's function, for the processes to find it."""
    if jobs == 1:
        yield from map(work, items)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(work, items, chunksize=4)


def append_lines(path: Path, lines: Iterable[str], total: int) -> None:
    """Add each line to ``path`` as it comes, flushed and counted on the console every 100
    (a stopped run keeps what it made)."""
    with path.open("a", encoding="utf-8") as out:
        for n, line in enumerate(lines, start=1):
            out.write(line + "\n")
            if n % 100 == 0:
                out.flush()
                print(f"{n}/{total}", flush=True)


def split(games: Sequence[Item]) -> tuple[Sequence[Item], Sequence[Item]]:
    """The games to fit on, and the last :data:`HELD_OUT` of them to measure the fit by."""
    cut = len(games) - max(1, int(len(games) * HELD_OUT))
    return games[:cut], games[cut:]


@dataclass(slots=True)
class Regression:
    """Ridge regression of a target on ``size`` features and a constant (the last weight)."""

    gram: list[list[float]]
    moment: list[float]
    count: int = 0

    @classmethod
    def of_size(cls, size: int) -> Regression:
        n = size + 1
        return cls([[0.0] * n for _ in range(n)], [0.0] * n)

    def add(self, features: Sequence[float], target: float) -> None:
        """One row; features that are zero cost nothing (rows of counts are mostly zeros)."""
        items = [(i, float(x)) for i, x in enumerate(features) if x]
        items.append((len(self.moment) - 1, 1.0))
        for i, a in items:
            row = self.gram[i]
            for j, b in items:
                row[j] += a * b
            self.moment[i] += a * target
        self.count += 1

    def solve(self, ridge: float = 0.0) -> list[float]:
        """The weights, the constant last. ``ridge`` pulls the features' weights towards zero,
        ``ridge / 1000`` per row, so that features seldom seen stay near it."""
        n = len(self.moment)
        penalty = ridge * self.count / 1000
        matrix = [
            [*(v + (penalty if i == j < n - 1 else 0.0) for j, v in enumerate(row)), self.moment[i]]
            for i, row in enumerate(self.gram)
        ]
        for column in range(n):  # Gauss-Jordan elimination with partial pivoting
            pivot = max(range(column, n), key=lambda r: abs(matrix[r][column]))
            matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
            lead = matrix[column][column]
            if abs(lead) < 1e-12:
                continue
            source = matrix[column]
            for r in range(n):
                if r != column and matrix[r][column]:
                    factor = matrix[r][column] / lead
                    target = matrix[r]
                    for c in range(column, n + 1):
                        target[c] -= factor * source[c]
        return [
            matrix[i][n] / matrix[i][i] if abs(matrix[i][i]) >= 1e-12 else 0.0 for i in range(n)
        ]


def predict(weights: Sequence[float], features: Sequence[float]) -> float:
    """What weights from :meth:`Regression.solve` say of one row."""
    return sum(w * x for w, x in zip(weights, features, strict=False)) + weights[-1]


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def mean_abs(xs: Sequence[float], ys: Sequence[float]) -> float:
    return sum(abs(x - y) for x, y in zip(xs, ys, strict=True)) / max(1, len(xs))


def constant_error(ys: Sequence[float]) -> float:
    """The mean absolute error of always predicting the mean."""
    mean = sum(ys) / max(1, len(ys))
    return sum(abs(y - mean) for y in ys) / max(1, len(ys))
