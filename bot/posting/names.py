"""Display names of players, remembered from interactions and fetched when unknown.

Default intents do not include the member list, so a player who has not interacted since the
bot started is fetched once from the API and remembered.
"""

from __future__ import annotations

import logging
from typing import Final

import discord

log = logging.getLogger(__name__)

MAX_REMEMBERED: Final = 10_000


class Names:
    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._names: dict[int, str] = {}

    def remember(self, user: discord.abc.User) -> None:
        if len(self._names) >= MAX_REMEMBERED:
            self._names.clear()  # rare; refetching is cheap
        self._names[user.id] = user.display_name

    async def get(self, user_id: int) -> str:
        """The user's display name (their global name or username); never raises."""
        name = self._names.get(user_id)
        if name is not None:
            return name
        if user_id <= 0:  # a forgotten player's placeholder (bot.storage.forget): no such user
            return f"#{user_id}"
        user = self._client.get_user(user_id)
        if user is None:
            try:
                user = await self._client.fetch_user(user_id)
            except discord.HTTPException:
                log.warning("could not fetch the name of user %s", user_id)
                return f"#{user_id}"
        self.remember(user)
        return user.display_name
