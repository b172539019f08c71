"""Pairing: FIDE's tables and hand-made rounds, and properties over many random tournaments."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.tournaments.pairing import (
    Board,
    Decider,
    History,
    KnockoutOver,
    MatchUndecided,
    MatchWon,
    NotAMatch,
    Pairing,
    Round,
    SecondGame,
    TooManyRounds,
    berger_rounds,
    bracket_order,
    histories,
    knockout_first_round,
    knockout_next_round,
    knockout_rounds,
    match_winner,
)
from bot.games.tournaments.standings import (
    Bye,
    DuplicatePlayer,
    GameResult,
    Outcome,
    Result,
    TooFewPlayers,
)
from bot.games.tournaments.swiss import check_swiss, most_swiss_rounds, swiss_round
from rules import Colour

W, B, D = Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW


def boards(round_: Round) -> list[tuple[int, int] | int]:
    """A round as ``(white, black)`` pairs, a bye as its player alone."""
    return [b.player if isinstance(b, Bye) else (b.white, b.black) for b in round_]


def seated(round_: Round) -> list[int]:
    """Every player of a round, paired or not."""
    return [player for board in round_ for player in board.players]


# --- round robin -------------------------------------------------------------------------------


def test_berger_tables_for_six_are_fides() -> None:
    assert [boards(r) for r in berger_rounds([1, 2, 3, 4, 5, 6])] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_berger_tables_for_eight_are_fides() -> None:
    schedule = [boards(r) for r in berger_rounds(list(range(1, 9)))]
    assert schedule[1] == [(8, 5), (6, 4), (7, 3), (1, 2)]
    assert schedule[6] == [(4, 8), (5, 3), (6, 2), (7, 1)]


def test_an_odd_count_gives_the_empty_seats_opponent_a_bye() -> None:
    # Five players take seats 1-5 of the table for six: seat 6's opponent sits out.
    assert [boards(r) for r in berger_rounds([11, 12, 13, 14, 15])] == [
        [(12, 15), (13, 14), 11],
        [(15, 13), (11, 12), 14],
        [(13, 11), (14, 15), 12],
        [(11, 14), (12, 13), 15],
        [(14, 12), (15, 11), 13],
    ]


def test_a_double_round_robin_swaps_the_first_cycles_last_two_rounds() -> None:
    cycle = berger_rounds([1, 2, 3, 4])
    single = [boards(r) for r in cycle]
    reversed_ = [boards(tuple(p.swapped() for p in r if isinstance(p, Pairing))) for r in cycle]
    double = [boards(r) for r in berger_rounds([1, 2, 3, 4], double=True)]
    assert double == [single[0], single[2], single[1], *reversed_]
    assert [boards(r) for r in berger_rounds([1, 2], double=True)] == [[(1, 2)], [(2, 1)]]


def test_berger_needs_two_distinct_players() -> None:
    with pytest.raises(TooFewPlayers) as few:
        berger_rounds([1])
    assert (few.value.count, few.value.needed) == (1, 2)
    with pytest.raises(DuplicatePlayer):
        berger_rounds([1, 2, 1])


def colour_runs(schedule: Sequence[Round]) -> dict[int, list[Colour]]:
    """Each player's colours, in order of the rounds."""
    colours: dict[int, list[Colour]] = {}
    for round_ in schedule:
        for board in round_:
            if isinstance(board, Pairing):
                colours.setdefault(board.white, []).append(Colour.WHITE)
                colours.setdefault(board.black, []).append(Colour.BLACK)
    return colours


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 31), st.booleans())
def test_berger_schedules_are_complete_and_balanced(count: int, double: bool) -> None:
    players = list(range(100, 100 + count))
    schedule = berger_rounds(players, double=double)
    seats = count + count % 2
    cycles = 2 if double else 1
    assert len(schedule) == cycles * (seats - 1)
    per_cycle = seats - 1
    for cycle in range(cycles):
        rounds = schedule[cycle * per_cycle : (cycle + 1) * per_cycle]
        met: Counter[frozenset[int]] = Counter()
        for round_ in rounds:
            assert sorted(seated(round_)) == players  # everyone once a round
            assert sum(isinstance(b, Bye) for b in round_) == count % 2
            assert all(isinstance(b, Pairing) for b in round_[: count // 2])  # the bye last
            met.update(frozenset(b.players) for b in round_ if isinstance(b, Pairing))
        assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
        for colours in colour_runs(rounds).values():
            assert abs(colours.count(Colour.WHITE) - colours.count(Colour.BLACK)) <= 1
    for colours in colour_runs(schedule).values():
        assert all(len(set(colours[i : i + 3])) == 2 for i in range(len(colours) - 2))


# --- Swiss -------------------------------------------------------------------------------------


def test_a_swiss_first_round_is_top_half_against_bottom_half() -> None:
    assert boards(swiss_round(list(range(1, 9)), {})) == [(1, 5), (6, 2), (3, 7), (8, 4)]
    # Odd: the last seed sits out.
    assert boards(swiss_round([1, 2, 3, 4, 5], {})) == [(1, 3), (4, 2), 5]


def test_a_swiss_second_round_transposes_for_colours() -> None:
    # Round 1: 1-5, 6-2, 3-7, 8-4, the better seed winning. Round 2 pairs {1, 2, 3, 4} and
    # {5, 6, 7, 8} as FIDE's Dutch system does: 1-3 and 2-4 would give both of each pair the
    # colour they had, so the bottom half is transposed (1-4, 2-3; 5-8, 6-7), and each gets the
    # other colour.
    results = [
        GameResult(1, 5, W),
        GameResult(6, 2, B),
        GameResult(3, 7, W),
        GameResult(8, 4, B),
    ]
    assert boards(swiss_round(list(range(1, 9)), histories(results))) == [
        (4, 1),
        (2, 3),
        (5, 8),
        (7, 6),
    ]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    # 5 had the bye in round 1 and lost nothing; 4 lost; so the lowest without a bye is 4.
    results: list[Result] = [GameResult(1, 3, W), GameResult(4, 2, B), Bye(5)]
    round_ = swiss_round([1, 2, 3, 4, 5], histories(results))
    assert round_[-1] == Bye(4)
    assert len(round_) == 3


def test_withdrawn_players_are_left_out() -> None:
    results: list[Result] = [GameResult(1, 3, W), GameResult(4, 2, D)]
    round_ = swiss_round([1, 2, 3], histories(results))  # 4 withdrew
    assert sorted(seated(round_)) == [1, 2, 3]


def test_a_swiss_has_at_most_players_less_one_rounds() -> None:
    assert [most_swiss_rounds(n) for n in (2, 3, 4, 5, 10, 11)] == [1, 3, 3, 5, 9, 11]
    check_swiss(10, 9)
    with pytest.raises(TooManyRounds) as many:
        check_swiss(10, 10)
    assert (many.value.rounds, many.value.most) == (10, 9)
    with pytest.raises(TooFewPlayers):
        check_swiss(1, 1)
    with pytest.raises(TooFewPlayers):
        swiss_round([7], {})
    # Four players after three rounds have met everyone: a fourth round is refused.
    results: list[Result] = []
    for round_ in berger_rounds([1, 2, 3, 4]):
        results += [GameResult(b.white, b.black, D) for b in round_ if isinstance(b, Pairing)]
    with pytest.raises(TooManyRounds) as over:
        swiss_round([1, 2, 3, 4], histories(results))
    assert (over.value.rounds, over.value.most) == (4, 3)
    assert str(over.value) == "TooManyRounds(rounds=4, most=3)"


def test_histories_collect_opponents_colours_points_and_byes() -> None:
    results: list[Result] = [
        GameResult(1, 2, W),
        Bye(3),
        GameResult(3, 1, Outcome.BLACK_WINS_BY_FORFEIT),
        Bye(2),
    ]
    past = histories(results)
    assert past[1] == History((2, 3), (Colour.WHITE, Colour.BLACK), 2.0, 0)
    assert past[2] == History((1,), (Colour.BLACK,), 1.0, 1)
    assert past[3] == History((1,), (Colour.WHITE,), 1.0, 1)
    assert (past[1].rounds, past[1].colour_difference) == (2, 0)
    with pytest.raises(ValueError, match="colours"):
        History((1,), ())


# The oracle: whether some pairing of a round avoids what the tiers avoid, by brute force.


def colour_after(past: History, colour: Colour) -> tuple[bool, bool]:
    """Giving ``colour``: (the colour difference goes beyond 2, a third in a row)."""
    step = 1 if colour is Colour.WHITE else -1
    return abs(past.colour_difference + step) > 2, past.colours[-2:] == (colour, colour)


def pair_allowed(a: History, b: History, *, third: bool) -> bool:
    """Some colours for two players keep the difference within 2 (and, with ``third``, give
    nobody a third in a row)."""
    for white, black in ((a, b), (b, a)):
        over_w, third_w = colour_after(white, Colour.WHITE)
        over_b, third_b = colour_after(black, Colour.BLACK)
        if not (over_w or over_b) and not (third and (third_w or third_b)):
            return True
    return False


def pairing_exists(
    players: list[int], pair_ok: Callable[[int, int], bool], bye_ok: Callable[[int], bool]
) -> bool:
    def pair_up(rest: list[int]) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        return any(
            pair_ok(first, other) and pair_up([p for p in others if p != other]) for other in others
        )

    if len(players) % 2 == 0:
        return pair_up(players)
    return any(bye_ok(p) and pair_up([q for q in players if q != p]) for p in players)


Exists = Callable[[list[int], Callable[[int, int], bool], Callable[[int], bool]], bool]


def check_round(
    players: list[int], past: dict[int, History], round_: Round, exists: Exists
) -> None:
    """The properties of one Swiss round over the histories it was paired from, ``exists``
    telling whether some pairing avoids what the tiers avoid."""
    assert sorted(seated(round_)) == sorted(players)
    byes = [b.player for b in round_ if isinstance(b, Bye)]
    assert len(byes) == len(players) % 2
    games = [b for b in round_ if isinstance(b, Pairing)]
    # Never a second bye (every round so far gave one at most, so someone has none).
    assert all(past[p].byes == 0 for p in byes)
    # The colour difference never goes beyond 2.
    assert not any(colour_after(past[g.white], Colour.WHITE)[0] for g in games)
    assert not any(colour_after(past[g.black], Colour.BLACK)[0] for g in games)
    rematches = sum(g.black in past[g.white].opponents for g in games)
    thirds = sum(
        colour_after(past[g.white], Colour.WHITE)[1] or colour_after(past[g.black], Colour.BLACK)[1]
        for g in games
    )

    def bye_ok(player: int) -> bool:
        return past[player].byes == 0

    def clean(third: bool) -> Callable[[int, int], bool]:
        def ok(a: int, b: int) -> bool:
            return b not in past[a].opponents and pair_allowed(past[a], past[b], third=third)

        return ok

    if rematches or thirds:
        # Only where no pairing avoids them: first rematches, then thirds in a row.
        assert not exists(players, clean(third=True), bye_ok)
        if rematches:
            assert not exists(players, clean(third=False), bye_ok)
    if byes:
        # The bye to the lowest ranked without one, whenever the rest can be paired cleanly.
        seeds = {p: i for i, p in enumerate(players)}
        eligible = [p for p in players if past[p].byes == 0]
        lowest = max(eligible, key=lambda p: (-past[p].points, seeds[p]))
        rest = [p for p in players if p != lowest]
        if exists(rest, clean(third=True), bye_ok):
            assert byes == [lowest]


def play_round(round_: Round, rng: random.Random) -> list[Result]:
    outcomes = [W] * 5 + [B] * 5 + [D, Outcome.WHITE_WINS_BY_FORFEIT, Outcome.BLACK_WINS_BY_FORFEIT]
    played: list[Result] = []
    for board in round_:
        if isinstance(board, Bye):
            played.append(board)
        else:
            score = (rng.randint(0, 23), rng.randint(0, 23))
            played.append(GameResult(board.white, board.black, rng.choice(outcomes), score))
    return played


def play_swiss(players: list[int], rounds: int, seed: int, exists: Exists = pairing_exists) -> None:
    rng = random.Random(seed)
    results: list[Result] = []
    for _ in range(rounds):
        known = histories(results)
        past = {p: known.get(p, History()) for p in players}
        round_ = swiss_round(players, known)
        check_round(players, past, round_, exists)
        results += play_round(round_, rng)
    for history in histories(results).values():
        assert history.byes <= 1
        assert abs(history.colour_difference) <= 2


@st.composite
def swisses(draw: st.DrawFn, most: int) -> tuple[list[int], int, int]:
    """Players (opaque ids, in seed order), as many rounds as the Swiss can have (where
    avoiding rematches is hardest), and a seed for the results."""
    count = draw(st.integers(2, most))
    players = draw(st.lists(st.integers(1, 10**9), min_size=count, max_size=count, unique=True))
    return players, most_swiss_rounds(count), draw(st.integers(0, 2**32))


@settings(max_examples=120, deadline=None)
@given(swisses(most=9))
def test_random_swisses_keep_the_rules(swiss: tuple[list[int], int, int]) -> None:
    play_swiss(*swiss)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(swisses(most=12))
def test_random_swisses_keep_the_rules_longer(swiss: tuple[list[int], int, int]) -> None:
    play_swiss(*swiss)


def matching_exists(
    players: list[int], pair_ok: Callable[[int, int], bool], bye_ok: Callable[[int], bool]
) -> bool:
    """:func:`pairing_exists` by networkx's maximum matching, for fields too big to try
    every pairing."""
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(players, 2) if pair_ok(a, b))
    if len(players) % 2:
        bye = min(players) - 1  # nobody's id
        graph.add_edges_from((p, bye) for p in players if bye_ok(p))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(matching) == len(players) + len(players) % 2


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(41, 120), st.integers(1, 12), st.integers(0, 2**32))
def test_big_swisses_keep_the_rules(count: int, rounds: int, seed: int) -> None:
    """Past 40 players a round is matched over plausible pairs first: the same rules hold
    (whether a clean pairing exists is asked of networkx, brute force being out of reach)."""
    play_swiss(list(range(1, count + 1)), rounds, seed, exists=matching_exists)


