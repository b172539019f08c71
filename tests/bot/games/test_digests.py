"""Turn notices and the daily digest, in the service: when a digest is due (in the player's own
time zone, through daylight saving time), what each pass queues, and once only however many
processes sweep. The clock is moved by hand."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

import rules
from bot.games.notices.digests import next_digest, time_zone
from bot.games.notices.errors import (
    DigestNeedsHour,
    DigestNeedsTimeZone,
    InvalidDigestHour,
    UnknownTimeZone,
)
from bot.games.service import GameService
from bot.storage import Store, open_database
from bot.storage.models import TurnNotices
from tests.bot.clock import ManualClock
from tests.bot.games.test_clocks_takebacks_ratings import pending
from tests.bot.games.test_service import ALICE, BOB, CAROL, start_game

WARSAW = ZoneInfo("Europe/Warsaw")


def utc(*fields: int) -> datetime:
    """A moment in UTC: ``utc(2025, 1, 2, 8)`` (year, month, day, hour[, minute[, second]])."""
    year, month, day, hour, minute, second = (*fields, 0, 0)[:6]
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC)


# --- when it is due ----------------------------------------------------------------------------


def test_the_next_digest_is_the_players_hour_on_their_own_clock() -> None:
    # 12:00 UTC is 13:00 in Warsaw in January: 08:00 today has passed, 20:00 has not.
    now = utc(2025, 1, 1, 12)
    assert next_digest(now, 8, WARSAW) == utc(2025, 1, 2, 7)
    assert next_digest(now, 20, WARSAW) == utc(2025, 1, 1, 19)
    assert next_digest(now, 13, WARSAW) == utc(2025, 1, 2, 12)  # exactly now: tomorrow
    # In Seoul (UTC+9, no summer time) it is already 21:00 on the same day.
    assert next_digest(now, 22, ZoneInfo("Asia/Seoul")) == utc(2025, 1, 1, 13)


def test_summer_time_moves_the_digest_with_the_players_clock() -> None:
    # Warsaw is UTC+1 in winter, UTC+2 in summer (from 30 March 2025, 02:00).
    assert next_digest(utc(2025, 3, 29, 12), 8, WARSAW) == utc(2025, 3, 30, 6)
    assert next_digest(utc(2025, 3, 28, 12), 8, WARSAW) == utc(2025, 3, 29, 7)
    # 02:00 does not exist on 30 March: it comes an hour later by the clock (03:00 = 01:00 UTC).
    assert next_digest(utc(2025, 3, 29, 23), 2, WARSAW) == utc(2025, 3, 30, 1)
    # 02:00 comes twice on 26 October: the digest comes once, the first time.
    due = next_digest(utc(2025, 10, 25, 23), 2, WARSAW)
    assert due == utc(2025, 10, 26, 0)
    assert next_digest(due, 2, WARSAW, due) == utc(2025, 10, 27, 1)


def test_at_most_one_digest_a_day_of_the_players_calendar() -> None:
    last = utc(2025, 1, 1, 7)  # 08:00 in Warsaw
    # Moved to 20:00 the same day, after the morning's digest: the next is tomorrow evening.
    assert next_digest(utc(2025, 1, 1, 9), 20, WARSAW, last) == utc(2025, 1, 2, 19)
    # The bot was down for three days: one digest when it is back, the next the day after.
    assert next_digest(utc(2025, 1, 4, 10), 8, WARSAW, last) == utc(2025, 1, 5, 7)


@pytest.mark.parametrize(
    ("text", "name", "offset"),
    [
        ("Europe/Warsaw", "Europe/Warsaw", timedelta(hours=1)),
        ("europe/warsaw", "Europe/Warsaw", timedelta(hours=1)),
        ("America/New York", "America/New_York", timedelta(hours=-5)),
        ("utc", "UTC", timedelta(0)),
        ("GMT", "UTC", timedelta(0)),
        ("UTC+2", "UTC+02:00", timedelta(hours=2)),
        ("UTC+05:30", "UTC+05:30", timedelta(hours=5, minutes=30)),
        ("+0545", "UTC+05:45", timedelta(hours=5, minutes=45)),
        ("GMT-3", "UTC-03:00", timedelta(hours=-3)),
        ("UTC−4", "UTC-04:00", timedelta(hours=-4)),
        ("UTC+0", "UTC", timedelta(0)),
    ],
)
def test_a_time_zone_is_an_iana_name_utc_or_an_offset(
    text: str, name: str, offset: timedelta
) -> None:
    zone = time_zone(text)
    assert zone.name == name
    assert zone.zone.utcoffset(datetime(2025, 1, 1)) == offset


@pytest.mark.parametrize("text", ["", "Warsaw", "Mars/Olympus", "UTC+15", "UTC+3:75", "8", "CET+"])
def test_what_is_not_a_time_zone_is_refused(text: str) -> None:
    with pytest.raises(UnknownTimeZone) as refused:
        time_zone(text)
    assert refused.value.params["text"] == text


# --- choosing ----------------------------------------------------------------------------------


async def test_a_digest_needs_an_hour_and_a_time_zone_once(
    service: GameService, clock: ManualClock
) -> None:
    with pytest.raises(DigestNeedsHour):
        await service.digests.choose(ALICE, turns=TurnNotices.DIGEST, zone="Europe/Warsaw")
    with pytest.raises(DigestNeedsTimeZone):
        await service.digests.choose(ALICE, turns=TurnNotices.DIGEST, hour=8)
    with pytest.raises(InvalidDigestHour):
        await service.digests.choose(ALICE, hour=24)
    with pytest.raises(UnknownTimeZone):
        await service.digests.choose(ALICE, zone="Atlantis")
    assert (await service.prefs(ALICE)).turns is TurnNotices.PING  # nothing was changed

    chosen = await service.digests.choose(
        ALICE, turns=TurnNotices.DIGEST, hour=8, zone="Europe/Warsaw"
    )
    assert chosen.next_digest_at == utc(2025, 1, 2, 7)
    # Back to pings and then to the digest: the hour and the zone are remembered.
    assert (await service.digests.choose(ALICE, turns=TurnNotices.PING)).next_digest_at is None
    again = await service.digests.choose(ALICE, turns=TurnNotices.DIGEST)
    assert again.next_digest_at == utc(2025, 1, 2, 7)
    later = await service.digests.choose(ALICE, hour=20)
    assert later.next_digest_at == utc(2025, 1, 1, 19)
    prefs = await service.prefs(ALICE)
    assert (prefs.turns, prefs.digest_hour, prefs.time_zone) == (
        TurnNotices.DIGEST,
        20,
        "Europe/Warsaw",
    )
    quiet = await service.digests.choose(ALICE, turns=TurnNotices.NONE, reminders=False)
    assert quiet.next_digest_at is None and quiet.prefs.notify is False
    assert (await service.prefs(ALICE)).notify is False


# --- queueing ----------------------------------------------------------------------------------


async def test_a_digest_lists_the_games_where_it_is_the_players_turn_once_a_day(
    service: GameService, clock: ManualClock
) -> None:
    mine = await start_game(service, ALICE, BOB, channel=801, clock_days=3)  # Alice to move
    theirs = await start_game(service, CAROL, ALICE, channel=802, clock_days=3)  # Carol to move
    await service.digests.choose(ALICE, turns=TurnNotices.DIGEST, hour=8, zone="UTC")
    assert (await service.sweep()).digests == ()  # 12:00: not due before tomorrow 08:00
    clock.now = utc(2025, 1, 2, 8)
    (digest,) = (await service.sweep()).digests
    assert (digest.user_id, digest.game_ids) == (ALICE, (mine.id,))
    assert await pending(service, "digest") == [
        {"user": ALICE, "game": None, "games": [mine.id], "due": "2025-01-02T08:00:00+00:00"}
    ]
    assert (await service.sweep()).digests == ()
    assert (await service.prefs(ALICE)).next_digest_at == utc(2025, 1, 3, 8)

    # Carol moves: now both games wait for Alice; the next morning's digest lists both.
    await service.play(theirs.id, CAROL, rules.CELL_NAMES[0])
    clock.now = utc(2025, 1, 3, 8, 0, 30)
    (digest,) = (await service.sweep()).digests
    assert sorted(digest.game_ids) == sorted([mine.id, theirs.id])


async def test_no_digest_without_a_game_to_play_or_on_vacation(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, BOB, ALICE, channel=803, clock_days=3)  # Bob to move
    await service.digests.choose(ALICE, turns=TurnNotices.DIGEST, hour=13, zone="UTC")
    clock.now = utc(2025, 1, 1, 13)
    assert (await service.sweep()).digests == ()  # nothing waits for Alice
    assert (await service.prefs(ALICE)).next_digest_at == utc(2025, 1, 2, 13)
    await service.play(game.id, BOB, rules.CELL_NAMES[0])
    await service.clocks.start_vacation(ALICE, 2)
    clock.now = utc(2025, 1, 2, 13)
    assert (await service.sweep()).digests == ()  # on vacation
    clock.now = utc(2025, 1, 4, 13)
    (digest,) = (await service.sweep()).digests
    assert digest.game_ids == (game.id,)
    assert await pending(service, "digest") != []


@pytest.fixture
async def other(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database, on the same clock."""
    service = GameService(Store(await open_database(database_target)), clock=clock)
    yield service
    await service.close()


async def test_two_processes_sweeping_at_once_queue_each_digest_once(
    service: GameService, other: GameService, clock: ManualClock
) -> None:
    players = [ALICE, CAROL, 61, 62, 63]
    for number, player in enumerate(players):
        await start_game(service, player, BOB + 100 + number, channel=810 + number)
        await service.digests.choose(player, turns=TurnNotices.DIGEST, hour=9, zone="UTC")
    clock.now = utc(2025, 1, 2, 9, 1)
    for _day in range(2):
        sweeps = await asyncio.gather(service.sweep(), other.sweep(), service.sweep())
        queued = sorted(d.user_id for s in sweeps for d in s.digests)
        assert queued == sorted(players)
        clock.advance(days=1)
    rows = await service.store.db.fetch_all(
        "SELECT user_id, count(*) AS n FROM notifications WHERE kind = 'digest' GROUP BY user_id"
    )
    assert {row["user_id"]: row["n"] for row in rows} == dict.fromkeys(players, 2)
