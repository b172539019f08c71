"""Build positions for tests from ``{"E3": "WB", ...}``."""

from __future__ import annotations

from collections.abc import Iterable

import rules


def position(stacks: dict[str, str], *, ply: int = rules.PLACEMENT_PLIES) -> rules.Position:
    """A position with the given stacks (cell name -> bottom-to-top letters), at ``ply``."""
    board = [""] * rules.CELL_COUNT
    for name, stack in stacks.items():
        cell = rules.lookup_cell(name)
        assert cell is not None, name
        board[cell] = stack
    return rules.Position(board, ply)


def names(cells: Iterable[int]) -> list[str]:
    return sorted(rules.cell_name(c) for c in cells)


def moves(pos: rules.Position) -> list[str]:
    return sorted(map(str, rules.legal_moves(pos)))
