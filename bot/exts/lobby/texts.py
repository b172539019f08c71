"""What the lobby says."""

from __future__ import annotations

from typing import Final

import ai
from bot.games import Challenge
from bot.games.timecontrol import from_columns
from bot.i18n import COLOUR_NAMES, Text, _
from bot.posting.texts import clock_text, mention

LEVEL_NAMES: Final[dict[ai.Level, Text]] = {
    ai.Level.BEGINNER: _("beginner"),
    ai.Level.EASY: _("easy"),
    ai.Level.MEDIUM: _("medium"),
    ai.Level.STRONG: _("strong"),
    ai.Level.STRONGEST: _("strongest"),
}


def challenge_text(challenge: Challenge, challenger_name: str) -> Text:
    clock = clock_text(from_columns(challenge.clock_days, challenge.bank))
    colour = (
        _("colours drawn at random")
        if challenge.challenger_colour is None
        else _(
            "{player} plays {colour}",
            player=challenger_name,
            colour=COLOUR_NAMES[challenge.challenger_colour],
        )
    )
    if challenge.opponent_id is None:
        return _(
            "{player} is looking for a DVONN opponent ({clock}, {colour}): anyone here may accept.",
            player=challenger_name,
            clock=clock,
            colour=colour,
        )
    return _(
        "{opponent}, {player} challenges you to a game of DVONN ({clock}, {colour}).",
        opponent=mention(challenge.opponent_id),
        player=challenger_name,
        clock=clock,
        colour=colour,
    )
