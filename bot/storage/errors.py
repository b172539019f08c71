"""Errors of the storage layer. They are for operators and for the game service, not players.

The service turns :class:`VersionConflict` into a player-facing error; the others mean the
database cannot be used as it is, and their messages tell an operator what to do.
"""

from __future__ import annotations

from pathlib import Path


class StorageError(Exception):
    """Base of the storage layer's errors."""


class DatabaseTooNew(StorageError):
    """The file was written by a newer version of the bot than this one."""

    def __init__(self, path: Path | str, found: int, supported: int) -> None:
        self.path = str(path)
        self.found = found
        self.supported = supported
        super().__init__(
            f"the database {self.path} has schema version {found}, but this version of "
            f"dvonn-bot knows only versions up to {supported}: it was written by a newer "
            f"dvonn-bot. Upgrade the bot, or point DVONN_DATABASE at another file; "
            f"the file was not changed."
        )


class NotOurDatabase(StorageError):
    """The file is an SQLite database of some other application."""

    def __init__(self, path: Path | str, detail: str) -> None:
        self.path = str(path)
        super().__init__(
            f"{self.path} is not a dvonn-bot database ({detail}); it was not changed. "
            f"Point DVONN_DATABASE at a new or existing dvonn-bot database file."
        )


class MigrationError(StorageError):
    """A migration failed; it was rolled back and the schema stays at the version before it."""

    def __init__(self, version: int, name: str, cause: BaseException) -> None:
        self.version = version
        self.name = name
        super().__init__(f"migration {version} ({name}) failed and was rolled back: {cause}")


class ChannelTaken(StorageError):
    """A game was to start in a channel where another one started meanwhile (the database's
    one-running-game-per-channel index refused it, in a transaction beside the other's)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"channel {channel_id} has a running game already")


class VersionConflict(StorageError):
    """A write was checked against a version of a game that is no longer the current one."""

    def __init__(self, game_id: int, expected_version: int) -> None:
        self.game_id = game_id
        self.expected_version = expected_version
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
