"""The DVONN board: 49 cells, their names, neighbours and straight lines.

Cells are plain ``int`` indices 0..48 in reading order of the community notation
(``A1`` .. ``I1``, ``A2`` .. ``J2``, ``A3`` .. ``K3``, ``B4`` .. ``K4``, ``C5`` .. ``K5``),
like python-chess's ``Square``. Every table here is computed once at import time.

A cell named (letter L, row R) has the six neighbours (change of letter, change of row)
``(+1, 0) (-1, 0) (0, +1) (0, -1) (+1, +1) (-1, -1)``; ``(+1, -1)`` and ``(-1, +1)`` are not
neighbours. In axial hex coordinates (Red Blob Games) that is ``q = letter - row``, ``r = row``.
"""

from __future__ import annotations

import unicodedata
from typing import Final, NamedTuple

Cell = int
"""A cell index, 0..48 (see :data:`CELL_NAMES`)."""

LETTERS: Final = "ABCDEFGHIJK"
ROWS: Final = 5

# Letter ranges per row (0-based letter index, inclusive), rows 1..5: 9, 10, 11, 10, 9 cells.
_ROW_SPANS: Final = ((0, 8), (0, 9), (0, 10), (1, 10), (2, 10))


class Hex(NamedTuple):
    """A cell's position as (letter index 0..10, row index 0..4)."""

    letter: int
    row: int

    @property
    def q(self) -> int:
        """Axial column coordinate (Red Blob Games): ``letter - row``."""
        return self.letter - self.row

    @property
    def r(self) -> int:
        """Axial row coordinate: ``row - 2``, so the middle row is ``r = 0``."""
        return self.row - 2


HEXES: Final[tuple[Hex, ...]] = tuple(
    Hex(letter, row) for row, (lo, hi) in enumerate(_ROW_SPANS) for letter in range(lo, hi + 1)
)
CELLS: Final[tuple[Cell, ...]] = tuple(range(len(HEXES)))
CELL_COUNT: Final = len(CELLS)
CELL_NAMES: Final[tuple[str, ...]] = tuple(f"{LETTERS[h.letter]}{h.row + 1}" for h in HEXES)
_CELL_BY_NAME: Final[dict[str, Cell]] = {name: cell for cell, name in enumerate(CELL_NAMES)}

# Cell constants, as python-chess has chess.E4: rules.E3 == 23.
(
    A1,
    B1,
    C1,
    D1,
    E1,
    F1,
    G1,
    H1,
    I1,
    A2,
    B2,
    C2,
    D2,
    E2,
    F2,
    G2,
    H2,
    I2,
    J2,
    A3,
    B3,
    C3,
    D3,
    E3,
    F3,
    G3,
    H3,
    I3,
    J3,
    K3,
    B4,
    C4,
    D4,
    E4,
    F4,
    G4,
    H4,
    I4,
    J4,
    K4,
    C5,
    D5,
    E5,
    F5,
    G5,
    H5,
    I5,
    J5,
    K5,
) = CELLS
_CELL_BY_HEX: Final[dict[Hex, Cell]] = {h: cell for cell, h in enumerate(HEXES)}

# (Change of letter, change of row) for the six directions, in a fixed order:
# east, west, "up" a row, "down" a row, up-east, down-west. Opposites are paired (i, i ^ 1).
DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
)


def cell_at(letter: int, row: int) -> Cell | None:
    """The cell at (letter index, row index), or ``None`` off the board."""
    return _CELL_BY_HEX.get(Hex(letter, row))


def cell_name(cell: Cell) -> str:
    """The community name of a cell, e.g. ``"E3"``."""
    return CELL_NAMES[cell]


# Letters that look like A-K in other scripts (Cyrillic, Greek), as phones type them.
_LOOKALIKES: Final = str.maketrans(
    {
        **dict.fromkeys("АаΑα", "A"),
        **dict.fromkeys("ВвΒβ", "B"),
        **dict.fromkeys("СсϹϲ", "C"),
        **dict.fromkeys("ЕеΕε", "E"),
        **dict.fromkeys("НнΗη", "H"),
        **dict.fromkeys("ІіΙι", "I"),
        **dict.fromkeys("Јј", "J"),
        **dict.fromkeys("КкΚκ", "K"),
    }
)


