"""Option choices that several commands offer, each list defined once from the domain's own
constants (the names are catalogue texts, so each user sees them in their language)."""

from __future__ import annotations

from typing import Final

from discord.app_commands import Choice, locale_str

import rules
from bot.games import CLOCK_CHOICES

NO_CLOCK: Final = 0
"""The clock choice that means: no clock."""
RANDOM_COLOUR: Final = "random"

COLOURS: Final = [
    Choice(name=locale_str("White (moves first)"), value=rules.Colour.WHITE.value),
    Choice(name=locale_str("Black"), value=rules.Colour.BLACK.value),
    Choice(name=locale_str("Random"), value=RANDOM_COLOUR),
]
"""A player's colour: White, Black, or drawn at random."""

_CLOCK_NAMES: Final = {
    NO_CLOCK: locale_str("No clock"),
    1: locale_str("1 day per move"),
    2: locale_str("2 days per move"),
    3: locale_str("3 days per move"),
    5: locale_str("5 days per move"),
    7: locale_str("7 days per move"),
    14: locale_str("14 days per move"),
}
if set(_CLOCK_NAMES) != {NO_CLOCK, *CLOCK_CHOICES}:  # a new clock needs its name here
    raise RuntimeError("every clock in CLOCK_CHOICES needs a name in bot.interactions.choices")

CLOCKS: Final = [Choice(name=name, value=days) for days, name in _CLOCK_NAMES.items()]
"""Days per move: no clock, or one of the game service's clocks."""


def colour(value: str | None) -> rules.Colour | None:
    """The colour chosen, or ``None`` for "drawn at random"."""
    return None if value in (None, RANDOM_COLOUR) else rules.Colour(value)
