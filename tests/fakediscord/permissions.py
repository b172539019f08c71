"""Discord permission bits and the documented algorithm that resolves them in a channel.

The fake computes permissions itself (rather than borrowing discord.py's ``Permissions``) so that
it checks the bot independently: what it refuses is what Discord would refuse.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Permission(enum.IntFlag):
    """The permission bits the bot and its tests care about (Discord's values)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    MODERATE_MEMBERS = 1 << 40
    # Whether members' user-installed apps may answer publicly where the app is not installed.
    USE_EXTERNAL_APPS = 1 << 50


ALL_PERMISSIONS = Permission(sum(Permission))

# What a new server's @everyone may do in text channels (the relevant part of Discord's default).
DEFAULT_EVERYONE = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.CHANGE_NICKNAME
    | Permission.USE_EXTERNAL_APPS
)

# What the bot's invite asks for: post boards, open a thread per game, add the players to it.
DEFAULT_BOT = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.USE_APPLICATION_COMMANDS
)


NO_PERMISSIONS = Permission(0)

# An interaction's app_permissions in a DM or group DM between users (the bot is not there):
# "ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs with other users".
PRIVATE_CHANNEL_APP_PERMISSIONS = (
    Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE
)
# "the permissions that can be used in interaction responses": all an app has in a server it
# is not installed in, as far as the invoking member has them there.
RESPONSE_PERMISSIONS = PRIVATE_CHANNEL_APP_PERMISSIONS | Permission.USE_EXTERNAL_EMOJIS


class OverwriteTarget(enum.IntEnum):
    """Whom a channel permission overwrite applies to (Discord's ``type`` field)."""

    ROLE = 0
    MEMBER = 1


@dataclass(frozen=True, slots=True)
class Overwrite:
    """A channel permission overwrite: ``allow`` and ``deny`` for one role or member."""

    target_id: int
    target: OverwriteTarget
    allow: Permission = NO_PERMISSIONS
    deny: Permission = NO_PERMISSIONS

    def to_payload(self) -> dict[str, object]:
        return {
            "id": str(self.target_id),
            "type": int(self.target),
            "allow": str(int(self.allow)),
            "deny": str(int(self.deny)),
        }


def resolve_permissions(
    *,
    everyone_role_id: int,
    role_permissions: dict[int, Permission],
    member_role_ids: Iterable[int],
    member_id: int,
    is_owner: bool,
    overwrites: Iterable[Overwrite] = (),
) -> Permission:
    """Discord's documented computation: base permissions from roles, then channel overwrites.

    Order: @everyone's overwrite, then all of the member's role overwrites combined (deny before
    allow), then the member's own overwrite. Owners and administrators get everything.
    """
    if is_owner:
        return ALL_PERMISSIONS
    role_ids = set(member_role_ids)
    base = role_permissions.get(everyone_role_id, Permission(0))
    for role_id in role_ids:
        base |= role_permissions.get(role_id, Permission(0))
    if base & Permission.ADMINISTRATOR:
        return ALL_PERMISSIONS

    by_target = list(overwrites)
    result = base
    for ow in by_target:
        if ow.target is OverwriteTarget.ROLE and ow.target_id == everyone_role_id:
            result = (result & ~ow.deny) | ow.allow
    role_allow, role_deny = Permission(0), Permission(0)
    for ow in by_target:
        if ow.target is OverwriteTarget.ROLE and ow.target_id in role_ids:
            role_allow |= ow.allow
            role_deny |= ow.deny
    result = (result & ~role_deny) | role_allow
    for ow in by_target:
        if ow.target is OverwriteTarget.MEMBER and ow.target_id == member_id:
            result = (result & ~ow.deny) | ow.allow

    # Without View Channel nothing else in the channel is usable.
    if not result & Permission.VIEW_CHANNEL:
        return Permission(0)
    return result
