"""The PostgreSQL backend's own parts: its migrations, their lock, and its schema's likeness to
SQLite's. (What both backends do alike is tested on both, through ``database_target``.)"""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from bot.storage import (
    SCHEMA_VERSION,
    DatabaseTooNew,
    Migration,
    MigrationError,
    NotOurDatabase,
    PostgresDatabase,
    SQLiteDatabase,
    Store,
)
from bot.storage.migrations import POSTGRES_MIGRATIONS
from bot.storage.postgres import pyformat, redacted

pytestmark = pytest.mark.postgres


def _version(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT version FROM dvonn_schema").fetchone()
    assert row is not None
    return int(row[0])


def _tables(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
    return {str(row[0]) for row in rows}


async def test_an_empty_database_gets_the_whole_schema(postgres_url: str) -> None:
    db = await PostgresDatabase.open(postgres_url)
    await db.close()
    assert _version(postgres_url) == SCHEMA_VERSION == len(POSTGRES_MIGRATIONS)
    assert {"games", "moves", "notifications", "leases", "guild_locales"} <= _tables(postgres_url)


async def test_the_schema_has_the_same_tables_and_columns_as_sqlites(
    postgres_url: str, tmp_path: Path
) -> None:
    """Statements are written once for both: every column must exist, by name, in both."""
    sqlite_path = tmp_path / "dvonn.sqlite3"
    await (await SQLiteDatabase.open(sqlite_path)).close()
    await (await PostgresDatabase.open(postgres_url)).close()
    with sqlite3.connect(sqlite_path) as lite:
        tables = [
            str(row[0])
            for row in lite.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        sqlite_columns = {
            table: {str(row[1]) for row in lite.execute(f"PRAGMA table_info({table})")}
            for table in tables
        }
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> 'dvonn_schema'"
        ).fetchall()
    postgres_columns: dict[str, set[str]] = {}
    for table, column in rows:
        postgres_columns.setdefault(str(table), set()).add(str(column))
    assert postgres_columns == sqlite_columns


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    opened = await asyncio.gather(*(PostgresDatabase.open(postgres_url) for _ in range(4)))
    for db in opened:
        await db.close()
    assert _version(postgres_url) == SCHEMA_VERSION


async def test_a_newer_database_is_refused_and_left_alone(postgres_url: str) -> None:
    await (await PostgresDatabase.open(postgres_url)).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("UPDATE dvonn_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(DatabaseTooNew, match="newer dvonn-bot"):
        await PostgresDatabase.open(postgres_url)
    assert _version(postgres_url) == SCHEMA_VERSION + 1


async def test_another_applications_database_is_refused(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE customers (id integer)")
    with pytest.raises(NotOurDatabase, match="customers"):
        await PostgresDatabase.open(postgres_url)
    assert _tables(postgres_url) == {"customers"}


async def test_a_failed_migration_leaves_no_trace(postgres_url: str) -> None:
    broken = Migration(
        SCHEMA_VERSION + 1, "broken", "CREATE TABLE half (id integer); SELECT no_such_thing;"
    )
    with pytest.raises(MigrationError, match="broken"):
        await PostgresDatabase.open(postgres_url, migrations=[*POSTGRES_MIGRATIONS, broken])
    assert _version(postgres_url) == SCHEMA_VERSION
    assert "half" not in _tables(postgres_url)
    db = await PostgresDatabase.open(postgres_url)  # and it is perfectly usable
    await db.close()


async def test_a_write_transaction_is_all_or_nothing(postgres_url: str) -> None:
    store = Store(await PostgresDatabase.open(postgres_url))
    try:
        with pytest.raises(RuntimeError):
            async with store.write() as tx:
                await tx.ensure_players([1, 2], store_now())
                raise RuntimeError("changed my mind")
        assert await store.db.fetch_all("SELECT * FROM players") == []
    finally:
        await store.close()


def store_now() -> datetime:
    return datetime(2026, 1, 1, tzinfo=UTC)


def test_placeholders_become_psycopgs_outside_quotes() -> None:
    assert pyformat("SELECT ? WHERE a LIKE '%?' AND b = ?") == (
        "SELECT %s WHERE a LIKE '%%?' AND b = %s"
    )


def test_passwords_stay_out_of_messages() -> None:
    assert redacted("postgresql://bot:s3cret@db:5432/dvonn") == "postgresql://bot:***@db:5432/dvonn"
    assert redacted("postgresql://bot@db/dvonn") == "postgresql://bot@db/dvonn"
