"""Takebacks: ``/dvonn takeback`` asks the opponent (buttons to accept or decline); the bot, as
an opponent, always accepts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.takebacks.commands import TakebackButton, Takebacks

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.add_dynamic_items(TakebackButton)
    await bot.add_feature(Takebacks(bot.service, bot.publisher, bot.deliverer, bot.inflight))
