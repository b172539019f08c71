"""Tournaments and leagues: ``/dvonn tournament …`` (create, join, leave, withdraw, start,
standings, pairings, cancel), the Join button under a tournament's post, and the posts its
announcements owe: the tournament's post and thread, each game's thread (then the game begins
there), and the standings after every game, replacing the last."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.tournaments.buttons import JoinButton
from bot.exts.tournaments.commands import TournamentCommands
from bot.exts.tournaments.posts import TournamentPosts
from bot.games.tournaments.announcements import TOURNAMENT_GAME, TOURNAMENT_NEWS, TOURNAMENT_OPENED

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    posts = TournamentPosts(bot, bot.service, bot.publisher)
    bot.deliverer.handle(TOURNAMENT_OPENED, posts.opened)
    bot.deliverer.handle(TOURNAMENT_GAME, posts.game)
    bot.deliverer.handle(TOURNAMENT_NEWS, posts.news)
    bot.add_dynamic_items(JoinButton)
    await bot.add_feature(
        TournamentCommands(bot.service, bot.publisher, bot.deliverer, bot.inflight, posts)
    )
