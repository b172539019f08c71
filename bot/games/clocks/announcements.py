"""The clocks' announcements: reminders and vacations, each a DM or a post (the pattern of
every announcement: :mod:`bot.games.core.announcements`)."""

from __future__ import annotations

from typing import Final

REMINDER: Final = "reminder"
"""A player's deadlines draw near (a DM)."""


VACATION: Final = "vacation"
"""A player went on vacation: their opponent is told."""
