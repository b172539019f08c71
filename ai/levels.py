"""The computer opponent's levels and what each one does."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ai.evaluation import (
    DEFAULT_MOVEMENT,
    DEFAULT_PLACEMENT,
    MovementWeights,
    PlacementWeights,
)
from ai.native import DEFAULT_WEIGHTS, NativeWeights


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """How a level plays.

    Levels without search (``max_depth == 0``) look one move ahead and pick at random among
    the moves, weighted by ``exp(value / temperature)`` (``placement_temperature`` while
    placing; a searching level with a placement temperature also places that way);
    ``blunder_rate`` is the chance of a uniformly random move instead.

    Levels with search run iterative-deepening alpha-beta up to ``max_depth`` plies
    (``placement_depth`` while placing pieces), using ``time_share`` of the time budget, or at
    most ``max_nodes`` nodes when there is no budget. ``late_placement`` > 0:
    with that many empty cells or fewer, search through the rest of the placement into the
    first moves. ``movement`` and ``placement`` weigh the evaluation.

    ``compiled``: search with :mod:`ai.native` where it is built, else as above in Python. The
    compiled search is weighed by ``native``, limited to ``compiled_nodes`` nodes when there is no
    budget, and searches ``compiled_placement_depth`` plies while placing until
    ``compiled_late_placement`` cells are left, then as deep as its time allows (into the moves).
    It starts no new iteration after ``compiled_soft_share`` of its time (1.0: it goes on
    until the deadline): an unfinished iteration still counts (its first move is the last
    best, so whatever it ranked above that move proved better), so starting one late costs
    little (docs/engine.md, "How the engine was tuned", for what 1.0 against 0.6 is worth).
    """

    description: str
    max_depth: int = 0
    placement_depth: int = 1
    temperature: float = 0.0
    placement_temperature: float = 0.0
    blunder_rate: float = 0.0
    time_share: float = 1.0
    max_nodes: int = 1_000_000
    late_placement: int = 0
    movement: MovementWeights = field(default=DEFAULT_MOVEMENT)
    placement: PlacementWeights = field(default=DEFAULT_PLACEMENT)
    compiled: bool = False
    compiled_nodes: int = 3_000_000
    compiled_placement_depth: int = 3
    compiled_late_placement: int = 8
    compiled_soft_share: float = 1.0
    native: NativeWeights = field(default=DEFAULT_WEIGHTS)


class Level(enum.Enum):
    """Playing strength, weakest first. ``Level.parse("strong")`` reads a name."""

    BEGINNER = "beginner"
    EASY = "easy"
    MEDIUM = "medium"
    STRONG = "strong"
    STRONGEST = "strongest"

    @property
    def spec(self) -> LevelSpec:
        return _SPECS[self]

    @property
    def rank(self) -> int:
        """0 for the weakest level, increasing with strength."""
        return list(Level).index(self)

    @classmethod
    def parse(cls, text: str) -> Level:
        """The level named ``text`` (any case, with or without a ``level:`` prefix)."""
        name = text.strip().lower().removeprefix("level:")
        try:
            return cls(name)
        except ValueError:
            names = ", ".join(level.value for level in cls)
            raise ValueError(f"unknown level {text!r}: choose one of {names}") from None

    def __str__(self) -> str:
        return self.value


_SPECS: dict[Level, LevelSpec] = {
    Level.BEGINNER: LevelSpec(
        "looks one move ahead, plays loosely and now and then makes a random move",
        temperature=250.0,
        placement_temperature=12.0,
        blunder_rate=0.25,
    ),
    Level.EASY: LevelSpec(
        "looks one move ahead and mostly plays the move that looks best",
        temperature=25.0,
        placement_temperature=3.0,
    ),
    Level.MEDIUM: LevelSpec(
        "places pieces a little loosely and searches two moves ahead",
        max_depth=2,
        placement_temperature=2.0,
        max_nodes=5_000,
    ),
    Level.STRONG: LevelSpec(
        "searches three moves ahead",
        max_depth=3,
        placement_depth=1,
        max_nodes=30_000,
    ),
    Level.STRONGEST: LevelSpec(
        "searches as deep as its time allows, solves endgames, and plans the last placements",
        max_depth=64,
        placement_depth=2,
        max_nodes=60_000,
        late_placement=8,
        # A tenth of the budget kept back: on a busy machine the process may wait that long
        # for a core between the deadline and the answer (100 games at 2 s/move against
        # PrimaDvonna with the whole budget: longest move 2.119 s).
        time_share=0.9,
        compiled=True,
    ),
}
