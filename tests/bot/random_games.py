"""Games of uniformly random legal moves, found by what they do: won by a few pieces, or
leaving one side well ahead on the board before the end. Passes are left out: the bot plays a
forced pass itself, right after the move before it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import rules

SEEDS = 2000
"""How many seeds a search tries before it gives up."""


def _random_game(seed: int) -> Iterator[tuple[rules.Move, rules.Position]]:
    """Each move of the random game of ``seed`` and the position after it (its forced passes
    played)."""
    rng = random.Random(seed)
    position = rules.new_game()
    while not rules.is_over(position):
        move = rng.choice(rules.legal_moves(position))
        position = rules.play(position, move)
        while rules.legal_moves(position) == (rules.PASS,):
            position = rules.play(position, rules.PASS)
        yield move, position


def lead(position: rules.Position, colour: rules.Colour) -> int:
    """How many pieces ``colour`` is ahead by on the board (negative: behind)."""
    white, black = rules.score(position)
    return white - black if colour is rules.Colour.WHITE else black - white


def won_by(winner: rules.Colour, *, most: int) -> tuple[list[rules.Move], int]:
    """The moves of a random game that ``winner`` wins by the count, by ``most`` pieces or
    fewer (the first seed's), and by how many."""
    for seed in range(SEEDS):
        played = list(_random_game(seed))
        moves = [move for move, _ in played]
        position = played[-1][1]
        outcome = rules.outcome(position)
        if outcome is not None and outcome.winner is winner and lead(position, winner) <= most:
            return moves, lead(position, winner)
    raise AssertionError(f"no random game won by {winner} by {most} or fewer")


def ahead(colour: rules.Colour, *, by: int) -> tuple[list[rules.Move], rules.Position]:
    """The first moves of a random game, up to the first position (not the end) where
    ``colour`` is at least ``by`` pieces ahead on the board, and that position."""
    for seed in range(SEEDS):
        moves = []
        for move, position in _random_game(seed):
            moves.append(move)
            if not rules.is_over(position) and lead(position, colour) >= by:
                return moves, position
    raise AssertionError(f"no random game with {colour} {by} ahead")
