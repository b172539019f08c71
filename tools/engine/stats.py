"""Match statistics: score, Elo difference and its 95% confidence interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964


def elo_from_score(p: float) -> float:
    """The Elo difference that predicts the score fraction ``p`` (infinite at 0 and 1)."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1) + 0.0  # + 0.0: an even score prints +0, not -0


@dataclass(frozen=True, slots=True)
class Tally:
    """Wins, draws and losses of one side of a match."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The score fraction: a win 1, a draw 1/2."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def score_interval(self) -> tuple[float, float]:
        """A 95% confidence interval for the score fraction.

        The normal approximation with the per-game variance (draws count as half points), or
        Wilson's interval when every game ended the same way (the variance is then 0).
        """
        n, p = self.games, self.score
        if n == 0:
            return 0.0, 1.0
        variance = (self.wins * (1 - p) ** 2 + self.draws * (0.5 - p) ** 2 + self.losses * p**2) / n
        if variance == 0:
            z2 = Z95 * Z95
            centre = (p + z2 / (2 * n)) / (1 + z2 / n)
            half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
            # At a clean sweep one end is exactly 0 or 1; rounding must not move it.
            low = 0.0 if p == 0 else max(0.0, centre - half)
            high = 1.0 if p == 1 else min(1.0, centre + half)
            return low, high
        half = Z95 * math.sqrt(variance / n)
        return max(0.0, p - half), min(1.0, p + half)

    def elo(self) -> tuple[float, float, float]:
        """(Elo difference, 95% lower bound, 95% upper bound)."""
        low, high = self.score_interval()
        return elo_from_score(self.score), elo_from_score(low), elo_from_score(high)

    def elo_text(self) -> str:
        """``+123 ± 45`` (the half-width of the interval), or bounds when it is lopsided."""
        elo, low, high = self.elo()
        if math.isinf(elo) or math.isinf(low) or math.isinf(high):
            return f"{_signed(elo)} (95%: {_signed(low)} .. {_signed(high)})"
        return f"{elo:+.0f} ± {(high - low) / 2:.0f} (95%)"


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"