# --- knockout ----------------------------------------------------------------------------------


def test_bracket_order() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(1) == [1]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)
    assert [knockout_rounds(n) for n in (2, 3, 4, 5, 8, 9, 200)] == [1, 2, 2, 3, 3, 4, 8]


def test_a_knockout_of_eight() -> None:
    # Seeds 1-8 as in the bracket; the better seed has White with an odd seed.
    assert boards(knockout_first_round(list(range(1, 9)))) == [(1, 8), (5, 4), (7, 2), (3, 6)]


def test_a_knockout_of_five_gives_the_top_seeds_byes() -> None:
    seeds = [10, 20, 30, 40, 50]
    first = knockout_first_round(seeds)
    assert boards(first) == [10, (50, 40), 20, 30]
    # 40 (who had Black) beats 50; the top seeds come in.
    second = knockout_next_round(first, {40}, seeds, histories([GameResult(50, 40, B)]))
    # 40 had Black, so gets White; 20 and 30 have no colours yet: the better seed, 20, is the
    # second (even), so has Black.
    assert boards(second) == [(40, 10), (30, 20)]
    with pytest.raises(MatchUndecided) as undecided:
        knockout_next_round(first, set(), seeds)
    assert undecided.value.pairing == Pairing(50, 40)
    final = knockout_next_round(second, {10, 30}, seeds)
    assert boards(final) == [(10, 30)]
    with pytest.raises(KnockoutOver) as over:
        knockout_next_round(final, {30}, seeds)
    assert over.value.champion == 30


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 70), st.integers(0, 2**32))
def test_knockouts_end_with_one_champion(count: int, seed: int) -> None:
    rng = random.Random(seed)
    seeds = list(range(1, count + 1))
    round_: Round = knockout_first_round(seeds)
    size = 1 << knockout_rounds(count)
    assert len(round_) == size // 2
    byes = sorted(b.player for b in round_ if isinstance(b, Bye))
    assert byes == list(range(1, size - count + 1))  # the top seeds
    for board in round_:
        if isinstance(board, Pairing):
            assert sum(board.players) == size + 1  # 1-8, 4-5: the bracket's pairs
    rounds = 1
    alive = set(seeds)
    while True:
        winners = {rng.choice(b.players) for b in round_}
        alive &= winners
        try:
            round_ = knockout_next_round(round_, winners, seeds)
        except KnockoutOver as over:
            assert alive == {over.champion}
            break
        rounds += 1
        assert all(isinstance(b, Pairing) for b in round_)
        assert sorted(seated(round_)) == sorted(alive)
    assert rounds == knockout_rounds(count)


