"""``/network join``, ``leave``, ``block``, ``unblock`` and ``server`` through the fake Discord
with the real discord.py client: three servers and a player who installed the app; the bot
taken out of a server; every refusal answered privately; and no ``/network`` at all when the
operator turned the network off (it is on by default)."""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace

import pytest

from bot.app import DvonnBot
from bot.exts.network import texts
from bot.exts.server_settings import network_line
from bot.games.network.errors import (
    NoNetworkChannel,
    NotInNetwork,
    SelfBlock,
    ServerLeftNetwork,
)
from bot.i18n import _
from tests.bot.e2e.conftest import BotRunner, NetworkTables, Table
from tests.bot.e2e.helpers import said
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult, InvalidInvocation
from tests.fakediscord.permissions import Permission

MANAGERS_ONLY = _(
    "Only members who may manage the server can see or change its part in the DVONN network."
)
JOINED = _("You joined the DVONN network as **{name}**.")
MOVED = _("You are in the DVONN network as **{name}**; your home has moved.")
HOME_HERE = _(
    "Your network games are played in threads of <#{channel}>, this server's network channel."
)
HOME_DMS = _(
    "Your network games are played in your DMs with the bot (you join from a place without a "
    "network channel: run /network join in a server's network channel to play there instead)."
)
TAKES_PART = _(
    "This server takes part in the DVONN network, with <#{channel}> as its network channel."
)
NOT_A_PLAYER = _("“{name}” is not a player of the DVONN network: choose one from the list.")


def private(reply: InteractionResult) -> str:
    """The answer's words, after checking only its asker saw them."""
    assert reply.ephemeral, reply.content
    return reply.content


def bot_dm(tables: NetworkTables, user: FakeUser) -> FakeChannel:
    """The bot's own DM with ``user`` (where they run its commands)."""
    return tables.fake.world.open_dm(user.id)


async def name_channel(tables: NetworkTables, server: int) -> InteractionResult:
    return await tables.fake.run_command(
        tables.moderators[server],
        tables.generals[server],
        "network server",
        {"channel": tables.networks[server]},
    )


async def test_with_the_network_turned_off_there_is_no_network_command(
    table: Table, bot_runner: BotRunner
) -> None:
    """``DVONN_NETWORK=off`` (the network is on by default): no ``/network``, none of its
    jobs, no line of it in ``/dvonn settings``, no championship."""
    bot_runner.settings = dataclasses.replace(bot_runner.settings, network=False)
    async with bot_runner.run() as bot:
        await _no_network(table, bot)
        await bot.housekeeping()
        assert await bot.service.championship.current() is None


async def _no_network(table: Table, bot: DvonnBot) -> None:
    names = {c.name for c in table.fake.commands(table.guild)} | {
        c.name for c in table.fake.commands()
    }
    assert "dvonn" in names and "network" not in names
    with pytest.raises(InvalidInvocation):
        await table.fake.run_command(table.alice, table.games, "network join")
    assert bot.get_cog("Network") is None
    assert not [job for job in bot.service.housekeeping.names if job.startswith("network")]
    settings = await table.fake.run_command(table.alice, table.games, "dvonn settings")
    assert said(_("Daily puzzle: not posted (choose a channel with puzzle_channel)")) in (
        private(settings)
    )
    assert "network" not in settings.content.lower()


