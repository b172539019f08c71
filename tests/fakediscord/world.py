"""The fake Discord's state and rules: who exists, what was posted, what each call may do.

Everything that decides an outcome lives here, free of HTTP: the REST layer parses a request and
calls one method; the gateway layer delivers the events this module announces through its
``dispatcher``. Methods raise :class:`~tests.fakediscord.errors.DiscordError` for what Discord
refuses.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from tests.fakediscord import errors
from tests.fakediscord.clock import FakeClock, SnowflakeFactory, iso
from tests.fakediscord.commands import (
    CommandRegistry,
    InteractionContext,
    InvalidInvocation,
    OptionType,
    RegisteredCommand,
    ResolvedValue,
    Scope,
    validate_command,
    validate_commands,
)
from tests.fakediscord.errors import error_leaf
from tests.fakediscord.interactions import (
    DeprecatedCall,
    InteractionRecord,
    InteractionType,
)
from tests.fakediscord.messages import (
    NONCE_WINDOW,
    MessageFlag,
    MessageSource,
    MessageType,
    Pings,
    RecordedFile,
    RecordedMessage,
    check_message_fields,
    check_nonce,
    compute_pings,
    is_empty,
    raise_if_invalid,
)
from tests.fakediscord.models import (
    ChannelType,
    FakeChannel,
    FakeGuild,
    FakeUser,
    new_guild,
)
from tests.fakediscord.permissions import DEFAULT_BOT, DEFAULT_EVERYONE, Permission
from tests.fakediscord.ratelimits import RateLimiter, RateLimits, RestTraffic

MAX_GROUP_DM_RECIPIENTS = 10

Json = dict[str, Any]
T = TypeVar("T")


class Intent:
    """Gateway intent bits the fake checks."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


THREAD_ARCHIVE_DURATIONS = frozenset({60, 1440, 4320, 10080})
MAX_THREAD_NAME = 100
# Message flags a bot may set; EPHEMERAL only on interaction replies.
SETTABLE_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
)


@dataclass
class FakeConfig:
    """Knobs of the fake. The defaults are Discord's."""

    # The initial response must arrive within this many seconds (raise it on a slow CI runner).
    interaction_deadline: float = 3.0
    # Followups and edits of the original response work this long after the interaction.
    token_lifetime: float = 15 * 60.0
    # Per-file upload limit (the interaction's attachment_size_limit).
    upload_limit: int = 8 * 1024 * 1024
    heartbeat_interval_ms: int = 41_250
    # A HEARTBEAT_ACK comes back after a network round trip, never at once. (discord.py notes
    # when a heartbeat went out only after the send completed; an ACK handled before that
    # reads as a heartbeat a whole interval late: "Can't keep up ... 41.3s behind".)
    heartbeat_ack_delay: float = 0.02
    # What GET /gateway/bot recommends to an AutoShardedClient.
    shard_count: int = 1
    # Privileged intents enabled in the (fake) developer portal; others close with 4014.
    privileged_intents: int = 0
    # Answer compress=zlib-stream with compressed binary frames (else plain text frames).
    compress: bool = True
    daily_command_creates: int = 200
    # Dispatches kept per session for RESUME.
    backlog: int = 10_000
    # Discord's rate limits: the global one, per-route buckets, the ban for invalid requests.
    limits: RateLimits = field(default_factory=RateLimits)


@dataclass(eq=False)
class ResponseHold:
    """Keep the answer to the next call of ``method`` on ``path`` until :meth:`release`d: the
    call has been carried out (a message made), but its caller has not heard so yet, as when a
    connection hangs after Discord did the work. :attr:`entered` is set once a call is held."""

    method: str
    path: re.Pattern[str]
    entered: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    taken: bool = False

    def release(self) -> None:
        self.released.set()


@dataclass(frozen=True, slots=True)
class Upload:
    """A file part of a multipart request: ``files[index]``."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One REST call the bot made, and how the fake answered."""

    method: str
    path: str
    query: Mapping[str, str]
    body: Any
    file_names: tuple[str, ...]
    status: int
    error_code: int | None
    at: float
    """When the call came (the fake's clock)."""
    scope: str | None = None
    """A 429's ``X-RateLimit-Scope`` (``user``, ``global``, ``shared``), or ``ban``: refused
    by Cloudflare's ban."""


@dataclass(slots=True)
class RateLimit:
    """Answer the next ``times`` calls of ``method`` on a path matching ``path`` with a 429
    (besides Discord's own limits, :mod:`tests.fakediscord.ratelimits`)."""

    method: str
    path: re.Pattern[str]
    times: int
    retry_after: float
    is_global: bool


@dataclass(frozen=True, slots=True)
class CommandSync:
    """A bulk overwrite of commands the bot made, accepted or refused."""

    scope: Scope
    names: tuple[str, ...]
    accepted: bool


class Dispatcher(Protocol):
    """Delivers gateway events (implemented by the gateway server)."""

    def dispatch(
        self, event: str, data: Json, *, guild_id: int | None, intent: int | None
    ) -> str | None:
        """Send ``event`` to the session that should get it; that session's id, if any."""
        ...


class FakeDiscordTimeout(AssertionError):
    """Something a test waited for did not happen in time."""


@dataclass(eq=False)
class _Waiter:
    predicate: Callable[[], Any]
    future: asyncio.Future[Any]


