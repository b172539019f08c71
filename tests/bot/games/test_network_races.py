"""Races of the network, on both backends: a seek accepted at once by several players over two
connections, or from separate processes, makes exactly one game; a network game's homes made
ready at once (from two connections) begin it exactly once.

This module is also the child process of the multi-process race:
``python -m tests.bot.games.test_network_races <db> <challenge> <user> <go-file>``.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.core import announcements as kinds
from bot.games.core.errors import ServiceError
from bot.games.network.errors import NetworkChallengeTaken
from bot.games.service import GameService
from bot.storage import Store, open_database
from bot.storage.models import ChallengeStatus, GameStatus
from tests.conftest import REPO_ROOT

GUILD_A, GUILD_B, CHANNEL_A, CHANNEL_B = 501, 502, 601, 602
ALICE = 11
TAKERS = (22, 33, 44, 55, 66, 77)
"""Members homed in B, who all want Alice's seek."""


@pytest.fixture
def db_path(database_target: str) -> str:
    return database_target


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[GameService]:
    service = GameService(Store(await open_database(db_path)), rng=random.Random(1))
    await service.network.set_channel(GUILD_A, CHANNEL_A, 1)
    await service.network.set_channel(GUILD_B, CHANNEL_B, 1)
    await service.network.join(ALICE, "Alice", GUILD_A)
    for n, taker in enumerate(TAKERS):
        await service.network.join(taker, f"Taker {n}", GUILD_B)
    yield service
    await service.close()


@pytest.fixture
async def other(db_path: str, service: GameService) -> AsyncIterator[GameService]:
    """A second service over its own connection (another process's, as far as the database
    can tell)."""
    other = GameService(Store(await open_database(db_path)), rng=random.Random(2))
    yield other
    await other.close()


async def _seek(service: GameService) -> int:
    challenge = await service.network.challenge(ALICE, guild_id=GUILD_A, channel_id=CHANNEL_A)
    return challenge.id


async def _games(service: GameService) -> list[int]:
    rows = await service.store.db.fetch_all("SELECT id FROM games WHERE network = 1 ORDER BY id")
    return [int(row["id"]) for row in rows]


async def _started_once(service: GameService, game_id: int) -> bool:
    """Whether the game's start was written once: one row (or, with the outbox's homes, one
    row a home), never two for one place."""
    rows = await service.store.db.fetch_all(
        "SELECT home FROM notifications WHERE kind = ? AND game_id = ?",
        (kinds.GAME_STARTED, game_id),
    )
    homes = [row["home"] for row in rows]
    return bool(homes) and len(set(homes)) == len(homes)


async def test_a_seek_accepted_at_once_over_two_connections_makes_one_game(
    service: GameService, other: GameService
) -> None:
    for _ in range(3):
        challenge_id = await _seek(service)
        before = await _games(service)
        results = await asyncio.gather(
            *(
                (service if n % 2 else other).network.accept(challenge_id, taker)
                for n, taker in enumerate(TAKERS)
            ),
            return_exceptions=True,
        )
        won = [r for r in results if not isinstance(r, BaseException)]
        lost = [r for r in results if isinstance(r, BaseException)]
        assert len(won) == 1, results
        assert all(isinstance(e, NetworkChallengeTaken) for e in lost), lost
        made = [g for g in await _games(service) if g not in before]
        assert made == [won[0].game.id]
        challenge = await service.get_challenge(challenge_id)
        assert challenge.status is ChallengeStatus.ACCEPTED and challenge.game_id == made[0]
        assert len(await service.network.games.homes(made[0])) == 2


async def test_a_network_game_s_homes_ready_at_once_begin_it_once(
    service: GameService, other: GameService
) -> None:
    for n in range(4):
        started = await service.network.accept(await _seek(service), TAKERS[n])
        game_id = started.game.id
        calls = [
            (service if i % 2 else other).network.home_ready(
                game_id, home.seat, 900 + 10 * n + i, home.parent_channel_id
            )
            for i, home in enumerate(started.homes)
        ]
        # Each home twice over, besides: a second try of the same process or another's.
        calls += [
            (other if i % 2 else service).network.home_ready(
                game_id, home.seat, 900 + 10 * n + i, home.parent_channel_id
            )
            for i, home in enumerate(started.homes)
        ]
        results = await asyncio.gather(*calls)
        assert sum(r.started is not None for r in results) == 1, results
        game = await service.get_game(game_id)
        assert game.status is GameStatus.ACTIVE and game.version == 1
        assert await _started_once(service, game_id)


@pytest.mark.slow
async def test_a_seek_accepted_from_separate_processes_makes_one_game(
    service: GameService, db_path: str, tmp_path: Path
) -> None:
    challenge_id = await _seek(service)
    go = tmp_path / "go"
    children = [
        subprocess.Popen(
            [
                *[sys.executable, "-m", "tests.bot.games.test_network_races"],
                *[str(db_path), str(challenge_id), str(taker), str(go)],
            ],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for taker in TAKERS[:4]
    ]
    try:
        for child in children:  # every child has opened the database and loaded its code
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready", child.stderr
        go.touch()
        outputs = [child.communicate(timeout=60) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    answers = [out.strip() for out, _ in outputs]
    assert all(child.returncode == 0 for child in children), [err for _, err in outputs]
    assert answers.count("applied") == 1, answers
    assert set(answers) <= {"applied", NetworkChallengeTaken.key}, answers
    assert len(await _games(service)) == 1


async def _child(db: str, challenge_id: int, user: int, go: str) -> None:
    service = GameService(Store(await open_database(db)))
    try:
        print("ready", flush=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(go) and time.monotonic() < deadline:
            time.sleep(0.0002)  # a tight wait, so that the children start together
        try:
            await service.network.accept(challenge_id, user)
        except ServiceError as error:
            print(error.key, flush=True)
        else:
            print("applied", flush=True)
    finally:
        await service.close()


if __name__ == "__main__":
    db, challenge_id, user, go = sys.argv[1:5]
    asyncio.run(_child(db, int(challenge_id), int(user), go))
