"""External engines by the CodeCup 2011 protocol, played through the match runner."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from ai.levels import Level
from rules import Colour, Position, legal_moves, new_game, parse_move, play
from tests.conftest import REPO_ROOT
from tools.engine.codecup import serve
from tools.engine.match import MatchLog, MatchSettings, main, play_game
from tools.engine.players import CodeCupError, CodeCupPlayer, parse_player

STAND_IN = Path(__file__).with_name("codecup_random.py")
ROOT = REPO_ROOT


def command(*options: str) -> str:
    return shlex.join([sys.executable, str(STAND_IN), *options])


@pytest.fixture(autouse=True)
def _rules_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_the_prefix_names_an_external_program() -> None:
    player = parse_player("codecup:/opt/prima/player --time=40 --seed={seed}")
    assert isinstance(player, CodeCupPlayer)
    assert player.command == "/opt/prima/player --time=40 --seed={seed}"


@pytest.mark.parametrize("index", [0, 1], ids=["external-black", "external-white"])
@pytest.mark.slow
def test_whole_games_against_an_external_program(index: int) -> None:
    settings = MatchSettings("greedy", f"codecup:{command('--seed', '{seed}')}", None, 3, 0)
    result = play_game(settings, index)
    assert result.a_is_white == (index == 0)
    # Every ply was a move of one of the two players, both phases, passes included.
    assert result.a_moves + result.b_moves == result.plies > 49
    assert result.b_moves >= 24


def test_the_program_leaves_when_the_game_is_over() -> None:
    player = CodeCupPlayer(command())
    pos = new_game()
    while legal_moves(pos):
        external = pos.turn is Colour.BLACK
        move = player.choose(pos, budget=None, seed=1) if external else legal_moves(pos)[0]
        pos = play(pos, move)
    process = player._process
    assert process is not None
    player.close()
    assert process.returncode == 0  # it read Quit and left


def test_an_illegal_move_is_refused_with_the_program_and_the_move() -> None:
    player = CodeCupPlayer(command("--illegal"))
    with pytest.raises(CodeCupError, match="sent 'A1K5'"):
        player.choose(Position(), budget=None, seed=1)


def test_a_program_that_stops_is_reported() -> None:
    player = CodeCupPlayer(command("--quit-early"))
    with pytest.raises(CodeCupError, match="stopped"):
        player.choose(Position(), budget=None, seed=1)


def test_it_must_see_the_game_from_the_start() -> None:
    with pytest.raises(CodeCupError, match="opening-plies 0"):
        settings = MatchSettings("greedy", f"codecup:{command()}", None, 3, opening_plies=6)
        play_game(settings, 1)


@pytest.mark.slow
def test_the_command_line_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--a", "easy", "--b", f"codecup:{command()}", "--games", "2", "--progress", "0"])
    assert "2 games" in capsys.readouterr().out


def test_a_log_names_an_external_program_by_its_source_and_build_not_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "match.jsonl"
    player = f"codecup:{command('--seed', '{seed}')}"
    with pytest.raises(SystemExit):  # a log without the program's source is refused
        main(["--a", "greedy", "--b", player, "--games", "1", "--log", str(log)])
    assert "--b-source" in capsys.readouterr().err and not log.exists()
    source = "tests/tools/engine/codecup_random.py, CPython"
    arguments = ["--games", "1", "--log", str(log), "--b-source", source, "--progress", "0"]
    main(["--a", "greedy", "--b", player, *arguments])
    header = json.loads(log.read_text().splitlines()[0])
    assert header["b"] == "codecup" and header["b_source"] == source
    assert header["b_args"].endswith("--seed '{seed}'") and sys.executable not in str(header)
    assert f"B = {source}" in capsys.readouterr().out
    # The same match continues from the log wherever the program lies on another machine.
    elsewhere = f"codecup:{shlex.join(['/elsewhere/python', str(STAND_IN), '--seed', '{seed}'])}"
    settings = MatchSettings("greedy", elsewhere, None, 1, 0, b_source=source)
    assert len(MatchLog(log, settings).load()) == 1


def test_the_committed_match_logs_name_no_path_of_one_machine() -> None:
    logs = sorted((ROOT / "docs" / "matches").glob("*.jsonl"))
    assert logs
    for path in logs:
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        assert not any(str(value).startswith("codecup:") for value in header.values()), path
        if header["b"] == "codecup":
            # Named by its source and build: PrimaDvonna's repository and commit, or a commit
            # of this one; never a path, in the name or the arguments.
            source, arguments = header["b_source"], header["b_args"]
            assert "commit " in source, path
            assert "/" not in arguments and "/tmp" not in source and "/work" not in source, path
            if "PrimaDvonna" in source:
                assert "maksverver/PrimaDvonna commit 548dacf" in source, path


@pytest.mark.parametrize("index", [0, 1], ids=["front-end-black", "front-end-white"])
def test_a_level_plays_by_the_protocol_through_its_front_end(index: int) -> None:
    """``python -m tools.engine.codecup`` is how one version of the engine plays another: a
    whole game of it through the match runner, as either colour (White sends two moves at the
    phase change)."""
    front_end = shlex.join(
        [sys.executable, "-m", "tools.engine.codecup", "--level", "easy", "--seed"]
    )
    settings = MatchSettings("greedy", f"codecup:{front_end} {{seed}}", None, 5, 0)
    result = play_game(settings, index)
    assert result.a_moves + result.b_moves == result.plies > 49
    assert result.b_moves >= 24


def test_the_front_end_answers_start_and_each_move() -> None:
    out = io.StringIO()
    serve(["Start\n", "Quit\n"], out, level=Level.EASY, budget=None, seed=1)
    first = parse_move(out.getvalue().strip())
    assert first in legal_moves(new_game())
    out = io.StringIO()
    serve(["E3\n", "Quit\n"], out, level=Level.EASY, budget=None, seed=1)
    reply = parse_move(out.getvalue().strip())
    assert reply in legal_moves(play(new_game(), parse_move("E3")))
