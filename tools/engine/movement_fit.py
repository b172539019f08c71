"""Fit the compiled search's movement weights to the results of self-play (a developer's tool,
never run by the bot; Texel-style tuning, with the final margin as the result).

    python -m tools.engine.movement_fit generate --games 1500 --jobs 2 --out /tmp/movement.jsonl
    python -m tools.engine.movement_fit fit /tmp/movement.jsonl

``generate`` plays games of the compiled search against itself (30,000 nodes a move, a random
placement now and then so that the games vary) and keeps, for every position of the movement
phase, the evaluation's terms (:func:`ai.native.movement_terms`) and the game's final margin,
one JSON line a game. ``fit`` fits the terms' weights by least squares, so that the evaluation
predicts the final margin for the player to act, and prints them as
:class:`ai.native.NativeWeights` fields (``stacks`` kept at 100), with the correlation on the
games it held out of the fitted weights and of the weights in use.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

from ai import native
from ai.choose import place_dvonn
from ai.native import DEFAULT_WEIGHTS, NativeWeights
from rules import Colour, Move, Position, legal_moves, play, score
from rules.position import PLACEMENT_PLIES
from tools.engine.fitting import Regression, append_lines, correlation, in_processes, predict, split

NODES: Final = 30_000
"""Nodes a move in the generated games."""
EXPLORE: Final = 0.1
"""The chance of a random placement, so that games from the same start differ."""
WEIGHED: Final = ("stacks", "moves", "to_dvonn", "to_enemy")
"""Terms the evaluation divides by 64 after weighing (field values: 64 is one unit)."""
PER_PIECE: Final = ("score", "capture", "stuck", "guarded")
"""Terms in pieces, White's minus Black's."""
FOR_THE_MOVER: Final = ("best",)
"""Terms already for the player to act."""

Row = tuple[int, list[int], int]
"""A position's ply, its terms (White's minus Black's, then the mover's), and the mover's sign
(+1 White)."""
TAPER_PLIES: Final = 40
"""As engine.c's: the evaluation moves from the first weights to the late ones over as many
moves."""


def play_game(seed: int) -> tuple[list[Row], int]:
    """One self-play game: its movement positions' terms, and White's final margin."""
    rng = random.Random(seed)
    pos = Position()
    rows: list[Row] = []
    while moves := legal_moves(pos):
        move: Move
        if pos.ply < 3:
            move = place_dvonn(pos, rng)
        elif len(moves) == 1:
            move = moves[0]
        elif pos.ply < PLACEMENT_PLIES and rng.random() < EXPLORE:
            move = rng.choice(moves)
        else:
            depth = 64 if pos.ply >= PLACEMENT_PLIES - 12 else 3
            move = native.search(
                pos, hard=None, max_nodes=NODES, max_depth=depth, seed=rng.getrandbits(64)
            ).move
        if pos.ply >= PLACEMENT_PLIES:
            can_move, terms = native.movement_terms(pos)
            if can_move:
                rows.append((pos.ply, terms, 1 if pos.turn is Colour.WHITE else -1))
        pos = play(pos, move)
    white, black = score(pos)
    return rows, white - black


def generate(games: int, *, seed: int, jobs: int) -> Iterator[tuple[list[Row], int]]:
    return in_processes(play_game, range(seed, seed + games), jobs)


def features(ply: int, terms: Sequence[int], sign: int, *, taper: bool) -> list[float]:
    """The terms for the player to act; with ``taper``, once weighed for early in the game and
    once for late (the evaluation's taper)."""
    n = len(WEIGHED) + len(PER_PIECE)
    own: list[float] = [float(sign * t) for t in terms[:n]] + [float(t) for t in terms[n:]]
    if not taper:
        return own
    late = min(1.0, (ply - PLACEMENT_PLIES) / TAPER_PLIES)
    return [t * (1 - late) for t in own] + [t * late for t in own]


NAMES: Final = (*WEIGHED, *PER_PIECE, *FOR_THE_MOVER)


def as_weights(solved: Sequence[float]) -> dict[str, int]:
    """Fitted weights as NativeWeights fields, the early ``stacks`` at 100: the weighed terms
    are divided by 64 in the evaluation, the others are not. Without a taper (one set), the
    late weights are the same."""
    if solved[0] <= 0:
        raise ValueError(f"the fit gave the stacks term no positive weight ({solved[0]:g})")
    scale = 100 / solved[0]
    if len(solved) == len(NAMES) + 1:
        solved = [*solved[:-1], *solved[:-1], solved[-1]]
    names = (*NAMES, *(f"late_{name}" for name in NAMES))
    return {
        name: round(w * scale / (1 if name.removeprefix("late_") in WEIGHED else 64))
        for name, w in zip(names, solved, strict=False)
    }


def in_use(weights: NativeWeights) -> list[float]:
    """The evaluation's weights as the fit's (constant 0), to compare predictions."""
    values: list[float] = []
    for prefix in ("", "late_"):
        values += [getattr(weights, prefix + name) / 64 for name in WEIGHED]
        values += [getattr(weights, prefix + name) for name in (*PER_PIECE, *FOR_THE_MOVER)]
    return [*values, 0.0]


def fit(
    games: Sequence[tuple[list[Row], int]], *, taper: bool = False
) -> tuple[dict[str, int], str]:
    """The weights fitted on every game (one set, or with ``taper`` an early and a late one),
    and a report of how well the weights fitted without the held-out games predict them."""
    training, held_out = split(games)
    regression = Regression.of_size(len(NAMES) * (2 if taper else 1))
    for rows, margin in training:
        for ply, terms, sign in rows:
            regression.add(features(ply, terms, sign, taper=taper), sign * margin)
    solved = regression.solve()
    fitted: list[float] = []
    current: list[float] = []
    actual: list[float] = []
    old = in_use(DEFAULT_WEIGHTS)
    for rows, margin in held_out:
        for ply, terms, sign in rows:
            fitted.append(predict(solved, features(ply, terms, sign, taper=taper)))
            current.append(predict(old, features(ply, terms, sign, taper=True)))
            actual.append(sign * margin)
    report = (
        f"{len(training)} games fitted ({regression.count} positions), {len(held_out)} held out "
        f"({len(actual)} positions): correlation with the final margin "
        f"{correlation(fitted, actual):+.3f} fitted, {correlation(current, actual):+.3f} with "
        "the weights in use"
    )
    for rows, margin in held_out:  # the weights given: fitted on every game
        for ply, terms, sign in rows:
            regression.add(features(ply, terms, sign, taper=taper), sign * margin)
    return as_weights(regression.solve()), report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.engine.movement_fit", description=__doc__
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="play self-play games and keep their terms")
    make.add_argument("--games", type=int, default=1500)
    make.add_argument("--seed", type=int, default=10_000)
    make.add_argument("--jobs", type=int, default=1)
    make.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit the weights and print them")
    fitting.add_argument("data", type=Path)
    fitting.add_argument(
        "--taper", action="store_true", help="fit early and late weights (the default: one set)"
    )
    args = parser.parse_args(argv)
    if not native.available():
        parser.exit(2, "the compiled search is not built: run python -m ai.native.build\n")
    if args.command == "generate":
        made = generate(args.games, seed=args.seed, jobs=args.jobs)
        lines = (json.dumps({"rows": rows, "margin": margin}) for rows, margin in made)
        append_lines(args.out, lines, args.games)
        return
    games = []
    for line in args.data.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        rows = [(int(ply), list(terms), int(sign)) for ply, terms, sign in data["rows"]]
        games.append((rows, int(data["margin"])))
    weights, report = fit(games, taper=args.taper)
    print(report)
    print(", ".join(f"{name}={value}" for name, value in weights.items()))


if __name__ == "__main__":
    main()
