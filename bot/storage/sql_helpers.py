"""What every aggregate's storage module shares: the parts :class:`~bot.storage.store.Writer`
and :class:`~bot.storage.store.Store` are composed of, and a few helpers for their SQL.

A storage module (:mod:`bot.storage.games`, :mod:`~bot.storage.challenges`, ...) holds one
aggregate's statements in a :class:`WriterPart` (its writes, on the write transaction's
connection) and a :class:`StorePart` (its reads, on the reader connections).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from bot.storage.interface import Connection, Database, Row
from bot.storage.models import time_to_text


class WriterPart:
    """One aggregate's writes (and consistent reads) in :class:`~bot.storage.store.Writer`:
    the statements of one write transaction, on its connection."""

    _conn: Connection


class StorePart:
    """One aggregate's reads in :class:`~bot.storage.store.Store`, over its database."""

    db: Database


async def one_row(conn: Connection, sql: str, params: Sequence[Any]) -> Row | None:
    """The first row ``sql`` returns, or ``None``."""
    rows = await conn.fetch_all(sql, params)
    return rows[0] if rows else None


def unique_violation(error: Exception) -> bool:
    """Whether a driver's error is a unique index refusing a row (SQLite's or PostgreSQL's)."""
    if isinstance(error, sqlite3.IntegrityError):
        return "UNIQUE" in str(error)
    return getattr(error, "sqlstate", None) == "23505"  # psycopg: unique_violation


def locking(conn: Connection, sql: str) -> str:
    """``sql`` (a plain SELECT of rows this transaction will change), taking their row locks
    where other transactions run beside this one: a second process's transaction that reads
    the same rows waits for this one to end instead of reading what this one is changing.

    ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: no statement here changes a key, and a full
    ``FOR UPDATE`` would also block the foreign-key checks of other transactions' inserts (a
    move's ``moves.player_id`` against a player's row a reminder holds), a deadlock waiting to
    happen between a move and a reminder."""
    return f"{sql} FOR NO KEY UPDATE" if conn.locks_rows else sql


def optional_text(moment: datetime | None) -> str | None:
    """A moment as stored (:func:`~bot.storage.models.time_to_text`), or ``None``."""
    return None if moment is None else time_to_text(moment)


def seconds(amount: timedelta | None) -> int | None:
    """A time bank as stored: whole seconds (``None`` stays ``None``)."""
    return None if amount is None else amount // timedelta(seconds=1)


def optional_seconds(value: int | None) -> timedelta | None:
    """Read :func:`seconds`'s spelling back."""
    return None if value is None else timedelta(seconds=value)
