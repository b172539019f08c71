"""Positions for the ai tests: reached by random play, so every phase and oddity turns up."""

from __future__ import annotations

import random

from hypothesis import strategies as st

import rules


def random_game(seed: int) -> list[rules.Position]:
    """Every position of one uniformly random game, the final one included."""
    rng = random.Random(seed)
    pos = rules.new_game()
    positions = [pos]
    while moves := rules.legal_moves(pos):
        pos = rules.play(pos, rng.choice(moves))
        positions.append(pos)
    return positions


def position_at(seed: int, fraction: float) -> rules.Position:
    """A position part way (``fraction`` of the plies) into random game ``seed``."""
    game = random_game(seed)
    return game[min(int(fraction * len(game)), len(game) - 1)]


seeds = st.integers(min_value=0, max_value=2**32)
fractions = st.floats(min_value=0.0, max_value=1.0)


@st.composite
def live_positions(draw: st.DrawFn) -> rules.Position:
    """A position (any phase) where the side to act has something to play."""
    game = random_game(draw(seeds))[:-1]
    return draw(st.sampled_from(game))


@st.composite
def movement_positions(draw: st.DrawFn) -> rules.Position:
    """A movement-phase position, finished or not."""
    game = random_game(draw(seeds))[rules.PLACEMENT_PLIES :]
    return draw(st.sampled_from(game))


def board(stacks: dict[str, str], *, ply: int = rules.PLACEMENT_PLIES) -> rules.Position:
    """A position with the given stacks (cell name -> bottom-to-top letters)."""
    cells = [""] * rules.CELL_COUNT
    for name, stack in stacks.items():
        cell = rules.lookup_cell(name)
        assert cell is not None, name
        cells[cell] = stack
    return rules.Position(cells, ply)
