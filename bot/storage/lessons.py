"""Lessons: the ``lesson_learners``, ``lesson_attempts`` and ``lessons_done`` tables
(migration 18).

A learner's row is their lock: every lesson use case makes it if it is missing, then reads it
locked (:meth:`LessonWrites.lock_learner`) before it reads or changes their lessons, so two taps
at once take turns (PostgreSQL; SQLite's write transaction holds the whole file). A lesson moves
on only from the step it was read at (:meth:`LessonWrites.save_attempt`), the optimistic check
behind that lock. The offer of the lessons is written once (:meth:`LessonWrites.mark_offered`:
only a row not offered yet changes).

:class:`LessonWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`LessonReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from bot.storage.interface import Row
from bot.storage.models import LessonAttempt, LessonState, UserId, text_to_time, time_to_text
from bot.storage.sql_helpers import StorePart, WriterPart, locking, one_row

_ATTEMPT_COLUMNS: Final = (
    "id, user_id, lesson_key, task, step, played, hints, state, started_at, updated_at"
)
_SELECT_ATTEMPT: Final = f"SELECT {_ATTEMPT_COLUMNS} FROM lesson_attempts"
_RUNNING: Final = f"{_SELECT_ATTEMPT} WHERE user_id = ? AND state = 'running'"
_DONE: Final = "SELECT lesson_key FROM lessons_done WHERE user_id = ?"


def _attempt(row: Row) -> LessonAttempt:
    played = str(row["played"])
    return LessonAttempt(
        id=row["id"],
        user_id=row["user_id"],
        lesson_key=row["lesson_key"],
        task=row["task"],
        step=row["step"],
        played=tuple(played.split()) if played else (),
        hints=row["hints"],
        state=LessonState(row["state"]),
        started_at=text_to_time(row["started_at"]),
        updated_at=text_to_time(row["updated_at"]),
    )


class LessonWrites(WriterPart):
    """Writing players' lessons, in one write transaction."""

    async def lock_learner(self, user_id: UserId, now: datetime) -> None:
        """The learner's row, made if missing (their ``players`` row must exist), then locked
        for this transaction: every lesson use case of theirs takes turns."""
        await self._conn.execute(
            "INSERT INTO lesson_learners (user_id, created_at) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO NOTHING",
            (user_id, time_to_text(now)),
        )
        sql = locking(self._conn, "SELECT user_id FROM lesson_learners WHERE user_id = ?")
        await one_row(self._conn, sql, (user_id,))

    async def running_lesson(self, user_id: UserId) -> LessonAttempt | None:
        row = await one_row(self._conn, _RUNNING, (user_id,))
        return None if row is None else _attempt(row)

    async def lesson_attempt(self, attempt_id: int) -> LessonAttempt | None:
        row = await one_row(self._conn, f"{_SELECT_ATTEMPT} WHERE id = ?", (attempt_id,))
        return None if row is None else _attempt(row)

    async def insert_lesson_attempt(
        self, user_id: UserId, lesson_key: str, now: datetime
    ) -> LessonAttempt:
        """Begin a lesson (the player's running one, if any, must be left first:
        :meth:`leave_lesson`)."""
        rows = await self._conn.fetch_all(
            "INSERT INTO lesson_attempts (user_id, lesson_key, started_at, updated_at) "
            f"VALUES (?, ?, ?, ?) RETURNING {_ATTEMPT_COLUMNS}",
            (user_id, lesson_key, time_to_text(now), time_to_text(now)),
        )
        return _attempt(rows[0])

    async def leave_lesson(self, attempt_id: int, now: datetime) -> None:
        """A running lesson left for another."""
        await self._conn.execute(
            "UPDATE lesson_attempts SET state = 'left', step = step + 1, updated_at = ? "
            "WHERE id = ? AND state = 'running'",
            (time_to_text(now), attempt_id),
        )

    async def save_attempt(self, attempt: LessonAttempt, from_step: int, now: datetime) -> bool:
        """Store ``attempt``'s task, step, moves, hints and state, if the row is still running
        at ``from_step``; ``False`` (nothing written) if it moved on meanwhile."""
        changed = await self._conn.execute(
            "UPDATE lesson_attempts SET task = ?, step = ?, played = ?, hints = ?, state = ?, "
            "updated_at = ? WHERE id = ? AND step = ? AND state = 'running'",
            (
                attempt.task,
                attempt.step,
                " ".join(attempt.played),
                attempt.hints,
                attempt.state.value,
                time_to_text(now),
                attempt.id,
                from_step,
            ),
        )
        return changed == 1

    async def mark_lesson_done(self, user_id: UserId, lesson_key: str, now: datetime) -> None:
        """The player finished ``lesson_key`` (again: the latest time, and one more time)."""
        await self._conn.execute(
            "INSERT INTO lessons_done (user_id, lesson_key, first_done_at, done_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, lesson_key) DO UPDATE SET "
            "done_at = excluded.done_at, times = lessons_done.times + 1",
            (user_id, lesson_key, time_to_text(now), time_to_text(now)),
        )

    async def lessons_done(self, user_id: UserId) -> set[str]:
        rows = await self._conn.fetch_all(_DONE, (user_id,))
        return {str(row[0]) for row in rows}

    async def lesson_newcomer(self, user_id: UserId, game_id: int | None) -> bool:
        """Whether the player has no game but ``game_id`` (the one just begun, if any), and
        never began a lesson: whom the lessons are offered to."""
        row = await one_row(
            self._conn,
            "SELECT (SELECT count(*) FROM games WHERE (white_id = ? OR black_id = ?) "
            "AND id <> ?) AS games, (SELECT count(*) FROM lesson_attempts WHERE user_id = ?) "
            "AS lessons",
            (user_id, user_id, -1 if game_id is None else game_id, user_id),
        )
        assert row is not None
        return int(row["games"]) == 0 and int(row["lessons"]) == 0

    async def mark_offered(self, user_id: UserId, now: datetime) -> bool:
        """Record that the lessons were offered to the player (their learner's row must exist);
        ``False`` if they were offered before (nothing written): the offer is made once."""
        changed = await self._conn.execute(
            "UPDATE lesson_learners SET offered_at = ? WHERE user_id = ? AND offered_at IS NULL",
            (time_to_text(now), user_id),
        )
        return changed == 1


class LessonReads(StorePart):
    """Reading players' lessons."""

    async def running_lesson(self, user_id: UserId) -> LessonAttempt | None:
        row = await self.db.fetch_one(_RUNNING, (user_id,))
        return None if row is None else _attempt(row)

    async def lesson_attempt(self, attempt_id: int) -> LessonAttempt | None:
        row = await self.db.fetch_one(f"{_SELECT_ATTEMPT} WHERE id = ?", (attempt_id,))
        return None if row is None else _attempt(row)

    async def lessons_done(self, user_id: UserId) -> set[str]:
        rows = await self.db.fetch_all(_DONE, (user_id,))
        return {str(row[0]) for row in rows}

    async def lesson_offered(self, user_id: UserId) -> bool:
        row = await self.db.fetch_one(
            "SELECT offered_at FROM lesson_learners WHERE user_id = ?", (user_id,)
        )
        return row is not None and row["offered_at"] is not None
