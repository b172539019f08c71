"""Glicko-2 ratings, one rating period per game (as online servers do for correspondence).

The maths is the ``glicko2`` package's (Glickman's algorithm); this module only adapts it to
immutable values and our results.
"""

from __future__ import annotations

import dataclasses
from typing import Final

import glicko2  # type: ignore[import-untyped]  # the package ships no type hints

from bot.storage.correspondence import RatingRow
from bot.storage.models import GuildId, UserId

START_RATING: Final = 1500.0
START_DEVIATION: Final = 350.0
START_VOLATILITY: Final = 0.06


def new_rating(guild_id: GuildId, user_id: UserId) -> RatingRow:
    return RatingRow(guild_id, user_id, START_RATING, START_DEVIATION, START_VOLATILITY)


def _updated(me: RatingRow, opponent: RatingRow, score: float) -> RatingRow:
    player = glicko2.Player(rating=me.rating, rd=me.deviation, vol=me.volatility)
    player.update_player([opponent.rating], [opponent.deviation], [score])
    return dataclasses.replace(
        me,
        rating=float(player.getRating()),
        deviation=float(player.getRd()),
        volatility=float(player.vol),
        games=me.games + 1,
        wins=me.wins + (score == 1.0),
        losses=me.losses + (score == 0.0),
        draws=me.draws + (score == 0.5),
    )


def rate(white: RatingRow, black: RatingRow, white_score: float) -> tuple[RatingRow, RatingRow]:
    """Both players' ratings after one game; ``white_score`` is 1 (won), 0.5 or 0 (lost)."""
    if white_score not in (0.0, 0.5, 1.0):
        raise ValueError(f"a game's score is 0, 0.5 or 1, not {white_score}")
    return _updated(white, black, white_score), _updated(black, white, 1.0 - white_score)
