"""The rules of planned lines (``bot.games.plans.lines``), pure: reading, checking, matching,
chains."""

from __future__ import annotations

import pytest

import rules
from bot.games.core.turns import turn
from bot.games.plans.errors import (
    EmptyLine,
    PlanConflict,
    PlanEndsOnTheirMove,
    PlanIllegalMove,
    PlanNotAMove,
    PlanPastTheEnd,
    PlanTooLong,
    TooManyLines,
)
from bot.games.plans.lines import MOST_LINE_MOVES, MOST_LINES, Line, advance, check, play, read
from rules import Colour

W, B = Colour.WHITE, Colour.BLACK
START = rules.new_game()


def moves(text: str) -> tuple[rules.Move, ...]:
    return tuple(rules.parse_record(text))


def placed(count: int) -> rules.Position:
    """The position after ``count`` placements in cell order (A1, A2, ...)."""
    position = START
    for _ in range(count):
        position = rules.play(position, rules.legal_moves(position)[0])
    return position


MOVING = placed(rules.PLACEMENT_PLIES)
"""The first position of the movement phase (White to move)."""


# --- reading -----------------------------------------------------------------------------------


def test_a_line_is_read_as_typed_in_any_separators_and_case() -> None:
    assert read("e3 F4, d2;d3", START) == moves("E3 F4 D2 D3")


def test_two_cells_in_a_row_are_one_jump_once_placing_is_over() -> None:
    first = rules.legal_moves(MOVING)[0]
    assert isinstance(first, rules.Jump)
    source, target = rules.cell_name(first.source), rules.cell_name(first.target)
    assert read(f"{source} {target}", MOVING) == (first,)
    assert read(f"{source}-{target}", MOVING) == (first,)
    assert read(f"{source}{target}", MOVING) == (first,)


def test_what_is_not_a_move_is_refused_with_its_number() -> None:
    with pytest.raises(PlanNotAMove) as error:
        read("E3 F4 Z9", START, game_id=5)
    assert (error.value.game_id, error.value.number) == (5, 3)
    assert isinstance(error.value.error, rules.InvalidMoveError)
    assert "Move 3 of your line is not a move" in str(error.value)


# --- checking ----------------------------------------------------------------------------------


def test_a_line_from_the_opponents_move_to_the_owners_reply_is_kept() -> None:
    checked = check(START, B, moves("E3 F4 D2 D3"))
    assert checked.line == Line(B, 0, moves("E3 F4 D2 D3"))
    assert not checked.own_first and checked.replaces == () and checked.planned_already is None


def test_a_line_on_the_owners_turn_begins_with_their_own_move() -> None:
    assert check(START, W, moves("E3 F4 D2")).own_first


def test_every_move_is_checked_in_the_position_it_would_be_played_in() -> None:
    with pytest.raises(PlanIllegalMove) as error:
        check(START, B, moves("E3 F4 E3 D3"), game_id=9)
    assert (error.value.number, error.value.move) == (3, "E3")
    assert error.value.error.reason is rules.IllegalReason.CELL_OCCUPIED
    assert str(error.value).startswith("Move 3 of your line, E3, could not be played there: ")


def test_a_line_ends_with_the_owners_reply() -> None:
    with pytest.raises(PlanEndsOnTheirMove) as error:
        check(START, B, moves("E3 F4 D2"))
    assert error.value.move == "D2"


def test_a_line_cannot_go_past_the_end_of_the_game() -> None:
    position = MOVING
    record: list[rules.Move] = []
    while rules.legal_moves(position):
        move = rules.legal_moves(position)[0]
        record.append(move)
        position = rules.play(position, move)
    before_last = rules.replay(record[:-1], MOVING)[-1]
    owner = before_last.turn.opponent
    with pytest.raises(PlanPastTheEnd) as error:
        check(before_last, owner, [record[-1], rules.legal_moves(MOVING)[0]])
    assert error.value.number == 2


def test_an_empty_or_too_long_line_is_refused() -> None:
    with pytest.raises(EmptyLine):
        check(START, B, ())
    too_long = [rules.legal_moves(placed(n))[0] for n in range(MOST_LINE_MOVES + 1)]
    with pytest.raises(PlanTooLong) as error:
        check(START, B, too_long)
    assert (error.value.count, error.value.most) == (MOST_LINE_MOVES + 1, MOST_LINE_MOVES)


