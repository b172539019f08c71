"""The match runner and the simple players it offers."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import rules
from ai.clock import move_budget
from ai.levels import Level
from rules.board import lookup_cell
from rules.position import PLACEMENT_PLIES
from tests.ai.positions import board
from tools.engine.match import MIN_BUDGET, MatchLog, MatchSettings, main, play_game, report
from tools.engine.players import (
    GreedyPlayer,
    LevelPlayer,
    RandomPlayer,
    parse_player,
    random_opening,
)


def test_players_parse_from_their_names() -> None:
    assert parse_player("random") == RandomPlayer()
    assert parse_player("Greedy") == GreedyPlayer()
    assert parse_player("level:strong") == LevelPlayer(Level.STRONG)
    assert parse_player("medium@0.2") == LevelPlayer(Level.MEDIUM, 0.2)
    assert parse_player("medium@0.2").name == "level:medium@0.2s"
    with pytest.raises(ValueError, match="unknown level"):
        parse_player("champion")


def test_greedy_takes_the_biggest_stack_it_can() -> None:
    # White to act: F3 (height 1) can take the black stack of three on G3 or a black single.
    pos = board({"E3": "D", "F3": "W", "G3": "BWB", "F4": "B", "D3": "D", "H3": "D"})
    move = GreedyPlayer().choose(pos, budget=None, seed=0)
    assert move == rules.jump(*map(_cell, ("F3", "G3")))


def _cell(name: str) -> int:
    cell = lookup_cell(name)
    assert cell is not None
    return cell


def test_a_game_alternates_colours_and_keeps_the_shared_opening() -> None:
    settings = MatchSettings("random", "greedy", None, seed=3, opening_plies=5)
    even, odd = play_game(settings, 0), play_game(settings, 1)
    assert even.a_is_white and not odd.a_is_white
    assert even.a_moves + even.b_moves + 5 == even.plies
    assert random_opening(5, 3 * 1_000_003) == random_opening(5, 3 * 1_000_003 + 1 // 2)
    # The record is the whole game, shared opening included: replayed, it ends as the game did.
    for game in (even, odd):
        positions = rules.replay(rules.parse_record(game.record))
        assert positions[5] == random_opening(5, 3 * 1_000_003)
        assert rules.score(positions[-1]) == (game.white, game.black)
        assert len(positions) - 1 == game.plies
    text = report(settings, [even, odd], wall=1.0)
    assert "A = random vs B = greedy; 2 games" in text
    assert "Elo A - B" in text


def test_the_command_line_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--a", "easy", "--b", "random", "--games", "4", "--seed", "2", "--progress", "2"])
    out, err = capsys.readouterr()
    assert "A = level:easy vs B = random; 4 games" in out
    assert "A overall" in out and "A as White" in out
    assert "[   4/4]" in err


def test_games_can_run_in_parallel_processes(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--a", "greedy", "--b", "random", "--games", "4", "--jobs", "2", "--progress", "0"])
    out, _ = capsys.readouterr()
    assert "4 games" in out


def test_a_logged_match_continues_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.jsonl"
    common = ["--a", "greedy", "--b", "random", "--seed", "5", "--progress", "0"]
    main([*common, "--games", "2", "--log", str(log)])
    first = log.read_text().splitlines()
    assert len(first) == 1 + 2  # the settings, then a line per game
    main([*common, "--games", "4", "--log", str(log)])
    out, err = capsys.readouterr()
    assert "continuing: 2 games already in" in err
    assert "4 games" in out
    lines = log.read_text().splitlines()
    assert lines[:3] == first  # the logged games were kept, not played again
    assert all(json.loads(line)["record"] for line in lines[1:])
    assert sorted(json.loads(line)["index"] for line in lines[1:]) == [0, 1, 2, 3]


def test_a_log_from_other_settings_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    main(["--a", "greedy", "--b", "random", "--games", "2", "--log", str(log), "--progress", "0"])
    with pytest.raises(SystemExit):
        main(["--a", "greedy", "--b", "random", "--games", "2", "--seed", "9", "--log", str(log)])


def test_a_line_cut_short_by_a_crash_is_played_again(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    main(["--a", "greedy", "--b", "random", "--games", "2", "--log", str(log), "--progress", "0"])
    text = log.read_text()
    log.write_text(text[: len(text) - 20])  # the last game's line, torn
    main(["--a", "greedy", "--b", "random", "--games", "2", "--log", str(log), "--progress", "0"])
    lines = log.read_text().splitlines()[1:]
    whole = [json.loads(line)["index"] for line in lines if line.endswith("}")]
    assert sorted(whole) == [0, 1]
    assert len(lines) == 3  # the torn line stays, ignored


def test_a_log_written_before_games_had_records_still_loads(tmp_path: Path) -> None:
    log = tmp_path / "match.jsonl"
    main(["--a", "greedy", "--b", "random", "--games", "1", "--log", str(log), "--progress", "0"])
    header, game = log.read_text().splitlines()
    old = json.loads(game)
    del old["record"]
    log.write_text(f"{header}\n{json.dumps(old)}\n")
    settings = MatchSettings("greedy", "random", None, 1, 0)
    (loaded,) = MatchLog(log, settings).load()
    assert loaded.record == "" and loaded.index == 0


def test_a_game_clock_is_spent_over_the_game_and_never_overdrawn() -> None:
    """Spending each move's whole share leaves time for every move still to come."""
    for seed in range(20):
        rng = random.Random(seed)
        pos, left, shares = rules.new_game(), 4.95, []
        while moves := rules.legal_moves(pos):
            share = move_budget(pos, left)
            assert 0 <= share <= left / 2 or pos.ply < PLACEMENT_PLIES
            shares.append((pos.ply, share))
            left -= share
            pos = rules.play(pos, rng.choice(moves))
        assert left > 0
        early = [s for ply, s in shares if 3 <= ply < PLACEMENT_PLIES - 12]
        moving = [s for ply, s in shares if ply >= PLACEMENT_PLIES]
        assert max(early) < min(moving[:5])  # the first moves get more than a placement
    assert move_budget(rules.new_game(), 4.95) == 0  # DVONN pieces: at random
    assert move_budget(pos, 0) == 0


def test_a_match_on_a_game_clock_says_so_and_keeps_it(capsys: pytest.CaptureFixture[str]) -> None:
    settings = MatchSettings("strong", "greedy", None, 3, 0, a_clock=1.0)
    assert settings.header()["a_clock"] == 1.0
    assert "a_clock" not in MatchSettings("strong", "greedy", None, 3, 0).header()
    result = play_game(settings, 0)
    # Each move takes its share of what is left, at least MIN_BUDGET: generous room for a
    # busy machine, but far less than the strong level's node limit would take.
    assert result.a_seconds < 1.0 + result.a_moves * MIN_BUDGET + 1.0
    main(["--a", "strong", "--b", "greedy", "--games", "2", "--seed", "3", "--a-clock", "1"])
    out = capsys.readouterr().out
    assert "A 1 s a game" in out
    assert "thinking per game: A mean" in out
