"""Fit a placement model for the compiled search (a developer's tool, never run by the bot; the
model is off in every level, ``placement_model=0``, because neither fit played better than
PrimaDvonna's hand table: docs/engine.md gives the matches).

    python -m tools.engine.placement_fit generate --games 5000 --jobs 2 --label-nodes 30000 \
        --out FILE
    python -m tools.engine.placement_fit fit FILE --scale 100 --out ai/native/placement_model.h

``generate`` plays the placement phase of many games (the compiled search two plies deep, a
random placement now and then so that the positions vary) and values the position after the
49th placement, one JSON line a game: the placements and that value, for White. ``--label
play`` (the default) plays the game on, the compiled search with ``--label-nodes`` a move for
both, and takes its final margin; ``--label search`` takes one search's value of the position
instead (less noisy than a result, but it scored far worse: the movement search's opinion of a
full board is not what wins). ``fit`` counts each position's kinds of piece
(:func:`ai.native.piece_kinds`: distance to the DVONN pieces, edge, own and other neighbours)
and fits, for each stage of the placement, a weight per kind by ridge regression, so that
White's pieces' weights minus Black's predict the value; ``--scale 100`` turns a margin in
pieces into centipieces first, so whole-number weights keep their precision. It prints each
stage's correlation on the games it held out, and the constant model's. The committed header
holds the fit to final margins (its first lines say so).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ai import native
from ai.choose import place_dvonn
from rules import Move, Position, legal_moves, parse_move, play, score
from rules.position import PLACEMENT_PLIES
from tools.engine.fitting import (
    Regression,
    append_lines,
    constant_error,
    correlation,
    in_processes,
    mean_abs,
    predict,
    split,
)

STAGES: Final = 3
"""As ``PLACEMENT_STAGES`` in the header: the placement's 46 plies of pieces in equal stages."""
LABEL_NODES: Final = 400_000
"""Nodes of each search that values a placement (a move of the game played on, or the one
search of ``--label search``)."""
LABEL_LIMIT: Final = 4_000
"""Values beyond this, once scaled, count as this much (a search that found a won game gives
a value far beyond any heuristic one)."""
RIDGE: Final = 1.0
"""How strongly the weights are pulled towards zero, per position (so kinds seldom seen stay
near it)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One generated game's placement and the value of its end."""

    placements: tuple[Move, ...]
    value: int
    """For White, who moves first once every piece is placed: the final margin of the game
    played on, or one search's value (``--label``)."""

    def to_json(self) -> str:
        return json.dumps(
            {"placements": " ".join(str(m) for m in self.placements), "value": self.value}
        )

    @classmethod
    def from_json(cls, line: str) -> Sample:
        data = json.loads(line)
        return cls(tuple(parse_move(m) for m in data["placements"].split()), int(data["value"]))


def play_placement(
    seed: int, *, explore: float = 0.25, label: str = "play", label_nodes: int = LABEL_NODES
) -> Sample:
    """One game's placement phase and the search's value at its end."""
    rng = random.Random(f"placement-fit/{seed}")
    pos = Position()
    placements: list[Move] = []
    while pos.ply < PLACEMENT_PLIES:
        move: Move
        if pos.ply < 3:
            move = place_dvonn(pos, rng)
        elif rng.random() < explore:
            move = rng.choice(legal_moves(pos))
        else:
            move = native.search(
                pos, hard=None, max_nodes=50_000, max_depth=2, seed=rng.getrandbits(64)
            ).move
        placements.append(move)
        pos = play(pos, move)
    if label == "search":
        return Sample(tuple(placements), native.search(pos, hard=None, max_nodes=label_nodes).value)
    # "play": the final margin, White's pieces minus Black's, of the game played on from there
    # by the compiled search with label_nodes a move for both players.
    while moves := legal_moves(pos):
        move = (
            moves[0]
            if len(moves) == 1
            else native.search(pos, hard=None, max_nodes=label_nodes, seed=rng.getrandbits(64)).move
        )
        pos = play(pos, move)
    white, black = score(pos)
    return Sample(tuple(placements), white - black)


def generate(games: int, *, seed: int, jobs: int, label: str, label_nodes: int) -> Iterator[Sample]:
    work = [(seed * 1_000_003 + i, label, label_nodes) for i in range(games)]
    return in_processes(_play, work, jobs)