def test_lines_branch_on_expected_moves_but_never_on_replies() -> None:
    kept = [Line(B, 0, moves("E3 F4 D2 D3"), key=1)]
    assert check(START, B, moves("E3 F4 C2 C3"), kept).replaces == ()  # they play otherwise
    assert check(START, B, moves("A1 A2"), kept).replaces == ()
    with pytest.raises(PlanConflict) as error:
        check(START, B, moves("E3 G4"), kept)
    assert (error.value.number, error.value.move, error.value.other) == (2, "G4", "F4")
    assert error.value.planned == "E3 F4 D2 D3"


def test_a_line_that_goes_on_from_another_takes_its_place() -> None:
    short = Line(B, 0, moves("E3 F4"), key=1)
    longer = check(START, B, moves("E3 F4 D2 D3"), [short])
    assert longer.replaces == (short,)
    already = check(START, B, moves("E3 F4"), [Line(B, 0, moves("E3 F4 D2 D3"), key=2)])
    assert already.planned_already is not None and already.planned_already.key == 2


def test_a_player_keeps_at_most_so_many_lines() -> None:
    cells = [rules.cell_name(c) for c in rules.empty_cells(START)]
    kept = [Line(B, 0, moves(f"{cells[i]} {cells[i + 20]}"), key=i) for i in range(MOST_LINES)]
    with pytest.raises(TooManyLines):
        check(START, B, moves(f"{cells[15]} {cells[40]}"), kept)
    other = Line(W, 0, moves("K3 K4"))  # another player's, or another ply's, do not count
    assert check(START, B, moves("K3 K4"), [*kept[:-1], other]).line.owner is B


# --- playing -----------------------------------------------------------------------------------


def test_a_move_that_matches_plays_the_reply_and_the_line_goes_on() -> None:
    line = Line(B, 0, moves("E3 F4 D2 D3"), key=1)
    played = play(START, rules.parse_move("E3"), [line])
    assert [str(t.played.move) for t in played.turns] == ["E3", "F4"]
    assert [t.planned for t in played.turns] == [False, True]
    assert played.kept == (Line(B, 2, moves("D2 D3"), key=1),)
    assert played.position.ply == 2 and played.gone == ()


def test_lines_that_no_longer_match_are_dropped() -> None:
    lines = [Line(B, 0, moves("E3 F4"), key=1), Line(B, 0, moves("D2 D3"), key=2)]
    played = play(START, rules.parse_move("D2"), lines)
    assert [str(t.played.move) for t in played.turns] == ["D2", "D3"]
    assert played.kept == () and {line.key for line in played.gone} == {1, 2}
    nothing = play(START, rules.parse_move("A1"), lines)
    assert len(nothing.turns) == 1 and nothing.kept == () and len(nothing.gone) == 2


def test_both_players_lines_answer_each_other_in_a_chain() -> None:
    white = Line(W, 0, moves("A1 B1 A2 B2 A3"))  # White plays A1 now, and plans the rest
    black = Line(B, 0, moves("A1 B1 A2 B2 A3 B3"), key=7)  # what Black planned before
    played = play(START, rules.parse_move("A1"), [black, white])
    assert [str(t.played.move) for t in played.turns] == ["A1", "B1", "A2", "B2", "A3", "B3"]
    assert [t.planned for t in played.turns] == [False, True, True, True, True, True]
    assert played.kept == () and played.position.ply == 6


def test_a_chain_is_bounded() -> None:
    white = Line(W, 0, moves("A1 B1 A2 B2 A3"))
    black = Line(B, 0, moves("A1 B1 A2 B2 A3 B3"), key=7)
    played = play(START, rules.parse_move("A1"), [black, white], most=2)
    assert len(played.turns) == 3  # the move, then two planned ones
    assert played.position.ply == 3


def test_a_reply_that_cannot_be_played_when_due_drops_its_owners_lines() -> None:
    broken = Line(B, 0, moves("E3 E3 D2 D3"), key=1)  # E3 twice: made against other rules
    played = play(START, rules.parse_move("E3"), [broken])
    assert len(played.turns) == 1 and played.kept == ()
    assert [line.key for line in played.gone] == [1]


def test_passes_the_rules_force_are_recorded_and_lines_count_them() -> None:
    """Find a move after which the opponent must pass: a line answering it goes on from the
    ply after the pass, with the same player to move again."""
    position = MOVING
    while rules.legal_moves(position):
        for move in rules.legal_moves(position):
            forced = turn(position, move)
            if forced.passes and not rules.is_over(forced.after):
                owner = position.turn
                line = Line(owner.opponent, position.ply, (move,))
                kept, gone = advance([line], forced)
                assert kept == [] and gone == [line]  # used up: it was its last move
                assert forced.after.ply == position.ply + 2 and forced.after.turn is owner
                return
        position = rules.play(position, rules.legal_moves(position)[0])
    pytest.skip("no forced pass in this game")
