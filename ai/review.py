"""Reviewing a finished game: who was ahead after every action, and each player's biggest
mistakes with the move the engine prefers.

>>> import rules
>>> from ai.review import review_game
>>> moves = rules.parse_record("C3 I3 E3 D3 F3 C2 G3")  # a game need not be over to be replayed
>>> review = review_game(moves, budget=None, max_nodes=200)
>>> [p.number for p in review.plies][:3], len(review.leads)
([1, 2, 3], 8)

How a move is weighed. Every position a player faced is searched by the strongest level
(:func:`ai.think`, set up by :func:`review_spec`) within the same budget. Where the engine
prefers another move than the one played, the position after the move played is searched again,
one ply less deep than the search that preferred the engine's move went
(:meth:`ReviewPlan.second_round`): that search valued the engine's move at exactly that depth,
so the two values are positions at the same ply with the same side to act searched to the same
depth, and their difference is a fair price of the move. Searched each as deep as its budget
allowed, as they once were, they were not: the side to act looks better at odd depths, by
several pieces in the middle game (one position: -4.5, -11.1, -3.0, -7.7 pieces at depths 5
to 8), and a move's "loss" was often that swing. Proven results swing at no depth: where the
search before the move proved the engine's move and the position after the move played was
proven too (its own search, the next ply's, worked the game out), the move is priced by those
two results and searched no more; the search one ply less deep may stop short of the end that
the deeper one reached (a random game's 78th move lost 14 pieces, +5 to -9, both proven, and
the review said its player had made no mistake it could prove). A move the engine agrees with
costs nothing; a forced move (a pass, the last empty cell) is not weighed, and neither is any
placement.

Why no placement is weighed. The placement is judged by its own evaluation (a table of what a
piece is worth on each cell given the DVONN pieces, plus how bunched it is): the same for both
players, so the cell it rates highest stays on top until someone takes it, and every other
placement was priced against that one cell ("better C1" six times in one game, 6 to 13 pieces
each; at most plies it was an edge cell beside a DVONN piece). Engines that search the last
placements into the moves (the strongest level itself, PrimaDvonna) leave such cells empty for
ten plies and more. Its calibration (``python -m tools.engine.review_check calibration``): the
placement's evaluation of the board after the 49th placement, on this module's scale, against
the final margin of self-play games (200,000 nodes a move, the review's searches at a million
nodes), with the mean absolute error of calling every game level beside it:

===================================  =====  ==========  ==========  ================
games                                    r  mean error  mean |err|  |err| if "level"
===================================  =====  ==========  ==========  ================
strongest v strongest (40)           +0.12        -4.1        11.2              10.9
strongest v strong (40)              -0.57        -4.9        19.8              16.4
medium v medium (30)                 +0.34        -6.6        10.6               9.2
===================================  =====  ==========  ==========  ================

The review's own estimates during the placement did no better: r from -0.06 to +0.08 at plies
10 to 46 between two strongest players, -0.54 at ply 44 strongest against strong (the strongest
plays its last placements against the evaluation, and wins), 0.35 to 0.51 between two medium
players but 1.5 to 3.5 times too large (fitted factors 0.28 to 0.70). It never predicted the
margin better than calling the game level: no placement verdict is trustworthy enough to list,
and none is made. The leads of the placement are still drawn, as the engine's rough view.

Which mistakes are listed. Even fairly priced, a verdict of the movement phase rests on an
estimate that a deeper search often overturns (``python -m tools.engine.review_check mistakes``: the
position after a listed mistake and after its better move priced again, the same way, with ten
times the budget). Of the mistakes the review listed on its estimates in 50 games drawn from
the match logs (its searches at 300,000 nodes, the deeper ones at 3 million), 65 of 116 (56%)
still cost a piece: 24 of 34 said to cost 5 pieces or more (71%), and in the games against
PrimaDvonna, who plays better than a search of a tenth of a second, 7 of 42. Asking a verdict
to hold at the two depths below its own as well gave 71% (17 of 24, in 16 games); no threshold
reached 90%. So a mistake is listed only when its price is proven (:attr:`PlyReview.proven`:
both moves' values are the game worked out to its end, which no deeper search changes) and at
least :data:`MISTAKE_THRESHOLD` pieces. In the same 50 games: 29 of 29 such mistakes still cost a
piece with the review's searches at a million nodes (its 0.3 s) and the deeper ones at 10
million, 22 of 22 at 300,000 and 3 million; they were in 15 of the games, endgames against the
strong level mostly, none in a game against PrimaDvonna. Each player's costliest few are listed
(:data:`MISTAKES_PER_PLAYER`), and every one of :data:`BLUNDER` pieces or more besides.
Estimated losses stay in every :class:`PlyReview` (:meth:`Review.mistakes` lists them with
``proven=False``).

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
action; between those weak levels: see the calibration above for better players). The
placement is searched by the placement's own evaluation to its end: the level's search through
the last placements into the moves, at this budget, did not predict the final margin at all (a
fitted factor of -0.01 against 0.2 to 0.8 for the placement's evaluation).
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
    PASS,
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
SOFT_SHARE: Final = 0.6
"""The compiled search starts no new iteration after this share of :data:`DEFAULT_BUDGET` (the
strongest level goes on to its deadline): the review's verdicts were measured so, and a game's
review takes no longer than that."""
MOVEMENT_PIECES: Final = 0.02
"""Pieces of final margin per unit of a search whose leaves are in the movement phase."""
PLACEMENT_SCALE: Final = 10.0
"""Pieces of final margin per unit of a search among the placements, times the actions played
(at least :data:`PLACEMENT_FLOOR`): the placement's evaluation adds up every piece placed."""
PLACEMENT_FLOOR: Final = 10
ESTIMATE_LIMIT: Final = 20.0
"""The largest lead a heuristic value may stand for, in pieces (proven results may be more)."""
MISTAKE_THRESHOLD: Final = 1.5
"""A move that costs at least this many pieces (proven) is a mistake."""
MISTAKES_PER_PLAYER: Final = 3
"""Each player's costliest mistakes listed, beyond the blunders (:data:`BLUNDER`)."""
BLUNDER: Final = 5.0
"""A move that costs at least this many pieces, proven, is always listed, however many others
its player made: the list never leaves out what the engine proved so costly."""
FIRST_JUDGED_PLY: Final = DVONN_PIECES
"""The leads before this ply (the DVONN placements) are not estimated."""
FIRST_WEIGHED_PLY: Final = PLACEMENT_PLIES
"""The actions before this ply (the placements) are not weighed: see the module's docstring."""
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
    depth: int | None = None,
) -> Estimate:
    """Search ``position`` as the review does (:func:`review_spec`) for ``budget`` seconds, or
    (``budget=None``) for at most ``max_nodes`` nodes (the level's own limit if ``None``), which
    makes the answer the same on every machine; ``depth``: no deeper than that many plies (a
    move's price, see :meth:`ReviewPlan.second_round`).

    Raises ``ValueError`` unless the side to act has a choice (at least two legal moves), or
    for a ``depth`` below 1.
    """
    moves = legal_moves(position)
    if len(moves) < 2:
        raise ValueError("nothing to weigh: the side to act has no choice here")
    spec = review_spec(max_nodes if budget is None else None, depth=depth)
    found = think(position, level=REVIEW_LEVEL, budget=budget, seed=seed, spec=spec)
    margin, proven = margin_of(found.value, ply=position.ply, depth=found.depth, exact=found.exact)
    return Estimate(found.move, margin, proven, found.depth)


