"""The game service: the bot's use cases over the storage, knowing nothing of Discord.

Open it over a database file and call its use cases (the tests do exactly this)::

    service = await GameService.open("data/dvonn.sqlite3")
    challenge = await service.create_challenge(guild_id=1, channel_id=2, challenger_id=3)
    started = await service.accept_challenge(challenge.id, 4)
    outcome = await service.play(started.game.id, started.game.white_id, "E3")

Its parts: :mod:`~bot.games.clocks` (deadlines, reminders, vacations),
:mod:`~bot.games.takebacks`, :mod:`~bot.games.ratings`, :mod:`~bot.games.outbox`; every game
ends through :mod:`~bot.games.endings`. Errors a player can cause are in
:mod:`~bot.games.errors`, results in :mod:`~bot.games.results`.
"""

from bot.games.clocks import CLOCK_CHOICES, VACATION_DAYS_PER_YEAR
from bot.games.errors import (
    AbortTooLate,
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeClosed,
    ChallengeDeclined,
    ChallengeError,
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    ChannelBusy,
    ChannelNotAllowed,
    GameChanged,
    GameError,
    GameFinished,
    GameNotFound,
    InvalidClock,
    NoGameHere,
    NoTakebackRequested,
    NotAPlayer,
    NothingToTakeBack,
    NotYourChallenge,
    NotYourTurn,
    OpenChallengeNotDeclinable,
    OwnChallenge,
    OwnTakeback,
    PlyOutOfRange,
    SelfChallenge,
    ServiceError,
    TakebackPending,
    VacationNotAllowed,
)
from bot.games.results import (
    AbortOutcome,
    GameEnded,
    GameOver,
    GameRecord,
    GameStarted,
    MoveOutcome,
    PlayedMove,
)
from bot.games.service import (
    DEFAULT_CHALLENGE_TTL,
    SERVER_DEFAULT,
    Clock,
    GameService,
    ServerDefault,
    Sweep,
    utc_now,
)
from bot.storage.models import (
    Challenge,
    ChallengeStatus,
    EndReason,
    Game,
    GameStatus,
    GuildSettings,
    RecordedMove,
    Result,
)

__all__ = [
    "CLOCK_CHOICES",
    "DEFAULT_CHALLENGE_TTL",
    "SERVER_DEFAULT",
    "VACATION_DAYS_PER_YEAR",
    "AbortOutcome",
    "AbortTooLate",
    "Challenge",
    "ChallengeAlreadyAccepted",
    "ChallengeCancelled",
    "ChallengeClosed",
    "ChallengeDeclined",
    "ChallengeError",
    "ChallengeExpired",
    "ChallengeNotForYou",
    "ChallengeNotFound",
    "ChallengeStatus",
    "ChannelBusy",
    "ChannelNotAllowed",
    "Clock",
    "EndReason",
    "Game",
    "GameChanged",
    "GameEnded",
    "GameError",
    "GameFinished",
    "GameNotFound",
    "GameOver",
    "GameRecord",
    "GameService",
    "GameStarted",
    "GameStatus",
    "GuildSettings",
    "InvalidClock",
    "MoveOutcome",
    "NoGameHere",
    "NoTakebackRequested",
    "NotAPlayer",
    "NotYourChallenge",
    "NotYourTurn",
    "NothingToTakeBack",
    "OpenChallengeNotDeclinable",
    "OwnChallenge",
    "OwnTakeback",
    "PlayedMove",
    "PlyOutOfRange",
    "RecordedMove",
    "Result",
    "SelfChallenge",
    "ServerDefault",
    "ServiceError",
    "Sweep",
    "TakebackPending",
    "VacationNotAllowed",
    "utc_now",
]
