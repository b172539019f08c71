"""The real bot, started as in production but pointed at the fake Discord on 127.0.0.1."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest

from bot.app import DvonnBot
from bot.config import Secret, Settings
from bot.exts.computer.player import ComputerPlayer
from tests.bot.e2e.helpers import catalogues
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Permission
from tests.fakediscord.fixtures import discord_fake
from tests.fakediscord.harness import discord_endpoints, running

__all__ = [
    "BotRunner",
    "NetworkTables",
    "Table",
    "bot_runner",
    "computer_player",
    "discord_fake",
    "network_bot",
    "network_tables",
    "table",
]


@dataclass(frozen=True)
class Table:
    """A server with a games channel, a channel without thread rights, and people."""

    fake: FakeDiscord
    guild: FakeGuild
    games: FakeChannel
    no_threads: FakeChannel
    alice: FakeUser
    bob: FakeUser
    carol: FakeUser
    moderator: FakeUser


MACHINE_SPEED: Final = "machine_speed"
"""The marker (``@pytest.mark.machine_speed``, declared in pyproject.toml) of the tests whose
fake has no per-channel limits, as if they were off: the :func:`table` and
:func:`network_tables` fixtures read it.

Each plays a game, or a dozen plies or more, in one thread as fast as the bot answers: a post
(the board) a turn, and during the placement the board before it deleted. Discord's 5 posts
per 5 s per channel would make discord.py wait on the headers for most of each (a whole game
took a minute instead of a second, and waits for a post ran past their 5 s), and the point of
none of them is the limits. The global limit and the ban for invalid requests stay on; the
per-channel limits are tested in tests/fakediscord/test_ratelimits.py, and the bot under them
by the load benchmark (tests/bot/loadbench.py), whose players think between turns.

A marked test that uses neither fixture would keep its limits: the suite refuses it when
collecting (``machine_speed_without_table`` in tests/conftest.py)."""


def at_machine_speed(fake: FakeDiscord, request: pytest.FixtureRequest) -> None:
    """Turns ``fake``'s per-channel limits off if the test is marked ``machine_speed``."""
    if request.node.get_closest_marker(MACHINE_SPEED) is not None:
        fake.limits.per_channel = False  # see MACHINE_SPEED


@pytest.fixture
def table(discord_fake: FakeDiscord, request: pytest.FixtureRequest) -> Table:
    at_machine_speed(discord_fake, request)
    guild = discord_fake.add_guild("DVONN club")
    moderators = guild.add_role("moderators", Permission.MANAGE_THREADS)
    return Table(
        fake=discord_fake,
        guild=guild,
        games=guild.add_text_channel("games"),
        no_threads=guild.add_text_channel("no-threads", deny_bot=Permission.CREATE_PUBLIC_THREADS),
        alice=discord_fake.add_user("alice", guild),
        bob=discord_fake.add_user("bob", guild),
        carol=discord_fake.add_user("carol", guild),
        moderator=discord_fake.add_user("mo", guild, roles=[moderators]),
    )


class BotRunner:
    """Starts real bots on one database, one after another (restarts): an SQLite file's path,
    or a PostgreSQL URL.

    Every bot of the run shares one :class:`~bot.i18n.Catalogues` (``helpers.catalogues``):
    a bot of its own would compile the four catalogues again (0.8 s) when it syncs its
    commands, in every test, as a process does once when it starts."""

    def __init__(self, table: Table, database: Path | str) -> None:
        self.table = table
        self.database = database
        self.settings = Settings(
            token=Secret(table.fake.token),
            database=database,
            dev_guild=table.guild.id,
            api_base=table.fake.api_base,
            gateway_url=table.fake.gateway_url,
            render_processes=0,  # threads: quicker to start; test_process covers the pool
        )

    @contextlib.asynccontextmanager
    async def run(self, *, sync: bool = True, **options: Any) -> AsyncIterator[DvonnBot]:
        options.setdefault("catalogues", catalogues())  # compiled once for the run
        with discord_endpoints(self.table.fake):  # as the process's entry point does
            bot = DvonnBot(self.settings, sync_commands=sync, **options)
            async with running(bot, self.table.fake) as started:
                yield started


