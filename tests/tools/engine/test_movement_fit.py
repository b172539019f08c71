"""Fitting the movement weights: the terms the engine weighs, and the tool that fits them."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from ai import native
from rules import Colour, Position, legal_moves, play
from rules.board import IS_EDGE, NEIGHBOURS, TARGETS_AT_DISTANCE
from rules.position import PLACEMENT_PLIES
from tools.engine.fitting import predict
from tools.engine.movement_fit import TAPER_PLIES, as_weights, features, in_use, main, play_game

pytestmark = pytest.mark.usefixtures("compiled")


def movement_positions(count: int) -> list[Position]:
    """Positions of random games, each stopped at a ply of the movement phase drawn first."""
    found: list[Position] = []
    for seed in range(count * 3):
        rng = random.Random(seed)
        stop = PLACEMENT_PLIES + rng.randrange(60)
        pos = Position()
        while (moves := legal_moves(pos)) and pos.ply < stop:
            pos = play(pos, rng.choice(moves))
        if legal_moves(pos) and pos.ply >= PLACEMENT_PLIES:
            found.append(pos)
        if len(found) == count:
            break
    return found


def test_the_evaluation_is_its_terms_weighed_as_the_fit_reads_them() -> None:
    weights = native.NativeWeights(
        stacks=90,
        moves=31,
        to_dvonn=17,
        to_enemy=13,
        score=29,
        capture=23,
        stuck=-11,
        guarded=7,
        best=41,
        late_stacks=80,
        late_moves=11,
        late_to_dvonn=27,
        late_to_enemy=3,
        late_score=39,
        late_capture=-3,
        late_stuck=5,
        late_guarded=17,
        late_best=21,
    )
    fitted = in_use(weights)
    seen_between = seen_late = False
    positions = movement_positions(60)
    # Random games end before the taper does (by ply 89): the same stacks 40 plies later too
    # (the same player to act), where only the late weights count.
    for pos in positions + [Position(p.stacks, p.ply + TAPER_PLIES) for p in positions]:
        can_move, terms = native.movement_terms(pos)
        assert can_move
        sign = 1 if pos.turn is Colour.WHITE else -1
        k = min(TAPER_PLIES, pos.ply - PLACEMENT_PLIES)
        seen_between |= 0 < k < TAPER_PLIES
        seen_late |= k == TAPER_PLIES
        early, late = (white_value(weights, prefix, terms) for prefix in ("", "late_"))
        best = c_div(
            (weights.best * (TAPER_PLIES - k) + weights.late_best * k) * terms[8], TAPER_PLIES
        )
        expected = sign * c_div(early * (TAPER_PLIES - k) + late * k, TAPER_PLIES) + best
        assert native.native_evaluate(pos, weights) == (expected, False)
        row = features(pos.ply, terms, sign, taper=True)
        assert abs(predict(fitted, row) - expected) <= 3  # the engine's whole-number divisions
    assert seen_between, "no position between the early and the late weights"
    assert seen_late, "no position on the late weights alone"


def c_div(a: int, b: int) -> int:
    """Division as C does it, towards zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def white_value(weights: native.NativeWeights, prefix: str, terms: list[int]) -> int:
    weighed: int = sum(
        getattr(weights, prefix + name) * t
        for name, t in zip(("stacks", "moves", "to_dvonn", "to_enemy"), terms[:4], strict=True)
    )
    rest: int = sum(
        getattr(weights, prefix + name) * t
        for name, t in zip(("score", "capture", "stuck", "guarded"), terms[4:8], strict=True)
    )
    return c_div(weighed, 64) + rest


def test_the_new_terms_count_what_they_say() -> None:
    """score, capture, stuck, guarded and best worked out again from the rules' board."""
    for pos in movement_positions(40):
        _, terms = native.movement_terms(pos)
        assert terms[4:] == python_terms(pos)


def python_terms(pos: Position) -> list[int]:
    score = capture = stuck = guarded = best = 0
    for cell, stack in enumerate(pos.stacks):
        if not stack or stack[-1] == "D":
            continue
        sign, height = (1 if stack[-1] == "W" else -1), len(stack)
        acts = (stack[-1] == "W") == (pos.turn is Colour.WHITE)
        reach = TARGETS_AT_DISTANCE[cell]
        targets = (
            [pos.stacks[t] for t in reach[height] if pos.stacks[t]] if height < len(reach) else []
        )
        free = IS_EDGE[cell] or any(not pos.stacks[n] for n in NEIGHBOURS[cell])
        score += sign * height
        if "D" in stack or any("D" in pos.stacks[n] for n in NEIGHBOURS[cell]):
            guarded += sign * height
        if targets and free:
            for target in targets:
                if target[-1] not in ("D", stack[-1]):
                    capture += sign * len(target)
                    best = max(best, len(target)) if acts else best
        else:
            stuck += sign * height
    return [score, capture, stuck, guarded, best]


def test_fitted_weights_read_back_as_native_weights() -> None:
    solved = [1.5, 0.5, 0.25, 0.75, 64.0, 32.0, -16.0, 8.0, 96.0, 3.0]  # one set, a constant
    weights = as_weights(solved)
    one_set = {
        "stacks": 100,
        "moves": 33,
        "to_dvonn": 17,
        "to_enemy": 50,
        "score": 67,
        "capture": 33,
        "stuck": -17,
        "guarded": 8,
        "best": 100,
    }
    assert weights == one_set | {f"late_{name}": value for name, value in one_set.items()}
    tapered = as_weights([*solved[:-1], *(2 * w for w in solved[:-1]), 0.0])
    assert tapered["late_moves"] == 67
    assert tapered["late_best"] == 200
    dataclasses.replace(native.DEFAULT_WEIGHTS, **weights)  # every name is a weight


def test_a_generated_game_keeps_every_movement_position_and_its_margin(tmp_path: Path) -> None:
    rows, margin = play_game(3)
    assert rows and all(len(terms) == native.MOVEMENT_TERMS for _, terms, _ in rows)
    assert {sign for _, _, sign in rows} <= {1, -1}
    assert all(ply >= PLACEMENT_PLIES for ply, _, _ in rows)
    assert -49 < margin < 49
    data = tmp_path / "games.jsonl"
    # Enough games for the tapered fit's eighteen weights (four left its stacks weight negative
    # once the search changed, and the tool rightly refused them).
    main(["generate", "--games", "12", "--jobs", "2", "--out", str(data)])
    assert len(data.read_text().splitlines()) == 12
    main(["fit", str(data)])
    main(["fit", str(data), "--taper"])
