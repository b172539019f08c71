"""The puzzles the bot has (:mod:`ai.puzzles`' book), how one is chosen for a player or a day,
and the puzzle ratings: Glicko-2 (:mod:`bot.games.core.ratings`' step), one rating period a
puzzle, the puzzle as the opponent at its own rating (deviation :data:`PUZZLE_DEVIATION`):
solved scores 1, failed 0. Trying them is :mod:`bot.games.puzzles.solving`'s."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import logging
import random
from collections.abc import Collection, Iterable, Sequence
from datetime import date
from typing import Final

import ai.puzzles
from ai.puzzles import Puzzle
from bot.games.core.ratings import (
    START_DEVIATION,
    START_RATING,
    START_VOLATILITY,
    Glicko,
    glicko_step,
)
from bot.games.puzzles.errors import UnknownPuzzle
from bot.storage import PuzzleRating, UserId
from rules import Move

log = logging.getLogger(__name__)

PUZZLE_DEVIATION: Final = 60.0
"""A puzzle's deviation as an opponent: its rating is an estimate (the generator's), not a
result of play, and is never changed by players' tries."""


WINDOWS: Final = (100.0, 200.0, 400.0, 800.0)
"""How far from the player's rating a puzzle is looked for, one window after another; past
the last, any puzzle."""


DAILY_RATINGS: Final = (1300, 1700)
"""The ratings the day's puzzle is drawn among (any, if none is): for most readers."""


def start_rating(user_id: UserId) -> PuzzleRating:
    """A new player's puzzle rating: Glicko-2's start, as for games."""
    return PuzzleRating(user_id, START_RATING, START_DEVIATION, START_VOLATILITY)


def rated(rating: PuzzleRating, puzzle_rating: float, *, solved: bool) -> PuzzleRating:
    """``rating`` after one rated puzzle of ``puzzle_rating``, solved or not."""
    after = glicko_step(
        Glicko(rating.rating, rating.deviation, rating.volatility),
        puzzle_rating,
        PUZZLE_DEVIATION,
        1.0 if solved else 0.0,
    )
    streak = rating.streak + 1 if solved else 0
    return dataclasses.replace(
        rating,
        rating=after.rating,
        deviation=after.deviation,
        volatility=after.volatility,
        solved=rating.solved + solved,
        failed=rating.failed + (not solved),
        streak=streak,
        best_streak=max(rating.best_streak, streak),
    )


class PuzzleBook:
    """The puzzles there are, by name and by rating."""

    def __init__(self, puzzles: Iterable[Puzzle]) -> None:
        self._by_id = {p.id: p for p in puzzles}
        self._by_rating = sorted(self._by_id.values(), key=lambda p: (p.rating, p.id))
        self._ratings = [p.rating for p in self._by_rating]

    @classmethod
    def standard(cls) -> PuzzleBook:
        """:mod:`ai.puzzles`' puzzles, read once in a process, when first asked for."""
        return _standard_book()

    def __len__(self) -> int:
        return len(self._by_id)

    def get(self, puzzle_id: str) -> Puzzle:
        """A puzzle by its name; raises :class:`UnknownPuzzle`."""
        found = self._by_id.get(puzzle_id.strip()) or self._by_id.get(puzzle_id.strip().lower())
        if found is None:
            raise UnknownPuzzle(puzzle_id)
        return found

    def ids(self) -> list[str]:
        """Every puzzle's name, by rating."""
        return [p.id for p in self._by_rating]

    def near(
        self, rating: float, rng: random.Random, *, leave_out: Collection[str] = ()
    ) -> Puzzle | None:
        """A puzzle drawn at random among those nearest ``rating`` (the first of
        :data:`WINDOWS` that holds one, else any), not one of ``leave_out``."""
        for window in (*WINDOWS, float("inf")):
            low = bisect.bisect_left(self._ratings, rating - window)
            high = bisect.bisect_right(self._ratings, rating + window)
            found = [p for p in self._by_rating[low:high] if p.id not in leave_out]
            if found:
                return rng.choice(found)
        return None

    def daily(self, day: date, used: Collection[str]) -> Puzzle:
        """The puzzle of ``day``: drawn (by the day's number) among those of
        :data:`DAILY_RATINGS` that were never a day's puzzle (else among any not used, else
        any)."""
        fresh = [p for p in self._by_rating if p.id not in used]
        low, high = DAILY_RATINGS
        middling = [p for p in fresh if low <= p.rating <= high]
        pool = middling or fresh or self._by_rating
        if not pool:
            raise LookupError("there are no puzzles")
        return random.Random(day.toordinal()).choice(pool)


@functools.cache
def _standard_book() -> PuzzleBook:
    book = PuzzleBook(ai.puzzles.load())
    log.info("%d puzzles loaded", len(book))
    return book


def line_text(moves: Sequence[Move]) -> str:
    """A line of moves as written: ``E3F4 D2D3 C1C2``."""
    return " ".join(str(m) for m in moves)
