"""The errors users cause, and the one handler that answers every error of every command and
button: a friendly private sentence in the user's language for what the user can fix, an
apology with an incident id (logged with its traceback) for a bug."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.games.core.errors import DeadlinePassed, ServiceError
from bot.games.lobby.errors import InvalidClock
from bot.i18n import Catalogues, Text, _, n_, rules_error_text
from bot.posting.answers import ORIGINAL
from bot.posting.commands import CommandMentions
from rules import RulesError
from rules.errors import InvalidMoveError

log = logging.getLogger(__name__)

RESTARTING = _("The bot is restarting: try again in a minute. Nothing was lost.")
UNSHOWABLE = _("Sorry, I could not show you why that did not work. Please check what you typed.")


class UserError(Exception):
    """A refusal a user caused in the Discord layer (not the service's or the rules'), as a
    text to show them."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.english())


def error_text(error: BaseException) -> Text | None:
    """What to tell the user about ``error``; ``None`` if it is a bug (then: apologise)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.text
    if isinstance(error, InvalidClock):
        # One English template whatever the number; other languages need plural forms.
        return n_(
            "{count} day per move is not a clock you can choose: pick {choices} days per move, "
            "or no clock.",
            "{count} days per move is not a clock you can choose: pick {choices} days per move, "
            "or no clock.",
            int(error.params["days"]),
            choices=error.params["choices"],
        )
    if isinstance(error, ServiceError):
        # A rules error it carries (why a planned move cannot be played) in the reader's words.
        return Text(
            error.template,
            {
                name: rules_error_text(value) if isinstance(value, RulesError) else value
                for name, value in error.params.items()
            },
        )
    if isinstance(error, RulesError):
        return rules_error_text(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works only in a server.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return n_(
            "Slow down a little: try again in {count} second.",
            "Slow down a little: try again in {count} seconds.",
            max(1, round(error.retry_after)),
        )
    return None


class ErrorHandler:
    """Answers users privately, in their language, when nothing happened and why."""

    def __init__(
        self,
        catalogues: Catalogues,
        mentions: CommandMentions | None = None,
        on_incident: Callable[[str, str, BaseException], None] | None = None,
        deliver: Callable[[tuple[int, ...]], Awaitable[object]] | None = None,
    ) -> None:
        """``on_incident(incident, where, error)``: told of every bug (to tell the owner).
        ``deliver(announcements)``: posts now what a refused action wrote nonetheless (the
        loss on time of :class:`~bot.games.core.errors.DeadlinePassed`)."""
        self._catalogues = catalogues
        self._mentions = mentions
        self._on_incident = on_incident
        self._deliver = deliver

    def _render(self, text: Text, interaction: discord.Interaction[Any]) -> str:
        rendered = self._catalogues.render(text, interaction.locale)
        return rendered if self._mentions is None else self._mentions.link(rendered)

    async def reply(self, interaction: discord.Interaction[Any], text: Text) -> None:
        """Tell the user, ephemerally and in their language, why nothing happened.

        Never silently: if Discord refuses the answer, that is logged and a short generic one
        is sent instead; if that fails too, it is logged as an error."""
        content = self._render(text, interaction)
        try:
            await _answer(interaction, content)
            return
        except discord.HTTPException as refusal:
            log.warning(
                "Discord refused the error reply to %s (%s %s): %r",
                interaction_name(interaction),
                refusal.status,
                refusal.code,
                content[:200],
            )
        try:
            await _answer(interaction, self._render(UNSHOWABLE, interaction))
        except discord.HTTPException:
            log.exception("could not answer %s at all", interaction_name(interaction))

    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> str:
        """The one error handler: a friendly sentence for user errors, an apology for bugs.
        Returns the outcome for the metrics: ``refused`` (the user's mistake) or ``failed``."""
        text = error_text(error)
        if text is None:
            incident = secrets.token_hex(4)
            original = getattr(error, "original", error)
            log.error(
                "incident %s in %s by %s",
                incident,
                interaction_name(interaction),
                interaction.user.id,
                exc_info=(type(original), original, original.__traceback__),
            )
            if self._on_incident is not None:
                self._on_incident(incident, interaction_name(interaction), original)
            text = _(
                "Sorry, something went wrong on our side (incident {incident}). Nothing you did "
                "was lost; please try again, and quote the incident if it happens again.",
                incident=incident,
            )
            await self.reply(interaction, text)
            return "failed"
        original = getattr(error, "original", error)
        if isinstance(original, InvalidMoveError):
            log.debug("invalid move text from %s: %s", interaction.user.id, error)
        await self.reply(interaction, text)
        if isinstance(original, DeadlinePassed) and self._deliver is not None:
            await self._deliver(original.announcements)  # the loss on time, posted publicly
        return "refused"


async def _answer(interaction: discord.Interaction[Any], content: str) -> None:
    """``content`` privately: as the answer; after a deferred answer still "thinking…", in
    its place; after an answer, as a private followup."""
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=True)
        return
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        # Asked of Discord: the command may have filled its answer in before the error.
        try:
            answer: discord.WebhookMessage | None = await interaction.followup.fetch_message(
                ORIGINAL
            )
        except discord.NotFound:  # deleted (by a first try of this answer): nothing to replace
            answer = None
        if answer is not None and answer.flags.loading:
            if answer.flags.ephemeral:
                await interaction.edit_original_response(
                    content=content, embeds=[], attachments=[], view=None
                )
                return
            # Filled in, a public "thinking…" stays public, whatever the flags ("The ephemeral
            # flag will be ignored, and the value you provided in the initial defer response
            # will be preserved"): it goes, and the words come privately, as a followup.
            await interaction.delete_original_response()
    await interaction.followup.send(content, ephemeral=True)


def metric_name(interaction: discord.Interaction[Any]) -> str:
    """What an interaction counts as in the metrics: the command (``dvonn move``), or the
    button's kind without the ids in it (``dvonn:challenge:accept``)."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    data: dict[str, Any] = dict(interaction.data or {})
    parts = str(data.get("custom_id", interaction.type.name)).split(":")
    return ":".join(part for part in parts if not part.isdigit())


def interaction_name(interaction: discord.Interaction[Any]) -> str:
    """The command (``/dvonn move``) or the button's id an interaction came from, for logs."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", interaction.type.name))
