"""The "Plan a reply" steps' ids, without Discord: each finds the one item it was made for
(never one of the picker's), carries the game's version and the moves chosen so far; and a
planned line as its owner reads it."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest

import rules
from bot.exts.plans.commands import line_text
from bot.exts.play.picker import (
    CellMenu,
    ConfirmButton,
    LandingMenu,
    OutdatedPicker,
    Shown,
    StackMenu,
    TurnButton,
    plan_button,
)
from bot.exts.play.plan_picker import (
    PlanButton,
    PlanCellMenu,
    PlanConfirmButton,
    PlanLandingMenu,
    Planned,
    PlanStackMenu,
)
from bot.games.plans.lines import Line
from bot.i18n import ENGLISH, _
from bot.posting.publisher import Reader
from rules import Colour
from tests.bot.posting.test_texts import ALICE, BOB, new_game

ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [
    TurnButton,
    CellMenu,
    StackMenu,
    LandingMenu,
    ConfirmButton,
    OutdatedPicker,
    PlanButton,
    PlanCellMenu,
    PlanStackMenu,
    PlanLandingMenu,
    PlanConfirmButton,
]


@pytest.mark.parametrize(
    ("custom_id", "item"),
    [
        ("dvonn:plan:12:40:7", PlanButton),
        ("dvonn:plan:cells:12:40:7:1:", PlanCellMenu),
        ("dvonn:plan:cells:12:40:7:2:E3", PlanCellMenu),
        ("dvonn:plan:from:12:52:9:", PlanStackMenu),
        ("dvonn:plan:from:12:52:9:E3F4", PlanStackMenu),
        ("dvonn:plan:to:12:52:9::E3", PlanLandingMenu),
        ("dvonn:plan:to:12:52:9:E3F4:D2", PlanLandingMenu),
        ("dvonn:plan:confirm:12:40:7:E3:F4", PlanConfirmButton),
        ("dvonn:plan:confirm:12:52:9:E3F4:D2D3", PlanConfirmButton),
        ("dvonn:turn:12:40", TurnButton),
        ("dvonn:confirm:12:52:69:E3F4", ConfirmButton),
    ],
)
def test_every_plan_step_id_finds_the_one_item_it_was_made_for(
    custom_id: str, item: type[discord.ui.DynamicItem[Any]]
) -> None:
    found = [i for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert found == [item]


def test_the_steps_carry_the_version_and_the_moves_chosen() -> None:
    shown = Shown(12, 52, 9)
    ids = {
        PlanButton(shown).custom_id,
        PlanCellMenu(Planned(shown, ""), 1).custom_id,
        PlanCellMenu(Planned(shown, "E3"), 1).custom_id,
        PlanStackMenu(Planned(shown, "E3F4")).custom_id,
        PlanLandingMenu(Planned(shown, "E3F4"), "D2").custom_id,
        PlanConfirmButton(Planned(shown, "E3F4"), "D2D3").custom_id,
    }
    assert ids == {
        "dvonn:plan:12:52:9",
        "dvonn:plan:cells:12:52:9:1:",
        "dvonn:plan:cells:12:52:9:1:E3",
        "dvonn:plan:from:12:52:9:E3F4",
        "dvonn:plan:to:12:52:9:E3F4:D2",
        "dvonn:plan:confirm:12:52:9:E3F4:D2D3",
    }
    for custom_id in ids:
        (item,) = [i for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None and Shown.read(match) == shown


def test_the_offer_is_the_first_step() -> None:
    """The "Plan a reply" button the picker offers is the plan steps' first."""
    game = dataclasses.replace(new_game(ALICE, BOB), version=5)
    button = plan_button(game, Reader(ENGLISH, None), _("Plan a reply"))
    assert button.label == "Plan a reply"
    assert button.custom_id == f"dvonn:plan:{Shown.of(game)}" == "dvonn:plan:7:0:5"
    assert PlanButton.__discord_ui_compiled_template__.fullmatch(button.custom_id)


def test_a_line_reads_expected_moves_then_replies_in_bold() -> None:
    start = rules.new_game()
    line = Line(Colour.BLACK, 0, tuple(rules.parse_record("E3 F4 D2 D3")))
    assert line_text(start, line) == "E3 → **F4**, D2 → **D3**"
