"""pytest fixtures for tests that run against the fake Discord.

Import them into a ``conftest.py``, e.g. ``from tests.fakediscord.fixtures import discord_fake as
discord_fake``. ``FAKE_DISCORD_DEADLINE`` (seconds) relaxes the 3-second interaction deadline on
a slow CI runner.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

from tests.fakediscord.harness import discord_endpoints
from tests.fakediscord.server import FakeDiscord

DEADLINE_VARIABLE = "FAKE_DISCORD_DEADLINE"


def interaction_deadline() -> float:
    """Discord's 3 s, unless ``$FAKE_DISCORD_DEADLINE`` says otherwise."""
    return float(os.environ.get(DEADLINE_VARIABLE, "3.0"))


@pytest.fixture
async def discord_fake() -> AsyncIterator[FakeDiscord]:
    """A started fake with discord.py pointed at it; fails if the bot hit unknown routes, or
    made a call Discord documents as deprecated."""
    async with FakeDiscord(interaction_deadline=interaction_deadline()) as fake:
        with discord_endpoints(fake):
            yield fake
    unknown = [f"{r.method} {r.path}" for r in fake.unknown_routes]
    assert not unknown, f"the bot called routes the fake does not implement: {unknown}"
    deprecated = [f"{c.method} for {c.label!r} (use {c.instead})" for c in fake.deprecated_calls]
    assert not deprecated, f"the bot made calls Discord documents as deprecated: {deprecated}"
