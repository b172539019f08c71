"""The one move picker that the game's, the plans' and the puzzles' pickers share, without
Discord: every id of their steps, rebuilt from itself as discord.py rebuilds an item on a
click, spells itself again, its parts read back into their places (so a menu posted before
keeps acting on what it showed)."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.exts.play import picker, plan_picker
from bot.exts.play.picker import Shown
from bot.exts.play.plan_picker import Planned
from bot.exts.puzzles import picker as puzzle_picker
from bot.interactions import move_picker
from bot.interactions.move_picker import At

STEP_IDS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    "dvonn:cells:12:40:57:1": picker.CellMenu,
    "dvonn:from:12:52:69": picker.StackMenu,
    "dvonn:to:12:52:69:E3": picker.LandingMenu,
    "dvonn:confirm:12:52:69:E3F4": picker.ConfirmButton,
    "dvonn:confirm:12:60:77:PASS": picker.ConfirmButton,
    "dvonn:plan:cells:12:40:7:1:": plan_picker.PlanCellMenu,
    "dvonn:plan:cells:12:40:7:2:E3": plan_picker.PlanCellMenu,
    "dvonn:plan:from:12:52:9:": plan_picker.PlanStackMenu,
    "dvonn:plan:from:12:52:9:E3F4": plan_picker.PlanStackMenu,
    "dvonn:plan:to:12:52:9::E3": plan_picker.PlanLandingMenu,
    "dvonn:plan:to:12:52:9:E3F4:D2": plan_picker.PlanLandingMenu,
    "dvonn:plan:confirm:12:40:7:E3:F4": plan_picker.PlanConfirmButton,
    "dvonn:plan:confirm:12:52:9:E3F4:D2D3": plan_picker.PlanConfirmButton,
    "dvonn:puzzle:from:12:2": puzzle_picker.StackMenu,
    "dvonn:puzzle:to:12:2:E3": puzzle_picker.LandingMenu,
    "dvonn:puzzle:play:12:2:E3F4": puzzle_picker.PlayButton,
}


async def rebuilt(custom_id: str) -> Any:
    item = STEP_IDS[custom_id]
    match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return await item.from_custom_id(cast(Any, None), cast(Any, None), match)


@pytest.mark.parametrize("custom_id", sorted(STEP_IDS))
async def test_a_step_rebuilt_from_its_id_spells_it_again(custom_id: str) -> None:
    item = await rebuilt(custom_id)
    assert isinstance(item, STEP_IDS[custom_id])
    assert item.custom_id == custom_id


async def test_the_ids_parts_are_read_back_into_their_places() -> None:
    cells = await rebuilt("dvonn:plan:cells:12:40:7:2:E3")
    assert (cells.step, cells.group) == (Planned(Shown(12, 40, 7), "E3"), 2)
    reply = await rebuilt("dvonn:plan:confirm:12:52:9:E3F4:D2D3")
    assert (reply.step, reply.move) == (Planned(Shown(12, 52, 9), "E3F4"), "D2D3")
    landing = await rebuilt("dvonn:to:12:52:69:E3")
    assert (landing.step, landing.source) == (Shown(12, 52, 69), "E3")
    play = await rebuilt("dvonn:puzzle:play:12:2:E3F4")
    assert (play.step, play.move) == (At(12, 2), "E3F4")


def test_each_feature_s_steps_share_its_picker() -> None:
    for module in (picker, plan_picker, puzzle_picker):
        steps = [i for i in STEP_IDS.values() if i.__module__ == module.__name__]
        assert isinstance(module.PICKER, move_picker.Picker)
        assert steps and all(cast(Any, i).picker is module.PICKER for i in steps), module
