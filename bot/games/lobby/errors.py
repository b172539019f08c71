"""The lobby's refusals: challenges made, answered and closed, the channels games start in, and
rematches (the pattern of every service error: :mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


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


class ChallengeError(ServiceError):
    """An error about making or answering a challenge."""


class InvalidClock(ChallengeError):
    key = "challenge.invalid_clock"
    template = (
        "{days} days per move is not a clock you can choose: pick {choices} days per move, "
        "or no clock."
    )

    def __init__(self, days: int, choices: tuple[int, ...]) -> None:
        self.days = days
        self.choices = choices
        super().__init__(days=days, choices=", ".join(map(str, choices)))


class InvalidTimeControl(ChallengeError):
    key = "challenge.invalid_time_control"
    template = (
        "That clock ({clock}) is not one you can choose: pick one from the list (days per "
        "move, or one of the time banks), or no clock."
    )

    def __init__(self, clock: str) -> None:
        self.clock = clock
        super().__init__(clock=clock)


class SelfChallenge(ChallengeError):
    key = "challenge.self"
    template = (
        "You cannot challenge yourself: name another player, or leave the opponent out to "
        "challenge anyone here."
    )

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)


class ChallengeNotFound(ChallengeError):
    key = "challenge.not_found"
    template = "That challenge does not exist (any more)."

    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(challenge_id=challenge_id)


class ChallengeNotForYou(ChallengeError):
    key = "challenge.not_for_you"
    template = "This challenge was made to another player, not to you."

    def __init__(self, challenge_id: int, user_id: int, opponent_id: int) -> None:
        self.challenge_id = challenge_id
        self.user_id = user_id
        self.opponent_id = opponent_id
        super().__init__(challenge_id=challenge_id, user_id=user_id, opponent_id=opponent_id)


class OwnChallenge(ChallengeError):
    """The challenger tried to accept (or decline) their own challenge."""

    key = "challenge.own"
    template = (
        "This is your own challenge: wait for someone to accept it, or cancel it if you "
        "changed your mind."
    )

    def __init__(self, challenge_id: int, user_id: int) -> None:
        self.challenge_id = challenge_id
        self.user_id = user_id
        super().__init__(challenge_id=challenge_id, user_id=user_id)


class NotYourChallenge(ChallengeError):
    """Someone other than the challenger tried to cancel a challenge."""

    key = "challenge.not_yours"
    template = "Only the player who made this challenge can cancel it."

    def __init__(self, challenge_id: int, user_id: int) -> None:
        self.challenge_id = challenge_id
        self.user_id = user_id
        super().__init__(challenge_id=challenge_id, user_id=user_id)


class OpenChallengeNotDeclinable(ChallengeError):
    key = "challenge.open_not_declinable"
    template = "This challenge is open to everyone, so there is nothing to decline: just leave it."

    def __init__(self, challenge_id: int, user_id: int) -> None:
        self.challenge_id = challenge_id
        self.user_id = user_id
        super().__init__(challenge_id=challenge_id, user_id=user_id)


class ChallengeClosed(ChallengeError):
    """The challenge is no longer open; the subclass says why."""

    def __init__(self, challenge_id: int) -> None:
        self.challenge_id = challenge_id
        super().__init__(challenge_id=challenge_id)


class ChallengeAlreadyAccepted(ChallengeClosed):
    key = "challenge.accepted"
    template = "This challenge has already been accepted."


class ChallengeDeclined(ChallengeClosed):
    key = "challenge.declined"
    template = "This challenge was declined."


class ChallengeCancelled(ChallengeClosed):
    key = "challenge.cancelled"
    template = "This challenge was cancelled by the player who made it."


class ChallengeExpired(ChallengeClosed):
    key = "challenge.expired"
    template = "This challenge has expired: make a new one to play."


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
