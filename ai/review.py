"""Reviewing a finished game: who was ahead after every action, and each player's biggest
mistakes with the move the engine prefers.

>>> import rules
>>> from ai.review import review_game
>>> moves = rules.parse_record("C3 I3 E3 D3 F3 C2 G3")  # a game need not be over to be replayed
>>> review = review_game(moves, budget=None, max_nodes=200)
>>> [p.number for p in review.plies][:3], len(review.leads)
([1, 2, 3], 8)

How a move is weighed. Every position a player faced is searched by the strongest level
(:func:`ai.think`, set up by :func:`review_spec`) within the same budget. Then, where the engine
prefers another move than the one played, the position after the engine's move is searched too,
with the same settings, and compared with the search of the position after the move played:
both are positions at the same ply with the same side to act, searched alike, so the difference
is a fair price of the move (the search's own biases, such as the side to act looking better at
odd depths, cancel). A move the engine agrees with costs nothing; a forced move (a pass, the
last empty cell) and the three DVONN placements (no rule about where they go measured better
than chance, see :func:`ai.choose.place_dvonn`) are not weighed.

The scale. The engine's values are integers for the side to act: a finished game is worth
``PIECE_VALUE`` per piece of final margin (plus a bonus for winning), a position still in play a
heuristic number much smaller than that. Players read pieces, so every value is turned into
White's *lead*: the final margin in pieces (White's pieces minus Black's) that the engine
expects. A proven result is exact. A heuristic value is scaled by factors fitted by least
squares, through the origin, on games between the bot's easy, medium and strong levels, every
position searched as here (the compiled search, a million nodes, about 0.3 s): a search in the
movement phase against the margin its side proved a few moves later (1 piece per 50 units:
:data:`MOVEMENT_PIECES`; the fit was the same 4, 8 or 12 actions before the proof); a search
among the placements against the game's final margin, which it predicts about as well at every
ply once divided by the number of actions played (:data:`PLACEMENT_SCALE` pieces per unit per
action). The placement is searched by the placement's own evaluation to its end: the level's
search through the last placements into the moves, at this budget, did not predict the final
margin at all (a fitted factor of -0.01 against 0.2 to 0.8 for the placement's evaluation).
Estimates are rough, a heuristic explains only part of how a game ends, and are clamped to
:data:`ESTIMATE_LIMIT`. The fit belongs to the evaluation it was made with: a new evaluation
needs it made again.

The work is split so that the searches can run anywhere: :class:`ReviewPlan` says which
positions to search (:meth:`~ReviewPlan.first_round`, then :meth:`~ReviewPlan.second_round`),
:func:`estimate` searches one (in a worker process: :meth:`ai.Engine.estimate`), and
:meth:`ReviewPlan.review` puts the answers together. :func:`review_game` does all of it here.
Pure: no I/O; imports only :mod:`rules` and the engine's public pieces.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ai.choose import think
from ai.evaluation import PIECE_VALUE, WIN
from ai.levels import Level, LevelSpec
from rules import (
    PLACEMENT_PLIES,
    Colour,
    Move,
    Position,
    legal_moves,
    new_game,
    parse_move,
    play,
    score,
)
from rules.position import DVONN_PIECES

REVIEW_LEVEL: Final = Level.STRONGEST
DEFAULT_BUDGET: Final = 0.3
"""Seconds of search per position of the movement phase (the placement's searches stop at their
depth, within milliseconds): deep enough to see its tactics (seven plies or so in the middle
game, the last ten moves solved), short enough that a whole game (some 30 to 40 moves, searched
once or twice each) takes a quarter of a minute of one core (a game of 78 actions: 9 s with one
worker process, 5 s with two, on a busy 2-core machine). Much less and its verdicts turn to
noise; much more and players wait, and games against the bot with them."""
MOVEMENT_PIECES: Final = 0.02
"""Pieces of final margin per unit of a search whose leaves are in the movement phase."""
PLACEMENT_SCALE: Final = 10.0
"""Pieces of final margin per unit of a search among the placements, times the actions played
(at least :data:`PLACEMENT_FLOOR`): the placement's evaluation adds up every piece placed."""
PLACEMENT_FLOOR: Final = 10
ESTIMATE_LIMIT: Final = 20.0
"""The largest lead a heuristic value may stand for, in pieces (proven results may be more)."""
MISTAKE_THRESHOLD: Final = 1.5
"""A move that costs at least this many pieces is a mistake."""
MISTAKES_PER_PLAYER: Final = 3
FIRST_JUDGED_PLY: Final = DVONN_PIECES
"""The DVONN placements before this ply are not weighed."""
_WIN_BONUS: Final = WIN - 49 * PIECE_VALUE
"""What a won game is worth beyond its margin (``WIN`` is that bonus plus the largest margin)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one search found: the engine's move and the position's worth, for the side to act."""

    move: Move
    margin: float
    """The final margin in pieces the side to act can expect (negative: it is behind)."""
    proven: bool
    """The margin is a proven result, not an estimate."""
    depth: int

    def to_wire(self) -> tuple[str, float, bool, int]:
        """Plain values, to cross a process boundary."""
        return str(self.move), self.margin, self.proven, self.depth

    @classmethod
    def from_wire(cls, wire: Sequence[object]) -> Estimate:
        move, margin, proven, depth = wire
        if (
            not isinstance(move, str)
            or not isinstance(margin, int | float)
            or not isinstance(depth, int)
        ):
            raise TypeError(f"not an estimate: {wire!r}")
        return cls(parse_move(move), float(margin), bool(proven), depth)


