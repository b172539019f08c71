"""Starting a thread from a post: a game's (from its challenge, or a tournament's pairing) or a
tournament's own. One start at a time in a channel, and tried again while Discord says wait.

Many threads starting at once in one channel (a tournament round) meet Discord's limit on new
threads: discord.py learns the channel's limit from the first answer's headers and paces the
next, provided they do not all leave before it knows; and past what discord.py waits out
itself, a start waits as Discord asks rather than fail.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import discord
from discord.http import HTTPClient

from bot.posting.outbox import RATE_LIMITED, retry_after

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games are slow
THREAD_TRIES: Final = 4
"""Tries at a thread while Discord says it is rate limited, before giving up."""
THREAD_WAIT_AT_MOST: Final = 120.0
"""Seconds one rate-limited try waits at most."""
_T = TypeVar("_T")
_STARTING: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
"""One thread start at a time in a channel (a channel belongs to one server, whose commands
all come to one process; the outbox's posts come from any, which only paces less well)."""


async def thread_from(message: discord.Message, name: str) -> discord.Thread:
    """A public thread from ``message``, one start at a time in its channel, tried again while
    Discord says it is rate limited; raises :class:`discord.HTTPException` if refused."""
    return await _started(
        message.channel.id,
        lambda: message.create_thread(
            name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
        ),
    )


async def thread_id_from(http: HTTPClient, message: discord.Message, name: str) -> int:
    """As :func:`thread_from`, the new thread's id, in a server this process need not hold: a
    post of the outbox, whose rows any process delivers, in a server on a shard of another
    (discord.py's ``Message.create_thread`` wants the server in the process's cache)."""

    async def start() -> int:
        data = await http.start_thread_with_message(
            message.channel.id,
            message.id,
            name=name[:100],
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
        return int(data["id"])

    return await _started(message.channel.id, start)


async def _started(channel_id: int, start: Callable[[], Awaitable[_T]]) -> _T:
    lock = _STARTING.get(channel_id)
    if lock is None:
        lock = _STARTING[channel_id] = asyncio.Lock()
    async with lock:
        for attempt in range(THREAD_TRIES):
            try:
                return await start()
            except discord.HTTPException as error:
                if error.status != RATE_LIMITED or attempt + 1 == THREAD_TRIES:
                    raise
                wait = min(retry_after(error), THREAD_WAIT_AT_MOST)
                log.info("thread creation in channel %s is rate limited: %.0f s", channel_id, wait)
                await asyncio.sleep(wait)
    raise AssertionError("unreachable: the last try returns or raises")
