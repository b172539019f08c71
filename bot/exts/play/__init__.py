"""Playing a game: ``/dvonn place``, ``move`` and ``play`` (with autocomplete offering only
legal choices), ``board``, ``games``, ``resign`` (with its confirmation button) and ``abort``
(with the opponent's agreement button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.play.buttons import AbortAgreeButton, ResignButton
from bot.exts.play.commands import Play

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.add_dynamic_items(ResignButton, AbortAgreeButton)
    await bot.add_feature(Play(bot.service, bot.publisher, bot.deliverer, bot.inflight))
