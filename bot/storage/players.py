"""Players and their ratings: the ``players`` table (preferences: notifications, language,
vacations, reminders) and the ``ratings`` table (one rating a player in each server, and one in
the network: guild 0, :data:`~bot.storage.models.NETWORK_GUILD_ID`).

:class:`PlayerWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`PlayerReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Final

from bot.storage.interface import Row
from bot.storage.models import (
    NETWORK_GUILD_ID,
    BoardTheme,
    Game,
    GuildId,
    PlayerPrefs,
    RatingRow,
    TurnNotices,
    UserId,
    optional_time,
    time_to_text,
)
from bot.storage.sql_helpers import StorePart, WriterPart, locking, one_row, optional_text

_SELECT_PREFS: Final = (
    "SELECT notify, last_reminded_at, vacation_until, vacation_year, vacation_days_used, locale, "
    "turn_notices, digest_hour, time_zone, next_digest_at, last_digest_at, theme "
    "FROM players WHERE user_id = ?"
)
_SELECT_RATING: Final = (
    "SELECT guild_id, user_id, rating, deviation, volatility, games, wins, losses, draws "
    "FROM ratings WHERE guild_id = ? AND user_id = ?"
)


def _prefs(row: Row | None, user_id: UserId) -> PlayerPrefs:
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
        turns=TurnNotices(row["turn_notices"]),
        digest_hour=row["digest_hour"],
        time_zone=row["time_zone"],
        next_digest_at=optional_time(row["next_digest_at"]),
        last_digest_at=optional_time(row["last_digest_at"]),
        theme=None if row["theme"] is None else BoardTheme(row["theme"]),
    )


def _rating(row: Row) -> RatingRow:
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


def _rating_params(rating: RatingRow, now: datetime) -> tuple[Any, ...]:
    return (
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
    )


class PlayerWrites(WriterPart):
    """Writing players' preferences and ratings, in one write transaction."""

    async def ensure_players(self, user_ids: Iterable[UserId], now: datetime) -> None:
        """Make sure every user has a ``players`` row."""
        await self._conn.execute_many(
            "INSERT INTO players (user_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [(user_id, time_to_text(now)) for user_id in sorted(set(user_ids))],
        )

    async def prefs(self, user_id: UserId, *, lock: bool = True) -> PlayerPrefs:
        """A player's preferences, read inside this transaction (defaults if none are stored).

        ``lock=False`` for a transaction that only looks at them: it then does not wait for, or
        hold up, another process's transaction that changes them."""
        sql = locking(self._conn, _SELECT_PREFS) if lock else _SELECT_PREFS
        return _prefs(await one_row(self._conn, sql, (user_id,)), user_id)

    async def save_vacation(self, prefs: PlayerPrefs) -> None:
        await self._conn.execute(
            "UPDATE players SET vacation_until = ?, vacation_year = ?, vacation_days_used = ? "
            "WHERE user_id = ?",
            (
                optional_text(prefs.vacation_until),
                prefs.vacation_year,
                prefs.vacation_days_used,
                prefs.user_id,
            ),
        )

    async def save_locale(self, user_id: UserId, locale: str) -> None:
        await self._conn.execute(
            "UPDATE players SET locale = ? WHERE user_id = ?", (locale, user_id)
        )

    async def save_notify(self, user_id: UserId, notify: bool) -> None:
        await self._conn.execute(
            "UPDATE players SET notify = ? WHERE user_id = ?", (int(notify), user_id)
        )

    async def save_turn_notices(self, prefs: PlayerPrefs) -> None:
        """How the player is told of their turns: the choice, the digest's hour and time zone,
        and when the next digest is due."""
        await self._conn.execute(
            "UPDATE players SET turn_notices = ?, digest_hour = ?, time_zone = ?, "
            "next_digest_at = ? WHERE user_id = ?",
            (
                prefs.turns.value,
                prefs.digest_hour,
                prefs.time_zone,
                optional_text(prefs.next_digest_at),
                prefs.user_id,
            ),
        )

    async def mark_digested(self, user_id: UserId, now: datetime, next_at: datetime) -> None:
        """Remember that the digest due was queued ``now``; the next is due ``next_at``."""
        await self._conn.execute(
            "UPDATE players SET last_digest_at = ?, next_digest_at = ? WHERE user_id = ?",
            (time_to_text(now), time_to_text(next_at), user_id),
        )

    async def save_theme(self, user_id: UserId, theme: BoardTheme | None) -> None:
        await self._conn.execute(
            "UPDATE players SET theme = ? WHERE user_id = ?",
            (None if theme is None else theme.value, user_id),
        )

    async def mark_reminded(self, user_id: UserId, games: Iterable[Game], now: datetime) -> None:
        """Remember that ``user_id`` was reminded now, of these games' current deadlines."""
        await self._conn.execute(
            "UPDATE players SET last_reminded_at = ? WHERE user_id = ?",
            (time_to_text(now), user_id),
        )
        await self._conn.execute_many(
            "UPDATE games SET reminded_for = deadline_at WHERE id = ? AND deadline_at = ?",
            [(g.id, time_to_text(g.deadline_at)) for g in games if g.deadline_at is not None],
        )

    # ratings

    async def rating(self, guild_id: GuildId, user_id: UserId) -> RatingRow | None:
        row = await one_row(self._conn, locking(self._conn, _SELECT_RATING), (guild_id, user_id))
        return None if row is None else _rating(row)

    async def add_rating(self, rating: RatingRow, now: datetime) -> None:
        """Insert ``rating`` unless the player has one in that server already (then nothing):
        a row to lock before reading it, so that two games ending at once in two processes
        are both counted, the second from the first's result."""
        await self._conn.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, wins, "
            "losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO NOTHING",
            _rating_params(rating, now),
        )

    async def save_rating(self, rating: RatingRow, now: datetime) -> None:
        await self._conn.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, wins, "
            "losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "deviation = excluded.deviation, volatility = excluded.volatility, "
            "games = excluded.games, wins = excluded.wins, losses = excluded.losses, "
            "draws = excluded.draws, updated_at = excluded.updated_at",
            _rating_params(rating, now),
        )

    async def claim_for_rating(self, game_id: int, now: datetime) -> bool:
        """Mark a finished rated game as rated; ``False`` if it already was (do nothing)."""
        changed = await self._conn.execute(
            "UPDATE games SET rated_at = ? WHERE id = ? AND status = 'finished' AND rated = 1 "
            "AND rated_at IS NULL",
            (time_to_text(now), game_id),
        )
        return changed == 1


