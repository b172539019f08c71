"""The puzzle generator and prover: finds DVONN positions where exactly one move wins, proves
them, and proves the shipped set again (the bot only reads it: :mod:`ai.puzzles`).

A puzzle is a position from a real game (the engine against PrimaDvonna or against its own
levels, the oracle's reference games, self-play) and a *line*: the solver's move, the opponent's
reply, the solver's next move, ..., ending with a move of the solver's. Everything in it is
proven by the exact solver (:func:`solve`: the compiled search run until every leaf of its tree
is a finished game, as :data:`ai.search.EXACT_DEPTH` describes):

- at each of the solver's steps every legal move is searched to its exact final margin; the
  line's move wins (a positive margin) and every other move draws or loses, so it is the *only*
  winning move and :meth:`Puzzle.accepts` accepts exactly that move. The solver has at least two
  legal moves there (a forced move is no question);
- at each of the opponent's steps the reply is the only legal move or one of the best by exact
  value: the defence that loses least;
- the win is the same all along the line (the solver's moves keep it, the replies cannot cut
  it), and :attr:`Puzzle.margin` is it: the pieces by which the solver wins the game from the
  position with best play on both sides.

Passes. A line holds every action, as a game record does, so ``rules.play`` replays it: an
opponent who has no move replies ``PASS`` (the only legal move, so forced). The solver never
passes in a line: a step where the solver would have to pass is no question, so a line ends
before it.

Non-trivial. The best alternative never wins (by the first rule). How hard the winning move is
to see is measured, not assumed: :attr:`Puzzle.search_depth` is the shallowest fixed-depth search
of the engine's evaluation (1 = one move ahead, the easy level's look) from which on every
deeper search up to ten plies picks the line's moves; the rating (:func:`rating_of`) grows with
it, with the number of the solver's moves, with the solver's effort (nodes) to prove the win and
with the moves to choose from. Single moves a one-ply search finds are kept for new players,
rated lowest, and held to a fifth of the set (:data:`TRIVIAL_SHARE`).

Where the positions come from: the games in ``docs/matches`` (the strongest level against
PrimaDvonna and against the strong level), a log at a time in turn, then the oracle's reference
games, then self-play of the compiled search at several node limits and the medium level
(:func:`self_play_game`). In each game, from the end backwards as far as the solver finishes
within :data:`MAX_NODES` a position: the game's own position, and the positions after three
other moves (:data:`VARIATIONS`, most often a mistake the other side may punish). Two puzzles
with the same stacks and side to act are one; in a game, a puzzle's later steps are no puzzles
of their own.

The set ships as ``ai/puzzles.txt`` (one line a puzzle, see :func:`format_line`), read once by
:func:`ai.puzzles.load`. ``python -m tools.puzzles generate --out FILE --count N`` makes more (a
file that exists keeps its puzzles and ids; new ones get the next ids); ``python -m
tools.puzzles --verify [FILE]`` proves every puzzle again and exits non-zero naming any that
fail. Both print the rate in puzzles proven per CPU minute. Run by developers, never at
runtime.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import functools
import itertools
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeVar

from ai import native
from ai.choose import think
from ai.evaluation import PIECE_VALUE, WIN_BONUS, final_value
from ai.levels import Level, LevelSpec
from ai.puzzles import DATA, MAX_RATING, MIN_RATING, Puzzle, read
from ai.search import Searcher
from rules import (
    Colour,
    Move,
    Position,
    legal_moves,
    new_game,
    parse_move,
    parse_record,
    play,
    replay,
)
from rules.position import PLACEMENT_PLIES

HEADER: Final = (
    "# DVONN puzzles, proven by the exact solver (python -m tools.puzzles --verify).\n"
    "# id, position (rules.Position.to_text), line (solver, reply, solver, ...), rating,\n"
    "# margin (pieces), search depth that finds it, proof effort (thousands of nodes), source;\n"
    "# tab-separated.\n"
)
MAX_NODES: Final = 3_000_000
"""Nodes one exact solve may take while generating (about half a second compiled). A position
that needs more is not a puzzle candidate: too early in its game."""
VERIFY_NODES: Final = 60_000_000
"""Nodes one exact solve may take while verifying: far more than generation allowed, so a puzzle
fails verification only if it is wrong, never for want of time."""
MAX_SOLVER_MOVES: Final = 3
"""The longest line: three moves of the solver (five actions)."""
VARIATIONS: Final = 3
"""How many other moves than the game's are tried at each of its positions: the position after
one, where the other side acts, may be a puzzle too (most often after a mistake)."""
TRIVIAL_SHARE: Final = 0.2
"""The largest share of a generated set that :func:`is_trivial` puzzles may take (the easiest,
for new players; most positions where exactly one move wins are such)."""
MAX_SEARCH_DEPTH: Final = 10
"""The deepest fixed-depth search tried when measuring how deep a search must look."""

_T = TypeVar("_T")
_R = TypeVar("_R")


class Unproven(Exception):
    """The exact solver did not finish within its node limit."""


# --- the data file ---------------------------------------------------------------------------


def format_line(puzzle: Puzzle) -> str:
    """One line of the data file, tab-separated: id, position text, line, rating, margin,
    search depth, effort, source."""
    fields = (
        puzzle.id,
        puzzle.position.to_text(),
        " ".join(str(move) for move in puzzle.line),
        str(puzzle.rating),
        str(puzzle.margin),
        str(puzzle.search_depth),
        str(puzzle.effort),
        puzzle.source,
    )
    return "\t".join(fields)


def write(path: Path, puzzles: Iterable[Puzzle]) -> None:
    """Write a data file (atomically: a stopped run leaves the old one)."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as out:
        out.write(HEADER)
        for puzzle in puzzles:
            out.write(format_line(puzzle) + "\n")
    temporary.replace(path)


