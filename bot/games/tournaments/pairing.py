"""Who plays whom, and with which colour: round robin and knockout pairing, and what a Swiss's
(:mod:`bot.games.tournaments.swiss`) shares with them.

Pure functions over immutable values: no I/O, no Discord, no database. Players are opaque ints
(user ids), and a list of players is in seed order (seed 1 first). A round is a tuple of boards,
each a :class:`Pairing` (White first) or a :class:`~bot.games.tournaments.standings.Bye`, the bye
last.

Colours are balanced rather than one favoured: in DVONN Black places first and White moves
first, so neither colour is simply better, and what counts is that each player gets both about
equally often.

**Round robin** (:func:`berger_rounds`): FIDE's Berger tables. With an odd count the highest
seat is a dummy, and its opponent has the round off (a bye, worth nothing in a round robin). A
double round robin plays the first cycle again with colours reversed, and, as FIDE recommends,
swaps the first cycle's last two rounds so that nobody gets the same colour three times running
across the turn. Everyone meets everyone once a cycle, and within a cycle each player's whites
and blacks differ by at most one.

**Swiss**: :mod:`bot.games.tournaments.swiss`, over this module's vocabulary and colours. Colours go
as FIDE's rules for allocating them say (:func:`allocate`): both preferences if possible, else the
stronger, else alternate from the last round in which the two had different colours, else the
higher ranked player's preference, else the higher ranked player gets White with an odd seed
(1st, 3rd, ...) and Black with an even one.

**Knockout** (:func:`knockout_first_round`, :func:`knockout_next_round`, :func:`match_winner`):
single elimination in standard bracket order (1-8, 4-5, 2-7, 3-6 for 8), the top seeds getting
byes when the count is not a power of two. A drawn match is decided by a second game with the
colours swapped, then by the piece margin, then by the better seed.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.games.tournaments.standings import (
    Bye,
    GameResult,
    PlayerId,
    Result,
    TournamentError,
    UnknownPlayer,
    check_players,
)
from rules import Colour

# --- the vocabulary ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pairing:
    """A game to play: who has White, who Black."""

    white: PlayerId
    black: PlayerId

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"a pairing needs two players, not {self.white} twice")

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.white, self.black)

    def swapped(self) -> Pairing:
        """The same two players, colours reversed."""
        return Pairing(self.black, self.white)


Board = Pairing | Bye
Round = tuple[Board, ...]
"""A round's boards in order (board 1 first), the bye, if any, last."""


@dataclass(frozen=True, slots=True)
class History:
    """What a player's past in a tournament says for its next pairing."""

    opponents: tuple[PlayerId, ...] = ()
    """Everyone met, in order (forfeits included)."""
    colours: tuple[Colour, ...] = ()
    """The colour of each of those games."""
    points: float = 0.0
    byes: int = 0

    def __post_init__(self) -> None:
        if len(self.opponents) != len(self.colours):
            raise ValueError(f"{len(self.opponents)} opponents but {len(self.colours)} colours")

    @property
    def rounds(self) -> int:
        """Rounds gone by: games and byes."""
        return len(self.opponents) + self.byes

    @property
    def colour_difference(self) -> int:
        """Whites less blacks."""
        return sum(1 if colour is Colour.WHITE else -1 for colour in self.colours)


def histories(results: Iterable[Result]) -> dict[PlayerId, History]:
    """Each player's :class:`History` from a tournament's finished games and byes, in the
    order played (a bye is worth 1 point, as in a Swiss)."""
    opponents: dict[PlayerId, list[PlayerId]] = {}
    colours: dict[PlayerId, list[Colour]] = {}
    points: dict[PlayerId, float] = {}
    byes: dict[PlayerId, int] = {}
    for result in results:
        for player in result.players:
            opponents.setdefault(player, [])
            colours.setdefault(player, [])
            points.setdefault(player, 0.0)
            byes.setdefault(player, 0)
        if isinstance(result, GameResult):
            for player in result.players:
                opponents[player].append(result.opponent(player))
                colours[player].append(result.colour(player))
                points[player] += result.points(player)
        else:
            byes[result.player] += 1
            points[result.player] += 1.0
    return {
        player: History(
            tuple(opponents[player]), tuple(colours[player]), points[player], byes[player]
        )
        for player in opponents
    }


