"""Tournament results and the tables they make: finished games and byes in, ranked rows out;
and a league's seasons (promotion, relegation, the next season's divisions).

Pure functions over immutable values: no I/O, no Discord, no database. Players are opaque ints
(user ids); a list of players is in seed order (seed 1 first), and the seed settles whatever
nothing else does. :mod:`bot.games.tournaments.pairing` builds on these values to pair the next
round.

The rules chosen, each tested in ``tests/bot/games/test_standings.py``:

**Points.** A win 1, a draw ½, a loss 0. A forfeit (a withdrawal, a loss on time) is a loss for
the player who forfeited and a win for the other (:attr:`Outcome.WHITE_WINS_BY_FORFEIT`, FIDE's
``+/-``, and :attr:`Outcome.BLACK_WINS_BY_FORFEIT`, ``-/+``). A bye is worth 1 point in a Swiss;
in a round robin it is the round off that an odd count gives everyone once (the Berger tables'
dummy seat): no game, no point, no tie-break.

**Forfeits in the tie-breaks.** A forfeited game counts as a played game for both players, in
every tie-break: the winner beat that opponent (for Sonneborn-Berger) and met them (for
Buchholz), as if the game had been played and lost. Only its piece margin differs: 0 for both,
since no board decided it.

**Byes in Buchholz.** A bye counts as a game against an opponent with the player's own score
(FIDE's simpler option, rather than its virtual opponent who draws the rounds after): it adds
the player's own final points to the values Buchholz sums, and can be the one cut.

**Tie-breaks**, after points, in this order (:data:`TIE_BREAKS`):

- round robin: Sonneborn-Berger, the points of every opponent beaten plus half the points of
  every opponent drawn;
- Swiss: Buchholz cut-1, the opponents' points less the lowest; then median-Buchholz, less the
  highest too;
- then, in both, the sum of piece margins: a game's margin is the player's pieces minus the
  opponent's at the end (the stored score pair), so the winner's is positive, the loser's the
  same number negative, a draw's 0. Only a game played to the count has a score: one ended by
  a resignation, a loss on time or a withdrawal comes without one (``(0, 0)``), since the
  board did not decide it (the player who resigned may have been ahead on it).

Players level on all of these share a rank (1, 2, 2, 4) and are listed in seed order.

**Leagues.** Divisions of a chosen size (:data:`DIVISION_SIZE`), each a round robin per season.
:func:`divisions` cuts the first season's (and every season's) ladder; :func:`league_moves` says
who of a division moves up and down, :func:`next_season` gives the next season's divisions.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from rules import Colour

PlayerId = int
"""A player: a Discord user id, opaque here."""

Division = tuple[PlayerId, ...]
"""A league division's players, best placed first."""

DIVISION_SIZE: Final = 10
"""A league division's players by default (Little Golem's championship groups)."""
PROMOTED: Final = 2
"""How many move up from a division at a season's end, by default."""
RELEGATED: Final = 2
"""How many move down, by default."""


# --- errors ------------------------------------------------------------------------------------


class TournamentError(ValueError):
    """Base of the tournament errors. Each carries data and no text for players (the Discord
    layer words them); ``str()`` names the fields, for logs."""

    def __str__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}" for name, value in vars(self).items() if not name.startswith("_")
        )
        return f"{type(self).__name__}({fields})"


class TooFewPlayers(TournamentError):
    """Fewer players than the format needs."""

    def __init__(self, count: int, needed: int) -> None:
        super().__init__(count, needed)
        self.count = count
        self.needed = needed


class DuplicatePlayer(TournamentError):
    """A player listed twice (in the players, or among the newcomers of a league)."""

    def __init__(self, player: PlayerId) -> None:
        super().__init__(player)
        self.player = player


class UnknownPlayer(TournamentError):
    """A result names a player who is not in the tournament."""

    def __init__(self, player: PlayerId) -> None:
        super().__init__(player)
        self.player = player


