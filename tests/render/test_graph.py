"""The evaluation graph: its size, whose lead shows where, the marks, and reading on a phone."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

import render
from render import DEFAULT_THEME as THEME
from render import GraphMark, evaluation_graph_png
from render.graph import (
    AXIS_SIZE,
    CAPTION_SIZE,
    DEFAULT_GRAPH_WIDTH,
    MARK_SIZE,
    NAME_SIZE,
    PHASE_SIZE,
    choose_limit,
    graph_layout,
    spread,
)
from rules import PLACEMENT_PLIES, Colour
from tests.render.pixels import at, decode, near
from tools.gallery.samples import graph_sample

PHONE = 390
# White ahead by 6 over the first half, Black ahead by 6 over the second.
CURVE = tuple([0.0] + [6.0] * 40 + [-6.0] * 40)
MARKS = (GraphMark(41, 1, Colour.WHITE), GraphMark(60, 2, Colour.BLACK))


@pytest.fixture(scope="module")
def graph() -> Image.Image:
    return decode(evaluation_graph_png(CURVE, marks=MARKS, players=("Alice", "Борис")))


def test_a_png_as_wide_as_asked_and_as_high_as_its_layout() -> None:
    for size, marks in ((390, ()), (800, MARKS), (1200, MARKS)):
        image = decode(evaluation_graph_png(CURVE, marks=marks, size=size, caption="Lead"))
        lay = graph_layout(size, len(CURVE) - 1, 10, caption=True, marks=bool(marks))
        assert image.size == (size, lay.height) and image.mode == "RGB"
    assert graph_layout(800, 80, 10, marks=True).height > graph_layout(800, 80, 10).height


def test_whites_lead_is_white_above_the_middle_and_blacks_black_below(
    graph: Image.Image,
) -> None:
    lay = graph_layout(DEFAULT_GRAPH_WIDTH, len(CURVE) - 1, choose_limit(CURVE), marks=True)
    white_half, black_half = lay.x(20), lay.x(62)
    up, down = lay.y(3), lay.y(-3)  # between the middle line and the curve
    assert near(at(graph, (white_half, up)), THEME.white_piece)
    assert near(at(graph, (black_half, down)), THEME.black_piece)
    # Where nobody leads, the board's wood shows.
    assert near(at(graph, (white_half, down)), THEME.cell)
    assert near(at(graph, (black_half, up)), THEME.cell)
    assert near(at(graph, (white_half, lay.y(8.5))), THEME.cell)  # above the curve


def test_the_marks_are_red_discs_above_the_plot(graph: Image.Image) -> None:
    lay = graph_layout(DEFAULT_GRAPH_WIDTH, len(CURVE) - 1, choose_limit(CURVE), marks=True)
    for mark in MARKS:
        # Right of the number, inside the disc.
        point = (lay.x(mark.ply) + 0.6 * 0.026 * DEFAULT_GRAPH_WIDTH, lay.lane)
        assert near(at(graph, point), THEME.dvonn_piece, 60), mark
    # Nothing red where there is no mark.
    assert not near(at(graph, (lay.x(10), lay.lane)), THEME.dvonn_piece, 60)


def test_the_axis_reaches_what_most_of_the_curve_needs() -> None:
    assert choose_limit([0.0, 1.0, -3.5]) == 4
    assert choose_limit([0.0, 6.0, -3.0]) == 10
    assert choose_limit([0.0] * 9 + [30.0]) == 4  # one outlier (the final margin) is cut
    assert choose_limit([0.0, 15.0, 40.0] * 5) == 20
    assert choose_limit([]) == 4


def test_crowded_marks_are_spread_within_the_plot() -> None:
    placed = spread([10, 11, 12, 95, 99], distance=5, low=0, high=100)
    assert all(b - a >= 5 - 1e-9 for a, b in itertools.pairwise(placed))
    assert placed[0] >= 0 and placed[-1] <= 100
    assert placed[0] == 10  # marks with room stay where they are
    assert spread([50], distance=5, low=0, high=100) == [50]


def test_the_same_graph_gives_the_same_bytes() -> None:
    assert evaluation_graph_png(CURVE, marks=MARKS) == evaluation_graph_png(CURVE, marks=MARKS)


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="two points"):
        evaluation_graph_png([0.0])
    with pytest.raises(ValueError, match="off the curve"):
        evaluation_graph_png(CURVE, marks=[GraphMark(len(CURVE), 1, Colour.WHITE)])
    with pytest.raises(ValueError, match="pixels"):
        evaluation_graph_png(CURVE, size=100)
    with pytest.raises(ValueError, match="limit"):
        evaluation_graph_png(CURVE, limit=0)
    with pytest.raises(ValueError, match="unknown theme"):
        evaluation_graph_png(CURVE, theme={"nope": "#fff"})


def test_short_games_and_other_languages_draw() -> None:
    # A game resigned a few moves in (no movement phase), and one ended just after it began.
    assert decode(evaluation_graph_png([0.0, 0.5, -0.2])).width == DEFAULT_GRAPH_WIDTH
    curve = [0.0] * (PLACEMENT_PLIES + 3)
    labels = render.Labels(placement="배치", movement="이동", white="백", black="흑")
    image = decode(evaluation_graph_png(curve, labels=labels, caption="말 차이 (엔진의 판단)"))
    assert image.width == DEFAULT_GRAPH_WIDTH


def test_words_and_numbers_read_on_a_phone() -> None:
    # Discord shows an image about 390 px wide on a phone: 12 px is about the smallest text
    # that reads there (the board's cell names are drawn at about 9 px, its labels at 16).
    for size in (AXIS_SIZE, CAPTION_SIZE, PHASE_SIZE, MARK_SIZE):
        assert size * PHONE >= 12
    assert NAME_SIZE * PHONE >= 14


def test_the_gallery_sample_draws() -> None:
    sample = graph_sample()
    assert len(sample.marks) == 3
    assert decode(sample.png(size=PHONE)).width == PHONE
