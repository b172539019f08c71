"""``FakeDiscord``: the whole fake on one ephemeral port, and the API tests drive it with.

fake = FakeDiscord()
await fake.start()                      # REST on fake.api_base, gateway on fake.gateway_url
guild = fake.add_guild("DVONN club")
games = guild.add_text_channel("games")
alice = fake.add_user("alice", guild)
...start the bot with token fake.token, then:
await fake.wait_for_ready()
result = await fake.run_command(alice, games, "dvonn move", {"from": "E3", "to": "F4"})
assert result.embeds[0]["title"] == ...
assert result.message.embed_image().image_size() == (800, 600)
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

from aiohttp import web

from tests.fakediscord.commands import (
    IntegrationType,
    InteractionContext,
    InvalidInvocation,
    OptionType,
    RegisteredCommand,
    build_invocation,
    offering_installs,
)
from tests.fakediscord.gateway import Close, GatewayEvent, GatewayServer
from tests.fakediscord.interactions import (
    Choice,
    DeprecatedCall,
    InteractionRecord,
    InteractionResult,
    InteractionType,
    describe_options,
)
from tests.fakediscord.messages import RecordedMessage
from tests.fakediscord.models import FakeChannel, FakeGuild, FakeRole, FakeUser
from tests.fakediscord.permissions import DEFAULT_BOT, DEFAULT_EVERYONE, Permission
from tests.fakediscord.ratelimits import RateLimits, RestTraffic
from tests.fakediscord.responses import InteractionDesk
from tests.fakediscord.rest import RestApi
from tests.fakediscord.world import (
    CommandSync,
    FakeConfig,
    RecordedRequest,
    World,
    resolver_for,
)

T = TypeVar("T")
Json = dict[str, Any]
MessageRef = RecordedMessage | int

# Requests may carry up to 10 files; let aiohttp accept them so the fake can judge each file.
_MAX_REQUEST_BYTES = 128 * 1024 * 1024
_SELECT_TYPES = {3: None, 5: "users", 6: "roles", 7: "mentionables", 8: "channels"}


class BotNotConnected(AssertionError):
    """An interaction was sent while no bot session could receive it."""


class FakeDiscord:
    """A small Discord on 127.0.0.1 for end-to-end tests of the real discord.py client."""

    def __init__(
        self,
        *,
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        shard_count: int = 1,
        upload_limit: int = 8 * 1024 * 1024,
        heartbeat_interval_ms: int = 41_250,
        privileged_intents: int = 0,
        compress: bool = True,
        bot_name: str = "dvonn-bot",
        limits: RateLimits | None = None,
    ) -> None:
        """``limits``: Discord's rate limits, all on by default (see :mod:`.ratelimits`)."""
        self.config = FakeConfig(
            interaction_deadline=interaction_deadline,
            token_lifetime=token_lifetime,
            shard_count=shard_count,
            upload_limit=upload_limit,
            heartbeat_interval_ms=heartbeat_interval_ms,
            privileged_intents=privileged_intents,
            compress=compress,
            limits=limits if limits is not None else RateLimits(),
        )
        self.world = World(self.config, bot_name=bot_name)
        self.gateway = GatewayServer(self.world)
        self.desk = InteractionDesk(self.world)
        self.rest = RestApi(
            self.world,
            self.desk,
            gateway_url=lambda: self.gateway.url,
            shard_count=lambda: self.config.shard_count,
        )
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # -- lifecycle --------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> FakeDiscord:
        """Listen on ``host:port`` (port 0: an ephemeral port, read back into ``self.port``)."""
        app = web.Application(
            middlewares=[self.rest.middleware], client_max_size=_MAX_REQUEST_BYTES
        )
        app.add_routes(self.rest.routes())
        app.router.add_get(self.gateway.gateway_path, self.gateway.handle)
        app.router.add_get(self.gateway.resume_path, self.gateway.handle)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        self._runner = runner
        self.host, self.port = runner.addresses[0][:2]
        self.world.http_base = f"http://{self.host}:{self.port}"
        self.gateway.ws_base = f"ws://{self.host}:{self.port}"
        return self

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- addresses and identity -------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """For ``DISCORD_API_BASE`` / ``use_discord_endpoints``."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """For ``DISCORD_GATEWAY_URL`` / ``use_discord_endpoints``."""
        return self.gateway.url

    @property
    def token(self) -> str:
        """The only bot token the fake accepts."""
        return self.world.token

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    # -- building the world -----------------------------------------------------------------------

    def add_guild(
        self,
        name: str,
        *,
        bot_permissions: Permission = DEFAULT_BOT,
        everyone_permissions: Permission = DEFAULT_EVERYONE,
        guild_id: int | None = None,
        bot_member: bool = True,
    ) -> FakeGuild:
        """A guild the bot is in (with @everyone, the bot's role, an owner who is not a player).

        ``everyone_permissions`` apply to every member, the bot included; restrict the bot in one
        channel with ``guild.add_text_channel(name, deny_bot=...)``.

        ``bot_member=False``: a server the app is not installed in. The bot never hears of it
        (no GUILD_CREATE, no messages; REST there: 403 Missing Access); members who installed
        the app reach its user-installable commands there. Its replies are ephemeral for a
        member without Send Messages or Use External Apps in the channel.
        """
        return self.world.add_guild(
            name,
            guild_id=guild_id,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
            bot_member=bot_member,
        )

    def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is removed from ``guild`` (kicked, banned, the app taken out): GUILD_DELETE
        to the shard holding it, then REST in its channels is refused with 403 Missing Access
        (50001) and its guild-installed commands and buttons no longer reach the bot. See
        :meth:`World.remove_bot <tests.fakediscord.world.World.remove_bot>`."""
        self.world.remove_bot(guild)

    def add_user(
        self,
        name: str,
        *guilds: FakeGuild,
        roles: Iterable[FakeRole] = (),
        accepts_dms: bool = True,
        installed_app: bool = False,
    ) -> FakeUser:
        """A user, a member of ``guilds`` with those of ``roles`` that belong to each guild.

        ``installed_app``: they installed the app to their account (see :meth:`install_app`).
        """
        user = self.world.add_user(name, accepts_dms=accepts_dms, installed_app=installed_app)
        role_list = list(roles)
        for guild in guilds:
            guild.add_member(user, roles=[r for r in role_list if r.guild_id == guild.id])
        return user

    def install_app(self, user: FakeUser) -> None:
        """``user`` installs the app to their account (a user install, integration type 1).

        Its global commands whose ``integration_types`` include 1 are then offered to them
        wherever their ``contexts`` allow: also in DMs and group DMs with other people, where
        the bot is not. And the bot may DM them, shared server or not.
        """
        self.world.install_app(user)

    def uninstall_app(self, user: FakeUser) -> None:
        """``user`` removes the app from their account."""
        self.world.install_app(user, installed=False)

    def add_private_channel(self, *users: FakeUser, name: str = "") -> FakeChannel:
        """A DM (two users: type 1) or group DM (3 to 10 users: type 3) between ``users``.

        The bot is not in it: it never gets its messages or events, and its REST calls there
        get 403 Missing Access (50001). It is reached only through interactions of a user who
        installed the app (context 2, ``PRIVATE_CHANNEL``); the replies and followups are
        messages there, seen by all its users (ephemeral ones by the invoking user only).
        """
        return self.world.add_private_channel(users, name=name)

    # -- rate limits ------------------------------------------------------------------------------

    @property
    def limits(self) -> RateLimits:
        """Discord's limits this fake enforces; switch one for a test here, e.g.
        ``fake.limits.per_channel = False`` (the per-route buckets) before the bot starts."""
        return self.world.limits

    @property
    def traffic(self) -> RestTraffic:
        """The bot's REST calls counted: by route, against the global limit, 429s by scope,
        invalid requests in the last 10 minutes and at their peak."""
        return self.world.traffic

    # -- time -------------------------------------------------------------------------------------

    def advance_time(self, seconds: float) -> None:
        """Move the fake's clock forward (e.g. 15 minutes to expire interaction tokens)."""
        self.world.clock.advance(seconds)

    # -- commands ---------------------------------------------------------------------------------

    def commands(self, guild: FakeGuild | None = None) -> list[RegisteredCommand]:
        """Commands the bot synced globally (``guild=None``) or to ``guild``."""
        return self.world.registry.commands(None if guild is None else guild.id)

    @property
    def command_syncs(self) -> list[CommandSync]:
        """Every bulk overwrite the bot made, accepted or refused, in order."""
        return list(self.world.command_syncs)

    def _command_for(
        self, user: FakeUser, channel: FakeChannel, name: str
    ) -> tuple[RegisteredCommand, dict[str, str]]:
        """The command ``/name`` as ``user`` sees it in ``channel``, and the installs offering
        it there (the interaction's ``authorizing_integration_owners``)."""
        command = self.world.find_command(name, channel)
        guild = self.world.guild_of(channel)
        context = self.world.context_of(channel)
        if guild is not None and guild.has_bot:  # command permissions come with the guild install
            needed = command.default_member_permissions
            perms = guild.permissions_for(user.id, channel)
            if needed is not None and not perms & Permission.ADMINISTRATOR and needed & ~int(perms):
                raise InvalidInvocation(
                    f"/{name} is hidden from {user!r}: needs permissions {needed}"
                )
        if (
            context is InteractionContext.BOT_DM
            and command.definition.get("dm_permission") is False
        ):
            raise InvalidInvocation(f"/{name} is not offered in DMs")
        installs, why_not = offering_installs(
            command,
            context,
            guild_install=context is InteractionContext.BOT_DM
            or (guild is not None and guild.has_bot),
            user_install=user.installed_app,
        )
        if not installs:
            where = {
                InteractionContext.GUILD: "in servers",
                InteractionContext.BOT_DM: "in DMs",
                InteractionContext.PRIVATE_CHANNEL: "in private channels",
            }[context]
            raise InvalidInvocation(f"/{name} is not offered {where} to {user!r}: {why_not}")
        owners: dict[str, str] = {}
        if IntegrationType.GUILD_INSTALL in installs:
            owners["0"] = "0" if guild is None else str(guild.id)
        if IntegrationType.USER_INSTALL in installs:
            owners["1"] = str(user.id)
        return command, owners

    def _component_owners(self, msg: RecordedMessage) -> dict[str, str] | None:
        """A component interaction is authorized as the interaction that made its message was
        (in a private channel: by the user whose command it was); ``None``: the default."""
        if msg.interaction_id is None:
            return None
        return self.world.interactions[msg.interaction_id].owners or None

    # -- interactions -----------------------------------------------------------------------------

    def send_command(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
    ) -> InteractionResult:
        """Dispatch ``/command`` (``"dvonn move"``) without waiting; see :meth:`run_command`."""
        name, *path = command.split()
        registered, owners = self._command_for(user, channel, name)
        values = dict(options or {})
        guild = self.world.guild_of(channel)
        invocation = build_invocation(
            registered, path, values, resolve=resolver_for(self.world, guild, channel)
        )
        record = self.desk.start(
            kind=InteractionType.APPLICATION_COMMAND,
            user=user,
            channel=channel,
            data=invocation.data,
            label=f"/{command} {describe_options(list(values.items()))}".strip(),
            needs_commands_permission=True,
            owners=owners,
        )
        return self._delivered(record)

    async def run_command(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        settle: bool = True,
        allow_no_response: bool = False,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """User ``user`` runs ``/command`` with ``options`` in ``channel``; returns the reply.

        Waits for the initial response (at most the 3 s deadline). Without one it raises
        :class:`InteractionFailed` unless ``allow_no_response``. With ``settle`` a deferred
        "thinking..." reply is awaited (up to ``timeout``) until the bot has filled it in.
        Raises :class:`InvalidInvocation` for what the Discord client would not let a user send
        (unknown command or option, a missing required option, a value outside the choices...).
        """
        result = self.send_command(user, channel, command, options)
        return await self._finish(
            result, settle=settle, allow_no_response=allow_no_response, timeout=timeout
        )

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
    ) -> list[Choice]:
        """The suggestions the bot offers while ``user`` types option ``focused``.

        ``options`` holds what is typed so far; the focused option's value is its partial text
        (``""`` if absent). Raises :class:`InteractionFailed` if the bot does not answer within
        the deadline or Discord refuses its answer (more than 25 choices, bad values...).
        """
        name, *path = command.split()
        registered, owners = self._command_for(user, channel, name)
        values = dict(options or {})
        values.setdefault(focused, "")
        guild = self.world.guild_of(channel)
        invocation = build_invocation(
            registered,
            path,
            values,
            resolve=resolver_for(self.world, guild, channel),
            focused=focused,
        )
        schema = next(o for o in invocation.leaf_options if o["name"] == focused)
        record = self.desk.start(
            kind=InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            user=user,
            channel=channel,
            data=invocation.data,
            label=f"autocomplete /{command} {focused}:{values[focused]!r}",
            focused_option_type=int(schema["type"]),
            needs_commands_permission=True,
            owners=owners,
        )
        result = await self._delivered(record).wait_response()
        result.require_response()
        return result.choices

    def send_click(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
    ) -> InteractionResult:
        """Dispatch a button click without waiting; see :meth:`click`."""
        msg = self._message_for(user, message)
        button = self._find_component(msg, custom_id=custom_id, label=label, types={2})
        if button.get("style") == 5:
            raise InvalidInvocation("a link button opens a URL; it sends no interaction")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        if "id" in button:
            data["id"] = button["id"]
        record = self.desk.start(
            kind=InteractionType.MESSAGE_COMPONENT,
            user=user,
            channel=self.world.channel(msg.channel_id),
            data=data,
            message=msg,
            label=f"click {button.get('label') or button['custom_id']!r}",
            owners=self._component_owners(msg),
        )
        return self._delivered(record)

    async def click(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        settle: bool = True,
        allow_no_response: bool = False,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """``user`` clicks the button with ``custom_id`` (or ``label``) on ``message``.

        The button must be on the message as the bot last sent or edited it, and enabled; an
        ephemeral message can only be clicked by the user who sees it. Waits like
        :meth:`run_command`.
        """
        result = self.send_click(user, message, custom_id, label=label)
        return await self._finish(
            result, settle=settle, allow_no_response=allow_no_response, timeout=timeout
        )

    async def select(
        self,
        user: FakeUser,
        message: MessageRef,
        custom_id: str,
        values: Sequence[Any],
        *,
        settle: bool = True,
        allow_no_response: bool = False,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """``user`` picks ``values`` in the select menu ``custom_id`` (strings, or fake objects)."""
        msg = self._message_for(user, message)
        menu = self._find_component(msg, custom_id=custom_id, label=None, types=set(_SELECT_TYPES))
        kind = int(menu["type"])
        low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
        if not low <= len(values) <= high:
            raise InvalidInvocation(
                f"select {custom_id!r} takes {low}..{high} values, not {len(values)}"
            )
        data: Json = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            offered = [o["value"] for o in menu.get("options", [])]
            if any(v not in offered for v in values):
                raise InvalidInvocation(
                    f"select {custom_id!r} offers {offered}, not {list(values)}"
                )
            data["values"] = list(values)
        else:
            guild = self.world.guild_of(self.world.channel(msg.channel_id))
            channel = self.world.channel(msg.channel_id)
            option_kind = {
                5: OptionType.USER,
                6: OptionType.ROLE,
                7: OptionType.MENTIONABLE,
                8: OptionType.CHANNEL,
            }[kind]
            resolved: dict[str, dict[str, Json]] = {}
            wire = []
            for value in values:
                entry = self.world.resolve_option(
                    option_kind, value, {"name": custom_id}, guild=guild, channel=channel
                )
                wire.append(str(entry.value))
                for key, objects in entry.resolved.items():
                    resolved.setdefault(key, {}).update(objects)
            data["values"], data["resolved"] = wire, resolved
        record = self.desk.start(
            kind=InteractionType.MESSAGE_COMPONENT,
            user=user,
            channel=self.world.channel(msg.channel_id),
            data=data,
            message=msg,
            label=f"select {custom_id!r} {list(values)!r}",
            owners=self._component_owners(msg),
        )
        result = self._delivered(record)
        return await self._finish(
            result, settle=settle, allow_no_response=allow_no_response, timeout=timeout
        )

    async def submit_modal(
        self,
        user: FakeUser,
        shown: InteractionResult,
        values: Mapping[str, str],
        *,
        settle: bool = True,
        allow_no_response: bool = False,
        timeout: float = 10.0,
    ) -> InteractionResult:
        """``user`` fills in the modal the bot showed in ``shown`` (text inputs by custom_id)."""
        modal = shown.modal
        if modal is None:
            raise InvalidInvocation(f"{shown!r} showed no modal")
        if shown.record.user is not user:
            raise InvalidInvocation("only the user who opened a modal can submit it")
        components = [_submitted(c, values) for c in modal.get("components", [])]
        record = self.desk.start(
            kind=InteractionType.MODAL_SUBMIT,
            user=user,
            channel=shown.record.channel,
            data={"custom_id": modal["custom_id"], "components": [c for c in components if c]},
            message=(
                None
                if shown.record.component_message_id is None
                else self.world.message(shown.record.component_message_id)
            ),
            label=f"submit modal {modal['custom_id']!r}",
            owners=shown.record.owners or None,
        )
        result = self._delivered(record)
        return await self._finish(
            result, settle=settle, allow_no_response=allow_no_response, timeout=timeout
        )

    def _delivered(self, record: InteractionRecord) -> InteractionResult:
        if not record.delivered:
            raise BotNotConnected(
                f"{record.label}: no bot session for this guild (start the bot and "
                "await fake.wait_for_ready() first)"
            )
        return self.result_for(record)

    def result_for(self, record: InteractionRecord) -> InteractionResult:
        """A test-side view of any interaction record (e.g. from :attr:`interactions`)."""
        return InteractionResult(
            record,
            lookup=self.world.message,
            wait_until=self.world.signal.wait_until,
            deadline=lambda: self.config.interaction_deadline,
            now=self.world.clock.now,
        )

    async def _finish(
        self, result: InteractionResult, *, settle: bool, allow_no_response: bool, timeout: float
    ) -> InteractionResult:
        await result.wait_response()
        if not allow_no_response:
            result.require_response()
        if settle and result.responded:
            await result.settled(timeout=timeout)
        return result

    def _message_for(self, user: FakeUser, message: MessageRef) -> RecordedMessage:
        msg = self.world.message(message if isinstance(message, int) else message.id)
        if msg.deleted:
            raise InvalidInvocation(f"{msg!r} was deleted")
        if msg.ephemeral and msg.visible_to != user.id:
            raise InvalidInvocation(f"{user!r} cannot see the ephemeral {msg!r}")
        return msg

    @staticmethod
    def _find_component(
        msg: RecordedMessage, *, custom_id: str | None, label: str | None, types: set[int]
    ) -> Json:
        candidates = [c for c in msg.iter_components() if int(c.get("type", 0)) in types]
        found = next(
            (
                c
                for c in candidates
                if (custom_id is not None and c.get("custom_id") == custom_id)
                or (custom_id is None and label is not None and c.get("label") == label)
            ),
            None,
        )
        if found is None:
            shown = [c.get("custom_id") or c.get("label") for c in candidates]
            raise InvalidInvocation(
                f"no component {custom_id or label!r} on {msg!r}; it has {shown}"
            )
        if found.get("disabled"):
            raise InvalidInvocation(f"{custom_id or label!r} on {msg!r} is disabled")
        return found

    # -- what happened ----------------------------------------------------------------------------

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions.values())

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST call the bot made, in order."""
        return list(self.world.requests)

    @property
    def unknown_routes(self) -> list[RecordedRequest]:
        """Calls to routes the fake does not implement (answered 404): should stay empty."""
        return list(self.world.unknown_routes)

    @property
    def deprecated_calls(self) -> list[DeprecatedCall]:
        """Calls Discord carries out but documents as deprecated (a followup that fills in a
        deferred response): should stay empty."""
        return list(self.world.deprecated)

    def mark(self) -> int:
        """An id below every message posted from now on (for ``after=``)."""
        return self.world.new_id()

    def message(self, message_id: int) -> RecordedMessage:
        return self.world.message(message_id)

    def messages_in(
        self,
        channel: FakeChannel,
        *,
        include_ephemeral: bool = False,
        after: MessageRef | None = None,
    ) -> list[RecordedMessage]:
        """Messages in ``channel`` oldest first (public ones unless ``include_ephemeral``)."""
        floor = 0 if after is None else (after if isinstance(after, int) else after.id)
        return [
            m
            for m in self.world.messages_in(channel.id, include_ephemeral=include_ephemeral)
            if m.id > floor
        ]

    def last_message(self, channel: FakeChannel) -> RecordedMessage | None:
        found = self.messages_in(channel)
        return found[-1] if found else None

    def visible_to(self, user: FakeUser, channel: FakeChannel) -> list[RecordedMessage]:
        """What ``user`` sees in ``channel``: public messages and ephemeral ones meant for them."""
        return self.world.visible_messages(channel.id, user.id)

    def threads_in(self, channel: FakeChannel) -> list[FakeChannel]:
        """Threads the bot started under ``channel``."""
        return [
            c for c in self.world.channels.values() if c.is_thread and c.parent_id == channel.id
        ]

    def dm_channel(self, user: FakeUser) -> FakeChannel | None:
        """The bot's DM with ``user``, once the bot has opened it."""
        return self.world.dm_channels.get(user.id)

    def dms_to(self, user: FakeUser) -> list[RecordedMessage]:
        channel = self.dm_channel(user)
        return [] if channel is None else self.messages_in(channel)

    # -- waiting ----------------------------------------------------------------------------------

    async def wait_until(
        self, predicate: Callable[[], T], *, timeout: float = 5.0, what: str = "a condition"
    ) -> T:
        """Return ``predicate()`` once truthy, re-checked on every change in the fake."""
        return await self.world.signal.wait_until(predicate, timeout=timeout, what=what)

    async def wait_for_message(
        self,
        channel: FakeChannel,
        where: Callable[[RecordedMessage], bool] | None = None,
        *,
        after: MessageRef | None = None,
        timeout: float = 5.0,
    ) -> RecordedMessage:
        """The first message in ``channel`` (after ``after``) that satisfies ``where``."""

        def find() -> RecordedMessage | None:
            return next(
                (m for m in self.messages_in(channel, after=after) if where is None or where(m)),
                None,
            )

        found = await self.wait_until(find, timeout=timeout, what=f"a message in {channel!r}")
        assert found is not None
        return found

    async def wait_for_ready(self, *, timeout: float = 10.0) -> None:
        """Wait until the bot has identified on every shard and been sent its guilds."""

        def ready() -> bool:
            live = self.gateway.live_sessions()
            if not live:
                return False
            count = max(s.shard.count for s in live)
            return len({s.shard.id for s in live if s.shard.count == count}) == count

        await self.wait_until(ready, timeout=timeout, what="the bot to connect to the gateway")

    # -- the gateway connection -------------------------------------------------------------------

    @property
    def gateway_events(self) -> list[GatewayEvent]:
        """Identify, resume, invalid session and close events, in order."""
        return list(self.gateway.events)

    async def drop_gateway(self, *, code: int | None = Close.UNKNOWN_ERROR) -> int:
        """Cut the bot's gateway connection(s) (close ``code``, or a TCP reset with ``None``).

        Sessions stay resumable: discord.py reconnects to ``resume_gateway_url`` and RESUMEs.
        Returns how many connections were dropped.
        """
        return await self.gateway.drop(code=code)

    @contextlib.asynccontextmanager
    async def gateway_outage(
        self, *, code: int | None = Close.UNKNOWN_ERROR
    ) -> AsyncIterator[None]:
        """Drop the connection and hold reconnects (before HELLO) until the block ends.

        Events dispatched inside the block (``send_command``...) wait in the session's backlog
        and are replayed when the bot resumes.
        """
        self.gateway.hold_connections()
        try:
            await self.gateway.drop(code=code)
            yield
        finally:
            self.gateway.release_connections()

    async def wait_for_resume(self, *, count: int = 1, timeout: float = 10.0) -> GatewayEvent:
        """Wait until ``count`` RESUMEs have happened; returns the latest."""
        await self.wait_until(
            lambda: len([e for e in self.gateway.events if e.kind == "resume"]) >= count,
            timeout=timeout,
            what=f"{count} gateway resume(s)",
        )
        return [e for e in self.gateway.events if e.kind == "resume"][-1]


def _submitted(component: Json, values: Mapping[str, str]) -> Json | None:
    """A modal component as the client sends it back: rows and labels with the typed values."""
    kind = int(component.get("type", 0))
    if kind == 1:
        return {
            "type": 1,
            "components": [
                c for c in (_submitted(x, values) for x in component.get("components", [])) if c
            ],
        }
    if kind == 18:
        inner = _submitted(component["component"], values)
        return None if inner is None else {"type": 18, "component": inner}
    if kind == 4:
        custom_id = component["custom_id"]
        value = values.get(custom_id, "")
        if component.get("required", True) and not value:
            raise InvalidInvocation(f"text input {custom_id!r} is required")
        return {"type": 4, "custom_id": custom_id, "value": value}
    return None
