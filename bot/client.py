"""The Discord client: setup, one error handler for every interaction, clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.computer import ComputerPlayer
from bot.endpoints import use_discord_endpoints
from bot.games.correspondence import Correspondence, Sweep
from bot.games.errors import ServiceError
from bot.games.service import Clock, GameService, utc_now
from bot.i18n import Catalogues, Text, _, n_
from bot.names import Names
from bot.notifier import Notifier
from bot.rendering import Renderer
from bot.settings import Settings, invite_url
from bot.translator import CatalogueTranslator
from rules import RulesError
from rules.errors import InvalidMoveError

log = logging.getLogger(__name__)

HOUSEKEEPING_INTERVAL = 60.0
"""Seconds between two housekeeping passes (deadlines, reminders, the outbox)."""


class UserError(Exception):
    """A bot-level refusal a user caused (not the service's or the rules'), as a text."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.english())


def error_text(error: BaseException) -> Text | None:
    """What to tell the user about ``error``; ``None`` if it is a bug (then: apologise)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return error.text
    if isinstance(error, ServiceError):
        return Text(error.template, dict(error.params))
    if isinstance(error, RulesError):
        return Text(error.reason.value, dict(error.params))
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works only in a server.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return n_(
            "Slow down a little: try again in {count} second.",
            "Slow down a little: try again in {count} seconds.",
            max(1, round(error.retry_after)),
        )
    return None


class InFlight:
    """Counts the interactions being handled, so a shutdown can wait for them to finish."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        self._count += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._count -= 1
            if self._count == 0:
                self._idle.set()

    @property
    def busy(self) -> int:
        return self._count

    async def wait_idle(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True


class DvonnTree(app_commands.CommandTree["DvonnBot"]):
    """The slash-command tree: refuses work while shutting down, and answers every error."""

    async def interaction_check(self, interaction: discord.Interaction[DvonnBot]) -> bool:
        bot = interaction.client
        bot.names.remember(interaction.user)
        bot.remember_locale(interaction.user.id, str(interaction.locale))
        if bot.accepting:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            return False
        await bot.reply_error(
            interaction, _("The bot is restarting: try again in a minute. Nothing was lost.")
        )
        return False

    async def on_error(
        self, interaction: discord.Interaction[DvonnBot], error: app_commands.AppCommandError
    ) -> None:
        await interaction.client.report(interaction, error)


class DvonnBot(commands.Bot):
    """dvonn-bot: a correspondence DVONN server for Discord."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        catalogues: Catalogues | None = None,
        sync_commands: bool = False,
        shutdown_grace: float = 10.0,
        clock: Clock = utc_now,
        housekeeping_interval: float = HOUSEKEEPING_INTERVAL,
        ai_budget: float | None = None,
    ) -> None:
        """``clock`` and ``housekeeping_interval`` (``0``: never by itself) are for tests,
        which move time by hand and call :meth:`housekeeping` when they want."""
        # Slash commands need no privileged intents: not members, not message content.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=DvonnTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        use_discord_endpoints(settings.api_base, settings.gateway_url)
        self.settings = settings
        self._service = service
        self.catalogues = catalogues or Catalogues()
        self.names = Names(self)
        self.renderer = Renderer(settings.render_processes)
        self.inflight = InFlight()
        self.accepting = True
        self._sync_commands = sync_commands
        self._shutdown_grace = shutdown_grace
        self._clock = clock
        self._housekeeping_interval = housekeeping_interval
        self._housekeeper: asyncio.Task[None] | None = None
        self._correspondence: Correspondence | None = None
        self.notifier = Notifier(self)
        self.computer = ComputerPlayer(
            self, workers=settings.ai_processes, budget=ai_budget, longest=settings.ai_seconds
        )
        self._locales: dict[int, str] = {}
        self._background: set[asyncio.Task[None]] = set()

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the game service opens in setup_hook")
        return self._service

    def remember_locale(self, user_id: int, locale: str) -> None:
        """Store a user's Discord language when it is new or changed (reminder DMs use it)."""
        if self._locales.get(user_id) == locale or self._service is None:
            return
        self._locales[user_id] = locale
        task = asyncio.create_task(self.correspondence.remember_locale(user_id, locale))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    @property
    def correspondence(self) -> Correspondence:
        if self._correspondence is None:
            self._correspondence = Correspondence(self.service)
        return self._correspondence

    async def setup_hook(self) -> None:
        from bot.cogs.dvonn import DvonnCog
        from bot.components import COMPONENTS

        if self._service is None:
            self._service = await GameService.open(self.settings.database, clock=self._clock)
        await self.renderer.start()
        await self.computer.resume()  # the bot's turns left waiting by a restart
        if self._housekeeping_interval > 0:
            self._housekeeper = asyncio.create_task(self._housekeep_forever(), name="housekeeping")
        await self.tree.set_translator(CatalogueTranslator(self.catalogues))
        await self.add_cog(DvonnCog(self))
        self.add_dynamic_items(*COMPONENTS)
        if self._sync_commands:
            await self.sync_commands()
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Register the slash commands with Discord: in the development server at once if one
        is set, else globally (Discord allows 200 command creations a day: do it on purpose)."""
        guild_id = self.settings.dev_guild
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
        return synced

    async def housekeeping(self) -> Sweep:
        """Enforce deadlines, rate games, queue reminders, then deliver the outbox."""
        sweep = await self.correspondence.sweep()
        await self.notifier.deliver_pending()
        await self.computer.resume()  # in case a turn of the bot was lost to an error
        return sweep

    async def _housekeep_forever(self) -> None:
        await self.wait_until_ready()
        while True:
            async with self.inflight.track():
                try:
                    await self.housekeeping()
                except Exception:
                    log.exception("housekeeping failed; trying again in a minute")
            await asyncio.sleep(self._housekeeping_interval)

    async def close(self) -> None:
        """Stop taking commands, let those in flight finish, close the database, log out."""
        if self.accepting:
            self.accepting = False
            if self._housekeeper is not None:
                self._housekeeper.cancel()
            if not await self.inflight.wait_idle(self._shutdown_grace):
                log.warning("shutting down with %d interactions unfinished", self.inflight.busy)
            await self.computer.close()
            await asyncio.gather(*self._background, return_exceptions=True)
            if self._service is not None:
                await self._service.close()
            log.info("database closed")
            await asyncio.to_thread(self.renderer.close)
        await super().close()

    # --- answering users -----------------------------------------------------------------------

    async def reply_error(self, interaction: discord.Interaction[Any], text: Text) -> None:
        """Tell the user, ephemerally and in their language, why nothing happened."""
        content = self.catalogues.render(text, interaction.locale)
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(content, ephemeral=True)
            else:
                await interaction.response.send_message(content, ephemeral=True)

    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """The one error handler: a friendly sentence for user errors, an apology for bugs."""
        text = error_text(error)
        if text is None:
            incident = secrets.token_hex(4)
            original = getattr(error, "original", error)
            log.error(
                "incident %s in %s by %s",
                incident,
                _interaction_name(interaction),
                interaction.user.id,
                exc_info=(type(original), original, original.__traceback__),
            )
            text = _(
                "Sorry, something went wrong on our side (incident {incident}). Nothing you did "
                "was lost; please try again, and quote the incident if it happens again.",
                incident=incident,
            )
        elif isinstance(getattr(error, "original", error), InvalidMoveError):
            log.debug("invalid move text from %s: %s", interaction.user.id, error)
        await self.reply_error(interaction, text)


def _interaction_name(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", interaction.type.name))
