"""Refusals of a player's choice of turn notices: the daily digest's hour and time zone (the
pattern of every service error: :mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


class UnknownTimeZone(ServiceError):
    key = "digest.unknown_time_zone"
    template = (
        'I do not know the time zone "{text}": start typing your city or region in the '
        "`timezone` option (Europe/Warsaw, America/New_York, Asia/Seoul) and pick it from the "
        "list, or give UTC or an offset such as UTC+05:30."
    )

    def __init__(self, text: str) -> None:
        super().__init__(text=text)


class InvalidDigestHour(ServiceError):
    key = "digest.invalid_hour"
    template = "There is no hour {hour} in a day: pick one from 00:00 to 23:00."

    def __init__(self, hour: int) -> None:
        super().__init__(hour=hour)


class DigestNeedsHour(ServiceError):
    key = "digest.needs_hour"
    template = (
        "At what hour should the daily digest come? Choose it with the `hour` option "
        "(00:00 to 23:00, your own time)."
    )

    def __init__(self) -> None:
        super().__init__()


class DigestNeedsTimeZone(ServiceError):
    key = "digest.needs_time_zone"
    template = (
        "Discord does not tell me your time zone, so I need it once for the daily digest: "
        "start typing your city or region in the `timezone` option and pick it from the list "
        "(each shows its time now, so you can check it is yours)."
    )

    def __init__(self) -> None:
        super().__init__()
