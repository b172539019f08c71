"""The takebacks' announcement: a takeback accepted, the board again and who is to move (the
pattern of every announcement: :mod:`bot.games.core.announcements`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.games.core.announcements import as_then, banks_payload, time_text
from bot.storage import Game, NewNotification, Notification

TAKEBACK: Final = "takeback"
"""A takeback was accepted: the board again, and who is to move."""


def takeback(game: Game, undone: Sequence[str]) -> NewNotification:
    return NewNotification(
        TAKEBACK,
        game_id=game.id,
        payload={
            "position": game.position.to_text(),
            "deadline": time_text(game.deadline_at),
            **banks_payload(game),
            "undone": list(undone),
        },
    )


def read_takeback(notification: Notification, current: Game) -> tuple[Game, tuple[str, ...]]:
    """The game as the takeback left it, and the moves undone."""
    payload = notification.payload
    return as_then(current, payload), tuple(str(m) for m in payload.get("undone", ()))
