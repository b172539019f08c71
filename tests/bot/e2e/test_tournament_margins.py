"""The piece margin through the fake Discord, on each backend: a round robin whose places come
down to it, where one game is played to the count and a player resigns another while well
ahead on the board. Only the counted game has a margin; the resignation counts 0 for both, so
its winner never "wins by" a negative number, and the tournament's winner is the one the
counted game made. (Tournaments stored before this rule:
tests/bot/games/test_tournament_margins.py.)"""

from __future__ import annotations

from collections.abc import Sequence

import rules
from bot.i18n import _
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import FIRST_TOURNAMENT, play_turn, said
from tests.bot.e2e.test_tournament_formats import (
    WAIT,
    Paired,
    create,
    game,
    games_posted,
    join_all,
    organiser,
    resign,
    standings_posts,
)
from tests.bot.random_games import ahead, lead, won_by


async def play(table: Table, paired: Paired, moves: Sequence[rules.Move]) -> rules.Position:
    """Both players play ``moves`` in ``paired``'s thread, each their colour's (the bot plays
    a forced pass itself); returns the position they leave."""
    players = {rules.Colour.WHITE: paired.white, rules.Colour.BLACK: paired.black}
    position = rules.new_game()
    for move in moves:
        turn = await play_turn(table.fake, players[position.turn], paired.thread, move)
        assert turn.post is not None, f"{move}: {turn.reply.content}"
        position = rules.play(position, move)
        while rules.legal_moves(position) == (rules.PASS,):
            position = rules.play(position, rules.PASS)
    return position


def colour_of(paired: Paired, user: object) -> rules.Colour:
    return rules.Colour.WHITE if paired.white is user else rules.Colour.BLACK


async def test_a_resignation_by_a_player_ahead_on_the_board_adds_no_margin(
    table: Table, bot_runner: BotRunner
) -> None:
    """Three players, each beating one other: a point each, Sonneborn-Berger 1 each, so the
    piece margins place them. Alice beats Bob by the count, by a few pieces; Carol resigns to
    Bob while well ahead on the board; Alice resigns to Carol. Alice wins by her margin, Bob's
    win counts 0 (not minus Carol's lead), and Carol's lead counts for nothing."""
    fake = table.fake
    alice, bob, carol = players = [table.alice, table.bob, table.carol]
    async with bot_runner.run() as bot:
        post, home = await create(
            table,
            organiser(table),
            {"name": "Winter Cup", "format": "round_robin", "max_players": 3, "clock": "days:3"},
            bot.mentions,
        )
        await join_all(table, post, players)
        games = await games_posted(table, players, 3)

        counted = game(games, alice, bob)
        moves, margin = won_by(colour_of(counted, alice), most=2)
        end = await play(table, counted, moves)
        assert rules.is_over(end) and lead(end, colour_of(counted, alice)) == margin

        resigned = game(games, bob, carol)
        moves, position = ahead(colour_of(resigned, carol), by=margin + 3)
        await play(table, resigned, moves)
        carol_ahead = lead(position, colour_of(resigned, carol))
        assert carol_ahead > margin
        await resign(table, carol, resigned)
        await resign(table, alice, game(games, carol, alice))

        over = said(_("{tournament} is over."), tournament=f"#{FIRST_TOURNAMENT} **Winter Cup**")
        final = await fake.wait_for_message(home, lambda m: over in m.content, timeout=WAIT)
        assert said(_("{player} wins."), player=alice.mention) in final.content, final.content
        assert carol.mention not in final.content and bob.mention not in final.content
        await fake.wait_until(
            lambda: standings_posts(table, home) == [final], what="the final standings alone"
        )
        (image,) = final.files
        assert image.description == "\n".join(
            [
                "Winter Cup: round robin · 3 of 3 games played",
                f"1. alice (winner): Pts 1, Games 2, SB 1, ± +{margin}",
                "2. carol: Pts 1, Games 2, SB 1, ± 0",
                f"3. bob: Pts 1, Games 2, SB 1, ± -{margin}",
            ]
        )
        # Asked for, the standings say the same.
        asked = await fake.run_command(bob, table.games, "dvonn tournament standings")
        assert asked.ephemeral and asked.message is not None
        (shown,) = asked.message.files
        assert shown.description == image.description
