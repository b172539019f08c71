"""Who may run a server's tournaments: what the tournaments' commands and aborting a
tournament's game both ask."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.service import GameService


async def is_organiser(service: GameService, interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, or the role the server's settings name for organisers."""
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    role = (await service.guild_settings(interaction.guild_id)).organiser_role_id
    if role == interaction.guild_id:  # the @everyone role: anyone may
        return True
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None
