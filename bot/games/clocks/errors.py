"""Refusals of the clocks' feature: a vacation longer than the days left (the pattern of every
service error: :mod:`bot.games.core.errors`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


class VacationNotAllowed(ServiceError):
    key = "vacation.too_long"
    template = "You have {left} vacation days left this year (of {allowance}); {days} is too many."

    def __init__(self, user_id: int, days: int, left: int, allowance: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id, days=days, left=left, allowance=allowance)
