"""The DVONN rules on hand-made positions: the rule books' figures and every illegal case."""

from __future__ import annotations

import pytest

import rules
from rules import Colour, IllegalReason, Phase
from tests.rules.helpers import moves, names, position


def play_text(pos: rules.Position, text: str) -> rules.Position:
    return rules.play(pos, rules.parse_move(text))


def illegal_reason(pos: rules.Position, text: str, **kwargs: Colour) -> IllegalReason:
    with pytest.raises(rules.IllegalMoveError) as caught:
        rules.play(pos, rules.parse_move(text), **kwargs)
    return caught.value.reason


# --- phase 1 ---------------------------------------------------------------------------------


def test_new_game_is_empty_with_white_to_place() -> None:
    pos = rules.new_game()
    assert pos.ply == 0
    assert pos.turn is Colour.WHITE
    assert pos.phase is Phase.PLACEMENT
    assert pos.pieces_on_board() == 0
    assert len(rules.legal_moves(pos)) == 49
    assert not rules.is_over(pos)


def test_placement_order_dvonn_first_then_black_white_alternately() -> None:
    pos = rules.new_game()
    placed: list[tuple[str, str]] = []
    for cell in rules.CELLS:
        mover = pos.turn.value
        pos = rules.play(pos, rules.Place(cell))
        placed.append((mover, pos.stacks[cell]))
    assert placed[:5] == [("W", "D"), ("B", "D"), ("W", "D"), ("B", "B"), ("W", "W")]
    assert placed[-1] == ("W", "W")  # White places the 49th piece ...
    assert [m for m, _ in placed] == ["W", "B"] * 24 + ["W"]
    assert pos.phase is Phase.MOVEMENT
    assert pos.turn is Colour.WHITE  # ... and also moves first in phase 2
    text = "".join(pos.stacks)
    assert (text.count("W"), text.count("B"), text.count("D")) == (23, 23, 3)


def test_placing_on_an_occupied_cell_is_illegal() -> None:
    pos = play_text(rules.new_game(), "E3")
    assert illegal_reason(pos, "E3") is IllegalReason.CELL_OCCUPIED
    with pytest.raises(rules.IllegalMoveError, match="E3 is already occupied"):
        play_text(pos, "e3")


def test_moves_and_passes_are_illegal_while_placing() -> None:
    pos = play_text(play_text(rules.new_game(), "E3"), "F3")
    assert illegal_reason(pos, "E3F3") is IllegalReason.PLACEMENT_NOT_OVER
    assert illegal_reason(pos, "PASS") is IllegalReason.PLACEMENT_NOT_OVER


def test_nothing_is_removed_while_placing() -> None:
    pos = rules.new_game()
    for name in ("A1", "K5", "E3", "C5", "I1"):  # scattered, mostly out of DVONN contact
        result = rules.apply(pos, rules.parse_move(name))
        assert result.removed == {}
        pos = result.after
    assert pos.pieces_on_board() == 5


# --- phase 2: how stacks move ---------------------------------------------------------------


def test_a_stack_of_three_moves_exactly_three_cells_jumping_empty_cells() -> None:
    # Figure: E3 holds a stack of 3; F3 and G3 are empty; it may jump them to land on H3.
    pos = position({"E3": "WBW", "H3": "B", "H4": "D", "E4": "D", "A1": "D"})
    assert moves(pos) == ["E3H3"]
    assert illegal_reason(pos, "E3F3") is IllegalReason.WRONG_DISTANCE
    assert illegal_reason(pos, "E3G3") is IllegalReason.WRONG_DISTANCE
    assert illegal_reason(pos, "E3B3") is IllegalReason.TARGET_EMPTY
    result = rules.apply(pos, rules.parse_move("E3H3"))
    assert result.after.stack(rules.lookup_cell("H3") or 0) == "BWBW"
    assert result.after.stack(rules.lookup_cell("E3") or 0) == ""
    assert result.removed == {}
    assert result.after.turn is Colour.BLACK


def test_a_surrounded_stack_cannot_move_until_a_neighbour_is_freed() -> None:
    ring = dict.fromkeys(("D2", "E2", "F3", "E4", "F4"), "B")
    pos = position({"E3": "W", "D3": "D", **ring, "E1": "W", "G5": "D", "A1": "D"})
    assert pos.is_surrounded(rules.lookup_cell("E3") or 0)
    assert moves(pos) == ["E1E2"]  # only the edge piece; E3 is walled in
    assert illegal_reason(pos, "E3F3") is IllegalReason.SURROUNDED
    with pytest.raises(rules.IllegalMoveError, match="surrounded on all six sides"):
        play_text(pos, "E3F3")
    freed = position({"E3": "W", "D3": "D", **ring, "F4": "", "E1": "W", "G5": "D", "A1": "D"})
    assert "E3F3" in moves(freed)


def test_edge_stacks_are_never_surrounded() -> None:
    # A1 has only three neighbours, all occupied: it still moves.
    pos = position({"A1": "W", "B1": "B", "A2": "D", "B2": "B", "K5": "D", "G3": "D"})
    assert not pos.is_surrounded(rules.lookup_cell("A1") or 0)
    assert moves(pos) == ["A1A2", "A1B1", "A1B2"]


