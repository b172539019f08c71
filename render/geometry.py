"""Where everything goes: hexes to pixels (Red Blob Games' "Layout"), in floats.

Cells are pointy-topped hexes in five horizontal rows. Every length is a multiple of the
*hex width* ``w``: the distance between the centres of two neighbouring cells in a row. The
image is :data:`WIDTH_IN_HEXES` hex widths wide, so ``w`` follows from the image width.

A cell (letter index ``L``, row index ``R``) sits at ``x = L - R / 2`` hex widths across and
``R`` rows down (``sqrt(3) / 2`` hex widths each), so the letter lines (A1, A2, A3, ...) run
down and to the left, as ``NOTATION.md`` draws them. :attr:`Orientation.ROW5_TOP` mirrors the
board top to bottom, as some sites draw it.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import rules
from rules import Cell, Colour
from rules.board import LETTERS, ROWS

Point = tuple[float, float]

SQRT3: Final = math.sqrt(3)
ROW_STEP: Final = SQRT3 / 2
"""Vertical distance between two rows, in hex widths."""
CORNER_RADIUS: Final = 1 / SQRT3
"""Centre to corner of a hex, in hex widths (the centre to a flat side is 1/2)."""

# --- the image's proportions, in hex widths -------------------------------------------------
WIDTH_IN_HEXES: Final = 13.0
"""11 cells in the middle row, a row number either side, and a margin."""
HEADER_PAD: Final = 0.22
"""Around and between the players' cards in the header."""
CARD_HEIGHT: Final = 1.05
"""A player's card: colour disc, name, colour name, score. White's left, Black's right."""
STATUS_HEIGHT: Final = 0.66
"""The status line under the cards, the full width of the image: whose turn, phase, move."""
HEADER_HEIGHT: Final = HEADER_PAD + CARD_HEIGHT + STATUS_HEIGHT
"""The panel above the board."""
TOP_BAND: Final = 1.18
"""From the header's bottom edge to the centres of the top row (room for the letter labels)."""
BOTTOM_BAND: Final = 1.25
"""From the centres of the bottom row to the image's bottom edge."""
BOARD_CENTRE: Final = 4.0
"""The middle of the board in ``L - R / 2`` units (A3 is at -1, K3 at 9)."""

# --- cells and pieces, in hex widths ----------------------------------------------------------
CELL_GAP: Final = 0.05
"""Gap between neighbouring hexes, through which the board shows as grid lines."""
PIECE_RADIUS: Final = 0.40
"""Radius of a piece's top face; the cell's flat sides are 0.5 from its centre."""
LETTER_LABEL_STEP: Final = 0.78
"""A letter label sits this far (in cells) beyond the end of its line, on the line."""
ROW_LABEL_STEP: Final = 0.85
"""A row number sits this far (in cells) beyond the end of its row."""

DEFAULT_WIDTH: Final = 800
"""The default image width in pixels: crisp when opened, legible in a 400 px phone preview."""
MIN_WIDTH: Final = 260


class Orientation(enum.Enum):
    """Which way up the board is drawn."""

    ROW1_TOP = "row1-top"
    """Row 1 on top, as ``NOTATION.md`` draws it (CodeCup 2011)."""
    ROW5_TOP = "row5-top"
    """The mirror image: row 5 on top."""


@dataclass(frozen=True, slots=True)
class EdgeLabel:
    """A letter or row number drawn around the board's edge."""

    text: str
    centre: Point


@dataclass(frozen=True, slots=True)
class Card:
    """A player's card in the header: a box, White's on the left, Black's on the right."""

    left: float
    top: float
    right: float
    bottom: float
    side: Colour

    @property
    def middle(self) -> float:
        """Its vertical middle."""
        return (self.top + self.bottom) / 2

    @property
    def outer(self) -> float:
        """Its edge nearer the image's edge (the colour disc sits there)."""
        return self.left if self.side is Colour.WHITE else self.right

    @property
    def inner(self) -> float:
        """Its edge nearer the image's middle (the score sits there)."""
        return self.right if self.side is Colour.WHITE else self.left

    @property
    def inward(self) -> int:
        """+1 if the card's content runs rightwards from its outer edge, else -1."""
        return 1 if self.side is Colour.WHITE else -1


