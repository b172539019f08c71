"""The piece margin, the tie-break after the others, counts only games played to the count:
tournaments stored before this rule are corrected by migration 17, on both backends. (A round
robin played under it through Discord: tests/bot/e2e/test_tournament_margins.py.)

The tournament is played by today's service, so on today's schema (a file left at version 16
would lack the columns later migrations added, which today's code writes); the rows are then
made as the bot wrote them before the rule, and migration 17's statements, which change only
data, run on them as the migration runner runs them, in one transaction."""

from __future__ import annotations

import random

import rules
from bot.games.service import GameService
from bot.games.tournaments.tables import table
from bot.storage import MIGRATIONS, Database, Store, open_database
from bot.storage.migrations import POSTGRES_MIGRATIONS
from bot.storage.models import TournamentFormat, TournamentStatus
from tests.bot.clock import ManualClock
from tests.bot.random_games import ahead, lead, won_by

GUILD, CHANNEL, ORGANISER = 1, 2, 100
ANN, BEN, CAT = 11, 12, 13
MARGINS_RULE = 17
"""The migration that corrects the margins stored before the rule."""


async def _migrate_margins(db: Database) -> None:
    """Run migration 17's statements (the backend's own file) in one transaction."""
    migrations = POSTGRES_MIGRATIONS if db.kind == "postgres" else MIGRATIONS
    migration = migrations[MARGINS_RULE - 1]
    assert (migration.version, migration.name) == (MARGINS_RULE, "count_margins")
    async with db.transaction() as conn:
        for statement in migration.statements():
            await conn.execute(statement)


async def _play(service: GameService, game_id: int, moves: list[rules.Move]) -> None:
    """Both players play ``moves`` in the game, each their colour's."""
    for move in moves:
        game = await service.get_game(game_id)
        await service.play(game_id, game.player(game.position.turn), move)


async def test_a_stored_resignation_by_a_player_ahead_is_corrected_with_its_table(
    database_target: str, clock: ManualClock
) -> None:
    """A round robin of three where each beat one other (a point each, Sonneborn-Berger 1
    each: the margins decide), as the bot stored it before the rule: Ann beat Ben by the
    count, by a few pieces; Cat resigned to Ben while well ahead on the board; Ann resigned to
    Cat. Stored then, the resignation's board counted: Ben "won by" a negative number and Cat,
    who resigned, came first. Migrated, only the counted game keeps a margin: Ann first."""
    old = await open_database(database_target)
    service = GameService(Store(old), clock=clock, rng=random.Random(7))
    try:
        tournament = await service.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            by=ORGANISER,
            organiser=True,
            name="Winter Cup",
            format=TournamentFormat.ROUND_ROBIN,
            max_players=3,
        )
        for player in (ANN, BEN, CAT):
            await service.tournaments.join(tournament.id, player)
        pairings = (await service.tournaments.standing(tournament.id)).pairings
        games = {}
        for number, pairing in enumerate(p for p in pairings if p.game_id is not None):
            assert pairing.game_id is not None
            await service.tournaments.begin_game(pairing.game_id, 1000 + number, CHANNEL)
            games[frozenset(pairing.player_ids)] = await service.get_game(pairing.game_id)

        counted = games[frozenset((ANN, BEN))]
        ann = counted.colour_of(ANN)
        assert ann is not None
        moves, margin = won_by(ann, most=2)
        await _play(service, counted.id, moves)
        resigned = games[frozenset((BEN, CAT))]
        cat = resigned.colour_of(CAT)
        assert cat is not None
        moves, position = ahead(cat, by=margin + 3)
        await _play(service, resigned.id, moves)
        await service.resign(resigned.id, CAT)
        await service.resign(games[frozenset((CAT, ANN))].id, ANN)
        # What the bot wrote before the rule: every ending's board, copied to its pairing.
        async with old.transaction() as conn:
            await conn.execute(
                "UPDATE tournament_games SET "
                "score_white = (SELECT score_white FROM games WHERE games.id = game_id), "
                "score_black = (SELECT score_black FROM games WHERE games.id = game_id) "
                "WHERE game_id IS NOT NULL"
            )
        standing = await service.tournaments.standing(tournament.id)
        assert standing.tournament.status is TournamentStatus.FINISHED
        wrong = table(standing.tournament, standing.entrants, standing.pairings)
        ahead_by = lead(position, cat)
        assert [(row.player, row.margin) for row in wrong] == [
            (CAT, ahead_by),
            (ANN, margin),
            (BEN, -margin - ahead_by),
        ]
        await _migrate_margins(old)
    finally:
        await service.close()

    service = GameService(
        Store(await open_database(database_target)), clock=clock, rng=random.Random(7)
    )
    try:
        standing = await service.tournaments.standing(tournament.id)
        ranked = table(standing.tournament, standing.entrants, standing.pairings)
        assert [(row.rank, row.player, row.points, row.margin) for row in ranked] == [
            (1, ANN, 1, margin),
            (2, CAT, 1, 0),
            (3, BEN, 1, -margin),
        ]
        assert all(row.tie_breaks == ((row.tie_breaks[0][0], 1.0),) for row in ranked)
        by_game = {p.game_id: p for p in standing.pairings}
        assert by_game[counted.id].score == rules.score(
            (await service.get_game(counted.id)).position
        )
        assert by_game[resigned.id].score is None
        # The game itself keeps its board as it was when Cat resigned.
        assert (await service.get_game(resigned.id)).score == rules.score(position)
    finally:
        await service.close()
