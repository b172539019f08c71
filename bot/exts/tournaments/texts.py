"""What tournaments' posts and replies say, and the standings table their image draws."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Final

from bot.games.core import timecontrol
from bot.games.core.models import (
    Game,
    Result,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
)
from bot.games.tournaments import rounds, tables
from bot.games.tournaments.pairing import Decider, MatchWon, match_winner
from bot.games.tournaments.reading import Place, Standing
from bot.games.tournaments.standings import PROMOTED, RELEGATED, GameResult, league_moves
from bot.games.tournaments.standings import Standing as Ranked
from bot.i18n import Text, _
from bot.posting.publisher import Reader
from bot.posting.texts import clock_text, mention
from render.standings import Column, Mark, StandingsRow, StandingsTable

FORMAT_NAMES: Final[Mapping[TournamentFormat, Text]] = {
    TournamentFormat.ROUND_ROBIN: _("round robin"),
    TournamentFormat.DOUBLE_ROUND_ROBIN: _("double round robin"),
    TournamentFormat.SWISS: _("Swiss"),
    TournamentFormat.KNOCKOUT: _("knockout"),
    TournamentFormat.LEAGUE: _("league"),
}

Names = Callable[[int], Awaitable[str]]


def tournament_line(tournament: Tournament) -> str:
    """``#3 Autumn Cup``: how texts name a tournament (names are the organiser's own)."""
    return f"#{tournament.id} **{tournament.name}**"


def game_line(place: Place, game: Game) -> Text:
    """A tournament's game as its announcement names it: by the bot's game number (its id,
    which every other post and command of the game uses), with the season and division of a
    league's game (the division where its season has more than one)."""
    names = {
        "tournament": tournament_line(place.tournament),
        "number": game.id,
        "white": mention(game.white_id),
        "black": mention(game.black_id),
    }
    if place.season is not None and place.division is not None:
        return _(
            "{tournament}, season {season}, division {division}, game #{number}: {white} "
            "(White) vs {black} (Black).",
            season=place.season,
            division=place.division,
            **names,
        )
    if place.season is not None:
        return _(
            "{tournament}, season {season}, game #{number}: {white} (White) vs {black} (Black).",
            season=place.season,
            **names,
        )
    return _("{tournament}, game #{number}: {white} (White) vs {black} (Black).", **names)


def thread_name(place: Place, game: Game, white: str, black: str) -> Text | str:
    """A tournament's game's thread: ``#57 Ann vs Bob`` by the game's number (first, so that
    it stays when Discord's limit cuts the name), and a league's season and division as its
    announcement names them."""
    name = f"#{game.id} {white} vs {black}"
    if place.season is not None and place.division is not None:
        return _(
            "{name}: season {season}, division {division}",
            name=name,
            season=place.season,
            division=place.division,
        )
    if place.season is not None:
        return _("{name}: season {season}", name=name, season=place.season)
    return name


