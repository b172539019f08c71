"""Standings and leagues: tables computed by hand, and properties over random results."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.tournaments.standings import (
    BadLeagueSetting,
    Bye,
    DuplicatePlayer,
    Format,
    GameResult,
    LeagueMoves,
    Outcome,
    Result,
    Standing,
    TieBreak,
    TooFewPlayers,
    UnknownPlayer,
    check_players,
    divisions,
    league_moves,
    next_season,
    smallest_division,
    standings,
)
from rules import Colour

W, B, D = Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW
A_, B_, C_, D_, E_, F_ = 1, 2, 3, 4, 5, 6

# A six-player round robin, every game with its final score (White's pieces, Black's).
#
#            A    B    C    D    E    F   points  Sonneborn-Berger           margins
#   A        .    1    ½    1    0    1    3.5    2.5+2+2.5 + ½·3   = 8.5     +7 0 +6 -6 +13 = 20
#   B        0    .    1    ½    1    0    2.5    3+1.5 + ½·2       = 5.5     -7 +5 0 +1 -2  = -3
#   C        ½    0    .    1    ½    1    3      2+2.5 + ½·3.5+½·1.5 = 7     0 -5 +13 0 +6  = 14
#   D        0    ½    0    .    1    ½    2      1.5 + ½·2.5+½·2.5 = 4       -6 0 -13 +4 0  = -15
#   E        1    0    ½    0    .    0F   1.5    3.5 + ½·3         = 5       +6 -1 0 -4 0   = 1
#   F        0    1    0    ½    1F   .    2.5    2.5+1.5 + ½·2     = 5       -13 +2 -6 0 0  = -17
#
# E forfeits against F: a loss for E and a win for F in every tie-break (F's Sonneborn-Berger
# counts E's 1.5), with a margin of 0 for both whatever score was stored.
ROUND_ROBIN = [
    GameResult(A_, B_, W, (12, 5)),
    GameResult(A_, C_, D, (8, 8)),
    GameResult(A_, D_, W, (10, 4)),
    GameResult(A_, E_, B, (3, 9)),
    GameResult(A_, F_, W, (15, 2)),
    GameResult(B_, C_, W, (11, 6)),
    GameResult(B_, D_, D, (7, 7)),
    GameResult(B_, E_, W, (9, 8)),
    GameResult(B_, F_, B, (4, 6)),
    GameResult(C_, D_, W, (14, 1)),
    GameResult(C_, E_, D, (5, 5)),
    GameResult(C_, F_, W, (9, 3)),
    GameResult(D_, E_, W, (6, 2)),
    GameResult(D_, F_, D, (10, 10)),
    GameResult(E_, F_, Outcome.BLACK_WINS_BY_FORFEIT, (11, 3)),
]


def summary(rows: tuple[Standing, ...]) -> list[tuple[int, int, float, tuple[float, ...], int]]:
    return [(r.rank, r.player, r.points, tuple(v for _, v in r.tie_breaks), r.margin) for r in rows]


def test_a_six_player_round_robin_by_hand() -> None:
    rows = standings([A_, B_, C_, D_, E_, F_], ROUND_ROBIN, Format.ROUND_ROBIN)
    assert summary(rows) == [
        (1, A_, 3.5, (8.5,), 20),
        (2, C_, 3.0, (7.0,), 14),
        (3, B_, 2.5, (5.5,), -3),  # level with F on points, ahead on Sonneborn-Berger
        (4, F_, 2.5, (5.0,), -17),
        (5, D_, 2.0, (4.0,), -15),
        (6, E_, 1.5, (5.0,), 1),
    ]
    f = rows[3]
    assert (f.games, f.wins, f.draws, f.losses, f.byes) == (5, 2, 1, 2, 0)
    assert f.tie_break(TieBreak.SONNEBORN_BERGER) == 5.0
    with pytest.raises(KeyError):
        f.tie_break(TieBreak.BUCHHOLZ_CUT_1)


def test_a_round_robin_bye_is_a_round_off_and_margins_break_a_full_circle() -> None:
    # Three players, each beats one and loses to one, each sits out once: 1 point apiece,
    # Sonneborn-Berger 1 apiece; the margins decide: 1: +5 -1, 2: -5 +8, 3: -8 +1.
    results: list[Result] = [
        GameResult(1, 2, W, (10, 5)),
        Bye(3),
        GameResult(2, 3, W, (12, 4)),
        Bye(1),
        GameResult(3, 1, W, (9, 8)),
        Bye(2),
    ]
    rows = standings([3, 2, 1], results, Format.ROUND_ROBIN)
    assert summary(rows) == [
        (1, 1, 1.0, (1.0,), 4),
        (2, 2, 1.0, (1.0,), 3),
        (3, 3, 1.0, (1.0,), -7),
    ]
    assert [r.byes for r in rows] == [1, 1, 1]
    # The same results in a Swiss: each bye is worth a point.
    assert [r.points for r in standings([3, 2, 1], results, Format.SWISS)] == [2.0, 2.0, 2.0]


def test_players_level_on_everything_share_a_rank_in_seed_order() -> None:
    results = [GameResult(10, 20, D, (6, 6)), GameResult(30, 40, D, (5, 5)), GameResult(50, 60, W)]
    rows = standings([40, 10, 30, 20, 60, 50], results, Format.ROUND_ROBIN)
    assert [(r.rank, r.player) for r in rows] == [
        (1, 50),
        (2, 40),
        (2, 10),
        (2, 30),
        (2, 20),
        (6, 60),
    ]


# A five-player Swiss of three rounds, a bye each round (5, then 4, then 3):
#   round 1: 1-4 1-0 (14-6)   3-2 1-0 (9-7)    bye 5
#   round 2: 5-2 1-0 (12-2)   1-3 1-0 (10-3)   bye 4
#   round 3: 4-2 -/+ (8-3)    5-1 0-1 (4-6)    bye 3
# Points: 1: 3, 2: 1 (the forfeit win), 3: 2, 4: 1, 5: 2.
# What Buchholz sums (a bye counts the player's own points), sorted; cut-1 drops the lowest,
# median the highest too:
#   1: 4 (1), 3 (2), 5 (2)      -> [1, 2, 2]   cut-1 4   median 2
#   2: 3 (2), 5 (2), 4 (1)      -> [1, 2, 2]   cut-1 4   median 2
#   3: 2 (1), 1 (3), bye (2)    -> [1, 2, 3]   cut-1 5   median 2
#   4: 1 (3), bye (1), 2 (1)    -> [1, 1, 3]   cut-1 4   median 1
#   5: bye (2), 2 (1), 1 (3)    -> [1, 2, 3]   cut-1 5   median 2
# Margins: 1: +8 +7 +2 = 17; 2: -2 -10 0 = -12; 3: +2 -7 = -5; 4: -8 0 = -8; 5: +10 -2 = 8.
# So 5 is ahead of 3 on the margin (level before), 2 ahead of 4 on the median (level on cut-1).
SWISS: list[Result] = [
    GameResult(1, 4, W, (14, 6)),
    GameResult(3, 2, W, (9, 7)),
    Bye(5),
    GameResult(5, 2, W, (12, 2)),
    GameResult(1, 3, W, (10, 3)),
    Bye(4),
    GameResult(4, 2, Outcome.BLACK_WINS_BY_FORFEIT, (8, 3)),
    GameResult(5, 1, B, (4, 6)),
    Bye(3),
]


def test_a_small_swiss_by_hand() -> None:
    rows = standings([1, 2, 3, 4, 5], SWISS, Format.SWISS)
    assert summary(rows) == [
        (1, 1, 3.0, (4.0, 2.0), 17),
        (2, 5, 2.0, (5.0, 2.0), 8),
        (3, 3, 2.0, (5.0, 2.0), -5),
        (4, 2, 1.0, (4.0, 2.0), -12),
        (5, 4, 1.0, (4.0, 1.0), -8),
    ]
    assert [name for name, _ in rows[0].tie_breaks] == [
        TieBreak.BUCHHOLZ_CUT_1,
        TieBreak.MEDIAN_BUCHHOLZ,
    ]
    two = rows[3]
    assert (two.games, two.wins, two.draws, two.losses, two.byes) == (3, 1, 0, 2, 0)


def test_buchholz_of_one_game_cuts_it() -> None:
    rows = standings([1, 2], [GameResult(1, 2, W, (5, 1))], Format.SWISS)
    assert [r.tie_breaks for r in rows] == [
        ((TieBreak.BUCHHOLZ_CUT_1, 0.0), (TieBreak.MEDIAN_BUCHHOLZ, 0.0)),
    ] * 2


def test_a_game_result_knows_its_players() -> None:
    game = GameResult(1, 2, Outcome.WHITE_WINS_BY_FORFEIT, (3, 9))
    assert game.colour(2) is Colour.BLACK
    assert game.opponent(2) == 1
    assert (game.points(1), game.points(2)) == (1.0, 0.0)
    assert (game.margin(1), game.margin(2)) == (0, 0)
    assert Outcome.WHITE_WINS_BY_FORFEIT.forfeit and not Outcome.DRAW.forfeit
    with pytest.raises(ValueError, match="did not play"):
        game.colour(3)
    with pytest.raises(ValueError, match="two players"):
        GameResult(1, 1, W)


def test_errors_carry_their_data() -> None:
    with pytest.raises(UnknownPlayer) as unknown:
        standings([1, 2], [GameResult(1, 3, W)], Format.SWISS)
    assert unknown.value.player == 3
    assert str(unknown.value) == "UnknownPlayer(player=3)"
    with pytest.raises(DuplicatePlayer) as twice:
        standings([1, 2, 1], [], Format.SWISS)
    assert twice.value.player == 1
    with pytest.raises(TooFewPlayers) as few:
        check_players([7])
    assert (few.value.count, few.value.needed) == (1, 2)
    assert isinstance(few.value, ValueError)


# --- leagues -----------------------------------------------------------------------------------


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


def test_league_moves() -> None:
    ten = table(*range(1, 11))
    assert league_moves(ten, top_division=False, bottom_division=False) == LeagueMoves(
        (1, 2), (3, 4, 5, 6, 7, 8), (9, 10)
    )
    assert league_moves(ten, top_division=True, bottom_division=False) == LeagueMoves(
        (), (1, 2, 3, 4, 5, 6, 7, 8), (9, 10)
    )
    assert league_moves(ten, up=1, down=3, top_division=False, bottom_division=True) == (
        LeagueMoves((1,), (2, 3, 4, 5, 6, 7, 8, 9, 10), ())
    )
    assert league_moves(ten, down=0, top_division=True, bottom_division=False).relegated == ()
    # Too small a division promotes first.
    assert league_moves(table(1, 2, 3), top_division=False, bottom_division=False) == (
        LeagueMoves((1, 2), (), (3,))
    )
    with pytest.raises(BadLeagueSetting) as bad:
        league_moves(ten, up=-1, top_division=False, bottom_division=False)
    assert (bad.value.name, bad.value.value, bad.value.least) == ("up", -1, 0)


def test_divisions_when_the_count_does_not_divide() -> None:
    sizes = [[len(d) for d in divisions(range(n), size=10)] for n in (0, 3, 10, 14, 15, 25, 24)]
    assert sizes == [[], [3], [10], [14], [10, 5], [10, 10, 5], [10, 14]]
    assert divisions([5, 6, 7], size=2) == ((5, 6, 7),)  # 1 left: a division needs 2
    with pytest.raises(BadLeagueSetting):
        divisions([1, 2], size=1)
    with pytest.raises(DuplicatePlayer):
        divisions([1, 2, 1])


# Three divisions of 4, one up and one down: a1..a4 on top, then b, then c.
a1, a2, a3, a4, b1, b2, b3, b4, c1, c2, c3, c4 = range(101, 113)
SEASON = [table(a1, a2, a3, a4), table(b1, b2, b3, b4), table(c1, c2, c3, c4)]


def test_next_season_moves_players_up_and_down() -> None:
    assert next_season(SEASON, size=4, up=1, down=1) == (
        (a1, a2, a3, b1),
        (a4, b2, b3, c1),
        (b4, c2, c3, c4),
    )


def test_next_season_newcomers_start_at_the_bottom() -> None:
    assert next_season(SEASON, newcomers=[7, 8], size=4, up=1, down=1) == (
        (a1, a2, a3, b1),
        (a4, b2, b3, c1),
        (b4, c2, c3, c4),
        (7, 8),  # half a division: a division of their own
    )
    assert next_season(SEASON, newcomers=[7], size=4, up=1, down=1)[-1] == (b4, c2, c3, c4, 7)


def test_a_place_left_free_reprieves_the_best_relegated() -> None:
    assert next_season(SEASON, leaving={a2}, size=4, up=1, down=1) == (
        (a1, a3, b1, a4),  # a4 stays up
        (b2, b3, c1, b4),  # and so does b4
        (c2, c3, c4),
    )


def test_unequal_moves_keep_the_divisions_full() -> None:
    # Two down and one up: the top division would keep 3, so its best relegated stays.
    assert next_season(SEASON, size=4, up=1, down=2)[0] == (a1, a2, b1, a3)
    # Two up and one down: it would have 5, so its last promoted goes back.
    assert next_season(SEASON, size=4, up=2, down=1)[:2] == ((a1, a2, a3, b1), (b2, a4, b3, c1))


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[tuple[Standing, ...]], int]:
    size = draw(st.integers(2, 8))
    counts = draw(st.lists(st.integers(1, size + size // 2), min_size=1, max_size=5))
    players = iter(range(1, 1000))
    return [table(*(next(players) for _ in range(count))) for count in counts], size


@settings(max_examples=200, deadline=None)
@given(leagues(), st.integers(0, 3), st.integers(0, 3), st.data())
def test_next_season_keeps_everyone_still_in(
    league: tuple[list[tuple[Standing, ...]], int], up: int, down: int, data: st.DataObject
) -> None:
    tables, size = league
    everyone = [row.player for division in tables for row in division]
    leaving = set(data.draw(st.lists(st.sampled_from(everyone), unique=True)))
    newcomers = list(range(2000, 2000 + data.draw(st.integers(0, 12))))
    placed = next_season(tables, leaving=leaving, newcomers=newcomers, size=size, up=up, down=down)
    flat = [player for division in placed for player in division]
    assert sorted(flat) == sorted({*everyone, *newcomers} - leaving)
    half = smallest_division(size)
    for division in placed[:-1]:
        assert len(division) == size
    if placed and len(placed) > 1:
        assert half <= len(placed[-1]) < size + half
    if len(flat) <= size:
        assert len(placed) <= 1
    # Newcomers never start above anyone still in.
    for newcomer in newcomers:
        assert flat.index(newcomer) >= len(flat) - len(newcomers)


@settings(max_examples=100, deadline=None)
@given(leagues())
def test_with_equal_moves_and_nobody_leaving_exactly_the_moves_happen(
    league: tuple[list[tuple[Standing, ...]], int],
) -> None:
    tables, _ = league
    size = max(2, *(len(t) for t in tables))
    tables = [table(*(row.player for row in t)) for t in tables if len(t) == size]
    placed = next_season(tables, size=size, up=1, down=1)
    for i in range(len(placed)):
        if i > 0:
            assert tables[i][0].player in placed[i - 1]
        if i + 1 < len(placed):
            assert tables[i][-1].player in placed[i + 1]


# --- properties of tables ----------------------------------------------------------------------

OUTCOMES = list(Outcome)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[int], list[Result]]:
    players = draw(st.lists(st.integers(1, 10**6), min_size=2, max_size=10, unique=True))
    results: list[Result] = []
    for _ in range(draw(st.integers(0, 30))):
        if draw(st.integers(0, 9)) == 0:
            results.append(Bye(draw(st.sampled_from(players))))
            continue
        white, black = draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
        score = (draw(st.integers(0, 23)), draw(st.integers(0, 23)))
        results.append(GameResult(white, black, draw(st.sampled_from(OUTCOMES)), score))
    return players, results


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.sampled_from(list(Format)))
def test_tables_rank_by_their_keys(
    tournament: tuple[list[int], list[Result]], format: Format
) -> None:
    players, results = tournament
    rows = standings(players, results, format)
    assert sorted(r.player for r in rows) == sorted(players)
    games = [r for r in results if isinstance(r, GameResult)]
    byes = len(results) - len(games)
    bye_points = byes if format is Format.SWISS else 0
    assert sum(r.points for r in rows) == len(games) + bye_points
    assert sum(r.margin for r in rows) == 0
    for row in rows:
        assert row.games == row.wins + row.draws + row.losses
        assert row.rank == 1 + sum(other.sort_key > row.sort_key for other in rows)
    keys = [r.sort_key for r in rows]
    assert keys == sorted(keys, reverse=True)
    seeds = {player: i for i, player in enumerate(players)}
    for before, after in itertools.pairwise(rows):
        if before.sort_key == after.sort_key:
            assert seeds[before.player] < seeds[after.player]
