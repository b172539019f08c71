"""Thinking on a clock for the whole game instead of a budget for each move: how much of the
time left one move may take (``python -m tools.engine.match --a-clock``; a CodeCup program
keeps such a clock, PrimaDvonna's 4.95 s a game among them).

Little goes to the placements the search settles three plies deep; the last placements, which
it searches into the moves, take a share; the rest is spread over the moves still to come,
counted as PrimaDvonna's program counts them (a stack of five or fewer pieces may still move;
half the moves are the opponent's, and the last ten are quick), so the first moves, the hardest,
get the most.
"""

from __future__ import annotations

from typing import Final

from ai.levels import Level
from rules import Position
from rules.position import DVONN_PIECES, PLACEMENT_PLIES

SEARCHED_INTO_THE_MOVES: Final = Level.STRONGEST.spec.compiled_late_placement
"""Empty cells from which the strongest level searches through the placement into the moves."""
EARLY_SHARE: Final = 0.004
"""A placement searched three plies deep takes this share of the time left (a few
milliseconds)."""
QUICK_MOVES: Final = 10
MOBILE_HEIGHT: Final = 5


def move_budget(pos: Position, left: float) -> float:
    """Seconds the move in ``pos`` may take when ``left`` seconds remain for the game."""
    if left <= 0 or pos.ply < DVONN_PIECES:
        return 0.0
    if pos.ply < PLACEMENT_PLIES:
        empty = PLACEMENT_PLIES - pos.ply
        if empty > SEARCHED_INTO_THE_MOVES:
            return left * EARLY_SHARE
        return left / (empty + 2 * QUICK_MOVES)
    movable = sum(1 for stack in pos.stacks if stack and len(stack) <= MOBILE_HEIGHT)
    return left / max(2, movable // 2 - QUICK_MOVES)
