"""Game reviews: ``/dvonn review`` has the engine weigh every action of a finished game (or of
a Little Golem transcript), and answers with a graph of who was ahead, a short account, and each
player's biggest mistakes; a button under each shows the board before it with the better move.

Only finished games: a review of a game in progress would help one of its players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.review import DEFAULT_BUDGET
from bot.exts.review.commands import MistakeButton, ReviewFeature
from bot.exts.review.reviewer import Reviewer

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    reviewer = Reviewer(bot.engine, budget=bot.thinking_time(DEFAULT_BUDGET))
    bot.add_dynamic_items(MistakeButton)
    await bot.add_feature(
        ReviewFeature(reviewer, bot.service, bot.publisher, bot.deliverer, bot.inflight)
    )
