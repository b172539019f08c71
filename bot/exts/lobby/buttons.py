"""The challenge post's buttons: Accept, Decline (a challenge to someone) and Cancel."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import TYPE_CHECKING, Any, Final

import discord

from bot.exts.lobby.threads import game_thread
from bot.games.core.models import Challenge, ChallengeStatus
from bot.games.lobby.errors import ChallengeNotForYou, OwnChallenge
from bot.i18n import _
from bot.interactions import events
from bot.interactions.buttons import BotButton, label
from bot.interactions.places import answers_only, remember_reply_route
from bot.posting.outbox import REPLY_WAIT
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction


_ACCEPTING: dict[int, asyncio.Lock] = {}
"""A lock for each challenge being accepted in this process."""


class ChallengeButton(
    BotButton, template=r"dvonn:challenge:(?P<id>\d+):(?P<action>accept|decline|cancel)"
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
                custom_id=f"dvonn:challenge:{challenge_id}:{action}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        return cls(int(match["id"]), match["action"])

    async def run(self, interaction: Interaction) -> None:
        service = interaction.client.service
        publisher = interaction.client.publisher
        reader = await publisher.public_reader(interaction.guild_id, interaction)
        name = interaction.user.display_name
        if self.action == "decline":
            await service.decline_challenge(self.challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=reader(_("{player} declined the challenge.", player=name)), view=None
            )
            interaction.client.dispatch(events.FIRST_STEPS, interaction, None)
            return
        if self.action == "cancel":
            await service.cancel_challenge(self.challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=reader(_("{player} cancelled the challenge.", player=name)), view=None
            )
            return
        # Whose click it may be is answered at once, privately; then the slow part.
        _check_may_accept(await service.get_challenge(self.challenge_id), interaction.user.id)
        await interaction.response.defer()  # a thread is a REST call away: keep the 3 s
        # Clicks on one challenge take turns, so that a click that lost the race learns so
        # before it makes a thread for nothing.
        lock = _ACCEPTING.setdefault(self.challenge_id, asyncio.Lock())
        try:
            async with lock:
                await self._accept(interaction, reader)
        finally:
            if not lock.locked() and _ACCEPTING.get(self.challenge_id) is lock:
                del _ACCEPTING[self.challenge_id]

    async def _accept(self, interaction: Interaction, reader: Reader) -> None:
        service = interaction.client.service
        publisher = interaction.client.publisher
        name = interaction.user.display_name
        challenge = await service.get_challenge(self.challenge_id)
        _check_may_accept(challenge, interaction.user.id)
        thread = None
        if challenge.status is ChallengeStatus.OPEN:
            challenger = await publisher.names.get(challenge.challenger_id)
            thread_name = _(
                "DVONN: {challenger} vs {opponent}", challenger=challenger, opponent=name
            )
            thread = await game_thread(
                service, interaction, interaction.message, reader(thread_name)
            )
        try:
            started = await service.accept_challenge(
                self.challenge_id,
                interaction.user.id,
                thread_id=None if thread is None else thread.id,
                private=answers_only(interaction),
            )
        except Exception:
            if thread is not None:
                with contextlib.suppress(discord.HTTPException):
                    await thread.delete()
            raise
        game = started.game
        players = await publisher.players(game)
        await interaction.edit_original_response(
            content=reader(
                _(
                    "{player} accepted: game #{game} is on in <#{channel}>. "
                    "{white} plays White, {black} plays Black.",
                    player=name,
                    game=game.id,
                    channel=game.channel_id,
                    white=players.white,
                    black=players.black,
                )
            ),
            view=None,
        )
        await remember_reply_route(service, interaction, game)  # the first board answers it
        await interaction.client.deliverer.announce(
            started.announcement, game_id=game.id, timeout=REPLY_WAIT
        )
        interaction.client.dispatch(events.TURN, game)
        interaction.client.dispatch(events.FIRST_STEPS, interaction, game.id)


def _check_may_accept(challenge: Challenge, user_id: int) -> None:
    """The service's own checks, made before a thread is created for nothing."""
    if challenge.status is not ChallengeStatus.OPEN:
        return  # the service will say why it is closed
    if challenge.challenger_id == user_id:
        raise OwnChallenge(challenge.id, user_id)
    if challenge.opponent_id is not None and challenge.opponent_id != user_id:
        raise ChallengeNotForYou(challenge.id, user_id, challenge.opponent_id)


def challenge_view(challenge: Challenge, reader: Reader) -> discord.ui.View:
    """Accept, Decline (for a challenge to someone) and Cancel, for a new challenge post."""
    view = discord.ui.View(timeout=None)
    actions = (
        ["accept", "cancel"] if challenge.opponent_id is None else ["accept", "decline", "cancel"]
    )
    for action in actions:
        view.add_item(ChallengeButton(challenge.id, action, reader))
    return view
