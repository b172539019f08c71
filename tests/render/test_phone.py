"""What a player sees on a phone, where a board image is shown about 390 px wide: cell names
that read, a Black disc that is a disc, a one-cell move that shows, a status line cut only
between whole parts."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
import rules
from render import DEFAULT_THEME as THEME
from render import LIGHT_THEME, Theme, layout
from render import board as board_module
from render.theme import rgb
from tests.render.pixels import at, cell, near, position

PHONE = 390
DVONNS = {"E3": "D", "G3": "D", "I3": "D"}


def _luminance(colour: tuple[int, int, int]) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [(data[i], data[i + 1], data[i + 2]) for i in range(0, len(data), 3)]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


THEMES = pytest.mark.parametrize("theme", [THEME, LIGHT_THEME], ids=["dark", "light"])


@THEMES
def test_cell_names_stand_out_from_their_cells_at_least_three_to_one(theme: Theme) -> None:
    assert contrast(rgb(theme.cell_name), rgb(theme.cell)) >= 3.0


@THEMES
def test_cell_names_are_drawn_and_still_there_at_phone_width(theme: Theme) -> None:
    png = render.board_png(rules.new_game(), size=PHONE, theme=theme)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    lay = layout(PHONE)
    x, y = lay.cell_center(cell("E3"))
    w = lay.hex_width
    box = image.crop((int(x - w / 3), int(y - w / 4), int(x + w / 3), int(y + w / 4)))
    colours = pixels(box)
    darkest = min(colours, key=_luminance)
    assert contrast(darkest, rgb(theme.cell)) >= 2.5  # the name's strokes, after scaling down


@THEMES
def test_the_edge_letters_and_numbers_stand_out_from_all_they_touch(theme: Theme) -> None:
    # They stand on the background, and their feet reach into the notches of the board's
    # plate: at least 3:1 against both (the plate too against the cells, as grid lines).
    assert contrast(rgb(theme.coordinates), rgb(theme.background)) >= 4.5
    assert contrast(rgb(theme.coordinates), rgb(theme.board)) >= 3.0
    assert contrast(rgb(theme.board), rgb(theme.cell)) >= 3.0


def test_the_black_disc_in_the_header_sits_on_a_light_plate() -> None:
    # Sampled at full size: at 390 px the plate is two pixels wide, each blended with its edges.
    png = render.board_png(position({"A1": "W", "C1": "B", **DVONNS}))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    lay = layout(render.DEFAULT_WIDTH)
    _, black = lay.cards()
    w = lay.hex_width
    centre = (black.outer + black.inward * board_module.DISC_INSET * w, black.middle)
    assert near(at(image, centre), THEME.black_piece, 40)
    edge = board_module.DISC_RADIUS * w + board_module.DISC_PLATE * w / 2
    plate = at(image, (centre[0], centre[1] - edge))
    assert near(plate, THEME.cell, 40), plate  # not the dark card: a disc, not an empty ring


def test_a_one_cell_move_outlines_both_cells_in_full() -> None:
    before = position({"A1": "W", "B1": "B", "C1": "W", **DVONNS})
    move = rules.jump(cell("A1"), cell("B1"))
    long_move = position({"A1": "WW", "B1": "B", "C1": "W", **DVONNS})
    short = Image.open(io.BytesIO(render.board_png(before, last_move=move))).convert("RGB")
    far = rules.jump(cell("A1"), cell("C1"))
    longer = Image.open(io.BytesIO(render.board_png(long_move, last_move=far))).convert("RGB")
    lay = layout(render.DEFAULT_WIDTH)

    def outline_pixels(image: Image.Image, where: str) -> int:
        x, y = lay.cell_center(cell(where))
        w = lay.hex_width
        box = image.crop((int(x - w / 2), int(y - w / 2), int(x + w / 2), int(y + w / 2)))
        return sum(1 for c in pixels(box) if near(c, THEME.last_move, 40))

    # The cell a one-cell move left is outlined as strongly as where it went; a longer move's
    # source keeps a thin outline (its arrow shows the way).
    assert outline_pixels(short, "A1") > 1.5 * outline_pixels(longer, "A1")


def test_the_status_line_drops_whole_parts_never_half_a_word() -> None:
    fonts = render.fonts.DEFAULT_FONTS.regular
    text = " · ".join(["Tworzenie stosów", "Ruch 56"])
    full = board_module._whole_parts(fonts, 20, text, " · ", 10_000)
    assert full == text
    width = render.fonts.text_width(fonts, 20, "Tworzenie stosów") + 5
    assert board_module._whole_parts(fonts, 20, text, " · ", width) == "Tworzenie stosów"
    assert board_module._whole_parts(fonts, 20, text, " · ", 3) == ""


def test_without_its_header_the_image_is_the_board_alone() -> None:
    full = Image.open(io.BytesIO(render.board_png(rules.new_game())))
    bare = Image.open(io.BytesIO(render.board_png(rules.new_game(), header=False)))
    lay = layout(render.DEFAULT_WIDTH)
    assert bare.width == full.width
    assert bare.height == full.height - round(render.geometry.HEADER_HEIGHT * lay.hex_width)
    # Its top rows are background, not a player's card.
    assert near(at(bare.convert("RGB"), (full.width / 4, 5)), THEME.background, 12)
