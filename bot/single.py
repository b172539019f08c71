"""One process per SQLite database: a second bot on the same file is refused.

SQLite serves one bot process: its claims on posts, its locks on challenges being accepted and
its caches assume no other process writes the same games. A second ``python -m bot`` on the
same file is refused at start with a clear message (several processes need PostgreSQL). The
guard is an exclusive lock on a file beside the database, which the system releases when the
process ends, however it ends.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; one process is the operator's care
    fcntl = None  # type: ignore[assignment]


class AlreadyRunning(RuntimeError):
    """Another process serves this database."""


@contextlib.contextmanager
def only_process(database: Path) -> Iterator[None]:
    """Hold the database's process lock for the block; raises :class:`AlreadyRunning`."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    database.parent.mkdir(parents=True, exist_ok=True)
    path = database.with_name(database.name + ".lock")
    with open(path, "a+", encoding="utf-8") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "another process"
            raise AlreadyRunning(
                f"{database} is in use by dvonn-bot process {holder}: SQLite serves one process. "
                "Stop that one first (or, for several processes, use PostgreSQL)."
            ) from None
        lock.seek(0)
        lock.truncate()
        lock.write(str(os.getpid()))
        lock.flush()
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
