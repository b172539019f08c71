"""The time zones ``/dvonn notify``'s autocomplete offers, each with its time now, so a player
picks theirs by their own clock and cannot mistake it (Discord tells a bot no time zone).

Nothing typed yet: the zones of the player's Discord language first (Warsaw for Polish), then
one great city for each offset from UTC around the world. Something typed: the zones whose
name holds it (``york``, ``new york``, ``Europe/``), the cities starting with it first, or the
offset it spells (``UTC+5:30``).
"""

from __future__ import annotations

import contextlib
from datetime import datetime, timedelta
from typing import Final

from bot.games.notices.digests import time_zone, zone_names
from bot.games.notices.errors import UnknownTimeZone

MAX_CHOICES: Final = 25
"""Discord's limit for autocomplete answers."""

BY_LOCALE: Final[dict[str, tuple[str, ...]]] = {
    "pl": ("Europe/Warsaw",),
    "ru": (
        "Europe/Moscow",
        "Europe/Samara",
        "Asia/Yekaterinburg",
        "Asia/Novosibirsk",
        "Asia/Krasnoyarsk",
        "Asia/Irkutsk",
        "Asia/Vladivostok",
        "Europe/Kaliningrad",
    ),
    "ko": ("Asia/Seoul",),
    "fr": ("Europe/Paris", "Europe/Brussels", "Europe/Zurich", "America/Toronto"),
    "en-US": (
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Phoenix",
        "America/Los_Angeles",
        "America/Anchorage",
        "Pacific/Honolulu",
    ),
    "en-GB": ("Europe/London", "Europe/Dublin"),
}
"""The zones a Discord language suggests first."""

AROUND_THE_WORLD: Final = (
    "Pacific/Honolulu",
    "America/Anchorage",
    "America/Los_Angeles",
    "America/Denver",
    "America/Chicago",
    "America/New_York",
    "America/Halifax",
    "America/Sao_Paulo",
    "Atlantic/Azores",
    "Europe/London",
    "Europe/Paris",
    "Europe/Athens",
    "Europe/Moscow",
    "Asia/Dubai",
    "Asia/Karachi",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Asia/Dhaka",
    "Asia/Bangkok",
    "Asia/Shanghai",
    "Asia/Seoul",
    "Australia/Adelaide",
    "Australia/Sydney",
    "Pacific/Auckland",
)
"""One city for each of the world's common offsets, west to east."""


def suggest(typed: str, now: datetime, locale: str | None = None) -> list[str]:
    """The zones to offer for ``typed`` (at most :data:`MAX_CHOICES`), best first."""
    words = typed.strip()
    if not words:
        first = [*BY_LOCALE.get(locale or "", ()), "UTC"]
        rest = sorted(
            (z for z in AROUND_THE_WORLD if z not in first), key=lambda z: _offset(z, now)
        )
        return [*first, *rest][:MAX_CHOICES]
    found: list[str] = []
    with contextlib.suppress(UnknownTimeZone):
        found.append(time_zone(words).name)  # an exact name, UTC or an offset
    key = _key(words)
    names = [z for z in zone_names() if z not in found]
    cities = [z for z in names if _key(z.rsplit("/", 1)[-1]).startswith(key)]
    within = [z for z in names if key in _key(z) and z not in cities]
    return [*found, *cities, *within][:MAX_CHOICES]


def label(zone: str, now: datetime) -> str:
    """``Europe/Warsaw · 14:05``: the zone and its clock now (24-hour, so never misread)."""
    local = now.astimezone(time_zone(zone).zone)
    return f"{zone} · {local:%H:%M}"


def _key(text: str) -> str:
    return text.lower().replace("_", " ")


def _offset(zone: str, now: datetime) -> timedelta:
    return now.astimezone(time_zone(zone).zone).utcoffset() or timedelta(0)
