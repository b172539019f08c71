"""The header's words: chosen from the position, taken from a replaceable Labels object."""

from __future__ import annotations

import pytest

import rules
from render import ENGLISH, Labels
from render.labels import compute_status as status
from tests.render.pixels import position

NAMES = ("Alice", "Борис")


def _play(*moves: str) -> rules.Position:
    pos = rules.new_game()
    for move in moves:
        pos = rules.play(pos, rules.parse_move(move))
    return pos


def test_the_first_three_placements_are_dvonn_pieces() -> None:
    first = status(rules.new_game(), ENGLISH, NAMES)
    assert (first.headline, first.details) == (
        "Alice to place a DVONN piece",
        "Placement · Move 1",
    )
    assert first.highlighted is rules.Colour.WHITE
    fourth = status(_play("A1", "B1", "C1"), ENGLISH, NAMES)
    assert (fourth.headline, fourth.details) == ("Борис to move", "Placement · Move 4")
    assert fourth.highlighted is rules.Colour.BLACK


def test_movement_numbers_every_action() -> None:
    pos = position({"E3": "W", "F3": "B", "G3": "D", "A1": "D", "K5": "D"})
    state = status(pos, ENGLISH, NAMES)
    assert (state.headline, state.details) == ("Alice to move", "Movement · Move 50")


def test_after_a_pass_the_details_say_who_passed() -> None:
    pos = position({"E3": "W", "F3": "B", "G3": "D", "A1": "D", "K5": "D"}, ply=50)
    state = status(pos, ENGLISH, NAMES, last_move=rules.PASS)
    assert state.details == "Alice passed · Move 51"
    assert state.headline == "Борис to move"


def test_a_win_and_a_draw() -> None:
    won = status(position({"E3": "D", "F3": "DDW", "A1": "BB"}), ENGLISH, NAMES)
    assert (won.headline, won.details, won.highlighted) == (
        "Alice wins",
        "Game over",
        rules.Colour.WHITE,
    )
    drawn = status(position({"E3": "D", "F3": "DDW", "A1": "BBB"}), ENGLISH, NAMES)
    assert (drawn.headline, drawn.highlighted) == ("Draw", None)


def test_translations_may_reorder_words() -> None:
    korean = ENGLISH.replace(to_move="{player} 차례", move_number="{number}수", movement="이동")
    pos = position({"E3": "W", "F3": "B", "G3": "D", "A1": "D", "K5": "D"})
    state = status(pos, korean, ("앨리스", "보리스"))
    assert (state.headline, state.details) == ("앨리스 차례", "이동 · 50수")


@pytest.mark.parametrize("template", ["{who} to move", "{0} to move", "{player", "{player.x}"])
def test_a_broken_translation_still_draws(template: str) -> None:
    state = status(rules.new_game(), ENGLISH.replace(to_place_dvonn=template), NAMES)
    assert "to move" in state.headline or "{player" in state.headline


def test_unknown_labels_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown labels"):
        ENGLISH.replace(too_move="x")


def test_labels_are_english_by_default() -> None:
    assert Labels() == ENGLISH
    assert ENGLISH.colour(rules.Colour.WHITE) == "White"
    assert ENGLISH.colour(rules.Colour.BLACK) == "Black"
