"""Both themes, dark and light: each draws its own background, and in each the DVONN pieces and
the last move's outline are told apart by shape as well as by colour, looked at in lightness
alone (as an eye that sees no hue would see them)."""

from __future__ import annotations

import pytest
from PIL import Image

import render
import rules
from render import DEFAULT_THEME, LIGHT_THEME, Theme, layout, sprites
from tests.render.pixels import at, cell, decode, near, position
from tests.render.test_phone import PHONE, contrast

STACKS = {
    "A1": "W",  # a white piece
    "C1": "B",  # a black piece
    "E1": "D",  # a lone DVONN piece
    "G1": "BW",  # white, height 2
    "I1": "WB",  # black, height 2
    "E3": "DB",  # black holding a DVONN piece
    "G3": "WDW",  # white holding a DVONN piece
}
THEMES = pytest.mark.parametrize("theme", [DEFAULT_THEME, LIGHT_THEME], ids=["dark", "light"])
Grey = tuple[int, int, int]


def grey(image: Image.Image) -> Image.Image:
    """``image`` in lightness alone, kept as RGB so the contrast helpers read it."""
    return image.convert("L").convert("RGB")


def radius_line(image: Image.Image, name: str, start: float, end: float, size: int) -> list[Grey]:
    """The pixels straight up from a stack's centre, from ``start`` to ``end`` piece radii out
    (up: the height number sits on the centre, the lower layers show below)."""
    lay = layout(size)
    x, y = lay.cell_center(cell(name))
    r = lay.piece_radius
    steps = max(2, round((end - start) * r))
    return [at(image, (x, y - (start + (end - start) * i / steps) * r)) for i in range(steps)]


def spread(line: list[Grey], face: Grey) -> float:
    """The strongest contrast along ``line`` against ``face``."""
    return max(contrast(pixel, face) for pixel in line)


@pytest.mark.parametrize("size", [render.DEFAULT_WIDTH, PHONE])
@THEMES
def test_a_lone_dvonn_piece_shows_a_dark_core_in_lightness_alone(theme: Theme, size: int) -> None:
    image = grey(decode(render.board_png(position(STACKS), theme=theme, size=size)))
    lay = layout(size)
    r = lay.piece_radius
    for name, cored in (("E1", True), ("A1", False), ("C1", False)):
        x, y = lay.cell_center(cell(name))
        centre = at(image, (x, y))
        face = at(image, (x, y - 0.65 * r))  # between the core and the rim
        assert (contrast(centre, face) >= 2.0) is cored, (name, centre, face)


@THEMES
def test_a_stack_holding_a_dvonn_piece_wears_a_ring_in_lightness_alone(theme: Theme) -> None:
    # Between the height number and the rim, a stack holding a DVONN piece shows a band that a
    # stack of its colour without one does not: red against white; light edges on black.
    size = render.DEFAULT_WIDTH
    image = grey(decode(render.board_png(position(STACKS), theme=theme, size=size)))
    inner = sprites.DVONN_RING_INNER - 2 * sprites.DVONN_RING_EDGE
    outer = sprites.DVONN_RING_OUTER + 2 * sprites.DVONN_RING_EDGE
    for name, plain in (("E3", "I1"), ("G3", "G1")):
        face = radius_line(image, name, 0.45, 0.5, size)[0]
        assert spread(radius_line(image, name, inner, outer, size), face) >= 3.0, name
        plain_face = radius_line(image, plain, 0.45, 0.5, size)[0]
        assert spread(radius_line(image, plain, inner, outer, size), plain_face) < 1.3, plain


@THEMES
def test_each_theme_draws_its_own_background_and_the_same_pieces(theme: Theme) -> None:
    image = decode(render.board_png(position(STACKS), theme=theme))
    assert near(at(image, (2, image.height - 2)), theme.background, 12)
    lay = layout()
    for name, colour in (("A1", theme.white_piece), ("C1", theme.black_piece)):
        x, y = lay.cell_center(cell(name))
        assert near(at(image, (x, y)), colour)
    assert theme.white_piece == DEFAULT_THEME.white_piece
    assert theme.dvonn_piece == DEFAULT_THEME.dvonn_piece


def test_the_light_theme_is_light_and_the_dark_one_dark() -> None:
    white = (255, 255, 255)
    light = decode(render.board_png(position(STACKS), theme=LIGHT_THEME))
    dark = decode(render.board_png(position(STACKS)))
    assert contrast(at(light, (2, 2)), white) < 1.2
    assert contrast(at(dark, (2, 2)), white) > 10


def swings(line: list[Grey], swing: float = 1.5) -> int:
    """How many times the lightness along ``line`` turns, rising or falling by ``swing`` (a
    contrast ratio) or more from the last turn: each band lighter or darker than the last."""
    count, rising, extreme = 0, None, line[0]
    for pixel in line[1:]:
        if rising is not None and (pixel[0] > extreme[0]) == rising:
            extreme = pixel  # further the same way
        elif contrast(pixel, extreme) >= swing:
            rising, extreme = pixel[0] > extreme[0], pixel
            count += 1
    return count


def across_side(image: Image.Image, name: str, size: int) -> list[Grey]:
    """The pixels from just outside a stack's rim straight right, across the cell's side and
    the grid line beyond it, into the next cell (empty in :data:`STACKS`, right of each cell
    used)."""
    lay = layout(size)
    x, y = lay.cell_center(cell(name))
    start, end = x + lay.piece_radius + 1, x + 0.65 * lay.hex_width
    return [at(image, (px, y)) for px in range(round(start), round(end) + 1)]


@pytest.mark.parametrize("size", [render.DEFAULT_WIDTH, PHONE])
@THEMES
def test_the_last_moves_outline_shows_in_lightness_alone(theme: Theme, size: int) -> None:
    # Crossing a cell's side, the lightness falls at the grid line and rises into the next
    # cell. Across an outlined cell's it turns once more: its band, darker than the cell, then
    # its light edge, lighter than the grid line; an outline as light as the plate would pass
    # for a wider grid line.
    plain = grey(decode(render.board_png(position(STACKS), theme=theme, size=size)))
    for move, outlined in (("A1", ("A1",)), ("G1G3", ("G1", "G3"))):
        png = render.board_png(
            position(STACKS), theme=theme, size=size, last_move=rules.parse_move(move)
        )
        image = grey(decode(png))
        for name in outlined:
            before, after = across_side(plain, name, size), across_side(image, name, size)
            assert swings(after) > swings(before), (move, name, after, before)
