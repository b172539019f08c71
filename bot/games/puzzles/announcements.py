"""The puzzles' announcements: a server's daily puzzle and its count (the pattern of every
announcement: :mod:`bot.games.core.announcements`)."""

from __future__ import annotations

from datetime import date
from typing import Final

from bot.storage import DailyPuzzlePost, NewNotification, Notification

DAILY_PUZZLE: Final = "daily_puzzle"
"""The day's puzzle, posted in the channel a server chose for it."""


DAILY_PUZZLE_COUNT: Final = "daily_puzzle_count"
"""How many solved a server's daily puzzle, shown on its post once the day is over."""


def daily_puzzle(guild_id: int, channel_id: int, day: date, puzzle_id: str) -> NewNotification:
    """A server's post of the day's puzzle, in ``channel_id``."""
    return NewNotification(
        DAILY_PUZZLE,
        payload={
            "guild": guild_id,
            "channel": channel_id,
            "day": day.isoformat(),
            "puzzle": puzzle_id,
        },
    )


def daily_puzzle_count(post: DailyPuzzlePost) -> NewNotification:
    """A daily post's count (``post.solvers`` of ``post.tried`` done, ``post.still_open``
    still trying), to show on it."""
    return NewNotification(
        DAILY_PUZZLE_COUNT,
        payload={
            "guild": post.guild_id,
            "channel": post.channel_id,
            "day": post.day.isoformat(),
            "puzzle": post.puzzle_id,
            "solvers": post.solvers,
            "tried": post.tried,
            "open": post.still_open,
        },
    )


def read_daily_puzzle(notification: Notification) -> DailyPuzzlePost:
    """The post a :data:`DAILY_PUZZLE` or :data:`DAILY_PUZZLE_COUNT` announcement is about
    (with its count, for the latter; its message is the store's to say)."""
    payload = notification.payload
    return DailyPuzzlePost(
        guild_id=int(payload["guild"]),
        day=date.fromisoformat(payload["day"]),
        puzzle_id=str(payload["puzzle"]),
        channel_id=int(payload["channel"]),
        solvers=payload.get("solvers"),
        tried=payload.get("tried"),
        still_open=payload.get("open"),
    )
