"""Reading a Little Golem transcript a user attached (``/dvonn import``, ``/dvonn review``)."""

from __future__ import annotations

from typing import Final

import discord

import rules
from bot.i18n import _, transcript_error_text
from bot.interactions.errors import UserError
from bot.posting.texts import Players
from render.fonts import player_name

MAX_TRANSCRIPT_BYTES: Final = 64 * 1024
"""Far more than the longest game's transcript (a few kilobytes)."""


async def read_transcript(attachment: discord.Attachment) -> rules.Transcript:
    """The game in ``attachment``; a :class:`UserError` saying why if it is not one."""
    if attachment.size > MAX_TRANSCRIPT_BYTES:
        raise UserError(_("That file is too big to be a DVONN transcript."))
    raw = await attachment.read()
    try:
        return rules.parse_little_golem(raw.decode("utf-8", errors="replace"))
    except rules.TranscriptError as error:
        text = _("This is not a transcript I can read: {error}", error=transcript_error_text(error))
        raise UserError(text) from error


def transcript_players(transcript: rules.Transcript) -> Players:
    """The players named in a transcript's headers, on one line and no longer than an image
    shows them (a header may be kilobytes long); empty where it names nobody."""
    return Players(
        white=player_name(transcript.headers.get("White") or ""),
        black=player_name(transcript.headers.get("Black") or ""),
    )
