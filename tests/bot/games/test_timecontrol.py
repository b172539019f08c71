"""Time controls as values, and the clocks' arithmetic on them, without a database: spellings
that read back, a bank's increment and cap, vacations and takebacks."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from bot.games.clocks.timekeeping import REMIND_BEFORE, remind_before
from bot.games.core.clocks import (
    GameClock,
    bank_left,
    bank_of,
    continued,
    taken_back,
    time_control_of,
)
from bot.games.core.timecontrol import (
    CHOICES,
    LITTLE_GOLEM,
    PRESETS,
    Bank,
    DaysPerMove,
    TimeControlError,
    duration_to_text,
    from_columns,
    is_offered,
    parse,
    to_columns,
    to_text,
)
from bot.storage import Game, GameStatus, RecordedMove
from rules import Colour

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
DAY, HOUR = timedelta(days=1), timedelta(hours=1)
SMALL = Bank(3 * DAY, 12 * HOUR, 5 * DAY)


# --- the values and their spelling -------------------------------------------------------------


def test_the_presets_are_offered_little_golem_first() -> None:
    assert PRESETS[0] == LITTLE_GOLEM == Bank(10 * DAY, 36 * HOUR, 10 * DAY)
    assert LITTLE_GOLEM.to_text() == "bank:10d+36h/10d"
    assert [c.to_text() for c in CHOICES] == [
        "days:1",
        "days:2",
        "days:3",
        "days:5",
        "days:7",
        "days:14",
        "bank:10d+36h/10d",
        "bank:5d+1d/14d",
        "bank:3d+12h/5d",
    ]
    assert all(is_offered(c) for c in CHOICES) and is_offered(None)
    assert not is_offered(DaysPerMove(4)) and not is_offered(Bank(DAY, HOUR, DAY))


def test_every_choice_and_no_clock_read_back() -> None:
    for control in (*CHOICES, None):
        assert parse(to_text(control)) == control
        assert from_columns(*to_columns(control)) == control
    assert to_text(None) == "none"
    assert to_columns(DaysPerMove(3)) == (3, None)
    assert to_columns(SMALL) == (None, "bank:3d+12h/5d")
    assert from_columns(0, None) is None  # a server's "no clock"


@settings(deadline=None)  # microseconds of work: a deadline would only time a busy machine
@given(
    initial=st.integers(1, 10**7),
    increment=st.integers(0, 10**7),
    extra=st.integers(0, 10**7),
)
def test_any_bank_reads_back(initial: int, increment: int, extra: int) -> None:
    bank = Bank(
        timedelta(seconds=initial),
        timedelta(seconds=increment),
        timedelta(seconds=initial + extra),
    )
    assert parse(bank.to_text()) == bank


@pytest.mark.parametrize(
    "text",
    ["", "days", "days:", "days:0", "days:x", "3", "bank:", "bank:10d+36h", "bank:10d+36h/1d",
     "bank:0d+1h/1d", "bank:10x+1h/10d", "bank:1.5d+1h/2d", "bank:-1d+1h/2d", "none "],
)  # fmt: skip
def test_what_is_not_a_clock_is_refused(text: str) -> None:
    with pytest.raises(TimeControlError):
        parse(text)


def test_a_bank_counts_whole_seconds() -> None:
    with pytest.raises(TimeControlError):
        Bank(timedelta(seconds=1.5), HOUR, DAY)
    assert duration_to_text(timedelta(seconds=90)) == "90s"
    assert duration_to_text(36 * HOUR) == "36h"
    assert duration_to_text(timedelta(0)) == "0d"


def test_a_move_adds_the_increment_up_to_the_cap() -> None:
    assert SMALL.after_move(2 * DAY) == 2 * DAY + 12 * HOUR
    assert SMALL.after_move(4 * DAY + 20 * HOUR) == 5 * DAY  # capped
    assert SMALL.after_move(timedelta(0)) == 12 * HOUR
    assert SMALL.after_move(-HOUR) == 12 * HOUR  # never less than nothing
    assert SMALL.after_move(DAY + timedelta(seconds=0.75)) == DAY + 12 * HOUR  # whole seconds


# --- the clocks' arithmetic --------------------------------------------------------------------


def bank_game(control: Bank = SMALL, paused_until: datetime | None = None) -> Game:
    clock = GameClock.starting(control, NOW, paused_until)
    return Game(
        id=1,
        guild_id=1,
        channel_id=2,
        parent_channel_id=None,
        challenge_id=None,
        white_id=10,
        black_id=20,
        status=GameStatus.ACTIVE,
        position=rules.new_game(),
        version=0,
        clock_days=clock.clock_days,
        deadline_at=clock.deadline_at,
        created_at=NOW,
        updated_at=NOW,
        bank=clock.bank,
        white_bank=clock.white_bank,
        black_bank=clock.black_bank,
    )


def after(position: rules.Position, *moves: str) -> rules.Position:
    for move in moves:
        position = rules.play(position, rules.parse_move(move))
    return position


def test_a_bank_game_starts_with_both_banks_full() -> None:
    game = bank_game()
    assert bank_of(game) == SMALL and time_control_of(game) == SMALL
    assert game.white_bank == game.black_bank == 3 * DAY
    assert game.deadline_at == NOW + 3 * DAY
    paused = bank_game(paused_until=NOW + 2 * DAY)  # White on vacation: the clock waits
    assert paused.deadline_at == NOW + 5 * DAY
    days = GameClock.starting(DaysPerMove(2), NOW)
    assert (days.clock_days, days.bank, days.deadline_at) == (2, None, NOW + 2 * DAY)
    assert GameClock.starting(None, NOW) == GameClock()


def test_each_move_keeps_what_was_left_plus_the_increment() -> None:
    game = bank_game()
    later = NOW + 20 * HOUR
    moved = continued(game, after(game.position, "E3"), later)
    assert moved.white_bank == 2 * DAY + 4 * HOUR + 12 * HOUR  # 3 d - 20 h + 12 h
    assert moved.black_bank == 3 * DAY
    assert moved.deadline_at == later + 3 * DAY  # Black's whole bank from now
    again = continued(moved, after(moved.position, "F3"), later + HOUR)
    assert again.black_bank == 3 * DAY - HOUR + 12 * HOUR
    assert again.deadline_at == later + HOUR + moved.white_bank  # White's bank as it was


def test_the_bank_never_holds_more_than_its_cap() -> None:
    game = bank_game()
    moved = game
    for move in ("E3", "F3", "G3", "H3"):
        moved = continued(moved, after(moved.position, move), moved.updated_at + HOUR)
    assert moved.white_bank == moved.black_bank == 3 * DAY + 12 * HOUR - HOUR + 12 * HOUR - HOUR
    for move in ("I3", "A1", "B1", "C1", "D1", "E1"):
        moved = continued(moved, after(moved.position, move), moved.updated_at + HOUR)
    assert max(moved.white_bank or DAY, moved.black_bank or DAY) <= SMALL.cap
    assert moved.black_bank == SMALL.cap


def test_a_player_who_moves_again_after_a_pass_gets_their_own_bank() -> None:
    game = bank_game()
    # What matters is who is to move afterwards: White again, as after a pass of Black's.
    again = after(game.position, "E3", "F3")
    assert again.turn is Colour.WHITE
    moved = continued(game, again, NOW + HOUR)
    assert moved.white_bank == 3 * DAY - HOUR + 12 * HOUR
    assert moved.deadline_at == NOW + HOUR + moved.white_bank


def test_a_vacation_pauses_the_bank_of_the_player_to_move() -> None:
    game = bank_game()
    # White went on vacation for 5 days after 1 day of thinking: the deadline moved back.
    until = NOW + 6 * DAY
    assert game.deadline_at is not None
    paused = dataclasses.replace(game, deadline_at=game.deadline_at + 5 * DAY)
    assert bank_left(paused, NOW + 3 * DAY, until) == 2 * DAY  # the vacation costs nothing
    assert bank_left(paused, NOW + 7 * DAY, until) == DAY  # one more day after it
    moved = continued(paused, after(game.position, "E3"), NOW + 3 * DAY, mover_paused_until=until)
    assert moved.white_bank == 2 * DAY + 12 * HOUR
    # Black is on vacation when his turn comes: his bank starts when it ends.
    black_away = continued(game, after(game.position, "E3"), NOW, NOW + 2 * DAY)
    assert black_away.deadline_at == NOW + 2 * DAY + 3 * DAY


def test_a_takeback_puts_both_banks_back_as_they_were_at_its_ply() -> None:
    game = bank_game()
    first = continued(game, after(game.position, "E3"), NOW + 20 * HOUR)
    second = continued(first, after(first.position, "F3"), NOW + 30 * HOUR)
    record = RecordedMove(
        1, 1, Colour.BLACK, 20, rules.parse_move("F3"), False, NOW + 30 * HOUR,
        white_bank=first.white_bank, black_bank=first.black_bank,
    )  # fmt: skip
    back = taken_back(second, first.position, NOW + 40 * HOUR, record)
    assert (back.white_bank, back.black_bank) == (first.white_bank, first.black_bank)
    assert back.position.turn is Colour.BLACK
    assert back.deadline_at == NOW + 40 * HOUR + 3 * DAY  # Black's bank as it was, from now
    on_vacation = taken_back(second, first.position, NOW, record, NOW + 2 * DAY)
    assert on_vacation.deadline_at == NOW + 2 * DAY + 3 * DAY


def test_days_per_move_works_as_before() -> None:
    clock = GameClock.starting(DaysPerMove(2), NOW)
    game = bank_game()
    days = dataclasses.replace(
        game,
        clock_days=2,
        bank=None,
        white_bank=None,
        black_bank=None,
        deadline_at=clock.deadline_at,
    )
    moved = continued(days, after(days.position, "E3"), NOW + DAY, NOW + 3 * DAY)
    assert moved.deadline_at == NOW + 5 * DAY and moved.white_bank is None
    assert time_control_of(moved) == DaysPerMove(2) and bank_of(moved) is None
    back = taken_back(moved, days.position, NOW + 2 * DAY, None)
    assert back.deadline_at == NOW + 4 * DAY
    assert remind_before(moved) == REMIND_BEFORE


def test_the_reminder_comes_a_day_or_a_quarter_of_the_bank_before() -> None:
    game = bank_game(LITTLE_GOLEM)
    assert remind_before(game) == REMIND_BEFORE  # a quarter of 10 days is more than a day
    short = bank_game()
    low = dataclasses.replace(short, white_bank=8 * HOUR)
    assert remind_before(low) == 2 * HOUR
