"""The tap-to-move picker's choices, without Discord: every empty cell once, within Discord's 25
options a menu; stacks and landings labelled with what they cut off."""

from __future__ import annotations

import random

import rules
from bot.exts.play.moves import stack_label
from bot.exts.play.picker import COLUMN_GROUPS, MAX_OPTIONS, _landing_label
from bot.i18n import ENGLISH


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
                    label = ENGLISH.render(_landing_label(pos, move.source, move.target))
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
