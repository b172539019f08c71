"""A game's own thread, from the post that started it."""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Final

import discord

from bot.games import ChannelBusy, GameService
from bot.interactions.places import answers_only
from bot.posting.outbox import RATE_LIMITED, retry_after

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games are slow
THREAD_TRIES: Final = 4
"""Tries at a game's thread while Discord says it is rate limited, before playing in the channel."""
THREAD_WAIT_AT_MOST: Final = 120.0
"""Seconds one rate-limited try waits at most (the accept's answer lasts 15 minutes)."""
_STARTING: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
"""One thread start at a time in a channel (while any wait): discord.py learns the channel's
limit on them from the first answer's headers and paces the next, instead of sending them all
before it knows (many games starting at once in one channel, a tournament round). A channel
belongs to one server, whose commands all come to one process."""


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
    lock = _STARTING.get(channel.id)
    if lock is None:
        lock = _STARTING[channel.id] = asyncio.Lock()
    async with lock:
        return await _start_thread(channel, message, name)


async def _start_thread(
    channel: discord.TextChannel, message: discord.Message, name: str
) -> discord.Thread | None:
    """The thread, tried again while Discord says to wait; ``None`` if it is refused."""
    for attempt in range(THREAD_TRIES):
        try:
            return await message.create_thread(
                name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            if error.status == RATE_LIMITED and attempt + 1 < THREAD_TRIES:
                # Many games starting in one channel (a tournament round) meet Discord's limit
                # on new threads, past what discord.py waits out itself: wait as Discord asks
                # (the accept's answer was deferred), rather than play in the channel.
                wait = min(retry_after(error), THREAD_WAIT_AT_MOST)
                log.info("thread creation in channel %s is rate limited: %.0f s", channel.id, wait)
                await asyncio.sleep(wait)
                continue
            log.warning(
                "could not create a thread in channel %s; playing there", channel.id, exc_info=True
            )
            return None
    return None