class BadLeagueSetting(TournamentError):
    """A league setting below the least it can be: ``size`` (a division of fewer than 2 plays
    no game), ``up`` or ``down`` (negative)."""

    def __init__(self, name: str, value: int, least: int) -> None:
        super().__init__(name, value, least)
        self.name = name
        self.value = value
        self.least = least


# --- results -----------------------------------------------------------------------------------


class Outcome(enum.Enum):
    """How a finished game ended; ``value`` is its usual notation."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "½-½"
    WHITE_WINS_BY_FORFEIT = "+/-"
    """Black forfeited: withdrew, or lost on time."""
    BLACK_WINS_BY_FORFEIT = "-/+"

    @property
    def winner(self) -> Colour | None:
        if self in (Outcome.WHITE_WINS, Outcome.WHITE_WINS_BY_FORFEIT):
            return Colour.WHITE
        if self in (Outcome.BLACK_WINS, Outcome.BLACK_WINS_BY_FORFEIT):
            return Colour.BLACK
        return None

    @property
    def forfeit(self) -> bool:
        return self in (Outcome.WHITE_WINS_BY_FORFEIT, Outcome.BLACK_WINS_BY_FORFEIT)

    def points(self, colour: Colour) -> float:
        """What the player of ``colour`` scored: 1, ½ or 0."""
        winner = self.winner
        if winner is None:
            return 0.5
        return 1.0 if winner is colour else 0.0


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of a tournament."""

    white: PlayerId
    black: PlayerId
    outcome: Outcome
    score: tuple[int, int] = (0, 0)
    """``(white, black)``: the pieces each side controlled at the end of a game played to the
    count; ``(0, 0)`` for any other ending (see the module's rules)."""

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise ValueError(f"a game needs two players, not {self.white} twice")

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.white, self.black)

    def colour(self, player: PlayerId) -> Colour:
        if player == self.white:
            return Colour.WHITE
        if player == self.black:
            return Colour.BLACK
        raise ValueError(f"{player} did not play in {self!r}")

    def opponent(self, player: PlayerId) -> PlayerId:
        return self.black if self.colour(player) is Colour.WHITE else self.white

    def points(self, player: PlayerId) -> float:
        return self.outcome.points(self.colour(player))

    def margin(self, player: PlayerId) -> int:
        """The player's pieces minus the opponent's at the end; 0 in a forfeit."""
        if self.outcome.forfeit:
            return 0
        white, black = self.score
        return white - black if self.colour(player) is Colour.WHITE else black - white


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a game for one player: 1 point in a Swiss, a round off in a round robin
    (see the module's rules)."""

    player: PlayerId

    @property
    def players(self) -> tuple[PlayerId]:
        return (self.player,)


Result = GameResult | Bye


# --- standings ---------------------------------------------------------------------------------


class Format(enum.Enum):
    """How a tournament is paired, which decides its tie-breaks and what a bye is worth."""

    ROUND_ROBIN = "round_robin"
    """A round robin, single or double, and each league division."""
    SWISS = "swiss"


class TieBreak(enum.Enum):
    SONNEBORN_BERGER = "sonneborn_berger"
    BUCHHOLZ_CUT_1 = "buchholz_cut_1"
    MEDIAN_BUCHHOLZ = "median_buchholz"


TIE_BREAKS: Final[Mapping[Format, tuple[TieBreak, ...]]] = MappingProxyType(
    {
        Format.ROUND_ROBIN: (TieBreak.SONNEBORN_BERGER,),
        Format.SWISS: (TieBreak.BUCHHOLZ_CUT_1, TieBreak.MEDIAN_BUCHHOLZ),
    }
)
"""Each format's tie-breaks after points, in order; the piece margin sum comes after them."""

BYE_POINTS: Final[Mapping[Format, float]] = MappingProxyType(
    {Format.ROUND_ROBIN: 0.0, Format.SWISS: 1.0}
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of a table."""

    rank: int
    """1 for the first; players level on everything share the better rank (1, 2, 2, 4)."""
    player: PlayerId
    points: float
    games: int
    """Games played, forfeits included (byes are not games)."""
    wins: int
    draws: int
    losses: int
    byes: int
    tie_breaks: tuple[tuple[TieBreak, float], ...]
    """The format's tie-breaks (:data:`TIE_BREAKS`) with their values, in order."""
    margin: int
    """The sum of the player's piece margins, the last tie-break."""

    def tie_break(self, kind: TieBreak) -> float:
        for name, value in self.tie_breaks:
            if name is kind:
                return value
        raise KeyError(kind)

    @property
    def sort_key(self) -> tuple[float, ...]:
        """Bigger is better: points, the tie-breaks in order, the margin sum."""
        return (self.points, *(value for _, value in self.tie_breaks), self.margin)


def check_players(players: Sequence[PlayerId], needed: int = 2) -> dict[PlayerId, int]:
    """Each player's seed (0 for the first); raises :class:`DuplicatePlayer` or
    :class:`TooFewPlayers`."""
    seeds: dict[PlayerId, int] = {}
    for seed, player in enumerate(players):
        if player in seeds:
            raise DuplicatePlayer(player)
        seeds[player] = seed
    if len(seeds) < needed:
        raise TooFewPlayers(len(seeds), needed)
    return seeds


def _buchholz(values: Sequence[float], *, median: bool) -> float:
    """The values' sum less the lowest (cut-1), and for the ``median`` less the highest too;
    as many as there are (cut-1 of one value is 0)."""
    kept = sorted(values)[1:]
    if median:
        kept = kept[:-1]
    return float(sum(kept))


def standings(
    players: Sequence[PlayerId], results: Iterable[Result], format: Format
) -> tuple[Standing, ...]:
    """The table: a row for every player (those without a result too), best first.

    ``players`` in seed order, which orders players level on everything; ``results`` the
    tournament's finished games and byes (a bye in a round robin counts for nothing but
    :attr:`Standing.byes`). Raises :class:`UnknownPlayer` for a result naming someone not in
    ``players``, :class:`DuplicatePlayer` for a player listed twice.
    """
    seeds = check_players(players, needed=0)
    games: dict[PlayerId, list[GameResult]] = {player: [] for player in players}
    byes = dict.fromkeys(players, 0)
    for result in results:
        for player in result.players:
            if player not in seeds:
                raise UnknownPlayer(player)
        if isinstance(result, GameResult):
            games[result.white].append(result)
            games[result.black].append(result)
        else:
            byes[result.player] += 1

    points = {
        player: sum(game.points(player) for game in games[player])
        + byes[player] * BYE_POINTS[format]
        for player in players
    }

    def tie_break(kind: TieBreak, player: PlayerId) -> float:
        played = games[player]
        if kind is TieBreak.SONNEBORN_BERGER:
            return sum(game.points(player) * points[game.opponent(player)] for game in played)
        met = [points[game.opponent(player)] for game in played]
        met += [points[player]] * byes[player]
        return _buchholz(met, median=kind is TieBreak.MEDIAN_BUCHHOLZ)

    rows = [
        Standing(
            rank=0,
            player=player,
            points=points[player],
            games=len(games[player]),
            wins=sum(game.points(player) == 1 for game in games[player]),
            draws=sum(game.points(player) == 0.5 for game in games[player]),
            losses=sum(game.points(player) == 0 for game in games[player]),
            byes=byes[player],
            tie_breaks=tuple((kind, tie_break(kind, player)) for kind in TIE_BREAKS[format]),
            margin=sum(game.margin(player) for game in games[player]),
        )
        for player in players
    ]
    rows.sort(key=lambda row: seeds[row.player])
    rows.sort(key=lambda row: row.sort_key, reverse=True)
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        level = ranked and ranked[-1].sort_key == row.sort_key
        rank = ranked[-1].rank if level else index + 1
        ranked.append(dataclasses.replace(row, rank=rank))
    return tuple(ranked)


# --- leagues -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LeagueMoves:
    """Where a division's players go at a season's end, each group best placed first."""

    promoted: tuple[PlayerId, ...]
    staying: tuple[PlayerId, ...]
    relegated: tuple[PlayerId, ...]


def _check_moves(up: int, down: int) -> None:
    for name, value in (("up", up), ("down", down)):
        if value < 0:
            raise BadLeagueSetting(name, value, 0)


def league_moves(
    ranked: Sequence[Standing],
    *,
    up: int = PROMOTED,
    down: int = RELEGATED,
    top_division: bool,
    bottom_division: bool,
) -> LeagueMoves:
    """Who of a division moves up and who down: the first ``up`` of its final table ``ranked``
    (as :func:`standings` gives it) unless it is the top division, the last ``down`` unless it
    is the bottom one. Players level on everything at the line are taken in the table's order
    (their seed order). A division smaller than ``up + down`` promotes first: the rest go
    down, as many as there are, up to ``down``."""
    _check_moves(up, down)
    players = tuple(row.player for row in ranked)
    promoted = () if top_division else players[:up]
    rest = players[len(promoted) :]
    relegated = () if bottom_division or down == 0 else rest[-down:]
    return LeagueMoves(promoted, rest[: len(rest) - len(relegated)], relegated)


def smallest_division(size: int) -> int:
    """The fewest players a division of ``size`` opens with: half of it, rounded up, and 2 at
    least (a round robin needs two)."""
    return max(2, (size + 1) // 2)


def divisions(ladder: Sequence[PlayerId], *, size: int = DIVISION_SIZE) -> tuple[Division, ...]:
    """``ladder`` (every player, best first) cut into divisions of ``size``, top first.

    When the count does not divide: the players left after the full divisions open a division
    of their own if they are at least half a division (:func:`smallest_division`: ``size / 2``
    rounded up, and 2 at least), and otherwise join the lowest full division, which then has
    more than ``size`` (14 of 10 at most). A ladder of fewer is one division.
    """
    if size < 2:
        raise BadLeagueSetting("size", size, 2)
    check_players(ladder, needed=0)
    cut = [tuple(ladder[start : start + size]) for start in range(0, len(ladder), size)]
    if len(cut) > 1 and len(cut[-1]) < smallest_division(size):
        rest = cut.pop()
        cut[-1] += rest
    return tuple(cut)


def next_season(
    tables: Sequence[Sequence[Standing]],
    *,
    leaving: Collection[PlayerId] = (),
    newcomers: Sequence[PlayerId] = (),
    size: int = DIVISION_SIZE,
    up: int = PROMOTED,
    down: int = RELEGATED,
) -> tuple[Division, ...]:
    """The next season's divisions, top first, from this season's final ``tables`` (top
    division first, each as :func:`standings` gives it).

    Everyone still in is entered again (all but ``leaving``); ``newcomers`` (in their order)
    start in the lowest division. How:

    1. Each division's moves (:func:`league_moves` with ``up`` and ``down``) are applied: a
       division's next players are those relegated from the one above, then those staying,
       then those promoted from the one below, each in table order. Their concatenation, top
       division first, is the ladder.
    2. Players leaving are taken out of it, and the newcomers added at its end.
    3. The ladder is cut into divisions of ``size`` (:func:`divisions`, which says what
       happens when the count does not divide).

    So a division keeps ``size`` players: a place left free (by a player leaving, or by more
    relegations than promotions) is filled by the best relegated player of the division above,
    who stays up, and so on down the ladder; a division with more players than ``size`` (more
    promotions than relegations) sends back its last promoted. With ``up == down`` and nobody
    leaving, exactly the first ``up`` move up and the last ``down`` move down.
    """
    _check_moves(up, down)
    last = len(tables) - 1
    moves = [
        league_moves(table, up=up, down=down, top_division=i == 0, bottom_division=i == last)
        for i, table in enumerate(tables)
    ]
    ladder: list[PlayerId] = []
    for i, move in enumerate(moves):
        from_above = moves[i - 1].relegated if i > 0 else ()
        from_below = moves[i + 1].promoted if i + 1 < len(moves) else ()
        ladder += [*from_above, *move.staying, *from_below]
    gone = set(leaving)
    still_in = [player for player in ladder if player not in gone]
    return divisions([*still_in, *newcomers], size=size)
