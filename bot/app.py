"""The composition root: the bot, its services, and the features it loads.

It only wires. :class:`DvonnBot` builds the services once (the game service over the
database, the catalogues, the renderer, the engine's worker processes, the publisher and the
outbox's deliverer, the error handler) and loads every feature in :data:`EXTENSIONS` by name,
as a discord.py extension; each feature's ``setup(bot)`` takes from the bot the services it
needs and adds its cog with :meth:`DvonnBot.add_feature`. It imports no feature, so no feature
can import it back into a cycle (features name it only for type checking).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, Final, TypeAlias

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from ai.engine import Engine
from bot.config import Settings, invite_url, user_install_url
from bot.games.core.leases import HOUSEKEEPING
from bot.games.service import Clock, GameService, utc_now
from bot.i18n import Catalogues
from bot.i18n.translator import CatalogueTranslator
from bot.incidents import IncidentReporter, Send, webhook
from bot.interactions.errors import RESTARTING, ErrorHandler, metric_name
from bot.interactions.inflight import InFlight
from bot.interactions.places import EVERYWHERE
from bot.monitoring import Metrics, MonitoringServer, Probes
from bot.pacing import Pace, pace_requests
from bot.posting.commands import CommandMentions, subcommands
from bot.posting.names import Names
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher
from bot.posting.renderer import Renderer

log = logging.getLogger(__name__)

EXTENSIONS: Final = (
    "bot.exts.lobby",
    "bot.exts.play",
    "bot.exts.plans",
    "bot.exts.computer",
    "bot.exts.clocks",
    "bot.exts.notices",
    "bot.exts.takebacks",
    "bot.exts.records",
    "bot.exts.review",
    "bot.exts.server_settings",
    "bot.exts.tournaments",
    "bot.exts.puzzles",
    "bot.exts.lessons",
    "bot.exts.help",
)
"""The features, loaded in this order."""
NETWORK: Final = "bot.exts.network"
"""The DVONN network's feature (``/network``), loaded after the others unless the operator
turned the network off (``DVONN_NETWORK``, on by default): off, none of its commands, buttons,
jobs or posts exists."""
INTENTS: Final = discord.Intents(guilds=True)
"""Only the servers and their channels and threads (for each server's language and the game
threads). The bot reads no messages, members or reactions: slash commands and buttons arrive
as interactions whatever the intents, so the gateway need not send it every message it posts."""
HOUSEKEEPING_INTERVAL: Final = 60.0
"""Seconds between two housekeeping passes (deadlines, reminders, the outbox)."""

PollJob = Callable[[], Awaitable[object]]


class DvonnTree(app_commands.CommandTree["DvonnBot"]):
    """The slash-command tree: refuses work while shutting down, and answers every error."""

    async def interaction_check(self, interaction: discord.Interaction[DvonnBot]) -> bool:
        bot = interaction.client
        bot.names.remember(interaction.user)
        bot.remember_locale(interaction.user.id, str(interaction.locale))
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            bot.remember_guild_locale(interaction.guild_id, str(interaction.guild_locale))
        if bot.accepting:
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            return False
        await bot.errors.reply(interaction, RESTARTING)
        return False

    async def on_error(
        self, interaction: discord.Interaction[DvonnBot], error: app_commands.AppCommandError
    ) -> None:
        bot = interaction.client
        bot.count_interaction(interaction, await bot.errors.report(interaction, error))


BeforeCommand = Callable[["discord.Interaction[DvonnBot]"], Awaitable[None]]
"""What a top-level group runs before each of its subcommands
(:meth:`DvonnBot.add_top_level_group`)."""


class _TopLevelGroup(app_commands.Group):
    """A top-level group whose subcommands are each preceded by ``before`` (if given)."""

    def __init__(self, *, before: BeforeCommand | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._before = before

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        if self._before is not None:
            await self._before(interaction)
        return True


class DvonnBot(commands.AutoShardedBot):
    """dvonn-bot: a correspondence DVONN server for Discord.

    Always an ``AutoShardedBot``: one process holds every shard (``DVONN_SHARD_COUNT`` of them,
    or as many as Discord recommends), or, with ``DVONN_SHARDS``, a slice of them beside other
    processes on the same PostgreSQL database. Nothing here depends on which shards a process
    holds: interactions come with what they need, and posts are made over REST by channel id.
    """

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
        """``clock``, ``housekeeping_interval`` (``0``: never by itself) and ``ai_budget`` (the
        computer opponent's seconds per move) are for tests, which move time by hand, call
        :meth:`housekeeping` when they want, and let the bot think briefly."""
        # discord.py's types ask for a list; None (every shard) is what it defaults to.
        shard_ids: Any = None if settings.shards is None else list(settings.shards)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            tree_cls=DvonnTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            shard_ids=shard_ids,
        )
        self.settings = settings
        self.pace = (
            Pace.share(len(settings.shards), settings.shard_count)
            if settings.shards is not None and settings.shard_count
            else Pace.share(1, 1)
        )
        """This process's part of the token's global rate limit (see :mod:`bot.pacing`)."""
        pace_requests(self.http, self.pace)
        self.ai_budget = ai_budget
        self.catalogues = catalogues or Catalogues()
        self.names = Names(self)
        self.renderer = Renderer(settings.render_processes)
        self.engine = Engine(settings.ai_processes)
        """The engine's worker processes, shared fairly by every game (the computer opponent's
        turns, hints, reviews); they start with the first request."""
        self.inflight = InFlight()
        self.metrics = Metrics()
        self.metrics.computer_queue.set_function(self.engine.pending)
        self._monitoring: MonitoringServer | None = None
        self.http_port: int | None = None
        """Where /healthz and /metrics are served, once they are."""
        self.mentions = CommandMentions()
        self.incidents = IncidentReporter(self._incident_senders())
        self.errors = ErrorHandler(
            self.catalogues,
            self.mentions,
            self.incidents.report,
            deliver=self._deliver_now,
        )
        self.accepting = True
        installs, contexts = EVERYWHERE
        self.dvonn = app_commands.Group(
            name="dvonn",
            description=locale_str("Play DVONN"),
            # Servers that add the bot, and people who install the app to their own account,
            # for their DMs and group DMs with friends (there the bot answers only; see
            # bot.interactions.places).
            allowed_installs=installs,
            allowed_contexts=contexts,
        )
        """The slash command of play: most features' commands are its subcommands (a
        feature may have a top-level command of its own: ``/puzzle``)."""
        self.tree.add_command(self.dvonn)
        self._service = service
        self._publisher: Publisher | None = None
        self._deliverer: Deliverer | None = None
        self._sync_commands = sync_commands
        self._shutdown_grace = shutdown_grace
        self._clock = clock
        self._housekeeping_interval = housekeeping_interval
        self._poll_jobs: list[PollJob] = []
        self._housekeeper: asyncio.Task[None] | None = None
        self._poller: asyncio.Task[None] | None = None
        self._locales: dict[int, str] = {}
        self._guild_locales: dict[int, str] = {}
        self._unsaved_guild_locales: dict[int, str] = {}
        self._background: set[asyncio.Task[None]] = set()

    # --- the services, open from setup_hook on ------------------------------------------------

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the game service opens in setup_hook")
        return self._service

    @property
    def publisher(self) -> Publisher:
        if self._publisher is None:
            raise RuntimeError("the publisher is built in setup_hook")
        return self._publisher

    @property
    def deliverer(self) -> Deliverer:
        if self._deliverer is None:
            raise RuntimeError("the outbox's deliverer is built in setup_hook")
        return self._deliverer

    async def _deliver_now(self, announcements: tuple[int, ...]) -> None:
        """Post these announcements now (the deliverer is built in setup_hook)."""
        await self.deliverer.deliver(announcements)

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await GameService.open(
                self.settings.database,
                clock=self._clock,
                outbox_lease=timedelta(seconds=self.settings.outbox_lease),
                network=self.settings.network,
                network_clock=self.settings.network_clock,
                network_season_start=self.settings.network_season_start,
            )
        await self.renderer.start()
        self._publisher = Publisher(
            self,
            self.service,
            names=self.names,
            renderer=self.renderer,
            catalogues=self.catalogues,
            mentions=self.mentions,
            metrics=self.metrics,
        )
        self._deliverer = Deliverer(self.service, self._publisher)
        await self.load_features()
        if self._housekeeping_interval > 0:
            self._housekeeper = asyncio.create_task(self._housekeep_forever(), name="housekeeping")
            self._poller = asyncio.create_task(self._deliver_forever(), name="outbox")
        await self.tree.set_translator(CatalogueTranslator(self.catalogues))
        synced = await self.sync_commands() if self._sync_commands else await self._synced()
        for command in synced:
            if command.name == self.dvonn.name:
                self.mentions.learn(command.id, subcommands(self.dvonn))
            elif not any(isinstance(o, app_commands.AppCommandGroup) for o in command.options):
                self.mentions.learn_command(command.name, command.id)  # /puzzle, /learn
            elif isinstance(group := self.tree.get_command(command.name), app_commands.Group):
                self.mentions.learn_group(command.name, command.id, subcommands(group))  # /network
        if self.application_id is not None:
            log.info("invite link: %s", invite_url(self.application_id))
            log.info("install link (for players' DMs): %s", user_install_url(self.application_id))
        if self.settings.http_port is not None:
            self._monitoring = MonitoringServer(self.metrics, self._probes())
            self.http_port = await self._monitoring.start(
                self.settings.http_host, self.settings.http_port
            )

    def _incident_senders(self) -> list[Send]:
        senders: list[Send] = []
        if self.settings.incident_webhook:
            senders.append(webhook(self.settings.incident_webhook.reveal()))
        owner = self.settings.owner_id
        if owner is not None:

            async def direct_message(note: str) -> None:
                await (await self.fetch_user(owner)).send(note)

            senders.append(direct_message)
        return senders

    # --- the operator's view -------------------------------------------------------------------

    def _probes(self) -> Probes:
        async def refresh() -> None:
            self.metrics.games_running.set(await self.service.running_games())
            self.metrics.outbox_lag.set(await self.service.outbox.lag())

        return Probes(
            gateway_connected=self._gateway_connected,
            database_read=self.service.running_games,
            outbox_lag=self.service.outbox.lag,
            refresh=refresh,
        )

    def _gateway_connected(self) -> bool:
        """Every shard of this process is connected (discord.py's view of its gateways)."""
        shards = self.shards.values()
        ready = self.is_ready() and not self.is_closed()
        return ready and bool(shards) and not any(shard.is_closed() for shard in shards)

    def count_interaction(self, interaction: discord.Interaction[Any], outcome: str) -> None:
        """Count a finished interaction in the metrics (commands by name, buttons by kind)."""
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.metrics.interaction(metric_name(interaction), outcome, age)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        self.count_interaction(interaction, "ok")

    # --- features ------------------------------------------------------------------------------

    async def load_features(self) -> None:
        """Load every feature in :data:`EXTENSIONS`, and the network's (:data:`NETWORK`) if it
        is on."""
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.network:
            await self.load_extension(NETWORK)

    def thinking_time(self, default: float) -> float:
        """Seconds the engine may think for a request whose own is ``default``: the tests'
        ``ai_budget`` instead, if given, and never more than the operator's cap
        (``DVONN_AI_SECONDS``)."""
        seconds = default if self.ai_budget is None else self.ai_budget
        cap = self.settings.ai_seconds
        return seconds if cap is None else min(seconds, cap)

    async def add_feature(
        self,
        cog: commands.Cog,
        *,
        top_level: bool = False,
        group: app_commands.Group | None = None,
    ) -> None:
        """Add a feature's cog; its slash commands become subcommands of ``/dvonn`` (or of
        ``group``, a top-level command of the feature's own: :meth:`add_top_level_group`), or,
        with ``top_level``, stay commands of their own (``/puzzle``: ``/dvonn`` holds the 25
        subcommands Discord allows), offered where ``/dvonn`` is."""
        await self.add_cog(cog)
        for command in cog.get_app_commands():
            if top_level:
                command.allowed_installs, command.allowed_contexts = EVERYWHERE
                continue
            # add_cog registered them at the top level; each belongs in the one group.
            self.tree.remove_command(command.name)
            (self.dvonn if group is None else group).add_command(command)

    def add_top_level_group(
        self, name: str, description: locale_str, *, before: BeforeCommand | None = None
    ) -> app_commands.Group:
        """A top-level command of subcommands beside ``/dvonn`` (``/network``), offered where
        ``/dvonn`` is; a feature adds its cogs' commands to it with :meth:`add_feature`.
        ``before``: run before each of its subcommands (not their autocompletes), refusing
        none."""
        installs, contexts = EVERYWHERE
        group = _TopLevelGroup(
            name=name,
            description=description,
            allowed_installs=installs,
            allowed_contexts=contexts,
            before=before,
        )
        self.tree.add_command(group)
        return group

    def add_poll(self, job: PollJob) -> None:
        """Run ``job`` every ``DVONN_OUTBOX_POLL_SECONDS`` in every process, with the outbox's
        look for posts left unsent: for work a killed process left, taken over by lease."""
        self._poll_jobs.append(job)

    async def _synced(self) -> list[app_commands.AppCommand]:
        """The commands as Discord has them (for their ids), or none if it cannot say now."""
        if self.application_id is None:
            return []  # not logged in (tests that only load the features)
        guild = None if self.settings.dev_guild is None else discord.Object(self.settings.dev_guild)
        try:
            return await asyncio.wait_for(self.tree.fetch_commands(guild=guild), 10)
        except (discord.HTTPException, TimeoutError):
            log.warning("could not list the synced commands: texts name them untappable")
            return []

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

    # --- background work -----------------------------------------------------------------------

    def remember_locale(self, user_id: int, locale: str) -> None:
        """Store a user's Discord language when it is new or changed (reminder DMs use it)."""
        if self._locales.get(user_id) == locale or self._service is None:
            return
        self._locales[user_id] = locale
        task = asyncio.create_task(self._service.remember_locale(user_id, locale))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def remember_guild_locale(self, guild_id: int, locale: str) -> None:
        """Store a server's Discord language when it is new or changed, for the posts other
        processes make there (they do not have this server in their cache)."""
        if self._guild_locales.get(guild_id) == locale or self._service is None:
            return
        self._guild_locales[guild_id] = locale
        # Batched: at start every server of the process's shards arrives at once, and one
        # transaction for all of them keeps the database free for the players' moves.
        first = not self._unsaved_guild_locales
        self._unsaved_guild_locales[guild_id] = locale
        if first:
            task = asyncio.create_task(self._save_guild_locales())
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _save_guild_locales(self) -> None:
        await asyncio.sleep(0)  # let the servers that arrive together join the batch
        while self._unsaved_guild_locales:
            batch = dict(self._unsaved_guild_locales)
            await self.service.remember_guild_locales(batch)
            for guild_id, locale in batch.items():
                if self._unsaved_guild_locales.get(guild_id) == locale:
                    del self._unsaved_guild_locales[guild_id]

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.remember_guild_locale(guild.id, str(guild.preferred_locale))

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.remember_guild_locale(guild.id, str(guild.preferred_locale))

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        self.remember_guild_locale(after.id, str(after.preferred_locale))

    async def housekeeping(self) -> None:
        """One housekeeping pass: every feature's periodic job, in the order the service
        composed them (:attr:`bot.games.service.GameService.housekeeping`), unless another process
        is making one right now, and the posts they wrote; then the outbox's delivery of whatever
        is left (what a crash or a refusal left unsent, what the jobs wrote for nobody in
        particular); first, what ended processes held is taken over."""
        await self.service.take_over()
        async with self.service.leases.holding(HOUSEKEEPING) as ours:
            if ours:
                done = await self.service.sweep()
                await self.deliverer.deliver(done.announcements)
        await self.deliverer.deliver_pending()

    async def _housekeep_forever(self) -> None:
        await self.wait_until_ready()
        while True:
            async with self.inflight.track():
                try:
                    await self.housekeeping()
                except Exception:
                    log.exception("housekeeping failed; trying again in a minute")
            await asyncio.sleep(self._housekeeping_interval)

    async def _deliver_forever(self) -> None:
        """Take over what ended processes held (at once at start: an earlier run's claims),
        post what the outbox holds unclaimed (left by a crash, an outage, a refusal), and run
        the poll jobs (work another process left)."""
        while True:
            for job in (self.service.take_over, self.deliverer.deliver_pending, *self._poll_jobs):
                try:
                    await job()
                except Exception:
                    log.exception("a poll job failed (%s); trying again", job)
            await asyncio.sleep(self.settings.outbox_poll)

    async def close(self) -> None:
        """Stop taking commands, let those in flight finish, stop the features, close the
        database, log out."""
        if self.accepting:
            self.accepting = False
            for task in (self._housekeeper, self._poller):
                if task is not None:
                    task.cancel()
            if not await self.inflight.wait_idle(self._shutdown_grace):
                log.warning("shutting down with %d interactions unfinished", self.inflight.busy)
            if self._deliverer is not None:
                await self._deliverer.close(self._shutdown_grace)
            if self._monitoring is not None:
                await self._monitoring.stop()
            await self.incidents.close()
            for name in list(self.extensions):
                await self.unload_extension(name)
            await self.engine.close()
            await asyncio.gather(*self._background, return_exceptions=True)
            if self._service is not None:
                await self._service.close()
            log.info("database closed")
            await asyncio.to_thread(self.renderer.close)
        if not self.shards:
            # Never connected. discord.py's AutoShardedClient.close() assumes it did (it posts
            # to a queue that connect() makes), so close as a plain client: the HTTP session
            # is all there is. (The features were unloaded above.)
            await discord.Client.close(self)
            return
        await super().close()


Interaction: TypeAlias = discord.Interaction[DvonnBot]
"""An interaction with this bot (features annotate their callbacks with it)."""
__all__ = ["EXTENSIONS", "DvonnBot", "Interaction"]
