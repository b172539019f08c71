"""The lobby's checks: a clock that is offered, a challenge still open (and its expiry recorded
when found), a channel free for a new game."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import datetime

from bot.games.core.clocks import CLOCK_CHOICES
from bot.games.core.timecontrol import Bank, DaysPerMove, TimeControl, is_offered
from bot.games.lobby.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeClosed,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeNotFound,
    ChannelBusy,
    InvalidClock,
    InvalidTimeControl,
)
from bot.storage import Challenge, ChallengeStatus, ChannelTaken, Store, Writer


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
    closed: dict[ChallengeStatus, type[ChallengeClosed]] = {
        ChallengeStatus.ACCEPTED: ChallengeAlreadyAccepted,
        ChallengeStatus.DECLINED: ChallengeDeclined,
        ChallengeStatus.CANCELLED: ChallengeCancelled,
        ChallengeStatus.EXPIRED: ChallengeExpired,
    }
    if challenge.status in closed:
        raise closed[challenge.status](challenge.id)


@contextlib.asynccontextmanager
async def channel_taken(store: Store) -> AsyncIterator[None]:
    """Turns the database's refusal of a second running game in a channel, which another
    process's transaction started beside this one's, into the player's error."""
    try:
        yield
    except ChannelTaken as taken:
        busy = await store.active_game_in_channel(taken.channel_id)
        raise ChannelBusy(0 if busy is None else busy.id, taken.channel_id) from None
