"""SQLite storage for challenges, games and their moves (aiosqlite, one file, WAL).

* :class:`Database` opens the file: pragmas on every connection, migrations, transactions.
* :class:`Store` holds every SQL statement: reads, and :class:`Writer` for transactional writes.
* :mod:`bot.storage.models` are the values read and written.

Nothing here knows of Discord: ids are opaque integers.
"""

from bot.storage.database import Database
from bot.storage.errors import (
    DatabaseTooNew,
    MigrationError,
    NotOurDatabase,
    StorageError,
    VersionConflict,
)
from bot.storage.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
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
)
from bot.storage.store import (
    NewChallenge,
    NewGame,
    NewMove,
    NewNotification,
    Saved,
    Store,
    Writer,
)

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Challenge",
    "ChallengeStatus",
    "ChannelId",
    "Claim",
    "Database",
    "DatabaseTooNew",
    "EndReason",
    "Game",
    "GameStatus",
    "GuildId",
    "GuildSettings",
    "Migration",
    "MigrationError",
    "NewChallenge",
    "NewGame",
    "NewMove",
    "NewNotification",
    "NotOurDatabase",
    "Notification",
    "PlayerPrefs",
    "RatingRow",
    "RecordedMove",
    "Result",
    "Saved",
    "StorageError",
    "Store",
    "UserId",
    "VersionConflict",
    "Writer",
]
