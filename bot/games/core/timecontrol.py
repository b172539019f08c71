"""A game's time control, as a value: days per move, or a time bank.

* :class:`DaysPerMove`: every move within so many days (the bot's first clock).
* :class:`Bank`: a time bank, as on Little Golem and OGS: each player starts with ``initial``,
  their thinking time is taken from it, each move adds ``increment``, and it never holds more
  than ``cap``. A player whose bank runs out loses on time.

``None`` is "no clock". Each time control has one spelling (:meth:`DaysPerMove.to_text`,
:meth:`Bank.to_text`): ``days:3``, ``bank:10d+36h/10d`` (initial + increment / cap, each in
its largest whole unit: ``d``, ``h``, ``m`` or ``s``), and ``none`` for no clock. It is the
value of the commands' clock choices and what the database stores for a challenge's bank, a
server's default and a tournament's clock; :func:`parse` reads it back
(``parse(tc.to_text()) == tc``).

Which of them a player may choose is :data:`CHOICES`: :data:`DAYS_CHOICES` and the bank
:data:`PRESETS`, the Little Golem one first. Nothing here reads a clock or the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

NO_CLOCK: Final = "none"
"""The spelling of "no clock"."""
_UNITS: Final = (
    ("d", timedelta(days=1)),
    ("h", timedelta(hours=1)),
    ("m", timedelta(minutes=1)),
    ("s", timedelta(seconds=1)),
)
_DURATION: Final = re.compile(r"(\d{1,9})([dhms])")
_BANK: Final = re.compile(r"bank:(\w+)\+(\w+)/(\w+)")
_DAYS: Final = re.compile(r"days:(\d{1,4})")


class TimeControlError(ValueError):
    """A spelling that is not a time control, or terms that make no clock."""


def duration_to_text(duration: timedelta) -> str:
    """``duration`` (whole seconds) in its largest whole unit: ``10d``, ``36h``, ``90m``."""
    if duration < timedelta(0) or duration % timedelta(seconds=1):
        raise TimeControlError(f"a bank counts whole seconds, not {duration}")
    for letter, unit in _UNITS:
        if not duration % unit:
            return f"{duration // unit}{letter}"
    raise AssertionError("every whole number of seconds has a unit")  # pragma: no cover


def parse_duration(text: str) -> timedelta:
    """Read :func:`duration_to_text`'s spelling back (``0s`` included)."""
    match = _DURATION.fullmatch(text)
    if match is None:
        raise TimeControlError(f"{text!r} is not a duration such as 10d, 36h or 90m")
    unit = dict(_UNITS)[match[2]]
    return int(match[1]) * unit


@dataclass(frozen=True, slots=True)
class DaysPerMove:
    """Each move within ``days`` days; the deadline is set again at every turn."""

    days: int

    def __post_init__(self) -> None:
        if self.days < 1:
            raise TimeControlError(f"a clock gives at least one day per move, not {self.days}")

    def to_text(self) -> str:
        return f"days:{self.days}"


@dataclass(frozen=True, slots=True)
class Bank:
    """A time bank: ``initial`` to start with, ``increment`` added after each move, never
    more than ``cap`` (whole seconds each)."""

    initial: timedelta
    increment: timedelta
    cap: timedelta

    def __post_init__(self) -> None:
        for part in (self.initial, self.increment, self.cap):
            duration_to_text(part)  # whole seconds, not negative
        if not self.initial:
            raise TimeControlError("a bank starts with some time")
        if self.cap < self.initial:
            raise TimeControlError(f"a bank's cap ({self.cap}) is below its start ({self.initial})")

    def to_text(self) -> str:
        parts = (self.initial, self.increment, self.cap)
        initial, increment, cap = map(duration_to_text, parts)
        return f"bank:{initial}+{increment}/{cap}"

    def after_move(self, left: timedelta) -> timedelta:
        """The bank of a player who moved with ``left`` still in it: plus the increment, at
        most the cap, in whole seconds (what a fraction of a second was is not kept)."""
        kept = max(timedelta(0), left) // timedelta(seconds=1) * timedelta(seconds=1)
        return min(self.cap, kept + self.increment)


TimeControl = DaysPerMove | Bank
"""A game's clock; ``None`` where one is expected means: no clock."""


def parse(text: str) -> TimeControl | None:
    """A time control from its spelling (``none``: ``None``); raises :class:`TimeControlError`."""
    if text == NO_CLOCK:
        return None
    if days := _DAYS.fullmatch(text):
        return DaysPerMove(int(days[1]))
    if bank := _BANK.fullmatch(text):
        return Bank(*(parse_duration(part) for part in bank.groups()))
    raise TimeControlError(f"{text!r} is not a clock such as days:3 or bank:10d+36h/10d")


def to_text(control: TimeControl | None) -> str:
    """The spelling of ``control`` (``None``: ``none``)."""
    return NO_CLOCK if control is None else control.to_text()


LITTLE_GOLEM: Final = Bank(timedelta(days=10), timedelta(hours=36), timedelta(days=10))
"""Little Golem's clock (where DVONN is played by correspondence): 240 h, +36 h a move, at
most 240 h."""
PRESETS: Final[tuple[Bank, ...]] = (
    LITTLE_GOLEM,
    Bank(timedelta(days=5), timedelta(days=1), timedelta(days=14)),
    Bank(timedelta(days=3), timedelta(hours=12), timedelta(days=5)),
)
"""The banks a challenge or a server may choose, Little Golem's first."""
DAYS_CHOICES: Final[tuple[int, ...]] = (1, 2, 3, 5, 7, 14)
"""The days per move a challenge (or a server's default) may choose."""
CHOICES: Final[tuple[TimeControl, ...]] = (*(DaysPerMove(d) for d in DAYS_CHOICES), *PRESETS)
"""Every clock a player may choose (besides none), in the order they are offered."""


def is_offered(control: TimeControl | None) -> bool:
    """Whether players may choose ``control`` (no clock always)."""
    return control is None or control in CHOICES


def from_columns(days: int | None, bank: str | None) -> TimeControl | None:
    """The time control of a challenge, game or tournament as stored: days per move in one
    column, or the bank's spelling in another (``None`` in both: no clock)."""
    if bank is not None:
        return parse(bank)
    return None if not days else DaysPerMove(days)


def to_columns(control: TimeControl | None) -> tuple[int | None, str | None]:
    """``(days, bank)`` as :func:`from_columns` reads them."""
    if isinstance(control, DaysPerMove):
        return control.days, None
    if isinstance(control, Bank):
        return None, control.to_text()
    return None, None
