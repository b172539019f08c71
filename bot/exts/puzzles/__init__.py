"""Puzzles (issue 26): ``/puzzle``, a top-level command of its own (``/dvonn`` holds the 25
subcommands Discord allows), offered where ``/dvonn`` is: in servers, and in DMs by a user
install. Everything is private: a puzzle's board with the picker of the solver's move under it
(typed moves too, with ``/puzzle move``), each move answered (the reply played), then solved or
not, with the solution drawn and the puzzle rating's change. A server's daily puzzle is posted
in the channel it chose (``/dvonn settings puzzle_channel``) through the outbox, with **Solve
it** for anyone to try it privately, and its count of solvers the next day.

The service's part is :mod:`bot.games.puzzles.solving`; its periodic job
(:mod:`bot.games.core.housekeeping`, run by the bot's housekeeping pass) queues the daily posts and
counts, posted here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.puzzles.commands import PuzzleCommands
from bot.exts.puzzles.picker import BUTTONS
from bot.exts.puzzles.posts import DailyPosts
from bot.games.puzzles.announcements import DAILY_PUZZLE, DAILY_PUZZLE_COUNT

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    posts = DailyPosts(bot, bot.service, bot.publisher)
    bot.deliverer.handle(DAILY_PUZZLE, posts.post)
    bot.deliverer.handle(DAILY_PUZZLE_COUNT, posts.count)
    bot.add_dynamic_items(*BUTTONS)
    await bot.add_feature(
        PuzzleCommands(bot.service, bot.publisher, bot.deliverer, bot.inflight), top_level=True
    )
