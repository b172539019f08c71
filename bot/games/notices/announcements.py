"""The turn notices' announcement: a player's daily digest (the pattern of every
announcement: :mod:`bot.games.core.announcements`)."""

from __future__ import annotations

from typing import Final

DIGEST: Final = "digest"
"""A player's daily digest of the games where it is their turn (a DM)."""
