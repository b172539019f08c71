"""Clocks: deadlines that end games, reminders before them, and vacations that pause them.

Every use case takes its time from the service's injected clock, so tests move time forward
instead of sleeping. What the bot must announce (a loss on time, a reminder, a vacation) goes
into the outbox in the same transaction as the change, leased to the caller, which delivers it
right after; the outbox's deliverer takes over what a crash left behind.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games import announcements
from bot.games.endings import Ending, finish
from bot.games.errors import VacationNotAllowed
from bot.games.outbox import Outbox
from bot.games.results import GameEnded
from bot.storage import Game, NewNotification, Store, UserId
from rules import Position

log = logging.getLogger(__name__)

CLOCK_CHOICES: Final = (1, 2, 3, 5, 7, 14)
"""The days per move a challenge (or a server's default) may choose."""
REMIND_BEFORE: Final = timedelta(hours=24)
"""A player is reminded of a deadline this long before it."""
REMIND_AT_MOST_EVERY: Final = timedelta(hours=12)
"""However many games they have, a player gets at most two reminders a day."""
VACATION_DAYS_PER_YEAR: Final = 14


def deadline(
    now: datetime, clock_days: int | None, paused_until: datetime | None = None
) -> datetime | None:
    """When the player to move runs out of time; their clock starts after any vacation."""
    if clock_days is None:
        return None
    start = now if paused_until is None else max(now, paused_until)
    return start + timedelta(days=clock_days)


def continued(
    game: Game, position: Position, now: datetime, paused_until: datetime | None = None
) -> Game:
    """``game`` going on in ``position``: the next player's clock starts, and a pending
    takeback request lapses (a move answers it)."""
    return dataclasses.replace(
        game,
        position=position,
        updated_at=now,
        deadline_at=deadline(now, game.clock_days, paused_until),
        takeback_requested_by=None,
        takeback_ply=None,
    )


@dataclass(frozen=True, slots=True)
class Reminder:
    user_id: UserId
    game_ids: tuple[int, ...]
    announcement: int


@dataclass(frozen=True, slots=True)
class Vacation:
    user_id: UserId
    until: datetime
    days_left: int
    game_ids: tuple[int, ...]
    """The player's running games against people, whose opponents are told."""
    announcements: tuple[int, ...]


class Clocks:
    """The clocks' use cases, over the store."""

    def __init__(self, store: Store, now: Callable[[], datetime], outbox: Outbox) -> None:
        self._store = store
        self._now = now
        self._outbox = outbox

    async def enforce_deadlines(self) -> list[GameEnded]:
        """End every running game whose player to move let the deadline pass: the opponent wins
        on time. Each game ends once, however many sweeps run, before or after a restart."""
        ended: list[GameEnded] = []
        now = self._now()
        for game in await self._store.games_past_deadline(now):
            async with self._store.write() as tx:
                current = await tx.game(game.id)
                if (
                    current is None
                    or not current.is_active
                    or current.deadline_at is None
                    or current.deadline_at > now
                ):
                    continue  # moved or ended in the meantime
                ending = Ending.on_time(current)
                lost = await finish(tx, current, ending, now, self._outbox.claim())
            log.info("game %s: %s lost on time", game.id, lost.game.ended_by)
            ended.append(lost)
        return ended

    async def queue_reminders(self) -> list[Reminder]:
        """One reminder per player whose deadlines draw near, listing all those games; never
        more often than :data:`REMIND_AT_MOST_EVERY`, never to players who turned them off."""
        now = self._now()
        near = await self._store.games_near_deadline(now, now + REMIND_BEFORE)
        by_player: dict[UserId, list[Game]] = defaultdict(list)
        for game in near:
            to_move = game.to_move_id
            if to_move is not None:
                by_player[to_move].append(game)
        reminders: list[Reminder] = []
        for user_id, games in by_player.items():
            async with self._store.write() as tx:
                prefs = await tx.prefs(user_id)
                if not prefs.notify or prefs.on_vacation(now):
                    continue
                last = prefs.last_reminded_at
                if last is not None and now - last < REMIND_AT_MOST_EVERY:
                    continue
                ids = tuple(g.id for g in games)
                await tx.mark_reminded(user_id, games, now)
                reminder = NewNotification(
                    announcements.REMINDER, user_id=user_id, payload={"games": list(ids)}
                )
                notice = await tx.enqueue(reminder, now, self._outbox.claim())
            reminders.append(Reminder(user_id, ids, notice))
        return reminders

    async def set_notify(self, user_id: UserId, notify: bool) -> None:
        """Deadline reminders on or off for ``user_id``."""
        now = self._now()
        async with self._store.write() as tx:
            await tx.ensure_players([user_id], now)
            await tx.save_notify(user_id, notify)

    async def start_vacation(self, user_id: UserId, days: int) -> Vacation:
        """Pause the player's clocks for ``days`` days (from now, or from the end of a vacation
        already running), within :data:`VACATION_DAYS_PER_YEAR` a calendar year. Deadlines of
        games where it is their turn move back by as much; the opponents are told."""
        now = self._now()
        notices: list[int] = []
        async with self._store.write() as tx:
            await tx.ensure_players([user_id], now)
            prefs = await tx.prefs(user_id)
            used = prefs.days_used_in(now.year)
            left = VACATION_DAYS_PER_YEAR - used
            if days < 1 or days > left:
                raise VacationNotAllowed(user_id, days, left, VACATION_DAYS_PER_YEAR)
            start = prefs.vacation_until if prefs.on_vacation(now) else now
            assert start is not None
            until = start + timedelta(days=days)
            await tx.save_vacation(
                dataclasses.replace(
                    prefs,
                    vacation_until=until,
                    vacation_year=now.year,
                    vacation_days_used=used + days,
                ),
            )
            # Read and locked in this transaction: a move in another process waits for it, so
            # the deadline moved is the one of the player who is on vacation.
            # Games against the bot have no clock, and nobody to tell.
            games = [g for g in await tx.active_games_of(user_id) if g.computer_id is None]
            for game in games:
                if game.to_move_id == user_id and game.deadline_at is not None:
                    moved = dataclasses.replace(
                        game,
                        deadline_at=game.deadline_at + timedelta(days=days),
                        updated_at=now,
                    )
                    await tx.save_game(moved, game.version)
                notice = NewNotification(
                    announcements.VACATION,
                    game_id=game.id,
                    user_id=user_id,
                    payload={"until": until.isoformat()},
                )
                notices.append(await tx.enqueue(notice, now, self._outbox.claim()))
        log.info("%s is on vacation until %s", user_id, until)
        return Vacation(user_id, until, left - days, tuple(g.id for g in games), tuple(notices))
