"""An online backup of the database: a consistent copy while the bot runs.

SQLite's backup API copies the file page by page inside one read transaction, so the copy is
the database as it was when the backup began, every commit before it included; in WAL mode the
bot's writes go on meanwhile. The copy is checked (``integrity_check``) and synced before it is
moved into place, so a backup file that exists is a whole one.

Restore: stop the bot, copy the backup over the database file (``DVONN_DATABASE``), delete the
``-wal`` and ``-shm`` files beside it if any are left, start the bot.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.errors import StorageError


def backup_path(dest: Path, now: datetime | None = None) -> Path:
    """Where a backup goes: ``dest`` itself, or a dated file in it if it is a directory."""
    if dest.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        return dest / f"dvonn-{stamp}.sqlite3"
    return dest


def backup(source: Path, dest: Path) -> Path:
    """Copy the database at ``source`` to ``dest`` (a file, or a directory for a dated file);
    returns the backup's path. Raises :class:`StorageError` if there is no database, the
    backup exists already, or the copy is not sound."""
    if not source.is_file():
        raise StorageError(f"there is no database at {source}")
    target = backup_path(dest)
    if target.exists():
        raise StorageError(f"{target} exists already: name a new file or a directory")
    partial = target.with_name(target.name + ".partial")
    try:
        with (
            contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as db,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            db.backup(copy)
            report = [row[0] for row in copy.execute("PRAGMA integrity_check")]
            if report != ["ok"]:
                raise StorageError(f"the copy of {source} is not sound: {report[:5]}")
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target
