"""Boards drawn in worker processes are the boards drawn in this process, in either theme."""

from __future__ import annotations

import random

import pytest

import render
import rules
from bot.posting.renderer import THEMES, Renderer, colours
from bot.storage.models import BoardTheme


def _position(plies: int) -> tuple[rules.Position, rules.MoveResult]:
    rng = random.Random(3)
    pos = rules.new_game()
    result = None
    for _ in range(plies):
        result = rules.apply(pos, rng.choice(rules.legal_moves(pos)))
        pos = result.after
    assert result is not None
    return pos, result


@pytest.mark.slow
async def test_worker_processes_draw_the_same_png() -> None:
    pos, last = _position(60)
    expected = render.board_png(pos, last_move=last.move, removed=last.removed, players=("a", "б"))
    light = render.board_png(pos, players=("a", "б"), theme=render.LIGHT_THEME)
    renderer = Renderer(processes=1)
    try:
        await renderer.start()
        drawn = await renderer.board_png(
            pos, last_move=last.move, removed=last.removed, players=("a", "б")
        )
        drawn_light = await renderer.board_png(pos, players=("a", "б"), theme=BoardTheme.LIGHT)
        replay = await renderer.replay_gif([r.move for r in [last]], start=last.before)
    finally:
        renderer.close()
    assert drawn == expected
    assert drawn_light == light != render.board_png(pos, players=("a", "б"))
    assert replay.startswith(b"GIF8")


async def test_threads_when_no_processes_are_wanted() -> None:
    renderer = Renderer(processes=0)
    png = await renderer.board_png(rules.new_game())
    assert png.startswith(b"\x89PNG")
    renderer.close()


def test_every_theme_a_server_or_player_may_choose_has_its_colours() -> None:
    assert set(THEMES) == {theme.value for theme in BoardTheme}
    assert colours(None) is render.DEFAULT_THEME  # nothing chosen: the default, dark
    assert colours(BoardTheme.DARK) is render.DEFAULT_THEME
    assert colours(BoardTheme.LIGHT) is render.LIGHT_THEME
