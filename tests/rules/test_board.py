"""The board's cells, names, neighbours and lines, as in shared/NOTATION.md."""

from __future__ import annotations

import rules
from rules.board import IS_EDGE, TARGETS_AT_DISTANCE


def test_forty_nine_cells_in_rows_of_9_10_11_10_9() -> None:
    assert rules.CELL_COUNT == 49
    rows: dict[str, list[str]] = {}
    for name in rules.CELL_NAMES:
        rows.setdefault(name[1], []).append(name[0])
    assert {row: "".join(letters) for row, letters in rows.items()} == {
        "1": "ABCDEFGHI",
        "2": "ABCDEFGHIJ",
        "3": "ABCDEFGHIJK",
        "4": "BCDEFGHIJK",
        "5": "CDEFGHIJK",
    }


def test_names_that_do_not_exist() -> None:
    for name in ("A4", "A5", "B5", "J1", "K1", "K2", "L3", "A0", "A6", ""):
        assert rules.lookup_cell(name) is None


def test_lookup_is_case_insensitive_and_round_trips() -> None:
    for cell, name in enumerate(rules.CELL_NAMES):
        assert rules.lookup_cell(name) == cell
        assert rules.lookup_cell(f" {name.lower()} ") == cell
    assert rules.lookup_cell("E3") == rules.E3 == 23


def test_neighbours_of_e3_as_in_the_notation_example() -> None:
    e3 = rules.lookup_cell("E3")
    assert e3 is not None
    assert sorted(rules.cell_name(n) for n in rules.NEIGHBOURS[e3]) == sorted(
        ["D2", "E2", "D3", "F3", "E4", "F4"]
    )


def test_a_stack_of_two_on_e3_reaches_the_notation_examples() -> None:
    e3 = rules.lookup_cell("E3")
    assert e3 is not None
    reached = sorted(rules.cell_name(c) for c in TARGETS_AT_DISTANCE[e3][2])
    assert reached == ["C1", "C3", "E1", "E5", "G3", "G5"]


def test_neighbourhood_is_symmetric_and_excludes_the_other_diagonal() -> None:
    for cell in rules.CELLS:
        for other in rules.NEIGHBOURS[cell]:
            assert cell in rules.NEIGHBOURS[other]
            dl = rules.HEXES[other].letter - rules.HEXES[cell].letter
            dr = rules.HEXES[other].row - rules.HEXES[cell].row
            assert (dl, dr) not in {(1, -1), (-1, 1)}


def test_edge_cells_are_those_with_fewer_than_six_neighbours() -> None:
    edges = [rules.cell_name(c) for c in rules.CELLS if IS_EDGE[c]]
    assert len(edges) == 24  # 49 cells minus the 25 interior ones (rows 2-4 without ends)
    assert "E3" not in edges
    assert {"A1", "I1", "A3", "K3", "C5", "K5", "B4", "J2"} <= set(edges)


def test_distance_in_line() -> None:
    a1, c1, c3, b2 = (rules.lookup_cell(n) for n in ("A1", "C1", "C3", "B2"))
    assert a1 is not None and c1 is not None and c3 is not None and b2 is not None
    assert rules.distance_in_line(a1, c1) == 2
    assert rules.distance_in_line(a1, c3) == 2
    assert rules.distance_in_line(b2, c1) is None  # (+1, -1) is not a line
