"""Events features send each other through discord.py's dispatcher, so that none imports
another: the sender calls ``client.dispatch(NAME, ...)``, a listener is a cog method decorated
``@commands.Cog.listener(LISTENER)``."""

from __future__ import annotations

from typing import Final

TURN = "dvonn_turn"
"""A game moved on (started, or a move was played): ``(game: Game)``. The computer opponent
listens, to play when it is its turn."""
TURN_LISTENER: Final = f"on_{TURN}"
