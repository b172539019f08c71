"""Races: many attempts at the same move, from one process, two connections or several processes.

Exactly one attempt may be applied, every other one gets a clear error, and the record never
has a gap.

This module is also the child process of the multi-process race:
``python -m tests.bot.games.test_races <db> <game> <user> <move> <go-file>``.
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

import rules
from bot.games.core.errors import GameChanged, GameFinished, ServiceError
from bot.games.play.errors import NotYourTurn
from bot.games.service import GameService
from bot.storage import Game, Store, open_database
from bot.storage.models import GameStatus
from rules import Colour
from tests.conftest import REPO_ROOT

ALICE, BOB = 11, 22


@pytest.fixture
def db_path(database_target: str) -> str:
    return database_target


@pytest.fixture
async def service(db_path: str) -> AsyncIterator[GameService]:
    service = GameService(Store(await open_database(db_path)), rng=random.Random(1))
    yield service
    await service.close()


@pytest.fixture
async def game(service: GameService) -> Game:
    challenge = await service.create_challenge(
        guild_id=1, channel_id=2, challenger_id=ALICE, opponent_id=BOB, colour=Colour.WHITE
    )
    return (await service.accept_challenge(challenge.id, BOB)).game


async def _assert_record_is_whole(service: GameService, game_id: int) -> Game:
    record = await service.record(game_id)
    assert [m.ply for m in record.moves] == list(range(record.game.ply))
    assert record.positions()[-1] == record.game.position
    return record.game


def _split(results: list[object]) -> tuple[list[object], list[BaseException]]:
    applied = [r for r in results if not isinstance(r, BaseException)]
    failed = [r for r in results if isinstance(r, BaseException)]
    return applied, failed


async def test_many_identical_moves_at_once(service: GameService, game: Game) -> None:
    results = await asyncio.gather(
        *(service.play(game.id, ALICE, "E3") for _ in range(25)), return_exceptions=True
    )
    applied, failed = _split(list(results))
    assert len(applied) == 1
    assert all(isinstance(e, GameChanged | NotYourTurn) for e in failed), failed
    stored = await _assert_record_is_whole(service, game.id)
    assert stored.ply == 1 and stored.version == game.version + 1


async def test_different_moves_by_the_same_player_at_once(service: GameService, game: Game) -> None:
    cells = ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]
    results = await asyncio.gather(
        *(service.play(game.id, ALICE, cell) for cell in cells), return_exceptions=True
    )
    applied, failed = _split(list(results))
    assert len(applied) == 1 and len(failed) == len(cells) - 1
    assert all(isinstance(e, GameChanged | NotYourTurn) for e in failed), failed
    stored = await _assert_record_is_whole(service, game.id)
    assert stored.ply == 1


async def test_identical_moves_over_two_connections(
    service: GameService, game: Game, db_path: str
) -> None:
    other = GameService(Store(await open_database(db_path)))
    try:
        attempts = [(service if i % 2 else other).play(game.id, ALICE, "E3") for i in range(20)]
        results = await asyncio.gather(*attempts, return_exceptions=True)
    finally:
        await other.close()
    applied, failed = _split(list(results))
    assert len(applied) == 1
    assert all(isinstance(e, GameChanged | NotYourTurn) for e in failed), failed
    await _assert_record_is_whole(service, game.id)


async def test_a_move_racing_a_resignation_is_never_lost(service: GameService, game: Game) -> None:
    moved, resigned = await asyncio.gather(
        service.play(game.id, ALICE, "E3"), service.resign(game.id, BOB), return_exceptions=True
    )
    assert not isinstance(resigned, BaseException)
    stored = await _assert_record_is_whole(service, game.id)
    assert stored.status is GameStatus.FINISHED
    if isinstance(moved, BaseException):  # the resignation came first: the move was refused
        assert isinstance(moved, GameChanged | GameFinished) and stored.ply == 0
    else:  # the move came first, then the resignation, in the position after it
        assert stored.ply == 1 and stored.version == game.version + 2


@pytest.mark.slow
async def test_a_whole_game_played_by_duplicated_clients(
    service: GameService, game: Game, db_path: str
) -> None:
    """Each player runs three clients over two connections, all playing as fast as they can."""
    other = GameService(Store(await open_database(db_path)))
    applied: list[int] = []

    async def client(svc: GameService, user: int, seed: int) -> None:
        rng = random.Random(seed)
        while True:
            current = await svc.get_game(game.id)
            if not current.is_active:
                return
            if current.to_move_id != user:
                await asyncio.sleep(0)
                continue
            move = rng.choice(rules.legal_moves(current.position))
            try:
                outcome = await svc.play(game.id, user, move, expected_version=current.version)
            except (GameChanged, NotYourTurn, GameFinished):
                continue
            applied.append(outcome.move.ply)

    try:
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    client(svc, user, seed)
                    for seed, (svc, user) in enumerate(
                        [
                            *[(service, ALICE), (other, ALICE), (other, ALICE)],
                            *[(service, BOB), (service, BOB), (other, BOB)],
                        ]
                    )
                )
            ),
            timeout=60,
        )
    finally:
        await other.close()
    stored = await _assert_record_is_whole(service, game.id)
    assert stored.status is GameStatus.FINISHED and rules.is_over(stored.position)
    record = await service.record(game.id)
    assert sorted(applied) == [m.ply for m in record.moves if not m.automatic]


@pytest.mark.slow
async def test_identical_moves_from_separate_processes(
    service: GameService, game: Game, db_path: str, tmp_path: Path
) -> None:
    go = tmp_path / "go"
    children = [
        subprocess.Popen(
            [
                *[sys.executable, "-m", "tests.bot.games.test_races"],
                *[str(db_path), str(game.id), str(ALICE), "E3", str(go)],
            ],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
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
    assert set(answers) <= {"applied", "game.changed", "game.not_your_turn"}, answers
    stored = await _assert_record_is_whole(service, game.id)
    assert stored.ply == 1


async def _child(db: str, game_id: int, user: int, move: str, go: str) -> None:
    service = GameService(Store(await open_database(db)))
    try:
        print("ready", flush=True)
        deadline = time.monotonic() + 30
        while not os.path.exists(go) and time.monotonic() < deadline:
            time.sleep(0.0002)  # a tight wait, so that the children start together
        try:
            await service.play(game_id, user, move)
        except ServiceError as error:
            print(error.key, flush=True)
        else:
            print("applied", flush=True)
    finally:
        await service.close()


if __name__ == "__main__":
    db, game_id, user, move, go = sys.argv[1:6]
    asyncio.run(_child(db, int(game_id), int(user), move, go))