class ChangeSignal:
    """Re-checks what tests wait for whenever the fake's state changes: no polling, no sleeps.

    Changes made in one go (one request, one dispatch) are checked once, after they are all
    done, and only a waiter whose condition now holds is woken. While anyone waits, conditions
    are also re-checked every ``RECHECK_SECONDS``, for those that look at the bot's own state
    (which changes without the fake knowing).
    """

    RECHECK_SECONDS = 0.02

    def __init__(self) -> None:
        self._waiters: list[_Waiter] = []
        self._check_scheduled = False
        self._recheck: asyncio.TimerHandle | None = None

    def notify(self) -> None:
        if self._waiters and not self._check_scheduled:
            self._check_scheduled = True
            asyncio.get_running_loop().call_soon(self._check)

    def _tick(self) -> None:
        self._recheck = None
        self._check()

    def _check(self) -> None:
        self._check_scheduled = False
        waiting: list[_Waiter] = []
        for waiter in self._waiters:
            if waiter.future.done():
                continue  # timed out or cancelled
            try:
                result = waiter.predicate()
            except Exception as error:  # a broken predicate fails its own test
                waiter.future.set_exception(error)
                continue
            if result:
                waiter.future.set_result(result)
            else:
                waiting.append(waiter)
        self._waiters = waiting
        if waiting and self._recheck is None:
            self._recheck = asyncio.get_running_loop().call_later(self.RECHECK_SECONDS, self._tick)

    async def wait_until(
        self,
        predicate: Callable[[], T],
        *,
        timeout: float,
        what: str,
        raise_on_timeout: bool = True,
        failure: type[AssertionError] = FakeDiscordTimeout,
    ) -> T:
        """Return ``predicate()`` as soon as it is truthy; fail after ``timeout`` seconds."""
        result = predicate()
        if result:
            return result
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._waiters.append(_Waiter(predicate, future))
        if self._recheck is None:
            self._recheck = loop.call_later(self.RECHECK_SECONDS, self._tick)
        try:
            return await asyncio.wait_for(future, max(timeout, 0.0))
        except TimeoutError:
            if raise_on_timeout:
                raise failure(f"timed out after {timeout:g} s waiting for {what}") from None
            return predicate()


