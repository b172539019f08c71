"""Swiss pairing: who plays whom in the next round of a Swiss (the vocabulary and the colours'
rules are :mod:`bot.games.tournaments.pairing`'s).

Each round is a maximum-weight perfect matching (:func:`networkx.max_weight_matching` with
``maxcardinality=True``) over the players, with a dummy node for the bye when the count is odd.
An edge's weight says, in this order of priority (each outweighing everything below it over the
whole round):

1. no second bye for anyone;
2. no colour difference (whites less blacks) beyond 2;
3. no rematch;
4. no third game in a row with the same colour;
5. the bye to the lowest-ranked player who has had none;
6. score groups kept together: the squared difference of the two players' points;
7. colour preferences granted: a strong one (a colour difference of one) before a mild one
   (alternating from the last game);
8. within a score group, the top half against the bottom half (1 against g/2 + 1, as FIDE's
   Dutch system starts; closest to that first, two of the same half last), and a player
   floating down meets the top of the group below.

So 1 to 4 are avoided whenever any pairing avoids them (FIDE's absolute criteria); the colour
difference is never above 2 as long as nobody withdrew (a round can always keep it). Colours
then go as :func:`bot.games.tournaments.pairing.allocate` says. Ranking is by points, then seed.
Every game counts, a forfeit included, as a meeting and for colours.

Speed: networkx's matching is plain Python (about 3 s on a complete graph of 200 players), so
past 40 players a round is first matched over plausible pairs only, with no edge that breaks 1
to 4: for each player, those near it in the ranking and near its ideal partner in its score
group, and further along the ranking until it has a few such pairs. Players that leaves
unmatched get every clean pair of theirs, and only when that still fails is the round matched
over every clean pair, then over every pair (``python -m tools.bench.pairing`` prints the
times: about 0.15 s a round for 200 players).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import networkx as nx

from bot.games.tournaments.pairing import (
    Board,
    ColourCost,
    History,
    Round,
    Strength,
    TooManyRounds,
    allocate,
    colour_cost,
)
from bot.games.tournaments.standings import Bye, PlayerId, TooFewPlayers, check_players
from rules import Colour


def most_swiss_rounds(count: int) -> int:
    """The most rounds a Swiss of ``count`` players can have without a rematch: the players
    less one, counting the bye's seat as a player when the count is odd."""
    return count + count % 2 - 1


def check_swiss(count: int, rounds: int) -> None:
    """Raises :class:`~bot.games.tournaments.standings.TooFewPlayers` below 2 players,
    :class:`TooManyRounds` beyond :func:`most_swiss_rounds`."""
    if count < 2:
        raise TooFewPlayers(count, 2)
    if rounds > most_swiss_rounds(count):
        raise TooManyRounds(rounds, most_swiss_rounds(count))


_WINDOW: Final = 6
"""How far the first attempt reaches, in places of the ranking and of a score group, and how
many clean pairs each player is given at least (see the module)."""


