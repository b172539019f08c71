"""Where cells and labels go: the board as NOTATION.md draws it, and nothing overlapping."""

from __future__ import annotations

import math
from itertools import combinations

import pytest

import rules
from render import Layout, Orientation, layout
from tests.render.pixels import cell


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


@pytest.fixture(params=list(Orientation), ids=lambda o: o.value)
def lay(request: pytest.FixtureRequest) -> Layout:
    orientation: Orientation = request.param
    return layout(800, orientation)


def test_image_size_follows_the_width() -> None:
    small, big = layout(400), layout(800)
    assert (small.width, big.width) == (400, 800)
    assert big.height == pytest.approx(2 * small.height, abs=1)
    assert 1.4 < big.width / big.height < 2.0  # fits Discord's preview box without bars


def test_too_small_a_width_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        layout(100)


def test_neighbours_are_one_hex_width_apart_and_others_further(lay: Layout) -> None:
    for a, b in combinations(rules.CELLS, 2):
        gap = _distance(lay.cell_center(a), lay.cell_center(b))
        if b in rules.NEIGHBOURS[a]:
            assert gap == pytest.approx(lay.hex_width)
        else:
            assert gap > 1.7 * lay.hex_width


def test_cells_lie_inside_the_image_below_the_header(lay: Layout) -> None:
    for c in rules.CELLS:
        x, y = lay.cell_center(c)
        assert lay.hex_width / 2 < x < lay.width - lay.hex_width / 2
        assert lay.header_height + lay.corner_radius < y < lay.height - lay.corner_radius


def test_row_1_is_on_top_and_letter_lines_run_down_to_the_left() -> None:
    lay = layout(800, Orientation.ROW1_TOP)
    a1, a2, a3, e3, k3 = (lay.cell_center(cell(n)) for n in ("A1", "A2", "A3", "E3", "K3"))
    assert a1[1] < a2[1] < a3[1]
    assert a1[0] > a2[0] > a3[0]
    assert a3[1] == e3[1] == k3[1] and a3[0] < e3[0] < k3[0]


def test_row_5_on_top_mirrors_top_to_bottom() -> None:
    top, flipped = layout(800, Orientation.ROW1_TOP), layout(800, Orientation.ROW5_TOP)
    for c in rules.CELLS:
        (x, y), (fx, fy) = top.cell_center(c), flipped.cell_center(c)
        assert fx == x
        mirrored = top.cell_center(cell("A3"))[1] * 2 - y
        assert fy == pytest.approx(mirrored)


def test_every_letter_and_row_number_labels_the_edge(lay: Layout) -> None:
    texts = [label.text for label in lay.edge_labels()]
    assert set(texts) == set("ABCDEFGHIJK") | set("12345")
    assert all(texts.count(str(row)) == 2 for row in range(1, 6))


def test_labels_overlap_neither_each_other_nor_a_cell(lay: Layout) -> None:
    labels = lay.edge_labels()
    for one, other in combinations(labels, 2):
        assert _distance(one.centre, other.centre) > 0.6 * lay.hex_width, (one, other)
    for label in labels:
        for c in rules.CELLS:
            assert _distance(label.centre, lay.cell_center(c)) > 0.75 * lay.hex_width


def test_a_letter_label_sits_on_its_own_line() -> None:
    lay = layout(800)
    for label in lay.edge_labels():
        if not label.text.isalpha():
            continue
        line = [c for c in rules.CELLS if rules.CELL_NAMES[c][0] == label.text]
        nearest = min(rules.CELLS, key=lambda c: _distance(label.centre, lay.cell_center(c)))
        assert nearest in line
        # On the line's extension: collinear with two of its cells.
        (x1, y1), (x2, y2) = lay.cell_center(line[0]), lay.cell_center(line[-1])
        x, y = label.centre
        assert abs((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) < 1e-6 * lay.width**2


def test_header_cards_sit_left_for_white_and_right_for_black() -> None:
    lay = layout(800)
    white, black = lay.cards()
    assert white.side is rules.Colour.WHITE and black.side is rules.Colour.BLACK
    assert 0 < white.left < white.right < black.left < black.right < lay.width
    assert 0 < white.top < white.bottom <= lay.header_height


def test_hex_corners_surround_the_cell() -> None:
    lay = layout(800)
    centre = lay.cell_center(cell("E3"))
    corners = lay.hex_corners(cell("E3"))
    assert len(corners) == 6
    assert all(_distance(c, centre) == pytest.approx(lay.corner_radius) for c in corners)
    assert min(corners, key=lambda c: c[1])[0] == pytest.approx(centre[0])  # pointy top
    inset = lay.hex_corners(cell("E3"), inset=2)
    assert _distance(inset[0], centre) == pytest.approx(lay.corner_radius - 4 / math.sqrt(3))
