"""Events features send each other through discord.py's dispatcher, so that none imports
another: the sender calls ``client.dispatch(NAME, ...)``, a listener is a cog method decorated
``@commands.Cog.listener(LISTENER)``. And the ids of buttons one feature shows and another
answers."""

from __future__ import annotations

from typing import Final

TURN = "dvonn_turn"
"""A game moved on (started, or a move was played): ``(game: Game)``. The computer opponent
listens, to play when it is its turn."""
TURN_LISTENER: Final = f"on_{TURN}"

FIRST_STEPS = "dvonn_first_steps"
"""A player acted in the lobby, answered already (``interaction.followup`` may speak to them):
``(interaction, game_id: int | None)``: they made a challenge, accepted or declined one made
to them, or began a game against the bot; ``game_id`` is the game it began. The lessons listen,
to offer themselves, once, to a player new to DVONN."""
FIRST_STEPS_LISTENER: Final = f"on_{FIRST_STEPS}"

LEARN_BUTTON: Final = "dvonn:learn:open"
"""The id of "Learn by playing" (under ``/dvonn rules`` and ``/dvonn help``, and the lessons'
offer): the lessons feature answers it with ``/learn``'s answer, privately, for whoever taps."""
