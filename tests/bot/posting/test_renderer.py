"""Boards drawn in worker processes are the boards drawn in this process, in either theme."""

from __future__ import annotations

import asyncio
import random
from typing import Any

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


async def test_a_board_shown_alike_in_two_posts_is_drawn_once() -> None:
    """A network game's turn in its two homes, asked for at once: one drawing; the same board in
    another language, theme or with other names, or another position, is drawn for itself."""
    pos, last = _position(60)
    renderer = Renderer(processes=0)
    try:

        async def draw(**options: Any) -> bytes:
            return await renderer.board_png(
                pos, last_move=last.move, removed=last.removed, **options
            )

        first, second = await asyncio.gather(draw(players=("a", "b")), draw(players=("a", "b")))
        assert first == second and renderer.boards_drawn == 1
        assert await draw(players=("a", "b")) == first and renderer.boards_drawn == 1
        french = render.Labels().replace(white="Blanc")
        others = [
            await draw(players=("a", "b"), theme=BoardTheme.LIGHT),
            await draw(players=("a", "c")),
            await draw(players=("a", "b"), labels=french),
            await renderer.board_png(last.before, players=("a", "b")),
        ]
        assert renderer.boards_drawn == 5
        assert len({first, *others}) == 5
        assert others[2] == render.board_png(
            pos, last_move=last.move, removed=last.removed, players=("a", "b"), labels=french
        )
    finally:
        renderer.close()


async def test_a_drawing_that_fails_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    renderer = Renderer(processes=0)
    real = render.board_png

    def broken(*args: object, **kwargs: object) -> bytes:
        raise OSError("no font")

    monkeypatch.setattr(render, "board_png", broken)
    with pytest.raises(OSError, match="no font"):
        await renderer.board_png(rules.new_game())
    monkeypatch.setattr(render, "board_png", real)
    assert (await renderer.board_png(rules.new_game())).startswith(b"\x89PNG")
    assert renderer.boards_drawn == 2
    renderer.close()