class World:
    """All of the fake's state, and Discord's rules for changing it."""

    def __init__(self, config: FakeConfig, *, bot_name: str = "dvonn-bot") -> None:
        self.config = config
        self.clock = FakeClock()
        self.ids = SnowflakeFactory(self.clock)
        self.signal = ChangeSignal()
        self.token = f"fake.{secrets.token_urlsafe(18)}"
        self.bot = FakeUser(id=self.ids.next(), username=bot_name, bot=True)
        self.application_id = self.bot.id  # as for every bot made since 2019
        self.owner = FakeUser(id=self.ids.next(), username="app-owner")
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, FakeGuild] = {}  # the bot's
        self.other_guilds: dict[int, FakeGuild] = {}  # servers the app is not installed in
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient id
        self.messages: dict[int, RecordedMessage] = {}
        self.nonce_hits = 0
        """How often a nonce returned the message made before (a post made twice, seen once)."""
        self.nonces: dict[tuple[int, str], int] = {}
        """(author, nonce) of messages created with ``enforce_nonce``: the message's id."""
        self.channel_messages: dict[int, list[int]] = {}
        self.files: dict[int, RecordedFile] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.registry = CommandRegistry(
            self.application_id, self.ids.next, config.daily_command_creates
        )
        self.command_syncs: list[CommandSync] = []
        self.requests: list[RecordedRequest] = []
        self.unknown_routes: list[RecordedRequest] = []
        self.deprecated: list[DeprecatedCall] = []
        """Calls Discord carries out but documents as deprecated (the tests fail on them)."""
        self.rate_limits: list[RateLimit] = []
        self.traffic = RestTraffic(self.clock, config.limits)
        """The REST calls' counters: by route, against the global limit, 429s, invalid ones."""
        self.limiter = RateLimiter(config.limits, self.clock, self.traffic)
        self.holds: list[ResponseHold] = []
        self.http_base = "http://127.0.0.1"  # set once the server listens
        self.dispatcher: Dispatcher | None = None

    # -- plumbing ---------------------------------------------------------------------------------

    def new_id(self) -> int:
        return self.ids.next()

    def now(self) -> datetime:
        return self.clock.utcnow()

    def changed(self) -> None:
        self.signal.notify()

    # -- rate limits ------------------------------------------------------------------------------

    @property
    def limits(self) -> RateLimits:
        """Discord's limits this fake enforces (switch them here, e.g. ``per_channel``)."""
        return self.limiter.limits

    def rate_limit(
        self,
        method: str,
        path: str,
        *,
        times: int = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
    ) -> RateLimit:
        """Refuse the next ``times`` matching calls with 429 (``path``: a regex on the path)."""
        rule = RateLimit(method.upper(), re.compile(path), times, retry_after, is_global)
        self.rate_limits.append(rule)
        return rule

    def hold_response(self, method: str, path: str) -> ResponseHold:
        """Hold the answer to the next matching call (``path``: a regex on the path)."""
        hold = ResponseHold(method.upper(), re.compile(path))
        self.holds.append(hold)
        return hold

    def take_hold(self, method: str, path: str) -> ResponseHold | None:
        for hold in self.holds:
            if not hold.taken and hold.method == method and hold.path.search(path):
                hold.taken = True
                return hold
        return None

    def take_rate_limit(self, method: str, path: str) -> RateLimit | None:
        """The rule that refuses this call, if any (counting it as used)."""
        for rule in self.rate_limits:
            if rule.times > 0 and rule.method == method and rule.path.search(path):
                rule.times -= 1
                return rule
        return None

    def dispatch(
        self, event: str, data: Json, *, guild_id: int | None, intent: int | None
    ) -> str | None:
        """Announce a gateway event; returns the id of the session that will get it."""
        session_id = None
        if self.dispatcher is not None:
            session_id = self.dispatcher.dispatch(event, data, guild_id=guild_id, intent=intent)
        self.changed()
        return session_id

    # GuildHost, for FakeGuild.add_text_channel
    def register_channel(self, channel: FakeChannel) -> None:
        self.channels[channel.id] = channel
        self.channel_messages.setdefault(channel.id, [])

    def channel_added(self, channel: FakeChannel) -> None:
        if channel.guild_id is not None and channel.guild_id in self.guilds:
            self.dispatch(
                "CHANNEL_CREATE",
                channel.to_payload(),
                guild_id=channel.guild_id,
                intent=Intent.GUILDS,
            )

    # -- building the world -----------------------------------------------------------------------

    def add_user(
        self,
        name: str,
        *,
        accepts_dms: bool = True,
        global_name: str | None = None,
        installed_app: bool = False,
    ) -> FakeUser:
        user = FakeUser(
            id=self.new_id(),
            username=name,
            global_name=global_name,
            accepts_dms=accepts_dms,
            installed_app=installed_app,
        )
        self.users[user.id] = user
        return user

    def add_private_channel(self, users: Sequence[FakeUser], *, name: str = "") -> FakeChannel:
        """A DM (two users) or group DM (three to ten) between users; the bot is not in it.

        Nothing is announced: the bot hears of it only through interactions from inside it.
        """
        ids = [u.id for u in users]
        if any(u.bot for u in users) or any(u.id not in self.users for u in users):
            raise ValueError("private channels are between users of the fake, never bots")
        if len(set(ids)) != len(ids) or not 2 <= len(ids) <= MAX_GROUP_DM_RECIPIENTS:
            raise ValueError(
                f"a DM is between 2 users, a group DM at most {MAX_GROUP_DM_RECIPIENTS}: {users}"
            )
        channel = FakeChannel(
            id=self.new_id(),
            type=ChannelType.DM if len(ids) == 2 else ChannelType.GROUP_DM,
            name=name,
            recipient_ids=tuple(ids),
            created_at=self.now(),
        )
        self.register_channel(channel)
        return channel

    def install_app(self, user: FakeUser, *, installed: bool = True) -> None:
        """``user`` installs the app to their account (or removes it, ``installed=False``)."""
        user.installed_app = installed
        self.changed()

    def add_guild(
        self,
        name: str,
        *,
        guild_id: int | None = None,
        bot_permissions: Permission = DEFAULT_BOT,
        everyone_permissions: Permission = DEFAULT_EVERYONE,
        bot_member: bool = True,
    ) -> FakeGuild:
        guild = new_guild(
            self,
            guild_id=guild_id if guild_id is not None else self.new_id(),
            name=name,
            owner=self.owner,
            bot=self.bot,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
            with_bot=bot_member,
        )
        if not bot_member:
            self.other_guilds[guild.id] = guild  # the bot never hears of it
            return guild
        self.guilds[guild.id] = guild
        self.dispatch(
            "GUILD_CREATE", self.guild_payload(guild), guild_id=guild.id, intent=Intent.GUILDS
        )
        return guild

    def remove_bot(self, guild: FakeGuild) -> None:
        """The bot is removed from ``guild`` (kicked, banned, or the app taken out by a
        moderator), as Discord does it:

        - a GUILD_DELETE without ``unavailable`` (the unavailable guild object, only its id) to
          the session of the shard holding the guild: "If the unavailable field is not set, the
          user was removed from the guild" (the gateway events documentation), so discord.py
          fires ``on_guild_remove`` and drops the guild from its cache (an outage would set
          ``unavailable: true``: ``on_guild_unavailable``);
        - its member and its managed role are gone, and it leaves the guild's threads;
        - the guild becomes one the app is not installed in (see :meth:`add_guild` with
          ``bot_member=False``): REST in its channels is refused with 403 Missing Access
          (50001), its own routes with 404 Unknown Guild (10004), no event of it reaches the
          bot, and only members who installed the app to their account still reach it there.
        """
        if self.guilds.get(guild.id) is not guild:
            raise ValueError(f"the bot is not in {guild!r}")
        del self.guilds[guild.id]
        guild.members.pop(self.bot.id, None)
        for role in [r for r in guild.roles.values() if r.bot_id == self.bot.id]:
            del guild.roles[role.id]
        for thread in guild.threads:
            thread.member_ids.discard(self.bot.id)
        self.other_guilds[guild.id] = guild
        self.dispatch(
            "GUILD_DELETE", {"id": str(guild.id)}, guild_id=guild.id, intent=Intent.GUILDS
        )

    # -- lookups ----------------------------------------------------------------------------------

    def channel(self, channel_id: int) -> FakeChannel:
        channel = self.channels.get(channel_id)
        if channel is None:
            raise errors.unknown_channel()
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        if channel.guild_id is None:
            return None
        return self.guilds.get(channel.guild_id) or self.other_guilds.get(channel.guild_id)

    def user(self, user_id: int) -> FakeUser:
        user = self.users.get(user_id)
        if user is None:
            raise errors.unknown_user()
        return user

    def message(self, message_id: int) -> RecordedMessage:
        message = self.messages.get(message_id)
        if message is None:
            raise KeyError(f"no message {message_id}")
        return message

    def messages_in(
        self, channel_id: int, *, include_ephemeral: bool = False
    ) -> list[RecordedMessage]:
        found = (self.messages[m] for m in self.channel_messages.get(channel_id, []))
        return [m for m in found if not m.deleted and (include_ephemeral or not m.ephemeral)]

    def context_of(self, channel: FakeChannel) -> InteractionContext:
        """The interaction context of ``channel``: a guild, the bot's DM, or a private channel."""
        if channel.is_private:
            return InteractionContext.PRIVATE_CHANNEL
        if channel.is_bot_dm:
            return InteractionContext.BOT_DM
        return InteractionContext.GUILD

    def bot_channel(self, channel_id: int) -> FakeChannel:
        """A channel as the bot's REST calls reach it: a private channel between users, and
        a channel of a server the bot is not in (or was removed from), are out of its reach
        (403, Missing Access), as the bot is not in them."""
        channel = self.channel(channel_id)
        if channel.is_private:
            raise errors.missing_access()
        if channel.guild_id is not None and channel.guild_id not in self.guilds:
            raise errors.missing_access()
        return channel

    def sees_channel(self, channel_id: int) -> bool:
        """Whether the bot gets gateway events from the channel: not from private channels,
        nor from servers it is not in."""
        channel = self.channels.get(channel_id)
        if channel is None or channel.is_private:
            return False
        return channel.guild_id is None or channel.guild_id in self.guilds

    def can_dm(self, user: FakeUser) -> bool:
        """The bot may message ``user`` in its DM if they installed the app to their account,
        or share a server with the bot and accept DMs from its members."""
        return user.installed_app or (user.accepts_dms and self._shares_guild(user))

    def bot_permissions(self, channel: FakeChannel) -> Permission:
        if channel.is_private:
            return Permission(0)  # not its channel; see PRIVATE_CHANNEL_APP_PERMISSIONS
        if channel.is_bot_dm:
            return (
                Permission.VIEW_CHANNEL
                | Permission.SEND_MESSAGES
                | Permission.READ_MESSAGE_HISTORY
                | Permission.ATTACH_FILES
                | Permission.EMBED_LINKS
                | Permission.MENTION_EVERYONE
                | Permission.USE_EXTERNAL_EMOJIS
            )
        guild = self.guild_of(channel)
        return Permission(0) if guild is None else guild.permissions_for(self.bot.id, channel)

    def _require(self, channel: FakeChannel, needed: Permission) -> None:
        have = self.bot_permissions(channel)
        if not have & Permission.VIEW_CHANNEL:
            raise errors.missing_access()
        if needed & ~have:
            raise errors.missing_permissions()

    # -- payloads ---------------------------------------------------------------------------------

    def current_user_payload(self) -> Json:
        return self.bot.to_payload() | {
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "premium_type": 0,
        }

    def application_payload(self) -> Json:
        return {
            "id": str(self.application_id),
            "name": self.bot.username,
            "icon": None,
            "description": "DVONN on Discord (fake application)",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot.to_payload(),
            "owner": self.owner.to_payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "rpc_origins": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "role_connections_verification_url": None,
            "install_params": {
                "scopes": ["bot", "applications.commands"],
                "permissions": str(int(DEFAULT_BOT)),
            },
            # Installable to servers and to users' accounts.
            "integration_types_config": {
                "0": {
                    "oauth2_install_params": {
                        "scopes": ["applications.commands", "bot"],
                        "permissions": str(int(DEFAULT_BOT)),
                    }
                },
                "1": {
                    "oauth2_install_params": {
                        "scopes": ["applications.commands"],
                        "permissions": "0",
                    }
                },
            },
            "approximate_guild_count": len(self.guilds),
            "approximate_user_install_count": sum(u.installed_app for u in self.users.values()),
        }

    def guild_payload(self, guild: FakeGuild) -> Json:
        return guild.to_payload(thread_payload=self.channel_payload)

    def channel_payload(self, channel: FakeChannel) -> Json:
        if channel.is_private:
            recipients = [self.users[u] for u in channel.recipient_ids]
        elif channel.recipient_id is not None:
            recipients = [self.users[channel.recipient_id]]
        else:
            recipients = []
        count = len(self.channel_messages.get(channel.id, []))
        return channel.to_payload(recipients=recipients, message_count=count)

    def message_payload(self, message: RecordedMessage) -> Json:
        author = self.users[message.author_id]
        payload: Json = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": author.to_payload(),
            "content": message.content,
            "timestamp": iso(message.created_at),
            "edited_timestamp": None if message.edited_at is None else iso(message.edited_at),
            "tts": message.tts,
            "mention_everyone": message.pings.everyone,
            "mentions": [
                self.users[u].to_payload()
                for u in sorted(message.pings.user_ids)
                if u in self.users
            ],
            "mention_roles": [str(r) for r in sorted(message.pings.role_ids)],
            "attachments": [f.to_payload() for f in message.files],
            "embeds": [self._resolved_embed(e, message) for e in message.embeds],
            "components": message.components,
            "pinned": False,
            "type": int(message.type),
            "flags": message.flags,
        }
        if message.guild_id is not None:
            payload["guild_id"] = str(message.guild_id)
        if message.source in (MessageSource.INTERACTION_RESPONSE, MessageSource.FOLLOWUP):
            payload["webhook_id"] = str(self.application_id)
            payload["application_id"] = str(self.application_id)
        if message.interaction_id is not None:
            record = self.interactions[message.interaction_id]
            payload["interaction_metadata"] = self._interaction_metadata(record, message)
        if message.message_reference is not None:
            payload["message_reference"] = message.message_reference
        if message.nonce is not None:
            payload["nonce"] = message.nonce
        if message.thread_id is not None and message.thread_id in self.channels:
            payload["thread"] = self.channel_payload(self.channels[message.thread_id])
        return payload

    def _interaction_metadata(self, record: InteractionRecord, message: RecordedMessage) -> Json:
        meta: Json = {
            "id": str(record.id),
            "type": int(record.type),
            "user": record.user.to_payload(),
            "authorizing_integration_owners": record.payload.get(
                "authorizing_integration_owners", {}
            ),
        }
        if record.type is InteractionType.APPLICATION_COMMAND:
            meta["name"] = record.payload["data"]["name"]
            meta["command_type"] = record.payload["data"].get("type", 1)
        if record.component_message_id is not None:
            meta["interacted_message_id"] = str(record.component_message_id)
        if record.original_message_id is not None and record.original_message_id != message.id:
            meta["original_response_message_id"] = str(record.original_message_id)
        return meta

    def _resolved_embed(self, embed: Json, message: RecordedMessage) -> Json:
        """``attachment://board.png`` becomes the attachment's URL, as Discord shows it."""
        resolved = dict(embed)
        resolved.setdefault("type", "rich")
        for key in ("image", "thumbnail"):
            media = embed.get(key)
            if not isinstance(media, dict):
                continue
            attached = message.file_for_url(str(media.get("url", "")))
            if attached is not None:
                media = dict(media, url=attached.url, proxy_url=attached.url)
                if (dims := attached.image_size()) is not None:
                    media["width"], media["height"] = dims
                resolved[key] = media
        return resolved

    # -- messages ---------------------------------------------------------------------------------

    def _store_uploads(
        self,
        channel_id: int,
        payload: Json,
        uploads: Sequence[Upload],
        existing: Sequence[RecordedFile],
    ) -> list[RecordedFile]:
        """The message's files after this request: kept ones and new uploads.

        With an ``attachments`` list only the listed existing files stay (that is how a bot
        replaces an image on edit); without it new uploads are added to the existing files.
        """
        for upload in uploads:
            if len(upload.data) > self.config.upload_limit:
                raise errors.request_too_large()
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()
        result: list[RecordedFile] = []
        listed = payload.get("attachments")
        if listed is None:
            result = list(existing)
        else:
            old = {f.id: f for f in existing}
            for position, entry in enumerate(listed):
                ref = int(entry.get("id"))
                if ref in old:
                    result.append(old[ref])
                elif ref in by_index:
                    result.append(self._new_file(channel_id, by_index[ref], entry))
                    used.add(ref)
                else:
                    raise errors.field_error(
                        f"attachments.{position}.id",
                        "ATTACHMENT_NOT_FOUND",
                        f"Unknown attachment {ref}: not uploaded, not on the message",
                    )
        for upload in uploads:
            if upload.index not in used:
                result.append(self._new_file(channel_id, upload, {}))
        return result

    def _new_file(self, channel_id: int, upload: Upload, entry: Mapping[str, Any]) -> RecordedFile:
        file_id = self.new_id()
        filename = str(entry.get("filename") or upload.filename)
        recorded = RecordedFile(
            id=file_id,
            filename=filename,
            data=upload.data,
            content_type=upload.content_type,
            description=entry.get("description"),
            url=f"{self.http_base}/attachments/{channel_id}/{file_id}/{filename}",
        )
        self.files[file_id] = recorded
        return recorded

    def create_message(
        self,
        channel: FakeChannel,
        payload: Json,
        uploads: Sequence[Upload] = (),
        *,
        source: MessageSource,
        interaction: InteractionRecord | None = None,
        loading: bool = False,
        author: FakeUser | None = None,
        message_type: MessageType = MessageType.DEFAULT,
    ) -> RecordedMessage:
        """Validate and store a new message, compute its pings, announce it.

        With ``enforce_nonce``, a nonce the same author used within :data:`NONCE_WINDOW`
        returns that message instead of a new one, as Discord does; if that message has been
        deleted since, the request fails with Unknown Message (10008)."""
        raise_if_invalid(check_message_fields(payload, file_count=len(uploads)))
        nonce = check_nonce(payload.get("nonce"))
        author_id = (author or self.bot).id
        if nonce is not None and payload.get("enforce_nonce"):
            earlier = self.messages.get(self.nonces.get((author_id, nonce), 0))
            if earlier is not None and self.now() - earlier.created_at <= NONCE_WINDOW:
                if earlier.deleted:
                    raise errors.unknown_message()
                self.nonce_hits += 1
                return earlier
        if not loading and is_empty(payload, file_count=len(uploads)):
            raise errors.empty_message()
        flags = int(payload.get("flags") or 0)
        kept = flags & SETTABLE_FLAGS
        if interaction is not None and (
            flags & MessageFlag.EPHEMERAL or interaction.forced_ephemeral
        ):
            kept |= MessageFlag.EPHEMERAL
        if loading:
            kept |= MessageFlag.LOADING
        message_id = self.new_id()
        files = self._store_uploads(channel.id, payload, uploads, [])
        ephemeral = bool(kept & MessageFlag.EPHEMERAL)
        content = str(payload.get("content") or "")
        message = RecordedMessage(
            id=message_id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=(author or self.bot).id,
            source=source,
            type=message_type,
            created_at=self.now(),
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            files=files,
            flags=int(kept),
            tts=bool(payload.get("tts", False)),
            allowed_mentions=payload.get("allowed_mentions"),
            interaction_id=None if interaction is None else interaction.id,
            visible_to=interaction.user.id if ephemeral and interaction is not None else None,
            message_reference=payload.get("message_reference"),
            nonce=nonce,
        )
        if nonce is not None and payload.get("enforce_nonce"):
            self.nonces[(author_id, nonce)] = message.id
        if not ephemeral and not loading:
            message.pings = self._pings(channel, content, payload.get("allowed_mentions"))
        self.messages[message.id] = message
        self.channel_messages.setdefault(channel.id, []).append(message.id)
        if not ephemeral:
            self._announce("MESSAGE_CREATE", message)
        else:
            self.changed()
        return message

    def _pings(self, channel: FakeChannel, content: str, allowed: Json | None) -> Pings:
        guild = self.guild_of(channel)
        mentionable = (
            frozenset(r.id for r in guild.roles.values() if r.mentionable) if guild else frozenset()
        )
        pings = compute_pings(
            content,
            allowed,
            may_mention_everyone=bool(self.bot_permissions(channel) & Permission.MENTION_EVERYONE),
            mentionable_role_ids=mentionable,
        )
        if channel.is_private:
            # Only the channel's users see the message, so only they can be notified.
            pings = Pings(pings.user_ids & frozenset(channel.recipient_ids))
        return pings

    def edit_message(
        self, message: RecordedMessage, payload: Json, uploads: Sequence[Upload] = ()
    ) -> RecordedMessage:
        """Apply an edit: fields present in ``payload`` replace the old ones. Edits never ping."""
        raise_if_invalid(check_message_fields(payload, file_count=len(uploads)))
        files = message.files
        if "attachments" in payload or uploads:
            files = self._store_uploads(message.channel_id, payload, uploads, message.files)
        content = message.content if "content" not in payload else str(payload["content"] or "")
        embeds = message.embeds if "embeds" not in payload else list(payload["embeds"] or [])
        components = (
            message.components if "components" not in payload else list(payload["components"] or [])
        )
        if is_empty(
            {"content": content, "embeds": embeds, "components": components}, file_count=len(files)
        ):
            raise errors.empty_message()
        was_loading = message.loading
        message.revisions.append(message.snapshot())
        message.content, message.embeds, message.components, message.files = (
            content,
            embeds,
            components,
            files,
        )
        flags = message.flags & ~MessageFlag.LOADING
        if "flags" in payload and payload["flags"] is not None:
            # Only these can change after creation; EPHEMERAL stays what it was.
            changeable = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
            flags = (flags & ~changeable) | (int(payload["flags"]) & changeable)
        message.flags = int(flags)
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        # Filling in a "thinking..." placeholder is not shown as an edit.
        if not was_loading:
            message.edited_at = self.now()
        if message.ephemeral:
            self.changed()
        else:
            self._announce("MESSAGE_UPDATE", message)
        return message

    def delete_message(self, message: RecordedMessage) -> None:
        message.deleted = True
        if message.ephemeral or not self.sees_channel(message.channel_id):
            self.changed()
            return
        data: Json = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        intent = Intent.DIRECT_MESSAGES if message.guild_id is None else Intent.GUILD_MESSAGES
        self.dispatch("MESSAGE_DELETE", data, guild_id=message.guild_id, intent=intent)

    def _announce(self, event: str, message: RecordedMessage) -> None:
        if not self.sees_channel(message.channel_id):
            self.changed()  # the bot is not in the channel: no gateway event
            return
        intent = Intent.DIRECT_MESSAGES if message.guild_id is None else Intent.GUILD_MESSAGES
        self.dispatch(
            event, self.message_payload(message), guild_id=message.guild_id, intent=intent
        )

    # -- channel REST -----------------------------------------------------------------------------

    def post_channel_message(
        self, channel_id: int, payload: Json, uploads: Sequence[Upload]
    ) -> RecordedMessage:
        channel = self.bot_channel(channel_id)
        if channel.is_bot_dm:
            if not self.can_dm(self.users[channel.recipient_id or 0]):
                raise errors.cannot_dm_user()
        else:
            needed = (
                Permission.SEND_MESSAGES_IN_THREADS
                if channel.is_thread
                else Permission.SEND_MESSAGES
            )
            if uploads:
                needed |= Permission.ATTACH_FILES
            self._require(channel, needed)
            if channel.is_thread and channel.locked:
                self._require(channel, Permission.MANAGE_THREADS)
            if channel.is_thread and channel.archived:
                channel.archived = False  # posting in an archived thread reopens it
        reply = payload.get("message_reference") is not None
        return self.create_message(
            channel,
            payload,
            uploads,
            source=MessageSource.CHANNEL,
            message_type=MessageType.REPLY if reply else MessageType.DEFAULT,
        )

    def _shares_guild(self, user: FakeUser) -> bool:
        return any(user.id in g.members for g in self.guilds.values())

    def channel_message(self, channel_id: int, message_id: int) -> RecordedMessage:
        channel = self.bot_channel(channel_id)
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            raise errors.unknown_message()
        if not channel.is_bot_dm:
            self._require(channel, Permission.READ_MESSAGE_HISTORY)
        return message

    def edit_channel_message(
        self, channel_id: int, message_id: int, payload: Json, uploads: Sequence[Upload]
    ) -> RecordedMessage:
        message = self.channel_message(channel_id, message_id)
        if message.author_id != self.bot.id:
            raise errors.DiscordError(403, 50005, "Cannot edit a message authored by another user")
        return self.edit_message(message, payload, uploads)

    def delete_channel_message(self, channel_id: int, message_id: int) -> None:
        message = self.channel_message(channel_id, message_id)
        if message.author_id != self.bot.id:
            self._require(self.bot_channel(channel_id), Permission.MANAGE_MESSAGES)
        self.delete_message(message)

    def history(
        self, channel_id: int, *, limit: int, before: int | None, after: int | None
    ) -> list[RecordedMessage]:
        channel = self.bot_channel(channel_id)
        if not channel.is_bot_dm:
            self._require(channel, Permission.READ_MESSAGE_HISTORY)
        found = [
            m
            for m in self.messages_in(channel_id)
            if (before is None or m.id < before) and (after is None or m.id > after)
        ]
        found.sort(key=lambda m: m.id, reverse=after is None)
        return found[: max(1, min(limit, 100))]

    def open_dm(self, recipient_id: int) -> FakeChannel:
        recipient = self.users.get(recipient_id)
        if recipient is None or recipient.bot:
            raise errors.invalid_recipients()
        channel = self.dm_channels.get(recipient_id)
        if channel is None:
            channel = FakeChannel(
                id=self.new_id(), type=ChannelType.DM, name="", recipient_id=recipient_id
            )
            self.dm_channels[recipient_id] = channel
            self.register_channel(channel)
        return channel

    # -- threads ----------------------------------------------------------------------------------

    def start_thread(self, channel_id: int, body: Json, *, from_message: int | None) -> FakeChannel:
        """POST /channels/{id}/messages/{mid}/threads, or /channels/{id}/threads without one."""
        parent = self.bot_channel(channel_id)
        if parent.type not in (ChannelType.GUILD_TEXT, ChannelType.GUILD_ANNOUNCEMENT):
            raise errors.wrong_channel_type()
        starter: RecordedMessage | None = None
        if from_message is not None:
            starter = self.channel_message(channel_id, from_message)
            kind = (
                ChannelType.ANNOUNCEMENT_THREAD
                if parent.type is ChannelType.GUILD_ANNOUNCEMENT
                else ChannelType.PUBLIC_THREAD
            )
        else:
            # Discord's default without a message is a private thread (a historical choice).
            kind = ChannelType(int(body.get("type") or ChannelType.PRIVATE_THREAD))
            if kind not in (
                ChannelType.PUBLIC_THREAD,
                ChannelType.PRIVATE_THREAD,
                ChannelType.ANNOUNCEMENT_THREAD,
            ):
                raise errors.field_error(
                    "type", "BASE_TYPE_CHOICES", "Value must be one of {10, 11, 12}."
                )
        needed = (
            Permission.CREATE_PRIVATE_THREADS
            if kind is ChannelType.PRIVATE_THREAD
            else Permission.CREATE_PUBLIC_THREADS
        )
        self._require(parent, needed)
        problems: Json = {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_THREAD_NAME:
            problems["name"] = error_leaf(
                "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_THREAD_NAME} in length."
            )
        duration = body.get("auto_archive_duration") or 4320
        if duration not in THREAD_ARCHIVE_DURATIONS:
            problems["auto_archive_duration"] = error_leaf(
                "BASE_TYPE_CHOICES", "Value must be one of {60, 1440, 4320, 10080}."
            )
        if problems:
            raise errors.invalid_form_body(problems)
        if starter is not None and starter.thread_id is not None:
            raise errors.thread_already_created()
        thread = FakeChannel(
            # A thread started from a message has the message's id, as on Discord.
            id=starter.id if starter is not None else self.new_id(),
            type=kind,
            name=str(name),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot.id,
            auto_archive_duration=int(duration),
            invitable=bool(body.get("invitable", True)),
            member_ids={self.bot.id},
            created_at=self.now(),
        )
        self.register_channel(thread)
        guild = self.guild_of(parent)
        assert guild is not None
        guild.threads.append(thread)
        if starter is not None:
            starter.thread_id = thread.id
        self.dispatch(
            "THREAD_CREATE",
            self.channel_payload(thread)
            | {"newly_created": True, "member": self._thread_member(thread, self.bot.id)},
            guild_id=guild.id,
            intent=Intent.GUILDS,
        )
        if starter is None and kind is not ChannelType.PRIVATE_THREAD:
            # Discord notes a new public thread in its parent channel.
            self.create_message(
                parent,
                {"content": thread.name},
                source=MessageSource.SYSTEM,
                message_type=MessageType.THREAD_CREATED,
            )
        return thread

    def _thread_member(self, thread: FakeChannel, user_id: int) -> Json:
        return {
            "id": str(thread.id),
            "user_id": str(user_id),
            "join_timestamp": iso(self.now()),
            "flags": 0,
        }

    def add_thread_member(self, thread_id: int, user_id: int) -> None:
        thread = self.bot_channel(thread_id)
        if not thread.is_thread:
            raise errors.wrong_channel_type()
        if thread.archived:
            raise errors.DiscordError(400, 50083, "Thread is archived")
        guild = self.guild_of(thread)
        if user_id != self.bot.id:
            self._require(thread, Permission.SEND_MESSAGES_IN_THREADS)
            if guild is None or user_id not in guild.members:
                raise errors.unknown_member()
        thread.member_ids.add(user_id)
        self.changed()

    def remove_thread_member(self, thread_id: int, user_id: int) -> None:
        thread = self.bot_channel(thread_id)
        if not thread.is_thread:
            raise errors.wrong_channel_type()
        if self.bot.id not in (user_id, thread.owner_id):
            self._require(thread, Permission.MANAGE_THREADS)
        thread.member_ids.discard(user_id)
        self.changed()

    def thread_member(self, thread_id: int, user_id: int) -> Json:
        thread = self.bot_channel(thread_id)
        if user_id not in thread.member_ids:
            raise errors.unknown_member()
        return self._thread_member(thread, user_id)

    def modify_channel(self, channel_id: int, body: Json) -> FakeChannel:
        channel = self.bot_channel(channel_id)
        if channel.is_bot_dm:
            raise errors.wrong_channel_type()
        if channel.is_thread:
            # The thread's creator may rename or archive it; locking takes Manage Threads.
            if channel.owner_id != self.bot.id or "locked" in body:
                self._require(channel, Permission.MANAGE_THREADS)
            for key in ("name", "archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    setattr(channel, key, body[key])
            event = "THREAD_UPDATE"
        else:
            self._require(channel, Permission.MANAGE_CHANNELS)
            for key in ("name", "topic"):
                if key in body:
                    setattr(channel, key, body[key])
            event = "CHANNEL_UPDATE"
        self.dispatch(
            event, self.channel_payload(channel), guild_id=channel.guild_id, intent=Intent.GUILDS
        )
        return channel

    # -- application commands ---------------------------------------------------------------------

    def command_scope(self, application_id: int, guild_id: int | None) -> Scope:
        if application_id != self.application_id:
            raise errors.DiscordError(403, 50001, "Missing Access")
        if guild_id is not None and guild_id not in self.guilds:
            raise errors.missing_access()
        return guild_id

    def overwrite_commands(self, scope: Scope, payload: object) -> list[RegisteredCommand]:
        problems = validate_commands(payload)
        names = (
            tuple(str(c.get("name")) for c in payload if isinstance(c, dict))
            if isinstance(payload, list)
            else ()
        )
        if problems:
            self.command_syncs.append(CommandSync(scope, names, accepted=False))
            raise errors.invalid_form_body(problems)
        assert isinstance(payload, list)
        self._count_creates(scope, self.registry.count_new(scope, payload))
        commands = self.registry.bulk_overwrite(scope, payload)
        self.command_syncs.append(CommandSync(scope, names, accepted=True))
        self.changed()
        return commands

    def upsert_command(self, scope: Scope, payload: object) -> RegisteredCommand:
        problems = validate_command(payload)
        if problems:
            raise errors.invalid_form_body(problems)
        assert isinstance(payload, dict)
        self._count_creates(scope, self.registry.count_new(scope, [payload]))
        command = self.registry.upsert(scope, payload)
        self.changed()
        return command

    def _count_creates(self, scope: Scope, new: int) -> None:
        if new and self.registry.creates.get(scope, 0) + new > self.config.daily_command_creates:
            raise errors.max_daily_command_creates(self.config.daily_command_creates)

    def find_command(self, name: str, channel: FakeChannel) -> RegisteredCommand:
        """The command a user in ``channel`` sees as ``/name``: guild commands first."""
        scopes: list[Scope] = [channel.guild_id] if channel.guild_id is not None else []
        scopes.append(None)
        for scope in scopes:
            for command in self.registry.commands(scope):
                if command.name == name and int(command.type) == 1:
                    return command
        where = f"guild {channel.guild_id} or globally" if channel.guild_id else "globally"
        raise InvalidInvocation(
            f"/{name} is not registered {where}; did the bot sync its commands? "
            f"Registered: {self.registry_summary()}"
        )

    def registry_summary(self) -> str:
        parts = []
        for scope in [None, *self.guilds]:
            names = [c.name for c in self.registry.commands(scope)]
            if names:
                parts.append(f"{'global' if scope is None else scope}: {names}")
        return "; ".join(parts) or "nothing"

    # -- interactions -----------------------------------------------------------------------------

    def resolve_option(
        self,
        kind: OptionType,
        value: Any,
        schema: Mapping[str, Any],
        *,
        guild: FakeGuild | None,
        channel: FakeChannel,
    ) -> ResolvedValue:
        """A test's option value as Discord sends it (ids for users, channels and roles)."""
        if kind in (OptionType.USER, OptionType.MENTIONABLE) and isinstance(value, FakeUser):
            resolved: dict[str, dict[str, Json]] = {"users": {str(value.id): value.to_payload()}}
            member = guild.member(value.id) if guild else None
            if member is not None:
                partial = member.to_payload(
                    permissions=guild.permissions_for(value.id, channel) if guild else None
                )
                partial.pop("user")
                resolved["members"] = {str(value.id): partial}
            return ResolvedValue(str(value.id), resolved)
        if (
            kind in (OptionType.ROLE, OptionType.MENTIONABLE)
            and hasattr(value, "permissions")
            and hasattr(value, "guild_id")
        ):
            return ResolvedValue(str(value.id), {"roles": {str(value.id): value.to_payload()}})
        if kind is OptionType.CHANNEL and isinstance(value, FakeChannel):
            allowed = schema.get("channel_types")
            if allowed and int(value.type) not in allowed:
                raise InvalidInvocation(
                    f"option {schema['name']}: channel type {value.type.name} not offered"
                )
            partial = self.channel_payload(value)
            if guild is not None:
                partial["permissions"] = str(int(guild.permissions_for(self.bot.id, value)))
            return ResolvedValue(str(value.id), {"channels": {str(value.id): partial}})
        if kind is OptionType.ATTACHMENT and isinstance(value, UserAttachment):
            file_id = self.new_id()
            recorded = RecordedFile(
                id=file_id,
                filename=value.filename,
                data=value.data,
                content_type=value.content_type,
                description=None,
                url=f"{self.http_base}/attachments/{channel.id}/{file_id}/{value.filename}",
            )
            self.files[file_id] = recorded
            payload = {
                "id": str(file_id),
                "filename": value.filename,
                "size": len(value.data),
                "url": recorded.url,
                "proxy_url": recorded.url,
                "content_type": value.content_type,
            }
            return ResolvedValue(str(file_id), {"attachments": {str(file_id): payload}})
        plain = not isinstance(value, bool)
        if kind is OptionType.BOOLEAN and isinstance(value, bool):
            return ResolvedValue(value)
        if kind is OptionType.STRING and isinstance(value, str):
            return ResolvedValue(value)
        if kind is OptionType.INTEGER and isinstance(value, int) and plain:
            return ResolvedValue(value)
        if kind is OptionType.NUMBER and isinstance(value, int | float) and plain:
            return ResolvedValue(float(value))
        raise InvalidInvocation(f"option {schema['name']} is {kind.name}; {value!r} does not fit")

    # -- test-side helpers ------------------------------------------------------------------------

    def visible_messages(self, channel_id: int, user_id: int) -> list[RecordedMessage]:
        """What ``user_id`` sees in a channel: public messages and their own ephemeral ones.

        Nothing in a DM or group DM they are not in."""
        channel = self.channel(channel_id)
        if channel.is_private and user_id not in channel.recipient_ids:
            return []
        if channel.is_bot_dm and user_id not in (channel.recipient_id, self.bot.id):
            return []
        return [
            m
            for m in (self.messages[i] for i in self.channel_messages.get(channel_id, []))
            if not m.deleted and (not m.ephemeral or m.visible_to == user_id)
        ]


@dataclass(frozen=True, slots=True)
class UserAttachment:
    """A file a test user attaches to a slash command's attachment option."""

    filename: str
    data: bytes
    content_type: str = "text/plain"


def resolver_for(
    world: World, guild: FakeGuild | None, channel: FakeChannel
) -> Callable[[OptionType, Any, Mapping[str, Any]], ResolvedValue]:
    def resolve(kind: OptionType, value: Any, schema: Mapping[str, Any]) -> ResolvedValue:
        return world.resolve_option(kind, value, schema, guild=guild, channel=channel)

    return resolve
