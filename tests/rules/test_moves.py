"""Move spelling: canonical output, lenient input, and errors for malformed text."""

from __future__ import annotations

import pytest

import rules
from rules import E3, F4
from rules.moves import JUMPS, PLACES


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("E3", "E3"),
        ("e3", "E3"),
        (" e3 ", "E3"),
        ("E3F4", "E3F4"),
        ("e3f4", "E3F4"),
        ("e3-f4", "E3F4"),
        ("E3 F4", "E3F4"),
        ("E3→F4", "E3F4"),
        ("e3 - f4", "E3F4"),
        ("E3–F4", "E3F4"),  # phones turn "-" into an en dash
        ("pass", "PASS"),
        ("PASS", "PASS"),
        ("Pass", "PASS"),
        ("K5", "K5"),
        ("A1K3", "A1K3"),  # well formed even though not on a line: play() judges it
    ],
)
def test_parse_lenient_spellings(text: str, canonical: str) -> None:
    assert str(rules.parse_move(text)) == canonical


@pytest.mark.parametrize("text", ["hello", "E3E", "E", "3", "", "   ", "E3F4G5", "PASSS", "E33F"])
def test_malformed_text_is_invalid(text: str) -> None:
    with pytest.raises(rules.InvalidMoveError) as caught:
        rules.parse_move(text)
    assert caught.value.reason is rules.InvalidReason.NOT_A_MOVE
    assert "is not a move" in str(caught.value)


@pytest.mark.parametrize("text", ["Z9", "A4", "a5", "E3Z9", "K1F4", "E6"])
def test_unknown_cells_are_invalid(text: str) -> None:
    with pytest.raises(rules.InvalidMoveError) as caught:
        rules.parse_move(text)
    assert caught.value.reason is rules.InvalidReason.UNKNOWN_CELL
    assert "names no cell" in str(caught.value)


def test_errors_are_value_errors_with_catalogue_keys() -> None:
    with pytest.raises(ValueError) as caught:
        rules.parse_move("Z9")
    error = caught.value
    assert isinstance(error, rules.RulesError)
    assert error.reason.key == "unknown_cell"
    assert error.params == {"text": "Z9"}


def test_every_interned_move_round_trips() -> None:
    for move in (*PLACES, *JUMPS.values(), rules.PASS):
        parsed = rules.parse_move(str(move))
        assert parsed == move
        assert parsed is move  # interned: cheap identity comparisons
        assert rules.parse_move(str(move).lower()) is move


def test_moves_compare_by_value_and_have_pasteable_reprs() -> None:
    assert rules.Jump(E3, F4) == rules.parse_move("E3F4")
    assert hash(rules.Place(E3)) == hash(rules.parse_move("e3"))
    assert repr(rules.parse_move("E3F4")) == "Jump(E3, F4)"
    assert eval(repr(rules.parse_move("E3F4")), vars(rules)) == rules.Jump(E3, F4)
    assert eval(repr(rules.parse_move("E3")), vars(rules)) == rules.Place(E3)
    assert repr(rules.PASS) == "PASS"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Е3", "E3"),  # a Cyrillic Е
        ("к3", "K3"),  # a Cyrillic к
        ("Ｅ３", "E3"),  # full-width letter and digit
        ("Ｅ３－Ｆ４", "E3F4"),
        ("Α1Β1", "A1B1"),  # Greek capitals
        ("с1d1", "C1D1"),  # a Cyrillic с and a Latin d
    ],
)
def test_look_alike_and_full_width_letters_are_read_as_the_cells_they_look_like(
    typed: str, expected: str
) -> None:
    assert str(rules.parse_move(typed)) == expected


def test_letters_beyond_k_stay_unknown_whatever_their_script() -> None:
    with pytest.raises(rules.InvalidMoveError):
        rules.parse_move("Ж3")  # Cyrillic Zhe looks like no cell letter
