"""The SQLite backend, the default: one file, its connections, pragmas, migrations and transactions.

One connection writes, in aiosqlite's worker thread (a commit waits for the disk), and every
write is an explicit ``BEGIN IMMEDIATE`` transaction taken under an :class:`asyncio.Lock`, so
writes from this process never interleave and a write never fails half-way for want of the
lock. Other connections only read (``query_only``), on the event loop's own thread
(:class:`~bot.storage.connections.InlineReader`); in WAL mode they read the last committed
state without waiting for the writer.

``synchronous=FULL``: in WAL mode, ``NORMAL`` may lose the last commits if the *machine* (not
just the process) stops before the next checkpoint, and the bot tells a player "your move was
played" right after a commit. ``FULL`` syncs the WAL on every commit, so what was acknowledged
stays acknowledged; it costs one fsync (about 0.4 ms here) per commit, and the move writer
(:mod:`bot.storage.store`) shares one commit among all the moves that arrive together.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.connections import (
    InlineReader,
    SnapshotReader,
    SQLiteConnection,
    Synchronous,
    abandon_transaction,
    connect,
    connect_reader,
    set_wal,
)
from bot.storage.errors import StorageError
from bot.storage.migrations import MIGRATIONS, Migration, check_compatible, migrate

log = logging.getLogger(__name__)

DEFAULT_BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's write transaction before giving up."""
DEFAULT_READERS = 2
MINIMUM_SQLITE = (3, 35, 0)
"""The oldest SQLite with everything the schema and queries use (``RETURNING``: 3.35)."""

_LIVE_HOLDERS: dict[Path, set[str]] = {}
"""The holders of claims and leases alive in this process, by database file. An SQLite file
serves one process (:mod:`bot.single` locks it for the process's life, and the system lets go
of the lock however the process ends), so a holder that is not here belongs to an earlier run,
which has ended: its claims can be taken at once instead of when they run out."""


class SQLiteDatabase:
    """An open dvonn-bot database file. Create it with :meth:`open`; close it with :meth:`close`.

    Within a coroutine::

        db = await SQLiteDatabase.open("data/dvonn.sqlite3")
        async with db.transaction() as conn:
            await conn.execute("UPDATE ...")
    """

    def __init__(
        self,
        path: Path,
        writer: aiosqlite.Connection,
        readers: Sequence[InlineReader],
    ) -> None:
        self.path = path
        self._writer = writer
        self._readers = list(readers)
        self._idle_readers: asyncio.Queue[InlineReader] = asyncio.Queue()
        for reader in readers:
            self._idle_readers.put_nowait(reader)
        self._write_lock = asyncio.Lock()
        self._closed = False
        self._holders: set[str] = set()

    @classmethod
    async def open(
        cls,
        path: Path | str,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
        readers: int = DEFAULT_READERS,
        migrations: Sequence[Migration] = MIGRATIONS,
        migrate_to: int | None = None,
    ) -> SQLiteDatabase:
        """Open (creating if needed) the file at ``path`` and bring its schema up to date.

        Raises :class:`~bot.storage.errors.DatabaseTooNew` for a file from a newer bot and
        :class:`~bot.storage.errors.NotOurDatabase` for another application's file; neither is
        changed. ``migrations``/``migrate_to`` exist for the migration tests.
        """
        if sqlite3.sqlite_version_info < MINIMUM_SQLITE:
            raise StorageError(
                f"dvonn-bot needs SQLite {'.'.join(map(str, MINIMUM_SQLITE))} or newer "
                f"(for RETURNING), but this Python uses SQLite {sqlite3.sqlite_version}"
            )
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        path = Path(path)
        if str(path) == ":memory:" or not str(path):
            raise ValueError("the database must be a file: WAL and several connections need one")
        path.parent.mkdir(parents=True, exist_ok=True)
        connections: list[aiosqlite.Connection] = []
        reader_connections: list[InlineReader] = []
        try:
            writer = await connect(path, synchronous, busy_timeout_ms, connections)
            await check_compatible(writer, path, migrations)
            await set_wal(writer, path, busy_timeout_ms)
            applied = await migrate(writer, path, migrations, target=migrate_to)
            if applied:
                log.info("database %s: applied migrations %s", path, applied)
            for _ in range(max(1, readers)):
                reader_connections.append(connect_reader(path, synchronous, busy_timeout_ms))
        except BaseException:
            for reader in reader_connections:
                reader.close()
            for conn in connections:
                await conn.close()
            raise
        return cls(path, writer, reader_connections)

    async def close(self) -> None:
        """Close every connection (waiting for queued statements). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        live = _LIVE_HOLDERS.get(self._file, set())
        live -= self._holders
        if not live:
            _LIVE_HOLDERS.pop(self._file, None)
        async with self._write_lock:
            # The writer last: closing the last connection checkpoints and removes the WAL.
            for reader in self._readers:
                reader.close()
            await self._writer.close()

    async def __aenter__(self) -> SQLiteDatabase:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- which processes are alive ---------------------------------------------------------

    @property
    def _file(self) -> Path:
        return self.path.resolve()

    async def hold_life(self, holder: str) -> None:
        """Alive while this database is open here (see :data:`_LIVE_HOLDERS`)."""
        self._check_open()
        self._holders.add(holder)
        _LIVE_HOLDERS.setdefault(self._file, set()).add(holder)

    async def alive(self, holders: Collection[str]) -> set[str]:
        """The holders alive in this process: on SQLite, no other process is."""
        return set(holders) & _LIVE_HOLDERS.get(self._file, set())

    # --- writing ---------------------------------------------------------------------------

    kind = "sqlite"

    @property
    def where(self) -> str:
        return str(self.path)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteConnection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` on the writer, or ``ROLLBACK`` if the block raises.

        Transactions of this process run one at a time; another process's wait up to the busy
        timeout. When the block exits normally the commit is durable before this returns.
        """
        async with self._write_lock:
            self._check_open()
            conn = self._writer
            try:
                await conn.execute("BEGIN IMMEDIATE")
                yield SQLiteConnection(conn)
                await conn.execute("COMMIT")
            except BaseException:
                # The block, the BEGIN or the COMMIT raised (or was cancelled): undo it all.
                await abandon_transaction(conn)
                raise

    # --- reading ---------------------------------------------------------------------------

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[InlineReader]:
        """A read-only connection for a moment; it sees the last committed state."""
        self._check_open()
        conn = await self._idle_readers.get()
        try:
            yield conn
        finally:
            self._idle_readers.put_nowait(conn)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[SnapshotReader]:
        """A reader inside one read transaction: its queries all see the same committed state."""
        async with self.reader() as conn:
            conn.execute("BEGIN")
            try:
                yield SnapshotReader(conn)
            finally:
                conn.execute("ROLLBACK")  # it only read; ending it frees the snapshot

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """All rows of a query, on a reader."""
        async with self.reader() as conn:
            return conn.fetch_all(sql, tuple(params))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query (or ``None``), on a reader."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    # --- maintenance -----------------------------------------------------------------------

    async def integrity_check(self) -> list[str]:
        """``PRAGMA integrity_check``'s report: ``["ok"]`` for a healthy file."""
        return [str(row[0]) for row in await self.fetch_all("PRAGMA integrity_check")]

    async def pragma(self, name: str) -> Any:
        """The value of a pragma on the writer connection (for tests and diagnostics)."""
        if not name.replace("_", "").isalnum():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._write_lock:
            rows = list(await self._writer.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0] if rows else None

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"the database {self.path} is closed")