def test_a_lone_dvonn_piece_never_moves_but_stacks_may_land_on_it() -> None:
    pos = position({"A1": "D", "B1": "W", "K5": "D", "K4": "B", "E3": "D"})
    assert illegal_reason(pos, "A1B1") is IllegalReason.LONE_DVONN
    assert moves(pos) == ["B1A1"]
    after = play_text(pos, "B1A1")
    assert after.stack(rules.lookup_cell("A1") or 0) == "DW"
    assert after.owner(rules.lookup_cell("A1") or 0) is Colour.WHITE


def test_a_stack_holding_a_dvonn_piece_moves_for_the_owner_of_its_top() -> None:
    pos = position({"C3": "DW", "E3": "B", "E4": "D", "K5": "D", "D3": "B"})
    assert "C3E3" in moves(pos)
    after = play_text(pos, "C3E3")
    assert after.stack(rules.lookup_cell("E3") or 0) == "BDW"
    assert after.has_dvonn(rules.lookup_cell("E3") or 0)
    # Black may not move White's DVONN stack.
    black_to_move = position({"C3": "DW", "E3": "B", "E4": "D", "K5": "D", "D3": "B"}, ply=50)
    assert illegal_reason(black_to_move, "C3E3") is IllegalReason.NOT_YOUR_STACK


def test_only_the_owner_of_the_top_piece_moves_a_stack() -> None:
    pos = position({"E3": "WB", "G3": "W", "E4": "D", "A1": "D", "K5": "D"})
    assert pos.turn is Colour.WHITE
    reason = illegal_reason(pos, "E3G3")
    assert reason is IllegalReason.NOT_YOUR_STACK
    with pytest.raises(rules.IllegalMoveError, match="has a Black piece on top"):
        play_text(pos, "E3G3")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("C3C3", IllegalReason.SAME_CELL),
        ("C3D2", IllegalReason.NOT_IN_LINE),  # (+1, -1) is not a line
        ("C3E3", IllegalReason.WRONG_DISTANCE),
        ("B2C3", IllegalReason.SOURCE_EMPTY),
        ("C3D4", IllegalReason.TARGET_EMPTY),
        ("E3", IllegalReason.PLACEMENT_OVER),
        ("PASS", IllegalReason.PASS_NOT_ALLOWED),
    ],
)
def test_each_illegal_move_says_why(text: str, reason: IllegalReason) -> None:
    pos = position({"C3": "W", "D3": "B", "E3": "B", "A1": "D", "K5": "D", "E4": "D"})
    assert illegal_reason(pos, text) is reason


def test_error_messages_name_the_cells_and_heights() -> None:
    pos = position({"C3": "WW", "D3": "B", "E3": "B", "F3": "B", "A1": "D", "K5": "D", "F4": "D"})
    with pytest.raises(rules.IllegalMoveError) as caught:
        play_text(pos, "C3F3")
    error = caught.value
    assert error.params["height"] == 2
    assert error.params["distance"] == 3
    assert str(error) == (
        "The stack on C3 is 2 high, so it moves exactly 2 cells in a straight line; F3 is 3 away."
    )


def test_playing_for_the_wrong_side_is_refused() -> None:
    pos = play_text(rules.new_game(), "E3")
    assert pos.turn is Colour.BLACK
    assert illegal_reason(pos, "F3", by=Colour.WHITE) is IllegalReason.NOT_YOUR_TURN
    with pytest.raises(rules.IllegalMoveError, match="It is Black's turn, not White's"):
        rules.play(pos, rules.parse_move("F3"), by=Colour.WHITE)
    assert rules.play(pos, rules.parse_move("F3"), by=Colour.BLACK).ply == 2


def test_play_rejects_what_is_not_a_move() -> None:
    with pytest.raises(TypeError):
        rules.play(rules.new_game(), "E3")  # type: ignore[arg-type]


# --- losing pieces ---------------------------------------------------------------------------


def test_a_group_cut_off_from_every_dvonn_piece_is_removed_at_once() -> None:
    # C3 is a DVONN piece; D3-E3-F3-G3 hang off it in a row. Moving E3 onto D3 cuts F3 and G3.
    pos = position({"C3": "D", "D3": "B", "E3": "W", "F3": "B", "G3": "BB", "A1": "D", "K5": "D"})
    result = rules.apply(pos, rules.parse_move("E3D3"))
    assert names(result.removed) == ["F3", "G3"]
    assert result.removed == {rules.lookup_cell("F3"): "B", rules.lookup_cell("G3"): "BB"}
    assert result.pieces_removed == 3
    assert result.after.board() == {"C3": "D", "D3": "BW", "A1": "D", "K5": "D"}
    assert rules.score(result.after) == (2, 0)


def test_a_forced_move_that_cuts_off_the_movers_own_pieces_must_be_played() -> None:
    # White's only move, B1 (height 2) onto the DVONN piece on B3, leaves White's own stack on
    # C1 without DVONN contact: it must be played anyway, and C1 goes.
    pos = position({"A1": "D", "B1": "BW", "C1": "BBBW", "B3": "D", "K5": "D"})
    assert moves(pos) == ["B1B3"]
    result = rules.apply(pos, rules.parse_move("B1B3"))
    assert result.removed == {rules.lookup_cell("C1"): "BBBW"}
    assert rules.score(pos) == (6, 0)
    assert rules.score(result.after) == (3, 0)


