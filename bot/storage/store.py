"""Every SQL statement of the bot: reading and writing challenges, games, moves and settings.

The statements are written once for both backends (:mod:`bot.storage.interface`): SQLite's and
PostgreSQL's common SQL, ``?`` placeholders, ids returned with ``RETURNING``.

:class:`Store` reads on the reader connections and hands out :class:`Writer` objects, each
bound to one write transaction, for the service to compose its writes in. Saving a
game after a move (the hot path) goes through :meth:`Store.save_game`, which commits the moves
that arrive together in one transaction (group commit): one fsync for all of them.

Every game write is optimistic: ``UPDATE games SET ..., version = version + 1 WHERE id = ? AND
version = ?``; if the game moved on since it was read, nothing is written and
:class:`~bot.storage.errors.VersionConflict` is raised.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator, Collection, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from bot.storage.errors import ChannelTaken, StorageError, VersionConflict
from bot.storage.interface import Connection, Database, Row
from bot.storage.models import (
    Challenge,
    ChallengeStatus,
    ChannelId,
    Claim,
    EndReason,
    Game,
    GameStatus,
    GuildId,
    GuildSettings,
    Notification,
    PlayerPrefs,
    RatingRow,
    RecordedMove,
    Result,
    UserId,
    colour_from_letter,
    move_from_text,
    optional_time,
    text_to_time,
    time_to_text,
)
from rules import PLACEMENT_PLIES, Colour, Move, Position

log = logging.getLogger(__name__)

MAX_BATCH: Final = 200
"""The most game saves committed in one transaction."""


# --- values to insert --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewChallenge:
    """A challenge to insert (the database gives it its id)."""

    guild_id: GuildId | None
    channel_id: ChannelId
    challenger_id: UserId
    opponent_id: UserId | None
    challenger_colour: Colour | None
    clock_days: int | None
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to insert (the database gives it its id; it starts at version 0)."""

    guild_id: GuildId | None
    channel_id: ChannelId
    parent_channel_id: ChannelId | None
    challenge_id: int | None
    white_id: UserId
    black_id: UserId
    position: Position
    clock_days: int | None
    deadline_at: datetime | None
    created_at: datetime
    rated: bool = True
    computer_id: UserId | None = None
    computer_level: str | None = None
    private: bool = False


@dataclass(frozen=True, slots=True)
class NewMove:
    """One action to append to a game's record."""

    ply: int
    colour: Colour
    player_id: UserId
    move: Move
    automatic: bool
    played_at: datetime


@dataclass(frozen=True, slots=True)
class NewNotification:
    """An announcement to write to the outbox: its kind, what it is about, and its data."""

    kind: str
    game_id: int | None = None
    user_id: UserId | None = None
    payload: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    answer: str | None = None
    """The interaction (its route, opaque) whose answer this post may be made as."""


# --- rows to values ----------------------------------------------------------------------------

GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, parent_channel_id, challenge_id, white_id, black_id, status, "
    "result, end_reason, ended_by, score_white, score_black, position, version, clock_days, "
    "deadline_at, abort_requested_by, created_at, updated_at, finished_at, rated, "
    "takeback_requested_by, takeback_ply, computer_id, computer_level, private, channel_lost_at"
)
_CHALLENGE_COLUMNS: Final = (
    "id, guild_id, channel_id, challenger_id, opponent_id, challenger_colour, clock_days, "
    "status, created_at, expires_at, closed_at, closed_by, game_id"
)
_MOVE_COLUMNS: Final = "game_id, ply, colour, player_id, move, automatic, played_at"
_NOTIFICATION_COLUMNS: Final = (
    "id, kind, user_id, game_id, payload, created_at, attempts, claimed_by, leased_until, answer"
)
_INSERT_NOTIFICATION: Final = (
    "INSERT INTO notifications (kind, user_id, game_id, payload, created_at, claimed_by, "
    "leased_until, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


class _PositionCache:
    """Positions by their text, the most recently used kept.

    A position is immutable and a pure function of its text, so it is safe to share. The one a
    move is checked against is usually the one the previous move saved: saving puts it here, so
    loading it does not parse and validate it again.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._positions: OrderedDict[str, Position] = OrderedDict()

    def text_of(self, position: Position) -> str:
        text = position.to_text()
        self._keep(text, position)
        return text

    def position_of(self, text: str) -> Position:
        position = self._positions.get(text)
        if position is None:
            position = Position.from_text(text)
        self._keep(text, position)
        return position

    def _keep(self, text: str, position: Position) -> None:
        self._positions[text] = position
        self._positions.move_to_end(text)
        if len(self._positions) > self._size:
            self._positions.popitem(last=False)


def _game(row: Row, positions: _PositionCache) -> Game:
    score = None if row["score_white"] is None else (row["score_white"], row["score_black"])
    return Game(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        parent_channel_id=row["parent_channel_id"],
        challenge_id=row["challenge_id"],
        white_id=row["white_id"],
        black_id=row["black_id"],
        status=GameStatus(row["status"]),
        position=positions.position_of(row["position"]),
        version=row["version"],
        clock_days=row["clock_days"],
        deadline_at=optional_time(row["deadline_at"]),
        created_at=text_to_time(row["created_at"]),
        updated_at=text_to_time(row["updated_at"]),
        result=None if row["result"] is None else Result(row["result"]),
        end_reason=None if row["end_reason"] is None else EndReason(row["end_reason"]),
        ended_by=row["ended_by"],
        score=score,
        abort_requested_by=row["abort_requested_by"],
        finished_at=optional_time(row["finished_at"]),
        rated=bool(row["rated"]),
        takeback_requested_by=row["takeback_requested_by"],
        takeback_ply=row["takeback_ply"],
        computer_id=row["computer_id"],
        computer_level=row["computer_level"],
        private=bool(row["private"]),
        channel_lost_at=optional_time(row["channel_lost_at"]),
    )


def _challenge(row: Row) -> Challenge:
    return Challenge(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        challenger_colour=colour_from_letter(row["challenger_colour"]),
        clock_days=row["clock_days"],
        status=ChallengeStatus(row["status"]),
        created_at=text_to_time(row["created_at"]),
        expires_at=text_to_time(row["expires_at"]),
        closed_at=optional_time(row["closed_at"]),
        closed_by=row["closed_by"],
        game_id=row["game_id"],
    )


def _recorded_move(row: Row) -> RecordedMove:
    return RecordedMove(
        game_id=row["game_id"],
        ply=row["ply"],
        colour=Colour(row["colour"]),
        player_id=row["player_id"],
        move=move_from_text(row["move"]),
        automatic=bool(row["automatic"]),
        played_at=text_to_time(row["played_at"]),
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


def _notification(row: Row) -> Notification:
    return Notification(
        id=row["id"],
        kind=row["kind"],
        user_id=row["user_id"],
        game_id=row["game_id"],
        payload=json.loads(row["payload"]),
        created_at=text_to_time(row["created_at"]),
        attempts=row["attempts"],
        claimed_by=row["claimed_by"],
        leased_until=optional_time(row["leased_until"]),
        answer=row["answer"],
    )


def _notification_params(
    notice: NewNotification, now: datetime, claim: Claim | None
) -> tuple[Any, ...]:
    return (
        notice.kind,
        notice.user_id,
        notice.game_id,
        json.dumps(dict(notice.payload), separators=(",", ":")),
        time_to_text(now),
        None if claim is None else claim.claimant,
        None if claim is None else time_to_text(claim.until),
        notice.answer,
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


def _optional_text(moment: datetime | None) -> str | None:
    return None if moment is None else time_to_text(moment)


# --- statements shared by readers and the writer -----------------------------------------------

_SELECT_GAME: Final = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
_SELECT_ACTIVE_IN_CHANNEL: Final = (
    f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'"
)
_SELECT_CHALLENGE: Final = f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?"
_SELECT_MOVES: Final = f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply"

_SELECT_PREFS: Final = (
    "SELECT notify, last_reminded_at, vacation_until, vacation_year, vacation_days_used, locale "
    "FROM players WHERE user_id = ?"
)
_SELECT_RATING: Final = (
    "SELECT guild_id, user_id, rating, deviation, volatility, games, wins, losses, draws "
    "FROM ratings WHERE guild_id = ? AND user_id = ?"
)
_UPDATE_GAME: Final = """
    UPDATE games SET
        status = ?, result = ?, end_reason = ?, ended_by = ?, score_white = ?, score_black = ?,
        position = ?, ply = ?, deadline_at = ?, abort_requested_by = ?, updated_at = ?,
        finished_at = ?, takeback_requested_by = ?, takeback_ply = ?, version = version + 1
    WHERE id = ? AND version = ?
"""
_INSERT_MOVE: Final = f"INSERT INTO moves ({_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"


def _update_params(game: Game, expected_version: int, positions: _PositionCache) -> tuple[Any, ...]:
    score_white, score_black = game.score if game.score is not None else (None, None)
    return (
        game.status.value,
        None if game.result is None else game.result.value,
        None if game.end_reason is None else game.end_reason.value,
        game.ended_by,
        score_white,
        score_black,
        positions.text_of(game.position),
        game.position.ply,
        _optional_text(game.deadline_at),
        game.abort_requested_by,
        time_to_text(game.updated_at),
        _optional_text(game.finished_at),
        game.takeback_requested_by,
        game.takeback_ply,
        game.id,
        expected_version,
    )


def _move_params(game_id: int, move: NewMove) -> tuple[Any, ...]:
    return (
        game_id,
        move.ply,
        move.colour.value,
        move.player_id,
        str(move.move),
        int(move.automatic),
        time_to_text(move.played_at),
    )


async def _one(conn: Connection, sql: str, params: Sequence[Any]) -> Row | None:
    rows = await conn.fetch_all(sql, params)
    return rows[0] if rows else None


def _unique_violation(error: Exception) -> bool:
    """Whether a driver's error is a unique index refusing a row (SQLite's or PostgreSQL's)."""
    if isinstance(error, sqlite3.IntegrityError):
        return "UNIQUE" in str(error)
    return getattr(error, "sqlstate", None) == "23505"  # psycopg: unique_violation


def _locking(conn: Connection, sql: str) -> str:
    """``sql`` (a plain SELECT of rows this transaction will change), taking their row locks
    where other transactions run beside this one: a second process's transaction that reads
    the same rows waits for this one to end instead of reading what this one is changing.

    ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: no statement here changes a key, and a full
    ``FOR UPDATE`` would also block the foreign-key checks of other transactions' inserts (a
    move's ``moves.player_id`` against a player's row a reminder holds), a deadlock waiting to
    happen between a move and a reminder."""
    return f"{sql} FOR NO KEY UPDATE" if conn.locks_rows else sql


# --- writing -----------------------------------------------------------------------------------


class Writer:
    """The writes (and consistent reads) of one write transaction.

    Get one from :meth:`Store.write`; it is valid only inside that ``async with`` block. What it
    reads of a row it will change cannot change under it: on SQLite the transaction
    (``BEGIN IMMEDIATE``) holds the whole file; on PostgreSQL, where other processes'
    transactions run beside it, such reads lock their rows (``FOR UPDATE``) until it ends.
    Where a row may not exist yet, the write makes it first, then locks it (ratings).
    """

    def __init__(self, conn: Connection, positions: _PositionCache) -> None:
        self._conn = conn
        self._positions = positions

    async def ensure_players(self, user_ids: Iterable[UserId], now: datetime) -> None:
        """Make sure every user has a ``players`` row."""
        await self._conn.execute_many(
            "INSERT INTO players (user_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [(user_id, time_to_text(now)) for user_id in sorted(set(user_ids))],
        )

    # challenges

    async def challenge(self, challenge_id: int) -> Challenge | None:
        """A challenge by id, or ``None``."""
        row = await _one(self._conn, _locking(self._conn, _SELECT_CHALLENGE), (challenge_id,))
        return None if row is None else _challenge(row)

    async def insert_challenge(self, new: NewChallenge) -> Challenge:
        """Insert an open challenge (its players must exist: :meth:`ensure_players`)."""
        rows = await self._conn.fetch_all(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, "
            "challenger_colour, clock_days, status, created_at, expires_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.challenger_id,
                new.opponent_id,
                None if new.challenger_colour is None else new.challenger_colour.value,
                new.clock_days,
                time_to_text(new.created_at),
                time_to_text(new.expires_at),
            ),
        )
        created = await self.challenge(rows[0][0])
        assert created is not None
        return created

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        at: datetime,
        by: UserId | None = None,
        game_id: int | None = None,
    ) -> Challenge:
        """Move an open challenge to ``status``; raises :class:`StorageError` if it is not open."""
        if status is ChallengeStatus.OPEN:
            raise ValueError("a challenge is closed to accepted, declined, cancelled or expired")
        changed = await self._conn.execute(
            "UPDATE challenges SET status = ?, closed_at = ?, closed_by = ?, game_id = ? "
            "WHERE id = ? AND status = 'open'",
            (status.value, time_to_text(at), by, game_id, challenge_id),
        )
        if changed != 1:
            raise StorageError(f"challenge {challenge_id} is not open")
        closed = await self.challenge(challenge_id)
        assert closed is not None
        return closed

    async def expire_challenges(self, now: datetime) -> list[Challenge]:
        """Close every open challenge whose time is up at ``now``; returns them."""
        rows = await self._conn.fetch_all(
            "UPDATE challenges SET status = 'expired', closed_at = ? "
            f"WHERE status = 'open' AND expires_at <= ? RETURNING {_CHALLENGE_COLUMNS}",
            (time_to_text(now), time_to_text(now)),
        )
        return sorted((_challenge(row) for row in rows), key=lambda c: c.id)

    # games

    async def game(self, game_id: int) -> Game | None:
        """A game by id, or ``None``."""
        row = await _one(self._conn, _locking(self._conn, _SELECT_GAME), (game_id,))
        return None if row is None else _game(row, self._positions)

    async def active_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The running game of a channel or thread, or ``None``."""
        sql = _locking(self._conn, _SELECT_ACTIVE_IN_CHANNEL)
        row = await _one(self._conn, sql, (channel_id,))
        return None if row is None else _game(row, self._positions)

    async def insert_game(self, new: NewGame) -> Game:
        """Insert an active game at version 0 (its players must exist)."""
        now = time_to_text(new.created_at)
        try:
            game_id = await self._insert_game(new, now)
        except Exception as error:
            if _unique_violation(error):  # only one index of games is unique
                raise ChannelTaken(new.channel_id) from error
            raise
        created = await self.game(game_id)
        assert created is not None
        return created

    async def _insert_game(self, new: NewGame, now: str) -> int:
        rows = await self._conn.fetch_all(
            "INSERT INTO games (guild_id, channel_id, parent_channel_id, challenge_id, white_id, "
            "black_id, status, position, ply, version, clock_days, deadline_at, created_at, "
            "updated_at, rated, computer_id, computer_level, private) "
            "VALUES (?, ?, ?, ?, ?, ?, 'active', ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.parent_channel_id,
                new.challenge_id,
                new.white_id,
                new.black_id,
                new.position.to_text(),
                new.position.ply,
                new.clock_days,
                _optional_text(new.deadline_at),
                now,
                now,
                int(new.rated),
                new.computer_id,
                new.computer_level,
                int(new.private),
            ),
        )
        return int(rows[0][0])

    async def save_game(
        self, game: Game, expected_version: int, moves: Sequence[NewMove] = ()
    ) -> Game:
        """Write ``game``'s changeable state and append ``moves``, if it is still at
        ``expected_version``; raises :class:`VersionConflict` (writing nothing) otherwise.

        Returns the game as saved, at ``expected_version + 1``.
        """
        changed = await self._conn.execute(
            _UPDATE_GAME, _update_params(game, expected_version, self._positions)
        )
        if changed != 1:
            raise VersionConflict(game.id, expected_version)
        await self.append_moves(game.id, moves)
        return dataclasses.replace(game, version=expected_version + 1)

    async def append_moves(self, game_id: int, moves: Sequence[NewMove]) -> None:
        """Append to a game's record (a trigger refuses any gap or overlap)."""
        await self._conn.execute_many(_INSERT_MOVE, [_move_params(game_id, m) for m in moves])

    async def phase_two_movers(self, game_id: int) -> set[Colour]:
        """The sides that have made a real (non-pass) move in the movement phase."""
        rows = await self._conn.fetch_all(
            "SELECT DISTINCT colour FROM moves WHERE game_id = ? AND ply >= ? AND move <> 'PASS'",
            (game_id, PLACEMENT_PLIES),
        )
        return {Colour(row[0]) for row in rows}

    async def delete_moves_from(self, game_id: int, ply: int) -> None:
        """Cut a game's record back to its first ``ply`` actions (a takeback)."""
        await self._conn.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))

    # players

    async def prefs(self, user_id: UserId, *, lock: bool = True) -> PlayerPrefs:
        """A player's preferences, read inside this transaction (defaults if none are stored).

        ``lock=False`` for a transaction that only looks at them: it then does not wait for, or
        hold up, another process's transaction that changes them."""
        sql = _locking(self._conn, _SELECT_PREFS) if lock else _SELECT_PREFS
        return _prefs(await _one(self._conn, sql, (user_id,)), user_id)

    async def active_games_of(self, user_id: UserId) -> list[Game]:
        """The user's running games, read (and locked) inside this transaction, by id."""
        rows = await self._conn.fetch_all(
            _locking(
                self._conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
                "AND (white_id = ? OR black_id = ?) ORDER BY id",
            ),
            (user_id, user_id),
        )
        return [_game(row, self._positions) for row in rows]

    async def moves(self, game_id: int) -> list[RecordedMove]:
        """A game's record, read inside this transaction."""
        rows = await self._conn.fetch_all(_SELECT_MOVES, (game_id,))
        return [_recorded_move(row) for row in rows]

    async def save_vacation(self, prefs: PlayerPrefs) -> None:
        await self._conn.execute(
            "UPDATE players SET vacation_until = ?, vacation_year = ?, vacation_days_used = ? "
            "WHERE user_id = ?",
            (
                _optional_text(prefs.vacation_until),
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
        row = await _one(self._conn, _locking(self._conn, _SELECT_RATING), (guild_id, user_id))
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

    # the outbox

    async def enqueue(
        self, notice: NewNotification, now: datetime, claim: Claim | None = None
    ) -> int:
        """Write an announcement to deliver once this transaction commits; returns its id.

        ``claim``: the writer's own hold on it (it posts it right after the commit); the other
        deliverers take it only once the claim has run out."""
        rows = await self._conn.fetch_all(
            _INSERT_NOTIFICATION, _notification_params(notice, now, claim)
        )
        return int(rows[0][0])

    async def claim_next(self, game_id: int, claim: Claim, now: datetime) -> Notification | None:
        """Claim a game's oldest unsent announcement, unless another deliverer holds it."""
        rows = await self._conn.fetch_all(
            "UPDATE notifications SET claimed_by = ?, leased_until = ? WHERE id = ("
            "SELECT min(id) FROM notifications WHERE game_id = ? AND sent_at IS NULL) "
            "AND sent_at IS NULL AND (leased_until IS NULL OR leased_until <= ? OR claimed_by = ?) "
            f"RETURNING {_NOTIFICATION_COLUMNS}",
            (claim.claimant, time_to_text(claim.until), game_id, time_to_text(now), claim.claimant),
        )
        return next((_notification(row) for row in rows), None)

    async def claim_one(
        self, notification_id: int, claim: Claim, now: datetime
    ) -> Notification | None:
        """Claim an announcement that belongs to no game, unless another deliverer holds it."""
        rows = await self._conn.fetch_all(
            "UPDATE notifications SET claimed_by = ?, leased_until = ? "
            "WHERE id = ? AND game_id IS NULL AND sent_at IS NULL "
            "AND (leased_until IS NULL OR leased_until <= ? OR claimed_by = ?) "
            f"RETURNING {_NOTIFICATION_COLUMNS}",
            (
                claim.claimant,
                time_to_text(claim.until),
                notification_id,
                time_to_text(now),
                claim.claimant,
            ),
        )
        return next((_notification(row) for row in rows), None)

    async def release_game(self, game_id: int, claimant: str) -> int:
        """Give up ``claimant``'s claims on a game's unsent rows: another deliverer holds the
        row ahead of them, and will post these after it (a game's posts go out in order)."""
        return await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            "WHERE game_id = ? AND claimed_by = ? AND sent_at IS NULL",
            (game_id, claimant),
        )

    async def renew(self, notification_id: int, claim: Claim) -> bool:
        """Extend a claim still held; ``False`` if another deliverer has taken the row over."""
        changed = await self._conn.execute(
            "UPDATE notifications SET leased_until = ? "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(claim.until), notification_id, claim.claimant),
        )
        return changed == 1

    async def mark_sent(
        self,
        notification_id: int,
        now: datetime,
        message_id: int | None = None,
        *,
        answered: bool = False,
    ) -> None:
        """Record that an announcement went out as ``message_id``; its command's route is kept
        only if the post was that command's answer (``answered``), else forgotten."""
        await self._conn.execute(
            "UPDATE notifications SET sent_at = ?, message_id = ?, "
            "answer = CASE WHEN ? = 1 THEN answer ELSE NULL END "
            "WHERE id = ? AND sent_at IS NULL",
            (time_to_text(now), message_id, int(answered), notification_id),
        )

    async def release(self, claimant: str) -> int:
        """Give up every claim of ``claimant`` on unsent rows (a clean shutdown), so that the
        next deliverer need not wait for them to run out; returns how many there were."""
        return await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            "WHERE claimed_by = ? AND sent_at IS NULL",
            (claimant,),
        )

    async def mark_failed(
        self,
        notification_id: int,
        claimant: str,
        *,
        give_up: bool,
        now: datetime,
        retry_at: datetime,
    ) -> None:
        """Count a failed delivery: try again from ``retry_at`` (holding back the game's later
        announcements until then, to keep their order), or mark it done if ``give_up``. Only
        while ``claimant`` holds it: a deliverer that lost its claim does not count for another."""
        await self._conn.execute(
            "UPDATE notifications SET attempts = attempts + 1, claimed_by = NULL, "
            "leased_until = ?, sent_at = CASE WHEN ? = 1 THEN ? ELSE sent_at END "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(retry_at), int(give_up), time_to_text(now), notification_id, claimant),
        )

    async def lose_channel(self, game_id: int, now: datetime) -> bool:
        """Record that a game's thread or channel refused the bot's posts, and give up the
        game's unsent posts; ``False`` (nothing done) if that was recorded already."""
        changed = await self._conn.execute(
            "UPDATE games SET channel_lost_at = ? WHERE id = ? AND channel_lost_at IS NULL",
            (time_to_text(now), game_id),
        )
        if changed != 1:
            return False
        await self._conn.execute(
            "UPDATE notifications SET sent_at = ?, answer = NULL "
            "WHERE game_id = ? AND sent_at IS NULL",
            (time_to_text(now), game_id),
        )
        return True

    async def regain_channel(self, game_id: int) -> bool:
        """The bot may post in a game's place again; ``False`` if it was not lost."""
        changed = await self._conn.execute(
            "UPDATE games SET channel_lost_at = NULL WHERE id = ? AND channel_lost_at IS NOT NULL",
            (game_id,),
        )
        return changed == 1

    async def postpone(self, notification_id: int, claimant: str, until: datetime) -> None:
        """Let go of a claimed announcement until ``until`` without counting a failed try
        (Discord said "slow down": the post was not refused), holding back the game's later
        ones meanwhile. Only while ``claimant`` holds it."""
        await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = ? "
            "WHERE id = ? AND claimed_by = ? AND sent_at IS NULL",
            (time_to_text(until), notification_id, claimant),
        )

    # leases on background work

    async def take_lease(self, name: str, holder: str, until: datetime, now: datetime) -> bool:
        """Take (or renew) the lease ``name`` for ``holder`` until ``until``; ``False`` if
        another holder's lease on it has not run out at ``now``."""
        rows = await self._conn.fetch_all(
            "INSERT INTO leases (name, holder, leased_until) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
            "leased_until = excluded.leased_until "
            "WHERE leases.leased_until <= ? OR leases.holder = excluded.holder RETURNING holder",
            (name, holder, time_to_text(until), time_to_text(now)),
        )
        return bool(rows)

    async def release_holders(self, holders: Collection[str]) -> tuple[int, int]:
        """Give up every claim and lease of ``holders`` (processes that died): their unsent
        announcements and their background work are free for the next taker at once. Returns
        how many claims and leases there were."""
        if not holders:
            return 0, 0
        names = tuple(holders)
        marks = ", ".join("?" * len(names))
        claims = await self._conn.execute(
            "UPDATE notifications SET claimed_by = NULL, leased_until = NULL "
            f"WHERE claimed_by IN ({marks}) AND sent_at IS NULL",
            names,
        )
        leases = await self._conn.execute(f"DELETE FROM leases WHERE holder IN ({marks})", names)
        return claims, leases

    async def release_lease(self, name: str, holder: str) -> None:
        """End ``holder``'s lease ``name`` (if it still holds it)."""
        await self._conn.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def release_leases(self, holder: str) -> int:
        """End every lease of ``holder`` (a clean shutdown); how many there were."""
        return await self._conn.execute("DELETE FROM leases WHERE holder = ?", (holder,))

    # private games

    async def save_reply_route(self, game_id: int, route: str, expires_at: datetime) -> None:
        """Remember the latest way to answer in a private game (see :attr:`Game.private`)."""
        await self._conn.execute(
            "INSERT INTO reply_routes (game_id, route, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET route = excluded.route, "
            "expires_at = excluded.expires_at",
            (game_id, route, time_to_text(expires_at)),
        )

    # servers

    async def save_guild_locale(self, guild_id: GuildId, locale: str, now: datetime) -> None:
        """Store a server's language as Discord reports it."""
        await self._conn.execute(
            "INSERT INTO guild_locales (guild_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at",
            (guild_id, locale, time_to_text(now)),
        )

    # settings

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> None:
        """Insert or replace a server's settings."""
        await self._conn.execute(
            "INSERT INTO guild_settings (guild_id, default_clock_days, use_threads, locale, "
            "updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
            "default_clock_days = excluded.default_clock_days, "
            "use_threads = excluded.use_threads, locale = excluded.locale, "
            "updated_at = excluded.updated_at",
            (
                settings.guild_id,
                settings.default_clock_days,
                int(settings.use_threads),
                settings.locale,
                time_to_text(now),
            ),
        )
        await self._conn.execute(
            "DELETE FROM guild_channels WHERE guild_id = ?", (settings.guild_id,)
        )
        await self._conn.execute_many(
            "INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?)",
            [(settings.guild_id, channel) for channel in sorted(settings.channels)],
        )