def margin_of(value: int, *, ply: int, depth: int, exact: bool = False) -> tuple[float, bool]:
    """An engine value (for the side to act at ``ply``, from a search ``depth`` plies deep that
    was ``exact`` or not) as ``(pieces, proven)``: see the module's docstring for the scale.

    A value beyond every heuristic one is a line to the end of the game: its margin is given as
    it is, but proven only if the whole search was (else the other side may do better)."""
    if abs(value) >= _WIN_BONUS:
        return math.copysign((abs(value) - _WIN_BONUS) / PIECE_VALUE, value), exact
    if exact:
        return value / PIECE_VALUE, True  # a draw, or no finished game worth a bonus
    if ply + depth >= PLACEMENT_PLIES:
        factor = MOVEMENT_PIECES
    else:
        factor = PLACEMENT_SCALE / max(ply, PLACEMENT_FLOOR)
    pieces = max(-ESTIMATE_LIMIT, min(ESTIMATE_LIMIT, value * factor))
    return pieces, False


def estimate(
    position: Position,
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_nodes: int | None = None,
    seed: int = 0,
) -> Estimate:
    """Search ``position`` as the review does (:func:`review_spec`) for ``budget`` seconds, or
    (``budget=None``) for at most ``max_nodes`` nodes (the level's own limit if ``None``), which
    makes the answer the same on every machine.

    Raises ``ValueError`` unless the side to act has a choice (at least two legal moves).
    """
    moves = legal_moves(position)
    if len(moves) < 2:
        raise ValueError("nothing to weigh: the side to act has no choice here")
    spec = review_spec(max_nodes if budget is None else None)
    found = think(position, level=REVIEW_LEVEL, budget=budget, seed=seed, spec=spec)
    margin, proven = margin_of(found.value, ply=position.ply, depth=found.depth, exact=found.exact)
    return Estimate(found.move, margin, proven, found.depth)


def review_spec(max_nodes: int | None = None) -> LevelSpec:
    """The strongest level as the review searches with it: the placement judged by its own
    evaluation to its end (no search through the last placements into the moves: see the
    module's docstring), and at most ``max_nodes`` nodes a search if given. Each setting is
    changed for the Python search and the compiled search."""
    spec = dataclasses.replace(REVIEW_LEVEL.spec, late_placement=0, compiled_late_placement=0)
    if max_nodes is None:
        return spec
    return dataclasses.replace(spec, max_nodes=max_nodes, compiled_nodes=max_nodes)


