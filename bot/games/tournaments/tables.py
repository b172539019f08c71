"""A tournament's tables: its stored pairings counted as :mod:`bot.games.tournaments.standings`
counts results (a void game for nobody, a forfeit as one), and the standings they make."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.tournaments import standings
from bot.storage import Entrant, Result, Tournament, TournamentFormat, TournamentGame


def results_of(pairings: Sequence[TournamentGame]) -> list[standings.Result]:
    """The decided pairings as the standings count them (a void game counts for nobody)."""
    results: list[standings.Result] = []
    for pair in pairings:
        if pair.black_id is None:
            results.append(standings.Bye(pair.white_id))
        elif pair.result is not None:
            results.append(
                standings.GameResult(
                    pair.white_id,
                    pair.black_id,
                    _outcome(pair.result, forfeit=pair.forfeit),
                    pair.score or (0, 0),
                )
            )
    return results


def _outcome(result: Result, *, forfeit: bool) -> standings.Outcome:
    if result is Result.DRAW:
        return standings.Outcome.DRAW
    if result is Result.WHITE:
        return standings.Outcome.WHITE_WINS_BY_FORFEIT if forfeit else standings.Outcome.WHITE_WINS
    return standings.Outcome.BLACK_WINS_BY_FORFEIT if forfeit else standings.Outcome.BLACK_WINS


def table(
    tournament: Tournament, entrants: Sequence[Entrant], pairings: Sequence[TournamentGame]
) -> list[standings.Standing]:
    """A tournament's (or a league division's) standings, best first."""
    kind = (
        standings.Format.SWISS
        if tournament.format is TournamentFormat.SWISS
        else standings.Format.ROUND_ROBIN
    )
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed)]
    return list(standings.standings(players, results_of(pairings), kind))
