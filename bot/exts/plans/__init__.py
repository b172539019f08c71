"""Conditional moves: ``/dvonn plan``, one command whose options plan a line of replies, list
one's lines, or clear them, always privately (``commands.py``). Tapping "Your move" while the
opponent is to move offers the same by steps ("Plan a reply", in the play feature's picker)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.plans.commands import Plans

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    await bot.add_feature(Plans(bot.service, bot.publisher, bot.deliverer, bot.inflight))
