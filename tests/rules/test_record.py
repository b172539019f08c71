"""Game records in canonical spelling and Little Golem transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules


@pytest.fixture(scope="module")
def oracle_games(shared_dir: Path) -> list[list[rules.Move]]:
    games = []
    for name in ("edge_games.jsonl", "random_games_sample.jsonl"):
        for line in (shared_dir / "oracle" / name).open(encoding="utf-8"):
            game = json.loads(line)
            games.append([rules.parse_move(p["action"]) for p in game["positions"]])
    return games


def test_canonical_record_round_trips(oracle_games: list[list[rules.Move]]) -> None:
    for moves in oracle_games:
        text = rules.format_record(moves)
        assert text.split()[0] == str(moves[0])
        assert rules.parse_record(text) == moves
        assert rules.parse_record(text.lower().replace(" ", ", ")) == moves


def test_replay_gives_every_position(oracle_games: list[list[rules.Move]]) -> None:
    moves = oracle_games[0]
    positions = rules.replay(moves)
    assert len(positions) == len(moves) + 1
    assert positions[0] == rules.new_game()
    assert rules.is_over(positions[-1])


def test_replay_names_the_first_illegal_action() -> None:
    with pytest.raises(rules.TranscriptError, match=r"action 2 \(E3\): E3 is already occupied"):
        rules.replay(rules.parse_record("E3 E3"))


def test_parse_record_names_the_first_bad_token() -> None:
    with pytest.raises(rules.TranscriptError, match=r"action 3 \(Z9\)") as caught:
        rules.parse_record("E3 F3 Z9 A1")
    assert caught.value.ply == 2
    assert rules.parse_record("  ") == []


def test_little_golem_transcript_shape(oracle_games: list[list[rules.Move]]) -> None:
    moves = oracle_games[-1]
    text = rules.format_little_golem(moves, headers={"Event": "test", "White": "ann"})
    tokens = text.split()
    assert tokens[:6] == ["Event", "[test]", "White", "[ann]", "1.", str(moves[0]).lower()]
    assert text == text.lower().replace("event", "Event").replace("white", "White")
    # The forced 49th placement is left out, so pair 25 opens with White's first move.
    pair_25 = tokens.index("25.")
    assert tokens[pair_25 + 1] == str(moves[49]).lower()
    assert str(moves[48]).lower() not in tokens[tokens.index("24.") :][:4]


def test_little_golem_round_trip_fills_in_the_forced_placement(
    oracle_games: list[list[rules.Move]],
) -> None:
    for moves in oracle_games:
        transcript = rules.parse_little_golem(rules.format_little_golem(moves))
        assert list(transcript.moves) == moves
        assert transcript.resigned is None


def test_little_golem_resignation(oracle_games: list[list[rules.Move]]) -> None:
    moves = oracle_games[1][:60]
    text = rules.format_little_golem(moves, resigned=True)
    assert text.endswith("resign")
    transcript = rules.parse_little_golem(text)
    assert list(transcript.moves) == moves
    assert transcript.resigned is rules.replay(moves)[-1].turn


def test_little_golem_real_world_sample() -> None:
    # Headers in brackets with spaces, upper/lower case mixed, passes spelled "pass".
    sample = "Event [Dvonn tournament 1] Site [www.littlegolem.net] 1. e3 d3 2. c3 a1 3. B1"
    transcript = rules.parse_little_golem(sample)
    assert transcript.headers["Event"] == "Dvonn tournament 1"
    assert rules.format_record(transcript.moves) == "E3 D3 C3 A1 B1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e3 d3", "expected move number 1."),
        ("1. e3 d3 3. c3", "expected move number 2."),
        ("1. e3 e3", "E3 is already occupied"),
        ("1. e3 zz", "is not a move"),
        ("1. e3 resign 2. c3", "nothing may follow"),
    ],
)
def test_little_golem_errors_say_where(text: str, message: str) -> None:
    with pytest.raises(rules.TranscriptError, match=message):
        rules.parse_little_golem(text)


def test_transcript_errors_carry_their_reason_and_what_was_found() -> None:
    with pytest.raises(rules.TranscriptError) as caught:
        rules.parse_little_golem("1. e3 d3 2. e3")
    error = caught.value
    assert error.reason is rules.TranscriptReason.BAD_ACTION
    assert error.token == "e3" and error.ply == 2 and error.params["number"] == 3
    assert isinstance(error.cause, rules.IllegalMoveError) and error.__cause__ is error.cause
    assert str(error) == f"action 3 (e3): {error.cause}"
    with pytest.raises(rules.TranscriptError) as caught:
        rules.parse_little_golem("1. e3 resign 2. c3")
    assert caught.value.reason is rules.TranscriptReason.AFTER_RESIGN
    assert caught.value.params == {"token": "2."}
