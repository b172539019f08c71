"""What the store needs of a database, whichever the backend (see :mod:`bot.storage.database`).

The statements are written once, in the SQL both backends understand, with ``?`` placeholders
(the PostgreSQL connection turns them into its own); where the dialects must differ, the
connection says so (:attr:`Connection.locks_rows`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Row(Protocol):
    """A result row, read by column position or by column name (as ``sqlite3.Row``)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Reader(Protocol):
    """Reads on a connection that stays the same for a while (a snapshot)."""

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> Sequence[Row]: ...


class Connection(Reader, Protocol):
    """The connection of one write transaction.

    ``locks_rows``: reads inside a transaction must lock the rows they will change
    (``SELECT ... FOR UPDATE``), because other transactions run beside this one (PostgreSQL).
    An SQLite write transaction holds the whole file, so it needs no row locks (and has none).
    """

    locks_rows: bool

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> int:
        """Run one statement for each parameter row; the number of rows changed in all."""
        ...

    async def restart(self) -> None:
        """Roll back this transaction and begin a new one on the same connection."""
        ...


class Database(Protocol):
    """An open dvonn-bot database, whichever the backend."""

    kind: str
    """``"sqlite"`` or ``"postgres"``."""

    @property
    def where(self) -> str:
        """The database, named for an operator: a path, or a URL without its password."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction: committed when the block ends normally, rolled back if it
        raises. When the block exits normally the commit is durable."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[Reader]:
        """Reads that all see one committed state."""
        ...

    async def fetch_all(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]:
        """All rows of a query (the last committed state)."""
        ...

    async def fetch_one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """The first row of a query, or ``None``."""
        ...

    async def hold_life(self, holder: str) -> None:
        """Mark ``holder`` (a process's name in the outbox's claims and the leases) alive for
        as long as this database stays open in this process; safe to call twice. Call it before
        the process writes its first claim."""
        ...

    async def alive(self, holders: Collection[str]) -> set[str]:
        """Which of ``holders`` belong to a live process: a guarantee of the database, never a
        guess from the clock (see each backend's :meth:`hold_life`)."""
        ...

    async def close(self) -> None:
        """Close every connection; safe to call twice."""
        ...
