"""Turn notices: ``/dvonn notify`` (a ping on every turn, one DM a day at the player's own
hour, or nothing; and deadline reminders on or off), and posting the daily digest the
housekeeping pass queues (``digest.py``). The pings themselves are left out of a turn's post
by the posting layer (:meth:`bot.posting.outbox.Deliverer._with_turn_notices`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.notices.commands import Notices
from bot.exts.notices.digest import DigestPoster
from bot.games.notices.announcements import DIGEST

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.deliverer.handle(DIGEST, DigestPoster(bot.service, bot.publisher).digest)
    await bot.add_feature(Notices(bot.service, bot.publisher, bot.deliverer, bot.inflight))
