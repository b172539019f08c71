"""Puzzles: the API the bot serves them with, and the shipped file's integrity (the proofs
again and the generator: tests/tools/puzzles)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest

from ai import puzzles
from ai.puzzles import Puzzle
from rules import Colour, Position, legal_moves, parse_move, play
from tests.conftest import REPO_ROOT

MIN_SHIPPED = 500
"""How many puzzles ship at least."""


# --- the API ---------------------------------------------------------------------------------


def test_load_returns_the_shipped_puzzles_once() -> None:
    first = puzzles.load()
    assert len(first) >= MIN_SHIPPED
    assert puzzles.load() is first  # read once, then cached
    assert all(isinstance(p, Puzzle) for p in first)


def test_by_id_finds_each_puzzle_and_raises_key_error_for_none() -> None:
    for puzzle in puzzles.load():
        assert puzzles.by_id(puzzle.id) is puzzle
    with pytest.raises(KeyError):
        puzzles.by_id("p9999x")


def test_the_solver_is_the_side_to_act() -> None:
    for puzzle in puzzles.load():
        assert puzzle.solver() is puzzle.position.turn
        assert puzzle.solver() in (Colour.WHITE, Colour.BLACK)


def test_expects_and_accepts_follow_the_line() -> None:
    puzzle = puzzles.load()[0]
    assert puzzle.expects(0) == puzzle.line[0]
    assert puzzle.accepts(0, puzzle.line[0])
    others = [m for m in legal_moves(puzzle.position) if m != puzzle.line[0]]
    assert others  # a solver's step is a choice
    assert not any(puzzle.accepts(0, move) for move in others)
    # The same move read from its text is accepted too (moves compare by value).
    assert puzzle.accepts(0, parse_move(str(puzzle.line[0]).lower()))


def test_accepts_refuses_steps_that_are_not_the_solvers() -> None:
    puzzle = next(p for p in puzzles.load() if len(p.line) >= 3)
    assert puzzle.accepts(2, puzzle.line[2])
    with pytest.raises(ValueError, match="solver"):
        puzzle.accepts(1, puzzle.line[1])
    with pytest.raises(ValueError, match="solver"):
        puzzle.accepts(len(puzzle.line) + 1, puzzle.line[0])


def test_position_at_replays_the_line() -> None:
    puzzle = next(p for p in puzzles.load() if len(p.line) >= 3)
    assert puzzle.position_at(0) == puzzle.position
    assert puzzle.position_at(2) == play(play(puzzle.position, puzzle.line[0]), puzzle.line[1])
    assert puzzle.position_at(2).turn is puzzle.solver()


def test_a_malformed_line_is_refused() -> None:
    with pytest.raises(ValueError, match="8 tab-separated"):
        puzzles.parse_line("p0001\tnot enough")


def test_loading_and_serving_are_fast() -> None:
    start = time.perf_counter()
    fresh = puzzles.read(puzzles.DATA)  # what load() does once per process
    cold = time.perf_counter() - start
    assert cold < 1.0, f"reading the puzzles took {cold:.3f} s"
    assert len(fresh) == len(puzzles.load())
    ids = [p.id for p in fresh]
    times = []
    for pid in random.Random(1).choices(ids, k=1000):
        start = time.perf_counter()
        puzzle = puzzles.by_id(pid)
        puzzle.accepts(0, puzzle.line[0])
        times.append(time.perf_counter() - start)
    times.sort()
    assert times[989] < 0.1  # p99 of serving one, far under the 100 ms asked


# --- the shipped file ------------------------------------------------------------------------


def test_the_data_file_is_packaged_beside_the_module() -> None:
    assert puzzles.DATA.parent == Path(puzzles.__file__).parent
    assert puzzles.DATA.suffix == ".txt"  # pyproject's package data: "*" = ["*.txt", ...]
    text = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"\*" = \[[^\]]*"\*\.txt"', text)


def test_ids_are_unique_and_well_formed() -> None:
    ids = [p.id for p in puzzles.load()]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"p\d{4,}", pid) for pid in ids)


def test_lines_are_legal_and_end_with_a_solvers_choice() -> None:
    for puzzle in puzzles.load():
        assert len(puzzle.line) % 2 == 1, puzzle.id
        pos = puzzle.position
        for step, move in enumerate(puzzle.line):
            legal = legal_moves(pos)
            assert move in legal, (puzzle.id, step)
            if step % 2 == 0:
                assert pos.turn is puzzle.solver()
                assert len(legal) >= 2, (puzzle.id, step)  # never a forced move or a pass
            pos = play(pos, move)


def test_the_positions_text_is_what_rules_writes() -> None:
    for puzzle in puzzles.load():
        assert Position.from_text(puzzle.position.to_text()) == puzzle.position
