"""Refusals of a takeback asked or answered (the pattern of every service error:
:mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import GameError


class NothingToTakeBack(GameError):
    key = "takeback.nothing"
    template = (
        "You can ask to take back only your own last move, before your opponent has answered it."
    )

    def __init__(self, game_id: int, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(game_id=game_id, user_id=user_id)


class TakebackPending(GameError):
    key = "takeback.pending"
    template = "A takeback is already waiting for an answer in this game."

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class NoTakebackRequested(GameError):
    key = "takeback.none"
    template = (
        "There is no takeback to answer: it was answered already, or a move was played since."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class OwnTakeback(GameError):
    key = "takeback.own"
    template = "You asked for this takeback: your opponent answers it."

    def __init__(self, game_id: int, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(game_id=game_id, user_id=user_id)
