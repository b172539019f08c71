"""Turn notices and the daily digest: how the bot tells a player it is their turn.

A player chooses (``/dvonn notify``) between a ping on every turn (the default), one DM a day
at an hour of their own listing every game where it is their turn, or nothing. Deadline
reminders (:mod:`bot.games.core.clocks`) come whatever they choose.

Discord tells a bot no user's time zone, so the player names theirs once: an IANA name
(``Europe/Warsaw``: its daylight saving time is followed), ``UTC``, or a fixed offset
(``UTC+05:30``). The hour is a whole hour of that zone's clock.

The next digest's due time is stored (``PlayerPrefs.next_digest_at``). The housekeeping pass
finds the players due, and for each, under the player's row lock, queues the digest in the
outbox and moves the due time on, in one transaction: however many processes run the pass, a
due time makes one digest. The next is the first time at the player's hour that is still to
come *and* on a later day of the player's calendar than the last digest: at most one a day,
even when the player moves their hour, and one (not one a day missed) after the bot was down.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Final

from bot.games.core.parts import UseCases
from bot.games.notices.announcements import DIGEST
from bot.games.notices.errors import (
    DigestNeedsHour,
    DigestNeedsTimeZone,
    InvalidDigestHour,
    UnknownTimeZone,
)
from bot.storage import NewNotification, PlayerPrefs, TurnNotices, UserId

log = logging.getLogger(__name__)

HOURS: Final = range(24)
"""The hours a digest may come at, of the player's own clock."""
_OFFSET: Final = re.compile(r"^(?:UTC|GMT)?([+\-−])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_UTC_NAMES: Final = frozenset({"utc", "gmt", "z", "zulu", "etc/utc", "etc/gmt", "universal"})


@dataclass(frozen=True, slots=True)
class TimeZone:
    """A player's time zone: the name they chose, as stored, and its rules."""

    name: str
    """``Europe/Warsaw``, ``UTC`` or ``UTC+05:30``."""
    zone: tzinfo


@functools.lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """The IANA zones a player may choose: the places (``Area/City``), without the aliases
    kept for old software (``US/Eastern``, ``EST5EDT``, ``Etc/GMT+5``), then ``UTC``."""
    places = (
        name
        for name in zoneinfo.available_timezones()
        if "/" in name
        and name.split("/")[0]
        in {
            "Africa",
            "America",
            "Antarctica",
            "Asia",
            "Atlantic",
            "Australia",
            "Europe",
            "Indian",
            "Pacific",
        }
    )
    return (*sorted(places), "UTC")


def time_zone(text: str) -> TimeZone:
    """The time zone ``text`` names: an IANA zone (any case), ``UTC``/``GMT``, or an offset
    from UTC (``UTC+2``, ``+05:30``, ``GMT-3``). Raises :class:`UnknownTimeZone`."""
    given = text.strip()
    if given.lower() in _UTC_NAMES:
        return TimeZone("UTC", UTC)
    offset = _OFFSET.match(given.replace(" ", ""))
    if offset is not None:
        sign = -1 if offset.group(1) in "-−" else 1
        hours, minutes = int(offset.group(2)), int(offset.group(3) or 0)
        if minutes < 60 and (hours, minutes) <= (14, 0):
            amount = timedelta(hours=hours, minutes=minutes)
            if not amount:
                return TimeZone("UTC", UTC)
            name = f"UTC{'+' if sign > 0 else '-'}{hours:02d}:{minutes:02d}"
            return TimeZone(name, timezone(sign * amount, name))
        raise UnknownTimeZone(text)
    canonical = _by_lower_name().get(given.lower().replace(" ", "_"))
    if canonical is None:
        raise UnknownTimeZone(text)
    return TimeZone(canonical, zoneinfo.ZoneInfo(canonical))


@functools.lru_cache(maxsize=1)
def _by_lower_name() -> dict[str, str]:
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def next_digest(now: datetime, hour: int, zone: tzinfo, last: datetime | None = None) -> datetime:
    """When the next digest is due (in UTC): the first time after ``now`` at ``hour`` of
    ``zone``'s clock, on a later day of that clock than ``last`` (the last digest's).

    An hour that a change to summer time skips on some day comes an hour later that day (as
    ``zoneinfo`` reads a time in the gap); an hour that the change back repeats comes once,
    the first time."""
    day = now.astimezone(zone).date()
    if last is not None:
        day = max(day, last.astimezone(zone).date() + timedelta(days=1))
    while True:
        due = _at(day, hour, zone)
        if due > now:
            return due
        day += timedelta(days=1)


def _at(day: date, hour: int, zone: tzinfo) -> datetime:
    """``hour`` o'clock on ``day`` of ``zone``'s clock, in UTC."""
    local = datetime.combine(day, time(hour), tzinfo=zone)
    return local.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class TurnNoticesChosen:
    """What a player chose, as it now stands."""

    prefs: PlayerPrefs

    @property
    def next_digest_at(self) -> datetime | None:
        return self.prefs.next_digest_at


@dataclass(frozen=True, slots=True)
class DigestQueued:
    """A digest written to the outbox for its player."""

    user_id: UserId
    game_ids: tuple[int, ...]
    announcement: int


@dataclass(frozen=True, slots=True)
class DigestsQueued:
    """What the housekeeping pass's digest job did."""

    digests: tuple[DigestQueued, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return tuple(digest.announcement for digest in self.digests)


class Digests(UseCases):
    """Turn notices and the daily digest's use cases, over the store."""

    async def choose(
        self,
        user_id: UserId,
        *,
        turns: TurnNotices | None = None,
        hour: int | None = None,
        zone: str | None = None,
        reminders: bool | None = None,
    ) -> TurnNoticesChosen:
        """Change what is given (``None``: leave it): how the player hears of their turns,
        the digest's hour and time zone (kept for later even while turns are pinged), and
        deadline reminders on or off. Raises :class:`InvalidDigestHour`,
        :class:`UnknownTimeZone`, or, for a digest without an hour or a time zone given now
        or before, :class:`DigestNeedsHour` / :class:`DigestNeedsTimeZone`."""
        if hour is not None and hour not in HOURS:
            raise InvalidDigestHour(hour)
        named = None if zone is None else time_zone(zone)
        if turns is None and hour is None and named is None and reminders is None:
            return TurnNoticesChosen(await self._store.prefs(user_id))  # only what stands
        now = self._now()
        async with self._store.write() as tx:
            await tx.ensure_players([user_id], now)
            prefs = await tx.prefs(user_id)
            changed = dataclasses.replace(
                prefs,
                turns=prefs.turns if turns is None else turns,
                digest_hour=prefs.digest_hour if hour is None else hour,
                time_zone=prefs.time_zone if named is None else named.name,
            )
            if changed.turns is TurnNotices.DIGEST:
                if changed.digest_hour is None:
                    raise DigestNeedsHour()
                if changed.time_zone is None:
                    raise DigestNeedsTimeZone()
                changed = dataclasses.replace(
                    changed,
                    next_digest_at=next_digest(
                        now,
                        changed.digest_hour,
                        time_zone(changed.time_zone).zone,
                        prefs.last_digest_at,
                    ),
                )
            else:
                changed = dataclasses.replace(changed, next_digest_at=None)
            await tx.save_turn_notices(changed)
            if reminders is not None:
                await tx.save_notify(user_id, reminders)
                changed = dataclasses.replace(changed, notify=reminders)
        return TurnNoticesChosen(changed)

    async def queue_digests(self) -> DigestsQueued:
        """The housekeeping pass's job: :meth:`queue_due`."""
        return DigestsQueued(tuple(await self.queue_due()))

    async def queue_due(self) -> list[DigestQueued]:
        """Queue the digest of every player whose digest is due, listing the games where it is
        their turn (none: no digest, nor on vacation), and set when the next is due."""
        now = self._now()
        queued: list[DigestQueued] = []
        for user_id in await self._store.digests_due(now):
            # Read without locks before the player's row is: a move's transaction may hold a
            # game and want nothing of the player; the post checks each game again.
            waiting = [
                g.id for g in await self._store.active_games_of(user_id) if g.to_move_id == user_id
            ]
            async with self._store.write() as tx:
                prefs = await tx.prefs(user_id)
                due = prefs.next_digest_at
                if (
                    prefs.turns is not TurnNotices.DIGEST
                    or due is None
                    or due > now
                    or prefs.digest_hour is None
                    or prefs.time_zone is None
                ):
                    continue  # queued by another process, or the player changed their mind
                zone = time_zone(prefs.time_zone).zone
                await tx.mark_digested(user_id, now, next_digest(now, prefs.digest_hour, zone, now))
                if not waiting or prefs.on_vacation(now):
                    continue
                digest = NewNotification(
                    DIGEST,
                    user_id=user_id,
                    payload={"games": waiting, "due": due.isoformat()},
                )
                notice = await tx.enqueue(digest, now, self._outbox.claim())
            queued.append(DigestQueued(user_id, tuple(waiting), notice))
        if queued:
            log.info("queued %d daily digests", len(queued))
        return queued
