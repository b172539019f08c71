"""Running a real discord.py client against the fake, and small helpers for such tests."""

from __future__ import annotations

import asyncio
import contextlib
import struct
import zlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord

from bot.endpoints import use_discord_endpoints
from tests.fakediscord.server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def discord_endpoints(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py at ``fake`` for the block, then restore the previous endpoints."""
    previous = use_discord_endpoints(fake.api_base, fake.gateway_url)
    try:
        yield
    finally:
        use_discord_endpoints(previous.api_base, previous.gateway_url)


@contextlib.asynccontextmanager
async def running(
    client: ClientT, fake: FakeDiscord, *, timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """Start ``client`` with the fake's token, wait until it is connected, close it afterwards.

    If the client fails to start (bad token, disallowed intents...) its exception is raised
    here at once instead of a timeout.
    """
    task = asyncio.create_task(client.start(fake.token), name="discord-client")
    ready = asyncio.create_task(fake.wait_for_ready(timeout=timeout))
    try:
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()  # raises the client's error
            raise AssertionError("the client stopped before it was ready")
        ready.result()
        await _caught_up(client, fake, timeout=timeout)
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)
        # Let the fake see the disconnect before the test goes on. (discord.py's close() ends up
        # sending close code 4000, not 1000, so Discord, and the fake, keep the session
        # resumable; a new client's IDENTIFY starts a newer session, which gets the events.)
        await fake.wait_until(
            lambda: not fake.gateway.live_sessions(), timeout=timeout, what="the bot to disconnect"
        )


async def _caught_up(client: discord.Client, fake: FakeDiscord, *, timeout: float) -> None:
    """Wait until the client has processed READY and every GUILD_CREATE the fake sent.

    The fake knows what it sent, not what the client has read; discord.py offers no event for
    this before ``on_ready`` (which comes ``guild_ready_timeout`` seconds later), so this checks
    the client's cache, briefly, until it has every guild. Closing a client before then races
    its own start-up (it would close with 4000 instead of 1000 and leave the session open).
    """

    def done() -> bool:
        for guild in fake.world.guilds.values():
            cached = client.get_guild(guild.id)
            if cached is None or cached.unavailable:
                return False
        return bool(fake.world.guilds) or client.ws is not None

    async with asyncio.timeout(timeout):
        while not done():
            await asyncio.sleep(0.005)


def png_bytes(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A small valid PNG of one colour (no Pillow needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )
