"""The network championship's divisions: a pyramid of round robins, as Little Golem runs its
championship, widening downward so that thousands of players do not make a ladder a thousand
divisions deep.

Pure functions over immutable values, on top of :mod:`bot.games.tournaments.standings` (its
tables, :func:`~bot.games.tournaments.standings.league_moves`, its settings and errors): no I/O,
no Discord, no database. Players are opaque ints (user ids); a division is a tuple of players,
best placed first (its seed order).

**Levels and numbering.** Level 1 is one division; each level below has :data:`BRANCHING` times
as many as the one above: 1, 3, 9, 27... (a full pyramid of divisions of 10 holds 10, 40, 130,
400, 1,210, 3,640, 10,930 players with 1 to 7 levels). Divisions are numbered top down and, in
a level, from its first division: 1 is level 1; 2–4 are level 2; 5–13 level 3; 14–40 level 4.
:func:`place_of` and :func:`division_at` turn a number into (level, group) and back, so a
season's divisions are stored as numbered league divisions are, with no other record. Only the
lowest level may have fewer divisions than its width; every level above it is full.

**Shape.** :func:`divide` makes the first season from a ladder (every player, best first: by
network rating): the levels are filled top down, each with ``size`` players a division, and a
level's players are dealt to its divisions as cards, in a snake (1, 2, 3, 3, 2, 1, 1, 2...), so
each division gets a fair share of the level's strong and weak. The players left for the lowest
level make as few divisions as hold them at ``size`` at most (so at least half a division each);
fewer than half a division (:func:`~bot.games.tournaments.standings.smallest_division`) open no
level of their own and join the level above, whose divisions then have one or two more. Every
division has between ``smallest_division(size)`` and ``size + smallest_division(size) - 1``
players (5 to 14 of 10), unless the whole championship is smaller than that.

**A season's end** (:func:`next_season`):

1. *Two up.* The first and second of every division below level 1 go up a level
   (:data:`~bot.games.tournaments.standings.PROMOTED`), always (further, if players leaving
   free enough places above).
2. *As many down as keep the levels full.* A level's width is fixed, so it sends down as many
   as it takes in beyond what it sends up: the players coming up from the level below plus
   those coming down from the level above, less its own promoted. Who goes down are the level's
   worst placed: the last of every division, then the last but one..., places level across the
   level's divisions ordered by points (fewer points go first), then by division number (a
   later division first). So a level's divisions send down equal numbers, or one apart. The
   lowest level sends nobody down.
3. *The next season's ladder* is, level after level from the top, those who came down from the
   level above, then those staying, then those who came up from the level below, each group in
   level order (place, then more points, then division number). Players leaving (withdrawn, or
   out of the network) are taken out of it; the newcomers are added at its end, in the order
   given, so they start in the lowest level, below everyone still in. The ladder is then cut
   into levels and dealt into divisions as for the first season. So a place left free by a
   player leaving is taken by the best of those who would have gone down (they stay up), and so
   on down the pyramid; the lowest level absorbs the difference.

With one division a level (``branching=1``) this is exactly the league of
:func:`bot.games.tournaments.standings.next_season` with two up and two down, divisions in the
same order: a full division takes in two from below and sends two up, so sends two down. With
three divisions a level, divisions of 10 in a full pyramid send six down: level 2's three
divisions take in 18 from level 3's nine and 6 from level 1, and send 6 up, so they keep 30
only by sending 18 down.

*Worked example:* 130 players, levels 1–3 full (divisions 1; 2–4; 5–13, all of 10).

- Division 1 sends nobody up and takes in the first and second of divisions 2, 3 and 4: six
  down, its 5th to 10th. Its 1st to 4th stay.
- Level 2 sends 6 up, takes in 18 from level 3 and the 6 from division 1: 30 - 6 + 18 + 6 = 48,
  so 18 down, six a division (5th to 10th); their 3rd and 4th stay.
- Level 3 (the lowest) sends 18 up and nobody down: its 3rd to 10th stay, and take in the 18.
- Next season, level 2's ladder is division 1's 5th–10th, then level 2's 3rds (division 2's,
  3's and 4's, by points), then their 4ths, then level 3's nine firsts and nine seconds. Dealt
  in a snake, divisions 2, 3 and 4 get ten each: 2 from division 1, 2 who stayed, 6 from below.

Were level 3 only one division (50 players), level 2 would take in 2 from below and 6 from
above and send 6 up: two down, the two worst of its three 10ths.

A fixed down count (say, sixth and below) would let the levels' widths drift season by season;
here they are kept exactly, which is what lets the divisions be numbered once for all.

**Blocked pairs** (:func:`separate_blocked`): two players one of whom blocked the other are never
dealt into one division when it can be avoided. A pair that shares a division is split by
swapping one of them, the lower seeded first, with the player of another division of the same
level who is nearest in seed (the same seed first, then one apart...; then the nearest division
by number) and whose swap puts no blocked pair together in either division. Nobody changes level
for a block: a pair in a level of one division (the top, or a lowest level of one) plays, as
does a pair for whom no such swap exists (blocks so dense that every swap makes another).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from bot.games.tournaments.standings import (
    DIVISION_SIZE,
    PROMOTED,
    BadLeagueSetting,
    Division,
    PlayerId,
    Standing,
    check_players,
    league_moves,
    smallest_division,
)

BRANCHING: Final = 3
"""How many divisions a level has for each of the level above (Little Golem's championship).
Division numbers depend on it: a running championship must keep it."""

BlockedPair = tuple[PlayerId, PlayerId]
"""Two players of whom one blocked the other, in either order."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a division sits: its level (1 at the top) and its group in the level (1 first)."""

    level: int
    group: int


# --- numbering ---------------------------------------------------------------------------------


def _check_branching(branching: int) -> None:
    if branching < 1:
        raise BadLeagueSetting("branching", branching, 1)


def groups_at(level: int, *, branching: int = BRANCHING) -> int:
    """How many divisions ``level`` has when full: ``branching ** (level - 1)``."""
    _check_branching(branching)
    if level < 1:
        raise ValueError(f"levels are numbered from 1, not {level}")
    return int(branching ** (level - 1))


def first_division(level: int, *, branching: int = BRANCHING) -> int:
    """The number of ``level``'s first division: 1, 2, 5, 14, 41... with three a level."""
    groups_at(level, branching=branching)  # checks both
    if branching == 1:
        return level
    return 1 + int((branching ** (level - 1) - 1) // (branching - 1))


def place_of(division: int, *, branching: int = BRANCHING) -> Place:
    """Division ``division``'s level and group: 1 -> (1, 1), 2 -> (2, 1), 4 -> (2, 3),
    5 -> (3, 1) with three a level."""
    _check_branching(branching)
    if division < 1:
        raise ValueError(f"divisions are numbered from 1, not {division}")
    level, first = 1, 1
    while division >= first + groups_at(level, branching=branching):
        first += groups_at(level, branching=branching)
        level += 1
    return Place(level, division - first + 1)


def level_of(division: int, *, branching: int = BRANCHING) -> int:
    """Division ``division``'s level (see :func:`place_of`)."""
    return place_of(division, branching=branching).level


def division_at(level: int, group: int, *, branching: int = BRANCHING) -> int:
    """The number of ``level``'s division ``group`` (from 1): the inverse of :func:`place_of`."""
    if not 1 <= group <= groups_at(level, branching=branching):
        raise ValueError(f"level {level} has no group {group}")
    return first_division(level, branching=branching) + group - 1


def by_level(divisions: Sequence[T], *, branching: int = BRANCHING) -> list[list[T]]:
    """``divisions`` (anything numbered 1, 2, ... in pyramid order) cut into their levels."""
    _check_branching(branching)
    levels: list[list[T]] = []
    start = 0
    while start < len(divisions):
        width = groups_at(len(levels) + 1, branching=branching)
        levels.append(list(divisions[start : start + width]))
        start += width
    return levels


# --- placing a ladder --------------------------------------------------------------------------


def _check_size(size: int, branching: int) -> None:
    _check_branching(branching)
    if size < 2:
        raise BadLeagueSetting("size", size, 2)
    # In a full pyramid a division takes in PROMOTED * branching from below and PROMOTED from
    # above, and sends PROMOTED up: smaller, it could not take in all it promotes.
    least = PROMOTED * (branching + 1)
    if branching > 1 and size < least:
        raise BadLeagueSetting("size", size, least)


def _cut(ladder: Sequence[PlayerId], size: int, branching: int) -> list[list[PlayerId]]:
    """The ladder cut into levels of ``size`` a division, top first (the module's shape)."""
    levels: list[list[PlayerId]] = []
    start = 0
    while start < len(ladder):
        room = size * groups_at(len(levels) + 1, branching=branching)
        levels.append(list(ladder[start : start + room]))
        start += room
    if len(levels) > 1 and len(levels[-1]) < smallest_division(size):
        rest = levels.pop()
        levels[-1] += rest
    return levels


def _deal(players: Sequence[PlayerId], count: int) -> list[list[PlayerId]]:
    """``players`` dealt to ``count`` divisions in a snake: 1, 2, 3, 3, 2, 1, 1, 2..."""
    groups: list[list[PlayerId]] = [[] for _ in range(count)]
    for index, player in enumerate(players):
        row, column = divmod(index, count)
        groups[column if row % 2 == 0 else count - 1 - column].append(player)
    return groups


def _place(
    ladder: Sequence[PlayerId], size: int, branching: int, blocked: Collection[BlockedPair]
) -> tuple[Division, ...]:
    check_players(ladder, needed=0)
    placed: list[Division] = []
    for number, players in enumerate(_cut(ladder, size, branching), start=1):
        width = groups_at(number, branching=branching)
        count = min(width, -(-len(players) // size))
        placed += (tuple(group) for group in _deal(players, count))
    return separate_blocked(placed, blocked, branching=branching)


def divide(
    ladder: Sequence[PlayerId],
    *,
    size: int = DIVISION_SIZE,
    blocked: Collection[BlockedPair] = (),
    branching: int = BRANCHING,
) -> tuple[Division, ...]:
    """The first season's divisions in number order, from ``ladder`` (every player, best
    first): levels filled top down, dealt into divisions in a snake, blocked pairs kept apart
    (see the module's rules)."""
    _check_size(size, branching)
    return _place(ladder, size, branching, blocked)


# --- a season's end ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """A player of a level, with what orders them across its divisions."""

    place: int  # 0 for the first of its division
    points: float
    group: int  # 0 for the level's first division
    player: PlayerId

    @property
    def key(self) -> tuple[int, float, int]:
        return (self.place, -self.points, self.group)


def _in_level_order(ordered: Sequence[_Row], players: Collection[PlayerId]) -> list[PlayerId]:
    """``players`` in level order (place, more points, division number), from ``ordered``: the
    rows of their level in that order."""
    return [row.player for row in ordered if row.player in players]


def next_season(
    tables: Sequence[Sequence[Standing]],
    *,
    leaving: Collection[PlayerId] = (),
    newcomers: Sequence[PlayerId] = (),
    blocked: Collection[BlockedPair] = (),
    size: int = DIVISION_SIZE,
    branching: int = BRANCHING,
) -> tuple[Division, ...]:
    """The next season's divisions in number order, from this season's final ``tables`` (in
    division number order, each as :func:`~bot.games.tournaments.standings.standings` gives
    it): two up from every division, as many down as keep the levels full, ``leaving`` taken
    out, ``newcomers`` (in their order) in the lowest level, blocked pairs kept apart (see the
    module's rules). Raises :class:`~bot.games.tournaments.standings.DuplicatePlayer` for a
    player listed twice, in the tables or as a newcomer still in."""
    _check_size(size, branching)
    levels = by_level(tables, branching=branching)
    rows = [
        [
            _Row(place, row.points, group, row.player)
            for group, table in enumerate(level)
            for place, row in enumerate(table)
        ]
        for level in levels
    ]
    check_players([row.player for level in rows for row in level], needed=0)
    lowest = len(levels)
    promoted_from = [
        0 if number == 1 else sum(min(PROMOTED, len(table)) for table in level)
        for number, level in enumerate(levels, start=1)
    ]
    promoted: list[list[PlayerId]] = []
    staying: list[list[PlayerId]] = []
    relegated: list[list[PlayerId]] = []
    down_before = 0
    for number, level in enumerate(levels, start=1):
        # What comes in (from below, from above) less what goes up, beyond the level's width.
        promoting = promoted_from[number - 1]
        left = len(rows[number - 1]) - promoting
        coming_up = promoted_from[number] if number < lowest else 0
        excess = down_before + left + coming_up - size * groups_at(number, branching=branching)
        down = 0 if number == lowest else max(0, min(excess, left))
        ordered = sorted(rows[number - 1], key=lambda r: r.key)
        candidates = [row for row in ordered if number == 1 or row.place >= PROMOTED]
        downs = Counter(row.group for row in candidates[len(candidates) - down :])
        moves = [
            league_moves(
                table,
                up=PROMOTED,
                down=downs[group],
                top_division=number == 1,
                bottom_division=number == lowest,
            )
            for group, table in enumerate(level)
        ]
        promoted.append(_in_level_order(ordered, {p for m in moves for p in m.promoted}))
        staying.append(_in_level_order(ordered, {p for m in moves for p in m.staying}))
        relegated.append(_in_level_order(ordered, {p for m in moves for p in m.relegated}))
        down_before = len(relegated[-1])
    ladder: list[PlayerId] = []
    for index in range(lowest):
        ladder += relegated[index - 1] if index > 0 else []
        ladder += staying[index]
        ladder += promoted[index + 1] if index + 1 < lowest else []
    gone = set(leaving)
    still_in = [player for player in ladder if player not in gone]
    return _place([*still_in, *newcomers], size, branching, blocked)


# --- blocked pairs -----------------------------------------------------------------------------


def separate_blocked(
    divisions: Sequence[Sequence[PlayerId]],
    blocked: Collection[BlockedPair],
    *,
    branching: int = BRANCHING,
) -> tuple[Division, ...]:
    """``divisions`` (in number order) with blocked pairs split by swaps inside their level,
    each player keeping the other's seed (see the module's rules); the levels, and how many
    each division has, are unchanged."""
    partners: dict[PlayerId, set[PlayerId]] = {}
    for one, other in blocked:
        if one != other:
            partners.setdefault(one, set()).add(other)
            partners.setdefault(other, set()).add(one)
    placed = [list(division) for division in divisions]
    if partners:
        for level in by_level(placed, branching=branching):
            if len(level) > 1:
                _separate_level(level, partners)
    return tuple(tuple(division) for division in placed)


def _separate_level(level: list[list[PlayerId]], partners: dict[PlayerId, set[PlayerId]]) -> None:
    """Split the blocked pairs of one level's divisions, in place."""
    group: dict[PlayerId, int] = {}
    seat: dict[PlayerId, int] = {}
    for number, division in enumerate(level):
        for index, player in enumerate(division):
            group[player], seat[player] = number, index

    def together(player: PlayerId) -> list[PlayerId]:
        """Blocked partners of ``player`` in their division, by seed."""
        found = [p for p in partners.get(player, ()) if group.get(p) == group[player]]
        return sorted(found, key=lambda p: seat[p])

    def nearest(player: PlayerId) -> Iterator[PlayerId]:
        """Players of the level's other divisions, nearest in seed, then in number."""
        home, mine = group[player], seat[player]
        others = sorted(
            (number for number in range(len(level)) if number != home),
            key=lambda number: (abs(number - home), number),
        )
        longest = max(len(division) for division in level)
        for distance in range(longest):
            for index in (mine - distance, mine + distance) if distance else (mine,):
                for number in others:
                    if 0 <= index < len(level[number]):
                        yield level[number][index]

    def fits(player: PlayerId, into: int, leaving: PlayerId) -> bool:
        """Whether ``player`` can take ``leaving``'s seat in division ``into``."""
        return all(group.get(p) != into or p == leaving for p in partners.get(player, ()))

    def move(player: PlayerId) -> bool:
        home = group[player]
        for other in nearest(player):
            there = group[other]
            if fits(player, there, other) and fits(other, home, player):
                level[home][seat[player]], level[there][seat[other]] = other, player
                group[player], group[other] = there, home
                seat[player], seat[other] = seat[other], seat[player]
                return True
        return False

    # Every swap puts no pair together and parts at least one, so there are at most as many
    # swaps as pairs together at the start. Another pass may free a pair that had no swap.
    budget = sum(len(together(player)) for player in group if player in partners) // 2
    swapped = True
    while swapped:
        swapped = False
        for player in sorted(
            (p for p in group if p in partners), key=lambda p: (group[p], seat[p])
        ):
            for partner in together(player):
                if group[partner] != group[player]:
                    continue
                later, earlier = (
                    (partner, player) if seat[partner] > seat[player] else (player, partner)
                )
                if move(later) or move(earlier):
                    swapped = True
                    budget -= 1
                    if budget < 0:
                        raise RuntimeError("a swap put a blocked pair together")
