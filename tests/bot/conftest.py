"""Fixtures for the game service's tests: a real SQLite file and a clock moved by hand."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import GameService
from bot.storage import SQLiteDatabase, Store
from tests.bot.clock import ManualClock


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(tmp_path: Path, clock: ManualClock) -> AsyncIterator[GameService]:
    db = await SQLiteDatabase.open(tmp_path / "dvonn.sqlite3")
    service = GameService(Store(db), clock=clock, rng=random.Random(7))
    yield service
    await service.close()
