"""What every feature of the game service works over, handed to each by the composition root.

A feature's use cases (:class:`UseCases`) read and write through one :class:`~bot.storage.Store`,
tell the time by one clock, queue their posts in one :class:`~bot.games.core.outbox.Outbox`, and
end games with the one :class:`~bot.games.core.endings.GameEndHooks` every ending runs. The root
(:class:`bot.games.service.GameService`) makes one :class:`Shared` and gives it to every feature,
so a new feature takes one argument, not four.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.games.core.endings import GameEndHooks
from bot.games.core.outbox import Outbox
from bot.storage import Store


@dataclass(frozen=True, slots=True)
class Shared:
    """The store, the clock (aware, UTC), the outbox and the game-end hooks."""

    store: Store
    now: Callable[[], datetime]
    outbox: Outbox
    hooks: GameEndHooks


class UseCases:
    """The base of a feature's use cases: what they work over, as private attributes."""

    def __init__(self, shared: Shared) -> None:
        self._store = shared.store
        self._now = shared.now
        self._outbox = shared.outbox
        self._hooks = shared.hooks
