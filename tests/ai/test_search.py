"""The alpha-beta search: exact on small endgames, bounded by its clock and node limit."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import rules
from ai.evaluation import final_value
from ai.search import Searcher, SearchTimeout

from .positions import random_game, seeds


class TooBig(Exception):
    pass


def minimax(pos: rules.Position, budget: list[int]) -> int:
    """The exact value for the side to act, by plain minimax (raises TooBig past the budget)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    moves = rules.legal_moves(pos)
    if not moves:
        return final_value(pos)
    return max(-minimax(rules.play(pos, m), budget) for m in moves)


def small_endgame(seed: int) -> tuple[rules.Position, int]:
    """The earliest position of a random game whose whole game tree is small, and its value."""
    game = random_game(seed)
    for pos in reversed(game[rules.PLACEMENT_PLIES :]):
        if not rules.legal_moves(pos):
            continue
        try:
            value = minimax(pos, [3_000])
        except TooBig:
            break
        found = pos, value
    assume("found" in locals())
    return found


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=1000))
@pytest.mark.slow
def test_the_search_solves_small_endgames_exactly(seed: int, rng_seed: int) -> None:
    pos, value = small_endgame(seed)
    result = Searcher().iterate(pos, rng=random.Random(rng_seed), max_depth=60)
    assert result.move in rules.legal_moves(pos)
    if len(rules.legal_moves(pos)) > 1:
        assert result.exact
        assert result.value == value
    # The move chosen really achieves the value.
    assert -minimax(rules.play(pos, result.move), [10**6]) == value


def test_node_limit_stops_the_search() -> None:
    pos = random_game(3)[60]
    searcher = Searcher(max_nodes=50)
    with pytest.raises(SearchTimeout):
        searcher.negamax(pos, 6, -(10**9), 10**9)
    assert searcher.nodes == 51


def test_deadline_stops_the_search_on_a_fake_clock() -> None:
    # Each reading of the clock advances it by a millisecond: the deadline, not the machine's
    # speed, must end the search, after about as many readings as it allows.
    ticks = itertools.count()
    searcher = Searcher(deadline=0.5, clock=lambda: next(ticks) / 1000)
    pos = random_game(4)[55]
    result = searcher.iterate(pos, rng=random.Random(0), max_depth=50)
    assert result.move in rules.legal_moves(pos)
    assert 400 <= searcher.nodes <= 502


def test_an_interrupted_first_iteration_still_answers_legally() -> None:
    pos = random_game(5)[52]
    result = Searcher(max_nodes=0).iterate(pos, rng=random.Random(0), max_depth=5)
    assert result.move in rules.legal_moves(pos)
    assert result.depth == 0
