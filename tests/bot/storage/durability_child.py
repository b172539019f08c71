"""The child of :mod:`tests.bot.storage.test_durability`, killed there at random moments.

``python -m tests.bot.storage.durability_child <db> <game> <seed>`` plays random legal moves
for both sides and prints ``ok <ply> <move>`` for each one the service accepted, right after
the call returned. A module of its own, importing neither pytest nor the tests' fixtures: the
test starts it some thirty times, and each start is spent importing.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import rules
from bot.games.service import GameService
from bot.storage import SQLiteDatabase, Store


async def open_service(path: Path | str) -> GameService:
    return GameService(Store(await SQLiteDatabase.open(path)))


async def _child(path: str, game_id: int, seed: int) -> None:
    service = await open_service(path)
    print("ready", flush=True)
    rng = random.Random(seed)
    game = await service.get_game(game_id)
    while game.is_active:
        assert game.to_move_id is not None
        outcome = await service.play(
            game_id, game.to_move_id, rng.choice(rules.legal_moves(game.position))
        )
        for move in outcome.moves:
            sys.stdout.write(f"ok {move.ply} {move.text}\n")  # one write: one whole line
            sys.stdout.flush()
        game = outcome.game
    await service.close()


if __name__ == "__main__":
    db, game, seed = sys.argv[1:4]
    asyncio.run(_child(db, int(game), int(seed)))