# --- errors ------------------------------------------------------------------------------------


class TooManyRounds(TournamentError):
    """A Swiss of more rounds than it can have without a rematch: ``most`` is the players less
    one (an odd count counts the bye's seat as a player, so 5 players may play 5 rounds, each
    sitting out once); beyond it some two players would have to meet twice."""

    def __init__(self, rounds: int, most: int) -> None:
        super().__init__(rounds, most)
        self.rounds = rounds
        self.most = most


class MatchUndecided(TournamentError):
    """A knockout's next round asked for while a match of the last has no winner (neither or
    both of its players named among the winners)."""

    def __init__(self, pairing: Pairing) -> None:
        super().__init__(pairing)
        self.pairing = pairing


class KnockoutOver(TournamentError):
    """A knockout's next round asked for after its final."""

    def __init__(self, champion: PlayerId) -> None:
        super().__init__(champion)
        self.champion = champion


class NotAMatch(TournamentError):
    """Games that are not one knockout match: one or two games between the same two players,
    the second with the colours of the first swapped."""

    def __init__(self, games: tuple[GameResult, ...]) -> None:
        super().__init__(games)
        self.games = games


# --- colours -----------------------------------------------------------------------------------


class Strength(enum.IntEnum):
    """How much a player wants a colour (FIDE's colour preferences)."""

    NONE = 0
    MILD = 1
    """Colours even: alternate from the last game."""
    STRONG = 2
    """One colour more than the other."""
    ABSOLUTE = 3
    """Two more, or the same colour in the last two games."""


def preference(past: History) -> tuple[Colour | None, Strength]:
    difference = past.colour_difference
    if difference > 1:
        return Colour.BLACK, Strength.ABSOLUTE
    if difference < -1:
        return Colour.WHITE, Strength.ABSOLUTE
    if len(past.colours) >= 2 and past.colours[-1] is past.colours[-2]:
        return past.colours[-1].opponent, Strength.ABSOLUTE
    if difference:
        return (Colour.BLACK if difference > 0 else Colour.WHITE), Strength.STRONG
    if past.colours:
        return past.colours[-1].opponent, Strength.MILD
    return None, Strength.NONE


@dataclass(frozen=True, slots=True)
class ColourCost:
    """What giving a player one colour breaks, worst first."""

    over_two: int
    """1 if the colour difference would go beyond 2."""
    third_in_a_row: int
    disappointed: int
    """The strength of the preference not granted."""

    def __add__(self, other: ColourCost) -> ColourCost:
        return ColourCost(
            self.over_two + other.over_two,
            self.third_in_a_row + other.third_in_a_row,
            self.disappointed + other.disappointed,
        )

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.over_two, self.third_in_a_row, self.disappointed)


def colour_cost(past: History, colour: Colour) -> ColourCost:
    step = 1 if colour is Colour.WHITE else -1
    wanted, strength = preference(past)
    return ColourCost(
        over_two=int(abs(past.colour_difference + step) > 2),
        third_in_a_row=int(past.colours[-2:] == (colour, colour)),
        disappointed=int(strength) if wanted is not None and wanted is not colour else 0,
    )


def _allocation_cost(pairing: Pairing, past: Mapping[PlayerId, History]) -> ColourCost:
    return colour_cost(past[pairing.white], Colour.WHITE) + colour_cost(
        past[pairing.black], Colour.BLACK
    )


