"""The storage's values that the rest of the bot sees, from here.

The Discord layer reaches data only through the game service and never imports the storage
(tests/test_layers.py): the games, challenges, settings and rows it is handed are these, defined
in :mod:`bot.storage.models` and named here for it.
"""

from bot.storage.models import (
    BoardTheme,
    Challenge,
    ChallengeStatus,
    DailyPuzzlePost,
    EndReason,
    Game,
    GameHome,
    GameStatus,
    GuildSettings,
    HomeSeat,
    LessonAttempt,
    LessonState,
    NetworkMember,
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
)

__all__ = [
    "BoardTheme",
    "Challenge",
    "ChallengeStatus",
    "DailyPuzzlePost",
    "EndReason",
    "Game",
    "GameHome",
    "GameStatus",
    "GuildSettings",
    "HomeSeat",
    "LessonAttempt",
    "LessonState",
    "NetworkMember",
    "Notification",
    "PlayerPrefs",
    "PuzzleAttempt",
    "PuzzleRating",
    "RatingRow",
    "RecordedMove",
    "Result",
    "Setup",
    "Tournament",
    "TournamentFormat",
    "TournamentGame",
    "TournamentStatus",
    "TurnNotices",
]
