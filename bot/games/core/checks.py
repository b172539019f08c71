"""The checks a use case makes on a game before acting in it, in the order players expect; who
runs a tournament (whose games its organisers may call off); and the checks of a challenge (the
lobby's and the network's): a clock that is offered, a challenge still open (and its expiry
recorded when found)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.games.core.clocks import CLOCK_CHOICES
from bot.games.core.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeClosed,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeNotFound,
    GameChanged,
    GameFinished,
    GameNotFound,
    InvalidClock,
    InvalidTimeControl,
    NotAPlayer,
)
from bot.games.core.timecontrol import Bank, DaysPerMove, TimeControl, is_offered
from bot.storage import Challenge, ChallengeStatus, Game, Tournament, UserId, Writer


def check_running(game: Game, expected_version: int | None = None) -> None:
    """Raises :class:`GameFinished` or (at another version than expected) :class:`GameChanged`."""
    if not game.is_active:
        raise GameFinished(game.id)
    if expected_version is not None and expected_version != game.version:
        raise GameChanged(game.id, expected_version)


async def game_for_action(
    load: Callable[[int], Awaitable[Game | None]],
    game_id: int,
    user_id: UserId,
    expected_version: int | None = None,
) -> Game:
    """The game (read with ``load``, in the caller's transaction) a player is about to act
    in: raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`GameFinished`,
    :class:`GameChanged`."""
    game = await load(game_id)
    if game is None:
        raise GameNotFound(game_id)
    if not game.is_player(user_id):
        raise NotAPlayer(game_id, user_id)
    check_running(game, expected_version)
    return game


def runs(tournament: Tournament, by: UserId, *, organiser: bool) -> bool:
    """Whether ``by`` runs ``tournament`` (``organiser``: they may run the server's): a
    players' own tournament is run by whoever made it (and the server's organisers); a
    server's by its organisers."""
    return organiser or (tournament.players_own and tournament.organiser_id == by)


def check_clock(control: TimeControl | None) -> None:
    """Raises :class:`InvalidClock` or :class:`InvalidTimeControl` for a clock not offered."""
    if is_offered(control):
        return
    if isinstance(control, DaysPerMove):
        raise InvalidClock(control.days, CLOCK_CHOICES)
    assert isinstance(control, Bank)
    raise InvalidTimeControl(control.to_text())


async def unexpired_challenge(tx: Writer, challenge_id: int, now: datetime) -> Challenge | None:
    """The challenge, or ``None`` if it has just been found expired (the expiry is recorded:
    the caller lets its transaction commit, then raises :class:`ChallengeExpired`)."""
    challenge = await tx.challenge(challenge_id)
    if challenge is None:
        raise ChallengeNotFound(challenge_id)
    if challenge.status is ChallengeStatus.OPEN and challenge.is_expired(now):
        await tx.close_challenge(challenge_id, ChallengeStatus.EXPIRED, at=now)
        return None
    return challenge


def check_open(challenge: Challenge) -> None:
    """Raises the :class:`ChallengeClosed` that says why a challenge is no longer open."""
    closed: dict[ChallengeStatus, type[ChallengeClosed]] = {
        ChallengeStatus.ACCEPTED: ChallengeAlreadyAccepted,
        ChallengeStatus.DECLINED: ChallengeDeclined,
        ChallengeStatus.CANCELLED: ChallengeCancelled,
        ChallengeStatus.EXPIRED: ChallengeExpired,
    }
    if challenge.status in closed:
        raise closed[challenge.status](challenge.id)
