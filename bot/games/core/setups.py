"""Random setups: the 49 placements made by the bot when a game begins, so that its players
start with the movement (Board Game Arena's option; the placement is the slow half of a
correspondence game).

The placements follow the rules' own order, as players would make them: while the game is in
its placement phase, the side to act places on a cell drawn at random among the empty ones
(the three DVONN pieces first, White, Black, White; then Black's and White's own pieces in
turn). The cells are drawn, in cell order, by a :class:`random.Random` seeded with the game's
seed, so the seed alone makes the same 49 placements again (CPython's ``Random`` draws the same
from the same integer seed on every platform and version this bot runs on). Seeds come from a
cryptographic source (:mod:`secrets`), so nobody can choose or foresee a setup; the game keeps
its seed (``games.setup_seed``) and records the placements as ordinary moves, marked automatic
(not the players' own acts), so every reader of a record (history, export, replay, review,
ratings) works on it unchanged.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime
from typing import Final

import rules
from bot.games.core.turns import new_moves, played_move
from bot.storage import Game, Setup, Writer

SEED_BITS: Final = 63
"""A seed fits a signed 64-bit column on both backends."""


def new_seed() -> int:
    """A seed for a new random setup, from the operating system's cryptographic source."""
    return secrets.randbits(SEED_BITS)


def random_placements(seed: int) -> list[rules.MoveResult]:
    """The 49 placements of the random setup ``seed`` names, from the empty board, in order
    (the last result's ``after`` is the position where the movement begins)."""
    if not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"a setup's seed is a {SEED_BITS}-bit number, not {seed}")
    draw = random.Random(seed)
    position = rules.new_game()
    placed: list[rules.MoveResult] = []
    while position.is_placement:
        cells = sorted(m.cell for m in rules.legal_moves(position) if isinstance(m, rules.Place))
        result = rules.apply(position, rules.Place(draw.choice(cells)))
        placed.append(result)
        position = result.after
    return placed


def random_setup(seed: int) -> list[rules.MoveResult]:
    """What a game of the random setup ``seed`` begins with: its 49 placements
    (:func:`random_placements`), then a PASS for each side to act that has no move (the rules
    allow it in principle: White's pieces all surrounded), as a move would be followed."""
    played = random_placements(seed)
    position = played[-1].after
    while rules.legal_moves(position) == (rules.PASS,):
        played.append(rules.apply(position, rules.PASS))
        position = played[-1].after
    return played


def new_opening(setup: Setup) -> tuple[int | None, list[rules.MoveResult]]:
    """A new game's setup: its seed and what it places (nothing for a standard one)."""
    if setup is Setup.STANDARD:
        return None, []
    seed = new_seed()
    return seed, random_setup(seed)


async def record_opening(
    tx: Writer, game: Game, opening: list[rules.MoveResult], now: datetime
) -> None:
    """Record a random setup's placements as the game's first moves: automatic, for they are
    not the players' own acts (a player who never moved after them is still absent)."""
    played = [played_move(game, result, now, automatic=True) for result in opening]
    await tx.append_moves(game.id, new_moves(played, game, game))
