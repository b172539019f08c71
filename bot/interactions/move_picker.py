"""The move picker that every feature offering moves by tapping shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import discord

COLUMN_GROUPS: Final = ("ABCD", "EFGH", "IJK")
"""The placement menus' columns: at most 25 cells each (A–D 17, E–H 20, I–K 12)."""
MAX_OPTIONS: Final = 25  # Discord's limit for a select menu


def menu(
    custom_id: str, placeholder: str, options: Sequence[tuple[str, str]]
) -> discord.ui.Select[Any]:
    """A menu of ``(value, label)`` options (none when rebuilt from its id on a choice)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=[discord.SelectOption(label=text, value=value) for value, text in options],
    )
