"""Fixtures for the game service's tests: a real database, once on each backend (an SQLite
file, then a fresh PostgreSQL database, copied from one already migrated: ``migrated_target``),
and a clock moved by hand."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.games.service import GameService
from bot.storage import Store, open_database
from tests.bot.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(migrated_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    db = await open_database(migrated_target)
    service = GameService(Store(db), clock=clock, rng=random.Random(7))
    yield service
    await service.close()