def review_spec(max_nodes: int | None = None, *, depth: int | None = None) -> LevelSpec:
    """The strongest level as the review searches with it: the placement judged by its own
    evaluation to its end (no search through the last placements into the moves: see the
    module's docstring), at most ``max_nodes`` nodes a search if given, and no deeper than
    ``depth`` plies if given. Each setting is changed for the Python search and the compiled
    search; the compiled search also starts no iteration after :data:`SOFT_SHARE` of its
    time."""
    spec = dataclasses.replace(
        REVIEW_LEVEL.spec,
        late_placement=0,
        compiled_late_placement=0,
        compiled_soft_share=SOFT_SHARE,
    )
    if max_nodes is not None:
        spec = dataclasses.replace(spec, max_nodes=max_nodes, compiled_nodes=max_nodes)
    if depth is not None:
        if depth < 1:
            raise ValueError(f"a search goes at least one ply deep, not {depth}")
        spec = dataclasses.replace(
            spec,
            max_depth=depth,
            placement_depth=min(depth, spec.placement_depth),
            compiled_placement_depth=min(depth, spec.compiled_placement_depth),
        )
    return spec


def settle(position: Position) -> Position:
    """``position``, or the first position after it where someone has a choice or the game is
    over: forced moves (passes, the last empty cell) change nothing of its worth."""
    return settled(position)[0]


