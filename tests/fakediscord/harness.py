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
        yield client
    finally:
        ready.cancel()
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)


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
