"""The benchmarks' one percentile."""

from __future__ import annotations

from collections.abc import Iterable


def percentile(values: Iterable[float], fraction: float) -> float:
    """The value at ``fraction`` (0.5: the median, 0.99: p99) of ``values``: the nearest
    rank, ``round(fraction * (n - 1))`` of the sorted values (the smallest at 0, the largest at
    1), a value that was measured rather than one interpolated between two."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values to take a percentile of")
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]
