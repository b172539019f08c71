"""The PostgreSQL backend: several bot processes on one database (``DVONN_DATABASE=postgresql://``).

psycopg 3 in asyncio, with a pool of connections (psycopg-pool) in autocommit mode: every
transaction is an explicit ``BEGIN`` ... ``COMMIT``, as on SQLite, so that the store's group
commit can begin again on the same connection. Unlike SQLite's, these transactions run beside
each other (other tasks, other processes): a transaction that reads rows it will change locks
them (``SELECT ... FOR UPDATE``, :attr:`PostgresConnection.locks_rows`), and every game write
is also version-checked, so a read that went stale is refused rather than written over.

The statements are the store's, written once with ``?`` placeholders; :func:`pyformat` turns
them into psycopg's ``%s``. Commits are durable when they return (``synchronous_commit`` is
PostgreSQL's default, ``on``).

Migrations are the numbered files in ``sql/postgres/``, the same versions as SQLite's, tracked
in the table ``dvonn_schema``; :func:`migrate` applies them under an advisory lock, so processes
that start together apply each one once. A database newer than this code is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import RowMaker
from psycopg_pool import AsyncConnectionPool

from bot.storage.errors import DatabaseTooNew, MigrationError, NotOurDatabase, StorageError
from bot.storage.migrations import POSTGRES_MIGRATIONS, Migration

log = logging.getLogger(__name__)

MIGRATION_LOCK: Final = 0x44564F4E
"""The advisory lock held while migrating ("DVON"): one process migrates, the others wait."""
APPLICATION: Final = "dvonn-bot"
DEFAULT_POOL_SIZE: Final = 10
CONNECT_TIMEOUT: Final = 30.0
LIFE_CHECK_SECONDS: Final = 2.0
"""How often the connection that holds this process's life locks is checked (and, if it
broke, made again and the locks taken again)."""
LIFE_KEEPALIVES: Final = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
}
"""TCP keepalives on the life connection (libpq's), so that a lost network is noticed in
seconds."""
SERVER_KEEPALIVES: Final = (
    "SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3"
)
"""The same on the server's side: a process whose machine vanished (a power cut, not a kill,
whose socket the system closes at once) loses its life locks within about 11 seconds."""
_LIVE_LOCK_KEYS: Final = (
    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks "
    "WHERE locktype = 'advisory' AND objsubid = 1 AND granted "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
"""The advisory locks held on this database by a ``bigint`` key (PostgreSQL shows the key's
high half as ``classid``, its low half as ``objid``), read back as the signed key."""


def life_key(holder: str) -> int:
    """The session-level advisory lock whose holding says ``holder`` is alive: a signed 64-bit
    number made from its name."""
    digest = hashlib.blake2b(holder.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PgRow(tuple[Any, ...]):
    """A result row, read by position or by column name, as ``sqlite3.Row`` is."""

    _names: dict[str, int]

    def __new__(cls, values: Sequence[Any], names: dict[str, int]) -> PgRow:
        row = super().__new__(cls, values)
        row._names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._names[key])
        return super().__getitem__(key)


def _row_factory(cursor: psycopg.AsyncCursor[Any] | psycopg.Cursor[Any]) -> RowMaker[PgRow]:
    names = {column.name: i for i, column in enumerate(cursor.description or ())}
    return lambda values: PgRow(values, names)


Connection = psycopg.AsyncConnection[PgRow]


@functools.lru_cache(maxsize=512)
def pyformat(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (and a literal ``%`` as ``%%``),
    leaving quoted strings alone.

    >>> pyformat("SELECT '?%' WHERE a = ? AND b LIKE 'x%'")
    "SELECT '?%%' WHERE a = %s AND b LIKE 'x%%'"
    """
    out: list[str] = []
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "%":
            out.append("%%")
        elif char == "?" and not quoted:
            out.append("%s")
        else:
            out.append(char)
    return "".join(out)


def redacted(url: str) -> str:
    """``url`` without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresReader:
    """Reads on one connection (a snapshot, or a transaction)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[PgRow]:
        cursor = await self._conn.execute(pyformat(sql), tuple(params))
        return await cursor.fetchall() if cursor.description is not None else []