@pytest.fixture
def bot_runner(table: Table, migrated_target: str) -> BotRunner:
    """Bots on each backend in turn (the PostgreSQL database already migrated)."""
    if migrated_target.startswith("postgresql://"):
        return BotRunner(table, migrated_target)
    return BotRunner(table, Path(migrated_target))


@pytest.fixture
async def bot(bot_runner: BotRunner) -> AsyncIterator[DvonnBot]:
    async with bot_runner.run() as started:
        yield started


def computer_player(bot: DvonnBot) -> ComputerPlayer:
    """The computer opponent of a running bot (its feature's cog holds it)."""
    player: ComputerPlayer = getattr(bot.get_cog("Computer"), "player")  # noqa: B009
    return player


def option_values(**values: str) -> Callable[[], dict[str, str]]:
    return lambda: dict(values)


@dataclass(frozen=True)
class NetworkTables:
    """Three servers, each with a ``network`` channel (not named the network's yet: their
    moderators do that) and a ``general`` one, a member of each whose nickname there differs
    from their global name, a moderator of each (Manage Server), a member of the first who may
    not manage it, and Dana, who installed the app to her account and shares no server with the
    bot."""

    fake: FakeDiscord
    guilds: tuple[FakeGuild, FakeGuild, FakeGuild]
    networks: tuple[FakeChannel, FakeChannel, FakeChannel]
    generals: tuple[FakeChannel, FakeChannel, FakeChannel]
    players: tuple[FakeUser, FakeUser, FakeUser]
    """Ann (of the first server), Bob (the second), Cat (the third)."""
    moderators: tuple[FakeUser, FakeUser, FakeUser]
    eve: FakeUser
    dana: FakeUser


@pytest.fixture
def network_tables(discord_fake: FakeDiscord, request: pytest.FixtureRequest) -> NetworkTables:
    at_machine_speed(discord_fake, request)
    guilds, networks, generals, players, moderators = [], [], [], [], []
    for letter, name in zip("ABC", ("Ann", "Bob", "Cat"), strict=True):
        guild = discord_fake.add_guild(f"Server {letter}")
        mods = guild.add_role("moderators", Permission.MANAGE_GUILD)
        guilds.append(guild)
        networks.append(guild.add_text_channel("network"))
        generals.append(guild.add_text_channel("general"))
        player = discord_fake.world.add_user(name.lower(), global_name=name)
        guild.add_member(player, nick=f"{name} of {letter}")  # never shown to other servers
        players.append(player)
        moderators.append(discord_fake.add_user(f"mod{letter.lower()}", guild, roles=[mods]))
    eve = discord_fake.add_user("eve", guilds[0])
    dana = discord_fake.add_user("dana", installed_app=True)
    return NetworkTables(
        fake=discord_fake,
        guilds=(guilds[0], guilds[1], guilds[2]),
        networks=(networks[0], networks[1], networks[2]),
        generals=(generals[0], generals[1], generals[2]),
        players=(players[0], players[1], players[2]),
        moderators=(moderators[0], moderators[1], moderators[2]),
        eve=eve,
        dana=dana,
    )


@pytest.fixture
async def network_bot(
    network_tables: NetworkTables, migrated_target: str
) -> AsyncIterator[DvonnBot]:
    """The bot with the network on (``DVONN_NETWORK=on``), its commands registered globally
    (for every server and for DMs), on each backend in turn."""
    fake = network_tables.fake
    database: Path | str = (
        migrated_target if migrated_target.startswith("postgresql://") else Path(migrated_target)
    )
    settings = Settings(
        token=Secret(fake.token),
        database=database,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        render_processes=0,
        network=True,
        # The boards' job is a poll job: polled every half second, not every 5 s, so that a
        # test waits for a board about as long as a player would notice.
        outbox_poll=0.5,
    )
    with discord_endpoints(fake):
        bot = DvonnBot(settings, sync_commands=True, catalogues=catalogues())
        async with running(bot, fake) as started:
            yield started
