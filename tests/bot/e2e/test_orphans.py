"""No orphans: ``python -m bot`` killed (SIGKILL) takes its worker processes with it.

Killed without a chance to shut its pools down (``kill -9``, the OOM killer), the bot used to
leave its board-drawing workers, the engine's workers and multiprocessing's resource tracker
alive, re-parented to pid 1, waiting for work for ever (ai.workers says how they now end).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.e2e.conftest import Table
from tests.bot.e2e.test_crashes import bot_process, game_id_in, stored
from tests.processes import HAS_PROC, command_line, descendants, survivors

pytestmark = [
    pytest.mark.slow,  # a real process, and a few seconds for its workers to end
    pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from /proc"),
]


def _workers(pids: set[int]) -> set[int]:
    """The pool workers among ``pids`` (multiprocessing starts them with ``spawn_main``)."""
    return {p for p in pids if "spawn_main" in command_line(p)}


async def test_the_workers_end_within_seconds_of_the_bot_being_killed(
    table: Table, tmp_path: Path
) -> None:
    fake = table.fake
    settings = {"DVONN_RENDER_PROCESSES": "1", "DVONN_AI_PROCESSES": "1"}
    async with bot_process(table, tmp_path, **settings) as bot:
        assert bot.process is not None
        main = bot.process.pid
        # Ready, it has drawn a first board in its drawing worker; the engine starts on demand.
        drawing = _workers(descendants(main))
        assert len(drawing) == 1, [command_line(p) for p in descendants(main)]
        versus = await fake.run_command(
            table.carol, table.no_threads, "dvonn play-bot", {"level": "beginner", "colour": "B"}
        )
        assert not versus.ephemeral, versus.content
        game = await game_id_in(table, bot.database, table.no_threads)
        await fake.wait_until(  # the bot, White, has thought in the engine's worker and placed
            lambda: stored(bot.database, game).record, timeout=30, what="the bot's first move"
        )
        below = descendants(main)
        thinking = _workers(below) - drawing
        assert len(thinking) == 1, [command_line(p) for p in below]
        assert any("resource_tracker" in command_line(p) for p in below), below
        await bot.kill()
        left = await survivors(below, timeout=5)
        assert not left, [command_line(p) for p in left]