class PostgresConnection(PostgresReader):
    """A connection inside one write transaction (:class:`bot.storage.interface.Connection`)."""

    locks_rows = True

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(pyformat(sql), tuple(params))
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        rows = [tuple(row) for row in rows]
        if not rows:
            return 0
        async with self._conn.cursor() as cursor:
            await cursor.executemany(pyformat(sql), rows)
            return cursor.rowcount

    async def restart(self) -> None:
        await self._conn.execute("ROLLBACK")
        await self._conn.execute("BEGIN")


async def _rollback(conn: Connection) -> None:
    """End whatever transaction ``conn`` is in, even after a cancellation (shielded); a broken
    connection is left for the pool to throw away."""
    try:
        await asyncio.shield(conn.execute("ROLLBACK"))
    except psycopg.Error:
        log.warning("could not roll back on a PostgreSQL connection; the pool will replace it")


class PostgresDatabase:
    """An open dvonn-bot database on a PostgreSQL server. Create it with :meth:`open`."""

    kind = "postgres"

    def __init__(self, url: str, pool: AsyncConnectionPool[Connection]) -> None:
        self.url = url
        self._pool = pool
        self._closed = False
        self._holders: set[str] = set()
        self._life: Connection | None = None
        self._life_lock = asyncio.Lock()
        self._life_watch: asyncio.Task[None] | None = None

    @property
    def where(self) -> str:
        return redacted(self.url)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        pool_size: int = DEFAULT_POOL_SIZE,
        migrations: Sequence[Migration] = POSTGRES_MIGRATIONS,
        migrate_to: int | None = None,
        timeout: float = CONNECT_TIMEOUT,
    ) -> PostgresDatabase:
        """Connect to the database at ``url`` and bring its schema up to date.

        Raises :class:`DatabaseTooNew` for a database from a newer bot and
        :class:`NotOurDatabase` for another application's; neither is changed.
        """
        pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
            url,
            min_size=1,
            max_size=max(2, pool_size),
            open=False,
            timeout=timeout,
            connection_class=psycopg.AsyncConnection[PgRow],
            kwargs={"autocommit": True, "row_factory": _row_factory},
            name="dvonn",
        )
        try:
            await pool.open(wait=True, timeout=timeout)
        except Exception as error:
            await pool.close()
            raise StorageError(
                f"cannot connect to PostgreSQL at {redacted(url)}: {error}"
            ) from error
        try:
            async with pool.connection() as conn:
                applied = await migrate(conn, redacted(url), migrations, target=migrate_to)
            if applied:
                log.info("database %s: applied migrations %s", redacted(url), applied)
        except BaseException:
            await pool.close()
            raise
        return cls(url, pool)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._life_watch is not None:
            self._life_watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._life_watch
        if self._life is not None:
            await self._life.close()  # PostgreSQL lets go of the life locks with the session
        await self._pool.close()

    # --- which processes are alive -----------------------------------------------------------

    async def hold_life(self, holder: str) -> None:
        """Hold ``holder``'s life lock (:func:`life_key`) on a connection of its own, outside
        the pool, until the database is closed. PostgreSQL ends a session whose client is gone
        (at once for a killed process, whose socket the system closes; within the keepalives
        for a lost machine) and lets go of its locks with it: that is how the other processes
        know this one died, without waiting for a lease to run out."""
        self._check_open()
        async with self._life_lock:
            if holder in self._holders:
                return
            conn = await self._life_connection()
            await self._lock(conn, holder)
            self._holders.add(holder)
        if self._life_watch is None:
            self._life_watch = asyncio.create_task(self._watch_life(), name="postgres-life")

    async def alive(self, holders: Collection[str]) -> set[str]:
        """The holders whose life lock some session holds now."""
        if not holders:
            return set()
        live = {int(row[0]) for row in await self.fetch_all(_LIVE_LOCK_KEYS)}
        return {holder for holder in holders if life_key(holder) in live}

    async def _life_connection(self) -> Connection:
        if self._life is None or self._life.closed:
            conn = await psycopg.AsyncConnection[PgRow].connect(
                psycopg.conninfo.make_conninfo(self.url, **LIFE_KEEPALIVES),
                autocommit=True,
                row_factory=_row_factory,
                connect_timeout=int(CONNECT_TIMEOUT),
                application_name=f"{APPLICATION} life",
            )
            await conn.execute(SERVER_KEEPALIVES)
            self._life = conn
        return self._life

    @staticmethod
    async def _lock(conn: Connection, holder: str) -> None:
        cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (life_key(holder),))
        row = await cursor.fetchone()
        if row is None or not row[0]:
            raise StorageError(f"another session holds the life lock of {holder!r}")

    async def _watch_life(self) -> None:
        """Check the life connection now and then; if it broke (the server restarted, the
        network), make it again and take the locks again. Meanwhile the other processes may
        have taken this one's claims: the outbox's nonces keep that from showing twice."""
        while True:
            await asyncio.sleep(LIFE_CHECK_SECONDS)
            try:
                async with self._life_lock:
                    conn = self._life
                    if conn is not None and not conn.closed:
                        try:
                            await conn.execute("SELECT 1")
                            continue
                        except psycopg.Error:
                            await conn.close()
                    log.warning("the connection holding this process's life locks broke; again")
                    conn = await self._life_connection()
                    for holder in self._holders:
                        await self._lock(conn, holder)
            except Exception:
                log.warning("could not take this process's life locks again", exc_info=True)

    async def __aenter__(self) -> PostgresDatabase:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresConnection]:
        """``BEGIN`` ... ``COMMIT``, or ``ROLLBACK`` if the block raises."""
        self._check_open()
        async with self._pool.connection() as conn:
            try:
                await conn.execute("BEGIN")
                yield PostgresConnection(conn)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PostgresReader]:
        """Reads inside one ``REPEATABLE READ`` transaction: one committed state."""
        self._check_open()
        async with self._pool.connection() as conn:
            await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                yield PostgresReader(conn)
            finally:
                await _rollback(conn)

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> list[PgRow]:
        self._check_open()
        async with self._pool.connection() as conn:
            return await PostgresReader(conn).fetch_all(sql, tuple(params))

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> PgRow | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError(f"the database {self.where} is closed")