def settled(position: Position) -> tuple[Position, int]:
    """:func:`settle`, and how many plies the search counts on the way: every forced move but
    a pass (a forced pass costs the search no depth)."""
    plies = 0
    while len(moves := legal_moves(position)) == 1:
        plies += moves[0] is not PASS
        position = play(position, moves[0])
    return position, plies


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
    """Weighed at all: a move of the movement phase with a choice, priced fairly."""
    proven: bool = False
    """The loss is proven: both values compared are results of the game worked out to its end
    (not the evaluation's estimates), so no deeper search can change it."""

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
        proven: bool = True,
    ) -> tuple[PlyReview, ...]:
        """Each player's (or ``colour``'s) costliest moves, at least ``threshold`` pieces, at
        most ``per_player`` each besides every proven loss of :data:`BLUNDER` pieces or more,
        in the order they were played; only those whose loss is proven unless ``proven`` is
        false (see the module's docstring: the estimates' verdicts did not hold under a deeper
        look)."""
        chosen: list[PlyReview] = []
        for side in (Colour.WHITE, Colour.BLACK) if colour is None else (colour,):
            costly = [p for p in self.plies if p.judged and p.colour is side]
            costly = [p for p in costly if p.loss >= threshold and (p.proven or not proven)]
            costly.sort(key=lambda p: (-p.loss, p.ply))
            chosen += costly[:per_player]
            chosen += [p for p in costly[per_player:] if p.proven and p.loss >= BLUNDER]
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


@dataclass(frozen=True, slots=True)
class Search:
    """A search a review asks for: ``position``, no deeper than ``depth`` plies if given."""

    position: Position
    depth: int | None = None

    @property
    def key(self) -> str:
        """What its answer is kept under: the position's text (and the depth, if limited)."""
        text = self.position.to_text()
        return text if self.depth is None else f"{text} depth {self.depth}"