class PlayerReads(StorePart):
    """Reading players' preferences and ratings."""

    async def prefs(self, user_id: UserId) -> PlayerPrefs:
        """A player's preferences (defaults if none are stored)."""
        return _prefs(await self.db.fetch_one(_SELECT_PREFS, (user_id,)), user_id)

    async def digests_due(self, now: datetime) -> list[UserId]:
        """The players whose daily digest is due at ``now``, the longest due first."""
        rows = await self.db.fetch_all(
            "SELECT user_id FROM players WHERE next_digest_at IS NOT NULL "
            "AND next_digest_at <= ? ORDER BY next_digest_at, user_id",
            (time_to_text(now),),
        )
        return [int(row["user_id"]) for row in rows]

    async def rating(self, guild_id: GuildId, user_id: UserId) -> RatingRow | None:
        row = await self.db.fetch_one(_SELECT_RATING, (guild_id, user_id))
        return None if row is None else _rating(row)

    async def leaderboard(
        self, guild_id: GuildId, *, min_games: int, limit: int
    ) -> list[RatingRow]:
        rows = await self.db.fetch_all(
            "SELECT guild_id, user_id, rating, deviation, volatility, games, wins, losses, draws "
            "FROM ratings WHERE guild_id = ? AND games >= ? "
            "ORDER BY rating DESC, games DESC LIMIT ?",
            (guild_id, min_games, limit),
        )
        return [_rating(row) for row in rows]

    async def network_leaderboard(self, *, min_games: int, limit: int) -> list[RatingRow]:
        """The network's best ratings (``ratings.guild_id`` 0) of players in the network now:
        one who left drops off, though their rating is kept until their network data is
        deleted."""
        rows = await self.db.fetch_all(
            "SELECT r.guild_id, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.wins, "
            "r.losses, r.draws FROM ratings r "
            "JOIN network_members m ON m.user_id = r.user_id AND m.left_at IS NULL "
            "WHERE r.guild_id = ? AND r.games >= ? "
            "ORDER BY r.rating DESC, r.games DESC, r.user_id LIMIT ?",
            (NETWORK_GUILD_ID, min_games, limit),
        )
        return [_rating(row) for row in rows]
