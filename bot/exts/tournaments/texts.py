"""What tournaments' posts and replies say, and the standings table their image draws."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Final

from bot.games import (
    Result,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    rounds,
    timecontrol,
)
from bot.games.standings import PROMOTED, RELEGATED, league_moves
from bot.games.standings import Standing as Ranked
from bot.games.tournaments import Standing
from bot.i18n import Text, _
from bot.posting.publisher import Reader
from bot.posting.texts import clock_text
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


def _points(points: float) -> str:
    whole = int(points)
    return f"{whole}½" if points - whole else str(whole)


def _tie_break(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


async def standings_table(standing: Standing, names: Names, reader: Reader) -> StandingsTable:
    """A tournament's (or one league division's) table, for :func:`render.standings_png`."""
    tournament = standing.tournament
    ranked = rounds.table(tournament, standing.entrants, standing.pairings)
    withdrawn = {e.user_id for e in standing.entrants if e.withdrawn}
    swiss = tournament.format is TournamentFormat.SWISS
    columns = [Column(reader(_("Pts")), emphasis=True), Column(reader(_("Games")))]
    columns += (
        [Column(reader(_("BH-1"))), Column(reader(_("BH-m")))]
        if swiss
        else [Column(reader(_("SB")))]
    )
    columns.append(Column("±"))  # the piece margin sum: a sign every language reads
    over = tournament.status is TournamentStatus.FINISHED
    moving = _league_marks(standing, ranked) if tournament.is_division else {}
    rows = []
    for row in ranked:
        mark = moving.get(row.player)
        if row.player in withdrawn:
            mark = Mark.WITHDRAWN
        elif over and row.rank == 1 and not tournament.is_division:
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


def _league_marks(standing: Standing, ranked: list[Ranked]) -> dict[int, Mark]:
    """A finished league division's moves: its first two up (but the top division's), its
    last down (but the lowest's; the league's divisions are not known here: marked when the
    season's post lists them)."""
    if standing.tournament.status is not TournamentStatus.FINISHED:
        return {}
    moves = league_moves(
        ranked, top_division=standing.tournament.division == 1, bottom_division=False
    )
    marks = dict.fromkeys(moves.promoted, Mark.PROMOTED)
    marks.update(dict.fromkeys(moves.relegated, Mark.RELEGATED))
    return marks


def result_symbol(pairing: TournamentGame) -> str:
    if pairing.is_bye:
        return "bye"
    if pairing.void:
        return "—"
    if pairing.result is None:
        return "…"
    symbol = {Result.WHITE: "1–0", Result.BLACK: "0–1", Result.DRAW: "½–½"}[pairing.result]
    return f"{symbol} (forfeit)" if pairing.forfeit else symbol


async def pairings_text(
    standing: Standing, names: Names, reader: Reader, threads: Mapping[int, int] | None = None
) -> str:
    """Every game of a tournament by round: number, players, result, and a link to its
    thread while it runs (``threads``: the running games' threads, by game id)."""
    threads = threads or {}
    lines = [f"{tournament_line(standing.tournament)}"]
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
                lines.append(f"#{pairing.number} {white}: {reader(_('bye'))}")
                continue
            black = await names(pairing.black_id)
            line = f"#{pairing.number} {white} – {black}: {result_symbol(pairing)}"
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
