"""Starting games: ``/dvonn challenge`` with its Accept, Decline and Cancel buttons, and
``/dvonn play-bot`` (a challenge to the bot itself is the same), each with a standard or a
random setup; the Rematch button under a finished game's last post. Each game gets its own
thread when the server and the bot's permissions allow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.lobby.buttons import ChallengeButton
from bot.exts.lobby.commands import Lobby
from bot.exts.lobby.rematch import RematchButton, rematch_view

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.add_dynamic_items(ChallengeButton, RematchButton)
    bot.publisher.end_view = rematch_view  # "Rematch" under a finished game's last post
    await bot.add_feature(Lobby(bot.service, bot.publisher, bot.deliverer, bot.inflight))
