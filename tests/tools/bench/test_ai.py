"""The time-budget benchmark runs and prints a line per level."""

from __future__ import annotations

import pytest

from rules import legal_moves
from tools.bench.ai import main, sample_positions


def test_positions_come_from_both_phases_and_have_a_choice() -> None:
    positions = sample_positions(30, seed=4)
    assert any(pos.ply < 49 for pos in positions) and any(pos.ply >= 49 for pos in positions)
    assert all(len(legal_moves(pos)) > 1 for pos in positions)


def test_it_prints_the_timings_of_each_level(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--budget", "0.01", "--positions", "3", "--levels", "beginner,strong"])
    out = capsys.readouterr().out
    assert "budget 0.01 s/move; 3 positions" in out
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["beginner", "strong"]


def test_the_compiled_and_the_python_search_are_timed_side_by_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--budget", "0.05", "--positions", "2", "--levels", "strongest,strongest-python"])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [row[0] for row in rows] == ["strongest", "strongest-python"]
    assert all(float(row[-1].replace(",", "")) > 0 for row in rows)  # nodes per second