def allocate(
    higher: PlayerId, lower: PlayerId, past: Mapping[PlayerId, History], higher_seed: int
) -> Pairing:
    """Colours for two players, ``higher`` the better ranked, ``higher_seed`` its seed (0 for
    the first): FIDE's rules (C.04.3 E), as the module says."""
    options = (Pairing(higher, lower), Pairing(lower, higher))
    costs = [_allocation_cost(option, past).key for option in options]
    if costs[0] != costs[1]:
        return options[0] if costs[0] < costs[1] else options[1]
    recent = zip(reversed(past[higher].colours), reversed(past[lower].colours), strict=False)
    for mine, theirs in recent:
        if mine is not theirs:
            return options[1] if mine is Colour.WHITE else options[0]
    wanted, _ = preference(past[higher])
    if wanted is None:
        wanted = Colour.WHITE if higher_seed % 2 == 0 else Colour.BLACK
    return options[0] if wanted is Colour.WHITE else options[1]


# --- round robin -------------------------------------------------------------------------------


def _berger_seats(seats: int, round_number: int) -> list[tuple[int, int]]:
    """FIDE's Berger table for an even number of ``seats`` (numbered from 1): round
    ``round_number``'s boards as ``(white, black)`` seat numbers, board 1 first."""
    turn = seats - 1
    pivot = (round_number - 1) * (seats // 2) % turn + 1
    last = (seats, pivot) if round_number % 2 == 0 else (pivot, seats)
    boards = [last]
    for step in range(1, seats // 2):
        white = (pivot + step - 1) % turn + 1
        black = (pivot - step - 1) % turn + 1
        boards.append((white, black))
    return boards


def berger_rounds(players: Sequence[PlayerId], *, double: bool = False) -> list[Round]:
    """A round robin's whole schedule by FIDE's Berger tables: ``players`` in seed order take
    seats 1, 2, ...; with an odd count the last seat is empty and its opponent has a bye.

    ``double``: a second cycle, the first's rounds again in order with colours reversed, the
    first cycle's last two rounds swapped (FIDE's recommendation, against a third colour in a
    row at the turn). Raises :class:`~bot.games.tournaments.standings.TooFewPlayers` below 2
    players,
    :class:`~bot.games.tournaments.standings.DuplicatePlayer`.
    """
    check_players(players)
    seats = len(players) + len(players) % 2

    def board(white: int, black: int) -> Board:
        if black > len(players):
            return Bye(players[white - 1])
        if white > len(players):
            return Bye(players[black - 1])
        return Pairing(players[white - 1], players[black - 1])

    def ordered(boards: Iterable[Board]) -> Round:
        listed = list(boards)
        return tuple(sorted(listed, key=lambda b: isinstance(b, Bye)))

    cycle = [
        ordered(board(white, black) for white, black in _berger_seats(seats, number))
        for number in range(1, seats)
    ]
    if not double:
        return cycle
    second = [ordered(_reversed(b) for b in round_) for round_ in cycle]
    first = cycle[:-2] + cycle[-2:][::-1] if len(cycle) >= 2 else cycle
    return first + second


def _reversed(board: Board) -> Board:
    return board.swapped() if isinstance(board, Pairing) else board


# --- knockout ----------------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """The seeds (from 1) of a bracket of ``size`` (a power of two) in standard order, each
    pair of neighbours a match: ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8, so that seeds 1 and 2 can
    meet only in the final."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of ``count`` players has (the final included)."""
    return max(0, (count - 1).bit_length())


def knockout_first_round(seeds: Sequence[PlayerId]) -> Round:
    """A knockout's first round, ``seeds`` best first, in bracket order (:func:`bracket_order`
    of the next power of two): a missing seed's opponent, one of the top seeds, has a bye in
    its place. The byes stay where the bracket puts them, since the next round pairs
    neighbours; in colours, the better seed has White with an odd seed and Black with an even
    one. Raises :class:`~bot.games.tournaments.standings.TooFewPlayers` below 2 players,
    :class:`~bot.games.tournaments.standings.DuplicatePlayer`.
    """
    check_players(seeds)
    order = bracket_order(1 << knockout_rounds(len(seeds)))
    fresh: dict[PlayerId, History] = {player: History() for player in seeds}
    boards: list[Board] = []
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        if bottom > len(seeds):
            boards.append(Bye(seeds[top - 1]))
        else:
            boards.append(allocate(seeds[top - 1], seeds[bottom - 1], fresh, top - 1))
    return tuple(boards)


def knockout_next_round(
    previous: Round,
    winners: Collection[PlayerId],
    seeds: Sequence[PlayerId],
    history: Mapping[PlayerId, History] | None = None,
) -> Round:
    """The round after ``previous`` (as the last call returned it, in bracket order): the
    winner of each of its matches (the one of its two players in ``winners``; a bye's player
    goes through) meets the winner of the next. Colours as in a Swiss (:func:`swiss_round`'s
    rules on ``history``, seed for rank).

    Raises :class:`MatchUndecided` for a match with no winner (or two),
    :class:`KnockoutOver` after the final.
    """
    rank = check_players(seeds)
    through: list[PlayerId] = []
    for board in previous:
        if isinstance(board, Bye):
            through.append(board.player)
            continue
        won = [player for player in board.players if player in winners]
        if len(won) != 1:
            raise MatchUndecided(board)
        through.append(won[0])
    if len(through) == 1:
        raise KnockoutOver(through[0])
    if len(through) % 2:
        raise ValueError(f"a knockout round of {len(through)} boards: not a bracket's")
    known = history or {}
    past = {player: known.get(player, History()) for player in through}
    boards: list[Board] = []
    for a, b in zip(through[::2], through[1::2], strict=True):
        higher, lower = sorted((a, b), key=lambda player: _seed(rank, player))
        boards.append(allocate(higher, lower, past, rank[higher]))
    return tuple(boards)


class Decider(enum.Enum):
    """What decided a knockout match."""

    GAMES = "games"
    """More points over the match's games."""
    MARGIN = "margin"
    """Both games drawn: the bigger sum of piece margins."""
    SEED = "seed"
    """Level on both: the better seed."""


@dataclass(frozen=True, slots=True)
class MatchWon:
    winner: PlayerId
    loser: PlayerId
    decided_by: Decider


@dataclass(frozen=True, slots=True)
class SecondGame:
    """The first game was drawn: the match needs a second one, these colours (swapped)."""

    pairing: Pairing


def match_winner(games: Sequence[GameResult], seeds: Sequence[PlayerId]) -> MatchWon | SecondGame:
    """Who won a knockout match from its games so far (one, or two when the first was drawn):
    the player with more points; after a drawn first game, a :class:`SecondGame` with colours
    swapped; after two, the bigger sum of piece margins, then the better seed in ``seeds``.

    Raises :class:`NotAMatch` for anything but one game, or two with the same players and
    swapped colours.
    """
    played = tuple(games)
    if not 1 <= len(played) <= 2 or (
        len(played) == 2 and played[1].players != played[0].players[::-1]
    ):
        raise NotAMatch(played)
    first = played[0]
    one, other = first.players
    points = {player: sum(game.points(player) for game in played) for player in first.players}
    if points[one] != points[other]:
        winner = one if points[one] > points[other] else other
        return _won(winner, first, Decider.GAMES)
    if len(played) == 1:
        return SecondGame(Pairing(first.black, first.white))
    margins = {player: sum(game.margin(player) for game in played) for player in first.players}
    if margins[one] != margins[other]:
        return _won(one if margins[one] > margins[other] else other, first, Decider.MARGIN)
    rank = check_players(seeds)
    return _won(min(first.players, key=lambda player: _seed(rank, player)), first, Decider.SEED)


def _seed(rank: Mapping[PlayerId, int], player: PlayerId) -> int:
    if player not in rank:
        raise UnknownPlayer(player)
    return rank[player]


def _won(winner: PlayerId, game: GameResult, decided_by: Decider) -> MatchWon:
    return MatchWon(winner, game.opponent(winner), decided_by)
