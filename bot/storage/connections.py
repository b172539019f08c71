"""Opening SQLite connections the one way this package does, and ending transactions safely."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

import aiosqlite

from bot.storage.errors import StorageError

Synchronous = Literal["FULL", "NORMAL"]


async def connect(
    path: Path,
    synchronous: Synchronous,
    busy_timeout_ms: int,
    opened: list[aiosqlite.Connection],
) -> aiosqlite.Connection:
    """The writer connection, with the pragmas every connection gets (readers:
    :func:`connect_reader`); appended to ``opened`` at once so that the caller can close it
    should a pragma fail."""
    # isolation_level=None: no implicit transactions; every transaction here is explicit.
    conn = await aiosqlite.connect(path, isolation_level=None)
    opened.append(conn)
    conn.row_factory = aiosqlite.Row
    # busy_timeout first: even the pragmas below may need the lock of a file in use.
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    return conn


class SQLiteConnection:
    """The writer connection inside one ``BEGIN IMMEDIATE`` transaction, as the store uses it
    (:class:`bot.storage.interface.Connection`). The transaction holds the whole file, so reads
    need no row locks."""

    locks_rows = False

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        cursor = await self._conn.executemany(sql, rows)
        return cursor.rowcount

    async def restart(self) -> None:
        await self._conn.execute("ROLLBACK")
        await self._conn.execute("BEGIN IMMEDIATE")


class InlineReader:
    """A read-only connection used on the event loop's own thread, without a worker thread.

    The bot's reads are point lookups of a few rows by index, which take some tens of
    microseconds: running one inline costs less than handing it to a thread and back, and,
    under load, does not wait for that thread to get the GIL (measured with
    ``tests.bot.loadbench``: a read's p99 went from tens of milliseconds to well under one).
    In WAL mode a reader never waits for the writer, so these calls do not block on locks.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    def execute(self, sql: str) -> None:
        self._conn.execute(sql)

    def close(self) -> None:
        self._conn.close()


class SnapshotReader:
    """An :class:`InlineReader` inside a read transaction, with the store's async read API."""

    def __init__(self, reader: InlineReader) -> None:
        self._reader = reader

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._reader.fetch_all(sql, params)


def connect_reader(path: Path, synchronous: Synchronous, busy_timeout_ms: int) -> InlineReader:
    """A read-only connection with the pragmas every connection gets, for :class:`InlineReader`."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA synchronous = {synchronous}")
        mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
        if mode != "wal":
            raise StorageError(f"{path}: the file is not in WAL mode (it is {mode!r})")
        conn.execute("PRAGMA query_only = ON")
    except BaseException:
        conn.close()
        raise
    return InlineReader(conn)


async def set_wal(conn: aiosqlite.Connection, path: Path, busy_timeout_ms: int) -> None:
    """Switch the file to WAL mode (it stays so), or raise :class:`StorageError`.

    The switch needs the file to itself, and SQLite answers "database is locked" at once, without
    waiting, when another connection is writing (a second bot migrating a new file at the same
    moment): so it is tried again until the busy timeout has passed.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + busy_timeout_ms / 1000
    while True:
        try:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            break
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or loop.time() >= deadline:
                raise
            await asyncio.sleep(0.01)
    mode = str(rows[0][0]).lower()
    if mode != "wal":
        raise StorageError(f"{path}: SQLite could not switch to WAL mode (it stays {mode!r})")


async def abandon_transaction(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction ``conn`` has open, or will have once the statements
    already queued for it have run.

    Checking ``in_transaction`` here would be wrong: after a cancellation, a ``BEGIN`` may still
    be waiting in the connection's queue. The rollback is queued behind it and is a no-op if no
    transaction is open by then; it is shielded, so that a second cancellation cannot leave the
    connection inside a transaction for the next user.
    """
    await asyncio.shield(conn.rollback())
