"""A network challenge's buttons (``dvonn:net:challenge:<id>:(accept|decline|cancel)``: its
post where made, a direct one's post in its opponent's home, its challenger's confirmation),
and the menu of seeks (``dvonn:net:pick``: on every network board and in ``/network seeks``),
whose choice accepts, after the same checks.

Accepting begins a network game in its players' homes: the rows that make them are posted in
their own lanes, and the last one made begins the game (:mod:`.homes`). Every refusal (one's own
challenge, a block, a server that left, a challenge already taken...) is the service's, answered
privately by the one error handler.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.exts.network.commands import home_guild, network_name, refresh_name
from bot.exts.network.seek_texts import seek_option, taken_text
from bot.games.core.models import Challenge, HomeSeat
from bot.games.network.seeking import NetworkGameStarted
from bot.i18n import Text, _
from bot.interactions.buttons import BotButton, BotMenu, label
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

ACTIONS: Final = ("accept", "decline", "cancel")
PICK: Final = "dvonn:net:pick"
MENU_LABEL: Final = 100  # Discord's longest option label


class NetworkChallengeButton(
    BotButton,
    template=r"dvonn:net:challenge:(?P<id>\d+):(?P<action>accept|decline|cancel)",
):
    STYLES: Final = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.secondary,
        "cancel": discord.ButtonStyle.danger,
    }
    LABELS: Final = {"accept": _("Accept"), "decline": _("Decline"), "cancel": _("Cancel")}

    def __init__(self, challenge_id: int, action: str, reader: Reader | None = None) -> None:
        self.challenge_id = challenge_id
        self.action = action
        super().__init__(
            discord.ui.Button(
                label=label(reader, self.LABELS[action]),
                style=self.STYLES[action],
                custom_id=f"dvonn:net:challenge:{challenge_id}:{action}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> NetworkChallengeButton:
        return cls(int(match["id"]), match["action"])

    async def run(self, interaction: Interaction) -> None:
        await refresh_name(interaction)
        network = interaction.client.service.network
        reader = interaction.client.publisher.private_reader(interaction)
        name = await player_name(interaction)
        if self.action == "accept":
            await accept(interaction, self.challenge_id, edit=True)
            return
        tapped = None if interaction.message is None else interaction.message.id
        if self.action == "decline":
            await network.decline(self.challenge_id, interaction.user.id, tapped=tapped)
            said = _("{player} declined the network challenge.", player=name)
        else:
            await network.cancel(self.challenge_id, interaction.user.id, tapped=tapped)
            said = _("{player} cancelled the network challenge.", player=name)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(content=reader(said), view=None)
            return
        public = await interaction.client.publisher.public_reader(interaction.guild_id, interaction)
        await interaction.response.edit_message(
            content=public(said), view=None, allowed_mentions=discord.AllowedMentions.none()
        )


class SeekMenu(BotMenu, template=r"dvonn:net:pick"):
    """The seeks to pick one from: choosing accepts it."""

    def __init__(self, options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=PICK,
                options=list(options) or [discord.SelectOption(label="-", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> SeekMenu:
        return cls()

    async def run(self, interaction: Interaction) -> None:
        await refresh_name(interaction)
        chosen = self.chosen
        if chosen is None or not chosen.isdigit():
            return
        await accept(interaction, int(chosen), edit=False)


async def player_name(interaction: Interaction) -> str:
    """The user's network name (their global name, if they are not a member)."""
    member = await interaction.client.service.network.member(interaction.user.id)
    return network_name(interaction.user) if member is None else member.name


async def accept(interaction: Interaction, challenge_id: int, *, edit: bool) -> None:
    """``interaction``'s user accepts network challenge ``challenge_id``: the game is made in
    its players' homes; the accepter is told where (privately), and the post tapped (``edit``)
    says the challenge is taken."""
    client = interaction.client
    started = await client.service.network.accept(
        challenge_id,
        interaction.user.id,
        guild_id=home_guild(interaction),
        tapped=None if interaction.message is None else interaction.message.id,
    )
    # The homes to make, each in a lane of its own; the seek's own post (tapped elsewhere).
    for written in started.announcements + started.edits:
        await client.deliverer.announce(written, game_id=None, timeout=0)
    private = client.publisher.private_reader(interaction)
    told = private(accepted_text(started, interaction.user.id))
    if not edit or interaction.message is None:
        await interaction.response.send_message(told, ephemeral=True)
        return
    names = await client.service.network.names(started.game)
    public = await client.publisher.public_reader(interaction.guild_id, interaction)
    taken = taken_text(
        names.get(interaction.user.id, network_name(interaction.user)),
        started.game.id,
        names.get(started.game.white_id, "?"),
        names.get(started.game.black_id, "?"),
    )
    if interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=told, view=None)
        return
    await interaction.response.edit_message(
        content=public(taken), view=None, allowed_mentions=discord.AllowedMentions.none()
    )
    await interaction.followup.send(told, ephemeral=True)


def accepted_text(started: NetworkGameStarted, user_id: int) -> Text:
    """Where the accepter plays the game begun."""
    game = started.game
    seat = HomeSeat.WHITE if game.white_id == user_id else HomeSeat.BLACK
    home = next((h for h in started.homes if h.seat in (seat, HomeSeat.BOTH)), None)
    if home is None or home.parent_channel_id is None:
        return _(
            "You accepted: network game #{game} is played in your DMs with the bot, where its "
            "boards come.",
            game=game.id,
        )
    return _(
        "You accepted: network game #{game} is played in its thread in <#{channel}>, where "
        "its boards come.",
        game=game.id,
        channel=home.parent_channel_id,
    )


def challenge_view(
    challenge: Challenge, reader: Reader, actions: Sequence[str] | None = None
) -> discord.ui.View:
    """Buttons for a network challenge's post: Accept and Cancel for a seek, Accept and
    Decline in a direct one's opponent's home (``actions`` to choose)."""
    view = discord.ui.View(timeout=None)
    if actions is None:
        actions = ("accept", "cancel") if challenge.opponent_id is None else ACTIONS
    for action in actions:
        view.add_item(NetworkChallengeButton(challenge.id, action, reader))
    return view


def seek_menu(seeks: Sequence[tuple[Challenge, str, int]], reader: Reader) -> discord.ui.View:
    """The menu of seeks (challenge, challenger's name, their rating); none if no seek."""
    view = discord.ui.View(timeout=None)
    if not seeks:
        return view
    options = [
        discord.SelectOption(
            label=reader.plain(seek_option(c, name, rating))[:MENU_LABEL],
            value=str(c.id),
        )
        for c, name, rating in seeks[:25]
    ]
    menu = SeekMenu(options)
    menu.item.placeholder = reader(_("Accept a network challenge…"))
    view.add_item(menu)
    return view


def add_to(bot: DvonnBot) -> None:
    bot.add_dynamic_items(NetworkChallengeButton, SeekMenu)
