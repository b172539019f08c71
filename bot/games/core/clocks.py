"""Clocks: deadlines that end games, and how each move, takeback and vacation moves them.

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

The clocks' feature (losses on time found by the housekeeping pass, reminders, vacations) is
:mod:`bot.games.clocks.timekeeping`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from bot.games.core.endings import Ending, GameEndHooks, finish
from bot.games.core.errors import DeadlinePassed, GameChanged
from bot.games.core.outbox import Outbox
from bot.games.core.results import GameEnded
from bot.games.core.timecontrol import DAYS_CHOICES, Bank, DaysPerMove, TimeControl, parse
from bot.storage import EndReason, Game, RecordedMove, Store, UserId, Writer
from rules import Colour, Position

log = logging.getLogger(__name__)

CLOCK_CHOICES: Final = DAYS_CHOICES
"""The days per move a challenge (or a server's default) may choose."""


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
    (:func:`refuse_late`)."""
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


async def refuse_late(
    store: Store,
    game: Game,
    user_id: UserId,
    now: datetime,
    outbox: Outbox,
    *,
    hooks: GameEndHooks,
) -> DeadlinePassed:
    """``user_id`` acts at ``now`` in ``game`` (read outside a transaction, at the version
    the action would be saved against), whose deadline had passed: the game is lost on
    time, unless the housekeeping pass (or another process) ended it so already. Returns
    the refusal to raise; raises :class:`GameChanged` if the game moved on otherwise."""
    assert game.deadline_at is not None, "a deadline passed"
    try:
        async with acting(store) as tx:
            current = await tx.game(game.id)
            if current is not None:  # at another version (a takeback asked), still late
                await check_deadline(tx, current, user_id, now, outbox, hooks=hooks)
    except DeadlinePassed as refused:
        return refused
    if current is not None and current.end_reason is EndReason.TIME and current.ply == game.ply:
        return DeadlinePassed.told_to(user_id, current.ended_by, game.id, game.deadline_at)
    raise GameChanged(game.id, game.version)


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
