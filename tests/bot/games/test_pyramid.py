"""The network championship's pyramid: the worked example of the module by hand, and properties
over random championships (shape, moves, newcomers, blocks, the linear league it extends)."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Collection, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.tournaments import standings
from bot.games.tournaments.pyramid import (
    BRANCHING,
    BlockedPair,
    Place,
    by_level,
    divide,
    division_at,
    first_division,
    groups_at,
    level_of,
    next_season,
    place_of,
    separate_blocked,
)
from bot.games.tournaments.standings import (
    BadLeagueSetting,
    Division,
    DuplicatePlayer,
    PlayerId,
    Standing,
    smallest_division,
)


def table(*players: int) -> tuple[Standing, ...]:
    """A final table in this order (points falling, so no ties)."""
    return tuple(
        Standing(
            rank=i + 1,
            player=player,
            points=float(len(players) - i),
            games=len(players) - 1,
            wins=0,
            draws=0,
            losses=0,
            byes=0,
            tie_breaks=(),
            margin=0,
        )
        for i, player in enumerate(players)
    )


def levels_of(placed: Sequence[Division], branching: int = BRANCHING) -> dict[PlayerId, int]:
    return {
        player: number
        for number, level in enumerate(by_level(placed, branching=branching), start=1)
        for division in level
        for player in division
    }


# --- numbering ---------------------------------------------------------------------------------


def test_divisions_are_numbered_down_the_pyramid() -> None:
    assert [first_division(level) for level in (1, 2, 3, 4, 5)] == [1, 2, 5, 14, 41]
    assert [groups_at(level) for level in (1, 2, 3, 4)] == [1, 3, 9, 27]
    assert [place_of(d) for d in (1, 2, 4, 5, 13, 14, 40, 41)] == [
        Place(1, 1),
        Place(2, 1),
        Place(2, 3),
        Place(3, 1),
        Place(3, 9),
        Place(4, 1),
        Place(4, 27),
        Place(5, 1),
    ]
    assert [level_of(d, branching=1) for d in (1, 2, 7)] == [1, 2, 7]
    assert division_at(3, 9) == 13
    with pytest.raises(ValueError):
        division_at(2, 4)
    with pytest.raises(ValueError):
        place_of(0)
    with pytest.raises(BadLeagueSetting):
        place_of(3, branching=0)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5000), st.integers(1, 5))
def test_numbering_round_trips(division: int, branching: int) -> None:
    place = place_of(division, branching=branching)
    assert 1 <= place.group <= groups_at(place.level, branching=branching)
    assert division_at(place.level, place.group, branching=branching) == division
    assert level_of(division, branching=branching) == place.level
    assert first_division(place.level, branching=branching) <= division
    assert division < first_division(place.level + 1, branching=branching)


# --- the worked example ------------------------------------------------------------------------


def test_the_worked_example_of_130_players() -> None:
    first = divide(range(1, 131))
    assert [len(d) for d in first] == [10] * 13
    # Level 2 is dealt in a snake: 11 to division 2, 12 to 3, 13 and 14 to 4, 15 to 3...
    assert first[1][:4] == (11, 16, 17, 22)
    tables = [table(*division) for division in first]
    placed = next_season(tables)
    top = tables[0]
    # Division 1: its 1st-4th stay, the first two of divisions 2-4 come up, 5th-10th go down.
    assert placed[0] == (
        *(row.player for row in top[:4]),
        *(tables[d][0].player for d in (1, 2, 3)),
        *(tables[d][1].player for d in (1, 2, 3)),
    )
    levels = levels_of(placed)
    for row in top[4:]:
        assert levels[row.player] == 2
    for division in tables[1:4]:
        assert [levels[row.player] for row in division] == [1, 1, 2, 2, 3, 3, 3, 3, 3, 3]
    for division in tables[4:]:
        assert [levels[row.player] for row in division] == [2, 2] + [3] * 8
    # Each of divisions 2-4: two from division 1, two who stayed, six from level 3.
    came_down = {row.player for row in top[4:]}
    stayed = {row.player for division in tables[1:4] for row in division[2:4]}
    for players in placed[1:4]:
        assert len(came_down & set(players)) == 2
        assert len(stayed & set(players)) == 2


def test_a_lowest_level_of_one_division_takes_two_from_the_level_above() -> None:
    first = divide(range(1, 51))
    assert [len(d) for d in first] == [10] * 5
    tables = [table(*division) for division in first]
    levels = levels_of(next_season(tables))
    down = [row.player for division in tables[1:4] for row in division if levels[row.player] == 3]
    # The two worst of level 2's three 10ths: all on 1 point, so the later divisions'.
    assert down == [tables[2][9].player, tables[3][9].player]
    # With points that differ, the 10ths with fewer go down: divisions 2's and 4's.
    for number, points in ((1, 0.5), (2, 3.0), (3, 0.0)):
        last = tables[number][9]
        tables[number] = (*tables[number][:9], dataclasses.replace(last, points=points))
    levels = levels_of(next_season(tables))
    down = [row.player for division in tables[1:4] for row in division if levels[row.player] == 3]
    assert down == [tables[1][9].player, tables[3][9].player]


# --- properties of the shape -------------------------------------------------------------------


def check_shape(placed: Sequence[Division], size: int, branching: int) -> None:
    """Every level but the lowest full; the lowest's divisions within bounds, one apart."""
    levels = by_level(placed, branching=branching)
    for number, level in enumerate(levels[:-1], start=1):
        assert len(level) == groups_at(number, branching=branching)
        assert all(len(division) == size for division in level)
    if not levels:
        return
    lowest = levels[-1]
    sizes = [len(division) for division in lowest]
    assert max(sizes) - min(sizes) <= 1
    half = smallest_division(size)
    total = sum(len(division) for division in placed)
    assert max(sizes) <= size + half - 1
    assert min(sizes) >= min(half, total)


def check_apart(
    placed: Sequence[Division], blocked: Collection[BlockedPair], branching: int
) -> None:
    """No blocked pair shares a division that a swap in its level could have split."""
    partners: dict[PlayerId, set[PlayerId]] = {}
    for one, other in blocked:
        partners.setdefault(one, set()).add(other)
        partners.setdefault(other, set()).add(one)
    for level in by_level(placed, branching=branching):
        where = {player: number for number, division in enumerate(level) for player in division}
        for one, other in blocked:
            if one not in where or where.get(one) != where.get(other):
                continue
            home = where[one]
            for player in (one, other):
                for number, division in enumerate(level):
                    for swap in division if number != home else ():
                        mine = all(where.get(p) != number or p == swap for p in partners[player])
                        theirs = all(
                            where.get(p) != home or p == player for p in partners.get(swap, ())
                        )
                        assert not (mine and theirs), (one, other, swap)


@st.composite
def blocks(draw: st.DrawFn, players: Sequence[PlayerId]) -> set[BlockedPair]:
    if len(players) < 2:
        return set()
    count = draw(st.integers(0, max(1, len(players) // 3)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return {tuple(rng.sample(list(players), 2)) for _ in range(count)}  # type: ignore[misc]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 400), st.integers(8, 14), st.integers(2, 3), st.data())
def test_divide_places_everyone_once_in_shape(
    count: int, size: int, branching: int, data: st.DataObject
) -> None:
    size = max(size, 2 * (branching + 1))
    ladder = list(range(1000, 1000 + count))
    blocked = data.draw(blocks(ladder))
    placed = divide(ladder, size=size, blocked=blocked, branching=branching)
    assert sorted(p for division in placed for p in division) == ladder
    check_shape(placed, size, branching)
    check_apart(placed, blocked, branching)
    # Without blocks the levels keep the ladder's order: nobody is above a better player.
    levels = levels_of(divide(ladder, size=size, branching=branching), branching)
    assert [levels[p] for p in ladder] == sorted(levels[p] for p in ladder)


def test_a_small_championship_is_one_division() -> None:
    assert divide([3, 1, 2]) == ((3, 1, 2),)
    assert divide([]) == ()
    # 14 players: four are too few for a level of their own (half a division is 5).
    assert [len(d) for d in divide(range(14))] == [14]
    assert [len(d) for d in divide(range(15))] == [10, 5]
    assert [len(d) for d in divide(range(41))] == [10, 11, 10, 10]
    assert [len(d) for d in divide(range(51))] == [10, 10, 10, 10, 5, 6]  # the snake turned
    with pytest.raises(DuplicatePlayer):
        divide([1, 2, 1])
    with pytest.raises(BadLeagueSetting) as bad:
        divide(range(20), size=7)  # two up from each of three below: 8 a division at least
    assert (bad.value.name, bad.value.least) == ("size", 8)


# --- properties of a season's end --------------------------------------------------------------


@st.composite
def championships(draw: st.DrawFn) -> tuple[list[tuple[Standing, ...]], int, int]:
    """A season's final tables in pyramid order (made by :func:`divide`, each division's
    order shuffled and points drawn falling, ties allowed), its size and branching."""
    branching = draw(st.integers(2, 3))
    size = draw(st.integers(2 * (branching + 1), 12))
    count = draw(st.integers(0, 300))
    rng = random.Random(draw(st.integers(0, 2**32)))
    tables = []
    for division in divide(range(1, count + 1), size=size, branching=branching):
        order = rng.sample(division, len(division))
        points = sorted((rng.randint(0, 2 * len(order)) / 2 for _ in order), reverse=True)
        tables.append(
            tuple(
                Standing(i + 1, player, p, len(order) - 1, 0, 0, 0, 0, (), 0)
                for i, (player, p) in enumerate(zip(order, points, strict=True))
            )
        )
    return tables, size, branching


@settings(max_examples=200, deadline=None)
@given(championships(), st.data())
def test_next_season_moves_two_up_keeps_shape_and_newcomers_lowest(
    championship: tuple[list[tuple[Standing, ...]], int, int], data: st.DataObject
) -> None:
    tables, size, branching = championship
    everyone = [row.player for division in tables for row in division]
    leaving = (
        set(data.draw(st.lists(st.sampled_from(everyone), unique=True))) if everyone else set()
    )
    newcomers = list(range(5000, 5000 + data.draw(st.integers(0, 40))))
    blocked = data.draw(blocks([*everyone, *newcomers]))
    placed = next_season(
        tables,
        leaving=leaving,
        newcomers=newcomers,
        blocked=blocked,
        size=size,
        branching=branching,
    )
    flat = [player for division in placed for player in division]
    assert sorted(flat) == sorted({*everyone, *newcomers} - leaving)
    check_shape(placed, size, branching)
    check_apart(placed, blocked, branching)
    before = levels_of([tuple(row.player for row in t) for t in tables], branching)
    after = levels_of(placed, branching)
    # The first and second of every division below the top go up.
    for number, division in enumerate(tables, start=1):
        if level_of(number, branching=branching) > 1:
            for row in division[:2]:
                if row.player not in leaving:
                    assert after[row.player] < before[row.player], row
    # Newcomers start in the lowest level, below everyone still in.
    returning = [after[p] for p in flat if p not in newcomers]
    if newcomers and returning:
        assert min(after[p] for p in newcomers) >= max(returning)


@settings(max_examples=150, deadline=None)
@given(championships())
def test_a_level_sends_down_as_many_from_each_division_give_or_take_one(
    championship: tuple[list[tuple[Standing, ...]], int, int],
) -> None:
    tables, size, branching = championship
    placed = next_season(tables, size=size, branching=branching)
    after = levels_of(placed, branching)
    levels = by_level(tables, branching=branching)
    for number, level in enumerate(levels[:-1], start=1):
        # Nobody leaves and nobody comes: a full level keeps its players less those it sends
        # down, and each of its divisions sends its last ones.
        downs = [sum(after[row.player] > number for row in division) for division in level]
        assert max(downs) - min(downs) <= 1
        for division in level:
            fell = [after[row.player] > number for row in division]
            assert fell == sorted(fell)  # the last of the table, never one above them


def test_a_full_pyramid_sends_six_down_from_each_division_of_ten() -> None:
    tables = [table(*division) for division in divide(range(1, 401))]  # four full levels
    after = levels_of(next_season(tables))
    for number, division in enumerate(tables[:13], start=1):
        level = level_of(number)
        fell = sum(after[row.player] > level for row in division)
        assert fell == 6, number


# --- one division a level is the league ---------------------------------------------------------


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[tuple[Standing, ...]], int]:
    """A league's final tables as its seasons make them: full divisions, the last within
    bounds (:func:`standings.divisions`); each table's order shuffled."""
    size = draw(st.integers(2, 12))
    count = draw(st.integers(0, 80))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cut = standings.divisions(range(1, count + 1), size=size)
    return [table(*rng.sample(division, len(division))) for division in cut], size


@settings(max_examples=300, deadline=None)
@given(leagues(), st.data())
def test_one_division_a_level_moves_as_the_league(
    league: tuple[list[tuple[Standing, ...]], int], data: st.DataObject
) -> None:
    tables, size = league
    everyone = [row.player for division in tables for row in division]
    leaving = (
        set(data.draw(st.lists(st.sampled_from(everyone), unique=True))) if everyone else set()
    )
    newcomers = list(range(500, 500 + data.draw(st.integers(0, 15))))
    assert next_season(
        tables, leaving=leaving, newcomers=newcomers, size=size, branching=1
    ) == standings.next_season(tables, leaving=leaving, newcomers=newcomers, size=size)


def test_one_division_a_level_is_two_up_two_down() -> None:
    tables = [table(*range(start, start + 10)) for start in (1, 11, 21)]
    with pytest.raises(DuplicatePlayer):
        next_season(tables, newcomers=[5], branching=1)
    assert next_season(tables, leaving={5}, newcomers=[5], branching=1)[-1][-1] == 5
    assert next_season(tables, branching=1) == (
        (1, 2, 3, 4, 5, 6, 7, 8, 11, 12),
        (9, 10, 13, 14, 15, 16, 17, 18, 21, 22),
        (19, 20, 23, 24, 25, 26, 27, 28, 29, 30),
    )


# --- blocked pairs -----------------------------------------------------------------------------


def test_a_blocked_pair_is_split_by_the_nearest_swap() -> None:
    # Level 2: divisions 2-4 of four; 11 and 16 share division 2 as its 1st and 2nd.
    placed = [(1, 2, 3, 4, 5, 6, 7, 8), (11, 16, 17, 22), (12, 15, 18, 21), (13, 14, 19, 20)]
    split = separate_blocked(placed, {(11, 16)})
    # 16, the lower seeded, takes the seat of 15, division 3's 2nd: same seed, nearest division.
    assert split[1:] == ((11, 15, 17, 22), (12, 16, 18, 21), (13, 14, 19, 20))
    assert split[0] == placed[0]
    # 15 has blocked 11 too: 16 goes to division 4 instead.
    assert separate_blocked(placed, {(11, 16), (15, 11)})[1:] == (
        (11, 14, 17, 22),
        (12, 15, 18, 21),
        (13, 16, 19, 20),
    )
    # At the top nothing can be done: nobody changes level for a block.
    assert separate_blocked(placed, {(1, 2)}) == tuple(placed)
    assert separate_blocked(placed, {(1, 1)}) == tuple(placed)


@settings(max_examples=150, deadline=None)
@given(st.integers(20, 400), st.integers(0, 2**32))
def test_pairs_blocked_one_to_one_are_always_split(count: int, seed: int) -> None:
    # Each player in one pair at most: some swap always splits a pair of a level of several
    # divisions, so none is left together below the top.
    rng = random.Random(seed)
    ladder = list(range(count))
    shuffled = rng.sample(ladder, count)
    pairs = {(shuffled[i], shuffled[i + 1]) for i in range(0, count - 1, 2) if rng.random() < 0.5}
    placed = divide(ladder, blocked=pairs)
    for level in by_level(placed)[1:]:
        if len(level) < 2:
            continue
        for division in level:
            members = set(division)
            assert not [pair for pair in pairs if set(pair) <= members]


def test_ten_thousand_players() -> None:
    rng = random.Random(41)
    ladder = list(range(10_000))
    blocked = {(rng.choice(ladder), rng.choice(ladder)) for _ in range(500)}
    blocked = {pair for pair in blocked if pair[0] != pair[1]}
    started = time.process_time()
    first = divide(ladder, blocked=blocked)
    tables = [table(*rng.sample(division, len(division))) for division in first]
    leaving = set(rng.sample(ladder, 300))
    newcomers = range(20_000, 20_200)
    placed = next_season(tables, leaving=leaving, newcomers=newcomers, blocked=blocked)
    spent = time.process_time() - started
    assert len(by_level(first)) == 7 and len(first) == 1000
    flat = list(itertools.chain.from_iterable(placed))
    assert sorted(flat) == sorted({*ladder, *newcomers} - leaving)
    check_shape(placed, standings.DIVISION_SIZE, BRANCHING)
    for level in by_level(placed)[1:]:
        for division in level:
            members = set(division)
            assert not [pair for pair in blocked if set(pair) <= members]
    # Well under a second on a laptop; this bound only catches a slower algorithm.
    assert spent < 5.0
