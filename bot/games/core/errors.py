"""Errors that players read, raised by the game service: their base, and those of any game.

Each feature's own refusals are in its package's ``errors`` module (the lobby's in
:mod:`bot.games.lobby.errors`, and so on); they all derive from :class:`ServiceError`. The
refusals of challenges are here, at the end: the lobby's and the network's challenges share
them.

The pattern is the rules' (:mod:`rules.errors`): each error carries data (``NotYourTurn`` knows
the game, the user and whose turn it is), a stable message-catalogue ``key`` and the ``params``
that fill its message, and ``str(error)`` is the English default. The Discord layer looks the
key up in the player's language with the same params (the bot's one error handler does that
for the service's errors and the rules' alike).

Rules errors (:class:`rules.InvalidMoveError`, :class:`rules.IllegalMoveError`) are not wrapped:
the service lets them through unchanged.

A few English defaults mention a channel as ``<#id>``, Discord's channel link: these messages
are shown on Discord, and the catalogues may spell them as they like from the same params.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar


class ServiceError(Exception):
    """Base of the service's errors; ``str()`` is the English message for the player."""

    key: ClassVar[str]
    """The message-catalogue key, e.g. ``"game.not_your_turn"``."""
    template: ClassVar[str]
    """The English message, filled from :attr:`params` with :meth:`str.format`."""
    params: Mapping[str, Any]

    def __init__(self, **params: Any) -> None:
        self.params = MappingProxyType(dict(params))
        super().__init__(self.template.format(**{k: str(v) for k, v in params.items()}))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


class GameError(ServiceError):
    """An error about one game."""

    game_id: int


class GameNotFound(GameError):
    key = "game.not_found"
    template = "There is no game number {game_id}."

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class NotAPlayer(GameError):
    """Someone who does not play in the game tried to act in it."""

    key = "game.not_a_player"
    template = "You are not playing in this game: only its two players can do that."

    def __init__(self, game_id: int, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(game_id=game_id, user_id=user_id)


class GameFinished(GameError):
    """The game has ended (finished or aborted): nothing more can be played in it."""

    key = "game.finished"
    template = "This game is over: no more moves can be made in it."

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class GameChanged(GameError):
    """The game moved on between reading it and writing to it (a stale version)."""

    key = "game.changed"
    template = (
        "The game changed while your action was on its way (a move was played or the game "
        "ended): look at the board again, and try again if it still makes sense."
    )

    def __init__(self, game_id: int, expected_version: int) -> None:
        self.game_id = game_id
        self.expected_version = expected_version
        super().__init__(game_id=game_id, expected_version=expected_version)


class PlyOutOfRange(GameError):
    key = "game.ply_out_of_range"
    template = "This game has positions 0 to {last_ply}; there is no position {ply}."

    def __init__(self, game_id: int, ply: int, last_ply: int) -> None:
        self.game_id = game_id
        self.ply = ply
        self.last_ply = last_ply
        super().__init__(game_id=game_id, ply=ply, last_ply=last_ply)


class DeadlinePassed(GameError):
    """A player acted in a game whose player to move had let the deadline pass: the game was
    lost on time (by the action's own transaction, or by the housekeeping pass just before),
    and the action was not done. Its subclass says it to the loser or to the winner."""

    announcements: tuple[int, ...]
    """What ending the game wrote in the outbox, for the caller to post now (empty when the
    housekeeping pass ended it, and posts it)."""

    def __init__(
        self, game_id: int, user_id: int, deadline: datetime, announcements: tuple[int, ...] = ()
    ) -> None:
        self.game_id = game_id
        self.user_id = user_id
        self.deadline = deadline
        self.announcements = announcements
        # Discord's timestamp: each reader sees the moment in their own time zone.
        super().__init__(
            game_id=game_id, user_id=user_id, deadline=f"<t:{int(deadline.timestamp())}:f>"
        )

    @staticmethod
    def told_to(
        user_id: int,
        loser_id: int | None,
        game_id: int,
        deadline: datetime,
        announcements: tuple[int, ...] = (),
    ) -> DeadlinePassed:
        """The refusal for ``user_id`` of a game that ``loser_id`` lost on time."""
        kind = LostOnTime if user_id == loser_id else WonOnTime
        return kind(game_id, user_id, deadline, announcements)


class LostOnTime(DeadlinePassed):
    """The player whose deadline passed acted after it."""

    key = "game.lost_on_time"
    template = (
        "Your time to move ran out at {deadline}, so you lost this game on time: "
        "this came too late to count."
    )


class WonOnTime(DeadlinePassed):
    """The opponent of the player whose deadline passed acted after it."""

    key = "game.won_on_time"
    template = (
        "Your opponent's time to move ran out at {deadline}, so you won this game on time: "
        "this came too late to count."
    )


class NoGameHere(ServiceError):
    key = "channel.no_game"
    template = "No game is being played here."

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(channel_id=channel_id)


# --- challenges (the lobby's and the network's) ------------------------------------------------


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
