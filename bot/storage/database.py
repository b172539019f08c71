"""One storage interface over two backends: an SQLite file (the default) or PostgreSQL.

:func:`open_database` reads ``DVONN_DATABASE``'s value: a ``postgresql://`` (or
``postgres://``) URL opens :class:`~bot.storage.postgres.PostgresDatabase`, anything else is
the path of an SQLite file (:class:`~bot.storage.sqlite.SQLiteDatabase`). Both offer what
:class:`~bot.storage.store.Store` needs and nothing more (:mod:`bot.storage.interface`):
transactions on a connection, reads, a consistent snapshot. As with Red-DiscordBot's drivers,
the game service cannot tell which one it runs on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.storage.interface import Database
from bot.storage.sqlite import SQLiteDatabase

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | Path) -> bool:
    """Whether ``DVONN_DATABASE``'s value names a PostgreSQL database (else an SQLite file)."""
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


async def open_database(target: str | Path, **options: Any) -> Database:
    """Open (creating and migrating if needed) the database ``target`` names: a PostgreSQL URL
    or an SQLite file's path. ``options`` go to that backend's ``open``."""
    if is_postgres(target):
        # Imported here: psycopg is loaded only by a bot that uses PostgreSQL.
        from bot.storage.postgres import PostgresDatabase  # noqa: PLC0415

        return await PostgresDatabase.open(str(target), **options)
    return await SQLiteDatabase.open(target, **options)