def settle(position: Position) -> Position:
    """``position``, or the first position after it where someone has a choice or the game is
    over: forced moves (passes, the last empty cell) change nothing of its worth."""
    while len(moves := legal_moves(position)) == 1:
        position = play(position, moves[0])
    return position


def white_lead(position: Position, found: Mapping[str, Estimate]) -> tuple[float, bool]:
    """White's expected margin in a settled ``position``: exact if the game is over, else from
    its search in ``found`` (by position text)."""
    if not legal_moves(position):
        white, black = score(position)
        return float(white - black), True
    answer = found[position.to_text()]
    margin = answer.margin if position.turn is Colour.WHITE else -answer.margin
    return margin, answer.proven


@dataclass(frozen=True, slots=True)
class PlyReview:
    """One action of the game, weighed. Leads are White's, in pieces (see the module)."""

    ply: int
    """Its index in the record (0..48 are the placements)."""
    colour: Colour
    played: Move
    best: Move
    """The engine's move (the move played, when it was not weighed)."""
    before: float
    """White's lead in the position the mover faced."""
    after: float
    """White's lead after the move played."""
    best_after: float
    """White's lead after the engine's move."""
    loss: float
    """What the move played cost its player against the engine's, in pieces (never negative)."""
    judged: bool
    """Weighed at all: not a DVONN placement, and not forced."""

    @property
    def number(self) -> int:
        """The move number as the boards show it (counting every action from 1)."""
        return self.ply + 1


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review: every action weighed, and White's lead in every position."""

    plies: tuple[PlyReview, ...]
    leads: tuple[float, ...]
    """White's lead before each action and after the last (``leads[ply]``): the raw values."""
    proven: tuple[bool, ...]
    """Which leads are proven results (a finished game, a solved ending)."""
    bridged: tuple[bool, ...] = ()
    """Which leads the curve bridges: the last placements, whose search just reached the first
    moves, so that their values are neither the placement's nor the movement's (none if
    empty)."""

    @property
    def final(self) -> float:
        """White's lead in the last position (the final margin, if the game ended by the rules)."""
        return self.leads[-1]

    def curve(self) -> tuple[float, ...]:
        """White's lead after each action, to draw: each estimate averaged with its neighbours
        (weights 1, 2, 1), which cancels the search's swing between the two sides to act
        (a few pieces in favour of the side to act); proven results are left exact, and
        bridged leads are replaced by a straight line between their neighbours first."""
        leads = _bridge(self.leads, self.bridged)
        last = len(leads) - 1
        smooth = []
        for index, lead in enumerate(leads):
            if self.proven[index] or index in (0, last):
                smooth.append(lead)
            else:
                smooth.append((leads[index - 1] + 2 * lead + leads[index + 1]) / 4)
        return tuple(smooth)

    def mistakes(
        self,
        colour: Colour | None = None,
        *,
        threshold: float = MISTAKE_THRESHOLD,
        per_player: int = MISTAKES_PER_PLAYER,
    ) -> tuple[PlyReview, ...]:
        """Each player's (or ``colour``'s) costliest moves, at least ``threshold`` pieces, at
        most ``per_player`` each, in the order they were played."""
        chosen: list[PlyReview] = []
        for side in (Colour.WHITE, Colour.BLACK) if colour is None else (colour,):
            costly = [p for p in self.plies if p.judged and p.colour is side]
            costly = [p for p in costly if p.loss >= threshold]
            costly.sort(key=lambda p: (-p.loss, p.ply))
            chosen += costly[:per_player]
        return tuple(sorted(chosen, key=lambda p: p.ply))


def _bridge(leads: Sequence[float], bridged: Sequence[bool]) -> list[float]:
    """``leads`` with each run of bridged ones replaced by a straight line between the leads
    either side of it (or the one it has, at an end)."""
    values = list(leads)
    index = 0
    while index < len(values):
        if index >= len(bridged) or not bridged[index]:
            index += 1
            continue
        end = index
        while end < len(values) and end < len(bridged) and bridged[end]:
            end += 1
        before = values[index - 1] if index > 0 else None
        after = values[end] if end < len(values) else None
        for step, at in enumerate(range(index, end), start=1):
            if before is None or after is None:
                values[at] = after if before is None and after is not None else before or 0.0
            else:
                values[at] = before + (after - before) * step / (end - index + 1)
        index = end
    return values


