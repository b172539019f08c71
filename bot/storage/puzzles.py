"""Puzzles: the ``puzzle_ratings``, ``puzzle_attempts``, ``daily_puzzles`` and
``daily_puzzle_posts`` tables (migration 16).

A player's puzzle rating row is their lock: every use case about their puzzles makes it if it
is missing, then reads it locked (:meth:`PuzzleWrites.lock_puzzle_rating`) before it reads or
changes their tries, so two taps at once take turns (PostgreSQL; SQLite's write transaction
holds the whole file) and a try is rated once. A try moves on only from the step it was read
at (:meth:`PuzzleWrites.advance_attempt`, :meth:`~PuzzleWrites.end_attempt`), the optimistic
check behind that lock.

The day's puzzle is written once (its day is the key); a server's post of it once (the server
and the day are the key), in the transaction that writes its outbox row. Its count (``solvers``
and ``tried``: the first tries from there that are over) is written once the day is over and
again as later tries from there end, each time with the post's row locked first
(:meth:`PuzzleWrites.lock_daily_post`), so two counts take turns and the later sees the other's.

:class:`PuzzleWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`PuzzleReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Final

from bot.storage.interface import Row
from bot.storage.models import (
    ChannelId,
    DailyPuzzlePost,
    GuildId,
    PuzzleAttempt,
    PuzzleRating,
    UserId,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, WriterPart, locking, one_row

_RATING_COLUMNS: Final = (
    "user_id, rating, deviation, volatility, solved, failed, streak, best_streak"
)
_SELECT_RATING: Final = f"SELECT {_RATING_COLUMNS} FROM puzzle_ratings WHERE user_id = ?"
_ATTEMPT_COLUMNS: Final = (
    "id, user_id, puzzle_id, step, played, rated, daily_day, guild_id, started_at, ended_at, "
    "solved, rating_before, rating_after"
)
_SELECT_ATTEMPT: Final = f"SELECT {_ATTEMPT_COLUMNS} FROM puzzle_attempts"
_RUNNING: Final = (
    f"{_SELECT_ATTEMPT} WHERE user_id = ? AND ended_at IS NULL ORDER BY started_at DESC, id DESC"
)
_POST_COLUMNS: Final = (
    "p.guild_id, p.day, d.puzzle_id, p.channel_id, p.message_id, p.solvers, p.tried"
)
_SELECT_POST: Final = (
    f"SELECT {_POST_COLUMNS} FROM daily_puzzle_posts p JOIN daily_puzzles d ON d.day = p.day"
)
_FIRST_TRIES: Final = (
    "SELECT count(ended_at) AS tried, coalesce(sum(solved), 0) AS solvers, "
    "count(*) - count(ended_at) AS still_open FROM puzzle_attempts "
    "WHERE id IN (SELECT min(id) FROM puzzle_attempts WHERE daily_day = ? AND guild_id = ? "
    "GROUP BY user_id)"
)


@dataclass(frozen=True, slots=True)
class DailyCount:
    """The players who tried a server's daily post, by how their first try from there went."""

    solvers: int
    tried: int
    """Those whose first try is over: solved or not."""
    still_open: int
    """Those whose first try is still running."""


@dataclass(frozen=True, slots=True)
class NewAttempt:
    """A try to begin: whose, of which puzzle, whether it is rated, and where from."""

    user_id: UserId
    puzzle_id: str
    rated: bool
    started_at: datetime
    daily_day: date | None = None
    guild_id: GuildId | None = None


def _rating(row: Row) -> PuzzleRating:
    return PuzzleRating(
        user_id=row["user_id"],
        rating=row["rating"],
        deviation=row["deviation"],
        volatility=row["volatility"],
        solved=row["solved"],
        failed=row["failed"],
        streak=row["streak"],
        best_streak=row["best_streak"],
    )


def _attempt(row: Row) -> PuzzleAttempt:
    played = str(row["played"])
    solved = row["solved"]
    return PuzzleAttempt(
        id=row["id"],
        user_id=row["user_id"],
        puzzle_id=row["puzzle_id"],
        step=row["step"],
        played=tuple(played.split()) if played else (),
        rated=bool(row["rated"]),
        started_at=text_to_time(row["started_at"]),
        daily_day=_day(row["daily_day"]),
        guild_id=row["guild_id"],
        ended_at=optional_time(row["ended_at"]),
        solved=None if solved is None else bool(solved),
        rating_before=row["rating_before"],
        rating_after=row["rating_after"],
    )