@dataclass(frozen=True, slots=True)
class Layout:
    """The geometry of one image: its size, and where each cell, piece and label goes.

    Build one with :func:`layout`; tests use :meth:`cell_center` to sample pixels.
    """

    width: int
    height: int
    hex_width: float
    orientation: Orientation

    @property
    def header_height(self) -> float:
        return HEADER_HEIGHT * self.hex_width

    @property
    def piece_radius(self) -> float:
        """Radius of a piece's top face, in pixels."""
        return PIECE_RADIUS * self.hex_width

    @property
    def corner_radius(self) -> float:
        """Centre to corner of a cell's hex, in pixels."""
        return CORNER_RADIUS * self.hex_width

    def cards(self) -> tuple[Card, Card]:
        """White's and Black's cards in the header."""
        w = self.hex_width
        top, bottom = HEADER_PAD * w, (HEADER_PAD + CARD_HEIGHT) * w
        middle, gap = self.width / 2, HEADER_PAD * w / 2
        white = Card(HEADER_PAD * w, top, middle - gap, bottom, Colour.WHITE)
        black = Card(middle + gap, top, self.width - HEADER_PAD * w, bottom, Colour.BLACK)
        return white, black

    @property
    def status_middle(self) -> float:
        """The vertical middle of the status line."""
        return (HEADER_PAD + CARD_HEIGHT + STATUS_HEIGHT / 2) * self.hex_width

    def hex_center(self, letter: int, row: int) -> Point:
        """Pixel centre of the hex at (letter index, row index), on the board or beyond it."""
        w = self.hex_width
        x = self.width / 2 + (letter - row / 2 - BOARD_CENTRE) * w
        rows_down = row if self.orientation is Orientation.ROW1_TOP else ROWS - 1 - row
        y = self.header_height + (TOP_BAND + rows_down * ROW_STEP) * w
        return x, y

    def cell_center(self, cell: Cell) -> Point:
        """Pixel centre of ``cell`` (e.g. ``rules.E3``)."""
        return _centres(self)[cell]

    def hex_corners(self, cell: Cell, *, inset: float = 0.0) -> list[Point]:
        """The six corners of ``cell``'s hex, clockwise from the top; ``inset`` pixels inside."""
        x, y = self.cell_center(cell)
        return hex_polygon(x, y, self.corner_radius - inset * 2 / SQRT3)

    def edge_labels(self) -> list[EdgeLabel]:
        """The letters beyond the ends of the letter lines, the numbers at both ends of each row.

        Letters A..I label the row 1 end of their line and C..K the row 5 end, so each letter
        appears at least once and no label collides with a row number (the ends of the A, B,
        J and K lines that are not in row 1 or 5 sit where the row numbers go).
        """
        labels: list[EdgeLabel] = []
        for row, beyond in ((0, -1), (ROWS - 1, ROWS)):
            for h in rules.HEXES:
                if h.row == row:
                    end = self.hex_center(h.letter, row)
                    out = self.hex_center(h.letter, beyond)
                    labels.append(
                        EdgeLabel(LETTERS[h.letter], _between(end, out, LETTER_LABEL_STEP))
                    )
        for row in range(ROWS):
            in_row = [h.letter for h in rules.HEXES if h.row == row]
            for letter, step in ((min(in_row), -1), (max(in_row), 1)):
                end = self.hex_center(letter, row)
                out = self.hex_center(letter + step, row)
                labels.append(EdgeLabel(str(row + 1), _between(end, out, ROW_LABEL_STEP)))
        return labels


def hex_polygon(x: float, y: float, radius: float) -> list[Point]:
    """A pointy-topped hex's corners around (x, y), clockwise from the top."""
    return [
        (x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
        for a in range(-90, 270, 60)
    ]


def _between(a: Point, b: Point, t: float) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


@lru_cache(maxsize=32)
def _centres(lay: Layout) -> tuple[Point, ...]:
    return tuple(lay.hex_center(h.letter, h.row) for h in rules.HEXES)


@lru_cache(maxsize=32)
def layout(width: int = DEFAULT_WIDTH, orientation: Orientation = Orientation.ROW1_TOP) -> Layout:
    """The geometry of an image ``width`` pixels wide (its height follows).

    Raises :class:`ValueError` if ``width`` is too small to draw a legible board.
    """
    if width < MIN_WIDTH:
        raise ValueError(f"a board image must be at least {MIN_WIDTH} pixels wide, not {width}")
    w = width / WIDTH_IN_HEXES
    height = HEADER_HEIGHT + TOP_BAND + (ROWS - 1) * ROW_STEP + BOTTOM_BAND
    return Layout(width, round(height * w), w, orientation)
