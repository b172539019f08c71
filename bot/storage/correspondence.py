"""The SQL of correspondence play: deadlines, reminders, vacations, ratings, the outbox.

Reads go through the :class:`Database`'s readers; writes take the :class:`Writer` of a
transaction the caller holds, so a change and what it implies (a rating, a notification to
send) commit together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.models import ChannelId, Game, GuildId, UserId, optional_time, time_to_text
from bot.storage.store import GAME_COLUMNS, Store, Writer


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """What the bot remembers of a player between games."""

    user_id: UserId
    notify: bool = True
    last_reminded_at: datetime | None = None
    vacation_until: datetime | None = None
    vacation_year: int | None = None
    vacation_days_used: int = 0
    locale: str | None = None
    """The Discord locale the player last used with the bot."""

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now

    def days_used_in(self, year: int) -> int:
        return self.vacation_days_used if self.vacation_year == year else 0


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's Glicko-2 rating in one server, and their record there."""

    guild_id: GuildId
    user_id: UserId
    rating: float
    deviation: float
    volatility: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class Notification:
    """An announcement waiting in the outbox."""

    id: int
    kind: str
    user_id: UserId | None
    game_id: int | None
    payload: Mapping[str, Any]
    created_at: datetime
    attempts: int


def _prefs(row: Any, user_id: UserId) -> PlayerPrefs:
    if row is None:
        return PlayerPrefs(user_id)
    return PlayerPrefs(
        user_id=user_id,
        notify=bool(row["notify"]),
        last_reminded_at=optional_time(row["last_reminded_at"]),
        vacation_until=optional_time(row["vacation_until"]),
        vacation_year=row["vacation_year"],
        vacation_days_used=row["vacation_days_used"],
        locale=row["locale"],
    )


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        rating=row["rating"],
        deviation=row["deviation"],
        volatility=row["volatility"],
        games=row["games"],
        wins=row["wins"],
        losses=row["losses"],
        draws=row["draws"],
    )


_PREFS = (
    "SELECT notify, last_reminded_at, vacation_until, vacation_year, vacation_days_used, locale "
)
_RATING = (
    "SELECT guild_id, user_id, rating, deviation, volatility, games, wins, losses, draws "
    "FROM ratings "
)