# --- the exact solver ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Solved:
    """A position's exact value for the side to act (engine units), a best move (or the forced
    one), and the nodes it took."""

    value: int
    nodes: int
    move: Move | None = None


def pieces(value: int) -> int:
    """An exact value as the final margin in pieces for the side it belongs to."""
    if value > 0:
        return (value - WIN_BONUS) // PIECE_VALUE
    if value < 0:
        return -((-value - WIN_BONUS) // PIECE_VALUE)
    return 0


Solver = Callable[[Position, int], Solved]
"""``solver(position, max_nodes)``: an exact value, or :class:`Unproven`."""


def native_solver(pos: Position, max_nodes: int) -> Solved:
    """Solve with the compiled search (iterative deepening until every leaf is final)."""
    result = native.search(pos, hard=None, max_nodes=max_nodes, max_depth=64, seed=0)
    if not result.exact:
        raise Unproven(pos.to_text())
    return Solved(result.value, result.nodes, result.move)


def python_solver(pos: Position, max_nodes: int) -> Solved:
    """Solve with the Python search (:mod:`ai.search`): slower, written apart from the C."""
    searcher = Searcher(max_nodes=max_nodes)
    try:
        result = searcher.iterate(pos, rng=random.Random(0), max_depth=64)
    except Exception as error:  # the node limit, as SearchTimeout, is caught by iterate
        raise Unproven(pos.to_text()) from error
    if not result.exact:
        raise Unproven(pos.to_text())
    return Solved(result.value, result.nodes, result.move)


def default_solver() -> Solver:
    """The compiled solver where it is built, else the Python one."""
    return native_solver if native.available() else python_solver


def solve(pos: Position, *, max_nodes: int = VERIFY_NODES, solver: Solver | None = None) -> Solved:
    """The exact value of ``pos`` for the side to act; :class:`Unproven` past ``max_nodes``.

    A finished game is scored; a forced action (a pass, a lone move) is played, since the
    searches answer a position with one legal move without searching it.
    """
    solver = solver or default_solver()
    sign, nodes, first = 1, 0, None
    while True:
        moves = legal_moves(pos)
        if not moves:
            return Solved(sign * final_value(pos), nodes, first)
        if len(moves) > 1:
            found = solver(pos, max_nodes)
            return Solved(sign * found.value, nodes + found.nodes, first or found.move)
        first = first or moves[0]
        pos = play(pos, moves[0])
        sign = -sign


@dataclass(frozen=True, slots=True)
class StepProof:
    """Every legal move of a position and its exact value for the mover (engine units)."""

    values: tuple[tuple[Move, int], ...]
    nodes: int

    @property
    def winning(self) -> list[Move]:
        return [move for move, value in self.values if value > 0]

    @property
    def best(self) -> int:
        return max(value for _, value in self.values)

    def value_of(self, move: Move) -> int:
        return dict(self.values)[move]

    @property
    def unique_win(self) -> Move | None:
        """The only winning move, if exactly one of two or more legal moves wins."""
        winning = self.winning
        return winning[0] if len(self.values) > 1 and len(winning) == 1 else None


def prove_step(pos: Position, *, max_nodes: int, solver: Solver | None = None) -> StepProof:
    """Solve every legal move of ``pos`` exactly (:class:`Unproven` if one takes too long)."""
    values, nodes = [], 0
    for move in legal_moves(pos):
        found = solve(play(pos, move), max_nodes=max_nodes, solver=solver)
        values.append((move, -found.value))
        nodes += found.nodes
    return StepProof(tuple(values), nodes)


# --- verification ----------------------------------------------------------------------------


def verify(
    puzzle: Puzzle, *, max_nodes: int = VERIFY_NODES, solver: Solver | None = None
) -> list[str]:
    """Prove ``puzzle`` again; the list of what is wrong with it (empty: it holds)."""
    problems: list[str] = []
    line = puzzle.line
    if not line or len(line) % 2 == 0:
        return [f"{puzzle.id}: a line has an odd number of actions, not {len(line)}"]
    pos = puzzle.position
    try:
        for step, move in enumerate(line):
            legal = legal_moves(pos)
            if move not in legal:
                return [*problems, f"{puzzle.id}: step {step}: {move} is not legal"]
            proof = prove_step(pos, max_nodes=max_nodes, solver=solver) if len(legal) > 1 else None
            if step % 2 == 0:
                if proof is None:
                    problems.append(f"{puzzle.id}: step {step}: {move} is forced, no question")
                    break
                winning = proof.winning
                if winning != [move]:
                    names = " ".join(str(m) for m in winning) or "none"
                    problems.append(
                        f"{puzzle.id}: step {step}: the winning moves are {names}, not {move} alone"
                    )
                elif pieces(proof.value_of(move)) != puzzle.margin:
                    problems.append(
                        f"{puzzle.id}: step {step}: {move} wins by "
                        f"{pieces(proof.value_of(move))}, not {puzzle.margin}"
                    )
            elif proof is not None and proof.value_of(move) < proof.best:
                problems.append(
                    f"{puzzle.id}: step {step}: the reply {move} is not the best defence "
                    f"({pieces(proof.value_of(move))} against {pieces(proof.best)})"
                )
            pos = play(pos, move)
    except Unproven:
        problems.append(f"{puzzle.id}: not solved within {max_nodes:,} nodes a position")
    return problems


# --- difficulty ------------------------------------------------------------------------------


def search_depth_for(pos: Position, move: Move, *, limit: int) -> int:
    """The shallowest depth ``d`` such that fixed-depth searches of every depth from ``d`` to
    ``limit`` choose ``move``; ``limit + 1`` if the deepest does not."""
    found = limit + 1
    for depth in range(limit, 0, -1):
        result = native.search(
            pos, hard=None, max_nodes=MAX_NODES, min_depth=depth, max_depth=depth, seed=0
        )
        if result.move != move:
            break
        found = depth
    return found


def rating_of(search_depth: int, solver_moves: int, effort: int, choices: int) -> int:
    """A difficulty on a Glicko-like scale, clamped to 600..2600.

    Mostly how deep a search must look to find the moves (180 points a ply beyond the first),
    then each further move the solver must find (150), the solver's effort to prove the win
    (50 points per doubling of its thousands of nodes beyond a thousand) and the legal moves to
    choose from (60 per doubling beyond eight). A first guess, to be corrected by how players
    fare.
    """
    rating = (
        MIN_RATING
        + 180 * (search_depth - 1)
        + 150 * (solver_moves - 1)
        + 50 * max(0.0, math.log2(max(effort, 1) / 1000))
        + 60 * max(0.0, math.log2(choices / 8))
    )
    return max(MIN_RATING, min(MAX_RATING, round(rating)))


def is_trivial(puzzle: Puzzle) -> bool:
    """One move, which a one-ply search finds: kept, rated lowest, but at most
    :data:`TRIVIAL_SHARE` of a set."""
    return puzzle.search_depth == 1 and puzzle.solver_moves == 1


def rerated(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with the rating :func:`rating_of` gives it now."""
    rating = rating_of(
        puzzle.search_depth, puzzle.solver_moves, puzzle.effort, len(legal_moves(puzzle.position))
    )
    return dataclasses.replace(puzzle, rating=rating)


# --- generation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Game:
    """A game to look for puzzles in: its actions and where it came from."""

    moves: tuple[Move, ...]
    source: str


def position_key(pos: Position) -> tuple[tuple[str, ...], Colour]:
    """What makes two puzzles the same: the stacks and the side to act (not the ply)."""
    return pos.stacks, pos.turn


class Prover:
    """Step proofs, remembered by position (a game's puzzles share many)."""

    def __init__(self, max_nodes: int = MAX_NODES, solver: Solver | None = None) -> None:
        self.max_nodes = max_nodes
        self.solver = solver
        self.proofs: dict[Position, StepProof] = {}
        self.no_puzzle: set[Position] = set()

    def step(self, pos: Position) -> StepProof:
        """Every legal move of ``pos`` solved (:func:`prove_step`)."""
        proof = self.proofs.get(pos)
        if proof is None:
            proof = prove_step(pos, max_nodes=self.max_nodes, solver=self.solver)
            self.proofs[pos] = proof
        return proof

    def unique_win(self, pos: Position) -> Move | None:
        """The only winning move of ``pos``, if it has one, found with less work than
        :meth:`step`: a position whose side to act does not win, or where a second winning move
        turns up, is left there (most positions, at about the cost of one or two solves)."""
        if pos in self.proofs:
            return self.proofs[pos].unique_win
        if pos in self.no_puzzle:
            return None
        moves = legal_moves(pos)
        root = solve(pos, max_nodes=self.max_nodes, solver=self.solver)
        if len(moves) < 2 or root.value <= 0:
            self.no_puzzle.add(pos)
            return None
        # The solver's own best move first: it wins, so a second winner ends the look.
        ordered = sorted(moves, key=lambda move: move != root.move)
        values: dict[Move, int] = {}
        nodes, winners = 0, 0
        for move in ordered:
            found = solve(play(pos, move), max_nodes=self.max_nodes, solver=self.solver)
            values[move] = -found.value
            nodes += found.nodes
            winners += values[move] > 0
            if winners > 1:
                self.no_puzzle.add(pos)
                return None
        proof = StepProof(tuple((move, values[move]) for move in moves), nodes)
        self.proofs[pos] = proof
        return proof.unique_win


def build_line(prover: Prover, pos: Position, first: Move) -> tuple[Move, ...]:
    """The line from ``pos`` whose first (proven only winning) move is ``first``: the best
    defence, then the solver's only winning move, while there is one (at most
    :data:`MAX_SOLVER_MOVES`). Among equally good replies, the first after which the solver
    again has exactly one winning move."""
    line: list[Move] = [first]
    after = play(pos, first)
    try:
        while len(line) < 2 * MAX_SOLVER_MOVES - 1:
            replies = legal_moves(after)
            if not replies:
                break
            if len(replies) == 1:
                best_replies = [replies[0]]
            else:
                proof = prover.step(after)
                best_replies = [move for move, value in proof.values if value == proof.best]
            for reply in best_replies:
                mine = play(after, reply)
                answer = prover.unique_win(mine)
                if answer is not None:
                    line += [reply, answer]
                    after = play(mine, answer)
                    break
            else:
                break
    except Unproven:
        pass  # the line ends where the proofs do
    return tuple(line)


def puzzles_in_game(
    game: Game, *, max_nodes: int = MAX_NODES, variations: int = VARIATIONS
) -> list[Puzzle]:
    """The puzzles (without ids) in one game's movement phase and beside it.

    From the game's end backwards, as far as the solver finishes within ``max_nodes`` a
    position: each position of the game, and the positions after up to ``variations`` other
    moves than the one played there (chosen at random, seeded by the game), where the other
    side is to act. Then the lines are built, the earliest position first."""
    positions = replay(list(game.moves))
    rng = random.Random(" ".join(str(move) for move in game.moves))
    prover = Prover(max_nodes)
    candidates: list[tuple[Position, Move, str]] = []
    for ply in range(len(positions) - 1, PLACEMENT_PLIES - 1, -1):
        pos = positions[ply]
        played = game.moves[ply] if ply < len(game.moves) else None
        others = [move for move in legal_moves(pos) if move != played]
        tries = [(pos, game.source)] + [
            (play(pos, move), f"{game.source}, a variation")
            for move in rng.sample(others, min(variations, len(others)))
        ]
        try:
            for position, source in tries:
                first = prover.unique_win(position)
                if first is not None:
                    candidates.append((position, first, source))
        except Unproven:
            break
    found: list[Puzzle] = []
    taken: set[tuple[tuple[str, ...], Colour]] = set()
    for pos, first, source in reversed(candidates):
        if position_key(pos) in taken:
            continue
        line = build_line(prover, pos, first)
        step_positions = [pos]
        for move in line[:-1]:
            step_positions.append(play(step_positions[-1], move))
        solver_positions = step_positions[::2]
        taken.update(position_key(p) for p in solver_positions)
        depth = max(
            search_depth_for(p, m, limit=MAX_SEARCH_DEPTH)
            for p, m in zip(solver_positions, line[::2], strict=True)
        )
        proof = prover.proofs[pos]
        effort = max(1, round(proof.nodes / 1000))
        margin = pieces(proof.value_of(first))
        found.append(
            Puzzle(
                id="",
                position=pos,
                line=line,
                rating=rating_of(depth, (len(line) + 1) // 2, effort, len(proof.values)),
                margin=margin,
                search_depth=depth,
                effort=effort,
                source=source,
            )
        )
    return found


# --- where games come from -------------------------------------------------------------------

MATCHES: Final = Path(__file__).resolve().parents[2] / "docs" / "matches"
ORACLE: Final = (
    Path(os.environ.get("DVONN_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "oracle"
)
"""The reference games of ``../shared`` beside the checkout (or ``$DVONN_SHARED``)."""


def match_games(folder: Path = MATCHES) -> Iterator[Game]:
    """The games of the match logs (``docs/matches/*.jsonl``: a settings line, then a game a
    line with its ``record``), a game of each log in turn."""
    logs = [_match_log(path) for path in sorted(folder.glob("*.jsonl"))]
    for games in itertools.zip_longest(*logs):
        yield from (game for game in games if game is not None)


def _match_log(path: Path) -> list[Game]:
    with path.open(encoding="utf-8") as lines:
        settings = json.loads(next(lines))
        opponent = "primadvonna" if "codecup" in str(settings.get("b", "")) else settings["b"]
        source = f"{settings['a']}-vs-{opponent}"
        records = [json.loads(text).get("record") for text in lines]
    return [Game(tuple(parse_record(record)), source) for record in records if record]


def oracle_games(folder: Path = ORACLE) -> Iterator[Game]:
    """The oracle's reference games (random play by independent engines), where present."""
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for text in lines:
                data = json.loads(text)
                actions = [parse_move(p["action"]) for p in data["positions"]]
                yield Game(tuple(actions), "oracle")


SELF_PLAY_NODES: Final = (20_000, 60_000, 200_000)
"""Node limits of the compiled search in self-play: weaker players make more positions where
only one move wins (someone has just erred), stronger ones subtler ones."""


def self_play_spec(nodes: int) -> LevelSpec:
    return dataclasses.replace(Level.STRONGEST.spec, compiled_nodes=nodes)


def self_play_game(seed: int) -> Game:
    """One game of the compiled search against itself at node limits chosen by ``seed``; the
    medium level (two plies, in Python) plays one side in a third of the games."""
    rng = random.Random(seed)
    sides: list[tuple[Level, LevelSpec | None]] = []
    for _ in range(2):
        if rng.random() < 1 / 3:
            sides.append((Level.MEDIUM, None))
        else:
            sides.append((Level.STRONGEST, self_play_spec(rng.choice(SELF_PLAY_NODES))))
    pos, moves = new_game(), []
    while legal := legal_moves(pos):
        level, spec = sides[0 if pos.turn is Colour.WHITE else 1]
        move = legal[0] if len(legal) == 1 else think(pos, level=level, seed=seed, spec=spec).move
        moves.append(move)
        pos = play(pos, move)
    return Game(tuple(moves), "self-play")


GameSource = Game | int
"""A game, or the seed of a self-play game (played where it is searched: in a worker)."""


def all_games(seed: int) -> Iterator[GameSource]:
    """The match logs, the oracle's games, then self-play games without end."""
    yield from match_games()
    if ORACLE.is_dir():
        yield from oracle_games()
    index = 0
    while True:
        yield seed * 1_000_003 + index
        index += 1


# --- the command line ------------------------------------------------------------------------


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished worker processes."""
    times = os.times()  # everywhere Python runs (``resource`` is Unix's alone)
    return times.user + times.system + times.children_user + times.children_system


def _puzzles_of(source: GameSource, max_nodes: int = MAX_NODES) -> list[Puzzle]:
    game = self_play_game(source) if isinstance(source, int) else source
    return puzzles_in_game(game, max_nodes=max_nodes)


def _mapped(function: Callable[[_T], _R], items: Iterable[_T], jobs: int) -> Iterator[_R]:
    """``map``, in ``jobs`` worker processes, taking items only as fast as they are done (the
    items may be endless)."""
    if jobs <= 1:
        yield from map(function, items)
        return
    waiting = iter(items)
    with ProcessPoolExecutor(jobs) as pool:
        pending = collections.deque(
            pool.submit(function, item) for item in itertools.islice(waiting, 2 * jobs)
        )
        while pending:
            yield pending.popleft().result()
            pending.extend(pool.submit(function, item) for item in itertools.islice(waiting, 1))


def generate(
    out: Path,
    count: int,
    *,
    seed: int = 1,
    jobs: int = 1,
    games: int | None = None,
    max_nodes: int = MAX_NODES,
) -> None:
    """Add puzzles to ``out`` until it holds ``count`` (from at most ``games`` games); prints
    progress and the rate."""
    kept = [rerated(puzzle) for puzzle in read(out)] if out.exists() else []
    trivial = sum(map(is_trivial, kept))
    seen = {position_key(p.position) for p in kept}
    next_number = 1 + max((int(p.id[1:]) for p in kept), default=0)
    start_cpu, start = _cpu_seconds(), time.perf_counter()
    made = 0
    sources = all_games(seed)
    if games is not None:
        sources = (game for _, game in zip(range(games), sources, strict=False))
    looked = 0
    search = functools.partial(_puzzles_of, max_nodes=max_nodes)
    for found in _mapped(search, _bounded(sources, lambda: len(kept) < count), jobs):
        looked += 1
        for puzzle in found:
            key = position_key(puzzle.position)
            if key in seen or len(kept) >= count:
                continue
            if is_trivial(puzzle):
                if trivial + 1 > TRIVIAL_SHARE * (len(kept) + 1):
                    continue
                trivial += 1
            seen.add(key)
            kept.append(dataclasses.replace(puzzle, id=f"p{next_number:04d}"))
            next_number += 1
            made += 1
        if looked % 10 == 0:
            write(out, kept)
            print(f"{looked} games, {len(kept)} puzzles", file=sys.stderr, flush=True)
    write(out, kept)
    cpu = _cpu_seconds() - start_cpu
    print(
        f"{made} new puzzles ({len(kept)} in {out}) from {looked} games in {cpu:.0f} s of CPU "
        f"({time.perf_counter() - start:.0f} s): {made / max(cpu, 1e-9) * 60:.1f} verified puzzles "
        "per CPU minute"
    )


def _bounded(items: Iterable[GameSource], going: Callable[[], bool]) -> Iterator[GameSource]:
    for item in items:
        if not going():
            return
        yield item


def _verify_one(puzzle: Puzzle) -> list[str]:
    return verify(puzzle)


def verify_file(path: Path, *, jobs: int = 1) -> int:
    """Prove every puzzle in ``path`` again; prints the failures and the rate; 1 if any failed."""
    puzzles = read(path)
    start_cpu = _cpu_seconds()
    failed: list[str] = []
    ids = [p.id for p in puzzles]
    duplicates = {pid for pid in ids if ids.count(pid) > 1}
    if duplicates:
        failed.append(f"ids used twice: {' '.join(sorted(duplicates))}")
    for problems in _mapped(_verify_one, puzzles, jobs):
        for problem in problems:
            print(problem, flush=True)
        failed += problems
    cpu = _cpu_seconds() - start_cpu
    print(
        f"{len(puzzles) - len({f.split(':')[0] for f in failed})} of {len(puzzles)} puzzles "
        f"proven in {cpu:.0f} s of CPU: {len(puzzles) / max(cpu, 1e-9) * 60:.1f} verified "
        "puzzles per CPU minute"
    )
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.puzzles", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--verify",
        nargs="?",
        const=str(DATA),
        metavar="FILE",
        help="prove every puzzle of FILE again (the shipped set if none)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    commands = parser.add_subparsers(dest="command")
    make = commands.add_parser("generate", help="find new puzzles and add them to a file")
    make.add_argument("--out", type=Path, default=DATA, help="the data file (kept and extended)")
    make.add_argument("--count", type=int, required=True, help="stop when the file holds this many")
    make.add_argument("--seed", type=int, default=1, help="the self-play games' seed")
    make.add_argument("--jobs", type=int, default=None, help="worker processes (default 1)")
    make.add_argument("--games", type=int, default=None, help="look at no more games than this")
    args = parser.parse_args(argv)
    if args.command == "generate":
        jobs = args.jobs or 1
        generate(args.out, args.count, seed=args.seed, jobs=jobs, games=args.games)
        return 0
    if args.verify is not None:
        return verify_file(Path(args.verify), jobs=args.jobs)
    parser.print_help()
    return 2
