"""The gateway end to end: connecting, sharding, dropped connections and resuming."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import BotNotConnected, FakeDiscord, Intent, Permission
from tests.fakediscord.conftest import Scene
from tests.fakediscord.harness import discord_endpoints, running
from tests.fakediscord.sample_bot import SampleBot


@pytest.mark.parametrize("compress", [True, False], ids=["zlib-stream", "plain-text"])
async def test_connects_and_caches_the_guild(compress: bool) -> None:
    async with FakeDiscord(compress=compress) as fake:
        guild = fake.add_guild("club")
        games = guild.add_text_channel("games")
        closed = guild.add_text_channel("closed", deny_bot=Permission.CREATE_PUBLIC_THREADS)
        mods = guild.add_role("moderators", Permission.MANAGE_THREADS)
        fake.add_user("mo", guild, roles=[mods])  # in GUILD_CREATE, not cached by the bot
        with discord_endpoints(fake):
            async with running(SampleBot(guild_id=guild.id), fake) as bot:
                await fake.wait_until(lambda: bot.latency < 60, what="a heartbeat ACK")
                cached = bot.get_guild(guild.id)
                assert cached is not None and cached.me is not None
                assert {c.name for c in cached.text_channels} == {"games", "closed"}
                open_channel, closed_channel = bot.get_channel(games.id), bot.get_channel(closed.id)
                assert isinstance(open_channel, discord.TextChannel)
                assert isinstance(closed_channel, discord.TextChannel)
                assert open_channel.permissions_for(cached.me).create_public_threads
                assert not closed_channel.permissions_for(cached.me).create_public_threads
                # Default intents: discord.py caches only itself from GUILD_CREATE's members.
                assert [m.id for m in cached.members] == [fake.bot.id]
                assert bot.user is not None and bot.user.id == fake.bot.id
                assert bot.application_id == fake.application_id
        (identify,) = fake.gateway_events
        assert identify.kind == "identify" and identify.path == fake.gateway.gateway_path


async def test_a_wrong_token_is_refused(scene: Scene) -> None:
    bot = SampleBot(guild_id=scene.guild.id)
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_privileged_intents_must_be_enabled(scene: Scene) -> None:
    fake = scene.fake
    intents = discord.Intents.default()
    intents.message_content = True
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with running(SampleBot(guild_id=scene.guild.id, intents=intents), fake):
            pass
    assert "4014" in fake.gateway_events[-1].detail
    fake.config.privileged_intents = Intent.MESSAGE_CONTENT
    async with running(SampleBot(guild_id=scene.guild.id, intents=intents, sync=False), fake):
        pass


class ShardedSampleBot(SampleBot, discord.AutoShardedClient):
    """The sample bot as an AutoShardedClient (which asks GET /gateway/bot)."""


async def test_auto_sharded_client_routes_each_guild_to_its_shard() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        # Discord routes a guild to shard (guild_id >> 22) % shard_count.
        even = fake.add_guild("even", guild_id=1000 << 22)
        odd = fake.add_guild("odd", guild_id=1001 << 22)
        channels = {0: even.add_text_channel("games"), 1: odd.add_text_channel("games")}
        player = fake.add_user("alice", even, odd)
        with discord_endpoints(fake):
            bot = ShardedSampleBot(guild_id=None)
            async with running(bot, fake):
                await bot.tree.sync()  # global commands, visible in both guilds
                assert [r.path for r in fake.requests].count("/api/v10/gateway/bot") == 1
                assert sorted(e.detail for e in fake.gateway_events) == ["shard 0/2", "shard 1/2"]
                for shard_id, channel in channels.items():
                    result = await fake.run_command(
                        player, channel, "dvonn move", {"from": "A1", "to": "B1"}
                    )
                    assert result.content == f"A1→B1 by {player.id}"
                    session = fake.gateway.sessions[result.record.session_id or ""]
                    assert session.shard.id == shard_id
                    guild = bot.get_guild(channel.guild_id or 0)
                    assert guild is not None and guild.shard_id == shard_id


async def test_an_interaction_sent_while_disconnected_is_replayed_after_resume(
    scene: Scene, sample_bot: SampleBot
) -> None:
    fake = scene.fake
    async with fake.gateway_outage():
        pending = fake.send_command(
            scene.alice, scene.games, "dvonn move", {"from": "A1", "to": "B1"}
        )
        assert not pending.responded
    await pending.wait_response()
    assert pending.content == f"A1→B1 by {scene.alice.id}"
    resume = await fake.wait_for_resume()
    # discord.py resumed on the resume_gateway_url from READY, and got what it missed.
    assert resume.path == fake.gateway.resume_path
    assert resume.detail.startswith("replayed 1 ")
    assert [e.kind for e in fake.gateway_events] == ["identify", "resume"]


@pytest.mark.parametrize("code", [4000, 1011, None], ids=["close-4000", "close-1011", "tcp-reset"])
async def test_dropped_connections_are_resumed(
    scene: Scene, sample_bot: SampleBot, code: int | None
) -> None:
    fake = scene.fake
    assert await fake.drop_gateway(code=code) == 1
    # Sent at once, maybe before the bot is back: the session keeps it until the resume.
    result = await fake.run_command(
        scene.alice, scene.games, "dvonn move", {"from": "C2", "to": "C3"}
    )
    assert result.content == f"C2→C3 by {scene.alice.id}"
    await fake.wait_for_resume()
    assert [e.kind for e in fake.gateway_events].count("identify") == 1


async def test_an_invalidated_session_identifies_again(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    fake.gateway.invalidate_sessions()
    await fake.drop_gateway()
    # The RESUME is refused (op 9, d=false) and discord.py identifies again.
    await fake.wait_until(
        lambda: [e.kind for e in fake.gateway_events].count("identify") == 2,
        what="a second IDENTIFY",
    )
    kinds = [e.kind for e in fake.gateway_events]
    assert kinds == ["identify", "invalid session", "identify"]
    await fake.wait_for_ready()
    result = await fake.run_command(
        scene.alice, scene.games, "dvonn move", {"from": "D4", "to": "D5"}
    )
    assert result.content == f"D4→D5 by {scene.alice.id}"


async def test_interactions_need_a_bot_session(scene: Scene) -> None:
    fake = scene.fake
    fake.world.overwrite_commands(scene.guild.id, [{"name": "ping", "description": "Ping"}])
    with pytest.raises(BotNotConnected, match="no bot session"):
        fake.send_command(scene.alice, scene.games, "ping")


@pytest.mark.slow
async def test_nobody_answers_after_the_bot_stopped(scene: Scene) -> None:
    fake = scene.fake
    async with running(SampleBot(guild_id=scene.guild.id), fake):
        pass
    # The session is disconnected but resumable: the interaction waits for a resume that never
    # comes, and the user sees "The application did not respond".
    fake.config.interaction_deadline = 0.1
    result = await fake.run_command(
        scene.alice, scene.games, "dvonn move", {"from": "A1", "to": "B1"}, allow_no_response=True
    )
    assert result.timed_out