def test_match_winner() -> None:
    seeds = [1, 2]
    assert match_winner([GameResult(2, 1, W, (9, 4))], seeds) == MatchWon(2, 1, Decider.GAMES)
    assert match_winner([GameResult(2, 1, Outcome.BLACK_WINS_BY_FORFEIT)], seeds) == MatchWon(
        1, 2, Decider.GAMES
    )
    drawn = GameResult(2, 1, D, (7, 7))
    assert match_winner([drawn], seeds) == SecondGame(Pairing(1, 2))
    assert match_winner([drawn, GameResult(1, 2, B, (3, 5))], seeds) == MatchWon(
        2, 1, Decider.GAMES
    )
    # Two drawn games: the better seed (piece margins are 0 in a draw).
    assert match_winner([drawn, GameResult(1, 2, D, (6, 6))], seeds) == MatchWon(1, 2, Decider.SEED)
    # Level on points with margins apart (a second game after a decided first, which a knockout
    # does not ask for, but the rule reads the same): the bigger margin sum.
    assert match_winner(
        [GameResult(2, 1, W, (12, 2)), GameResult(1, 2, W, (9, 4))], seeds
    ) == MatchWon(2, 1, Decider.MARGIN)
    for games in ([], [drawn, drawn], [drawn, GameResult(1, 3, D)], [drawn] * 3):
        with pytest.raises(NotAMatch):
            match_winner(games, seeds)


def test_pairing() -> None:
    assert Pairing(1, 2).swapped() == Pairing(2, 1)
    assert Pairing(1, 2).players == (1, 2)
    with pytest.raises(ValueError, match="two players"):
        Pairing(3, 3)
    board: Board = Bye(4)
    assert seated((board,)) == [4]
