"""The tap-to-move picker's choices, without Discord: every empty cell once, within Discord's 25
options a menu; stacks and landings labelled with what they cut off; its ids, new and old, each
found by the item they were made for."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

import rules
from bot.exts.play.picker import (
    CellMenu,
    ConfirmButton,
    LandingMenu,
    OutdatedPicker,
    Shown,
    StackMenu,
    TurnButton,
)
from bot.i18n import ENGLISH
from bot.interactions.move_labels import landing_label, stack_label
from bot.interactions.move_picker import COLUMN_GROUPS, MAX_OPTIONS

ITEMS: list[type[discord.ui.DynamicItem[Any]]] = [
    TurnButton,
    CellMenu,
    StackMenu,
    LandingMenu,
    ConfirmButton,
    OutdatedPicker,
]


def test_the_column_groups_cover_the_board_within_a_menus_options() -> None:
    groups = [[c for c in rules.CELL_NAMES if c[0] in letters] for letters in COLUMN_GROUPS]
    assert sorted(c for group in groups for c in group) == sorted(rules.CELL_NAMES)
    assert all(len(group) <= MAX_OPTIONS for group in groups)


def test_landings_say_what_they_cut_off() -> None:
    rng = random.Random(11)
    seen: dict[bool, str] = {}
    for _ in range(200):
        pos = rules.new_game()
        while not rules.is_over(pos) and len(seen) < 2:
            moves = [m for m in rules.legal_moves(pos) if m != rules.PASS]
            if not moves:
                pos = rules.play(pos, rules.PASS)
                continue
            for move in moves:
                if isinstance(move, rules.Jump):
                    cut = rules.apply(pos, move).pieces_removed
                    label = ENGLISH.render(landing_label(pos, move.source, move.target))
                    assert label.startswith(rules.CELL_NAMES[move.target])
                    if cut:
                        assert f"cuts off {cut} piece" in label
                    else:
                        assert "cuts nothing off" in label
                    seen[bool(cut)] = label
                    height = len(pos.stacks[move.source])
                    stack = ENGLISH.render(stack_label(pos, move.source))
                    assert ("single piece" in stack) == (height == 1)
            pos = rules.play(pos, rng.choice(moves))
        if len(seen) == 2:
            break
    assert set(seen) == {True, False}


@pytest.mark.parametrize(
    ("custom_id", "item"),
    [
        ("dvonn:turn:12:40", TurnButton),  # under boards posted long ago: kept as it was
        ("dvonn:cells:12:40:57:1", CellMenu),
        ("dvonn:from:12:52:69", StackMenu),
        ("dvonn:to:12:52:69:E3", LandingMenu),
        ("dvonn:confirm:12:52:69:E3F4", ConfirmButton),
        ("dvonn:confirm:12:60:77:PASS", ConfirmButton),
        # A picker opened before its ids carried the game's version (game and ply only).
        ("dvonn:cells:12:40:1", OutdatedPicker),
        ("dvonn:from:12:52", OutdatedPicker),
        ("dvonn:to:12:52:E3", OutdatedPicker),
        ("dvonn:confirm:12:52:E3F4", OutdatedPicker),
        ("dvonn:confirm:12:40:E3", OutdatedPicker),
        ("dvonn:confirm:12:60:PASS", OutdatedPicker),
    ],
)
def test_every_picker_id_finds_the_one_item_it_was_made_for(
    custom_id: str, item: type[discord.ui.DynamicItem[Any]]
) -> None:
    # What discord.py matches a click's custom_id against.
    found = [i for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
    assert found == [item]


def test_the_picker_ids_carry_the_version() -> None:
    shown = Shown(12, 52, 69)
    ids = {
        CellMenu(shown, 1).custom_id,
        StackMenu(shown).custom_id,
        LandingMenu(shown, "E3").custom_id,
        ConfirmButton(shown, "E3F4").custom_id,
    }
    assert ids == {
        "dvonn:cells:12:52:69:1",
        "dvonn:from:12:52:69",
        "dvonn:to:12:52:69:E3",
        "dvonn:confirm:12:52:69:E3F4",
    }
    for custom_id in ids:
        (item,) = [i for i in ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id)]
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        assert match is not None and Shown.read(match) == shown
