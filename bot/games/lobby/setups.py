"""Random setups (:mod:`bot.games.core.setups`, where every feature that begins games finds
them), named here as they always were."""

from __future__ import annotations

from bot.games.core.setups import (
    SEED_BITS,
    new_opening,
    new_seed,
    random_placements,
    random_setup,
    record_opening,
)

__all__ = [
    "SEED_BITS",
    "new_opening",
    "new_seed",
    "random_placements",
    "random_setup",
    "record_opening",
]
