"""Clocks: ``/dvonn vacation``, and the posts announcing reminders and vacations (reminders are
turned on and off with ``/dvonn notify``, in :mod:`bot.exts.notices`). The losses on time and
the reminders themselves are the game service's periodic jobs (:mod:`bot.games.core.housekeeping`),
which the bot's housekeeping pass runs every minute; their posts are delivered here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.clocks.announcements import Announcements
from bot.exts.clocks.commands import Clocks
from bot.games.clocks.announcements import REMINDER, VACATION

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    announcements = Announcements(bot.service, bot.publisher)
    bot.deliverer.handle(REMINDER, announcements.reminder)
    bot.deliverer.handle(VACATION, announcements.vacation)
    await bot.add_feature(Clocks(bot.service, bot.publisher, bot.deliverer, bot.inflight))
