"""Board tables for the search: bit masks of the cells a stack can reach, hex distances.

Everything here is computed once at import from :mod:`rules.board`'s public tables and uses its
bit layout (``rules.board.BIT``), so masks combine directly with a position's own masks.
"""

from __future__ import annotations

from typing import Final

from rules.board import (
    ALL_CELLS_MASK,
    BIT,
    CELL_COUNT,
    CELLS,
    HEXES,
    IS_EDGE,
    NEIGHBOURS,
    TARGETS_AT_DISTANCE,
    Cell,
)

MAX_HEIGHT: Final = CELL_COUNT
"""No stack is taller than the 49 pieces; tables indexed by height stop here."""

ALL: Final = ALL_CELLS_MASK
EDGE_MASK: Final = sum(BIT[c] for c in CELLS if IS_EDGE[c])

TARGET_MASK: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(BIT[t] for t in TARGETS_AT_DISTANCE[c][h]) if 0 < h < len(TARGETS_AT_DISTANCE[c]) else 0
        for h in range(MAX_HEIGHT + 1)
    )
    for c in CELLS
)
"""``TARGET_MASK[cell][height]``: the cells a stack of that height on ``cell`` could land on."""

NEIGHBOUR_MASK: Final[tuple[int, ...]] = tuple(sum(BIT[n] for n in NEIGHBOURS[c]) for c in CELLS)

# The bit shifts that move a mask one step in each direction. Column 11 of the bit layout is
# never a cell, so one step never wraps onto a real cell; longer steps would, which is why
# only height-1 stacks are counted with shifts (see evaluation.py).
STEP_SHIFTS: Final = (1, 12, 13)


def spread(mask: int) -> int:
    """``mask`` and every neighbour of its cells (bits off the board may be set)."""
    return (
        mask | (mask << 1) | (mask >> 1) | (mask << 12) | (mask >> 12) | (mask << 13) | (mask >> 13)
    )


def _axial(cell: Cell) -> tuple[int, int]:
    h = HEXES[cell]
    return h.letter - h.row, h.row


def hex_distance(a: Cell, b: Cell) -> int:
    """Steps between two cells through neighbours (not only along lines)."""
    qa, ra = _axial(a)
    qb, rb = _axial(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


DISTANCE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(hex_distance(a, b) for b in CELLS) for a in CELLS
)
"""``DISTANCE[a][b]``: hex distance between two cells."""
