"""Games and their moves: the ``games`` and ``moves`` tables, and the positions read from them.

:class:`GameWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`GameReads` the part of :class:`~bot.storage.store.Store` that reads them; saving a
game after a move (the hot path, moves committed together) is :mod:`bot.storage.game_saves`.

Every game write is optimistic: ``UPDATE games SET ..., version = version + 1 WHERE id = ? AND
version = ?``; if the game moved on since it was read, nothing is written and
:class:`~bot.storage.errors.VersionConflict` is raised.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from bot.storage.errors import ChannelTaken, VersionConflict
from bot.storage.interface import Reader, Row
from bot.storage.models import (
    ChannelId,
    EndReason,
    Game,
    GameStatus,
    GuildId,
    RecordedMove,
    Result,
    UserId,
    move_from_text,
    optional_time,
    text_to_time,
    time_to_text,
)
from bot.storage.sql_helpers import (
    StorePart,
    WriterPart,
    locking,
    one_row,
    optional_seconds,
    optional_text,
    seconds,
    unique_violation,
)
from rules import PLACEMENT_PLIES, Colour, Move, Position

# --- values to insert --------------------------------------------------------------------------


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
    bank: str | None = None
    """A time bank's terms (:attr:`Game.bank`); then both banks start full."""
    white_bank: timedelta | None = None
    black_bank: timedelta | None = None
    status: GameStatus = GameStatus.ACTIVE
    """Or :attr:`~GameStatus.PENDING`: a tournament's game waiting for its thread."""
    setup_seed: int | None = None
    """A random setup's seed (:attr:`Game.setup_seed`); its placements are appended by the
    caller, in the same transaction."""
    rematch_of: int | None = None
    """The game it plays again (:attr:`Game.rematch_of`)."""
    network: bool = False
    """A network game (:attr:`Game.network`): its homes are added by the caller, in the same
    transaction."""


@dataclass(frozen=True, slots=True)
class NewMove:
    """One action to append to a game's record."""

    ply: int
    colour: Colour
    player_id: UserId
    move: Move
    automatic: bool
    played_at: datetime
    white_bank: timedelta | None = None
    """In a time-bank game: both banks when this ply's turn began (:class:`RecordedMove`)."""
    black_bank: timedelta | None = None


# --- rows to values ----------------------------------------------------------------------------

GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, parent_channel_id, challenge_id, white_id, black_id, status, "
    "result, end_reason, ended_by, score_white, score_black, position, version, clock_days, "
    "deadline_at, abort_requested_by, created_at, updated_at, finished_at, rated, "
    "takeback_requested_by, takeback_ply, computer_id, computer_level, private, channel_lost_at, "
    "bank, white_bank_seconds, black_bank_seconds, setup_seed, rematch_of, network"
)
_MOVE_COLUMNS: Final = (
    "game_id, ply, colour, player_id, move, automatic, played_at, white_bank_seconds, "
    "black_bank_seconds"
)


class PositionCache:
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


def _game(row: Row, positions: PositionCache) -> Game:
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
        bank=row["bank"],
        white_bank=optional_seconds(row["white_bank_seconds"]),
        black_bank=optional_seconds(row["black_bank_seconds"]),
        setup_seed=row["setup_seed"],
        rematch_of=row["rematch_of"],
        network=bool(row["network"]),
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
        white_bank=optional_seconds(row["white_bank_seconds"]),
        black_bank=optional_seconds(row["black_bank_seconds"]),
    )


# --- statements shared by readers and the writer -----------------------------------------------

_SELECT_GAME: Final = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
_SELECT_ACTIVE_IN_CHANNEL: Final = (
    f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active' AND network = 0"
)
"""The running ordinary game of a channel or thread (at most one: the unique index
``games_active_by_channel``, which this query's terms let the database use)."""
_SELECT_NETWORK_IN_CHANNEL: Final = (
    f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' AND id IN "
    "(SELECT game_id FROM game_homes WHERE channel_id = ?) ORDER BY id"
)
"""The running network games with a home in a channel: one in a home's thread, any number in a
player's DMs."""


async def _active_in_channel(
    conn: Reader, sql: str, channel_id: ChannelId, positions: PositionCache
) -> Game | None:
    """The running game of a channel or thread: its ordinary game, else the one network game
    with a home there (``None`` if none, or several: a DM home, see
    :meth:`GameReads.network_games_in_channel`)."""
    rows = await conn.fetch_all(sql, (channel_id,))
    if rows:
        return _game(rows[0], positions)
    found = await conn.fetch_all(_SELECT_NETWORK_IN_CHANNEL, (channel_id,))
    return _game(found[0], positions) if len(found) == 1 else None


_SELECT_MOVES: Final = f"SELECT {_MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY ply"
UPDATE_GAME: Final = """
    UPDATE games SET
        status = ?, result = ?, end_reason = ?, ended_by = ?, score_white = ?, score_black = ?,
        position = ?, ply = ?, deadline_at = ?, abort_requested_by = ?, updated_at = ?,
        finished_at = ?, takeback_requested_by = ?, takeback_ply = ?, white_bank_seconds = ?,
        black_bank_seconds = ?, version = version + 1
    WHERE id = ? AND version = ?
"""
INSERT_MOVE: Final = f"INSERT INTO moves ({_MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"


