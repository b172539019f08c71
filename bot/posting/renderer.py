"""Drawing boards and replays away from the bot's event loop, in worker processes.

Pillow and the drawing code hold Python's GIL for much of a render, so rendering in a thread
slows every other thread of the bot (the database's included) while it runs: under load, reads
that take a millisecond waited hundreds. A small pool of worker processes draws instead; the
event loop only ships a position text out and PNG bytes back.

Every image is drawn in a :class:`~bot.games.core.models.BoardTheme` (``None``: the default,
dark), which the caller chooses: a server's for its public posts, a player's own for what only
they see (:class:`~bot.posting.publisher.Reader`'s ``theme``).

A board is drawn once for every post that shows it alike: a network game's turn is posted in
each of its two homes at the same moment, mostly in one language and theme, and drawing it
twice made every network move wait for two drawings (under a burst of moves, the mover's own
answer missed Discord's three seconds). The same board asked for while it is being drawn waits
for that drawing; the last :data:`BOARDS_KEPT` drawn are kept.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import render
import rules
from ai.workers import process_pool
from render.standings import StandingsTable, standings_png

if TYPE_CHECKING:  # not at run time: the workers import this module, and need no storage
    from bot.games.core.models import BoardTheme

log = logging.getLogger(__name__)

THEMES: Final[dict[str, render.Theme]] = {
    "dark": render.DEFAULT_THEME,
    "light": render.LIGHT_THEME,
}
"""The colours of each theme a server or a player may choose, by its value
(:class:`~bot.games.core.models.BoardTheme`)."""


BOARDS_KEPT: Final = 64
"""Boards drawn last, kept to be posted again (a few MB)."""


def colours(theme: BoardTheme | None) -> render.Theme:
    """The colours of ``theme``; ``None``: the default (dark)."""
    return THEMES[theme or "dark"]


def _board_png(position_text: str, options: Mapping[str, Any]) -> bytes:
    """Runs in a worker: positions travel as their text form, moves as their spelling."""
    position = rules.Position.from_text(position_text)
    kwargs = dict(options)
    if kwargs.get("last_move") is not None:
        kwargs["last_move"] = rules.parse_move(kwargs["last_move"])
    return render.board_png(position, **kwargs)


def _replay_gif(moves: list[str], options: Mapping[str, Any]) -> bytes:
    return render.replay_gif([rules.parse_move(m) for m in moves], **options)


class Renderer:
    """Renders boards in ``processes`` worker processes (``0``: in threads of this process)."""

    def __init__(self, processes: int = 1) -> None:
        self._pool: concurrent.futures.Executor | None = None
        if processes > 0:
            # spawn, not fork: the bot has threads (aiosqlite's) that fork would copy mid-state.
            # The workers end with this process, even when it is killed (ai.workers).
            self._pool = process_pool(processes, multiprocessing.get_context("spawn"))
        self.processes = processes
        self._drawn: OrderedDict[str, bytes] = OrderedDict()
        self._drawing: dict[str, asyncio.Future[bytes]] = {}
        self.boards_drawn = 0
        """Boards drawn (not found drawn already), since the start."""

    async def start(self) -> None:
        """Start the workers now (importing Pillow takes a moment) rather than on a first move."""
        await self.board_png(rules.new_game())

    async def board_png(
        self,
        position: rules.Position,
        *,
        last_move: rules.Move | None = None,
        theme: BoardTheme | None = None,
        **options: Any,
    ) -> bytes:
        options["theme"] = colours(theme)
        key = repr((position.to_text(), str(last_move), sorted(options.items())))
        if (png := self._drawn.get(key)) is not None:
            self._drawn.move_to_end(key)
            return png
        drawing = self._drawing.get(key)
        if drawing is not None and drawing.get_loop() is asyncio.get_running_loop():
            return await asyncio.shield(drawing)
        drawing = asyncio.ensure_future(self._draw_board(position, last_move, options))
        self._drawing[key] = drawing
        drawing.add_done_callback(functools.partial(self._keep, key))
        return await asyncio.shield(drawing)

    def _keep(self, key: str, drawing: asyncio.Future[bytes]) -> None:
        """A board's drawing is over: kept, if drawn (a failure is only its askers')."""
        if self._drawing.get(key) is drawing:
            del self._drawing[key]
        if drawing.cancelled() or drawing.exception() is not None:
            return
        self._drawn[key] = drawing.result()
        while len(self._drawn) > BOARDS_KEPT:
            self._drawn.popitem(last=False)

    async def _draw_board(
        self, position: rules.Position, last_move: rules.Move | None, options: dict[str, Any]
    ) -> bytes:
        self.boards_drawn += 1
        if self._pool is None:
            return await asyncio.to_thread(
                render.board_png, position, last_move=last_move, **options
            )
        options = {**options, "last_move": None if last_move is None else str(last_move)}
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _board_png, position.to_text(), options)

    async def replay_gif(
        self, moves: list[rules.Move], *, theme: BoardTheme | None = None, **options: Any
    ) -> bytes:
        options["theme"] = colours(theme)
        texts = [str(m) for m in moves]
        if self._pool is None:
            return await asyncio.to_thread(_replay_gif, texts, options)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, _replay_gif, texts, options)

    async def graph_png(
        self, curve: Sequence[float], *, theme: BoardTheme | None = None, **options: Any
    ) -> bytes:
        """A review's evaluation graph (:func:`render.evaluation_graph_png`; its marks cross
        to the worker as they are)."""
        draw = functools.partial(
            render.evaluation_graph_png, list(curve), theme=colours(theme), **options
        )
        if self._pool is None:
            return await asyncio.to_thread(draw)
        return await asyncio.get_running_loop().run_in_executor(self._pool, draw)

    async def standings_png(
        self, table: StandingsTable, *, theme: BoardTheme | None = None, **options: Any
    ) -> bytes:
        """A tournament's standings (:func:`render.standings.standings_png`)."""
        draw = functools.partial(standings_png, table, theme=colours(theme), **options)
        if self._pool is None:
            return await asyncio.to_thread(draw)
        return await asyncio.get_running_loop().run_in_executor(self._pool, draw)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
