"""Fitting a list into one Discord message; finishing a deferred answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import discord

from bot.posting.answers import as_edit

MAX_CONTENT: Final = 2000
"""Discord's limit for a message's text."""


def fit_lines(lines: Sequence[str], more: Callable[[int], str], limit: int = MAX_CONTENT) -> str:
    """``lines`` joined, as many as fit in ``limit`` characters; if some do not, the last line
    says how many were left out (``more(count)``)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for index, line in enumerate(lines):
        tail = more(len(lines) - index - 1)
        if len("\n".join([*kept, line, tail])) > limit:
            return "\n".join([*kept, more(len(lines) - index)])
        kept.append(line)
    return "\n".join(kept)  # pragma: no cover - the whole text would have fit


async def finish(
    interaction: discord.Interaction[Any], content: str | None = None, **send: Any
) -> discord.InteractionMessage:
    """Fill in a deferred answer (its "thinking…" message) with what ``followup.send`` would
    have sent (``file``, ``embed``, ``view``, ``allowed_mentions``…): by editing it (Discord's
    Edit Original Interaction Response), not by a followup, which Discord documents as the
    deprecated way. It is seen by whom the defer chose (``defer(ephemeral=…)``)."""
    return await interaction.edit_original_response(**as_edit({"content": content, **send}))
