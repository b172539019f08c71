"""Sample games and positions for the gallery, the benchmark and the tests.

Everything here is deterministic: games are played by seeded random (or greedy) choices
through the public rules API, so the same sample always shows the same position.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import rules
from render.board import board_png
from render.geometry import DEFAULT_WIDTH, Orientation
from render.graph import DEFAULT_GRAPH_WIDTH, GraphMark, evaluation_graph_png
from render.theme import DEFAULT_THEME, LIGHT_THEME, Theme
from rules import Cell, Colour, Move, MoveResult, Position, Stack

Chooser = Callable[[Position, Sequence[Move]], Move]
REPLAY_GAME_SEED = 7
"""The random game of the gallery's replay and evaluation graph."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A position to draw, with the move that led to it and its players' names."""

    name: str
    """A file-name-friendly title, e.g. ``"03-midgame"``."""
    position: Position
    last_move: Move | None = None
    removed: Mapping[Cell, Stack] = field(default_factory=dict)
    players: tuple[str, str] | None = None
    orientation: Orientation = Orientation.ROW1_TOP
    theme: Theme = DEFAULT_THEME

    def png(self, *, size: int = DEFAULT_WIDTH) -> bytes:
        """This sample drawn by :func:`render.board_png`."""
        return board_png(
            self.position,
            last_move=self.last_move,
            removed=self.removed,
            players=self.players,
            size=size,
            orientation=self.orientation,
            theme=self.theme,
        )


def random_chooser(seed: int) -> Chooser:
    """Uniformly random legal moves, from ``random.Random(seed)``."""
    rng = random.Random(seed)
    return lambda _pos, moves: rng.choice(list(moves))


def stacking_chooser(seed: int) -> Chooser:
    """Moves that build the tallest stack (random placements): shows tall stacks quickly."""
    rng = random.Random(seed)

    def choose(pos: Position, moves: Sequence[Move]) -> Move:
        jumps = [m for m in moves if isinstance(m, rules.Jump)]
        if not jumps:
            return rng.choice(list(moves))
        return max(jumps, key=lambda m: len(pos.stacks[m.source]) + len(pos.stacks[m.target]))

    return choose


def play_game(choose: Chooser) -> list[MoveResult]:
    """Play from the start until the game is over; the result of every action."""
    pos = rules.new_game()
    results: list[MoveResult] = []
    while moves := rules.legal_moves(pos):
        result = rules.apply(pos, choose(pos, moves))
        results.append(result)
        pos = result.after
    return results


def game_moves(seed: int) -> list[Move]:
    """The moves of a complete uniformly random game."""
    return [result.move for result in play_game(random_chooser(seed))]


def longest_game(seeds: range = range(1, 60)) -> list[Move]:
    """The longest of some random games: the worst case for a replay's size."""
    return max((game_moves(seed) for seed in seeds), key=len)


def _first(chooser: Callable[[int], Chooser], test: Callable[[MoveResult], bool]) -> MoveResult:
    """The first action passing ``test`` in the games played with seeds 1, 2, 3, ..."""
    games = (play_game(chooser(seed)) for seed in itertools.count(1))
    return next(result for game in games for result in game if test(result))


def tall_stacks() -> Position:
    """A made-up phase-2 position with stacks of every kind, up to 13 pieces tall."""
    board = {
        "B3": "W",
        "C3": "WBWBWBWBWBWBW",
        "E3": "BWBWBWDBWBWB",
        "F3": "W",
        "G3": "D",
        "F4": "WBWBBW",
        "H2": "DW",
        "J3": "B",
        "C4": "WWW",
        "D3": "BBBB",
        "H3": "BWB",
        "I3": "W",
        "D2": "B",
    }
    stacks = [""] * rules.CELL_COUNT
    for name, stack in board.items():
        cell = rules.lookup_cell(name)
        assert cell is not None
        stacks[cell] = stack
    return Position(stacks, rules.PLACEMENT_PLIES + 40)


def _sample(name: str, result: MoveResult, players: tuple[str, str] | None = None) -> Sample:
    return Sample(name, result.after, result.move, result.removed, players)


def samples() -> list[Sample]:
    """The gallery: each phase of a game and each thing the image can show."""
    game = play_game(random_chooser(7))
    removal = _first(random_chooser, lambda r: len(r.removed) >= 2)
    passing = _first(stacking_chooser, lambda r: isinstance(r.move, rules.Pass))
    mid = game[rules.PLACEMENT_PLIES + 12]
    names = ("Alice", "Борис")
    return [
        Sample("01-empty", rules.new_game()),
        _sample("02-placement", game[20], names),
        _sample("03-placement-done", game[48], names),
        _sample("04-first-move", game[rules.PLACEMENT_PLIES], names),
        _sample("05-midgame", mid, ("Marie-Hélène Dubois-Lefèvre", "Krzysztof")),
        Sample("06-tall-stacks", tall_stacks(), rules.parse_move("C5C3"), {}, ("Алексей", "Zoë")),
        _sample("07-removal", removal, names),
        _sample("08-pass", passing, names),
        _sample("09-game-over", game[-1], names),
        Sample(
            "10-row5-top",
            mid.after,
            mid.move,
            mid.removed,
            names,
            Orientation.ROW5_TOP,
        ),
        Sample(
            "11-light-theme",
            removal.after,
            removal.move,
            removal.removed,
            names,
            theme=LIGHT_THEME,
        ),
    ]


@dataclass(frozen=True, slots=True)
class GraphSample:
    """A review's evaluation graph to draw: a curve, its marks and the players' names."""

    name: str
    curve: tuple[float, ...]
    marks: tuple[GraphMark, ...]
    players: tuple[str, str]

    def png(self, *, size: int = DEFAULT_GRAPH_WIDTH) -> bytes:
        """This sample drawn by :func:`render.evaluation_graph_png`."""
        return evaluation_graph_png(
            self.curve,
            marks=self.marks,
            players=self.players,
            caption="Lead in pieces, as the engine sees it",
            size=size,
        )


def graph_sample(seed: int = REPLAY_GAME_SEED) -> GraphSample:
    """An evaluation graph for the gallery, of random game ``seed``. ``render`` cannot ask the
    engine, so the curve is made up like a review's: a seeded random walk, gentle while placing
    and wilder while moving, that ends on the game's final margin; the marks are the three
    actions that cost their player the most of it."""
    results = play_game(random_chooser(seed))
    rng = random.Random(seed)
    walk = [0.0]
    for result in results:
        step = 0.4 if result.before.is_placement else 1.5
        walk.append(walk[-1] + rng.gauss(0.0, step))
    white, black = rules.score(results[-1].after)
    ending = 10  # the last actions lead the walk to the final margin
    for index in range(len(walk) - ending, len(walk)):
        share = (index - (len(walk) - ending - 1)) / ending
        walk[index] = (1 - share) * walk[index] + share * (white - black)
    costs = []
    for ply, result in enumerate(results):
        side = result.before.turn
        change = walk[ply + 1] - walk[ply]
        costs.append((-change if side is Colour.WHITE else change, ply, side))
    worst = sorted(sorted(costs, reverse=True)[:3], key=lambda cost: cost[1])
    marks = tuple(
        GraphMark(ply + 1, number, side) for number, (_, ply, side) in enumerate(worst, start=1)
    )
    return GraphSample("review-graph", tuple(walk), marks, ("Alice", "Борис"))
