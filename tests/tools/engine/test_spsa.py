"""Tuning the compiled search's weights by SPSA: the schedule, the update and the games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ai import native
from tools.engine import spsa
from tools.engine.players import LevelPlayer, parse_player
from tools.engine.spsa import Schedule, Tuned, default_tuned, play_pair, player, tune

pytestmark = pytest.mark.usefixtures("compiled")


def test_the_steps_shrink_to_the_last_step_and_the_gains_to_the_rate() -> None:
    tuned = Tuned("moves", 33, 5.0)
    schedule = Schedule(1000, rate=0.01)
    steps = [schedule.step(tuned, k) for k in (1, 10, 100, 1000)]
    assert steps == sorted(steps, reverse=True)
    assert steps[-1] == pytest.approx(5.0)
    a = [schedule.gain(tuned, k) * schedule.step(tuned, k) for k in (1, 10, 100, 1000)]
    assert a == sorted(a, reverse=True)
    assert a[-1] / steps[-1] ** 2 == pytest.approx(0.01)


def test_the_weights_move_toward_the_side_that_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    def bigger_moves_win(work: tuple[str, str, int]) -> int:
        first, second, _ = work
        ours, theirs = (int(re.search(r"moves=(-?\d+)", p)[1]) for p in (first, second))  # type: ignore[index]
        return 2 if ours > theirs else -2 if ours < theirs else 0

    monkeypatch.setattr(spsa, "play_pair", bigger_moves_win)
    tuned = (Tuned("moves", 33, 3.0), Tuned("edge", 28, 3.0))
    theta = tune(tuned, iterations=200, nodes=1000, seed=3, jobs=1)
    assert theta["moves"] > 33 + 10
    # The other weight's result is noise to it: it wanders, far less.
    assert abs(theta["edge"] - 28) < theta["moves"] - 33


def test_a_pair_is_scored_for_the_first_player(tmp_path: Path) -> None:
    sound = player({}, nodes=5000)
    backwards = "strongest{compiled_nodes=5000,stacks=-100,score=-32,moves=-33}"
    assert play_pair((sound, backwards, 1)) == 2
    assert play_pair((backwards, sound, 1)) == -2


def test_a_tuned_player_is_one_a_match_reads() -> None:
    values = {t.name: t.start + 1.4 for t in default_tuned()}
    parsed = parse_player(player(values, nodes=20_000))
    assert isinstance(parsed, LevelPlayer)
    assert parsed.spec is not None
    assert parsed.spec.compiled_nodes == 20_000
    assert parsed.spec.native.moves == native.DEFAULT_WEIGHTS.moves + 1
    assert parsed.spec.native.next_to_dvonn == native.DEFAULT_WEIGHTS.next_to_dvonn + 1


def test_the_tool_writes_each_round_and_prints_the_tuned_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "spsa.jsonl"
    spsa.main(["--iterations", "4", "--nodes", "1500", "--jobs", "2", "--out", str(out)])
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["iteration"] for line in lines] == [2, 4]
    assert all(len(line["results"]) == 2 for line in lines)
    printed = capsys.readouterr().out
    tuned = re.search(r"tuned: (\S+)", printed)
    assert tuned is not None
    parse_player(tuned[1])


def test_the_late_set_is_tuned_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "spsa.jsonl"
    spsa.main(["--iterations", "2", "--nodes", "1000", "--weights", "late", "--out", str(out)])
    theta = json.loads(out.read_text(encoding="utf-8").splitlines()[-1])["theta"]
    assert set(theta) == {*spsa.LATE, "field_bonus"}
    tuned = re.search(r"tuned: (\S+)", capsys.readouterr().out)
    assert tuned is not None and "late_moves=" in tuned[1] and "next_to_dvonn" not in tuned[1]
    parsed = parse_player(tuned[1])
    assert isinstance(parsed, LevelPlayer) and parsed.spec is not None
    assert parsed.spec.native.late_stuck == round(theta["late_stuck"])
