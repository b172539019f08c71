"""How long the computer thinks, for every feature that asks the bot's engine (``bot.engine``,
the app's one pool of worker processes): the computer opponent's turns and hints, and the
lessons' game (its replies and hints). One table, so that a level plays alike everywhere."""

from __future__ import annotations

from typing import Final

import ai

BUDGETS: Final[dict[ai.Level, float]] = {
    ai.Level.BEGINNER: 0.3,
    ai.Level.EASY: 0.5,
    ai.Level.MEDIUM: 1.0,
    ai.Level.STRONG: 2.0,
    ai.Level.STRONGEST: 3.0,
}
"""Seconds per move: correspondence players wait seconds, not milliseconds."""
HINT_LEVEL: Final = ai.Level.MEDIUM
"""A hint is a medium-strength search's move, thought about for half that level's time."""
