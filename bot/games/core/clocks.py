"""Clocks: deadlines that end games, reminders before them, and vacations that pause them.

A game's clock is days per move or a time bank (:mod:`bot.games.core.timecontrol`); either way
``Game.deadline_at`` is the one moment the player to move runs out of time: a new turn's start
(after any vacation) plus the days per move, or plus what is in the player's bank. Losses on
time, reminders and vacations go through that one column. A bank game also keeps both
players' banks (``Game.white_bank``, ``black_bank``) and, with every recorded ply, the banks
as they were when that ply's turn began, which a takeback puts back.

A deadline holds at the instant it passes: every action of a player in a running game checks it
in the transaction that would act (:func:`check_deadline`, in :func:`acting`'s transaction), and
past it the game is lost on time there and then instead, by the housekeeping pass's own path
(:func:`lose_on_time`); the housekeeping pass ends the games of players who never come back.

Every use case takes its time from the service's injected clock, so tests move time forward
instead of sleeping. What the bot must announce (a loss on time, a reminder, a vacation) goes
into the outbox in the same transaction as the change, leased to the caller, which delivers it
right after; the outbox's deliverer takes over what a crash left behind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games.clocks.announcements import REMINDER, VACATION
from bot.games.clocks.errors import VacationNotAllowed
from bot.games.core.endings import Ending, GameEndHooks, finish
from bot.games.core.errors import DeadlinePassed, GameChanged
from bot.games.core.outbox import Outbox
from bot.games.core.results import GameEnded
from bot.games.core.timecontrol import DAYS_CHOICES, Bank, DaysPerMove, TimeControl, parse
from bot.storage import (
    ChannelId,
    EndReason,
    Game,
    NewNotification,
    RecordedMove,
    Store,
    UserId,
    Writer,
)
from rules import Colour, Position

log = logging.getLogger(__name__)

CLOCK_CHOICES: Final = DAYS_CHOICES
"""The days per move a challenge (or a server's default) may choose."""
REMIND_BEFORE: Final = timedelta(hours=24)
"""A player is reminded of a deadline this long before it (a bank's: at most a quarter of
what was in it when the turn began)."""
REMIND_AT_MOST_EVERY: Final = timedelta(hours=12)
"""However many games they have, a player gets at most two reminders a day."""
VACATION_DAYS_PER_YEAR: Final = 14


def deadline(
    now: datetime, clock_days: int | None, paused_until: datetime | None = None
) -> datetime | None:
    """When the player to move runs out of time; their clock starts after any vacation."""
    if clock_days is None:
        return None
    return turn_start(now, paused_until) + timedelta(days=clock_days)


def turn_start(now: datetime, paused_until: datetime | None = None) -> datetime:
    """When a clock that starts ``now`` starts counting: after a vacation still running."""
    return now if paused_until is None else max(now, paused_until)


def is_past_deadline(game: Game, now: datetime) -> bool:
    """Whether the player to move in ``game`` let its deadline pass by ``now``: the game is
    lost on time, whoever acts in it next (the player, or the housekeeping pass)."""
    return game.is_active and game.deadline_at is not None and game.deadline_at <= now


async def lose_on_time(
    tx: Writer, game: Game, now: datetime, outbox: Outbox, hooks: GameEndHooks
) -> GameEnded:
    """End ``game`` (read in ``tx``, its deadline passed: :func:`is_past_deadline`) lost on
    time by the player to move: its final post, ratings and what the features do (``hooks``:
    a tournament's result, and a player of it who never moved in the game withdrawn) as every
    ending's (:func:`~bot.games.core.endings.finish`). The one way a game is lost on time: the
    housekeeping pass's, and a late action's in its own transaction
    (:meth:`Clocks.refuse_late`)."""
    lost = await finish(tx, game, Ending.on_time(game), now, outbox.claim(), hooks=hooks)
    log.info("game %s: %s lost on time", game.id, lost.game.ended_by)
    return lost


async def check_deadline(
    tx: Writer,
    game: Game,
    user_id: UserId,
    now: datetime,
    outbox: Outbox,
    *,
    hooks: GameEndHooks,
) -> None:
    """Before ``user_id`` acts in ``game`` (read in ``tx``, the transaction that would act, from
    :func:`acting`): if its deadline has passed, the game is lost on time now
    (:func:`lose_on_time`, with the features' ``hooks``) and :class:`DeadlinePassed` is
    raised, to be told privately to the player once the loss is committed."""
    if not is_past_deadline(game, now):
        return
    assert game.deadline_at is not None
    lost = await lose_on_time(tx, game, now, outbox, hooks)
    raise DeadlinePassed.told_to(
        user_id, lost.game.ended_by, game.id, game.deadline_at, (lost.announcement,)
    )


@contextlib.asynccontextmanager
async def acting(store: Store) -> AsyncIterator[Writer]:
    """A write transaction for a player's action that checks the deadline
    (:func:`check_deadline`): it commits also when the check refuses the action, so that the
    loss on time holds, and the refusal is raised after the commit. Any other error rolls it
    back."""
    late: DeadlinePassed | None = None
    async with store.write() as tx:
        try:
            yield tx
        except DeadlinePassed as refused:
            late = refused
    if late is not None:
        raise late


@functools.lru_cache(maxsize=64)
def _parse_bank(text: str) -> Bank:
    bank = parse(text)
    assert isinstance(bank, Bank), f"a stored bank is a bank: {text}"
    return bank


def bank_of(game: Game) -> Bank | None:
    """The game's time bank, if it is played on one."""
    return None if game.bank is None else _parse_bank(game.bank)


def time_control_of(game: Game) -> TimeControl | None:
    """The game's clock (``None``: it has none)."""
    bank = bank_of(game)
    if bank is not None:
        return bank
    return None if game.clock_days is None else DaysPerMove(game.clock_days)


def banks(game: Game) -> dict[Colour, timedelta]:
    """Both players' banks as stored (see :attr:`Game.white_bank`); empty without a bank."""
    if game.white_bank is None or game.black_bank is None:
        return {}
    return {Colour.WHITE: game.white_bank, Colour.BLACK: game.black_bank}


def bank_left(game: Game, now: datetime, paused_until: datetime | None = None) -> timedelta:
    """What is left now in the bank of the player to move (on vacation until
    ``paused_until``): the time to their deadline, less the vacation still to come, which
    pushed the deadline back as far."""
    assert game.deadline_at is not None, "a running bank game has a deadline"
    return max(timedelta(0), game.deadline_at - turn_start(now, paused_until))


@dataclass(frozen=True, slots=True)
class GameClock:
    """The clock columns of a game at its start (:class:`bot.storage.NewGame`'s)."""

    clock_days: int | None = None
    bank: str | None = None
    deadline_at: datetime | None = None
    white_bank: timedelta | None = None
    black_bank: timedelta | None = None

    @classmethod
    def starting(
        cls, control: TimeControl | None, now: datetime, paused_until: datetime | None = None
    ) -> GameClock:
        """A new game's clock: White (on vacation until ``paused_until``) is to move."""
        if isinstance(control, DaysPerMove):
            return cls(control.days, deadline_at=deadline(now, control.days, paused_until))
        if isinstance(control, Bank):
            return cls(
                bank=control.to_text(),
                deadline_at=turn_start(now, paused_until) + control.initial,
                white_bank=control.initial,
                black_bank=control.initial,
            )
        return cls()


def continued(
    game: Game,
    position: Position,
    now: datetime,
    paused_until: datetime | None = None,
    *,
    mover_paused_until: datetime | None = None,
) -> Game:
    """``game`` going on in ``position`` after the player to move in ``game`` acted: the next
    player's clock starts (after their vacation, until ``paused_until``), and a pending
    takeback request lapses (a move answers it).

    On a time bank, the mover (on vacation until ``mover_paused_until``) keeps what was left
    of their bank, plus the increment, up to the cap; the next player's deadline is their
    bank's end (the mover's own, when the opponent had to pass)."""
    bank = bank_of(game)
    stored = banks(game)
    if bank is None:
        deadline_at = deadline(now, game.clock_days, paused_until)
    else:
        stored[game.position.turn] = bank.after_move(bank_left(game, now, mover_paused_until))
        deadline_at = turn_start(now, paused_until) + stored[position.turn]
    return dataclasses.replace(
        game,
        position=position,
        updated_at=now,
        deadline_at=deadline_at,
        white_bank=stored.get(Colour.WHITE),
        black_bank=stored.get(Colour.BLACK),
        takeback_requested_by=None,
        takeback_ply=None,
    )


def taken_back(
    game: Game,
    position: Position,
    now: datetime,
    back_to: RecordedMove | None,
    paused_until: datetime | None = None,
) -> Game:
    """``game`` returned to ``position`` by a takeback, whose first ply undone is
    ``back_to``: the player to move's clock starts again (after their vacation, until
    ``paused_until``), and on a time bank both banks are as they were when that ply's turn
    began."""
    restored = dataclasses.replace(game, position=position)
    if bank_of(game) is not None and back_to is not None and back_to.white_bank is not None:
        restored = dataclasses.replace(
            restored, white_bank=back_to.white_bank, black_bank=back_to.black_bank
        )
    stored = banks(restored)
    deadline_at = (
        deadline(now, game.clock_days, paused_until)
        if not stored
        else turn_start(now, paused_until) + stored[position.turn]
    )
    return dataclasses.replace(
        restored,
        updated_at=now,
        deadline_at=deadline_at,
        takeback_requested_by=None,
        takeback_ply=None,
    )


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


class Clocks:
    """The clocks' use cases, over the store; the games they end run the features' ``hooks``."""

    def __init__(
        self, store: Store, now: Callable[[], datetime], outbox: Outbox, hooks: GameEndHooks
    ) -> None:
        self._store = store
        self._now = now
        self._outbox = outbox
        self._hooks = hooks

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

    async def refuse_late(self, game: Game, user_id: UserId, now: datetime) -> DeadlinePassed:
        """``user_id`` acts at ``now`` in ``game`` (read outside a transaction, at the version
        the action would be saved against), whose deadline had passed: the game is lost on
        time, unless the housekeeping pass (or another process) ended it so already. Returns
        the refusal to raise; raises :class:`GameChanged` if the game moved on otherwise."""
        assert game.deadline_at is not None, "a deadline passed"
        try:
            async with acting(self._store) as tx:
                current = await tx.game(game.id)
                if current is not None:  # at another version (a takeback asked), still late
                    await check_deadline(tx, current, user_id, now, self._outbox, hooks=self._hooks)
        except DeadlinePassed as refused:
            return refused
        if current is not None and current.end_reason is EndReason.TIME and current.ply == game.ply:
            return DeadlinePassed.told_to(user_id, current.ended_by, game.id, game.deadline_at)
        raise GameChanged(game.id, game.version)

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
