"""The operator's commands for PostgreSQL, run as an operator runs them: ``python -m bot migrate``
(also by several processes at once) and ``python -m bot copy-database``."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

import pytest

import rules
from bot.games.service import GameService
from bot.single import only_process
from bot.storage import SCHEMA_VERSION, SQLiteDatabase, Store
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import start_game

pytestmark = pytest.mark.postgres

REPO = Path(__file__).resolve().parents[2]


async def run_bot(*argv: str, database: str | None = None) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))}
    env["PYTHONPATH"] = str(REPO)
    if database is not None:
        env["DVONN_DATABASE"] = database
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *argv,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_migrate_brings_the_schema_up_to_date_also_from_several_processes(
    postgres_url: str,
) -> None:
    runs = await asyncio.gather(*(run_bot("migrate", database=postgres_url) for _ in range(3)))
    for code, out in runs:
        assert code == 0, out
        assert f"schema version {SCHEMA_VERSION}, up to date" in out
    service = await GameService.open(postgres_url)  # and it is usable
    await service.close()


async def test_copy_database_moves_a_servers_games_to_postgresql(
    postgres_url: str, tmp_path: Path
) -> None:
    source = tmp_path / "dvonn.sqlite3"
    service = GameService(
        Store(await SQLiteDatabase.open(source)), clock=ManualClock(), rng=random.Random(3)
    )
    try:
        game = await start_game(service)
        for move in ("E3", "F3"):
            mover = game.to_move_id
            assert mover is not None
            game = (await service.play(game.id, mover, move)).game
    finally:
        await service.close()

    with only_process(source):  # a bot still running on the file
        code, out = await run_bot("copy-database", str(source), postgres_url)
    assert code == 1 and "in use by dvonn-bot" in out, out

    code, out = await run_bot("copy-database", str(source), postgres_url)
    assert code == 0, out
    assert "games replayed" in out
    copied = await GameService.open(postgres_url)
    try:
        record = await copied.record(game.id)
        assert [str(m.move) for m in record.moves] == ["E3", "F3"]
        assert record.game.position == rules.replay([m.move for m in record.moves])[-1]
    finally:
        await copied.close()

    code, out = await run_bot("copy-database", str(source), postgres_url)  # not twice
    assert code == 1 and "not copied" in out, out


async def test_copy_database_wants_a_postgresql_url(tmp_path: Path) -> None:
    code, out = await run_bot("copy-database", str(tmp_path / "x.sqlite3"), "other.sqlite3")
    assert code == 2 and "not a postgresql:// URL" in out