def update_params(game: Game, expected_version: int, positions: PositionCache) -> tuple[Any, ...]:
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
        optional_text(game.deadline_at),
        game.abort_requested_by,
        time_to_text(game.updated_at),
        optional_text(game.finished_at),
        game.takeback_requested_by,
        game.takeback_ply,
        seconds(game.white_bank),
        seconds(game.black_bank),
        game.id,
        expected_version,
    )


def move_params(game_id: int, move: NewMove) -> tuple[Any, ...]:
    return (
        game_id,
        move.ply,
        move.colour.value,
        move.player_id,
        str(move.move),
        int(move.automatic),
        time_to_text(move.played_at),
        seconds(move.white_bank),
        seconds(move.black_bank),
    )


class GameWrites(WriterPart):
    """Writing games and their moves, in one write transaction."""

    _positions: PositionCache

    async def game(self, game_id: int) -> Game | None:
        """A game by id, or ``None``."""
        row = await one_row(self._conn, locking(self._conn, _SELECT_GAME), (game_id,))
        return None if row is None else _game(row, self._positions)

    async def active_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The running game of a channel or thread, or ``None`` (a network game's: through its
        home there, see :func:`_active_in_channel`)."""
        sql = locking(self._conn, _SELECT_ACTIVE_IN_CHANNEL)
        return await _active_in_channel(self._conn, sql, channel_id, self._positions)

    async def insert_game(self, new: NewGame) -> Game:
        """Insert a game (active, unless ``new`` says pending) at version 0 (its players must
        exist)."""
        now = time_to_text(new.created_at)
        try:
            game_id = await self._insert_game(new, now)
        except Exception as error:
            if unique_violation(error):  # only one index of games is unique
                raise ChannelTaken(new.channel_id) from error
            raise
        created = await self.game(game_id)
        assert created is not None
        return created

    async def _insert_game(self, new: NewGame, now: str) -> int:
        rows = await self._conn.fetch_all(
            "INSERT INTO games (guild_id, channel_id, parent_channel_id, challenge_id, white_id, "
            "black_id, status, position, ply, version, clock_days, deadline_at, created_at, "
            "updated_at, rated, computer_id, computer_level, private, bank, white_bank_seconds, "
            "black_bank_seconds, setup_seed, rematch_of, network) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?, ?, ?, ?, ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.parent_channel_id,
                new.challenge_id,
                new.white_id,
                new.black_id,
                new.status.value,
                new.position.to_text(),
                new.position.ply,
                new.clock_days,
                optional_text(new.deadline_at),
                now,
                now,
                int(new.rated),
                new.computer_id,
                new.computer_level,
                int(new.private),
                new.bank,
                seconds(new.white_bank),
                seconds(new.black_bank),
                new.setup_seed,
                new.rematch_of,
                int(new.network),
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
            UPDATE_GAME, update_params(game, expected_version, self._positions)
        )
        if changed != 1:
            raise VersionConflict(game.id, expected_version)
        await self.append_moves(game.id, moves)
        return dataclasses.replace(game, version=expected_version + 1)

    async def append_moves(self, game_id: int, moves: Sequence[NewMove]) -> None:
        """Append to a game's record (a trigger refuses any gap or overlap)."""
        await self._conn.execute_many(INSERT_MOVE, [move_params(game_id, m) for m in moves])

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

    # a player's games

    async def active_games_of(self, user_id: UserId) -> list[Game]:
        """The user's running games, read (and locked) inside this transaction, by id."""
        rows = await self._conn.fetch_all(
            locking(
                self._conn,
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
                "AND (white_id = ? OR black_id = ?) ORDER BY id",
            ),
            (user_id, user_id),
        )
        return [_game(row, self._positions) for row in rows]

    async def rematch_game(self, game_id: int) -> Game | None:
        """The game that plays ``game_id`` again, if one was started."""
        row = await one_row(
            self._conn,
            f"SELECT {GAME_COLUMNS} FROM games WHERE rematch_of = ? ORDER BY id",
            (game_id,),
        )
        return None if row is None else _game(row, self._positions)

    async def moves(self, game_id: int) -> list[RecordedMove]:
        """A game's record, read inside this transaction."""
        rows = await self._conn.fetch_all(_SELECT_MOVES, (game_id,))
        return [_recorded_move(row) for row in rows]


class GameReads(StorePart):
    """Reading games and their moves."""

    _positions: PositionCache

    async def game(self, game_id: int) -> Game | None:
        """A game by id, or ``None``."""
        row = await self.db.fetch_one(_SELECT_GAME, (game_id,))
        return None if row is None else _game(row, self._positions)

    async def active_game_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The running game of a channel or thread, or ``None`` (a network game's: through its
        home there, see :func:`_active_in_channel`)."""
        return await _active_in_channel(
            self.db, _SELECT_ACTIVE_IN_CHANNEL, channel_id, self._positions
        )

    async def network_games_in_channel(self, channel_id: ChannelId) -> list[Game]:
        """The running network games with a home in a channel, the oldest first (a player's
        DMs may hold several)."""
        rows = await self.db.fetch_all(_SELECT_NETWORK_IN_CHANNEL, (channel_id,))
        return [_game(row, self._positions) for row in rows]

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
