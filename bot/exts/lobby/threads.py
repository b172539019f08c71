"""A game's own thread, from the post that started it."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.lobby.errors import ChannelBusy
from bot.games.service import GameService
from bot.interactions.places import answers_only
from bot.posting.threads import thread_from

log = logging.getLogger(__name__)


async def can_open_thread(service: GameService, interaction: discord.Interaction[Any]) -> bool:
    """Whether a game started here gets a thread of its own: in a text channel (not a thread, a
    DM or a voice chat), of a server that wants threads, where the bot may create them."""
    if answers_only(interaction) or not isinstance(interaction.channel, discord.TextChannel):
        return False
    if interaction.guild_id is not None:
        settings = await service.guild_settings(interaction.guild_id)
        if not settings.use_threads:
            return False
    allowed = interaction.app_permissions
    return allowed.create_public_threads and allowed.send_messages_in_threads


async def check_room_for_a_game(
    service: GameService, interaction: discord.Interaction[Any]
) -> None:
    """Refuse to start a game (or a challenge) here if it would be played in this very channel
    while another game runs in it: raises :class:`ChannelBusy`."""
    assert interaction.channel_id is not None
    busy = await service.game_in_channel(interaction.channel_id)
    if busy is not None and not await can_open_thread(service, interaction):
        raise ChannelBusy(busy.id, interaction.channel_id)


async def game_thread(
    service: GameService,
    interaction: discord.Interaction[Any],
    message: discord.Message | None,
    name: str,
) -> discord.Thread | None:
    """A public thread from ``message`` for a game, when the server wants one and the bot may
    create it there; ``None`` means: play in the channel itself."""
    channel = interaction.channel
    if message is None or not await can_open_thread(service, interaction):
        return None
    assert isinstance(channel, discord.TextChannel)
    try:
        return await thread_from(message, name)
    except discord.HTTPException:
        log.warning(
            "could not create a thread in channel %s; playing there", channel.id, exc_info=True
        )
        return None