class ReviewPlan:
    """A review of ``moves`` (from the start) in three steps: what to search first, what to
    search then, and the review. Searches are keyed (:attr:`Search.key`), so the same search
    is made once.

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

    def first_round(self) -> dict[str, Search]:
        """Every position the players faced with a choice (after the DVONN placements), and the
        last one: by key, the searches to make (as deep as the budget allows)."""
        wanted: dict[str, Search] = {}
        for ply, position in enumerate(self._settled):
            if ply >= FIRST_JUDGED_PLY and legal_moves(position):
                search = Search(position)
                wanted[search.key] = search
        return wanted

    def second_round(self, found: Mapping[str, Estimate]) -> dict[str, Search]:
        """Where a weighed move is not the engine's: the position after the move played,
        searched one ply less deep than the search that preferred the engine's move went (by
        key, the searches to make). That search valued the engine's move one ply less deep
        too, so the two values compare positions at the same ply searched to the same depth:
        a fair price. (Searched each to its own depth, they were not: the side to act looks
        better at odd depths, by several pieces in the middle game, and a move's price was
        often that swing.) None where the first round proved both moves' values already
        (:meth:`_proven_price`)."""
        wanted: dict[str, Search] = {}
        for ply in range(len(self.moves)):
            search = self._pricing(ply, found)
            # Not where the first round's proofs price the move already.
            if search is not None and self._proven_price(ply, found) is None:
                wanted[search.key] = search
        return wanted

    def review(self, found: Mapping[str, Estimate]) -> Review:
        """The review, from the searches of both rounds (by key). Raises ``KeyError`` if one
        is missing."""
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
            after = best_after = leads[ply + 1]
            judged = best is not None
            exact = False
            if best is not None and best != move:
                priced = self._price(ply, found)
                if priced is None:  # no fair price: the search went too shallow
                    judged = False
                else:
                    after, best_after, exact = priced
            gain = best_after - after if colour is Colour.WHITE else after - best_after
            plies.append(
                PlyReview(
                    ply=ply,
                    colour=colour,
                    played=move,
                    best=best if judged and best is not None else move,
                    before=leads[ply],
                    after=after,
                    best_after=best_after,
                    loss=max(0.0, gain) if judged else 0.0,
                    judged=judged,
                    proven=exact,
                )
            )
        return Review(tuple(plies), tuple(leads), tuple(proven), tuple(bridged))

    def _best(self, ply: int, found: Mapping[str, Estimate]) -> Move | None:
        """The engine's move at ``ply``, if that action is weighed: a move of the movement
        phase with a choice (no placement: see the module's docstring)."""
        position = self.positions[ply]
        if ply < FIRST_WEIGHED_PLY or len(legal_moves(position)) < 2:
            return None
        return found[position.to_text()].move

    def _pricing(self, ply: int, found: Mapping[str, Estimate]) -> Search | None:
        """The search that prices the move played at ``ply`` against the engine's, if it is
        weighed, not the engine's, and not the end of the game."""
        best = self._best(ply, found)
        if best is None or best == self.moves[ply]:
            return None
        after, forced = settled(play(self.positions[ply], self.moves[ply]))
        depth = found[self.positions[ply].to_text()].depth - 1 - forced
        if not legal_moves(after) or depth < 1:
            return None
        return Search(after, depth)

    def _proven_price(self, ply: int, found: Mapping[str, Estimate]) -> tuple[float, float] | None:
        """White's leads after the move played and after the engine's move at ``ply``, if both
        are proven already: the search of the position before proved the engine's move, and the
        game is over after the move played or its own search (the next ply's, of the first
        round) proved it. Proven values are the game's results, the same at any depth: no search
        to the other's depth is needed, and one capped there may stop short of the end that the
        deeper search reached (see the module's docstring)."""
        chosen = found[self.positions[ply].to_text()]
        if not chosen.proven:
            return None
        after = self._settled[ply + 1]
        if legal_moves(after) and after.to_text() not in found:
            return None
        played, proven = white_lead(after, found)
        if not proven:
            return None
        return played, chosen.margin if self.positions[ply].turn is Colour.WHITE else -chosen.margin

    def _price(self, ply: int, found: Mapping[str, Estimate]) -> tuple[float, float, bool] | None:
        """White's leads after the move played and after the engine's move at ``ply``, both
        proven (:meth:`_proven_price`) or else at the same depth, and whether both are proven;
        ``None`` if the search that preferred the engine's move was too shallow to leave a ply
        for the other (and they are not both proven)."""
        proven = self._proven_price(ply, found)
        if proven is not None:
            return *proven, True
        position = self.positions[ply]
        chosen = found[position.to_text()]
        best_after = chosen.margin if position.turn is Colour.WHITE else -chosen.margin
        after = self._settled[ply + 1]
        if not legal_moves(after):
            return white_lead(after, found)[0], best_after, chosen.proven
        search = self._pricing(ply, found)
        if search is None:
            return None
        answer = found[search.key]
        played = answer.margin if after.turn is Colour.WHITE else -answer.margin
        return played, best_after, chosen.proven and answer.proven


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
    for searches in (plan.first_round, lambda: plan.second_round(found)):
        for key, search in searches().items():
            found[key] = estimate(
                search.position, budget=budget, max_nodes=max_nodes, seed=seed, depth=search.depth
            )
    return plan.review(found)