def _play(args: tuple[int, str, int]) -> Sample:
    return play_placement(args[0], label=args[1], label_nodes=args[2])


def rows(sample: Sample) -> Iterator[tuple[int, list[int]]]:
    """Each position of the sample after a piece of a player was placed: stage and kinds."""
    pos = Position()
    for move in sample.placements:
        pos = play(pos, move)
        if 3 < pos.ply < PLACEMENT_PLIES:
            yield native.piece_kinds(pos)


def target_of(sample: Sample, scale: float = 1.0) -> float:
    return max(-LABEL_LIMIT, min(LABEL_LIMIT, sample.value * scale))


def fit(
    samples: Sequence[Sample], *, ridge: float = RIDGE, scale: float = 1.0
) -> tuple[list[list[int]], str]:
    """Each stage's weights (whole numbers), and a report of how well they predict.
    ``scale`` multiplies the values first (100 makes a final margin in pieces centipieces, so
    that whole-number weights keep their precision)."""
    training, held_out = split(samples)
    stages = [Regression.of_size(native.PIECE_KINDS) for _ in range(STAGES)]
    for sample in training:
        target = target_of(sample, scale)
        for stage, counts in rows(sample):
            stages[stage].add(counts, target)
    solved = [stage.solve(ridge) for stage in stages]
    weights = [[round(w) for w in weights[: native.PIECE_KINDS]] for weights in solved]
    lines = [f"{len(training)} games fitted, {len(held_out)} held out"]
    for index, stage_weights in enumerate(solved):
        predicted: list[float] = []
        actual: list[float] = []
        for sample in held_out:
            for stage, counts in rows(sample):
                if stage == index:
                    predicted.append(predict(stage_weights, counts))
                    actual.append(target_of(sample, scale))
        lines.append(
            f"stage {index + 1}: {stages[index].count} positions; held out: correlation "
            f"{correlation(predicted, actual):+.3f}, mean absolute error "
            f"{mean_abs(predicted, actual):.0f} (a constant: {constant_error(actual):.0f})"
        )
    return weights, "\n".join(lines)


def header(weights: Sequence[Sequence[int]], note: str) -> str:
    """``placement_model.h`` for these weights."""
    lines = [
        "/* Written by python -m tools.engine.placement_fit; see engine.c's evaluate_placement.",
        *(f" * {line}" for line in note.splitlines()),
        " */",
        f"#define PLACEMENT_STAGES {len(weights)}",
        f"#define PIECE_KINDS {native.PIECE_KINDS}",
        "static const int placement_weights[PLACEMENT_STAGES][PIECE_KINDS] = {",
    ]
    for stage in weights:
        lines.append("    {")
        for start in range(0, len(stage), 16):
            lines.append("        " + ", ".join(f"{w}" for w in stage[start : start + 16]) + ",")
        lines.append("    },")
    lines.append("};")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.engine.placement_fit", description=__doc__
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="play placements and value their ends")
    make.add_argument("--games", type=int, default=4000)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--jobs", type=int, default=1)
    make.add_argument(
        "--label",
        choices=("play", "search"),
        default="play",
        help="value the placement by the game played on (final margin) or by one search",
    )
    make.add_argument("--label-nodes", type=int, default=LABEL_NODES)
    make.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit the model and write its header")
    fitting.add_argument("data", type=Path)
    fitting.add_argument("--ridge", type=float, default=RIDGE)
    fitting.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiplies the values (100: pieces to centipieces)",
    )
    fitting.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not native.available():
        parser.exit(2, "the compiled search is not built: run python -m ai.native.build\n")
    if args.command == "generate":
        made = generate(
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            label=args.label,
            label_nodes=args.label_nodes,
        )
        append_lines(args.out, (sample.to_json() for sample in made), args.games)
        return
    samples = [
        Sample.from_json(line) for line in args.data.read_text(encoding="utf-8").splitlines()
    ]
    weights, report = fit(samples, ridge=args.ridge, scale=args.scale)
    print(report)
    note = (
        f"{report}\nfrom {len(samples)} games of python -m tools.engine.placement_fit generate, "
        f"values times {args.scale:g}"
    )
    args.out.write_text(header(weights, note), encoding="utf-8")


if __name__ == "__main__":
    main()
