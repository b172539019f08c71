"""The puzzle generator and prover: the shipped file by the generator's rules, proofs again, and
new puzzles."""

from __future__ import annotations

import dataclasses
import itertools
import random
from pathlib import Path

import pytest

import ai.puzzles
from ai import native
from ai.evaluation import PIECE_VALUE, WIN_BONUS
from ai.puzzles import Puzzle
from rules import legal_moves, play, replay
from tools import puzzles

SAMPLE_NODES = 20_000_000
"""The sample re-proved here: puzzles drawn at random (seeded) while their proofs' recorded
effort adds up to no more than this many nodes (a few seconds compiled)."""

needs_native = pytest.mark.skipif(not native.available(), reason="the compiled search is not built")


def _cheap(limit: int) -> list[Puzzle]:
    """Puzzles drawn at random (seed 26) while their recorded proof effort stays under ``limit``
    nodes (the effort of every step of a line is about that of its first, or less)."""
    chosen, spent = [], 0
    shuffled = list(ai.puzzles.load())
    random.Random(26).shuffle(shuffled)
    for puzzle in shuffled:
        cost = puzzle.effort * 1000 * puzzle.solver_moves
        if spent + cost <= limit:
            chosen.append(puzzle)
            spent += cost
    return chosen


def test_a_line_of_the_file_round_trips() -> None:
    for puzzle in ai.puzzles.load():
        assert ai.puzzles.parse_line(puzzles.format_line(puzzle)) == puzzle


# --- the shipped file, by the generator's rules ---------------------------------------------------


def test_each_position_is_one_puzzle() -> None:
    keys = [puzzles.position_key(p.position) for p in ai.puzzles.load()]
    assert len(set(keys)) == len(keys)


def test_ratings_and_margins_are_in_range() -> None:
    for puzzle in ai.puzzles.load():
        assert ai.puzzles.MIN_RATING <= puzzle.rating <= ai.puzzles.MAX_RATING
        assert puzzle.margin > 0
        assert 1 <= puzzle.search_depth <= puzzles.MAX_SEARCH_DEPTH + 1
        assert puzzle.rating == puzzles.rating_of(
            puzzle.search_depth,
            puzzle.solver_moves,
            puzzle.effort,
            len(legal_moves(puzzle.position)),
        )


# --- proofs ----------------------------------------------------------------------------------


@needs_native
def test_a_random_sample_proves_again() -> None:
    sample = _cheap(SAMPLE_NODES)
    assert len(sample) >= min(10, len(ai.puzzles.load()))
    for puzzle in sample:
        assert puzzles.verify(puzzle) == [], puzzle.id


def test_the_python_search_agrees_on_the_cheapest_puzzles() -> None:
    """The Python search (written apart from the C) proves the same lines."""
    cheapest = sorted(ai.puzzles.load(), key=lambda p: (p.effort * p.solver_moves, p.id))[:2]
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
    for puzzle in sorted(ai.puzzles.load(), key=lambda p: p.effort):
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
        assert ai.puzzles.MIN_RATING <= puzzle.rating <= ai.puzzles.MAX_RATING


@needs_native
def test_generate_keeps_a_files_puzzles_and_numbers_new_ones_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "puzzles.txt"
    old = dataclasses.replace(ai.puzzles.load()[0], id="p0041")
    puzzles.write(path, [old])
    games = list(itertools.islice(puzzles.match_games(), 6))
    monkeypatch.setattr(puzzles, "all_games", lambda seed: iter(games))
    puzzles.generate(path, 3, max_nodes=100_000)
    kept = ai.puzzles.read(path)
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
