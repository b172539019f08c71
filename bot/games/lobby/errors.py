"""The lobby's refusals: the channels games start in and rematches (the pattern of every service
error: :mod:`bot.games.core.errors`); and, named here as they always were, the core's refusals of
challenges made, answered and closed (the network's challenges make them too)."""

from __future__ import annotations

from bot.games.core.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeClosed,
    ChallengeDeclined,
    ChallengeError,
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    InvalidClock,
    InvalidTimeControl,
    NotYourChallenge,
    OpenChallengeNotDeclinable,
    OwnChallenge,
    SelfChallenge,
    ServiceError,
)

# The challenges' refusals are the core's (the network's challenges make them too), named here
# too, as they always were.
__all__ = [
    "ChallengeAlreadyAccepted",
    "ChallengeCancelled",
    "ChallengeClosed",
    "ChallengeDeclined",
    "ChallengeError",
    "ChallengeExpired",
    "ChallengeNotForYou",
    "ChallengeNotFound",
    "ChannelBusy",
    "ChannelNotAllowed",
    "InvalidClock",
    "InvalidTimeControl",
    "NotYourChallenge",
    "OpenChallengeNotDeclinable",
    "OwnChallenge",
    "RematchAlreadyOffered",
    "RematchError",
    "RematchOfAbortedGame",
    "RematchOfFormerPlayer",
    "RematchOfTournamentGame",
    "RematchOfferedToYou",
    "RematchPlayed",
    "RematchRefused",
    "RematchTooEarly",
    "SelfChallenge",
]


class ChannelBusy(ServiceError):
    """A channel or thread already has its one running game."""

    key = "channel.busy"
    template = (
        "A game is already being played in <#{channel_id}> (game {game_id}): finish it first, "
        "or play in another channel or thread."
    )

    def __init__(self, game_id: int, channel_id: int) -> None:
        self.game_id = game_id
        self.channel_id = channel_id
        super().__init__(game_id=game_id, channel_id=channel_id)


class ChannelNotAllowed(ServiceError):
    """The server lets the bot play only in some channels, and this is not one of them."""

    key = "channel.not_allowed"
    template = "DVONN is played in {channels} on this server: start your game there."

    def __init__(self, channel_id: int, allowed: tuple[int, ...]) -> None:
        self.channel_id = channel_id
        self.allowed = allowed
        channels = ", ".join(f"<#{c}>" for c in allowed)
        super().__init__(channel_id=channel_id, channels=channels)


class RematchError(ServiceError):
    """Why a game has no (new) rematch."""

    game_id: int


class RematchTooEarly(RematchError):
    key = "rematch.too_early"
    template = "Game #{game_id} is still being played: a rematch comes after its end."

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class RematchOfAbortedGame(RematchError):
    key = "rematch.aborted"
    template = (
        "Game #{game_id} was called off, so it has no rematch: challenge again with "
        "/dvonn challenge."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class RematchOfTournamentGame(RematchError):
    key = "rematch.tournament"
    template = (
        "Game #{game_id} is a tournament's game: its tournament pairs the players, so it has no "
        "rematch."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class RematchOfFormerPlayer(RematchError):
    """The opponent has since had their data deleted by the operator (``python -m bot forget``):
    nobody is left to accept."""

    key = "rematch.former_player"
    template = (
        "Your opponent in game #{game_id} has left the bot, so it has no rematch: challenge "
        "someone with /dvonn challenge."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class RematchAlreadyOffered(RematchError):
    """The player who offered the rematch asks again while it waits for an answer."""

    key = "rematch.already_offered"
    template = (
        "You have offered a rematch of game #{game_id} already: it waits for your opponent's "
        "answer."
    )

    def __init__(self, game_id: int, challenge_id: int) -> None:
        self.game_id = game_id
        self.challenge_id = challenge_id
        super().__init__(game_id=game_id, challenge_id=challenge_id)


class RematchOfferedToYou(RematchError):
    """The other player asks while the rematch offered to them waits for their answer."""

    key = "rematch.offered_to_you"
    template = (
        "Your opponent has offered you a rematch of game #{game_id} already: accept or decline "
        "it under its challenge."
    )

    def __init__(self, game_id: int, challenge_id: int) -> None:
        self.game_id = game_id
        self.challenge_id = challenge_id
        super().__init__(game_id=game_id, challenge_id=challenge_id)


class RematchPlayed(RematchError):
    """The rematch began already."""

    key = "rematch.played"
    template = "Game #{game_id} has had its rematch already: game #{rematch_id}, in <#{channel}>."

    def __init__(self, game_id: int, rematch_id: int, channel: int) -> None:
        self.game_id = game_id
        self.rematch_id = rematch_id
        super().__init__(game_id=game_id, rematch_id=rematch_id, channel=channel)


class RematchRefused(RematchError):
    """The rematch offered was declined or let expire: a game has one."""

    key = "rematch.refused"
    template = (
        "A rematch of game #{game_id} was offered already and not taken up: challenge again "
        "with /dvonn challenge."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)
