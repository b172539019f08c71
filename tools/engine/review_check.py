"""Checks of the game review's verdicts (:mod:`ai.review`), run by hand; their figures are
recorded in :mod:`ai.review`'s docstring and docs/engine.md's review paragraph.

    python -m tools.engine.review_check calibration --games 40 --nodes 200000 --review-nodes 1000000
    python -m tools.engine.review_check mistakes --games 50 --nodes 1000000 --factor 10

``calibration`` plays seeded self-play games between two levels (``--white``, ``--black``)
and sets what the review would have said of each game at some plies of the placement (and the
placement's evaluation of the board after the 49th placement) against the game's final margin:
for each, the correlation, the mean error, the mean absolute error (beside that of calling every
game level) and the factor a least-squares fit through the origin would give.

``mistakes`` reviews games drawn (seeded) from the match logs in ``docs/matches`` (or
``--log`` files), then prices each listed mistake again with ``--factor`` times the budget, as
the review prices one (:func:`deeper_loss`), and counts the mistakes that still cost at least a
piece. ``--estimates``: the mistakes the review would list if estimated losses counted too.

One process, one search at a time. Give ``--nodes`` (a million is about the review's 0.3 s) to
make the figures the same on every machine; with seconds they depend on its speed and load.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ai.choose import think
from ai.evaluation import evaluate_placement
from ai.levels import Level
from ai.review import (
    DEFAULT_BUDGET,
    ESTIMATE_LIMIT,
    PLACEMENT_SCALE,
    Estimate,
    estimate,
    review_game,
    settle,
    settled,
    white_lead,
)
from rules import (
    PLACEMENT_PLIES,
    Colour,
    Move,
    Position,
    legal_moves,
    new_game,
    parse_record,
    play,
    replay,
    score,
)

CALIBRATION_PLIES = (10, 20, 30, 40, 44, 46, PLACEMENT_PLIES)
"""Where the review's own estimate of a game is set against its final margin."""


@dataclass(frozen=True, slots=True)
class Fit:
    """How well predictions of the final margin did (all in pieces, White's)."""

    name: str
    count: int
    correlation: float
    mean_error: float
    """Prediction minus outcome, averaged: a bias."""
    mean_absolute_error: float
    slope: float
    """The factor a least-squares fit through the origin would apply to the predictions."""
    baseline: float
    """The mean absolute error of predicting a level game every time."""

    def line(self) -> str:
        return (
            f"{self.name:<34} n={self.count:<4} r={self.correlation:+.2f}  "
            f"mean error {self.mean_error:+.1f}  mean |error| {self.mean_absolute_error:.1f} "
            f"(|final| {self.baseline:.1f})  fitted factor {self.slope:.2f}"
        )


def fit(name: str, predicted: Sequence[float], final: Sequence[float]) -> Fit:
    """The figures of ``predicted`` against ``final`` (pairs, same length, at least two)."""
    count = len(predicted)
    if count != len(final) or count < 2:
        raise ValueError("a fit needs at least two pairs")
    mean_p = sum(predicted) / count
    mean_f = sum(final) / count
    cov = sum((p - mean_p) * (f - mean_f) for p, f in zip(predicted, final, strict=True))
    var_p = sum((p - mean_p) ** 2 for p in predicted)
    var_f = sum((f - mean_f) ** 2 for f in final)
    correlation = cov / math.sqrt(var_p * var_f) if var_p and var_f else 0.0
    errors = [p - f for p, f in zip(predicted, final, strict=True)]
    squares = sum(p * p for p in predicted)
    slope = sum(p * f for p, f in zip(predicted, final, strict=True)) / squares if squares else 0.0
    return Fit(
        name,
        count,
        correlation,
        sum(errors) / count,
        sum(abs(e) for e in errors) / count,
        slope,
        sum(abs(f) for f in final) / count,
    )


def self_play(
    seed: int, *, white: Level, black: Level, nodes: int | None, budget: float | None
) -> list[Move]:
    """One game between two levels: ``nodes`` nodes a move (the same game on every machine),
    or ``budget`` seconds a move."""
    position = new_game()
    moves: list[Move] = []
    while legal_moves(position):
        level = white if position.turn is Colour.WHITE else black
        spec = level.spec
        if nodes is not None:
            spec = dataclasses.replace(spec, max_nodes=nodes, compiled_nodes=nodes)
        move = think(position, level=level, budget=budget, seed=seed, spec=spec).move
        moves.append(move)
        position = play(position, move)
    return moves


