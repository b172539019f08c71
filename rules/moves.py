"""Moves and their canonical spelling (CodeCup 2011): ``E3``, ``E3F4``, ``PASS``.

Every well-formed move object is interned: :func:`parse_move` and the move generator hand out
the same objects, so comparing and hashing them is cheap. Constructing one directly works too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, TypeAlias

from rules.board import CELL_NAMES, CELLS, RAYS, Cell, lookup_cell, normalise
from rules.errors import InvalidMoveError, InvalidReason


@dataclass(frozen=True, slots=True)
class Place:
    """Phase 1: put the next piece on the empty ``cell``."""

    cell: Cell

    def __str__(self) -> str:
        return CELL_NAMES[self.cell]

    def __repr__(self) -> str:
        return f"Place({CELL_NAMES[self.cell]})"


@dataclass(frozen=True, slots=True)
class Jump:
    """Phase 2: move the whole stack on ``source`` onto the stack on ``target``."""

    source: Cell
    target: Cell

    def __str__(self) -> str:
        return CELL_NAMES[self.source] + CELL_NAMES[self.target]

    def __repr__(self) -> str:
        return f"Jump({CELL_NAMES[self.source]}, {CELL_NAMES[self.target]})"


@dataclass(frozen=True, slots=True)
class Pass:
    """Phase 2: the player has no legal move and passes the turn."""

    def __str__(self) -> str:
        return "PASS"

    def __repr__(self) -> str:
        return "PASS"


Move: TypeAlias = Place | Jump | Pass

PASS: Final = Pass()
PLACES: Final[tuple[Place, ...]] = tuple(Place(cell) for cell in CELLS)
JUMPS: Final[dict[tuple[Cell, Cell], Jump]] = {
    (source, target): Jump(source, target)
    for source in CELLS
    for ray in RAYS[source]
    for target in ray
}
"""Every jump between two cells on a common line, interned."""

_SEPARATORS: Final = re.compile(r"[\s\-–—→>:,]+")
_MOVE_SHAPE: Final = re.compile(r"([A-Z])(\d{1,2})(?:([A-Z])(\d{1,2}))?")


def _cell_or_raise(name: str) -> Cell:
    cell = lookup_cell(name)
    if cell is None:
        raise InvalidMoveError(InvalidReason.UNKNOWN_CELL, text=name)
    return cell


def jump(source: Cell, target: Cell) -> Jump:
    """The (interned) jump from ``source`` to ``target``."""
    return JUMPS.get((source, target)) or Jump(source, target)


def parse_move(text: str) -> Move:
    """Parse a move, leniently: any case, ``E3F4``, ``e3-f4``, ``e3 f4``, ``E3→F4``, ``pass``,
    full-width or look-alike letters (:func:`rules.board.normalise`).

    Raises :class:`InvalidMoveError` if the text is not a well-formed move or names a cell that
    is not on the board. It never checks legality: that is :func:`rules.play`'s job.
    """
    compact = _SEPARATORS.sub("", normalise(text.strip()))
    if compact == "PASS":
        return PASS
    shape = _MOVE_SHAPE.fullmatch(compact)
    if shape is None:
        raise InvalidMoveError(InvalidReason.NOT_A_MOVE, text=text.strip())
    first = _cell_or_raise(shape[1] + shape[2])
    if shape[3] is None:
        return PLACES[first]
    return jump(first, _cell_or_raise(shape[3] + shape[4]))


def is_move_text(text: str) -> bool:
    """Whether ``text`` parses as a move (legal or not)."""
    try:
        parse_move(text)
    except InvalidMoveError:
        return False
    return True