class CorrespondenceStore:
    """Queries and updates for clocks, reminders, vacations, ratings and the outbox."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    # --- reads ---------------------------------------------------------------------------------

    async def games_past_deadline(self, now: datetime) -> list[Game]:
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND deadline_at IS NOT NULL AND deadline_at <= ? ORDER BY deadline_at",
            (time_to_text(now),),
        )
        return [self.store.game_from_row(row) for row in rows]

    async def games_to_rate(self) -> list[Game]:
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE status = 'finished' AND rated = 1 AND rated_at IS NULL ORDER BY id"
        )
        return [self.store.game_from_row(row) for row in rows]

    async def games_near_deadline(self, now: datetime, until: datetime) -> list[Game]:
        """Running games whose deadline falls in ``(now, until]`` and whose player to move has
        not been reminded of that deadline yet."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND deadline_at > ? AND deadline_at <= ? "
            "AND (reminded_for IS NULL OR reminded_for <> deadline_at) ORDER BY deadline_at",
            (time_to_text(now), time_to_text(until)),
        )
        return [self.store.game_from_row(row) for row in rows]

    async def latest_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The channel's running game, or else the last one played there."""
        row = await self.db.fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "ORDER BY status = 'active' DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else self.store.game_from_row(row)

    async def games_with_computer_to_move(self) -> list[Game]:
        """Running games against the bot in which it is the bot's turn (after a restart, say)."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND computer_id IS NOT NULL"
        )
        games = [self.store.game_from_row(row) for row in rows]
        return [game for game in games if game.computer_to_move]

    async def prefs(self, user_id: UserId) -> PlayerPrefs:
        row = await self.db.fetch_one(_PREFS + "FROM players WHERE user_id = ?", (user_id,))
        return _prefs(row, user_id)

    async def rating(self, guild_id: GuildId, user_id: UserId) -> RatingRow | None:
        row = await self.db.fetch_one(
            _RATING + "WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return None if row is None else _rating(row)

    async def leaderboard(
        self, guild_id: GuildId, *, min_games: int, limit: int
    ) -> list[RatingRow]:
        rows = await self.db.fetch_all(
            _RATING + "WHERE guild_id = ? AND games >= ? ORDER BY rating DESC, games DESC LIMIT ?",
            (guild_id, min_games, limit),
        )
        return [_rating(row) for row in rows]

    async def pending_notifications(self, limit: int = 50) -> list[Notification]:
        rows = await self.db.fetch_all(
            "SELECT id, kind, user_id, game_id, payload, created_at, attempts FROM notifications "
            "WHERE sent_at IS NULL ORDER BY id LIMIT ?",
            (limit,),
        )
        return [
            Notification(
                id=row["id"],
                kind=row["kind"],
                user_id=row["user_id"],
                game_id=row["game_id"],
                payload=json.loads(row["payload"]),
                created_at=optional_time(row["created_at"]) or datetime.min,
                attempts=row["attempts"],
            )
            for row in rows
        ]

    async def sent_notifications(self) -> int:
        row = await self.db.fetch_one(
            "SELECT count(*) FROM notifications WHERE sent_at IS NOT NULL"
        )
        return 0 if row is None else int(row[0])

    # --- writes (inside the caller's transaction) ----------------------------------------------

    @staticmethod
    async def prefs_for_update(tx: Writer, user_id: UserId) -> PlayerPrefs:
        rows = list(
            await tx.connection.execute_fetchall(
                _PREFS + "FROM players WHERE user_id = ?", (user_id,)
            )
        )
        return _prefs(rows[0] if rows else None, user_id)

    @staticmethod
    async def rating_for_update(tx: Writer, guild_id: GuildId, user_id: UserId) -> RatingRow | None:
        rows = list(
            await tx.connection.execute_fetchall(
                _RATING + "WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
        )
        return _rating(rows[0]) if rows else None

    @staticmethod
    async def save_rating(tx: Writer, rating: RatingRow, now: datetime) -> None:
        await tx.connection.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, wins, "
            "losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "games = excluded.games, wins = excluded.wins, losses = excluded.losses, "
            "draws = excluded.draws, updated_at = excluded.updated_at",
            (
                rating.guild_id,
                rating.user_id,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games,
                rating.wins,
                rating.losses,
                rating.draws,
                time_to_text(now),
            ),
        )

    @staticmethod
    async def claim_for_rating(tx: Writer, game_id: int, now: datetime) -> bool:
        """Mark a finished rated game as rated; ``False`` if it already was (do nothing)."""
        cursor = await tx.connection.execute(
            "UPDATE games SET rated_at = ? WHERE id = ? AND status = 'finished' AND rated = 1 "
            "AND rated_at IS NULL",
            (time_to_text(now), game_id),
        )
        return cursor.rowcount == 1

    @staticmethod
    async def mark_reminded(
        tx: Writer, user_id: UserId, games: Iterable[Game], now: datetime
    ) -> None:
        await tx.connection.execute(
            "UPDATE players SET last_reminded_at = ? WHERE user_id = ?",
            (time_to_text(now), user_id),
        )
        await tx.connection.executemany(
            "UPDATE games SET reminded_for = deadline_at WHERE id = ? AND deadline_at = ?",
            [(g.id, time_to_text(g.deadline_at)) for g in games if g.deadline_at is not None],
        )

    @staticmethod
    async def save_vacation(tx: Writer, prefs: PlayerPrefs) -> None:
        await tx.connection.execute(
            "UPDATE players SET vacation_until = ?, vacation_year = ?, vacation_days_used = ? "
            "WHERE user_id = ?",
            (
                None if prefs.vacation_until is None else time_to_text(prefs.vacation_until),
                prefs.vacation_year,
                prefs.vacation_days_used,
                prefs.user_id,
            ),
        )

    @staticmethod
    async def save_locale(tx: Writer, user_id: UserId, locale: str) -> None:
        await tx.connection.execute(
            "UPDATE players SET locale = ? WHERE user_id = ?", (locale, user_id)
        )

    @staticmethod
    async def save_notify(tx: Writer, user_id: UserId, notify: bool) -> None:
        await tx.connection.execute(
            "UPDATE players SET notify = ? WHERE user_id = ?", (int(notify), user_id)
        )

    @staticmethod
    async def enqueue(
        tx: Writer,
        kind: str,
        now: datetime,
        *,
        user_id: UserId | None = None,
        game_id: int | None = None,
        payload: Mapping[str, Any] | None = None,
    ) -> None:
        await tx.connection.execute(
            "INSERT INTO notifications (kind, user_id, game_id, payload, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (kind, user_id, game_id, json.dumps(dict(payload or {})), time_to_text(now)),
        )

    @staticmethod
    async def delete_moves_from(tx: Writer, game_id: int, ply: int) -> None:
        await tx.connection.execute(
            "DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply)
        )

    async def mark_sent(self, notification_id: int, now: datetime) -> None:
        async with self.store.write() as tx:
            await tx.connection.execute(
                "UPDATE notifications SET sent_at = ? WHERE id = ?",
                (time_to_text(now), notification_id),
            )

    async def mark_failed(self, notification_id: int, *, give_up: bool, now: datetime) -> None:
        async with self.store.write() as tx:
            await tx.connection.execute(
                "UPDATE notifications SET attempts = attempts + 1, "
                "sent_at = CASE WHEN ? THEN ? ELSE sent_at END WHERE id = ?",
                (int(give_up), time_to_text(now), notification_id),
            )


__all__ = [
    "ChannelId",
    "CorrespondenceStore",
    "Notification",
    "PlayerPrefs",
    "RatingRow",
]
