"""Buttons that keep working after a restart.

Each is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries what it acts on
(``dvonn:challenge:12:accept``); discord.py rebuilds it from the id on any click, so no view has
to be in memory. Registered in ``setup_hook`` via :data:`COMPONENTS`.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import discord

from bot.games.errors import ChallengeNotForYou, OwnChallenge
from bot.games.results import GameOver
from bot.i18n import Text, _
from bot.posting import Publisher, Reader
from bot.presenter import ended_post, start_post, takeback_post
from bot.storage.models import Challenge, ChallengeStatus

if TYPE_CHECKING:
    from bot.client import DvonnBot

log = logging.getLogger(__name__)

Interaction: TypeAlias = "discord.Interaction[DvonnBot]"
THREAD_ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games are slow


def _label(reader: Reader | None, text: Text) -> str:
    return reader(text) if reader is not None else text.english()


class _BotButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dvonn:base:(?P<id>\d+)"
):
    """Runs the click like a command: tracked for shutdown, errors answered in the user's
    language by the bot's one error handler."""

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        bot = interaction.client
        bot.names.remember(interaction.user)
        if not bot.accepting:
            await bot.reply_error(
                interaction, _("The bot is restarting: try again in a minute. Nothing was lost.")
            )
            return
        async with bot.inflight.track():
            try:
                await self.run(interaction)
            except Exception as error:  # one handler for every error, as for commands
                await bot.report(interaction, error)

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError


class ChallengeButton(
    _BotButton, template=r"dvonn:challenge:(?P<id>\d+):(?P<action>accept|decline|cancel)"
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
                label=_label(reader, self.LABELS[action]),
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
        publisher = Publisher(interaction.client)
        reader = await publisher.public_reader(interaction.guild_id, interaction)
        name = interaction.user.display_name
        if self.action == "decline":
            challenge = await service.decline_challenge(self.challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=reader(_("{player} declined the challenge.", player=name)), view=None
            )
            return
        if self.action == "cancel":
            await service.cancel_challenge(self.challenge_id, interaction.user.id)
            await interaction.response.edit_message(
                content=reader(_("{player} cancelled the challenge.", player=name)), view=None
            )
            return
        challenge = await service.get_challenge(self.challenge_id)
        _check_may_accept(challenge, interaction.user.id)
        await interaction.response.defer()  # a thread is a REST call away: keep the 3 s
        thread = (
            await _game_thread(interaction, challenge, reader)
            if challenge.status is ChallengeStatus.OPEN
            else None
        )
        try:
            started = await service.accept_challenge(
                self.challenge_id,
                interaction.user.id,
                thread_id=None if thread is None else thread.id,
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
        await publisher.send_to_game(game, start_post(game, players), interaction)


def _check_may_accept(challenge: Challenge, user_id: int) -> None:
    """The service's own checks, made before a thread is created for nothing."""
    if challenge.status is not ChallengeStatus.OPEN:
        return  # the service will say why it is closed
    if challenge.challenger_id == user_id:
        raise OwnChallenge(challenge.id, user_id)
    if challenge.opponent_id is not None and challenge.opponent_id != user_id:
        raise ChallengeNotForYou(challenge.id, user_id, challenge.opponent_id)


async def _game_thread(
    interaction: Interaction, challenge: Challenge, reader: Reader
) -> discord.Thread | None:
    challenger = await interaction.client.names.get(challenge.challenger_id)
    name = _(
        "DVONN: {challenger} vs {opponent}",
        challenger=challenger,
        opponent=interaction.user.display_name,
    )
    return await game_thread(interaction, interaction.message, challenge.guild_id, reader(name))


async def game_thread(
    interaction: Interaction, message: discord.Message | None, guild_id: int | None, name: str
) -> discord.Thread | None:
    """A public thread from ``message`` for a game, when the server wants one and the bot may
    create it there; ``None`` means: play in the channel itself."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or message is None:
        return None  # a thread, a DM or a voice chat: play right here
    if guild_id is not None:
        settings = await interaction.client.service.guild_settings(guild_id)
        if not settings.use_threads:
            return None
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return None
    try:
        return await message.create_thread(
            name=name[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
    except discord.HTTPException:
        log.warning(
            "could not create a thread in channel %s; playing there", channel.id, exc_info=True
        )
        return None


def challenge_view(challenge: Challenge, reader: Reader) -> discord.ui.View:
    """Accept, Decline (for a challenge to someone) and Cancel, for a new challenge post."""
    view = discord.ui.View(timeout=None)
    actions = (
        ["accept", "cancel"] if challenge.opponent_id is None else ["accept", "decline", "cancel"]
    )
    for action in actions:
        view.add_item(ChallengeButton(challenge.id, action, reader))
    return view


class ResignButton(_BotButton, template=r"dvonn:resign:(?P<id>\d+)"):
    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=_label(reader, _("Resign game #{game}", game=game_id)),
                style=discord.ButtonStyle.danger,
                custom_id=f"dvonn:resign:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ResignButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        ended = await interaction.client.service.resign(self.game_id, interaction.user.id)
        reader = Reader(interaction.client.catalogues, interaction.locale)
        await interaction.response.edit_message(
            content=reader(_("You resigned game #{game}.", game=self.game_id)), view=None
        )
        publisher = Publisher(interaction.client)
        players = await publisher.players(ended.game)
        await publisher.send_to_game(
            ended.game, ended_post(ended.game, players, ended.over), interaction
        )


class AbortAgreeButton(_BotButton, template=r"dvonn:abort:(?P<id>\d+)"):
    def __init__(self, game_id: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=_label(reader, _("Agree to call it off")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:abort:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> AbortAgreeButton:
        return cls(int(match["id"]))

    async def run(self, interaction: Interaction) -> None:
        service = interaction.client.service
        game = await service.get_game(self.game_id)
        moderator = bool(interaction.permissions.manage_threads) and not game.is_player(
            interaction.user.id
        )
        outcome = await service.abort(self.game_id, interaction.user.id, moderator=moderator)
        reader = Reader(interaction.client.catalogues, interaction.locale)
        if not outcome.aborted:
            await interaction.response.send_message(
                reader(_("Waiting for your opponent to agree.")), ephemeral=True
            )
            return
        publisher = Publisher(interaction.client)
        public = await publisher.public_reader(outcome.game.guild_id, interaction)
        await interaction.response.edit_message(
            content=public(_("Game #{game} was called off.", game=self.game_id)), view=None
        )
        players = await publisher.players(outcome.game)
        await publisher.send_to_game(
            outcome.game, ended_post(outcome.game, players, GameOver.of(outcome.game)), interaction
        )


class TakebackButton(_BotButton, template=r"dvonn:takeback:(?P<id>\d+):(?P<answer>accept|decline)"):
    LABELS: Final = {"accept": _("Accept the takeback"), "decline": _("Decline")}

    def __init__(self, game_id: int, answer: str, reader: Reader | None = None) -> None:
        self.game_id = game_id
        self.answer = answer
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=_label(reader, self.LABELS[answer]),
                style=style,
                custom_id=f"dvonn:takeback:{game_id}:{answer}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TakebackButton:
        return cls(int(match["id"]), match["answer"])

    async def run(self, interaction: Interaction) -> None:
        accept = self.answer == "accept"
        answer = await interaction.client.correspondence.answer_takeback(
            self.game_id, interaction.user.id, accept
        )
        publisher = Publisher(interaction.client)
        reader = await publisher.public_reader(answer.game.guild_id, interaction)
        name = interaction.user.display_name
        text = (
            _("{player} accepted the takeback.", player=name)
            if accept
            else _("{player} declined the takeback: the game goes on.", player=name)
        )
        await interaction.response.edit_message(content=reader(text), view=None)
        if accept:
            players = await publisher.players(answer.game)
            post = takeback_post(answer.game, players, answer.undone)
            await publisher.send_to_game(answer.game, post, interaction, players)


COMPONENTS: Final = (ChallengeButton, ResignButton, AbortAgreeButton, TakebackButton)