def placement_prediction(position: Position) -> float:
    """White's lead in pieces by the placement's evaluation of ``position`` (the board after
    the placement), on the review's placement scale."""
    value = evaluate_placement(position)
    if position.turn is Colour.BLACK:
        value = -value
    pieces = value * PLACEMENT_SCALE / position.ply
    return max(-ESTIMATE_LIMIT, min(ESTIMATE_LIMIT, pieces))


def review_prediction(position: Position, *, budget: float | None, nodes: int | None) -> float:
    """White's lead as the review estimates it in ``position`` (settled first)."""
    position = settle(position)
    if not legal_moves(position):
        white, black = score(position)
        return float(white - black)
    found = estimate(position, budget=budget, max_nodes=nodes)
    return found.margin if position.turn is Colour.WHITE else -found.margin


def calibration(
    games: int,
    *,
    seed: int = 1,
    white: Level = Level.STRONGEST,
    black: Level = Level.STRONGEST,
    nodes: int | None = 200_000,
    budget: float | None = None,
    review_budget: float | None = DEFAULT_BUDGET,
    review_nodes: int | None = None,
    report: Callable[[str], None] = print,
) -> list[Fit]:
    """Play ``games`` games (colours swapped every other game) and fit each prediction."""
    predicted: dict[str, list[float]] = {}
    finals: list[float] = []
    for index in range(games):
        started = time.perf_counter()
        sides = (white, black) if index % 2 == 0 else (black, white)
        moves = self_play(
            seed * 1_000_003 + index, white=sides[0], black=sides[1], nodes=nodes, budget=budget
        )
        positions = [new_game()]
        for move in moves:
            positions.append(play(positions[-1], move))
        w, b = score(positions[-1])
        finals.append(float(w - b))
        guesses = {"placement evaluation after ply 49": placement_prediction(positions[49])}
        for ply in CALIBRATION_PLIES:
            guesses[f"review estimate at ply {ply}"] = review_prediction(
                positions[ply], budget=review_budget, nodes=review_nodes
            )
        for name, value in guesses.items():
            predicted.setdefault(name, []).append(value)
        shown = " ".join(f"{v:+.1f}" for v in guesses.values())
        report(
            f"game {index + 1}/{games}: final {w - b:+d}, predicted {shown} "
            f"({time.perf_counter() - started:.1f} s)"
        )
    fits = [fit(name, values, finals) for name, values in predicted.items()]
    for found in fits:
        report(found.line())
    return fits


MATCHES = Path(__file__).resolve().parents[2] / "docs" / "matches"
"""The match logs: games of the strongest level against PrimaDvonna and the strong level."""
STILL_COSTLY = 1.0
"""A mistake holds under the deeper look if it still costs at least this many pieces."""


@dataclass(frozen=True, slots=True)
class Recheck:
    """One listed mistake, searched again."""

    game: str
    ply: int
    played: Move
    best: Move
    loss: float
    """What the review said it cost."""
    deeper: float
    """What it costs by the deeper searches (negative: the move played was better)."""

    @property
    def holds(self) -> bool:
        return self.deeper >= STILL_COSTLY


def match_games(paths: Sequence[Path], count: int, seed: int) -> list[tuple[str, list[Move]]]:
    """``count`` games drawn (seeded) from match logs, each named ``log#index``."""
    games: list[tuple[str, list[Move]]] = []
    for path in paths:
        lines = path.read_text().splitlines()[1:]  # the first line is the match's settings
        for line in lines:
            game = json.loads(line)
            games.append((f"{path.stem}#{game['index']}", parse_record(game["record"])))
    if count > len(games):
        raise ValueError(f"only {len(games)} games in {len(paths)} logs")
    chosen = random.Random(seed).sample(range(len(games)), count)
    return [games[i] for i in sorted(chosen)]


def deeper_loss(
    moves: Sequence[Move],
    ply: int,
    best: Move,
    *,
    budget: float | None,
    nodes: int | None,
) -> float:
    """What playing ``moves[ply]`` instead of ``best`` costs its player by deeper searches
    (``budget`` seconds or ``nodes`` nodes each), compared as the review compares moves: the
    position before is searched, as deep as that allows, and the positions after each move
    one ply less deep, both to the same depth (so the search's swing between odd and even
    depths cancels)."""
    before = replay(list(moves[:ply]))[-1]
    depth = estimate(before, budget=budget, max_nodes=nodes).depth
    found: dict[str, Estimate] = {}
    leads = []
    for move in (moves[ply], best):
        after, forced = settled(play(before, move))
        if legal_moves(after):
            found[after.to_text()] = estimate(
                after, budget=budget, max_nodes=nodes, depth=max(1, depth - 1 - forced)
            )
        leads.append(white_lead(after, found)[0])
    played, better = leads
    return better - played if before.turn is Colour.WHITE else played - better


