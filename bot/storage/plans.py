"""Conditional moves: the ``plans`` table (migration 14), a row a line a player planned.

A line is private to its player: the reads here that the Discord layer's answers come from take
the player's id and return only their lines. Every change to a game's lines is made in a
transaction that holds the game's row first (:meth:`GameWrites.game
<bot.storage.games.GameWrites.game>` locks it on PostgreSQL; SQLite's write transaction holds
the whole file), so a line planned and the move that would answer it take turns.

A move saved without looking at the plans (the hot path, :mod:`bot.storage.game_saves`) is
saved only if its game has none (:func:`planned_games`, read in its transaction after its row
lock): a game with lines sends the move back to be played with them (:class:`PlansWaiting`).

:class:`PlanWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`PlanReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from bot.storage.errors import StorageError
from bot.storage.interface import Connection, Row
from bot.storage.models import UserId, text_to_time, time_to_text
from bot.storage.sql_helpers import StorePart, WriterPart


class PlansWaiting(StorageError):
    """A move was to be saved without its game's plans, and the game has some."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id} has planned lines: its move must be played with them")


@dataclass(frozen=True, slots=True)
class StoredLine:
    """A line as kept: ``moves`` in the record's notation, the first to be played at ``ply``."""

    id: int
    game_id: int
    user_id: UserId
    ply: int
    moves: str
    created_at: datetime


_COLUMNS: Final = "id, game_id, user_id, ply, moves, created_at"
_SELECT: Final = f"SELECT {_COLUMNS} FROM plans"


def _line(row: Row) -> StoredLine:
    return StoredLine(
        id=row["id"],
        game_id=row["game_id"],
        user_id=row["user_id"],
        ply=row["ply"],
        moves=row["moves"],
        created_at=text_to_time(row["created_at"]),
    )


async def planned_games(conn: Connection, game_ids: Collection[int]) -> set[int]:
    """Which of ``game_ids`` have lines planned (inside the caller's transaction)."""
    if not game_ids:
        return set()
    ids = sorted(set(game_ids))
    rows = await conn.fetch_all(
        f"SELECT DISTINCT game_id FROM plans WHERE game_id IN ({', '.join('?' * len(ids))})", ids
    )
    return {int(row[0]) for row in rows}


class PlanWrites(WriterPart):
    """Writing a game's lines, in the write transaction that holds its row."""

    async def plans_of_game(self, game_id: int) -> list[StoredLine]:
        """Both players' lines in a game, in the order they were planned."""
        rows = await self._conn.fetch_all(f"{_SELECT} WHERE game_id = ? ORDER BY id", (game_id,))
        return [_line(row) for row in rows]

    async def insert_plan(
        self, game_id: int, user_id: UserId, ply: int, moves: str, now: datetime
    ) -> StoredLine:
        rows = await self._conn.fetch_all(
            "INSERT INTO plans (game_id, user_id, ply, moves, created_at) "
            f"VALUES (?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
            (game_id, user_id, ply, moves, time_to_text(now)),
        )
        return _line(rows[0])

    async def update_plans(self, changed: Sequence[tuple[int, int, str]]) -> None:
        """Move lines on: ``(id, ply, moves)`` each."""
        await self._conn.execute_many(
            "UPDATE plans SET ply = ?, moves = ? WHERE id = ?",
            [(ply, moves, line_id) for line_id, ply, moves in changed],
        )

    async def delete_plans(self, ids: Collection[int]) -> None:
        await self._conn.execute_many("DELETE FROM plans WHERE id = ?", [(i,) for i in ids])

    async def drop_plans(self, game_id: int, user_id: UserId | None = None) -> int:
        """Drop a game's lines (only ``user_id``'s, if given); returns how many."""
        if user_id is None:
            return await self._conn.execute("DELETE FROM plans WHERE game_id = ?", (game_id,))
        return await self._conn.execute(
            "DELETE FROM plans WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )


class PlanReads(StorePart):
    """Reading lines: whether a game has any, and one player's own."""

    async def has_plans(self, game_id: int) -> bool:
        row = await self.db.fetch_one("SELECT 1 FROM plans WHERE game_id = ? LIMIT 1", (game_id,))
        return row is not None

    async def plans_of(self, game_id: int, user_id: UserId) -> list[StoredLine]:
        """One player's lines in a game (never their opponent's), as planned."""
        rows = await self.db.fetch_all(
            f"{_SELECT} WHERE game_id = ? AND user_id = ? ORDER BY id", (game_id, user_id)
        )
        return [_line(row) for row in rows]
