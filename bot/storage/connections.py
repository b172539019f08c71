"""Opening SQLite connections the one way this package does, and ending transactions safely."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Literal

import aiosqlite

from bot.storage.errors import StorageError

Synchronous = Literal["FULL", "NORMAL"]


async def connect(
    path: Path,
    synchronous: Synchronous,
    busy_timeout_ms: int,
    opened: list[aiosqlite.Connection],
    *,
    read_only: bool = False,
) -> aiosqlite.Connection:
    """A connection with the pragmas every connection gets; appended to ``opened`` at once so
    that the caller can close it should a pragma fail."""
    # isolation_level=None: no implicit transactions; every transaction here is explicit.
    conn = await aiosqlite.connect(path, isolation_level=None)
    opened.append(conn)
    conn.row_factory = aiosqlite.Row
    # busy_timeout first: even the pragmas below may need the lock of a file in use.
    await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute(f"PRAGMA synchronous = {synchronous}")
    if read_only:
        await set_wal(conn, path)  # a no-op on a WAL file, but it checks the mode
        await conn.execute("PRAGMA query_only = ON")
    return conn


async def set_wal(conn: aiosqlite.Connection, path: Path) -> None:
    """Switch the file to WAL mode (it stays so), or raise :class:`StorageError`."""
    rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
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