def check_mistakes(
    games: Sequence[tuple[str, Sequence[Move]]],
    *,
    factor: float = 10.0,
    budget: float | None = DEFAULT_BUDGET,
    nodes: int | None = None,
    proven: bool = True,
    report: Callable[[str], None] = print,
) -> list[Recheck]:
    """Review each game with ``budget`` seconds (or ``nodes`` nodes) a search, then search the
    positions after each listed mistake and after its better move ``factor`` times longer.
    ``proven=False``: the mistakes the review would list if estimates counted too."""
    deeper_budget = None if budget is None else budget * factor
    deeper_nodes = None if nodes is None else round(nodes * factor)
    checked: list[Recheck] = []
    for number, (name, moves) in enumerate(games, start=1):
        started = time.perf_counter()
        review = review_game(moves, budget=budget, max_nodes=nodes)
        listed = review.mistakes(proven=proven)
        found = []
        for mistake in listed:
            deeper = deeper_loss(
                moves, mistake.ply, mistake.best, budget=deeper_budget, nodes=deeper_nodes
            )
            found.append(
                Recheck(name, mistake.ply, mistake.played, mistake.best, mistake.loss, deeper)
            )
        checked += found
        said = ", ".join(
            f"{r.ply + 1} {r.played} better {r.best} {r.loss:.1f}->{r.deeper:.1f}" for r in found
        )
        report(
            f"{number}/{len(games)} {name}: {said or 'no mistake listed'} "
            f"({time.perf_counter() - started:.0f} s)"
        )
    for line in summary(checked, factor):
        report(line)
    return checked


def summary(checked: Sequence[Recheck], factor: float) -> list[str]:
    """The share of mistakes that hold, in all and by phase and by the loss the review said."""

    def share(name: str, group: Sequence[Recheck]) -> str:
        if not group:
            return f"{name}: none"
        holding = sum(r.holds for r in group)
        return (
            f"{name}: {holding} of {len(group)} still cost >= {STILL_COSTLY:g} piece at "
            f"{factor:g}x ({100 * holding / len(group):.0f}%)"
        )

    lines = [
        share("listed mistakes", checked),
        share("  placements", [r for r in checked if r.ply < PLACEMENT_PLIES]),
        share("  moves", [r for r in checked if r.ply >= PLACEMENT_PLIES]),
    ]
    for least in (2.0, 3.0, 5.0):
        lines.append(share(f"  said to cost >= {least:g}", [r for r in checked if r.loss >= least]))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tools.engine.review_check",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    calibrate = commands.add_parser("calibration", help="the placement estimates' calibration")
    calibrate.add_argument("--games", type=int, default=40)
    calibrate.add_argument("--seed", type=int, default=1)
    calibrate.add_argument("--white", type=Level.parse, default=Level.STRONGEST)
    calibrate.add_argument("--black", type=Level.parse, default=Level.STRONGEST)
    calibrate.add_argument("--nodes", type=int, default=200_000, help="nodes a move in play")
    calibrate.add_argument(
        "--review-nodes", type=int, default=None, help="nodes a review search (default: time)"
    )
    recheck = commands.add_parser("mistakes", help="listed mistakes, searched longer")
    recheck.add_argument("--games", type=int, default=50)
    recheck.add_argument("--seed", type=int, default=1)
    recheck.add_argument("--factor", type=float, default=10.0)
    recheck.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds a search")
    recheck.add_argument("--nodes", type=int, default=None, help="nodes a search, not seconds")
    recheck.add_argument(
        "--log", type=Path, action="append", help="match logs (default: docs/matches/*.jsonl)"
    )
    recheck.add_argument(
        "--estimates",
        action="store_true",
        help="list mistakes priced by estimates too, not only proven ones (the old rule)",
    )
    args = parser.parse_args(argv)
    if args.command == "calibration":
        calibration(
            args.games,
            seed=args.seed,
            white=args.white,
            black=args.black,
            nodes=args.nodes,
            review_budget=None if args.review_nodes else DEFAULT_BUDGET,
            review_nodes=args.review_nodes,
        )
    else:
        logs = args.log or sorted(MATCHES.glob("*.jsonl"))
        check_mistakes(
            match_games(logs, args.games, args.seed),
            factor=args.factor,
            budget=None if args.nodes else args.budget,
            nodes=args.nodes,
            proven=not args.estimates,
        )


if __name__ == "__main__":
    main()
