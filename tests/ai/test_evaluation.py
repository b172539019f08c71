"""The evaluation against a slow, obviously correct version of the same features."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import rules
from ai.evaluation import (
    DEFAULT_PLACEMENT,
    PIECE_VALUE,
    WIN,
    WIN_BONUS,
    MovementWeights,
    PlacementWeights,
    evaluate_placement,
    final_value,
    movement_value,
    piece_table,
)
from ai.geometry import DISTANCE
from rules.board import IS_EDGE, NEIGHBOURS, TARGETS_AT_DISTANCE

from .positions import board, live_positions, movement_positions

WEIGHTS = MovementWeights(stacks=1000, score=100, moves=10, to_dvonn=3, to_enemy=1)
"""Weights far apart, so a wrong count in any one feature changes the total."""
PLACEMENT_APART = PlacementWeights(
    next_to_dvonn=10_000, near_dvonn=1_000, edge=100, dvonn_distance=10, bunched=1
)


def reference_movement(pos: rules.Position, w: MovementWeights) -> int:
    """The movement features counted stack by stack, the slow way, for the side to act."""
    totals = {"W": 0, "B": 0}
    for cell, stack in enumerate(pos.stacks):
        if not stack or stack[-1] == "D":
            continue
        side, enemy = stack[-1], "B" if stack[-1] == "W" else "W"
        height = len(stack)
        targets = (
            [t for t in TARGETS_AT_DISTANCE[cell][height] if pos.stacks[t]]
            if height < len(TARGETS_AT_DISTANCE[cell])
            else []
        )
        mobile = not pos.is_surrounded(cell)
        value = w.stacks + w.score * height + w.moves * len(targets)
        if mobile:
            value += w.to_dvonn * sum(1 for t in targets if "D" in pos.stacks[t])
            value += w.to_enemy * sum(1 for t in targets if pos.stacks[t][-1] == enemy)
        totals[side] += value
    me = pos.turn.value
    return totals[me] - totals["B" if me == "W" else "W"]


@settings(max_examples=150, deadline=None)
@given(movement_positions())
@pytest.mark.slow
def test_movement_value_matches_the_slow_count(pos: rules.Position) -> None:
    value, exact = movement_value(pos, WEIGHTS)
    assert exact == rules.is_over(pos)
    if exact:
        assert value == final_value(pos)
    else:
        assert value == reference_movement(pos, WEIGHTS)
        assert abs(value) < WIN


def test_final_value_is_the_score_difference_for_the_side_to_act() -> None:
    stacks = {"A1": "D", "B1": "WWB", "E3": "D", "F3": "WB", "F4": "D", "K5": "W"}
    black_to_act = board(stacks, ply=60)
    white_to_act = board(stacks, ply=61)
    assert rules.score(black_to_act) == (1, 5)
    assert black_to_act.turn is rules.Colour.BLACK
    assert final_value(black_to_act) == WIN_BONUS + 4 * PIECE_VALUE
    assert final_value(white_to_act) == -(WIN_BONUS + 4 * PIECE_VALUE)
    assert final_value(board({"A1": "D", "E3": "D", "F4": "D"})) == 0  # nobody holds anything


@settings(max_examples=150, deadline=None)
@given(movement_positions())
def test_final_value_counts_the_score_as_the_rules_do(pos: rules.Position) -> None:
    """The engine counts the score itself, for speed: it must count what the rules count."""
    white, black = rules.score(pos)
    diff = white - black if pos.turn is rules.Colour.WHITE else black - white
    bonus = WIN_BONUS if diff > 0 else -WIN_BONUS if diff < 0 else 0
    assert final_value(pos) == bonus + diff * PIECE_VALUE


def reference_placement(pos: rules.Position, w: PlacementWeights) -> int:
    """The placement features piece by piece, for the side to act."""
    dvonns = [c for c in rules.CELLS if pos.stacks[c] == "D"]
    totals = {"W": 0, "B": 0}
    for cell, stack in enumerate(pos.stacks):
        if stack not in ("W", "B"):
            continue
        distances = [DISTANCE[cell][d] for d in dvonns]
        value = -w.dvonn_distance * sum(distances)
        value += {1: w.next_to_dvonn, 2: w.near_dvonn}.get(min(distances), 0)
        value += w.edge if IS_EDGE[cell] else 0
        others = sum(1 for n in NEIGHBOURS[cell] if pos.stacks[n] != stack)
        value -= w.bunched * max(0, 2 - others)
        totals[stack] += value
    me = pos.turn.value
    return totals[me] - totals["B" if me == "W" else "W"]


@settings(max_examples=100, deadline=None)
@given(live_positions())
def test_placement_value_matches_the_slow_count(pos: rules.Position) -> None:
    if not pos.is_placement:
        return
    for weights in (DEFAULT_PLACEMENT, PLACEMENT_APART):
        expected = reference_placement(pos, weights) if pos.ply > 3 else 0
        assert evaluate_placement(pos, weights) == expected


def test_a_piece_next_to_a_dvonn_piece_is_worth_more() -> None:
    pos = board({"E3": "D", "F3": "D", "G3": "D"}, ply=3)
    table = piece_table(pos._dvonn)
    e2, a1 = rules.lookup_cell("E2"), rules.lookup_cell("A1")
    assert e2 is not None and a1 is not None
    assert table[e2] > table[a1]