async def test_players_join_from_a_network_channel_s_server_and_from_dms(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    network = network_bot.service.network
    assert "network: homes to move" in network_bot.service.housekeeping.names  # its jobs run
    named = private(await name_channel(tables, 0))
    assert said(TAKES_PART, channel=tables.networks[0].id) in named

    # Ann, in the first server: her home is its network channel; her global name, never her
    # nickname there.
    joined = private(await fake.run_command(ann, tables.generals[0], "network join"))
    assert said(JOINED, name="Ann") in joined
    assert said(HOME_HERE, channel=tables.networks[0].id) in joined
    assert said(texts.WHAT_CROSSES) in joined
    assert "Ann of A" not in joined
    member = await network.member(ann.id)
    assert member is not None and member.is_member
    assert (member.name, member.home_guild_id) == ("Ann", tables.guilds[0].id)

    # Bob, in a server without a network channel, and Dana, in her DMs with the bot (a user
    # install, no server shared): their homes are their DMs.
    bobs = private(await fake.run_command(bob, tables.generals[1], "network join"))
    assert (
        said(JOINED, name="Bob", mentions=network_bot.mentions) in bobs
        and said(HOME_DMS, mentions=network_bot.mentions) in bobs
    )
    danas = private(
        await fake.run_command(tables.dana, bot_dm(tables, tables.dana), "network join")
    )
    assert (
        said(JOINED, name="dana", mentions=network_bot.mentions) in danas
        and said(HOME_DMS, mentions=network_bot.mentions) in danas
    )
    for user in (bob, tables.dana):
        found = await network.member(user.id)
        assert found is not None and found.is_member and found.home_guild_id is None
    # And from a DM between friends, where the bot may only answer (Dana's user install).
    with_ann = fake.add_private_channel(tables.dana, ann)
    again = private(await fake.run_command(tables.dana, with_ann, "network join"))
    already = _("You are in the DVONN network as **{name}** already.")
    assert (
        said(already, name="dana", mentions=network_bot.mentions) in again
        and said(HOME_DMS, mentions=network_bot.mentions) in again
    )

    # Joining again moves one's home: Ann's to her DMs, then back.
    moved = private(await fake.run_command(ann, bot_dm(tables, ann), "network join"))
    assert (
        said(MOVED, name="Ann", mentions=network_bot.mentions) in moved
        and said(HOME_DMS, mentions=network_bot.mentions) in moved
    )
    member = await network.member(ann.id)
    assert member is not None and member.home_guild_id is None
    back = private(await fake.run_command(ann, tables.networks[0], "network join"))
    assert said(HOME_HERE, channel=tables.networks[0].id) in back
    member = await network.member(ann.id)
    assert member is not None and member.home_guild_id == tables.guilds[0].id


async def test_players_leave_and_may_have_their_network_data_deleted(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    network = network_bot.service.network
    place = tables.generals[0]
    refused = private(await fake.run_command(ann, place, "network leave"))
    assert said(NotInNetwork, mentions=network_bot.mentions) in refused  # never joined

    await fake.run_command(ann, place, "network join")
    leaving = private(await fake.run_command(ann, place, "network leave"))
    assert (
        said(_("Join again any time with /network join."), mentions=network_bot.mentions) in leaving
    )
    member = await network.member(ann.id)
    assert member is not None and not member.is_member and member.forget_at is None
    assert said(NotInNetwork, mentions=network_bot.mentions) in private(
        await fake.run_command(ann, place, "network leave")
    )

    await fake.run_command(bob, tables.generals[1], "network join")
    forgetting = private(
        await fake.run_command(bob, tables.generals[1], "network leave", {"forget": True})
    )
    assert (
        said(
            _(
                "Your network data (your membership, your blocks and your network rating) will "
                "be deleted once your last network game has ended. Finished games stay in the "
                "records."
            ),
            mentions=network_bot.mentions,
        )
        in forgetting
    )
    member = await network.member(bob.id)
    assert member is not None and not member.is_member and member.forget_at is not None


async def test_moderators_name_the_network_channel_see_their_members_and_stop(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann = tables.players[0]
    mod, general, guild_id = tables.moderators[0], tables.generals[0], tables.guilds[0].id
    network = network_bot.service.network

    # Members who may not manage the server are refused, whatever they ask.
    for options in ({}, {"channel": tables.networks[0]}, {"stop": True}):
        refused = await fake.run_command(tables.eve, general, "network server", options)
        assert said(MANAGERS_ONLY) in private(refused)
    assert await network.servers.server(guild_id) is None
    # Nor is it a command for DMs.
    in_dm = private(await fake.run_command(ann, bot_dm(tables, ann), "network server"))
    assert "server" in in_dm and said(MANAGERS_ONLY) not in in_dm

    status = private(await fake.run_command(mod, general, "network server"))
    assert (
        said(
            _(
                "This server does not take part in the DVONN network. A moderator names its "
                "network channel with /network server channel:#channel."
            ),
            mentions=network_bot.mentions,
        )
        in status
    )
    stop = await fake.run_command(mod, general, "network server", {"stop": True})
    assert said(NoNetworkChannel, mentions=network_bot.mentions) in private(stop)

    # A channel where the bot cannot start threads is refused; both options at once too.
    closed = tables.guilds[0].add_text_channel("closed", deny_bot=Permission.CREATE_PUBLIC_THREADS)
    refused = await fake.run_command(mod, general, "network server", {"channel": closed})
    assert f"<#{closed.id}>" in private(refused) and await network.servers.server(guild_id) is None
    both = {"channel": tables.networks[0], "stop": True}
    refused = await fake.run_command(mod, general, "network server", both)
    assert said(_("Name a network channel, or stop: not both.")) in private(refused)

    unnamed = private(await fake.run_command(mod, general, "dvonn settings"))
    assert said(network_line(None), mentions=network_bot.mentions) in unnamed
    assert said(TAKES_PART, channel=tables.networks[0].id) in private(await name_channel(tables, 0))
    named = private(await fake.run_command(tables.eve, general, "dvonn settings"))
    assert (
        said(network_line(tables.networks[0].id), mentions=network_bot.mentions) in named
    )  # read only, for anyone
    server = await network.servers.server(guild_id)
    assert server is not None and server.is_live and server.channel_id == tables.networks[0].id
    assert server.joined_by == mod.id

    await fake.run_command(ann, general, "network join")
    await fake.run_command(tables.players[1], tables.generals[1], "network join")  # elsewhere
    status = private(await fake.run_command(mod, general, "network server"))
    assert said(texts.members_line([ann.id])) in status
    assert tables.players[1].mention not in status  # nothing of other servers' members
    assert said(_("No network game is played here now.")) in status

    # Moved to another channel: said so.
    other = tables.guilds[0].add_text_channel("dvonn-network")
    moved = await fake.run_command(mod, general, "network server", {"channel": other})
    assert said(
        _(
            "The DVONN network channel of this server is now <#{channel}>; network games "
            "under way keep their threads."
        ),
        channel=other.id,
    ) in private(moved)

    stopped = private(await fake.run_command(mod, general, "network server", {"stop": True}))
    assert (
        said(
            _("Bring it back at any time with /network server channel:#channel."),
            mentions=network_bot.mentions,
        )
        in stopped
    )
    server = await network.servers.server(guild_id)
    assert server is not None and not server.is_live
    again = await fake.run_command(mod, general, "network server", {"stop": True})
    assert said(ServerLeftNetwork, mentions=network_bot.mentions) in private(again)
    # A member joining now is homed in their DMs.
    rejoined = private(await fake.run_command(ann, general, "network join"))
    assert said(HOME_DMS, mentions=network_bot.mentions) in rejoined


async def test_players_block_and_unblock_network_players(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, cat = tables.players
    place = tables.generals[0]
    network = network_bot.service.network
    for player, where in ((ann, place), (bob, tables.generals[1]), (cat, tables.generals[2])):
        await fake.run_command(player, where, "network join")

    # Autocomplete offers network names (global names), never one's own.
    choices = await fake.autocomplete(
        ann, place, "network block", {"player": "b"}, focused="player"
    )
    assert [(c.name, c.value) for c in choices] == [("Bob", str(bob.id))]
    everyone = await fake.autocomplete(ann, place, "network block", focused="player")
    assert {c.name for c in everyone} == {"Bob", "Cat"}

    blocked = private(await fake.run_command(ann, place, "network block", {"player": str(bob.id)}))
    assert (
        said(
            _(
                "You blocked **{name}**: you will not meet in the network (no challenges either "
                "way, none of each other's open challenges shown, never in one championship "
                "division). They are not told. Take it back with /network unblock."
            ),
            name="Bob",
            mentions=network_bot.mentions,
        )
        in blocked
    )
    assert await network.blocks.blocked_either(bob.id, ann.id)
    assert fake.dms_to(bob) == []  # not told
    # A name typed in full does as well; blocking twice says so.
    twice = private(await fake.run_command(ann, place, "network block", {"player": "bob"}))
    assert said(_("You had blocked **{name}** already."), name="Bob") in twice

    # Bad inputs, privately: oneself, a name of nobody, a player outside the network, and a
    # blocker who is not in it.
    own = await fake.run_command(ann, place, "network block", {"player": str(ann.id)})
    assert said(SelfBlock) in private(own)
    nobody = await fake.run_command(ann, place, "network block", {"player": "Zed"})
    assert said(NOT_A_PLAYER, name="Zed") in private(nobody)
    outsider = await fake.run_command(ann, place, "network block", {"player": str(tables.eve.id)})
    assert said(NOT_A_PLAYER, name=str(tables.eve.id)) in private(outsider)
    stranger = await fake.run_command(tables.eve, place, "network block", {"player": str(cat.id)})
    assert said(NotInNetwork, mentions=network_bot.mentions) in private(stranger)
    assert not await network.blocks.blocked_either(tables.eve.id, cat.id)

    # Unblocking offers one's own blocks only.
    mine = await fake.autocomplete(ann, place, "network unblock", focused="player")
    assert [(c.name, c.value) for c in mine] == [("Bob", str(bob.id))]
    assert (
        await fake.autocomplete(cat, tables.generals[2], "network unblock", focused="player") == []
    )
    not_blocked = await fake.run_command(ann, place, "network unblock", {"player": str(cat.id)})
    assert said(
        _("You have not blocked a network player named “{name}”: choose one from the list."),
        name=str(cat.id),
    ) in private(not_blocked)
    unblocked = private(
        await fake.run_command(ann, place, "network unblock", {"player": str(bob.id)})
    )
    assert said(_("You unblocked **{name}**."), name="Bob") in unblocked
    assert not await network.blocks.blocked_either(ann.id, bob.id)


async def test_a_server_the_bot_is_removed_from_leaves_the_network(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    cat = tables.players[2]
    network = network_bot.service.network
    await name_channel(tables, 2)
    await name_channel(tables, 1)
    await fake.run_command(cat, tables.generals[2], "network join")
    guild_id = tables.guilds[2].id

    # An outage is no removal.
    listener = network_bot.get_cog("ServerRemovals")
    assert listener is not None
    outage = SimpleNamespace(id=guild_id, unavailable=True)
    await getattr(listener, "on_guild_remove")(outage)  # noqa: B009 - a listener of the cog
    server = await network.servers.server(guild_id)
    assert server is not None and server.is_live

    fake.remove_bot(tables.guilds[2])

    async def left() -> bool:
        found = await network.servers.server(guild_id)
        return found is not None and not found.is_live

    for _attempt in range(100):  # the listener writes soon after the gateway's event
        if await left():
            break
        await asyncio.sleep(0.05)
    assert await left()
    other = await network.servers.server(tables.guilds[1].id)
    assert other is not None and other.is_live  # only the server the bot left
    # Its member's games are homed in their DMs from now on.
    rejoined = private(await fake.run_command(cat, bot_dm(tables, cat), "network join"))
    assert said(HOME_DMS, mentions=network_bot.mentions) in rejoined


async def test_a_member_s_new_global_name_reaches_other_servers_when_they_next_act(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """Renamed on Discord (emoji and all), a member's network name follows at their next
    /network command or button, written only if it changed; never a server's nickname."""
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    network = network_bot.service.network
    for server in (0, 1):
        await name_channel(tables, server)
    private(await fake.run_command(ann, tables.networks[0], "network join"))
    private(await fake.run_command(bob, tables.networks[1], "network join"))
    joined = await network.member(ann.id)
    assert joined is not None and joined.name == "Ann"

    # Any command, the same name: nothing written.
    private(await fake.run_command(ann, tables.generals[0], "network seeks"))
    same = await network.member(ann.id)
    assert same is not None and (same.name, same.updated_at) == ("Ann", joined.updated_at)

    # Renamed: her next command (any: here the list of seeks) brings the new name.
    ann.global_name = "Ann 🐉✨ Ölçü"
    private(await fake.run_command(ann, tables.generals[0], "network seeks"))
    renamed = await network.member(ann.id)
    assert renamed is not None and renamed.name == "Ann 🐉✨ Ölçü"
    seek = await fake.run_command(ann, tables.networks[0], "network challenge")
    assert seek.message is not None and "Ann 🐉✨ Ölçü" in seek.message.content
    listed = private(await fake.run_command(bob, tables.networks[1], "network seeks"))
    assert "Ann 🐉✨ Ölçü" in listed and "Ann of A" not in listed

    # Renamed again: a button (her seek's Cancel) brings it too, and its answer says it.
    ann.global_name = "Annie 🌸"
    await fake.click(ann, seek.message, label=said(_("Cancel")))
    member = await network.member(ann.id)
    assert member is not None and member.name == "Annie 🌸"
    cancelled = _("{player} cancelled the network challenge.")
    assert fake.message(seek.message.id).content == said(cancelled, player="Annie 🌸")
    # A name found by autocomplete as it is now.
    found = await fake.autocomplete(
        bob, tables.networks[1], "network challenge", {"player": "Annie"}, focused="player"
    )
    assert [c.name for c in found] == ["Annie 🌸"]
