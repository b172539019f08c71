"""A fake Discord on 127.0.0.1 for end-to-end tests of the real, unmodified discord.py client.

REST (API v10) and the gateway (WebSocket) on one ephemeral port, with Discord's limits and
deadlines, recording everything the bot sends. Start with :class:`FakeDiscord`; pytest fixtures
are in :mod:`tests.fakediscord.fixtures`.
"""

from tests.fakediscord.commands import InvalidInvocation, RegisteredCommand
from tests.fakediscord.errors import DiscordError, flatten_errors
from tests.fakediscord.interactions import (
    Choice,
    InteractionFailed,
    InteractionRecord,
    InteractionResult,
    InteractionType,
    RejectedCall,
    ResponseType,
)
from tests.fakediscord.messages import MessageFlag, RecordedFile, RecordedMessage
from tests.fakediscord.models import ChannelType, FakeChannel, FakeGuild, FakeRole, FakeUser
from tests.fakediscord.permissions import (
    DEFAULT_BOT,
    DEFAULT_EVERYONE,
    Overwrite,
    OverwriteTarget,
    Permission,
)
from tests.fakediscord.server import BotNotConnected, FakeDiscord
from tests.fakediscord.world import FakeDiscordTimeout, Intent, RecordedRequest

__all__ = [
    "DEFAULT_BOT",
    "DEFAULT_EVERYONE",
    "BotNotConnected",
    "ChannelType",
    "Choice",
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeRole",
    "FakeUser",
    "Intent",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionResult",
    "InteractionType",
    "InvalidInvocation",
    "MessageFlag",
    "Overwrite",
    "OverwriteTarget",
    "Permission",
    "RecordedFile",
    "RecordedMessage",
    "RecordedRequest",
    "RegisteredCommand",
    "RejectedCall",
    "ResponseType",
    "flatten_errors",
]
