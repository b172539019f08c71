"""A game's own thread, from the post that started it."""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.games import GameService

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games are slow


async def game_thread(
    service: GameService,
    interaction: discord.Interaction[Any],
    message: discord.Message | None,
    guild_id: int | None,
    name: str,
) -> discord.Thread | None:
    """A public thread from ``message`` for a game, when the server wants one and the bot may
    create it there; ``None`` means: play in the channel itself."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or message is None:
        return None  # a thread, a DM or a voice chat: play right here
    if guild_id is not None:
        settings = await service.guild_settings(guild_id)
        if not settings.use_threads:
            return None
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return None
    try:
        return await message.create_thread(
            name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
    except discord.HTTPException:
        log.warning(
            "could not create a thread in channel %s; playing there", channel.id, exc_info=True
        )
        return None