def test_dvonn_pieces_always_stay_and_a_moved_dvonn_carries_contact() -> None:
    # The DVONN stack on E3 moves away; what was connected only through its old place goes.
    pos = position({"E3": "DW", "E2": "B", "E1": "B", "G3": "B", "A3": "D", "K5": "D"})
    result = rules.apply(pos, rules.parse_move("E3G3"))
    assert names(result.removed) == ["E1", "E2"]
    assert result.after.board() == {"G3": "BDW", "A3": "D", "K5": "D"}


def test_nothing_is_removed_when_the_group_stays_linked_around_the_source() -> None:
    # D3 leaves; its neighbours C2, D2 and C3 still touch each other, so nothing is cut.
    pos = position({"D3": "W", "C2": "B", "D2": "B", "C3": "D", "H3": "D", "K5": "D"})
    result = rules.apply(pos, rules.parse_move("D3C3"))
    assert result.removed == {}


# --- passing and the end -------------------------------------------------------------------


def test_a_player_without_moves_passes_while_the_other_can_move() -> None:
    # White's only stack is surrounded; Black's edge piece can move.
    ring = dict.fromkeys(("D2", "E2", "F3", "E4", "F4"), "B")
    pos = position({"E3": "BW", "D3": "D", **ring, "A1": "D", "K5": "D"})
    assert rules.legal_moves(pos) == (rules.PASS,)
    assert illegal_reason(pos, "E3E1") is IllegalReason.SURROUNDED
    after = rules.play(pos, rules.PASS)
    assert after.turn is Colour.BLACK
    assert after.stacks == pos.stacks
    assert len(rules.legal_moves(after)) > 0


def test_the_game_ends_when_neither_side_can_move() -> None:
    pos = position({"A1": "DW", "D1": "B", "K5": "D", "E3": "D"})
    assert rules.legal_moves(pos) == ()
    assert rules.is_over(pos)
    outcome = rules.outcome(pos)
    assert outcome == rules.Outcome(white=2, black=1)
    assert outcome is not None and outcome.winner is Colour.WHITE
    for text in ("A1C1", "PASS", "B1", "A1A3"):
        assert illegal_reason(pos, text) is IllegalReason.GAME_OVER
    assert illegal_reason(pos, "A1C1", by=Colour.BLACK) is IllegalReason.GAME_OVER


def test_equal_towers_are_a_draw_and_lone_dvonn_pieces_count_for_nobody() -> None:
    pos = position({"A1": "DW", "D1": "BB", "K5": "D", "E3": "D"})
    assert rules.score(pos) == (2, 2)
    outcome = rules.outcome(pos)
    assert outcome is not None and outcome.is_draw and outcome.winner is None
    assert str(outcome) == "2-2"


def test_outcome_is_none_while_the_game_runs() -> None:
    assert rules.outcome(rules.new_game()) is None


# --- helpers for the bot -------------------------------------------------------------------


def test_autocomplete_helpers() -> None:
    pos = position({"C3": "W", "D3": "B", "E3": "W", "F3": "B", "A1": "D", "K5": "D", "E4": "D"})
    assert names(rules.movable_cells(pos)) == ["C3", "E3"]
    assert names(rules.destinations(pos, rules.lookup_cell("E3") or 0)) == ["D3", "E4", "F3"]
    assert rules.destinations(pos, rules.lookup_cell("D3") or 0) == []
    assert len(rules.empty_cells(pos)) == 49 - 7
    assert rules.movable_cells(rules.new_game()) == []


# --- the position as a value ---------------------------------------------------------------


def test_positions_are_immutable() -> None:
    pos = rules.new_game()
    with pytest.raises(AttributeError):
        pos.ply = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        pos.stacks = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        pos.stacks[0] = "W"  # type: ignore[index]


def test_text_form_round_trips_and_repr_pastes_back() -> None:
    pos = position({"C3": "DW", "E3": "B", "E4": "D", "K5": "D", "D3": "BBW"}, ply=57)
    text = pos.to_text()
    assert text.startswith("57 ")
    assert rules.Position.from_text(text) == pos
    assert eval(repr(pos), vars(rules)) == pos
    assert rules.Position.from_text(rules.new_game().to_text()) == rules.new_game()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "x .,.",
        "0 .,.,.",
        "49 " + "/".join([",".join(["W"] * n) for n in (9, 10, 11, 10, 9)]),  # 49 whites
        "3 " + "/".join([",".join(["."] * n) for n in (9, 10, 11, 10, 9)]),  # ply 3, empty
        "60 " + "/".join([",".join(["Q"] + ["."] * (n - 1)) for n in (9, 10, 11, 10, 9)]),
    ],
)
def test_bad_position_texts_are_refused(text: str) -> None:
    with pytest.raises(rules.PositionTextError):
        rules.Position.from_text(text)
