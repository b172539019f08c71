"""What the lobby says."""

from __future__ import annotations

from typing import Final

import ai
from bot.games.core.models import Challenge, Setup
from bot.games.core.timecontrol import from_columns
from bot.i18n import COLOUR_NAMES, Text, _
from bot.posting.texts import clock_text, mention

LEVEL_NAMES: Final[dict[ai.Level, Text]] = {
    ai.Level.BEGINNER: _("beginner"),
    ai.Level.EASY: _("easy"),
    ai.Level.MEDIUM: _("medium"),
    ai.Level.STRONG: _("strong"),
    ai.Level.STRONGEST: _("strongest"),
}


def _terms(challenge: Challenge, challenger_name: str) -> tuple[Text, Text]:
    """A challenge's clock (and setup, when random) and colours, as its post names them."""
    clock = clock_text(from_columns(challenge.clock_days, challenge.bank))
    if challenge.setup is Setup.RANDOM:
        clock = _("{clock}, random setup", clock=clock)
    colour = (
        _("colours drawn at random")
        if challenge.challenger_colour is None
        else _(
            "{player} plays {colour}",
            player=challenger_name,
            colour=COLOUR_NAMES[challenge.challenger_colour],
        )
    )
    return clock, colour


def challenge_text(challenge: Challenge, challenger_name: str) -> Text:
    clock, colour = _terms(challenge, challenger_name)
    if challenge.rematch_of is not None and challenge.opponent_id is not None:
        return _(
            "{opponent}, {player} offers you a rematch of game #{game} ({clock}, {colour}).",
            opponent=mention(challenge.opponent_id),
            player=challenger_name,
            game=challenge.rematch_of,
            clock=clock,
            colour=colour,
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


def computer_game_text(player: str, level: ai.Level, rematch_of: int | None) -> Text:
    """The post that starts a game against the bot (its thread grows from it)."""
    if rematch_of is not None:
        return _(
            "{player} plays game #{game} again against the bot ({level}), colours swapped.",
            player=player,
            game=rematch_of,
            level=LEVEL_NAMES[level],
        )
    return _(
        "{player} starts a game against the bot ({level}).",
        player=player,
        level=LEVEL_NAMES[level],
    )


REMATCH: Final = _("Rematch")
"""The label of the button under a game's last post."""
