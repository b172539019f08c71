"""A random setup's review (``/dvonn review``): the bot made its placements, so none of them is
listed as a player's mistake; the moves are weighed as in any game."""

from __future__ import annotations

import rules
from ai.review import PlyReview, Review
from bot.exts.review.commands import _placed_at_random
from bot.games.lobby.setups import random_setup


def test_no_placement_of_a_random_setup_is_a_mistake() -> None:
    opening = random_setup(11)
    move = rules.legal_moves(opening[-1].after)[0]
    moves = [r.move for r in opening] + [move]
    plies = tuple(
        PlyReview(
            ply=ply,
            colour=rules.replay(moves[:ply])[-1].turn,
            played=played,
            best=played,
            before=0.0,
            after=-5.0,
            best_after=0.0,
            loss=5.0,  # each as costly as can be
            judged=ply >= 3,
            proven=True,
        )
        for ply, played in enumerate(moves)
    )
    review = Review(plies, tuple(0.0 for _ in range(len(moves) + 1)), (False,) * (len(moves) + 1))
    assert any(m.ply < rules.PLACEMENT_PLIES for m in review.mistakes())
    kept = _placed_at_random(review)
    assert [m.ply for m in kept.mistakes()] == [len(moves) - 1]  # the one move of a player
    assert kept.leads == review.leads  # the lead the setup gave stays on the graph
