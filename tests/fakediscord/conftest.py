"""Fixtures for the fake Discord's own tests: a small server, players, and the sample bot."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Permission
from tests.fakediscord.fixtures import discord_fake
from tests.fakediscord.harness import running
from tests.fakediscord.sample_bot import SampleBot

__all__ = ["Scene", "discord_fake", "sample_bot", "scene"]


@dataclass(frozen=True)
class Scene:
    """A guild with a games channel, a channel where the bot may not open threads, and people."""

    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    no_threads: FakeChannel
    alice: FakeUser
    bob: FakeUser
    moderator: FakeUser


@pytest.fixture
def scene(discord_fake: FakeDiscord) -> Scene:
    guild = discord_fake.add_guild("DVONN club")
    moderators = guild.add_role("moderators", Permission.MANAGE_THREADS)
    return Scene(
        fake=discord_fake,
        guild=guild,
        games=guild.add_text_channel("games"),
        no_threads=guild.add_text_channel("no-threads", deny_bot=Permission.CREATE_PUBLIC_THREADS),
        alice=discord_fake.add_user("alice", guild),
        bob=discord_fake.add_user("bob", guild),
        moderator=discord_fake.add_user("mo", guild, roles=[moderators]),
    )


@pytest.fixture
async def sample_bot(scene: Scene) -> AsyncIterator[SampleBot]:
    """The sample bot, connected, with its commands synced to the scene's guild."""
    async with running(SampleBot(guild_id=scene.guild.id), scene.fake) as bot:
        yield bot


@pytest.fixture
async def http(discord_fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A client of the fake's REST API, as the bot (its token)."""
    headers = {"Authorization": f"Bot {discord_fake.token}"}
    async with aiohttp.ClientSession(
        base_url=discord_fake.api_base + "/", headers=headers
    ) as session:
        yield session


async def call(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """One request to the fake's REST API: its status and its JSON body (``None`` if empty)."""
    async with http.request(method, path.lstrip("/"), json=body) as response:
        text = await response.text()
        return response.status, json.loads(text) if text else None
