"""The lobby's checks: a channel free for a new game; and, from the core (the network's
challenges make them too), a clock that is offered and a challenge still open."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.games.core.checks import check_clock, check_open, unexpired_challenge
from bot.games.lobby.errors import ChannelBusy
from bot.storage import ChannelTaken, Store

__all__ = ["channel_taken", "check_clock", "check_open", "unexpired_challenge"]


@contextlib.asynccontextmanager
async def channel_taken(store: Store) -> AsyncIterator[None]:
    """Turns the database's refusal of a second running game in a channel, which another
    process's transaction started beside this one's, into the player's error."""
    try:
        yield
    except ChannelTaken as taken:
        busy = await store.active_game_in_channel(taken.channel_id)
        raise ChannelBusy(0 if busy is None else busy.id, taken.channel_id) from None
