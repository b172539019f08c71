"""Lessons (issue 42): ``/learn``, a top-level command of its own (``/dvonn`` holds the 25
subcommands Discord allows), offered where ``/dvonn`` is: in servers, and in DMs by a user
install. Everything is private and in the player's language: a lesson's board with its task,
each try (tapped in the picker, or typed with ``/learn move``) judged by the rules and
explained with the board after it, Try again or Next; a game against the beginner to end with,
hints on request; a menu of every lesson to replay any. **Learn by playing** under
``/dvonn rules`` and ``/dvonn help``, and the offer made once to a player new to DVONN at their
first challenge or game, open them.

The lessons are :mod:`bot.games.lessons.book`'s, their words :mod:`bot.exts.lessons.texts`'; the
service's part is :mod:`bot.games.lessons.learning`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.lessons.commands import LessonCommands
from bot.exts.lessons.picker import BUTTONS

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.add_dynamic_items(*BUTTONS)
    await bot.add_feature(
        LessonCommands(bot.service, bot.publisher, bot.deliverer, bot.inflight), top_level=True
    )
