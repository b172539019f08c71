"""The review's checks (``python -m tools.engine.review_check``): their figures, and each
command's path at a tiny budget."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import rules
from ai.review import settle
from rules import Colour
from tests.ai.positions import random_game
from tools.engine.review_check import (
    CALIBRATION_PLIES,
    MATCHES,
    Recheck,
    calibration,
    check_mistakes,
    deeper_loss,
    fit,
    main,
    match_games,
    summary,
)

NODES = 3_000


def test_a_fit_reports_correlation_bias_error_and_factor() -> None:
    found = fit("double", [1.0, 2.0, 3.0], [2.0, 4.0, 6.0])
    assert found.correlation == pytest.approx(1.0)
    assert found.slope == pytest.approx(2.0)  # the predictions should be doubled
    assert found.mean_error == pytest.approx(-2.0)  # they fell short by 2 on average
    assert found.mean_absolute_error == pytest.approx(2.0)
    assert found.baseline == pytest.approx(4.0)
    against = fit("against", [1.0, 2.0, 3.0], [3.0, 2.0, 1.0])
    assert against.correlation == pytest.approx(-1.0)
    assert "r=-1.00" in against.line()
    with pytest.raises(ValueError, match="two pairs"):
        fit("one", [1.0], [1.0])


def test_calibration_plays_games_and_fits_every_prediction() -> None:
    said: list[str] = []
    fits = calibration(2, nodes=NODES, review_budget=None, review_nodes=NODES, report=said.append)
    names = [f.name for f in fits]
    assert names[0] == "placement evaluation after ply 49"
    assert names[1:] == [f"review estimate at ply {ply}" for ply in CALIBRATION_PLIES]
    assert all(f.count == 2 for f in fits)
    assert said[0].startswith("game 1/2: final ") and len(said) == 2 + len(fits)


def test_match_games_are_drawn_from_the_logs_seeded() -> None:
    logs = sorted(MATCHES.glob("*.jsonl"))
    games = match_games(logs, 3, seed=4)
    assert games == match_games(logs, 3, seed=4) and len({name for name, _ in games}) == 3
    for name, moves in games:
        log, index = name.split("#")
        # Lines come in the order the games ended (two at a time with --jobs 2), not by index.
        lines = (MATCHES / f"{log}.jsonl").read_text().splitlines()[1:]
        (game,) = [g for g in map(json.loads, lines) if g["index"] == int(index)]
        assert rules.format_record(moves) == game["record"]
    with pytest.raises(ValueError, match="only"):
        match_games(logs[:1], 10_000, seed=1)


def _moves(seed: int) -> list[rules.Move]:
    positions = random_game(seed)
    return [
        next(m for m in rules.legal_moves(a) if rules.play(a, m) == b)
        for a, b in itertools.pairwise(positions)
    ]


def test_proven_mistakes_of_a_random_game_hold_when_searched_longer() -> None:
    said: list[str] = []
    checked = check_mistakes(
        [("random", _moves(5))], factor=3, budget=None, nodes=20_000, report=said.append
    )
    # Random moves lose pieces in the endgame, where the review proves it: a proof holds.
    assert checked and all(r.holds and r.deeper == pytest.approx(r.loss) for r in checked)
    assert said[0].startswith("1/1 random: ") and said[1].startswith(
        f"listed mistakes: {len(checked)} of {len(checked)} still cost >= 1 piece at 3x"
    )


def test_the_deeper_loss_of_moves_that_end_the_game_is_their_scores_difference() -> None:
    # A choice between two moves that both end the game: no search, the final scores decide.
    for seed in range(40):
        moves = _moves(seed)
        for ply in range(len(moves) - 1, rules.PLACEMENT_PLIES, -1):
            before = rules.replay(moves[:ply])[-1]
            ending = {}
            for move in rules.legal_moves(before):
                after = settle(rules.play(before, move))
                if not rules.legal_moves(after):
                    white, black = rules.score(after)
                    ending[move] = white - black if before.turn is Colour.WHITE else black - white
            if len(set(ending.values())) > 1:
                worse = min(ending, key=ending.__getitem__)
                better = max(ending, key=ending.__getitem__)
                game = [*moves[:ply], worse]
                loss = deeper_loss(game, ply, better, budget=None, nodes=NODES)
                assert loss == ending[better] - ending[worse] > 0
                assert deeper_loss(game, ply, worse, budget=None, nodes=NODES) == 0
                return
    pytest.fail("no choice between two endings in 40 random games")


def test_the_summary_counts_by_phase_and_by_the_loss_said() -> None:
    move = rules.parse_move("E3")
    checked = [
        Recheck("g", 20, move, move, 4.0, 4.0),
        Recheck("g", 60, move, move, 2.0, 0.5),
        Recheck("g", 61, move, move, 6.0, 1.0),
    ]
    lines = summary(checked, 10)
    assert lines[0] == "listed mistakes: 2 of 3 still cost >= 1 piece at 10x (67%)"
    assert lines[1] == "  placements: 1 of 1 still cost >= 1 piece at 10x (100%)"
    assert lines[2] == "  moves: 1 of 2 still cost >= 1 piece at 10x (50%)"
    assert "said to cost >= 5: 1 of 1" in lines[-1]


def test_the_command_line_runs_the_check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "one.jsonl"
    record = rules.format_record(_moves(5))
    log.write_text(json.dumps({"a": "x"}) + "\n" + json.dumps({"index": 0, "record": record}))
    command = ["mistakes", "--games", "1", "--nodes", "20000", "--factor", "2", "--log", str(log)]
    main(command)
    proven = capsys.readouterr().out
    assert "1/1 one#0: " in proven and "listed mistakes: " in proven
    main([*command, "--estimates"])
    estimated = capsys.readouterr().out
    listed = [out.splitlines()[-6] for out in (proven, estimated)]
    counts = [int(line.split(" of ")[1].split()[0]) for line in listed]
    assert counts[0] < counts[1], "estimates list more (random moves: every kind of loss)"