@dataclass(slots=True, eq=False)  # compared and hashed by identity
class _SaveJob:
    game: Game
    expected_version: int
    moves: tuple[NewMove, ...]
    future: asyncio.Future[Saved]
    notice: NewNotification | None = None
    claim: Claim | None = None


@dataclass(frozen=True, slots=True)
class Saved:
    """A game saved by :meth:`Store.save_game`, and the announcement written with it."""

    game: Game
    notice_id: int | None


class Store:
    """All reads and writes of the bot's data, over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # Per store, not global: a store lives in one event loop, the cache needs no lock.
        self._positions = _PositionCache(4096)
        self._queue: list[_SaveJob] = []
        self._flusher: asyncio.Task[None] | None = None

    async def close(self) -> None:
        """Finish the queued saves, then close the database."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        await self.db.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Writer]:
        """A :class:`Writer` for one transaction, committed when the block ends normally and
        rolled back if it raises."""
        async with self.db.transaction() as conn:
            yield Writer(conn, self._positions)

    # --- reads ---------------------------------------------------------------------------------

    async def game(self, game_id: int) -> Game | None:
        """A game by id, or ``None``."""
        row = await self.db.fetch_one(_SELECT_GAME, (game_id,))
        return None if row is None else _game(row, self._positions)

    async def active_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The running game of a channel or thread, or ``None``."""
        row = await self.db.fetch_one(_SELECT_ACTIVE_IN_CHANNEL, (channel_id,))
        return None if row is None else _game(row, self._positions)

    async def active_games_of(self, user_id: UserId) -> list[Game]:
        """The user's running games in every server, the most recently changed first."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND white_id = ? "
            f"UNION ALL SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND black_id = ? "
            "ORDER BY updated_at DESC, id DESC",
            (user_id, user_id),
        )
        return [_game(row, self._positions) for row in rows]

    async def moves(self, game_id: int) -> list[RecordedMove]:
        """A game's record, in order."""
        rows = await self.db.fetch_all(_SELECT_MOVES, (game_id,))
        return [_recorded_move(row) for row in rows]

    async def game_with_moves(self, game_id: int) -> tuple[Game, list[RecordedMove]] | None:
        """A game and its record, read together so that they match."""
        async with self.db.snapshot() as conn:
            found = await conn.fetch_all(_SELECT_GAME, (game_id,))
            if not found:
                return None
            row = found[0]
            rows = await conn.fetch_all(_SELECT_MOVES, (game_id,))
        return _game(row, self._positions), [_recorded_move(r) for r in rows]

    async def latest_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The channel's running game, or else the last one played there."""
        row = await self.db.fetch_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? "
            "ORDER BY status = 'active' DESC, id DESC LIMIT 1",
            (channel_id,),
        )
        return None if row is None else _game(row, self._positions)

    async def games_past_deadline(self, now: datetime) -> list[Game]:
        """Running games whose player to move let the deadline pass."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND deadline_at IS NOT NULL AND deadline_at <= ? ORDER BY deadline_at",
            (time_to_text(now),),
        )
        return [_game(row, self._positions) for row in rows]

    async def games_to_rate(self) -> list[Game]:
        """Finished rated games not rated yet (a crash came between)."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games "
            "WHERE status = 'finished' AND rated = 1 AND rated_at IS NULL ORDER BY id"
        )
        return [_game(row, self._positions) for row in rows]

    async def games_near_deadline(self, now: datetime, until: datetime) -> list[Game]:
        """Running games whose deadline falls in ``(now, until]`` and whose player to move has
        not been reminded of that deadline yet."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
            "AND deadline_at > ? AND deadline_at <= ? "
            "AND (reminded_for IS NULL OR reminded_for <> deadline_at) ORDER BY deadline_at",
            (time_to_text(now), time_to_text(until)),
        )
        return [_game(row, self._positions) for row in rows]

    async def games_with_computer_to_move(self) -> list[Game]:
        """Running games against the bot in which it is the bot's turn."""
        rows = await self.db.fetch_all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND computer_id IS NOT NULL"
        )
        games = [_game(row, self._positions) for row in rows]
        return [game for game in games if game.computer_to_move]

    async def prefs(self, user_id: UserId) -> PlayerPrefs:
        """A player's preferences (defaults if none are stored)."""
        return _prefs(await self.db.fetch_one(_SELECT_PREFS, (user_id,)), user_id)

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

    async def claimable_notifications(self, now: datetime, limit: int = 100) -> list[Notification]:
        """The announcements a deliverer may take now, oldest first: unsent, not held by a live
        claim, and each the oldest unsent one of its game (a game's posts go out in order)."""
        rows = await self.db.fetch_all(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications AS n "
            "WHERE sent_at IS NULL AND (leased_until IS NULL OR leased_until <= ?) "
            "AND (game_id IS NULL OR id = (SELECT min(m.id) FROM notifications AS m "
            "WHERE m.game_id = n.game_id AND m.sent_at IS NULL)) ORDER BY id LIMIT ?",
            (time_to_text(now), limit),
        )
        return [_notification(row) for row in rows]

    async def unsent_notifications(self, game_id: int, limit: int = 20) -> list[Notification]:
        """A game's unsent announcements, oldest first (whoever holds them)."""
        rows = await self.db.fetch_all(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications "
            "WHERE game_id = ? AND sent_at IS NULL ORDER BY id LIMIT ?",
            (game_id, limit),
        )
        return [_notification(row) for row in rows]

    async def oldest_unsent_at(self) -> datetime | None:
        """When the oldest announcement not delivered yet was written (``None``: none waits)."""
        row = await self.db.fetch_one(
            "SELECT min(created_at) FROM notifications WHERE sent_at IS NULL"
        )
        return None if row is None or row[0] is None else text_to_time(row[0])

    async def running_game_at(self, positions: Sequence[str]) -> int | None:
        """A running game whose position is one of ``positions`` (position texts), if any."""
        for start in range(0, len(positions), 100):  # a bounded number of parameters a query
            batch = positions[start : start + 100]
            marks = ", ".join("?" * len(batch))
            row = await self.db.fetch_one(
                f"SELECT id FROM games WHERE status = 'active' AND position IN ({marks}) LIMIT 1",
                tuple(batch),
            )
            if row is not None:
                return int(row[0])
        return None

    async def running_games(self) -> int:
        """How many games are being played."""
        row = await self.db.fetch_one("SELECT count(*) FROM games WHERE status = 'active'")
        return 0 if row is None else int(row[0])

    async def notification(self, notification_id: int) -> Notification | None:
        """An announcement by id, if it is still unsent."""
        row = await self.db.fetch_one(
            f"SELECT {_NOTIFICATION_COLUMNS} FROM notifications WHERE id = ? AND sent_at IS NULL",
            (notification_id,),
        )
        return None if row is None else _notification(row)

    async def challenge(self, challenge_id: int) -> Challenge | None:
        """A challenge by id, or ``None``."""
        row = await self.db.fetch_one(_SELECT_CHALLENGE, (challenge_id,))
        return None if row is None else _challenge(row)

    async def open_challenges(self, channel_id: ChannelId) -> list[Challenge]:
        """Challenges still open in a channel (including any whose time is up but which the
        expiry sweep has not closed yet), oldest first."""
        rows = await self.db.fetch_all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges "
            "WHERE channel_id = ? AND status = 'open' ORDER BY id",
            (channel_id,),
        )
        return [_challenge(row) for row in rows]

    async def reply_route(self, game_id: int, now: datetime) -> str | None:
        """The way to answer in a private game, if one is stored and still good at ``now``."""
        row = await self.db.fetch_one(
            "SELECT route FROM reply_routes WHERE game_id = ? AND expires_at > ?",
            (game_id, time_to_text(now)),
        )
        return None if row is None else str(row[0])

    async def guild_locale(self, guild_id: GuildId) -> str | None:
        """A server's language as Discord last reported it, if known."""
        row = await self.db.fetch_one(
            "SELECT locale FROM guild_locales WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else str(row[0])

    async def last_turn(self, game_id: int, before: int) -> tuple[Notification, int | None] | None:
        """A game's last turn announcement before the row ``before``, with the id of the
        message that posted it (``None``: not posted, or not marked yet)."""
        row = await self.db.fetch_one(
            f"SELECT {_NOTIFICATION_COLUMNS}, message_id FROM notifications "
            "WHERE game_id = ? AND kind = 'turn' AND id < ? ORDER BY id DESC LIMIT 1",
            (game_id, before),
        )
        if row is None:
            return None
        message_id = row["message_id"]
        return _notification(row), None if message_id is None else int(message_id)

    async def holders(self) -> set[str]:
        """Every process named in a claim on an unsent announcement or in a lease."""
        rows = await self.db.fetch_all(
            "SELECT claimed_by FROM notifications WHERE sent_at IS NULL AND claimed_by IS NOT NULL "
            "UNION SELECT holder FROM leases"
        )
        return {str(row[0]) for row in rows}

    async def live_leases(self, prefix: str, now: datetime, *, besides: str) -> set[str]:
        """The names of the leases starting with ``prefix`` that a holder other than
        ``besides`` holds at ``now``."""
        rows = await self.db.fetch_all(
            "SELECT name FROM leases WHERE substr(name, 1, ?) = ? AND leased_until > ? "
            "AND holder <> ?",
            (len(prefix), prefix, time_to_text(now), besides),
        )
        return {str(row[0]) for row in rows}

    async def guild_settings(self, guild_id: GuildId) -> GuildSettings:
        """A server's settings; the defaults if it has none stored."""
        row = await self.db.fetch_one(
            "SELECT guild_id, default_clock_days, use_threads, locale FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        channels = frozenset(
            r[0]
            for r in await self.db.fetch_all(
                "SELECT channel_id FROM guild_channels WHERE guild_id = ?", (guild_id,)
            )
        )
        if row is None:
            return GuildSettings(guild_id, channels=channels)
        return GuildSettings(
            guild_id=row["guild_id"],
            default_clock_days=row["default_clock_days"],
            use_threads=bool(row["use_threads"]),
            locale=row["locale"],
            channels=channels,
        )

    # --- the move path: group commit ----------------------------------------------------------

    async def save_game(
        self, game: Game, expected_version: int, moves: Sequence[NewMove] = ()
    ) -> Game:
        """Like :meth:`Writer.save_game`, in a transaction shared with the saves queued now.

        Each save succeeds or fails on its own (:class:`VersionConflict` if its game moved on);
        when this returns, the save is committed and synced.
        """
        return (await self.save_announced(game, expected_version, moves)).game

    async def save_announced(
        self,
        game: Game,
        expected_version: int,
        moves: Sequence[NewMove] = (),
        notice: NewNotification | None = None,
        claim: Claim | None = None,
    ) -> Saved:
        """:meth:`save_game`, writing ``notice`` to the outbox (held by ``claim``) with it."""
        loop = asyncio.get_running_loop()
        job = _SaveJob(game, expected_version, tuple(moves), loop.create_future(), notice, claim)
        self._queue.append(job)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        return await job.future

    async def _flush(self) -> None:
        """Commit queued saves, a batch per transaction, until the queue is empty."""
        while self._queue:
            batch = [job for job in self._queue[:MAX_BATCH] if not job.future.done()]
            del self._queue[:MAX_BATCH]
            if not batch:
                continue
            try:
                outcomes = await self._save_batch(batch)
            except Exception as error:
                outcomes = await self._retry_singly(batch, error)
            except BaseException as error:  # cancelled: the waiters must not hang
                for job in batch:
                    if not job.future.done():
                        job.future.set_exception(error)
                raise
            for job, outcome in zip(batch, outcomes, strict=True):
                if job.future.done():
                    continue  # the caller gave up waiting
                if isinstance(outcome, BaseException):
                    job.future.set_exception(outcome)
                else:
                    job.future.set_result(outcome)

    async def _retry_singly(
        self, batch: list[_SaveJob], error: Exception
    ) -> list[Saved | BaseException]:
        """After a failed batch: each save in its own transaction, so that one bad save (or a
        passing failure) does not sink the others; each gets its own outcome."""
        if len(batch) == 1:
            return [error]
        log.warning(
            "a batch of %d game saves failed (%s); retrying them one by one", len(batch), error
        )
        outcomes: list[Saved | BaseException] = []
        for job in batch:
            try:
                outcomes.extend(await self._save_batch([job]))
            except Exception as single_error:
                outcomes.append(single_error)
        return outcomes

    async def _save_batch(self, batch: list[_SaveJob]) -> list[Saved | BaseException]:
        notices: dict[_SaveJob, int] = {}
        async with self.db.transaction() as conn:
            accepted = set(await self._apply_updates(conn, batch))
            await conn.execute_many(
                _INSERT_MOVE,
                [_move_params(j.game.id, move) for j in batch if j in accepted for move in j.moves],
            )
            for job in batch:
                if job in accepted and job.notice is not None:
                    params = _notification_params(job.notice, job.game.updated_at, job.claim)
                    rows = await conn.fetch_all(_INSERT_NOTIFICATION, params)
                    notices[job] = int(rows[0][0])
        return [
            Saved(dataclasses.replace(j.game, version=j.expected_version + 1), notices.get(j))
            if j in accepted
            else VersionConflict(j.game.id, j.expected_version)
            for j in batch
        ]

    def _update_rows(self, jobs: list[_SaveJob]) -> list[tuple[Any, ...]]:
        # In the order of the games' ids (a stable sort keeps two saves of one game in order):
        # transactions of other processes that lock the same rows take them in the same order,
        # so they wait for each other instead of deadlocking.
        ordered = sorted(jobs, key=lambda job: job.game.id)
        return [_update_params(j.game, j.expected_version, self._positions) for j in ordered]

    async def _apply_updates(self, conn: Connection, batch: list[_SaveJob]) -> list[_SaveJob]:
        """Run the version-checked UPDATEs of the saves that can win; returns those saves."""
        changed = await conn.execute_many(_UPDATE_GAME, self._update_rows(batch))
        if changed == len(batch):
            return batch  # the usual case: nobody else touched these games
        # Some game moved on (or two saves of one game met in this batch). Start the batch
        # again knowing the versions: inside the new transaction they cannot change (SQLite's
        # BEGIN IMMEDIATE holds the file, PostgreSQL's row locks the rows), so this read
        # decides which saves win, and the UPDATEs' version checks merely confirm it.
        # (Rare, so it may cost a new transaction; the usual case saves a SAVEPOINT instead.)
        await conn.restart()
        ids = sorted({job.game.id for job in batch})
        sql = f"SELECT id, version FROM games WHERE id IN ({', '.join('?' * len(ids))}) ORDER BY id"
        rows = await conn.fetch_all(_locking(conn, sql), ids)
        current: dict[int, int] = {row[0]: row[1] for row in rows}
        accepted: list[_SaveJob] = []
        for job in batch:
            if current.get(job.game.id) == job.expected_version:
                current[job.game.id] = job.expected_version + 1
                accepted.append(job)
        changed = await conn.execute_many(_UPDATE_GAME, self._update_rows(accepted))
        if changed != len(accepted):
            raise StorageError(f"{len(accepted)} game updates were checked, {changed} ran")
        return accepted