def _post(row: Row) -> DailyPuzzlePost:
    day = _day(row["day"])
    assert day is not None
    return DailyPuzzlePost(
        guild_id=row["guild_id"],
        day=day,
        puzzle_id=row["puzzle_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        solvers=row["solvers"],
        tried=row["tried"],
    )


def _day(text: str | None) -> date | None:
    return None if text is None else date.fromisoformat(text)


class PuzzleWrites(WriterPart):
    """Writing puzzle ratings, tries and the daily posts, in one write transaction."""

    async def lock_puzzle_rating(self, start: PuzzleRating, now: datetime) -> PuzzleRating:
        """The player's puzzle rating, locked for this transaction: made first from ``start``
        if they have none (their ``players`` row must exist)."""
        await self._conn.execute(
            "INSERT INTO puzzle_ratings (user_id, rating, deviation, volatility, updated_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            (start.user_id, start.rating, start.deviation, start.volatility, time_to_text(now)),
        )
        row = await one_row(self._conn, locking(self._conn, _SELECT_RATING), (start.user_id,))
        assert row is not None
        return _rating(row)

    async def save_puzzle_rating(self, rating: PuzzleRating, now: datetime) -> None:
        await self._conn.execute(
            "UPDATE puzzle_ratings SET rating = ?, deviation = ?, volatility = ?, solved = ?, "
            "failed = ?, streak = ?, best_streak = ?, updated_at = ? WHERE user_id = ?",
            (
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.solved,
                rating.failed,
                rating.streak,
                rating.best_streak,
                time_to_text(now),
                rating.user_id,
            ),
        )

    async def running_attempts(self, user_id: UserId) -> list[PuzzleAttempt]:
        """The player's tries still running, the newest first."""
        return [_attempt(row) for row in await self._conn.fetch_all(_RUNNING, (user_id,))]

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None:
        row = await one_row(self._conn, f"{_SELECT_ATTEMPT} WHERE id = ?", (attempt_id,))
        return None if row is None else _attempt(row)

    async def tried_puzzles(self, user_id: UserId) -> dict[str, bool]:
        """Every puzzle the player has tried, and whether they ever solved it."""
        rows = await self._conn.fetch_all(
            "SELECT puzzle_id, max(coalesce(solved, 0)) AS solved FROM puzzle_attempts "
            "WHERE user_id = ? GROUP BY puzzle_id",
            (user_id,),
        )
        return {str(row["puzzle_id"]): bool(row["solved"]) for row in rows}

    async def insert_attempt(self, new: NewAttempt) -> PuzzleAttempt:
        rows = await self._conn.fetch_all(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, rated, daily_day, guild_id, "
            f"started_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING {_ATTEMPT_COLUMNS}",
            (
                new.user_id,
                new.puzzle_id,
                int(new.rated),
                None if new.daily_day is None else new.daily_day.isoformat(),
                new.guild_id,
                time_to_text(new.started_at),
            ),
        )
        return _attempt(rows[0])

    async def advance_attempt(
        self, attempt_id: int, step: int, to_step: int, played: tuple[str, ...]
    ) -> bool:
        """Move a running try on from ``step``; ``False`` if it is not at ``step`` any more."""
        changed = await self._conn.execute(
            "UPDATE puzzle_attempts SET step = ?, played = ? "
            "WHERE id = ? AND step = ? AND ended_at IS NULL",
            (to_step, " ".join(played), attempt_id, step),
        )
        return changed == 1

    async def end_attempt(
        self,
        attempt_id: int,
        step: int,
        played: tuple[str, ...],
        *,
        solved: bool,
        now: datetime,
        rating_before: float | None = None,
        rating_after: float | None = None,
    ) -> bool:
        """End a running try at ``step``; ``False`` if it is not there any more (ended, or
        moved on: then nothing is written)."""
        changed = await self._conn.execute(
            "UPDATE puzzle_attempts SET played = ?, ended_at = ?, solved = ?, "
            "rating_before = ?, rating_after = ? WHERE id = ? AND step = ? AND ended_at IS NULL",
            (
                " ".join(played),
                time_to_text(now),
                int(solved),
                rating_before,
                rating_after,
                attempt_id,
                step,
            ),
        )
        return changed == 1

    # the daily puzzle

    async def choose_daily_puzzle(self, day: date, puzzle_id: str, now: datetime) -> str:
        """The puzzle of ``day``: ``puzzle_id`` unless one was chosen already (kept)."""
        await self._conn.execute(
            "INSERT INTO daily_puzzles (day, puzzle_id, chosen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (day) DO NOTHING",
            (day.isoformat(), puzzle_id, time_to_text(now)),
        )
        row = await one_row(
            self._conn, "SELECT puzzle_id FROM daily_puzzles WHERE day = ?", (day.isoformat(),)
        )
        assert row is not None
        return str(row[0])

    async def daily_puzzle_ids(self) -> set[str]:
        """Every puzzle that has been a day's puzzle."""
        rows = await self._conn.fetch_all("SELECT DISTINCT puzzle_id FROM daily_puzzles")
        return {str(row[0]) for row in rows}

    async def insert_daily_post(
        self, guild_id: GuildId, day: date, channel_id: ChannelId, now: datetime
    ) -> bool:
        """Record a server's post of the day's puzzle; ``False`` if it has one (nothing done)."""
        changed = await self._conn.execute(
            "INSERT INTO daily_puzzle_posts (guild_id, day, channel_id, queued_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, day) DO NOTHING",
            (guild_id, day.isoformat(), channel_id, time_to_text(now)),
        )
        return changed == 1

    async def lock_daily_post(self, guild_id: GuildId, day: date) -> DailyPuzzlePost | None:
        """A server's post of a day's puzzle, its row locked for this transaction (taken before
        it is counted: the day's count and a try from there ending at once take turns)."""
        sql = f"{_SELECT_POST} WHERE p.guild_id = ? AND p.day = ?"
        if self._conn.locks_rows:
            sql += " FOR NO KEY UPDATE OF p"
        row = await one_row(self._conn, sql, (guild_id, day.isoformat()))
        return None if row is None else _post(row)

    async def daily_first_tries(self, guild_id: GuildId, day: date) -> DailyCount:
        """The players who tried a server's daily post from there, by their first try from
        there: solved, over (solved or not), still running."""
        row = await one_row(self._conn, _FIRST_TRIES, (day.isoformat(), guild_id))
        assert row is not None
        return DailyCount(int(row["solvers"]), int(row["tried"]), int(row["still_open"]))

    async def update_daily_count(
        self, guild_id: GuildId, day: date, solvers: int, tried: int
    ) -> None:
        """Keep a daily post's count (its row locked first: :meth:`lock_daily_post`)."""
        await self._conn.execute(
            "UPDATE daily_puzzle_posts SET solvers = ?, tried = ? WHERE guild_id = ? AND day = ?",
            (solvers, tried, guild_id, day.isoformat()),
        )

    async def set_daily_message(self, guild_id: GuildId, day: date, message_id: int) -> None:
        await self._conn.execute(
            "UPDATE daily_puzzle_posts SET message_id = ? WHERE guild_id = ? AND day = ?",
            (message_id, guild_id, day.isoformat()),
        )


class PuzzleReads(StorePart):
    """Reading puzzle ratings, tries and the daily posts."""

    async def puzzle_rating(self, user_id: UserId) -> PuzzleRating | None:
        row = await self.db.fetch_one(_SELECT_RATING, (user_id,))
        return None if row is None else _rating(row)

    async def running_puzzle_attempts(self, user_id: UserId) -> list[PuzzleAttempt]:
        """The player's tries still running, the newest first."""
        return [_attempt(row) for row in await self.db.fetch_all(_RUNNING, (user_id,))]

    async def puzzle_attempt(self, attempt_id: int) -> PuzzleAttempt | None:
        row = await self.db.fetch_one(f"{_SELECT_ATTEMPT} WHERE id = ?", (attempt_id,))
        return None if row is None else _attempt(row)

    async def daily_puzzle(self, day: date) -> str | None:
        row = await self.db.fetch_one(
            "SELECT puzzle_id FROM daily_puzzles WHERE day = ?", (day.isoformat(),)
        )
        return None if row is None else str(row[0])

    async def daily_post(self, guild_id: GuildId, day: date) -> DailyPuzzlePost | None:
        row = await self.db.fetch_one(
            f"{_SELECT_POST} WHERE p.guild_id = ? AND p.day = ?", (guild_id, day.isoformat())
        )
        return None if row is None else _post(row)

    async def uncounted_daily_posts(self, before: date) -> list[DailyPuzzlePost]:
        """The daily posts of days before ``before`` whose solvers are not counted yet."""
        rows = await self.db.fetch_all(
            f"{_SELECT_POST} WHERE p.solvers IS NULL AND p.day < ? ORDER BY p.day, p.guild_id",
            (before.isoformat(),),
        )
        return [_post(row) for row in rows]

    async def servers_awaiting_daily(self, day: date) -> list[tuple[GuildId, ChannelId]]:
        """The servers that chose a channel for the daily puzzle and have no post of ``day``,
        with that channel."""
        rows = await self.db.fetch_all(
            "SELECT s.guild_id, s.puzzle_channel_id FROM guild_settings s "
            "WHERE s.puzzle_channel_id IS NOT NULL AND NOT EXISTS ("
            "SELECT 1 FROM daily_puzzle_posts p WHERE p.guild_id = s.guild_id AND p.day = ?) "
            "ORDER BY s.guild_id",
            (day.isoformat(),),
        )
        return [(int(row[0]), int(row[1])) for row in rows]
