"""What the board image shows, checked by sampling pixels where the layout puts things."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

import render
import rules
import tools.gallery.samples
from render import DEFAULT_THEME as THEME
from render import Orientation, layout, sprites
from render import board as board_module
from tests.render.pixels import (
    at,
    cell,
    count_near,
    decode,
    face,
    near,
    position,
    ring,
    side_points,
)

STACKS = {
    "A1": "W",  # white
    "C1": "B",  # black
    "E1": "D",  # a lone DVONN piece
    "G1": "BWBW",  # white, height 4
    "B2": "WBWBWBWBWBWB",  # black, height 12
    "E3": "DB",  # black with a DVONN piece
    "G3": "WDW",  # white with a DVONN piece
}
EMPTY = ("B1", "D1", "E2", "F4", "K5")


@pytest.fixture(scope="module")
def board() -> Image.Image:
    return decode(render.board_png(position(STACKS)))


def test_a_png_of_the_layouts_size() -> None:
    for size in (400, 800, 1200):
        image = decode(render.board_png(rules.new_game(), size=size))
        lay = layout(size)
        assert image.size == (lay.width, lay.height) and image.mode == "RGB"


@pytest.mark.parametrize(
    ("name", "colour"),
    [("A1", THEME.white_piece), ("C1", THEME.black_piece), ("E1", THEME.dvonn_piece)]
    + [("G1", THEME.white_piece), ("B2", THEME.black_piece)]
    + [("E3", THEME.black_piece), ("G3", THEME.white_piece)]
    + [(name, THEME.cell) for name in EMPTY],
)
def test_each_cell_shows_its_top_piece_or_is_empty(
    board: Image.Image, name: str, colour: str
) -> None:
    assert near(at(board, face(layout(), cell(name))), colour)


def test_the_colours_are_told_apart_by_lightness_too() -> None:
    # Colour-blind players see lightness: white, black, DVONN red and the cells differ in it.
    def lightness(colour: str) -> float:
        r, g, b = render.theme.rgb(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    levels = sorted(lightness(c) for c in (THEME.white_piece, THEME.black_piece, THEME.dvonn_piece))
    assert levels[1] - levels[0] > 40 and levels[2] - levels[1] > 40
    assert abs(lightness(THEME.cell) - lightness(THEME.black_piece)) > 80


@pytest.mark.parametrize(
    ("name", "marked"),
    [("E3", True), ("G3", True), ("A1", False), ("C1", False), ("G1", False), ("B2", False)],
)
def test_stacks_holding_a_dvonn_piece_wear_a_ring(
    board: Image.Image, name: str, marked: bool
) -> None:
    assert near(at(board, ring(layout(), cell(name))), THEME.dvonn_ring) is marked


def test_a_lone_dvonn_piece_has_a_dark_core_besides_its_red(board: Image.Image) -> None:
    centre = layout().cell_center(cell("E1"))
    assert near(at(board, centre), THEME.dvonn_rim)


@pytest.mark.parametrize(
    ("name", "ink"),
    [
        ("G1", THEME.white_height),
        ("B2", THEME.black_height),
        ("E3", THEME.black_height),
        ("G3", THEME.white_height),
    ],
)
def test_tall_stacks_show_their_height(board: Image.Image, name: str, ink: str) -> None:
    lay = layout()
    inside = 0.45 * lay.piece_radius
    assert count_near(board, lay.cell_center(cell(name)), inside, ink) > 20


@pytest.mark.parametrize(("name", "ink"), [("A1", THEME.white_height), ("C1", THEME.black_height)])
def test_single_pieces_show_no_number(board: Image.Image, name: str, ink: str) -> None:
    lay = layout()
    assert count_near(board, lay.cell_center(cell(name)), 0.45 * lay.piece_radius, ink) == 0


def test_two_digit_heights_fit_inside_the_piece() -> None:
    for height in (10, 38, 49):
        label = sprites.height_label(
            THEME, render.DEFAULT_FONTS, layout().piece_radius, "B", height
        )
        left, _, right, _ = label.image.getchannel("A").getbbox() or (0, 0, 0, 0)
        assert 0 < right - left <= 2 * sprites.DVONN_RING_INNER * layout().piece_radius


def _outlined(image: Image.Image, name: str, *, thin: bool = False) -> int:
    """On how many of the cell's six sides the last-move outline shows (its band, inside its
    light edge)."""
    lay = layout()
    width = sprites.OUTLINE_WIDTH * lay.hex_width * (sprites.THIN_OUTLINE if thin else 1)
    points = side_points(lay, cell(name), sprites.OUTLINE_EDGE * lay.hex_width + width / 2)
    return sum(near(at(image, p), THEME.last_move) for p in points)


def test_the_last_placement_is_outlined() -> None:
    pos = rules.new_game()
    for name in ("E3", "A1", "K5", "C3"):
        pos = rules.play(pos, rules.parse_move(name))
    image = decode(render.board_png(pos, last_move=rules.parse_move("C3")))
    assert _outlined(image, "C3") == 6
    assert all(_outlined(image, name) == 0 for name in ("E3", "A1", "K5", "D3", "C2"))


def test_the_last_jump_is_an_arrow_from_source_to_destination() -> None:
    before = position({"E3": "W", "F3": "B", "F4": "D", "D2": "W", "E2": "B", "A1": "D", "K5": "D"})
    result = rules.apply(before, rules.parse_move("E3F3"))
    image = decode(render.board_png(result.after, last_move=result.move))
    lay = layout()
    source, target = lay.cell_center(cell("E3")), lay.cell_center(cell("F3"))
    assert near(at(image, source), THEME.last_move)  # the arrow's tail
    halfway = ((source[0] + target[0]) / 2, source[1])
    assert near(at(image, halfway), THEME.last_move)  # its shaft
    assert near(at(image, face(lay, cell("F3"))), THEME.white_piece)  # not over the piece
    assert _outlined(image, "F3") >= 5  # the arrow may cover one side
    assert _outlined(image, "E3", thin=True) >= 5
    for name in ("F4", "D2", "E2", "D3"):
        assert _outlined(image, name) == 0
        assert _outlined(image, name, thin=True) == 0


def test_height_numbers_stay_on_top_of_the_arrow() -> None:
    # E3 jumps 2 cells over F3's stack of 2: F3's number is drawn over the arrow's shaft.
    before = position({"E3": "BW", "F3": "WW", "G3": "D", "A1": "D", "K5": "D"})
    result = rules.apply(before, rules.parse_move("E3G3"))
    image = decode(render.board_png(result.after, last_move=result.move))
    lay = layout()
    under = lay.cell_center(cell("F3"))
    assert count_near(image, under, 0.45 * lay.piece_radius, THEME.white_height) > 20
    assert count_near(image, under, 0.45 * lay.piece_radius, THEME.last_move) > 0


def test_removed_stacks_are_faded_and_crossed_out() -> None:
    before = position(
        {"A1": "W", "B1": "B", "C1": "W", "E3": "D", "F3": "B", "G3": "B", "I4": "D", "K5": "D"},
        ply=rules.PLACEMENT_PLIES + 1,
    )
    result = rules.apply(before, rules.parse_move("B1C1"))
    assert set(result.removed) == {cell("A1"), cell("C1")}
    image = decode(render.board_png(result.after, last_move=result.move, removed=result.removed))
    lay = layout()
    for name in ("A1", "C1"):
        assert near(at(image, lay.cell_center(cell(name))), THEME.removed)  # the cross
        faded = at(image, face(lay, cell(name)))
        assert not near(faded, THEME.cell) and not near(faded, THEME.white_piece)
    for name in ("D1", "D2", "E2"):  # empty cells, not crossed out
        assert not near(at(image, lay.cell_center(cell(name))), THEME.removed)
    for name in ("F3", "G3"):  # stacks that stay, drawn as usual
        assert near(at(image, face(lay, cell(name))), THEME.black_piece)
    plain = decode(render.board_png(result.after, last_move=result.move))
    assert near(at(plain, face(lay, cell("A1"))), THEME.cell)


def test_the_card_of_the_player_to_move_is_outlined() -> None:
    lay = layout()
    white, black = lay.cards()

    def outlined(image: Image.Image, card: render.geometry.Card) -> bool:
        return near(at(image, (card.left + 1, card.middle)), THEME.panel_active)

    white_to_move = decode(render.board_png(rules.new_game()))
    black_to_move = decode(render.board_png(rules.play(rules.new_game(), rules.Place(0))))
    assert outlined(white_to_move, white) and not outlined(white_to_move, black)
    assert outlined(black_to_move, black) and not outlined(black_to_move, white)


def test_the_winners_card_is_outlined_when_the_game_is_over() -> None:
    over = position({"E3": "D", "F3": "DDW", "A1": "BB"})
    result = rules.outcome(over)
    assert result is not None and result.winner is rules.Colour.WHITE
    image = decode(render.board_png(over))
    white, black = layout().cards()
    assert near(at(image, (white.left + 1, white.middle)), THEME.panel_active)
    assert not near(at(image, (black.left + 1, black.middle)), THEME.panel_active)


def test_the_same_input_gives_the_same_bytes_even_with_cold_caches() -> None:
    pos = position(STACKS)
    options = {"players": ("Алексей", "Zoë"), "last_move": rules.parse_move("E1")}
    first = render.board_png(pos, **options)  # type: ignore[arg-type]
    board_module._base.cache_clear()
    sprites.piece.cache_clear()
    sprites.height_label.cache_clear()
    assert render.board_png(pos, **options) == first  # type: ignore[arg-type]


@pytest.mark.slow
def test_renders_in_parallel_threads_match_serial_ones() -> None:
    samples = tools.gallery.samples.samples()
    serial = [s.png(size=500) for s in samples]
    board_module._base.cache_clear()  # so the threads also race to fill the caches
    sprites.piece.cache_clear()
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda s: s.png(size=500), samples))
    assert parallel == serial


def test_a_theme_mapping_overrides_colours() -> None:
    image = decode(render.board_png(rules.new_game(), theme={"cell": "#00ff00"}))
    assert near(at(image, face(layout(), cell("E3"))), "#00ff00", tolerance=3)


@pytest.mark.parametrize("theme", [{"celll": "#00ff00"}, {"cell": "not a colour"}])
def test_a_bad_theme_is_refused(theme: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        render.board_png(rules.new_game(), theme=theme)


def test_row_5_on_top_draws_each_stack_at_its_flipped_cell() -> None:
    pos = position({"C5": "W", "C1": "B", "E3": "D", "A3": "D", "K3": "D"})
    image = decode(render.board_png(pos, orientation=Orientation.ROW5_TOP))
    lay = layout(orientation=Orientation.ROW5_TOP)
    assert near(at(image, face(lay, cell("C5"))), THEME.white_piece)
    assert near(at(image, face(lay, cell("C1"))), THEME.black_piece)
    assert lay.cell_center(cell("C5"))[1] < lay.cell_center(cell("C1"))[1]


def test_the_header_changes_with_the_words_but_the_board_does_not() -> None:
    pos = position(STACKS)
    # Compared before PNG encoding: the PNG's palette is chosen per image.
    english = render.board_image(pos)
    french = render.board_image(pos, labels={"to_move": "Aux {player} de jouer"})
    header = layout().header_height
    board_box = (0, round(header), english.width, english.height)
    assert english.crop(board_box).tobytes() == french.crop(board_box).tobytes()
    assert english.crop((0, 0, english.width, round(header))).tobytes() != (
        french.crop((0, 0, english.width, round(header))).tobytes()
    )


def test_names_in_any_script_are_drawn() -> None:
    pos = position(STACKS)
    plain = decode(render.board_png(pos))
    for names in [("Алексей", "Kasia Łukaszewska"), ("김민수", "🙂"), ("x" * 200, "\n\t")]:
        named = decode(render.board_png(pos, players=names))
        assert named.size == plain.size
        assert named.tobytes() != plain.tobytes()
