"""Playing a game: ``/dvonn place``, ``move`` and ``play`` (with autocomplete offering only
legal choices), or by tapping "Your move" under a board (``picker.py``; for the player who
waits, "Plan a reply": ``plan_picker.py``); ``board``, ``games``,
``resign`` (with its confirmation button) and ``abort`` (with the opponent's agreement
button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.exts.play.buttons import AbortAgreeButton, ResignButton
from bot.exts.play.commands import Play
from bot.exts.play.picker import (
    CellMenu,
    ConfirmButton,
    LandingMenu,
    OutdatedPicker,
    StackMenu,
    TurnButton,
    board_view,
)
from bot.exts.play.plan_picker import (
    PlanButton,
    PlanCellMenu,
    PlanConfirmButton,
    PlanLandingMenu,
    PlanStackMenu,
)
from bot.exts.play.text_board import TextBoardButton

if TYPE_CHECKING:
    from bot.app import DvonnBot


async def setup(bot: DvonnBot) -> None:
    bot.add_dynamic_items(
        ResignButton,
        AbortAgreeButton,
        TurnButton,
        CellMenu,
        StackMenu,
        LandingMenu,
        ConfirmButton,
        OutdatedPicker,  # pickers opened before their ids carried the game's version
        PlanButton,  # "Plan a reply", for the player who waits, and its steps
        PlanCellMenu,
        PlanStackMenu,
        PlanLandingMenu,
        PlanConfirmButton,
        TextBoardButton,  # the position in words, from the picker
    )
    bot.publisher.board_view = board_view  # "Your move" under every board a person moves on
    await bot.add_feature(Play(bot.service, bot.publisher, bot.deliverer, bot.inflight))
