"""Properties over random games (hypothesis chooses the moves)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.board import NEIGHBOURS
from rules.moves import JUMPS, PLACES

# Hypothesis runs over whole random games.
pytestmark = pytest.mark.slow

GAME_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def random_game(seed: int) -> list[rules.MoveResult]:
    rng = random.Random(seed)
    pos = rules.new_game()
    results = []
    while moves := rules.legal_moves(pos):
        result = rules.apply(pos, rng.choice(moves))
        results.append(result)
        pos = result.after
    return results


def connected_to_dvonn(pos: rules.Position) -> set[int]:
    frontier = [c for c in rules.CELLS if pos.has_dvonn(c)]
    seen = set(frontier)
    while frontier:
        cell = frontier.pop()
        for n in NEIGHBOURS[cell]:
            if pos.stacks[n] and n not in seen:
                seen.add(n)
                frontier.append(n)
    return seen


@GAME_SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_invariants_along_random_games(seed: int) -> None:
    removed_total = 0
    for result in random_game(seed):
        before, after = result.before, result.after
        snapshot = (before.stacks, before.ply)
        removed_total += result.pieces_removed
        # play() never mutates its input, and play and apply agree.
        assert (before.stacks, before.ply) == snapshot
        assert rules.play(before, result.move) == after
        assert after.ply == before.ply + 1
        # Pieces are conserved: 49 = on board + removed, once placement is over.
        if not after.is_placement:
            assert after.pieces_on_board() + removed_total == 49
            # Every stack left touches a DVONN piece through a chain of stacks.
            assert connected_to_dvonn(after) == set(after.occupied_cells())
        # All three DVONN pieces stay on the board.
        assert "".join(after.stacks).count("D") == min(after.ply, 3)
        # Canonical spelling round-trips, and the text form round-trips exactly.
        assert rules.parse_move(str(result.move)) == result.move
        assert rules.Position.from_text(after.to_text()) == after


@GAME_SETTINGS
@given(st.integers(min_value=0, max_value=2**32), st.data())
def test_play_accepts_exactly_the_legal_moves(seed: int, data: st.DataObject) -> None:
    results = random_game(seed)
    pos = data.draw(st.sampled_from([r.before for r in results] + [results[-1].after]))
    legal = set(rules.legal_moves(pos))
    candidates: list[rules.Move] = [*PLACES, *JUMPS.values(), rules.PASS]
    for move in data.draw(st.lists(st.sampled_from(candidates), min_size=20, max_size=60)):
        try:
            rules.play(pos, move)
        except rules.IllegalMoveError as error:
            assert move not in legal, f"{move} is legal but play() said: {error}"
            assert str(error)  # every refusal explains itself
        else:
            assert move in legal
    for move in legal:
        rules.play(pos, move)  # raises if a generated move is refused


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=12))
def test_fuzzed_text_raises_only_rules_errors(text: str) -> None:
    pos = rules.play(rules.new_game(), rules.parse_move("E3"))
    try:
        move = rules.parse_move(text)
        rules.play(pos, move)
    except (rules.InvalidMoveError, rules.IllegalMoveError):
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJKLZ0123456789 -→pas", max_size=8))
def test_fuzzed_move_like_text(text: str) -> None:
    try:
        move = rules.parse_move(text)
    except rules.InvalidMoveError:
        return
    assert rules.parse_move(str(move)) == move


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_fuzzed_position_text_raises_only_position_errors(text: str) -> None:
    with contextlib.suppress(rules.PositionTextError):
        rules.Position.from_text(text)