def normalise(text: str) -> str:
    """Typed notation in plain ASCII capitals: full-width letters and digits (``Ｅ３``) and
    Cyrillic or Greek look-alikes of A-K (``Е3`` with a Cyrillic Е) become ``E3``."""
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).upper()


def lookup_cell(name: str) -> Cell | None:
    """The cell named ``name`` (any case, look-alike letters, surrounding blanks ignored; see
    :func:`normalise`), or ``None``."""
    return _CELL_BY_NAME.get(normalise(name.strip()))


def _ray(cell: Cell, direction: tuple[int, int]) -> tuple[Cell, ...]:
    dl, dr = direction
    h = HEXES[cell]
    out: list[Cell] = []
    step = 1
    while (nxt := cell_at(h.letter + dl * step, h.row + dr * step)) is not None:
        out.append(nxt)
        step += 1
    return tuple(out)


RAYS: Final[tuple[tuple[tuple[Cell, ...], ...], ...]] = tuple(
    tuple(_ray(cell, d) for d in DIRECTIONS) for cell in CELLS
)
"""``RAYS[cell][d]``: the cells met walking from ``cell`` in direction ``d``, nearest first."""

NEIGHBOURS: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(ray[0] for ray in rays if ray) for rays in RAYS
)
"""``NEIGHBOURS[cell]``: the (up to six) adjacent cells."""

IS_EDGE: Final[tuple[bool, ...]] = tuple(len(n) < 6 for n in NEIGHBOURS)
"""Edge cells have fewer than six neighbours, so a stack there is never surrounded."""

TARGETS_AT_DISTANCE: Final[tuple[tuple[tuple[Cell, ...], ...], ...]] = tuple(
    tuple(
        tuple(ray[distance - 1] for ray in rays if len(ray) >= distance > 0)
        for distance in range(max(len(ray) for ray in rays) + 1)
    )
    for rays in RAYS
)
"""``TARGETS_AT_DISTANCE[cell][n]``: the cells exactly ``n`` steps away in a straight line
(``n`` >= 1; beyond the longest ray the tuple simply ends)."""


def distance_in_line(source: Cell, target: Cell) -> int | None:
    """Steps from ``source`` to ``target`` if they share one of the six lines, else ``None``."""
    for ray in RAYS[source]:
        if target in ray:
            return ray.index(target) + 1
    return None


# Bit layout for fast flood fills: cell (letter L, row R) is bit R * 12 + L. Column 11 is
# never a cell, so shifting by 1, 12 and 13 moves every bit to its neighbours without
# wrapping onto a real cell; the result is masked with the occupied cells anyway.
_BIT_ROW_WIDTH: Final = 12
BIT: Final[tuple[int, ...]] = tuple(1 << (h.row * _BIT_ROW_WIDTH + h.letter) for h in HEXES)
ALL_CELLS_MASK: Final = sum(BIT)
CELL_OF_BIT: Final[dict[int, Cell]] = {bit: cell for cell, bit in enumerate(BIT)}


def spread(mask: int) -> int:
    """``mask`` plus every neighbour of its cells (may include bits that are not cells)."""
    return (
        mask
        | (mask << 1)
        | (mask >> 1)
        | (mask << _BIT_ROW_WIDTH)
        | (mask >> _BIT_ROW_WIDTH)
        | (mask << (_BIT_ROW_WIDTH + 1))
        | (mask >> (_BIT_ROW_WIDTH + 1))
    )


def cells_of(mask: int) -> list[Cell]:
    """The cells whose bits are set in ``mask``, in cell order."""
    out: list[Cell] = []
    while mask:
        low = mask & -mask
        out.append(CELL_OF_BIT[low])
        mask ^= low
    out.sort()
    return out
