"""Schema migrations: from an empty file, from every older version, and refusing newer files."""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    MIGRATIONS,
    SCHEMA_VERSION,
    DatabaseTooNew,
    Migration,
    MigrationError,
    NotOurDatabase,
    SQLiteDatabase,
)
from bot.storage.migrations import APPLICATION_ID, load_migrations


def _schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()
    conn.close()
    return rows


def _pragma(path: Path, name: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"PRAGMA {name}").fetchone()[0])
    finally:
        conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_migrations_are_numbered_without_gaps() -> None:
    assert [m.version for m in load_migrations()] == list(range(1, SCHEMA_VERSION + 1))
    assert SCHEMA_VERSION >= 1


async def test_an_empty_file_gets_the_whole_schema(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "dvonn.sqlite3"  # the folder is created too
    db = await SQLiteDatabase.open(path)
    await db.close()
    assert _pragma(path, "user_version") == SCHEMA_VERSION
    assert _pragma(path, "application_id") == APPLICATION_ID
    names = {name for _, name, _ in _schema(path)}
    assert {"players", "guild_settings", "challenges", "games", "moves"} <= names
    assert {"games_active_by_channel", "moves_in_order"} <= names  # index and trigger too


@pytest.mark.parametrize("start", range(SCHEMA_VERSION))
@pytest.mark.slow
async def test_every_older_version_migrates_to_the_same_schema(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.sqlite3"
    await (await SQLiteDatabase.open(fresh)).close()
    old = tmp_path / "old.sqlite3"
    await (await SQLiteDatabase.open(old, migrate_to=start)).close()
    assert _pragma(old, "user_version") == start
    await (await SQLiteDatabase.open(old)).close()
    assert _pragma(old, "user_version") == SCHEMA_VERSION
    assert _schema(old) == _schema(fresh)


async def test_a_later_migration_keeps_the_data(tmp_path: Path) -> None:
    """What a future migration does to a file in use: here a made-up migration 2."""
    path = tmp_path / "dvonn.sqlite3"
    db = await SQLiteDatabase.open(path)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO players (user_id, created_at) VALUES (7, 'then')")
    await db.close()
    future = Migration(
        SCHEMA_VERSION + 1,
        "ratings",
        "ALTER TABLE players ADD COLUMN rating REAL NOT NULL DEFAULT 1500;\n"
        "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, text TEXT);\n",
    )
    db = await SQLiteDatabase.open(path, migrations=[*MIGRATIONS, future])
    rows = await db.fetch_all("SELECT user_id, rating FROM players")
    await db.close()
    assert [tuple(row) for row in rows] == [(7, 1500.0)]
    assert _pragma(path, "user_version") == SCHEMA_VERSION + 1
    # ... and today's code now refuses that file, untouched.
    before = _digest(path)
    with pytest.raises(DatabaseTooNew):
        await SQLiteDatabase.open(path)
    assert _digest(path) == before


async def test_a_newer_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "dvonn.sqlite3"
    await (await SQLiteDatabase.open(path)).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 3}")
    conn.close()
    before = _digest(path)
    with pytest.raises(DatabaseTooNew) as error:
        await SQLiteDatabase.open(path)
    assert (error.value.found, error.value.supported) == (SCHEMA_VERSION + 3, SCHEMA_VERSION)
    message = str(error.value)
    assert f"schema version {SCHEMA_VERSION + 3}" in message and "newer dvonn-bot" in message
    assert "Upgrade the bot" in message and str(path) in message
    assert _digest(path) == before


async def test_a_failed_migration_leaves_no_trace(tmp_path: Path) -> None:
    path = tmp_path / "dvonn.sqlite3"
    await (await SQLiteDatabase.open(path)).close()
    broken = Migration(
        SCHEMA_VERSION + 1,
        "broken",
        "CREATE TABLE half_done (id INTEGER PRIMARY KEY);\n"
        "ALTER TABLE players ADD COLUMN nickname TEXT;\n"
        "INSERT INTO no_such_table VALUES (1);\n",
    )
    with pytest.raises(MigrationError) as error:
        await SQLiteDatabase.open(path, migrations=[*MIGRATIONS, broken])
    assert error.value.version == SCHEMA_VERSION + 1 and "no_such_table" in str(error.value)
    assert _pragma(path, "user_version") == SCHEMA_VERSION
    names = {name for _, name, _ in _schema(path)}
    assert "half_done" not in names
    columns = {row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(players)")}
    assert "nickname" not in columns
    await (await SQLiteDatabase.open(path)).close()  # and the file is still perfectly usable


async def test_another_applications_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotOurDatabase, match="has tables"):
        await SQLiteDatabase.open(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 42")
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    with pytest.raises(NotOurDatabase, match="application_id"):
        await SQLiteDatabase.open(path)


async def test_two_connections_migrating_at_once(tmp_path: Path) -> None:
    """Two bots starting on one new file at once: each step runs once, both end up open.

    Repeated, because the ways this went wrong (one bot's checks seeing the other's migration
    land between two reads; the switch to WAL refused while the other migrates) showed up in
    about one start in fifteen.
    """
    for attempt in range(40):
        path = tmp_path / f"dvonn-{attempt}.sqlite3"
        first, second = await asyncio.gather(SQLiteDatabase.open(path), SQLiteDatabase.open(path))
        await first.close()
        await second.close()
        assert _pragma(path, "user_version") == SCHEMA_VERSION


def test_statements_are_split_like_sqlite_does() -> None:
    migration = Migration(
        1,
        "x",
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (a TEXT DEFAULT 'x;y');\n"
        "CREATE TRIGGER t_check BEFORE INSERT ON t BEGIN\n"
        "    SELECT 1;\n"
        "    SELECT 2;\n"
        "END;\n"
        "-- the end\n",
    )
    statements = migration.statements()
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(ValueError, match="unfinished"):
        Migration(1, "x", "CREATE TABLE t (a)").statements()
