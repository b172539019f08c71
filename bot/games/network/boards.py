"""The network boards' use cases: which network channels' boards are behind the network's open
challenges, recording a board posted or edited, and the names and network ratings the boards
and lists of seeks show."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from bot.games.core.network import NETWORK
from bot.games.core.parts import UseCases
from bot.games.core.ratings import START_RATING
from bot.storage import GuildId, NetworkServer, UserId


class Boards(UseCases):
    """Every network channel's board of open network challenges."""

    async def behind(self, pace: timedelta, limit: int) -> tuple[int, list[NetworkServer]]:
        """The network's ``seeks`` count now, and the live servers whose board shows less and
        was not posted or edited within ``pace`` (the longest waiting first, ``limit`` at
        most)."""
        version = await self._store.seeks_version()
        return version, await self._store.boards_behind(version, self._now() - pace, limit)

    async def count(self) -> int:
        """How many boards there are: a server taking part has one."""
        return await self._store.boards_count()

    async def set_board(self, guild_id: GuildId, message_id: int | None, version: int) -> bool:
        """A server's board is ``message_id``, showing the ``seeks`` count ``version``."""
        async with self._store.write() as tx:
            return await tx.set_board(guild_id, message_id, version, self._now())

    async def names(self, user_ids: Iterable[UserId]) -> dict[UserId, str]:
        """Network names, by player (those of players whose data is deleted are missing)."""
        return await self._store.names(user_ids)

    async def rating(self, user_id: UserId) -> int:
        """A player's network rating as shown (the start rating before any network game)."""
        row = await self._store.rating(NETWORK, user_id)
        return round(START_RATING if row is None else row.rating)
