"""The time zones /dvonn notify offers while a player types: each with its time now, their
language's zones first, cities before the rest, offsets understood."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.exts.notices import zones
from bot.games.notices.digests import time_zone

NOON = datetime(2025, 7, 1, 12, 0, tzinfo=UTC)


def test_nothing_typed_offers_the_languages_zones_then_the_world_west_to_east() -> None:
    offered = zones.suggest("", NOON, "pl")
    assert offered[:2] == ["Europe/Warsaw", "UTC"]
    rest = offered[2:]
    offsets = [NOON.astimezone(time_zone(z).zone).utcoffset() for z in rest]
    assert offsets == sorted(offsets)  # type: ignore[type-var]
    assert len(offered) <= zones.MAX_CHOICES
    assert zones.suggest("", NOON, "en-US")[:3] == [
        "America/New_York",
        "America/Chicago",
        "America/Denver",
    ]
    assert zones.suggest("", NOON, None)[0] == "UTC"


def test_typed_text_finds_cities_first_then_any_zone_holding_it() -> None:
    assert zones.suggest("new y", NOON)[0] == "America/New_York"
    assert zones.suggest("Europe/Warsaw", NOON)[0] == "Europe/Warsaw"
    found = zones.suggest("york", NOON)
    assert "America/New_York" in found
    # Cities starting with what is typed, before zones that only hold it (Europe/Moscow).
    found = zones.suggest("mo", NOON)
    starts = [z.rsplit("/", 1)[-1].lower().startswith("mo") for z in found]
    assert "Europe/Moscow" in found and "America/Edmonton" in found
    assert starts == sorted(starts, reverse=True)
    assert all(len(zones.suggest(t, NOON)) <= zones.MAX_CHOICES for t in ("a", "e", "/"))
    assert zones.suggest("UTC+5:30", NOON)[0] == "UTC+05:30"
    assert zones.suggest("nowhere at all", NOON) == []


def test_each_zone_is_labelled_with_its_time_now_on_a_24_hour_clock() -> None:
    assert zones.label("Europe/Warsaw", NOON) == "Europe/Warsaw · 14:00"  # summer time
    assert zones.label("America/Los_Angeles", NOON) == "America/Los_Angeles · 05:00"
    assert zones.label("UTC+05:30", NOON) == "UTC+05:30 · 17:30"
