"""A fake Discord on 127.0.0.1 for end-to-end tests of the real, unmodified discord.py client.

REST (API v10) and the gateway (WebSocket) on one ephemeral port, with Discord's limits and
deadlines, recording everything the bot sends (files with their bytes). A test::

    async def test_move(discord_fake: FakeDiscord) -> None:   # fixtures.discord_fake
        guild = discord_fake.add_guild("club")
        games = guild.add_text_channel("games")
        no_threads = guild.add_text_channel("quiet", deny_bot=Permission.CREATE_PUBLIC_THREADS)
        alice, bob = discord_fake.add_user("alice", guild), discord_fake.add_user("bob", guild)
        async with running(MyBot(...), discord_fake):            # harness.running
            choices = await discord_fake.autocomplete(alice, games, "dvonn move", {"from": "E3"},
                                                      focused="to")
            reply = await discord_fake.run_command(alice, games, "dvonn move",
                                                   {"from": "E3", "to": "F4"})
            assert reply.ephemeral and "F4" in reply.content
            post = await discord_fake.wait_for_message(games, lambda m: m.embed_image() is not None)
            assert post.pinged_user_ids == {bob.id}
            await discord_fake.click(bob, post, "dvonn:1:resign")

What it enforces, as Discord does: command payloads (names, lengths, counts, nesting, size,
creates per day); one initial response per interaction, of a type that fits, within
``interaction_deadline`` (3 s; ``$FAKE_DISCORD_DEADLINE`` in the fixture) else 404/10062;
followups and ``@original`` edits only after it and for 15 minutes (then 401/50027); the
first followup after a defer fills in the "thinking..." message; message limits (content,
embeds, components, files, upload size); allowed_mentions (who is pinged; edits never ping);
channel permissions for posting, attaching and threads; one thread per message; DMs only to
users who share a server and accept them, or installed the app; the bot token; privileged
intents; RESUME replays what a dropped connection missed. Discord's rate limits
(:mod:`tests.fakediscord.ratelimits`, all on by default, switched per fake with
``fake.limits``): 50 requests a second per token (interactions excepted), per-route buckets per
channel (5 posts per 5 s, 5 deletes per second...) announced in truthful headers, 429s shaped
and scoped as Discord's, and Cloudflare's hour-long ban after 10,000 invalid requests in 10
minutes; ``fake.traffic`` counts the calls, the 429s and the invalid requests.

User installs (``fake.install_app(user)``): global commands whose ``integration_types`` include
1 follow the user into DMs and group DMs between users (``fake.add_private_channel(alice,
bob)``), where the bot is not: interactions there have context 2 and
``authorizing_integration_owners`` ``{"1": installer}``, replies and followups (at most 5 per
interaction) land there, and the bot's own REST calls there get 403 Missing Access.

A server can take the bot out (``fake.remove_bot(guild)``): a GUILD_DELETE without
``unavailable`` reaches the shard holding it (discord.py's ``on_guild_remove``); then REST in its
channels gets 403 Missing Access (50001), its guild routes 404 Unknown Guild (10004), and only
members who installed the app still reach it there.

Tests cannot send what the Discord client would not (unknown options, missing required ones,
hidden commands, commands not offered where they are run, disabled buttons):
:class:`InvalidInvocation`.

Start with :class:`FakeDiscord`; fixtures are in :mod:`tests.fakediscord.fixtures`, a running
client in :func:`tests.fakediscord.harness.running`, the load benchmark in
:mod:`tests.fakediscord.loadbench`.
"""

from tests.fakediscord.commands import (
    IntegrationType,
    InteractionContext,
    InvalidInvocation,
    RegisteredCommand,
)
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
from tests.fakediscord.ratelimits import RateLimits, RestTraffic
from tests.fakediscord.server import BotNotConnected, FakeDiscord
from tests.fakediscord.world import FakeDiscordTimeout, Intent, RecordedRequest, UserAttachment

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
    "IntegrationType",
    "Intent",
    "InteractionContext",
    "InteractionFailed",
    "InteractionRecord",
    "InteractionResult",
    "InteractionType",
    "InvalidInvocation",
    "MessageFlag",
    "Overwrite",
    "OverwriteTarget",
    "Permission",
    "RateLimits",
    "RecordedFile",
    "RecordedMessage",
    "RecordedRequest",
    "RegisteredCommand",
    "RejectedCall",
    "ResponseType",
    "RestTraffic",
    "UserAttachment",
    "flatten_errors",
]
