"""The Join button under a tournament's post, and what it shares with ``join``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.tournaments.texts import tournament_line
from bot.games.core.models import TournamentStatus
from bot.games.service import GameService
from bot.i18n import _, n_
from bot.interactions.buttons import BotButton, label
from bot.interactions.errors import UserError
from bot.posting.publisher import Publisher, Reader

if TYPE_CHECKING:
    from bot.app import Interaction


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise UserError(_("Tournaments belong to servers: use this command in one."))
    return interaction.guild_id


def roles_of(interaction: discord.Interaction[Any]) -> list[int]:
    user = interaction.user
    return [r.id for r in user.roles] if isinstance(user, discord.Member) else []


async def join_tournament(
    service: GameService,
    publisher: Publisher,
    interaction: discord.Interaction[Any],
    tournament_id: int | None,
) -> None:
    """Enter ``interaction``'s user (the command and the button)."""
    found = await service.tournaments.choose(
        guild_of(interaction),
        tournament_id,
        statuses=(TournamentStatus.OPEN, TournamentStatus.RUNNING),
    )
    joined = await service.tournaments.join(found.id, interaction.user.id, roles_of(interaction))
    publisher.names.remember(interaction.user)
    reader = publisher.private_reader(interaction)
    text = n_(
        "You are in {tournament} ({count} player).",
        "You are in {tournament} ({count} players).",
        joined.players,
        tournament=tournament_line(joined.tournament),
    )
    if joined.started:
        text = _(
            "You are in {tournament}: it is full, and has begun. Your games get their threads "
            "here.",
            tournament=tournament_line(joined.tournament),
        )
    elif joined.tournament.is_league and joined.tournament.is_running:
        text = _(
            "You are in {tournament}: you play from its next season, in the lowest division.",
            tournament=tournament_line(joined.tournament),
        )
    await interaction.response.send_message(reader(text), ephemeral=True)


class JoinButton(BotButton, template=r"dvonn:tournament:(?P<id>\d+):join"):
    """Under a tournament's post: enter it."""

    def __init__(self, tournament_id: int, reader: Reader | None = None) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Join")),
                style=discord.ButtonStyle.success,
                custom_id=f"dvonn:tournament:{tournament_id}:join",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        client = interaction.client
        await join_tournament(client.service, client.publisher, interaction, self.tournament_id)
        await client.deliverer.deliver_pending()


def join_view(tournament_id: int, reader: Reader) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(tournament_id, reader))
    return view
