"""Puzzles: the API the bot serves them with, the shipped file's integrity, and proofs again."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
import time
from pathlib import Path

import pytest

from ai import native, puzzles
from ai.evaluation import PIECE_VALUE, WIN_BONUS
from ai.puzzles import Puzzle
from rules import Colour, Position, legal_moves, parse_move, play, replay
from tests.conftest import REPO_ROOT

MIN_SHIPPED = 500
"""How many puzzles ship at least."""
SAMPLE_NODES = 20_000_000
"""The sample re-proved here: puzzles drawn at random (seeded) while their proofs' recorded
effort adds up to no more than this many nodes (a few seconds compiled)."""

needs_native = pytest.mark.skipif(not native.available(), reason="the compiled search is not built")


def _cheap(limit: int) -> list[Puzzle]:
    """Puzzles drawn at random (seed 26) while their recorded proof effort stays under ``limit``
    nodes (the effort of every step of a line is about that of its first, or less)."""
    chosen, spent = [], 0
    shuffled = list(puzzles.load())
    random.Random(26).shuffle(shuffled)
    for puzzle in shuffled:
        cost = puzzle.effort * 1000 * puzzle.solver_moves
        if spent + cost <= limit:
            chosen.append(puzzle)
            spent += cost
    return chosen


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


def test_a_line_of_the_file_round_trips() -> None:
    for puzzle in puzzles.load():
        assert puzzles.parse_line(puzzles.format_line(puzzle)) == puzzle


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


def test_each_position_is_one_puzzle() -> None:
    keys = [puzzles.position_key(p.position) for p in puzzles.load()]
    assert len(set(keys)) == len(keys)


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


def test_ratings_and_margins_are_in_range() -> None:
    for puzzle in puzzles.load():
        assert puzzles.MIN_RATING <= puzzle.rating <= puzzles.MAX_RATING
        assert puzzle.margin > 0
        assert 1 <= puzzle.search_depth <= puzzles.MAX_SEARCH_DEPTH + 1
        assert puzzle.rating == puzzles.rating_of(
            puzzle.search_depth,
            puzzle.solver_moves,
            puzzle.effort,
            len(legal_moves(puzzle.position)),
        )


def test_the_positions_text_is_what_rules_writes() -> None:
    for puzzle in puzzles.load():
        assert Position.from_text(puzzle.position.to_text()) == puzzle.position


# --- proofs ----------------------------------------------------------------------------------


@needs_native
def test_a_random_sample_proves_again() -> None:
    sample = _cheap(SAMPLE_NODES)
    assert len(sample) >= min(10, len(puzzles.load()))
    for puzzle in sample:
        assert puzzles.verify(puzzle) == [], puzzle.id


def test_the_python_search_agrees_on_the_cheapest_puzzles() -> None:
    """The Python search (written apart from the C) proves the same lines."""
    cheapest = sorted(puzzles.load(), key=lambda p: (p.effort * p.solver_moves, p.id))[:2]
    for puzzle in cheapest:
        assert puzzles.verify(puzzle, solver=puzzles.python_solver) == [], puzzle.id


@needs_native
def test_a_wrong_solution_is_caught() -> None:
    puzzle = _cheap(2_000_000)[0]
    wrong = next(m for m in legal_moves(puzzle.position) if m != puzzle.line[0])
    corrupted = dataclasses.replace(puzzle, line=(wrong, *puzzle.line[1:]))
    problems = puzzles.verify(corrupted)
    assert problems
    assert puzzle.id in problems[0]


@needs_native
def test_a_wrong_margin_is_caught() -> None:
    puzzle = _cheap(2_000_000)[0]
    problems = puzzles.verify(dataclasses.replace(puzzle, margin=puzzle.margin + 1))
    assert any("wins by" in problem for problem in problems)


@needs_native
def test_a_line_of_even_length_is_caught() -> None:
    puzzle = _cheap(2_000_000)[0]
    problems = puzzles.verify(dataclasses.replace(puzzle, line=puzzle.line[:1] * 2))
    assert problems


@needs_native
def test_a_reply_that_is_not_the_best_defence_is_caught() -> None:
    """Swap a multi-move puzzle's reply for a worse one: the verifier names it."""
    for puzzle in sorted(puzzles.load(), key=lambda p: p.effort):
        if len(puzzle.line) < 3:
            continue
        after = play(puzzle.position, puzzle.line[0])
        proof = puzzles.prove_step(after, max_nodes=puzzles.VERIFY_NODES)
        worse = [move for move, value in proof.values if value < proof.best]
        if worse:
            corrupted = dataclasses.replace(puzzle, line=(puzzle.line[0], worse[0]))
            corrupted = dataclasses.replace(corrupted, line=(*corrupted.line, puzzle.line[2]))
            problems = puzzles.verify(corrupted)
            assert problems
            return
    pytest.skip("no multi-move puzzle has a worse reply to try")


@needs_native
def test_verify_file_exits_non_zero_naming_the_bad_puzzle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _cheap(2_000_000)[:2]
    wrong = next(m for m in legal_moves(good[1].position) if m != good[1].line[0])
    bad = dataclasses.replace(good[1], line=(wrong,))
    path = tmp_path / "puzzles.txt"
    puzzles.write(path, [good[0], bad])
    assert puzzles.main(["--verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert bad.id in out
    assert "verified puzzles per CPU minute" in out
    puzzles.write(path, [good[0]])
    assert puzzles.main(["--verify", str(path)]) == 0


def test_pieces_reads_exact_values() -> None:
    assert puzzles.pieces(0) == 0
    assert puzzles.pieces(WIN_BONUS + 3 * PIECE_VALUE) == 3
    assert puzzles.pieces(-(WIN_BONUS + 5 * PIECE_VALUE)) == -5


# --- generation ------------------------------------------------------------------------------


@needs_native
def test_what_the_generator_makes_the_verifier_proves() -> None:
    """The last few positions of some logged games (a small node limit keeps it quick)."""
    made = []
    for game in itertools.islice(puzzles.match_games(), 6):
        made += puzzles.puzzles_in_game(game, max_nodes=100_000, variations=2)
        if len(made) >= 3:
            break
    assert made
    keys = [puzzles.position_key(p.position) for p in made]
    assert len(set(keys)) == len(keys)
    for puzzle in made:
        assert puzzles.verify(dataclasses.replace(puzzle, id="new")) == []
        assert puzzle.margin > 0
        assert puzzles.MIN_RATING <= puzzle.rating <= puzzles.MAX_RATING


@needs_native
def test_generate_keeps_a_files_puzzles_and_numbers_new_ones_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "puzzles.txt"
    old = dataclasses.replace(puzzles.load()[0], id="p0041")
    puzzles.write(path, [old])
    games = list(itertools.islice(puzzles.match_games(), 6))
    monkeypatch.setattr(puzzles, "all_games", lambda seed: iter(games))
    puzzles.generate(path, 3, max_nodes=100_000)
    kept = puzzles.read(path)
    assert kept[0] == old
    assert [p.id for p in kept[1:]] == [f"p{n:04d}" for n in range(42, 42 + len(kept) - 1)]
    assert "verified puzzles per CPU minute" in capsys.readouterr().out


@pytest.mark.slow
def test_self_play_games_are_legal_finished_and_fixed_by_their_seed() -> None:
    game = puzzles.self_play_game(7)
    assert game.source == "self-play"
    positions = replay(list(game.moves))  # raises on an illegal move
    assert legal_moves(positions[-1]) == ()
    assert puzzles.self_play_game(7) == game
