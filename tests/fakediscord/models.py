"""The fake's people and places: users, guilds with roles and members, channels and threads.

Each knows how to render itself as the JSON Discord sends (``to_payload``). Tests create them
through :class:`~tests.fakediscord.server.FakeDiscord` (``add_user``, ``add_guild``) and the
guild's own helpers (``add_text_channel``, ``add_role``, ``add_member``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from tests.fakediscord.clock import iso
from tests.fakediscord.permissions import (
    DEFAULT_EVERYONE,
    NO_PERMISSIONS,
    Overwrite,
    OverwriteTarget,
    Permission,
    resolve_permissions,
)

Json = dict[str, Any]


class ChannelType(enum.IntEnum):
    """Discord's channel types (the ones the fake models)."""

    GUILD_TEXT = 0
    DM = 1
    GROUP_DM = 3
    GUILD_CATEGORY = 4
    GUILD_ANNOUNCEMENT = 5
    ANNOUNCEMENT_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    GUILD_FORUM = 15


THREAD_TYPES = frozenset(
    {ChannelType.ANNOUNCEMENT_THREAD, ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD}
)
PRIVATE_TYPES = frozenset({ChannelType.DM, ChannelType.GROUP_DM})


class HasId(Protocol):
    @property
    def id(self) -> int: ...


@dataclass(eq=False)
class FakeUser:
    """A Discord account: a test player, or the bot itself (``bot=True``)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    # Users can close their DMs to server members; the bot then gets 50007.
    accepts_dms: bool = True
    locale: str = "en-US"
    # Installed the app to their account (a user install): its user-installable commands follow
    # them into DMs and group DMs with other people, and the bot may DM them.
    installed_app: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def __repr__(self) -> str:
        return f"FakeUser(id={self.id}, username={self.username!r})"


@dataclass(eq=False)
class FakeRole:
    """A guild role. The @everyone role has the guild's id, as on Discord."""

    id: int
    guild_id: int
    name: str
    permissions: Permission
    position: int = 0
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> Json:
        payload: Json = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(int(self.permissions)),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload

    def __repr__(self) -> str:
        return f"FakeRole(id={self.id}, name={self.name!r})"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild: their roles decide their permissions."""

    user: FakeUser
    guild_id: int
    role_ids: list[int]
    joined_at: datetime
    nick: str | None = None

    def to_payload(self, *, permissions: Permission | None = None) -> Json:
        payload: Json = {
            "user": self.user.to_payload(),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            # Interactions carry the member's resolved permissions in the channel.
            payload["permissions"] = str(int(permissions))
        return payload


@dataclass(eq=False)
class FakeChannel:
    """A text channel, category, thread, the bot's DM with a user, or a private channel.

    A private channel is a DM (two users) or group DM (more) between users, without the bot:
    ``recipient_ids`` are its users. The bot's own DM has ``recipient_id`` instead.
    """

    id: int
    type: ChannelType
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    topic: str | None = None
    # Threads.
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    member_ids: set[int] = field(default_factory=set)
    created_at: datetime | None = None
    # The bot's DM: the user at the other end.
    recipient_id: int | None = None
    # Private channels (DMs and group DMs between users): their users, the first one the owner.
    recipient_ids: tuple[int, ...] = ()

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_bot_dm(self) -> bool:
        """The bot's DM with a user (interaction context ``BOT_DM``)."""
        return self.type is ChannelType.DM and not self.recipient_ids

    @property
    def is_private(self) -> bool:
        """A DM or group DM between users, without the bot (context ``PRIVATE_CHANNEL``)."""
        return self.type in PRIVATE_TYPES and bool(self.recipient_ids)

    def to_payload(self, *, recipients: Sequence[FakeUser] = (), message_count: int = 0) -> Json:
        payload: Json = {"id": str(self.id), "type": int(self.type), "flags": 0}
        if self.type in PRIVATE_TYPES:
            payload["recipients"] = [u.to_payload() for u in recipients]
            payload["last_message_id"] = None
            if self.type is ChannelType.GROUP_DM:
                payload |= {
                    "name": self.name or None,
                    "icon": None,
                    "owner_id": str(self.recipient_ids[0]) if self.recipient_ids else None,
                }
            return payload
        payload |= {
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "rate_limit_per_user": 0,
            "nsfw": False,
            "last_message_id": None,
        }
        if self.is_thread:
            assert self.created_at is not None
            payload |= {
                "owner_id": str(self.owner_id),
                "message_count": message_count,
                "total_message_sent": message_count,
                "member_count": len(self.member_ids),
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": iso(self.created_at),
                },
            }
        else:
            payload |= {
                "position": self.position,
                "permission_overwrites": [ow.to_payload() for ow in self.overwrites],
                "topic": self.topic,
            }
        return payload

    def __repr__(self) -> str:
        return f"FakeChannel(id={self.id}, name={self.name!r}, type={self.type.name})"


# Creates ids and announces new channels; supplied by the fake's state (avoids an import cycle).
class GuildHost(Protocol):
    def new_id(self) -> int: ...

    def now(self) -> datetime: ...

    def channel_added(self, channel: FakeChannel) -> None: ...

    def register_channel(self, channel: FakeChannel) -> None: ...


