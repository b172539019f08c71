"""Backups while the bot plays: consistent, whole, and holding everything committed before."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.games.service import GameService
from bot.storage import SQLiteDatabase, Store
from bot.storage.backup import backup
from bot.storage.errors import StorageError
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import start_game


@pytest.fixture
async def service(tmp_path: Path, clock: ManualClock) -> AsyncIterator[GameService]:
    """A service on an SQLite file: the backup copies SQLite files (PostgreSQL has its own
    tools)."""
    service = GameService(
        Store(await SQLiteDatabase.open(tmp_path / "dvonn.sqlite3")),
        clock=clock,
        rng=random.Random(7),
    )
    yield service
    await service.close()


REPO = Path(__file__).resolve().parents[3]


def _moves_in(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        assert [row[0] for row in db.execute("PRAGMA integrity_check")] == ["ok"]
        return int(db.execute("SELECT count(*) FROM moves").fetchone()[0])


async def test_a_backup_during_a_stream_of_moves_is_sound_and_holds_what_came_before(
    service: GameService, tmp_path: Path
) -> None:
    assert isinstance(service.store.db, SQLiteDatabase)
    database = service.store.db.path
    games = [await start_game(service, channel=100 + n) for n in range(4)]
    rng = random.Random(5)
    playing = True

    async def play() -> None:
        channel = 200
        while playing:
            for index, game in enumerate(games):
                if not game.is_active:  # over: the next game starts in the next channel
                    channel += 1
                    games[index] = await start_game(service, channel=channel)
                    continue
                mover = game.to_move_id
                assert mover is not None
                moves = [m for m in rules.legal_moves(game.position) if m != rules.PASS]
                games[index] = (await service.play(game.id, mover, rng.choice(moves))).game
            await asyncio.sleep(0)

    stream = asyncio.create_task(play())
    await asyncio.sleep(0.3)
    before = _moves_in(database)  # every move committed so far
    made = await asyncio.to_thread(backup, database, tmp_path / "copy.sqlite3")
    await asyncio.sleep(0.2)
    playing = False
    await stream
    assert _moves_in(made) >= before > 0
    assert _moves_in(database) > before  # the moves went on meanwhile
    assert not list(tmp_path.glob("*.partial"))


def test_a_backup_goes_into_a_directory_and_never_over_a_file(tmp_path: Path) -> None:
    source = tmp_path / "db.sqlite3"
    with contextlib.closing(sqlite3.connect(source)) as db:
        db.execute("CREATE TABLE t (x)")
    folder = tmp_path / "backups"
    folder.mkdir()
    made = backup(source, folder)
    assert made.parent == folder and made.name.startswith("dvonn-")
    with pytest.raises(StorageError, match="exists already"):
        backup(source, made)
    with pytest.raises(StorageError, match="no database"):
        backup(tmp_path / "missing.sqlite3", tmp_path / "x.sqlite3")


async def test_the_backup_command(tmp_path: Path, service: GameService) -> None:
    await start_game(service)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))}
    env |= {"PYTHONPATH": str(REPO), "DVONN_DATABASE": service.store.db.where}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        str(tmp_path / "b.sqlite3"),
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0 and b"backed up" in out
    _moves_in(tmp_path / "b.sqlite3")
