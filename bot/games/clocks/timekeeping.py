"""The clocks' use cases: losses on time found by the housekeeping pass, reminders before a
deadline, and vacations that pause a player's clocks (the clocks themselves, and the deadline
check every action makes, are the core's: :mod:`bot.games.core.clocks`).

Every use case takes its time from the service's injected clock, so tests move time forward
instead of sleeping. What the bot must announce (a loss on time, a reminder, a vacation) goes
into the outbox in the same transaction as the change, leased to the caller, which delivers it
right after; the outbox's deliverer takes over what a crash left behind.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games.clocks.announcements import REMINDER, VACATION
from bot.games.clocks.errors import VacationNotAllowed
from bot.games.core.clocks import banks, is_past_deadline, lose_on_time
from bot.games.core.parts import UseCases
from bot.games.core.results import GameEnded
from bot.storage import ChannelId, Game, NewNotification, UserId

log = logging.getLogger(__name__)


REMIND_BEFORE: Final = timedelta(hours=24)
"""A player is reminded of a deadline this long before it (a bank's: at most a quarter of
what was in it when the turn began)."""


REMIND_AT_MOST_EVERY: Final = timedelta(hours=12)
"""However many games they have, a player gets at most two reminders a day."""


VACATION_DAYS_PER_YEAR: Final = 14


def remind_before(game: Game) -> timedelta:
    """How long before the deadline of ``game``'s player to move they are reminded: a day, or
    on a bank a quarter of what was in it when their turn began, whichever is less."""
    stored = banks(game)
    if not stored or not game.is_active:
        return REMIND_BEFORE
    return min(REMIND_BEFORE, stored[game.position.turn] / 4)


@dataclass(frozen=True, slots=True)
class Reminder:
    user_id: UserId
    game_ids: tuple[int, ...]
    announcement: int


@dataclass(frozen=True, slots=True)
class LostOnTime:
    """What the housekeeping pass's deadline job did: the games it ended on time."""

    games: tuple[GameEnded, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return tuple(ended.announcement for ended in self.games)


@dataclass(frozen=True, slots=True)
class Reminded:
    """What the housekeeping pass's reminder job did: one reminder per player."""

    reminders: tuple[Reminder, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return tuple(reminder.announcement for reminder in self.reminders)


@dataclass(frozen=True, slots=True)
class Vacation:
    user_id: UserId
    until: datetime
    days_left: int
    game_ids: tuple[int, ...]
    """The player's running games against people, whose opponents are told."""
    announcements: tuple[int, ...]
    """The posts to make now: the losses on time below, and the opponents' notices."""
    lost_on_time: tuple[LateGame, ...] = ()
    """The games in which the player's deadline had passed already: lost on time, not
    paused."""


@dataclass(frozen=True, slots=True)
class LateGame:
    """A game lost on time when its player acted after the deadline."""

    game_id: int
    channel_id: ChannelId
    deadline: datetime
    announcement: int


class Clocks(UseCases):
    """The clocks' use cases, over the store; the games they end run the features' ``hooks``."""

    async def lose_late_games(self) -> LostOnTime:
        """The housekeeping pass's job: :meth:`enforce_deadlines`."""
        return LostOnTime(tuple(await self.enforce_deadlines()))

    async def remind(self) -> Reminded:
        """The housekeeping pass's job: :meth:`queue_reminders`."""
        return Reminded(tuple(await self.queue_reminders()))

    async def enforce_deadlines(self) -> list[GameEnded]:
        """End every running game whose player to move let the deadline pass: the opponent wins
        on time. Each game ends once, however many sweeps run, before or after a restart."""
        ended: list[GameEnded] = []
        now = self._now()
        for game in await self._store.games_past_deadline(now):
            async with self._store.write() as tx:
                current = await tx.game(game.id)
                if current is None or not is_past_deadline(current, now):
                    continue  # moved or ended in the meantime
                lost = await lose_on_time(tx, current, now, self._outbox, self._hooks)
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
            assert game.deadline_at is not None
            if to_move is not None and game.deadline_at - now <= remind_before(game):
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
                reminder = NewNotification(REMINDER, user_id=user_id, payload={"games": list(ids)})
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
        games where it is their turn move back by as much; the opponents are told. A game
        whose deadline has passed already is lost on time instead (as by the housekeeping
        pass: :attr:`Vacation.lost_on_time`)."""
        now = self._now()
        notices: list[int] = []
        lost: list[LateGame] = []
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
            games: list[Game] = []
            for listed in await tx.active_games_of(user_id):
                # Read again: a loss on time below may have ended a tournament's other games.
                game = await tx.game(listed.id) if lost else listed
                if game is None or not game.is_active or game.computer_id is not None:
                    continue
                if game.to_move_id == user_id and is_past_deadline(game, now):
                    # Too late to pause: this game was lost on time before the vacation.
                    assert game.deadline_at is not None
                    ended = await lose_on_time(tx, game, now, self._outbox, self._hooks)
                    lost.append(
                        LateGame(game.id, game.channel_id, game.deadline_at, ended.announcement)
                    )
                    continue
                games.append(game)
                if game.to_move_id == user_id and game.deadline_at is not None:
                    moved = dataclasses.replace(
                        game,
                        deadline_at=game.deadline_at + timedelta(days=days),
                        updated_at=now,
                    )
                    await tx.save_game(moved, game.version)
                notice = NewNotification(
                    VACATION,
                    game_id=game.id,
                    user_id=user_id,
                    payload={"until": until.isoformat()},
                )
                notices.append(await tx.enqueue(notice, now, self._outbox.claim()))
        log.info("%s is on vacation until %s", user_id, until)
        return Vacation(
            user_id,
            until,
            left - days,
            tuple(g.id for g in games),
            (*(late.announcement for late in lost), *notices),
            tuple(lost),
        )
