"""choose_move: legal in every phase at every level, PASS when forced, deterministic, on time."""

from __future__ import annotations

import dataclasses
import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from ai import Level, choose_move, think

from .positions import live_positions, position_at, random_game

# Black has no move here, White has: Black must pass.
BLACK_MUST_PASS = rules.Position.from_text(
    "68 .,.,.,.,.,.,.,.,./.,DBW,.,.,.,.,.,.,.,./.,.,WWB,.,.,.,.,.,.,.,./.,WBB,D,.,.,.,.,.,.,./"
    "DW,BB,.,.,.,.,.,.,."
)

levels = st.sampled_from(list(Level))


@settings(max_examples=60, deadline=None)
@given(live_positions(), levels, st.integers(min_value=0, max_value=10**6))
@pytest.mark.slow
def test_every_level_plays_a_legal_move_in_every_phase(
    pos: rules.Position, level: Level, seed: int
) -> None:
    move = choose_move(pos, level=level, budget=0.02, seed=seed)
    assert move in rules.legal_moves(pos)
    rules.play(pos, move)


@pytest.mark.slow
def test_every_level_plays_whole_games_legally() -> None:
    # One game per pair of neighbouring levels, to the end: every phase, passes included.
    for weaker, stronger in itertools.pairwise(Level):
        pos = rules.new_game()
        while rules.legal_moves(pos):
            level = stronger if pos.turn is rules.Colour.WHITE else weaker
            pos = rules.play(pos, choose_move(pos, level=level, budget=0.01, seed=pos.ply))
        assert rules.is_over(pos)


@pytest.mark.parametrize("level", list(Level))
def test_pass_when_it_is_the_only_move(level: Level) -> None:
    assert rules.legal_moves(BLACK_MUST_PASS) == (rules.PASS,)
    assert choose_move(BLACK_MUST_PASS, level=level, budget=0.05) is rules.PASS


def test_a_finished_game_has_no_move_to_choose() -> None:
    final = random_game(11)[-1]
    with pytest.raises(ValueError, match="over"):
        choose_move(final, level=Level.MEDIUM)


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        choose_move(rules.new_game(), level=Level.STRONG, budget=0)


@pytest.mark.parametrize("level", [Level.BEGINNER, Level.EASY, Level.MEDIUM, Level.STRONG])
def test_without_a_clock_the_same_seed_gives_the_same_move(level: Level) -> None:
    for seed, fraction in [(1, 0.2), (2, 0.55), (3, 0.7), (4, 0.9)]:
        pos = position_at(seed, fraction)
        if not rules.legal_moves(pos):
            continue
        first = choose_move(pos, level=level, seed=seed)
        # Other calls in between change nothing: each choice depends on its own inputs.
        choose_move(position_at(seed + 10, 0.6), level=level, seed=seed)
        assert choose_move(pos, level=level, seed=seed) is first


@pytest.mark.slow
def test_without_a_clock_the_strongest_level_is_deterministic_too() -> None:
    pos = position_at(9, 0.7)
    assert len(rules.legal_moves(pos)) > 1
    first = think(pos, level=Level.STRONGEST, seed=3)
    again = think(pos, level=Level.STRONGEST, seed=3)
    assert (again.move, again.value, again.depth, again.nodes) == (
        first.move,
        first.value,
        first.depth,
        first.nodes,
    )


def test_the_seed_varies_the_play_of_the_random_levels() -> None:
    pos = position_at(5, 0.3)
    moves = {choose_move(pos, level=Level.BEGINNER, seed=seed) for seed in range(30)}
    assert len(moves) > 3


def test_the_budget_stops_the_search_on_a_fake_clock() -> None:
    # A clock that moves a millisecond per reading: 0.3 "seconds" is about 300 nodes, whatever
    # the machine's speed. Without the clock the strongest level would search 60,000. (The
    # Python search's clock: the compiled one reads the machine's own.)
    ticks = itertools.count()
    pos = position_at(6, 0.65)
    result = think(
        pos,
        level=Level.STRONGEST,
        budget=0.3,
        clock=lambda: next(ticks) / 1000,
        spec=dataclasses.replace(Level.STRONGEST.spec, compiled=False),
    )
    assert result.move in rules.legal_moves(pos)
    assert result.elapsed <= 0.3
    assert result.nodes <= 300


@pytest.mark.parametrize("budget", [0.05, 0.3])
def test_the_budget_is_kept_on_the_real_clock(budget: float) -> None:
    # Generous slack: the machine is shared. The point is that the search stops at all.
    pos = position_at(7, 0.6)
    for level in (Level.STRONG, Level.STRONGEST):
        started = time.perf_counter()
        choose_move(pos, level=level, budget=budget)
        assert time.perf_counter() - started < budget + 0.25


@pytest.mark.slow
def test_strongest_uses_its_time_and_searches_deeper_than_medium() -> None:
    pos = position_at(8, 0.75)
    assert not pos.is_placement and len(rules.legal_moves(pos)) > 1
    medium = think(pos, level=Level.MEDIUM, budget=0.5)
    strongest = think(pos, level=Level.STRONGEST, budget=0.5)
    assert medium.depth <= 2
    assert strongest.exact or strongest.depth > medium.depth


def test_levels_parse_by_name() -> None:
    assert Level.parse("Strong") is Level.STRONG
    assert Level.parse("level:beginner") is Level.BEGINNER
    assert [level.rank for level in Level] == list(range(len(Level)))
    with pytest.raises(ValueError, match="strongest"):
        Level.parse("grandmaster")