class ReviewPlan:
    """A review of ``moves`` (from the start) in three steps: what to search first, what to
    search then, and the review. Searches are keyed by position text, so the same position is
    searched once.

    Raises ``ValueError`` for no moves, and the rules' errors for an illegal one.
    """

    def __init__(self, moves: Sequence[Move]) -> None:
        if not moves:
            raise ValueError("a review needs at least one action")
        positions = [new_game()]
        for move in moves:
            positions.append(play(positions[-1], move))
        self.moves = tuple(moves)
        self.positions = tuple(positions)
        self._settled = tuple(settle(p) for p in positions)

    def first_round(self) -> dict[str, Position]:
        """Every position the players faced with a choice (after the DVONN placements), and the
        last one: by text, the positions to search."""
        wanted: dict[str, Position] = {}
        for ply, position in enumerate(self._settled):
            if ply >= FIRST_JUDGED_PLY and legal_moves(position):
                wanted[position.to_text()] = position
        return wanted

    def second_round(self, found: Mapping[str, Estimate]) -> dict[str, Position]:
        """The positions after the engine's moves, where it prefers another than the move
        played (and they are not searched yet): by text, the positions to search."""
        wanted: dict[str, Position] = {}
        for ply, move in enumerate(self.moves):
            best = self._best(ply, found)
            if best is not None and best != move:
                after = settle(play(self.positions[ply], best))
                text = after.to_text()
                if legal_moves(after) and text not in found:
                    wanted[text] = after
        return wanted

    def review(self, found: Mapping[str, Estimate]) -> Review:
        """The review, from the searches of both rounds (by position text). Raises ``KeyError``
        if one is missing."""
        leads: list[float] = []
        proven: list[bool] = []
        bridged: list[bool] = []
        for ply, position in enumerate(self._settled):
            if ply < FIRST_JUDGED_PLY:
                lead, exact = 0.0, False  # nothing on the board to judge yet
            else:
                lead, exact = white_lead(position, found)
            leads.append(lead)
            proven.append(exact)
            searched = found.get(position.to_text())
            bridged.append(
                searched is not None
                and not exact
                and position.ply < PLACEMENT_PLIES <= position.ply + searched.depth
            )
        plies = []
        for ply, move in enumerate(self.moves):
            colour = self.positions[ply].turn
            best = self._best(ply, found)
            after = leads[ply + 1]
            best_after = after
            if best is not None and best != move:
                best_after = white_lead(settle(play(self.positions[ply], best)), found)[0]
            gain = best_after - after if colour is Colour.WHITE else after - best_after
            plies.append(
                PlyReview(
                    ply=ply,
                    colour=colour,
                    played=move,
                    best=move if best is None else best,
                    before=leads[ply],
                    after=after,
                    best_after=best_after,
                    loss=max(0.0, gain),
                    judged=best is not None,
                )
            )
        return Review(tuple(plies), tuple(leads), tuple(proven), tuple(bridged))

    def _best(self, ply: int, found: Mapping[str, Estimate]) -> Move | None:
        """The engine's move at ``ply``, if that action is weighed."""
        position = self.positions[ply]
        if ply < FIRST_JUDGED_PLY or len(legal_moves(position)) < 2:
            return None
        return found[position.to_text()].move


def review_game(
    moves: Sequence[Move],
    *,
    budget: float | None = DEFAULT_BUDGET,
    max_nodes: int | None = None,
    seed: int = 0,
) -> Review:
    """Review ``moves`` (from the start) here, one search after another (see :func:`estimate`
    for ``budget``, ``max_nodes`` and ``seed``)."""
    plan = ReviewPlan(moves)
    found: dict[str, Estimate] = {}
    for search in (plan.first_round, lambda: plan.second_round(found)):
        for text, position in search().items():
            found[text] = estimate(position, budget=budget, max_nodes=max_nodes, seed=seed)
    return plan.review(found)
