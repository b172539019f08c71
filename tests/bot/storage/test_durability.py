"""Durability: a process playing moves is killed with SIGKILL at random moments.

After each kill, every move the child had been told was accepted is in the database,
``PRAGMA integrity_check`` is ok, the record has no gap and replays to the stored position, and
the game carries on (in the next child, and finally here) to its end.

The child is :mod:`tests.bot.storage.durability_child`:
``python -m tests.bot.storage.durability_child <db> <game> <seed>`` plays random legal moves
for both sides and prints ``ok <ply> <move>`` for each one the service accepted, right after
the call returned.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from pathlib import Path

import pytest

import rules
from bot.storage import SQLiteDatabase
from rules import Colour
from tests.bot.storage.durability_child import open_service
from tests.conftest import REPO_ROOT

# Starts and SIGKILLs child processes for a whole game (about 1 s).
pytestmark = pytest.mark.slow

ALICE, BOB = 11, 22
ROUNDS = 30


async def _check(path: Path, game_id: int, acknowledged: dict[int, str]) -> bool:
    """Check the file after a kill; returns whether the game is still running."""
    service = await open_service(path)
    try:
        assert isinstance(service.store.db, SQLiteDatabase)
        assert await service.store.db.integrity_check() == ["ok"]
        record = await service.record(game_id)
        assert [m.ply for m in record.moves] == list(range(record.game.ply))
        assert record.positions()[-1] == record.game.position
        recorded = {m.ply: m.text for m in record.moves}
        missing = {ply: text for ply, text in acknowledged.items() if recorded.get(ply) != text}
        assert not missing, f"acknowledged but lost: {missing}"
        return record.game.is_active
    finally:
        await service.close()


async def test_acknowledged_moves_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "dvonn.sqlite3"
    service = await open_service(path)
    challenge = await service.create_challenge(
        guild_id=1, channel_id=2, challenger_id=ALICE, opponent_id=BOB, colour=Colour.WHITE
    )
    game_id = (await service.accept_challenge(challenge.id, BOB)).game.id
    await service.close()

    rng = random.Random(20250101)
    acknowledged: dict[int, str] = {}
    killed = 0
    running = True
    for round_number in range(ROUNDS):
        child = await asyncio.create_subprocess_exec(
            *[sys.executable, "-m", "tests.bot.storage.durability_child"],
            *[str(path), str(game_id), str(round_number)],
            cwd=REPO_ROOT,
            stdout=asyncio.subprocess.PIPE,
        )
        assert child.stdout is not None
        assert (await child.stdout.readline()).strip() == b"ready"
        await asyncio.sleep(rng.uniform(0, 0.03))  # kill it anywhere: between or inside commits
        if child.returncode is None:
            child.send_signal(signal.SIGKILL)
        output = (await child.stdout.read()).decode()
        returncode = await child.wait()
        killed += returncode == -signal.SIGKILL
        # A line cut short by the kill was never fully said: only whole lines count.
        for line in output.splitlines(keepends=True):
            if line.startswith("ok ") and line.endswith("\n"):
                _, ply, text = line.split()
                acknowledged[int(ply)] = text
        running = await _check(path, game_id, acknowledged)
        if not running:
            break
    assert killed >= 3, "the child was hardly ever killed: the test proved little"
    assert len(acknowledged) >= 20

    # The game continues to its end in a new process (this one), from where the last child left.
    service = await open_service(path)
    try:
        game = await service.get_game(game_id)
        play = random.Random(7)
        while game.is_active:
            assert game.to_move_id is not None
            move = play.choice(rules.legal_moves(game.position))
            game = (await service.play(game.id, game.to_move_id, move)).game
        assert game.score == rules.score(game.position)
    finally:
        await service.close()
    await _check(path, game_id, acknowledged)
