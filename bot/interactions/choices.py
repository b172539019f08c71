"""Option choices that several commands offer, each list defined once from the domain's own
constants (the names are catalogue texts, so each user sees them in their language)."""

from __future__ import annotations

from typing import Final

from discord.app_commands import Choice, locale_str

import rules
from bot.games.core import timecontrol
from bot.games.core.models import BoardTheme
from bot.games.lobby.errors import InvalidTimeControl
from bot.i18n import _, excerpt
from bot.interactions.errors import UserError

RANDOM_COLOUR: Final = "random"

COLOURS: Final = [
    Choice(name=locale_str("White (moves first)"), value=rules.Colour.WHITE.value),
    Choice(name=locale_str("Black"), value=rules.Colour.BLACK.value),
    Choice(name=locale_str("Random"), value=RANDOM_COLOUR),
]
"""A player's colour: White, Black, or drawn at random."""

_CLOCK_NAMES: Final = {
    timecontrol.NO_CLOCK: locale_str("No clock"),
    "days:1": locale_str("1 day per move"),
    "days:2": locale_str("2 days per move"),
    "days:3": locale_str("3 days per move"),
    "days:5": locale_str("5 days per move"),
    "days:7": locale_str("7 days per move"),
    "days:14": locale_str("14 days per move"),
    "bank:10d+36h/10d": locale_str(
        "Time bank: 10 days, +36 h a move, at most 10 days (Little Golem)"
    ),
    "bank:5d+1d/14d": locale_str("Time bank: 5 days, +1 day a move, at most 14 days"),
    "bank:3d+12h/5d": locale_str("Time bank: 3 days, +12 h a move, at most 5 days"),
}
if list(_CLOCK_NAMES) != [timecontrol.NO_CLOCK, *(c.to_text() for c in timecontrol.CHOICES)]:
    raise RuntimeError(
        "every clock in timecontrol.CHOICES needs a name in bot.interactions.choices"
    )

CLOCKS: Final = [Choice(name=name, value=value) for value, name in _CLOCK_NAMES.items()]
"""The clocks a challenge or a server may choose, by their spelling: no clock, days per move,
or a time bank (:mod:`bot.games.core.timecontrol`)."""


def clock(value: str) -> timecontrol.TimeControl | None:
    """The clock a choice names (``None``: no clock); the service checks it is offered.
    Raises :class:`InvalidTimeControl` for a value that names none (a command registered
    before the clocks changed, say)."""
    try:
        return timecontrol.parse(value)
    except timecontrol.TimeControlError:
        raise InvalidTimeControl(value) from None


def colour(value: str | None) -> rules.Colour | None:
    """The colour chosen, or ``None`` for "drawn at random"."""
    return None if value in (None, RANDOM_COLOUR) else rules.Colour(value)


THEMES: Final = [
    Choice(name=locale_str("Dark"), value=BoardTheme.DARK.value),
    Choice(name=locale_str("Light"), value=BoardTheme.LIGHT.value),
]
"""The themes boards are drawn in: a server's for its public posts, a player's own for what
only they see."""
if [c.value for c in THEMES] != [t.value for t in BoardTheme]:
    raise RuntimeError("every BoardTheme needs a name in bot.interactions.choices")

THEME_NAMES: Final = {
    BoardTheme.DARK: _("dark"),
    BoardTheme.LIGHT: _("light"),
}
"""A theme's name, as `/dvonn settings` lists what stands."""


def theme(value: str) -> BoardTheme:
    """The theme a choice names. Raises :class:`UserError` for a value that names none (a
    client that sent its own)."""
    try:
        return BoardTheme(value)
    except ValueError:
        raise UserError(
            _("“{text}” is not a theme: choose dark or light.", text=excerpt(value))
        ) from None
