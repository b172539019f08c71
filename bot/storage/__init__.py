"""Storage for challenges, games, players and servers: an SQLite file (the default) or PostgreSQL.

* :func:`open_database` opens what ``DVONN_DATABASE`` names: :class:`SQLiteDatabase` (one
  file, WAL, pragmas) or :class:`PostgresDatabase` (a pool; several processes), each with its
  migrations and transactions behind one interface, :class:`Database`.
* :class:`Store` (reads) and :class:`Writer` (the writes of one transaction) are the one
  storage interface (:mod:`bot.storage.store`), each composed of a part per aggregate, whose
  SQL lives in that aggregate's module: :mod:`~bot.storage.games` (and
  :mod:`~bot.storage.game_saves`, the moves' group commit), :mod:`~bot.storage.challenges`,
  :mod:`~bot.storage.players` (preferences, ratings), :mod:`~bot.storage.outbox` (announcements,
  claims, leases), :mod:`~bot.storage.settings` (servers) and :mod:`~bot.storage.puzzles`
  (puzzle ratings, tries, the daily puzzle), :mod:`~bot.storage.lessons` (players' lessons),
  :mod:`~bot.storage.network` (the network's members, servers, blocks and games' homes);
  :mod:`~bot.storage.forget` forgets a player (the
  operator's ``python -m bot forget``).
* :mod:`bot.storage.models` are the values read and written.

Nothing here knows of Discord: ids are opaque integers.
"""

from typing import TYPE_CHECKING, Any

from bot.storage.database import is_postgres, open_database
from bot.storage.errors import (
    ChannelTaken,
    DatabaseTooNew,
    MigrationError,
    NotOurDatabase,
    StorageError,
    VersionConflict,
)
from bot.storage.forget import Forgotten, NotAPlayerId, StillPlaying, is_placeholder
from bot.storage.interface import Database
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from bot.storage.models import (
    NETWORK_GUILD_ID,
    BoardTheme,
    Challenge,
    ChallengeStatus,
    ChannelId,
    Claim,
    DailyPuzzlePost,
    EndReason,
    Entrant,
    Game,
    GameHome,
    GameStatus,
    GuildId,
    GuildSettings,
    HomeSeat,
    LessonAttempt,
    LessonState,
    NetworkBlock,
    NetworkMember,
    NetworkServer,
    Notification,
    PlayerPrefs,
    PuzzleAttempt,
    PuzzleRating,
    RatingRow,
    RecordedMove,
    Result,
    Setup,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    TurnNotices,
    UserId,
)
from bot.storage.puzzles import NewAttempt
from bot.storage.sqlite import SQLiteDatabase
from bot.storage.store import (
    NewChallenge,
    NewGame,
    NewHome,
    NewMove,
    NewNotification,
    Saved,
    Store,
    Writer,
)
from bot.storage.tournaments import NewTournament, TournamentChanged

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresDatabase


def __getattr__(name: str) -> Any:
    """``PostgresDatabase`` is imported when first asked for: psycopg is loaded only by a
    process that uses PostgreSQL."""
    if name == "PostgresDatabase":
        from bot.storage.postgres import PostgresDatabase  # noqa: PLC0415 - psycopg

        return PostgresDatabase
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MIGRATIONS",
    "NETWORK_GUILD_ID",
    "SCHEMA_VERSION",
    "BoardTheme",
    "Challenge",
    "ChallengeStatus",
    "ChannelId",
    "ChannelTaken",
    "Claim",
    "DailyPuzzlePost",
    "Database",
    "DatabaseTooNew",
    "EndReason",
    "Entrant",
    "Forgotten",
    "Game",
    "GameHome",
    "GameStatus",
    "GuildId",
    "GuildSettings",
    "HomeSeat",
    "LessonAttempt",
    "LessonState",
    "Migration",
    "MigrationError",
    "NetworkBlock",
    "NetworkMember",
    "NetworkServer",
    "NewAttempt",
    "NewChallenge",
    "NewGame",
    "NewHome",
    "NewMove",
    "NewNotification",
    "NewTournament",
    "NotAPlayerId",
    "NotOurDatabase",
    "Notification",
    "PlayerPrefs",
    "PostgresDatabase",
    "PuzzleAttempt",
    "PuzzleRating",
    "RatingRow",
    "RecordedMove",
    "Result",
    "SQLiteDatabase",
    "Saved",
    "Setup",
    "StillPlaying",
    "StorageError",
    "Store",
    "Tournament",
    "TournamentChanged",
    "TournamentFormat",
    "TournamentGame",
    "TournamentStatus",
    "TurnNotices",
    "UserId",
    "VersionConflict",
    "Writer",
    "is_placeholder",
    "is_postgres",
    "open_database",
]
