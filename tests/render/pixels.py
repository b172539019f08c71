"""Helpers for tests that look at board images: build positions, decode PNGs, sample colours."""

from __future__ import annotations

import io
import math

from PIL import Image

import rules
from render import Layout
from render.theme import rgb

Colour3 = tuple[int, int, int]
TOLERANCE = 30
"""How far (sum of channel differences) a sampled colour may be from the colour drawn: the
PNG is palette-quantised and pieces are antialiased."""


def position(stacks: dict[str, str], *, ply: int = rules.PLACEMENT_PLIES) -> rules.Position:
    """A position with the given stacks (cell name -> bottom-to-top letters), at ``ply``."""
    board = [""] * rules.CELL_COUNT
    for name, stack in stacks.items():
        board[cell(name)] = stack
    return rules.Position(board, ply)


def cell(name: str) -> int:
    found = rules.lookup_cell(name)
    assert found is not None, name
    return found


def decode(png: bytes) -> Image.Image:
    """A PNG's pixels as RGB, checking it is a PNG."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def distance(a: Colour3, b: Colour3) -> int:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def near(a: Colour3, colour: str, tolerance: int = TOLERANCE) -> bool:
    """Whether the sampled colour ``a`` is (nearly) the theme colour ``colour``."""
    return distance(a, rgb(colour)) <= tolerance


def at(image: Image.Image, point: tuple[float, float]) -> Colour3:
    pixel = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(pixel, tuple)
    return pixel[0], pixel[1], pixel[2]


def face(lay: Layout, where: int) -> tuple[float, float]:
    """A point on a piece's top face, above its height number and inside any DVONN ring."""
    x, y = lay.cell_center(where)
    return x, y - 0.5 * lay.piece_radius


def ring(lay: Layout, where: int) -> tuple[float, float]:
    """A point on the DVONN ring of a white or black stack."""
    x, y = lay.cell_center(where)
    return x, y - 0.72 * lay.piece_radius


def count_near(image: Image.Image, centre: tuple[float, float], radius: float, colour: str) -> int:
    """How many pixels within ``radius`` of ``centre`` are (nearly) ``colour``."""
    cx, cy = centre
    count = 0
    r = int(radius) + 1
    for y in range(round(cy) - r, round(cy) + r + 1):
        for x in range(round(cx) - r, round(cx) + r + 1):
            if (x - cx) ** 2 + (y - cy) ** 2 <= radius**2 and near(at(image, (x, y)), colour):
                count += 1
    return count


def side_points(lay: Layout, where: int, depth: float) -> list[tuple[float, float]]:
    """The midpoints of a cell's six sides, ``depth`` pixels in from the hex's edge."""
    x, y = lay.cell_center(where)
    apothem = lay.hex_width / 2 - depth
    return [
        (x + apothem * math.cos(math.radians(a)), y + apothem * math.sin(math.radians(a)))
        for a in range(0, 360, 60)
    ]