def _points(points: float) -> str:
    whole = int(points)
    if not points - whole:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _tie_break(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


MOST_TABLES: Final = 10
"""The most images a message holds (Discord's limit): a league shows this many divisions."""
MATCH_GAMES: Final = 2
"""A knockout match's games: one, and a second after a draw (the pairing rules' limit)."""


async def standings_tables(
    standing: Standing,
    names: Names,
    reader: Reader,
    *,
    following: Sequence[Standing] = (),
    viewer: int | None = None,
) -> list[StandingsTable]:
    """The tables a tournament's standings show: its own, or a league's divisions (those of
    the season ``standing`` holds, :func:`shown_divisions`) with who moves up and down
    (:func:`league_marks`; ``following``: the next season's divisions, once made).
    ``viewer``: whose row is outlined."""
    if not standing.divisions:
        return [await standings_table(standing, names, reader, viewer=viewer)]
    marks = league_marks(standing, following)
    return [
        await standings_table(part, names, reader, marks=marks, viewer=viewer)
        for part in shown_divisions(standing, viewer)
    ]


def division_of(league: Standing, user_id: int | None) -> Standing | None:
    """The division ``user_id`` plays in, of the season ``league`` holds."""
    return next(
        (d for d in league.divisions if any(e.user_id == user_id for e in d.entrants)), None
    )


def shown_divisions(league: Standing, viewer: int | None = None) -> tuple[Standing, ...]:
    """The divisions a league's standings show: all of them, or the first
    :data:`MOST_TABLES` with the ``viewer``'s as the last when it is further down."""
    shown = league.divisions[:MOST_TABLES]
    theirs = division_of(league, viewer)
    if theirs is not None and theirs not in shown:
        shown = (*shown[:-1], theirs)
    return shown


async def standings_table(
    standing: Standing,
    names: Names,
    reader: Reader,
    *,
    marks: Mapping[int, Mark] | None = None,
    viewer: int | None = None,
) -> StandingsTable:
    """A tournament's (or one league division's) table, for :func:`render.standings_png`:
    a knockout's players by how far they got (:func:`knockout_places`), its winner starred;
    a league division's players marked as ``marks`` say (:func:`league_marks`); the
    ``viewer``'s row outlined."""
    tournament = standing.tournament
    ranked = tables.table(tournament, standing.entrants, standing.pairings)
    if tournament.format is TournamentFormat.KNOCKOUT:
        ranked = _by_stage(ranked, knockout_places(standing)[0])
    withdrawn = {e.user_id for e in standing.entrants if e.withdrawn}
    swiss = tournament.format is TournamentFormat.SWISS
    columns = [Column(reader(_("Pts")), emphasis=True), Column(reader(_("Games")))]
    columns += (
        [Column(reader(_("BH-1"))), Column(reader(_("BH-m")))]
        if swiss
        else [Column(reader(_("SB")))]
    )
    columns.append(Column("±"))  # the piece margin sum: a sign every language reads
    moving = marks or {}
    winners = set(tournament_winners(standing))
    rows = []
    for row in ranked:
        mark = moving.get(row.player)
        if row.player in withdrawn:
            mark = Mark.WITHDRAWN
        elif row.player in winners:
            mark = Mark.WINNER
        rows.append(
            StandingsRow(
                rank=str(row.rank),
                name=await names(row.player),
                cells=[
                    _points(row.points),
                    str(row.games),
                    *(_tie_break(v) for _, v in row.tie_breaks),
                    f"{row.margin:+d}" if row.margin else "0",
                ],
                mark=mark,
                highlight=row.player == viewer,
            )
        )
    title = tournament.name
    if tournament.division is not None:
        title = reader(
            _(
                "{name}: season {season}, division {division}",
                name=tournament.name,
                season=tournament.season,
                division=tournament.division,
            )
        )
    played = sum(1 for p in standing.pairings if p.is_decided and not p.is_bye)
    games = sum(1 for p in standing.pairings if not p.is_bye)
    subtitle = reader(
        _(
            "{format} · {played} of {games} games played",
            format=FORMAT_NAMES[tournament.format],
            played=played,
            games=games,
        )
    )
    return StandingsTable(
        title=title,
        subtitle=subtitle,
        columns=columns,
        rows=rows,
        legend={
            Mark.WINNER: reader(_("winner")),
            Mark.PROMOTED: reader(_("moves up")),
            Mark.RELEGATED: reader(_("moves down")),
            Mark.WITHDRAWN: reader(_("withdrew")),
        },
        name_header=reader(_("Player")),
    )


def league_marks(league: Standing, following: Sequence[Standing] = ()) -> dict[int, Mark]:
    """Who of the season ``league`` holds (its divisions) moves up and who down: where they
    play the next season (``following``'s divisions, once it is made). Before that, in a
    division that has finished while others play on, where the league's rule sends them: its
    first :data:`~bot.games.tournaments.standings.PROMOTED` up, but in the top division, and its
    last ``moves_down`` down, but in the lowest. A league that has ended moves nobody."""
    marks: dict[int, Mark] = {}
    if following:
        later = {e.user_id: d.tournament.division for d in following for e in d.entrants}
        for part in league.divisions:
            now = part.tournament.division
            for entrant in part.entrants:
                then = later.get(entrant.user_id)
                if now is None or then is None or then == now:
                    continue
                marks[entrant.user_id] = Mark.PROMOTED if then < now else Mark.RELEGATED
        return marks
    if not league.tournament.is_running:
        return marks
    moves_down = league.tournament.moves_down
    down = RELEGATED if moves_down is None else moves_down
    for part in league.divisions:
        if part.tournament.status is not TournamentStatus.FINISHED:
            continue
        moves = league_moves(
            tables.table(part.tournament, part.entrants, part.pairings),
            up=PROMOTED,
            down=down,
            top_division=part.tournament.division == 1,
            bottom_division=part.tournament.division == len(league.divisions),
        )
        marks.update(dict.fromkeys(moves.promoted, Mark.PROMOTED))
        marks.update(dict.fromkeys(moves.relegated, Mark.RELEGATED))
    return marks


def knockout_places(standing: Standing) -> tuple[dict[int, float], int | None]:
    """How far each player of a knockout got, and its winner once it is over. A player's
    place is the round of their last match, one more if they won it, a half more while it
    goes on (a bye is a match won); the winner is the one who won the last round."""
    seeds = [e.user_id for e in sorted(standing.entrants, key=lambda e: e.seed)]
    boards: dict[tuple[int, int], list[TournamentGame]] = {}
    for pairing in standing.pairings:
        boards.setdefault((pairing.round, pairing.board), []).append(pairing)
    reached: dict[int, float] = {}
    for (number, _board), legs in sorted(boards.items()):
        played = [leg for leg in legs if not leg.void]
        decided = bool(played) and all(leg.is_decided for leg in played)
        won = rounds.knockout_winner(played, seeds) if decided else None
        for player in legs[0].player_ids:
            reached[player] = number + (1.0 if player == won else 0.0 if decided else 0.5)
    champion = None
    if standing.tournament.status is TournamentStatus.FINISHED and boards:
        last = max(number for number, _board in boards)
        top = [player for player, place in reached.items() if place == last + 1]
        champion = top[0] if len(top) == 1 else None
    return reached, champion


def _by_stage(ranked: Sequence[Ranked], reached: Mapping[int, float]) -> list[Ranked]:
    """A knockout's table: the players who got further first (in the table's order among
    those who got as far), ranked by it (1, 2, 3, 3, 5...)."""
    ordered = sorted(ranked, key=lambda row: -reached.get(row.player, 0.0))
    return [
        dataclasses.replace(
            row,
            rank=1
            + sum(
                reached.get(other.player, 0.0) > reached.get(row.player, 0.0) for other in ranked
            ),
        )
        for row in ordered
    ]


def tournament_winners(standing: Standing) -> list[int]:
    """Who won a finished tournament: a knockout's last match's winner, else the first place
    (shared when level on everything); nobody for a league or one of its divisions."""
    tournament = standing.tournament
    if tournament.status is not TournamentStatus.FINISHED or tournament.is_league:
        return []
    if tournament.is_division:
        return []
    if tournament.format is TournamentFormat.KNOCKOUT:
        champion = knockout_places(standing)[1]
        return [] if champion is None else [champion]
    withdrawn = {e.user_id for e in standing.entrants if e.withdrawn}
    ranked = tables.table(tournament, standing.entrants, standing.pairings)
    return [row.player for row in ranked if row.rank == 1 and row.player not in withdrawn]


def match_lines(standing: Standing, game_id: int) -> list[Text]:
    """What a knockout's game that just ended did to its match: drawn, a second game with
    colours swapped; or, when it took more than one game, who won the match and how."""
    tournament = standing.tournament
    ended = next((p for p in standing.pairings if p.game_id == game_id), None)
    if tournament.format is not TournamentFormat.KNOCKOUT or ended is None or ended.void:
        return []
    legs = [  # the match's games until this one (a second may follow it already)
        p
        for p in standing.pairings
        if (p.round, p.board) == (ended.round, ended.board) and p.leg <= ended.leg and not p.void
    ]
    games = [r for r in tables.results_of(legs) if isinstance(r, GameResult)]
    if not games or len(games) != len(legs) or len(games) > MATCH_GAMES:
        return []
    seeds = [e.user_id for e in sorted(standing.entrants, key=lambda e: e.seed)]
    decided = match_winner(games, seeds)
    if not isinstance(decided, MatchWon):
        return [
            _(
                "Game #{number} was drawn: a second game, colours swapped: {white} (White) "
                "against {black} (Black).",
                number=ended.game_id,
                white=mention(decided.pairing.white),
                black=mention(decided.pairing.black),
            )
        ]
    if len(games) == 1:
        return []
    winner, loser = mention(decided.winner), mention(decided.loser)
    if decided.decided_by is Decider.MARGIN:
        return [
            _(
                "{winner} wins the match against {loser}: both games drawn, by the piece margin.",
                winner=winner,
                loser=loser,
            )
        ]
    if decided.decided_by is Decider.SEED:
        return [
            _(
                "{winner} wins the match against {loser}: both games drawn, as the better seed.",
                winner=winner,
                loser=loser,
            )
        ]
    return [
        _("{winner} wins the match against {loser} in its second game.", winner=winner, loser=loser)
    ]


def season_over_lines(
    league: Tournament, ended: Standing, following: Sequence[Standing]
) -> list[Text]:
    """The post at the end of a league's season (``ended`` holds its divisions): who moved up
    and down, where the newcomers start, and that the next season (``following``'s divisions)
    has begun, or that the league is over."""
    season = ended.divisions[0].tournament.season if ended.divisions else league.season
    lines = [_("Season {season} is over.", season=season)]
    before = {e.user_id: d.tournament.division for d in ended.divisions for e in d.entrants}
    for part in following:
        number = part.tournament.division or 0
        up, down, new = [], [], []
        for entrant in part.entrants:
            was = before.get(entrant.user_id)
            if was is None:
                new.append(mention(entrant.user_id))
            elif was > number:
                up.append(mention(entrant.user_id))
            elif was < number:
                down.append(mention(entrant.user_id))
        if up:
            lines.append(
                _("Up to division {division}: {players}.", division=number, players=", ".join(up))
            )
        if down:
            lines.append(
                _(
                    "Down to division {division}: {players}.",
                    division=number,
                    players=", ".join(down),
                )
            )
        if new:
            lines.append(
                _("New in division {division}: {players}.", division=number, players=", ".join(new))
            )
    if following:
        lines.append(
            _(
                "Season {season} has begun: each game gets its thread here.",
                season=following[0].tournament.season,
            )
        )
    else:
        lines.append(
            _(
                "{tournament} is over: too few players for another season.",
                tournament=tournament_line(league),
            )
        )
    return lines


def result_symbol(pairing: TournamentGame) -> str:
    if pairing.is_bye:
        return "bye"
    if pairing.void:
        return "—"
    if pairing.result is None:
        return "…"
    if pairing.forfeit:  # FIDE's forfeit marks: a loss without (or before the end of) play
        return {Result.WHITE: "+–−", Result.BLACK: "−–+", Result.DRAW: "½–½"}[pairing.result]
    return {Result.WHITE: "1–0", Result.BLACK: "0–1", Result.DRAW: "½–½"}[pairing.result]


async def pairings_text(
    standing: Standing, names: Names, reader: Reader, threads: Mapping[int, int] | None = None
) -> str:
    """Every game of a tournament by round (a league: its season's, by division): the game's
    number (the bot's, as its thread and posts name it), players, result, and a link to its
    thread while it runs (``threads``: the running games' threads, by game id); a bye has no
    game, so no number."""
    threads = threads or {}
    lines = [f"{tournament_line(standing.tournament)}"]
    if standing.divisions and (season := standing.divisions[0].tournament.season) is not None:
        lines.append(reader(_("**Season {season}**", season=season)))
    parts = standing.divisions or (standing,)
    for part in parts:
        if part.tournament.division is not None:
            lines.append(reader(_("**Division {division}**", division=part.tournament.division)))
        round_number = 0
        for pairing in part.pairings:
            if pairing.round != round_number:
                round_number = pairing.round
                lines.append(reader(_("Round {round}", round=round_number)))
            white = await names(pairing.white_id)
            if pairing.black_id is None:
                bye = reader(_("bye"))
                lines.append(f"{white}: {bye}")
                continue
            black = await names(pairing.black_id)
            line = f"#{pairing.game_id} {white} – {black}: {result_symbol(pairing)}"
            if (thread := threads.get(pairing.game_id or 0)) is not None:
                line += f" <#{thread}>"
            lines.append(line)
    if len(lines) == 1:
        lines.append(reader(_("No games yet: it has not begun.")))
    return "\n".join(lines)


def terms_line(tournament: Tournament) -> Text:
    """What a player agrees to by joining: the clock, whether it is rated, the rounds (Swiss)
    or the divisions and moves (league)."""
    clock = clock_text(timecontrol.parse(tournament.clock or timecontrol.NO_CLOCK))
    rated = _("rated") if tournament.rated else _("not rated")
    if tournament.format is TournamentFormat.SWISS and tournament.rounds is not None:
        return _(
            "Clock: {clock}; {rated}; {rounds} rounds.",
            clock=clock,
            rated=rated,
            rounds=tournament.rounds,
        )
    if tournament.format is TournamentFormat.LEAGUE:
        return _(
            "Clock: {clock}; {rated}; divisions of {size}, each season the first {up} move up "
            "and the last {down} move down; newcomers start in the lowest.",
            clock=clock,
            rated=rated,
            size=tournament.division_size or 0,
            up=PROMOTED,
            down=RELEGATED if tournament.moves_down is None else tournament.moves_down,
        )
    return _("Clock: {clock}; {rated}.", clock=clock, rated=rated)


def standings_lines(standing: Standing, viewer: int | None = None) -> list[Text]:
    """What a standings message says over its images when nothing happened: whose standings
    (a league's: which season, the ``viewer``'s division, the divisions left out, and who
    starts next season)."""
    tournament = standing.tournament
    if not standing.divisions:
        return [_("Standings of {tournament}.", tournament=tournament_line(tournament))]
    season = standing.divisions[0].tournament.season or 1
    lines = [
        _(
            "Standings of {tournament}, season {season}.",
            tournament=tournament_line(tournament),
            season=season,
        )
    ]
    playing = {e.user_id for d in standing.divisions for e in d.entrants}
    waiting = [e.user_id for e in standing.entrants if not e.withdrawn and e.user_id not in playing]
    theirs = division_of(standing, viewer)
    if theirs is not None and theirs.tournament.division is not None:
        lines.append(_("You play in division {division}.", division=theirs.tournament.division))
    elif viewer in waiting:
        lines.append(_("You start next season, in the lowest division."))
    shown = len(shown_divisions(standing, viewer))
    if shown < len(standing.divisions):
        lines.append(
            _(
                "{shown} of its {count} divisions shown.",
                shown=shown,
                count=len(standing.divisions),
            )
        )
    if waiting:
        lines.append(
            _(
                "Starting next season, in the lowest division: {players}.",
                players=", ".join(mention(player) for player in waiting),
            )
        )
    return lines
