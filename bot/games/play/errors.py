"""Refusals of a move, a resignation or an abort (the pattern of every service error:
:mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import GameError, ServiceError
from rules import Colour


class NotYourTurn(GameError):
    key = "game.not_your_turn"
    template = "It is not your turn: {turn} is to play, and you play {colour}."

    def __init__(self, game_id: int, user_id: int, colour: Colour, turn: Colour) -> None:
        self.game_id = game_id
        self.user_id = user_id
        self.colour = colour
        self.turn = turn
        super().__init__(game_id=game_id, user_id=user_id, colour=colour, turn=turn)


class AbortTooLate(GameError):
    """Abort by agreement is only for games in which not both players have moved a piece."""

    key = "game.abort_too_late"
    template = (
        "Both players have already moved pieces, so this game can no longer be called off: "
        "play on, or resign."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class AbortNeedsOrganiser(ServiceError):
    key = "tournament.abort_needs_organiser"
    template = (
        "This is a game of {name}: only its organiser (or a moderator) can abort it. "
        "To give up, resign; to leave the tournament, withdraw."
    )

    def __init__(self, name: str) -> None:
        super().__init__(name=name)