@dataclass(eq=False)
class FakeGuild:
    """A server with roles, members and channels. The bot is a member, unless the guild was
    made with ``bot_member=False`` (users reach the app there only through user installs).

    ``bot_role`` is the bot's managed role; its permissions are the bot's server-wide permissions.
    Channel-level restrictions are overwrites: ``add_text_channel(..., deny_bot=...)``.
    """

    id: int
    name: str
    owner_id: int
    bot_user_id: int
    _host: GuildHost
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: list[FakeChannel] = field(default_factory=list)
    threads: list[FakeChannel] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    @property
    def has_bot(self) -> bool:
        """The app is installed here (its bot is a member): a guild install."""
        return self.bot_user_id in self.members

    @property
    def bot_role(self) -> FakeRole:
        return next(r for r in self.roles.values() if r.bot_id == self.bot_user_id)

    def add_role(
        self,
        name: str,
        permissions: Permission = NO_PERMISSIONS,
        *,
        mentionable: bool = False,
    ) -> FakeRole:
        """A role to give members, e.g. ``add_role("moderators", Permission.MANAGE_THREADS)``."""
        role = FakeRole(
            id=self._host.new_id(),
            guild_id=self.id,
            name=name,
            permissions=permissions,
            position=len(self.roles),
            mentionable=mentionable,
        )
        self.roles[role.id] = role
        return role

    def add_member(
        self, user: FakeUser, *, roles: Iterable[FakeRole] = (), nick: str | None = None
    ) -> FakeMember:
        """Make ``user`` a member with ``roles`` (on top of @everyone)."""
        member = FakeMember(
            user=user,
            guild_id=self.id,
            role_ids=[r.id for r in roles],
            joined_at=self._host.now(),
            nick=nick,
        )
        self.members[user.id] = member
        return member

    def add_text_channel(
        self,
        name: str,
        *,
        allow_bot: Permission = NO_PERMISSIONS,
        deny_bot: Permission = NO_PERMISSIONS,
        overwrites: Iterable[Overwrite] = (),
        topic: str | None = None,
    ) -> FakeChannel:
        """A text channel; ``deny_bot=Permission.CREATE_PUBLIC_THREADS`` makes a no-threads one."""
        ows = list(overwrites)
        if allow_bot or deny_bot:
            ows.append(
                Overwrite(self.bot_user_id, OverwriteTarget.MEMBER, allow=allow_bot, deny=deny_bot)
            )
        channel = FakeChannel(
            id=self._host.new_id(),
            type=ChannelType.GUILD_TEXT,
            name=name,
            guild_id=self.id,
            position=len(self.channels),
            overwrites=ows,
            topic=topic,
        )
        self.channels.append(channel)
        self._host.register_channel(channel)
        self._host.channel_added(channel)
        return channel

    def member(self, user_id: int) -> FakeMember | None:
        return self.members.get(user_id)

    def permissions_for(self, user_id: int, channel: FakeChannel | None = None) -> Permission:
        """``user_id``'s resolved permissions in ``channel`` (server-wide if ``None``)."""
        member = self.members.get(user_id)
        if member is None:
            return Permission(0)
        overwrites: list[Overwrite] = []
        if channel is not None:
            # Threads inherit their parent channel's overwrites.
            source = self._channel(channel.parent_id) if channel.is_thread else channel
            overwrites = source.overwrites if source is not None else []
        return resolve_permissions(
            everyone_role_id=self.id,
            role_permissions={r.id: r.permissions for r in self.roles.values()},
            member_role_ids=member.role_ids,
            member_id=user_id,
            is_owner=user_id == self.owner_id,
            overwrites=overwrites,
        )

    def _channel(self, channel_id: int | None) -> FakeChannel | None:
        return next((c for c in self.channels if c.id == channel_id), None)

    def to_payload(self, *, thread_payload: Callable[[FakeChannel], Json]) -> Json:
        """The GUILD_CREATE payload: the guild with its roles, channels, threads and members."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "preferred_locale": self.locale,
            "features": [],
            "max_members": 500000,
            "max_video_channel_users": 25,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": iso(self.members[self.bot_user_id].joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "members": [m.to_payload() for m in self.members.values()],
            "channels": [c.to_payload() for c in self.channels],
            "threads": [thread_payload(t) for t in self.threads if not t.archived],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def partial_payload(self) -> Json:
        """The ``guild`` object inside an interaction."""
        return {"id": str(self.id), "locale": self.locale, "features": []}

    def __repr__(self) -> str:
        return f"FakeGuild(id={self.id}, name={self.name!r})"


def new_guild(
    host: GuildHost,
    *,
    guild_id: int,
    name: str,
    owner: FakeUser,
    bot: FakeUser,
    bot_permissions: Permission,
    everyone_permissions: Permission = DEFAULT_EVERYONE,
    with_bot: bool = True,
) -> FakeGuild:
    """A guild with @everyone, the bot's managed role, the owner and the bot as members.

    ``with_bot=False``: a server the app is not installed in (no bot, no bot role)."""
    guild = FakeGuild(id=guild_id, name=name, owner_id=owner.id, bot_user_id=bot.id, _host=host)
    guild.roles[guild.id] = FakeRole(
        id=guild.id, guild_id=guild.id, name="@everyone", permissions=everyone_permissions
    )
    if not with_bot:
        guild.add_member(owner)
        return guild
    bot_role = FakeRole(
        id=host.new_id(),
        guild_id=guild.id,
        name=bot.username,
        permissions=bot_permissions,
        position=1,
        managed=True,
        bot_id=bot.id,
    )
    guild.roles[bot_role.id] = bot_role
    guild.add_member(owner)
    guild.add_member(bot, roles=[bot_role])
    return guild
