"""Numbered schema migrations, tracked in ``PRAGMA user_version`` (PostgreSQL: see
:mod:`bot.storage.postgres`, which runs the twin files in ``sql/postgres/``).

Migration *n* lives in ``bot/storage/sql/NNNN_name.sql`` and takes the schema from version
*n - 1* to *n*. Each runs in its own ``BEGIN IMMEDIATE`` transaction together with the
``user_version`` update, so a failed migration leaves no trace and the file stays at the
version before it. A file whose version is higher than the code knows is refused: an older bot
must not write into a schema it does not understand.

Add a migration by adding the next numbered file, in ``sql/`` and in ``sql/postgres/``; never
edit one that has been released.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.storage.connections import abandon_transaction
from bot.storage.errors import DatabaseTooNew, MigrationError, NotOurDatabase

APPLICATION_ID = 0x44564F4E
"""``PRAGMA application_id`` of our files: "DVON"."""

_FILE_NAME = re.compile(r"(\d{4})_(\w+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of the schema: from ``version - 1`` to ``version``."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The SQL split into statements (``executescript`` would commit our transaction)."""
        statements: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            buffer += line
            if sqlite3.complete_statement(buffer):
                statements.append(buffer.strip())
                buffer = ""
        if buffer.strip() and not _only_comments(buffer):
            raise ValueError(f"migration {self.version} ends in an unfinished statement")
        return statements


def _only_comments(sql: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in sql.splitlines())


def load_migrations(package: str = "bot.storage.sql") -> tuple[Migration, ...]:
    """The migrations shipped in ``package``, checked to be numbered 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1, 2, 3... without gaps: {numbers}")
    return tuple(found)


MIGRATIONS: tuple[Migration, ...] = load_migrations()
POSTGRES_MIGRATIONS: tuple[Migration, ...] = load_migrations("bot.storage.sql.postgres")
"""The same versions for PostgreSQL, in its dialect (run by :mod:`bot.storage.postgres`)."""
SCHEMA_VERSION: int = len(MIGRATIONS)
"""The schema version this code writes and understands."""
if [m.name for m in POSTGRES_MIGRATIONS] != [m.name for m in MIGRATIONS]:
    raise RuntimeError("every SQLite migration needs its PostgreSQL twin of the same number")


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The file's ``PRAGMA user_version``."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def check_compatible(
    conn: aiosqlite.Connection, path: Path | str, migrations: Sequence[Migration] = MIGRATIONS
) -> int:
    """The file's schema version, after making sure this code may open it.

    Raises :class:`DatabaseTooNew` for a file from a newer bot, and :class:`NotOurDatabase` for
    another application's file (a different ``application_id``, or tables but no version).
    Writes nothing. Its reads see one snapshot of the file (a transaction of their own unless
    the caller has one open), so another process's migration cannot land between them.
    """
    if conn.in_transaction:
        return await _check_compatible(conn, path, migrations)
    await conn.execute("BEGIN")
    try:
        return await _check_compatible(conn, path, migrations)
    finally:
        await conn.execute("ROLLBACK")


async def _check_compatible(
    conn: aiosqlite.Connection, path: Path | str, migrations: Sequence[Migration]
) -> int:
    version = await schema_version(conn)
    if version > len(migrations):
        raise DatabaseTooNew(path, version, len(migrations))
    app_rows = list(await conn.execute_fetchall("PRAGMA application_id"))
    app_id = int(app_rows[0][0])
    if app_id not in (0, APPLICATION_ID):
        raise NotOurDatabase(path, f"its application_id is {app_id:#x}")
    if version == 0:
        tables = list(
            await conn.execute_fetchall(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        )
        if tables:
            raise NotOurDatabase(path, f"it has tables ({tables[0][0]}, ...) but no schema version")
    return version


async def migrate(
    conn: aiosqlite.Connection,
    path: Path | str,
    migrations: Sequence[Migration] = MIGRATIONS,
    *,
    target: int | None = None,
) -> list[int]:
    """Bring the schema up to ``target`` (default: the latest); returns the versions applied.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no transaction open.
    Safe against another process migrating the same file at the same moment: each step re-reads
    the version once it holds the write lock and skips what is already done.
    """
    target = len(migrations) if target is None else target
    applied: list[int] = []
    for migration in migrations[:target]:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            current = await check_compatible(conn, path, migrations)
            if current >= migration.version:
                await conn.execute("ROLLBACK")
                continue
            for statement in migration.statements():
                await conn.execute(statement)
            # PRAGMA takes no parameters; the version is an int from our own file name.
            await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            await conn.execute("COMMIT")
        except BaseException as error:
            await abandon_transaction(conn)
            if isinstance(error, sqlite3.Error):
                raise MigrationError(migration.version, migration.name, error) from error
            raise
        applied.append(migration.version)
    return applied