# --- migrations --------------------------------------------------------------------------------


async def schema_version(conn: Connection, where: str, known: int) -> int:
    """The database's schema version, after making sure this code may use it (writes nothing).

    Raises :class:`DatabaseTooNew` and :class:`NotOurDatabase` as the SQLite backend does.
    """
    cursor = await conn.execute("SELECT to_regclass('dvonn_schema') IS NOT NULL")
    row = await cursor.fetchone()
    if row is None or not row[0]:
        cursor = await conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = "
            "current_schema() LIMIT 1"
        )
        other = await cursor.fetchone()
        if other is not None:
            raise NotOurDatabase(where, f"it has tables ({other[0]}, ...) but no dvonn_schema")
        return 0
    cursor = await conn.execute("SELECT application, version FROM dvonn_schema")
    rows = await cursor.fetchall()
    if len(rows) != 1 or rows[0][0] != APPLICATION:
        raise NotOurDatabase(where, "its dvonn_schema table is not ours")
    version = int(rows[0][1])
    if version > known:
        raise DatabaseTooNew(where, version, known)
    return version


async def migrate(
    conn: Connection,
    where: str,
    migrations: Sequence[Migration] = POSTGRES_MIGRATIONS,
    *,
    target: int | None = None,
) -> list[int]:
    """Bring the schema up to ``target`` (default: the latest); returns the versions applied.

    Holds an advisory lock meanwhile, so that processes starting together migrate one after
    the other (the later ones find nothing left to do). Each migration runs in a transaction
    with its version update: PostgreSQL's DDL is transactional, so a failed one leaves no trace.
    """
    target = len(migrations) if target is None else target
    applied: list[int] = []
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        for migration in migrations[:target]:
            if await schema_version(conn, where, len(migrations)) >= migration.version:
                continue
            try:
                await conn.execute("BEGIN")
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS dvonn_schema (application TEXT NOT NULL, "
                    "version INTEGER NOT NULL)"
                )
                # A script without parameters: psycopg sends it whole (several statements).
                await conn.execute(migration.sql)
                await conn.execute("DELETE FROM dvonn_schema")
                await conn.execute(
                    "INSERT INTO dvonn_schema (application, version) VALUES (%s, %s)",
                    (APPLICATION, migration.version),
                )
                await conn.execute("COMMIT")
            except BaseException as error:
                await _rollback(conn)
                if isinstance(error, psycopg.Error):
                    raise MigrationError(migration.version, migration.name, error) from error
                raise
            applied.append(migration.version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return applied
