"""A pool's workers end with the process that made it, even when that one is killed."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.processes import HAS_PROC, command_line, descendants, survivors

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from /proc")

# A process that starts a pool of two workers (with the start method it is given), says so in
# a file (not on a pipe, which workers left behind would hold open), and waits to be killed.
POOL_MAKER = """
import multiprocessing, pathlib, sys, time
from ai.workers import process_pool

pool = process_pool(2, multiprocessing.get_context(sys.argv[1]))
for started in [pool.submit(time.sleep, 0.3) for _ in range(2)]:
    started.result()
pathlib.Path("ready").touch()
time.sleep(60)
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver", "fork"])
async def test_the_workers_end_when_their_maker_is_killed(method: str, tmp_path: Path) -> None:
    maker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        POOL_MAKER,
        method,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    try:
        async with asyncio.timeout(30):
            while not (tmp_path / "ready").exists():
                assert maker.returncode is None, "the pool's maker failed"
                await asyncio.sleep(0.05)
        below = descendants(maker.pid)  # the workers, and the helpers the method starts
        assert len(below) >= 2, [command_line(p) for p in below]
    finally:
        maker.send_signal(signal.SIGKILL)
        await maker.wait()
    left = await survivors(below, timeout=5)
    assert not left, [command_line(p) for p in left]
