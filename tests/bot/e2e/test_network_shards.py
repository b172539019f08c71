"""Network games across servers on different shards, one process per shard on one PostgreSQL
database, and the process of the server in the middle killed (SIGKILL) while it mirrors a turn.

Servers A, B and C are on shards 0, 1 and 2, each held by its own ``python -m bot`` with the
network on. Ann (A) plays Bob (B), and Bea (B) plays Cat (C), each from a thread of their
server's network channel. Bob moves in his home; while the board is being made in Ann's home
(Discord made it, the process never heard), B's process is killed: another process posts the
owed board with the same nonce (Discord returns the message already made), and both games go
on from the homes on live shards meanwhile. B's process comes back and both games go on from
every home. At the end each home has every board of its game exactly once, in order, pinging
only its own player.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import psycopg
import pytest

from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import send_move
from tests.bot.e2e.test_crashes import pick
from tests.bot.e2e.test_network_crashes import check_home
from tests.bot.e2e.test_network_games import PICK, join, take_part
from tests.bot.e2e.test_shards import (
    SHARDS,
    TAKEOVER_GOAL,
    Cluster,
    guild_id_on,
    sharded_fake,
    stored,
    unsent,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeUser, Permission

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.alone]


def network_of(fake: FakeDiscord) -> tuple[NetworkTables, FakeUser]:
    """Servers A, B and C on shards 0, 1 and 2, as :func:`tests.bot.e2e.conftest.network_tables`
    makes them (Ann, Bob and Cat, a moderator each), and Bea, a second player of B."""
    guilds: list[FakeGuild] = []
    networks, generals, players, moderators = [], [], [], []
    for shard, (letter, name) in enumerate(zip("ABC", ("Ann", "Bob", "Cat"), strict=True)):
        guild = fake.add_guild(f"Server {letter}", guild_id=guild_id_on(shard))
        mods = guild.add_role("moderators", Permission.MANAGE_GUILD)
        guilds.append(guild)
        networks.append(guild.add_text_channel("network"))
        generals.append(guild.add_text_channel("general"))
        player = fake.world.add_user(name.lower(), global_name=name)
        guild.add_member(player, nick=f"{name} of {letter}")
        players.append(player)
        moderators.append(fake.add_user(f"mod{letter.lower()}", guild, roles=[mods]))
    tables = NetworkTables(
        fake=fake,
        guilds=(guilds[0], guilds[1], guilds[2]),
        networks=(networks[0], networks[1], networks[2]),
        generals=(generals[0], generals[1], generals[2]),
        players=(players[0], players[1], players[2]),
        moderators=(moderators[0], moderators[1], moderators[2]),
        eve=fake.add_user("eve", guilds[0]),
        dana=fake.add_user("dana", installed_app=True),
    )
    bea = fake.world.add_user("bea", global_name="Bea")
    guilds[1].add_member(bea)
    return tables, bea


def _one(url: str, query: str, *args: object) -> int | None:
    with psycopg.connect(url) as db:
        row = db.execute(query, args).fetchone()
    return None if row is None else int(row[0])


async def seek_taken(
    tables: NetworkTables,
    url: str,
    *,
    seeker: FakeUser,
    seeker_server: int,
    taker: FakeUser,
    taker_server: int,
) -> tuple[int, FakeChannel, FakeChannel]:
    """``seeker`` makes an open network challenge, playing White, and ``taker`` takes it from
    /network seeks: the game and its two homes (new threads), once each has its first board."""
    fake = tables.fake
    before = {s: len(fake.threads_in(tables.networks[s])) for s in (seeker_server, taker_server)}
    seek = await fake.run_command(
        seeker, tables.networks[seeker_server], "network challenge", {"colour": "W"}
    )
    assert not seek.ephemeral and seek.message is not None, seek.content
    listed = await fake.run_command(taker, tables.networks[taker_server], "network seeks")
    assert listed.ephemeral and listed.message is not None, listed.content
    challenge = _one(url, "SELECT id FROM challenges WHERE network = 1 AND status = 'open'")
    assert challenge is not None
    taken = await fake.select(taker, listed.message, PICK, [str(challenge)])
    assert taken.ephemeral, taken.content
    homes: list[FakeChannel] = []
    for server in (seeker_server, taker_server):
        channel = tables.networks[server]

        def new_thread(channel: FakeChannel = channel, server: int = server) -> FakeChannel | None:
            threads = fake.threads_in(channel)
            return threads[-1] if len(threads) > before[server] else None

        thread = await fake.wait_until(new_thread, timeout=10, what="the game's home")
        assert thread is not None
        await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
        homes.append(thread)
    query = "SELECT game_id FROM game_homes WHERE channel_id = %s"
    game_id = _one(url, query, homes[0].id)
    assert game_id is not None and game_id == _one(url, query, homes[1].id)
    return game_id, homes[0], homes[1]


async def test_network_games_across_shards_survive_the_middle_servers_process_killed(
    postgres_url: str, tmp_path: Path
) -> None:
    rng = random.Random(41)
    url = postgres_url
    async with sharded_fake() as fake:
        tables, bea = network_of(fake)
        ann, bob, cat = tables.players
        cluster = Cluster(fake, url, tmp_path, DVONN_NETWORK="on")
        try:
            await cluster.start(0)  # it syncs the commands; then the others start together
            await asyncio.gather(*(cluster.start(shard) for shard in range(1, SHARDS)))
            await take_part(tables, 0, 1, 2)
            for server, player in ((0, ann), (1, bob), (1, bea), (2, cat)):
                await join(tables, player, tables.networks[server])
            game_ab, home_ann, home_bob = await seek_taken(
                tables, url, seeker=ann, seeker_server=0, taker=bob, taker_server=1
            )
            game_bc, home_cat, home_bea = await seek_taken(
                tables, url, seeker=cat, seeker_server=2, taker=bea, taker_server=1
            )
            # Who plays where: (White, her home), (Black, his home); the server of each home.
            games = {
                game_ab: {"W": (ann, home_ann, 0), "B": (bob, home_bob, 1)},
                game_bc: {"W": (cat, home_cat, 2), "B": (bea, home_bea, 1)},
            }
            live = set(range(SHARDS))

            async def move(game_id: int) -> bool:
                """The player to move plays from their home, if its server's shard is up."""
                game = stored(url, game_id)
                player, home, shard = games[game_id][game.position.turn.value]
                if shard not in live:
                    return False
                await send_move(fake, player, home, pick(rng, game.position))
                return True

            for _ in range(7):
                await move(game_ab)
                await move(game_bc)
            # Bob moves (it is his turn: seven plies played); B's process dies while it mirrors
            # his board to Ann's home.
            assert stored(url, game_ab).position.turn.value == "B"
            hold = fake.world.hold_response("POST", rf"/channels/{home_ann.id}/messages$")
            await move(game_ab)  # his home has its answer
            await asyncio.wait_for(hold.entered.wait(), 10)
            killed = time.monotonic()
            await cluster.kill(1)
            live.discard(1)
            hold.release()
            await fake.wait_until(lambda: unsent(url) == 0, timeout=40, what="the held board")
            took = time.monotonic() - killed
            print(f"the killed process's board came {took:.1f} s after the kill")
            assert took <= TAKEOVER_GOAL, f"its board came {took:.1f} s after the kill"
            assert fake.world.nonce_hits >= 1  # found again by its nonce, not posted twice
            # The games go on from the homes on live shards, mirrored to B's threads.
            assert await move(game_ab)  # Ann
            assert not await move(game_ab)  # Bob's home is down
            while await move(game_bc):  # Cat, until it is Bea's turn
                pass
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="their boards")

            # B's process comes back; both games go on from every home.
            await cluster.start(1)
            live.add(1)
            for _ in range(8):
                assert await move(game_ab)
                assert await move(game_bc)
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="every board")
            await asyncio.sleep(0.5)  # nothing more comes

            for game_id, seats in games.items():
                game = stored(url, game_id)
                for seat, (player, home, _shard) in seats.items():
                    check_home(fake, home, game, player, seat)
        except BaseException:
            cluster.print_logs()
            with psycopg.connect(url) as db:
                print("leases:", db.execute("SELECT * FROM leases").fetchall())
                print(
                    "unsent:",
                    db.execute(
                        "SELECT id, kind, game_id, home, claimed_by, leased_until, attempts "
                        "FROM notifications WHERE sent_at IS NULL"
                    ).fetchall(),
                )
            raise
        finally:
            await cluster.stop()
