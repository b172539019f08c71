"""The bot removed from a server (kicked, banned, the app taken out), with the real discord.py
client: the GUILD_DELETE it hears on the shard holding the server, and what Discord refuses it
there afterwards."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import FakeDiscord, InvalidInvocation
from tests.fakediscord.conftest import Scene
from tests.fakediscord.harness import discord_endpoints, running
from tests.fakediscord.sample_bot import SampleBot


class RemovalBot(SampleBot):
    """The sample bot, noting the servers discord.py says it left or lost to an outage."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.removed: list[tuple[int, int | None]] = []
        self.unavailable: list[int] = []

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.removed.append((guild.id, guild.shard_id))

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self.unavailable.append(guild.id)


class ShardedRemovalBot(RemovalBot, discord.AutoShardedClient):
    """The same as an AutoShardedClient, one session a shard."""


async def test_the_shard_holding_the_server_hears_guild_delete() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        # Discord routes a guild to shard (guild_id >> 22) % shard_count.
        even = fake.add_guild("even", guild_id=1000 << 22)
        odd = fake.add_guild("odd", guild_id=1001 << 22)
        with discord_endpoints(fake):
            bot = ShardedRemovalBot(guild_id=None, sync=False)
            async with running(bot, fake):
                assert bot.get_guild(odd.id) is not None
                fake.remove_bot(odd)
                await fake.wait_until(lambda: bot.removed, what="on_guild_remove")
                assert bot.removed == [(odd.id, 1)]
                assert bot.unavailable == []
                assert bot.get_guild(odd.id) is None
                assert bot.get_guild(even.id) is not None
                sent = {
                    session.shard.id: [frame["t"] for _, frame in session.backlog]
                    for session in fake.gateway.live_sessions()
                }
                assert sent[1][-1] == "GUILD_DELETE"
                assert "GUILD_DELETE" not in sent[0]
                (frame,) = [
                    frame
                    for session in fake.gateway.live_sessions()
                    for _, frame in session.backlog
                    if frame["t"] == "GUILD_DELETE"
                ]
                # Removed, not an outage: no "unavailable" field.
                assert frame["d"] == {"id": str(odd.id)}
                with pytest.raises(ValueError, match="not in"):
                    fake.remove_bot(odd)


async def test_rest_in_a_removed_server_is_refused(scene: Scene) -> None:
    fake = scene.fake
    other = fake.add_guild("other club")
    elsewhere = other.add_text_channel("games")
    async with running(RemovalBot(guild_id=scene.guild.id), fake) as bot:
        games = bot.get_channel(scene.games.id)
        assert isinstance(games, discord.TextChannel)
        posted = await games.send("before")
        thread = await posted.create_thread(name="a game")
        await thread.send("in the thread")
        fake.remove_bot(scene.guild)
        await fake.wait_until(lambda: bot.removed, what="on_guild_remove")
        assert bot.removed == [(scene.guild.id, 0)]

        for call in (
            lambda: games.send("after"),
            lambda: thread.send("after"),
            lambda: posted.edit(content="edited"),
            lambda: bot.fetch_channel(scene.games.id),
            games.typing,
            lambda: games.fetch_message(posted.id),
        ):
            with pytest.raises(discord.Forbidden) as refused:
                await call()
            assert (refused.value.status, refused.value.code) == (403, 50001)
            assert refused.value.text == "Missing Access"
        with pytest.raises(discord.NotFound) as unknown_guild:
            await bot.fetch_guild(scene.guild.id)
        assert (unknown_guild.value.status, unknown_guild.value.code) == (404, 10004)
        # A channel that does not exist is another answer: 404 Unknown Channel.
        with pytest.raises(discord.NotFound) as unknown_channel:
            await bot.get_partial_messageable(fake.world.new_id()).send("nowhere")
        assert unknown_channel.value.code == 10003
        # Nothing was posted there after the removal; the other server is untouched.
        assert [m.content for m in fake.messages_in(scene.games)] == ["before"]
        assert (await bot.get_partial_messageable(elsewhere.id).send("still here")).id
        assert not scene.guild.has_bot
        assert scene.guild.member(fake.bot.id) is None


async def test_interactions_from_a_removed_server_no_longer_reach_the_bot(scene: Scene) -> None:
    fake = scene.fake
    async with running(RemovalBot(guild_id=scene.guild.id), fake) as bot:
        challenge = await fake.run_command(
            scene.alice, scene.games, "dvonn challenge", {"opponent": scene.bob}
        )
        assert challenge.message is not None
        answered = len(fake.interactions)
        fake.remove_bot(scene.guild)
        await fake.wait_until(lambda: bot.removed, what="on_guild_remove")
        with pytest.raises(InvalidInvocation, match="not offered in servers"):
            fake.send_command(scene.alice, scene.games, "dvonn move", {"from": "A1", "to": "B1"})
        with pytest.raises(InvalidInvocation, match="not installed in"):
            fake.send_click(scene.bob, challenge.message, "dvonn:42:accept")
        assert len(fake.interactions) == answered
        # Nor do its messages: the bot no longer sees the server's channels.
        assert not fake.world.sees_channel(scene.games.id)