_SMALL: Final = 40
"""Up to this many players, a round is matched over every pair at once (fast enough)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """A player as the Swiss pairing sees them this round."""

    player: PlayerId
    place: int
    """In the ranking: 0 for the first."""
    seed: int
    half_points: int
    group_start: int
    """The place of the first player of its score group."""
    group_size: int
    past: History
    met: frozenset[PlayerId]
    white: ColourCost
    black: ColourCost

    @property
    def group_place(self) -> int:
        return self.place - self.group_start


@dataclass(frozen=True, slots=True)
class _EdgeCost:
    """An edge's cost, tier by tier, worst first (the module's list)."""

    second_bye: int = 0
    over_two: int = 0
    rematch: int = 0
    third_in_a_row: int = 0
    bye_place: int = 0
    score: int = 0
    disappointed: int = 0
    fit: int = 0

    @property
    def clean(self) -> bool:
        """Breaks none of the absolute criteria."""
        return not (self.second_bye or self.over_two or self.rematch or self.third_in_a_row)

    def tiers(self) -> tuple[int, ...]:
        return (
            self.second_bye,
            self.over_two,
            self.rematch,
            self.third_in_a_row,
            self.bye_place,
            self.score,
            self.disappointed,
            self.fit,
        )


def _pair_cost(a: _Entry, b: _Entry) -> _EdgeCost:
    colours = min((a.white + b.black).key, (b.white + a.black).key)
    if a.group_start == b.group_start:
        half = a.group_size // 2
        fit = abs(abs(a.place - b.place) - half)
        if (a.group_place < half) == (b.group_place < half):
            fit += a.group_size  # both in the same half: FIDE tries every other pairing first
    else:
        upper, lower = (a, b) if a.place < b.place else (b, a)
        fit = (upper.group_size - 1 - upper.group_place) + lower.group_place
    return _EdgeCost(
        over_two=colours[0],
        rematch=int(b.player in a.met),
        third_in_a_row=colours[1],
        score=(a.half_points - b.half_points) ** 2,
        disappointed=colours[2],
        fit=fit,
    )


def _bye_cost(entry: _Entry, count: int) -> _EdgeCost:
    return _EdgeCost(second_bye=int(entry.past.byes > 0), bye_place=count - 1 - entry.place)


class _Weights:
    """Turns edge costs into one integer weight each, tiers outweighing all below them."""

    def __init__(self, entries: Sequence[_Entry]) -> None:
        count = len(entries)
        edges = (count + 1) // 2
        spread = max(e.half_points for e in entries) - min(e.half_points for e in entries)
        most = _EdgeCost(1, 2, 1, 2, count, spread**2, 2 * Strength.ABSOLUTE, 3 * count)
        self._places: list[int] = []
        place = 1
        for top in reversed(most.tiers()):
            self._places.append(place)
            place *= edges * top + 1
        self._places.reverse()
        self._ceiling = place

    def weight(self, cost: _EdgeCost) -> int:
        return self._ceiling - sum(
            tier * place for tier, place in zip(cost.tiers(), self._places, strict=True)
        )


def _entries(players: Sequence[PlayerId], past: Mapping[PlayerId, History]) -> list[_Entry]:
    seeds = {player: seed for seed, player in enumerate(players)}
    half = {player: round(2 * past[player].points) for player in players}
    ranked = sorted(players, key=lambda p: (-half[p], seeds[p]))
    size = Counter(half.values())
    entries: list[_Entry] = []
    start = 0
    for place, player in enumerate(ranked):
        if half[player] != half[ranked[start]]:
            start = place
        entries.append(
            _Entry(
                player=player,
                place=place,
                seed=seeds[player],
                half_points=half[player],
                group_start=start,
                group_size=size[half[player]],
                past=past[player],
                met=frozenset(past[player].opponents),
                white=colour_cost(past[player], Colour.WHITE),
                black=colour_cost(past[player], Colour.BLACK),
            )
        )
    return entries


def _plausible(entries: Sequence[_Entry], window: int) -> dict[tuple[int, int], _EdgeCost]:
    """The plausible clean pairs (by places) and their costs: each player's neighbours in the
    ranking and the players near its ideal partner in its score group (half the group away),
    ``window`` places either way; a player with fewer than ``window`` clean pairs among them
    reaches further along the ranking until it has as many (or has tried everyone)."""
    count = len(entries)
    edges: dict[tuple[int, int], _EdgeCost] = {}

    def clean(place: int, other: int) -> bool:
        key = (min(place, other), max(place, other))
        if key not in edges:
            edges[key] = _pair_cost(entries[place], entries[other])
        return edges[key].clean

    for entry in entries:
        place = entry.place
        reach = set(range(max(0, place - window), min(count, place + window + 1)))
        half = entry.group_size // 2
        for centre in (entry.group_place + half, entry.group_place - half):
            low = max(0, centre - window)
            high = min(entry.group_size, centre + window + 1)
            reach.update(range(entry.group_start + low, entry.group_start + high))
        reach.discard(place)
        found = sum(clean(place, other) for other in reach)
        distance = window
        while found < window and distance < count:
            distance += 1
            for other in (place - distance, place + distance):
                if 0 <= other < count and other not in reach:
                    found += clean(place, other)
    return {pair: cost for pair, cost in edges.items() if cost.clean}


def _match(
    entries: Sequence[_Entry], edges: Mapping[tuple[int, int], _EdgeCost], *, clean: bool
) -> tuple[list[tuple[int, int]], set[int]]:
    """A maximum-weight matching of the most pairs over ``edges`` (pairs of places), the bye
    as node ``len(entries)``, and the places it leaves out (none: a perfect matching).
    ``clean``: no bye edge that breaks an absolute criterion (a second bye) either."""
    import networkx as nx  # noqa: PLC0415 - loaded by the first Swiss round, not at start

    count = len(entries)
    weights = _Weights(entries)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count + count % 2))
    for (a, b), cost in edges.items():
        graph.add_edge(a, b, weight=weights.weight(cost))
    if count % 2:
        for entry in entries:
            cost = _bye_cost(entry, count)
            if cost.clean or not clean:
                graph.add_edge(entry.place, count, weight=weights.weight(cost))
    matching = [
        (min(a, b), max(a, b)) for a, b in nx.max_weight_matching(graph, maxcardinality=True)
    ]
    left = set(graph.nodes) - {place for pair in matching for place in pair}
    return matching, left


def _pairs(entries: Sequence[_Entry]) -> list[tuple[int, int]]:
    """The round's pairs of places (the bye's: with ``len(entries)``), as the module says:
    over the plausible clean pairs, widened by every clean pair of those left out; if some
    are still left out, over every clean pair; and if that fails, over every pair."""
    count = len(entries)
    if count > _SMALL:
        plausible = _plausible(entries, _WINDOW)
        matching, left = _match(entries, plausible, clean=True)
        if left:
            widened = {
                (min(a, b), max(a, b)): cost
                for a in left - {count}
                for b in range(count)
                if b != a and (cost := _pair_cost(entries[a], entries[b])).clean
            }
            matching, left = _match(entries, plausible | widened, clean=True)
        if not left:
            return matching
    every = {
        (a, b): _pair_cost(entries[a], entries[b])
        for a, b in itertools.combinations(range(count), 2)
    }
    clean = {pair: cost for pair, cost in every.items() if cost.clean}
    matching, left = _match(entries, clean, clean=True)
    if left:
        matching, left = _match(entries, every, clean=False)
    assert not left, "a complete graph of an even order has a perfect matching"
    return matching


def swiss_round(players: Sequence[PlayerId], history: Mapping[PlayerId, History]) -> Round:
    """The next round of a Swiss among ``players`` (seed order; those who withdrew left out),
    given each one's ``history`` (:func:`histories`; a player missing from it has played
    nothing). Boards in ranking order of their better player, the bye last.

    Raises :class:`~bot.games.tournaments.standings.TooFewPlayers` below 2 players,
    :class:`~bot.games.tournaments.standings.DuplicatePlayer`, :class:`TooManyRounds` when the
    players have had :func:`most_swiss_rounds` rounds already.
    """
    check_players(players)
    past = {player: history.get(player, History()) for player in players}
    round_number = 1 + max(p.rounds for p in past.values())
    check_swiss(len(players), round_number)
    entries = _entries(players, past)
    count = len(entries)
    boards: list[Board] = []
    bye: list[Board] = []
    for a, b in sorted(_pairs(entries)):
        if b == count:
            bye.append(Bye(entries[a].player))
        else:
            higher, lower = entries[a], entries[b]
            boards.append(allocate(higher.player, lower.player, past, higher.seed))
    return (*boards, *bye)
