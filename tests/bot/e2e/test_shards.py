"""Several bot processes, each with a slice of the shards, on one PostgreSQL database.

The fake Discord (in this test's process) has three shards and routes each server's
interactions to the process that holds its shard. Three ``python -m bot`` processes hold one
shard each. Games run in three servers, one against the computer opponent. Then:

* the process of server B is killed (SIGKILL) between a move's commit and its board post
  (Discord made the board, the move's answer; the bot never heard): another process finds
  that answer through the command's token instead of posting it again, within seconds of the
  death (its life lock goes with it), with the default 30 s lease;
* meanwhile server A's game goes on untouched;
* the process of server C is killed while the computer opponent thinks: another process
  takes the turn over as soon, plays it and posts it;
* both come back, and their servers' games go on.

At the end, every turn of every game has exactly one board post, in order, pinging the player
to move.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

import rules
from tests.bot.e2e.helpers import send_move
from tests.bot.e2e.test_crashes import CALLBACK, REPO, Stored, answers_found, check_posts, pick
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    Permission,
    RecordedMessage,
)
from tests.fakediscord.fixtures import interaction_deadline
from tests.fakediscord.harness import discord_endpoints

# Alone: TAKEOVER_GOAL is seconds of the wall clock for three processes and a server.
pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.alone]

SHARDS = 3
TAKEOVER_GOAL = 10.0
"""Seconds from a process's death to its owed work done by another live process."""


def guild_id_on(shard: int) -> int:
    """A server id that Discord routes to ``shard``: ``(id >> 22) % SHARDS == shard``."""
    return ((3000 + shard) << 22) | 1


class Cluster:
    """``python -m bot`` once per shard, on one PostgreSQL database; ``environment`` adds
    settings (``DVONN_NETWORK="on"``)."""

    def __init__(self, fake: FakeDiscord, url: str, logs: Path, **environment: str) -> None:
        self.fake = fake
        self.url = url
        self.logs = logs
        self.environment = environment
        self.processes: dict[int, asyncio.subprocess.Process] = {}
        self.synced = False

    async def start(self, shard: int) -> None:
        fake = self.fake
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))},
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DVONN_DATABASE": self.url,
            "DVONN_SHARD_COUNT": str(SHARDS),
            "DVONN_SHARDS": str(shard),
            "DVONN_RENDER_PROCESSES": "0",
            "DVONN_AI_SECONDS": "1.0",
            # The default lease (30 s) and poll (5 s): a killed process's work is taken over
            # as soon as the others see its life lock go, long before its claims run out.
            **self.environment,
        }
        argv = [] if self.synced else ["--sync"]
        with (self.logs / f"shard-{shard}.log").open("a") as out:
            self.processes[shard] = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", *argv, env=env, stdout=out, stderr=out
            )
        if not self.synced:
            await fake.wait_until(fake.commands, timeout=30, what="the global sync")
            self.synced = True
        await fake.wait_until(lambda: self.serving(shard), timeout=30, what=f"shard {shard}")

    def serving(self, shard: int) -> bool:
        return any(s.shard.id == shard for s in self.fake.gateway.live_sessions())

    async def kill(self, shard: int) -> None:
        process = self.processes.pop(shard)
        process.send_signal(signal.SIGKILL)
        await process.wait()
        await self.fake.wait_until(
            lambda: not self.serving(shard), timeout=10, what=f"shard {shard} to be gone"
        )

    async def stop(self) -> None:
        for process in self.processes.values():
            if process.returncode is None:
                process.terminate()
        for process in self.processes.values():
            await asyncio.wait_for(process.wait(), 30)

    def print_logs(self) -> None:
        for log in sorted(self.logs.glob("shard-*.log")):
            print(f"--- {log.name}\n{log.read_text()[-8000:]}")


def stored(url: str, game_id: int) -> Stored:
    with psycopg.connect(url) as db:
        found = db.execute("SELECT position, status FROM games WHERE id = %s", (game_id,))
        text, status = found.fetchone() or ("", "")
        record = db.execute(
            "SELECT ply, colour, player_id, automatic FROM moves WHERE game_id = %s ORDER BY ply",
            (game_id,),
        ).fetchall()
    return Stored(rules.Position.from_text(text), status == "active", record)


def unsent(url: str) -> int:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT count(*) FROM notifications WHERE sent_at IS NULL").fetchone()
    return int(row[0]) if row else 0


def thinking(url: str, game_id: int) -> bool:
    """Whether a process holds the lease of the bot's turn in the game (it is thinking)."""
    with psycopg.connect(url) as db:
        row = db.execute("SELECT 1 FROM leases WHERE name = %s", (f"computer:{game_id}",))
        return row.fetchone() is not None


def game_in(url: str, channel: FakeChannel) -> int | None:
    with psycopg.connect(url) as db:
        row = db.execute("SELECT id FROM games WHERE channel_id = %s", (channel.id,)).fetchone()
    return None if row is None else int(row[0])


@contextlib.asynccontextmanager
async def sharded_fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(shard_count=SHARDS, interaction_deadline=interaction_deadline()) as fake:
        # A board a turn in server C's channel, at machine speed: under the per-channel limit
        # (5 posts per 5 s) discord.py would sleep out the bucket every few turns, and the
        # limits are not the point here (tests/fakediscord/test_ratelimits.py and
        # tests/bot/e2e/test_limits.py test them). The global limit, which the processes share
        # (one token), stays on.
        fake.limits.per_channel = False
        with discord_endpoints(fake):
            yield fake


class Server:
    """A server on one shard, with a games channel and its players."""

    def __init__(self, fake: FakeDiscord, shard: int, *names: str) -> None:
        self.shard = shard
        self.guild: FakeGuild = fake.add_guild(f"club {shard}", guild_id=guild_id_on(shard))
        # No threads: the games are played in the channel itself (one game each here).
        self.channel = self.guild.add_text_channel(
            "games", deny_bot=Permission.CREATE_PUBLIC_THREADS
        )
        self.people = [fake.add_user(name, self.guild) for name in names]


async def human_game(fake: FakeDiscord, url: str, server: Server) -> tuple[FakeChannel, int]:
    white, black = server.people
    challenge = await fake.run_command(
        white, server.channel, "dvonn challenge", {"opponent": black, "colour": "W"}
    )
    assert challenge.message is not None, challenge.content
    await fake.click(black, challenge.message, label="Accept")
    place = await _first_post(fake, challenge.message)
    game_id = await fake.wait_until(lambda: game_in(url, place), timeout=10, what="the game")
    assert game_id is not None
    return place, game_id


async def _first_post(fake: FakeDiscord, challenge: RecordedMessage) -> FakeChannel:
    await fake.wait_until(lambda: not challenge.buttons(), what="the challenge to close")
    threads = fake.threads_in(fake.world.channel(challenge.channel_id))
    place = threads[-1] if threads else fake.world.channel(challenge.channel_id)
    await fake.wait_for_message(place, lambda m: m.embed_image() is not None, after=challenge)
    return place


async def test_processes_with_shard_slices_share_the_work_and_take_over_a_killed_ones(
    postgres_url: str, tmp_path: Path
) -> None:
    rng = random.Random(16)
    url = postgres_url
    async with sharded_fake() as fake:
        a = Server(fake, 0, "alice", "bob")
        b = Server(fake, 1, "carol", "dave")
        c = Server(fake, 2, "erin")
        cluster = Cluster(fake, url, tmp_path)
        try:
            await cluster.start(0)  # it syncs the commands; then the others start together
            await asyncio.gather(*(cluster.start(shard) for shard in range(1, SHARDS)))
            place_a, game_a = await human_game(fake, url, a)
            place_b, game_b = await human_game(fake, url, b)
            versus = await fake.run_command(
                c.people[0], c.channel, "dvonn play-bot", {"level": "strongest", "colour": "W"}
            )
            assert not versus.ephemeral, versus.content
            game_c = await fake.wait_until(lambda: game_in(url, c.channel), what="the bot game")
            assert game_c is not None

            def mover(server: Server, game_id: int) -> FakeUser:
                turn = stored(url, game_id).position.turn
                return server.people[0 if turn is rules.Colour.WHITE else 1]

            async def move(server: Server, place: FakeChannel, game_id: int) -> None:
                game = stored(url, game_id)
                await send_move(fake, mover(server, game_id), place, pick(rng, game.position))

            async def erin_moves() -> None:
                game = stored(url, game_c)
                assert game.position.turn is rules.Colour.WHITE
                await send_move(fake, c.people[0], c.channel, pick(rng, game.position))

            def bots_turn_done() -> bool:
                return stored(url, game_c).position.turn is rules.Colour.WHITE

            for _ in range(6):
                await move(a, place_a, game_a)
                await move(b, place_b, game_b)
            # Erin and the bot place their pieces; then it is Erin's first move, and the bot's
            # answer to it is one it thinks about (for a second).
            while stored(url, game_c).position.ply < rules.PLACEMENT_PLIES:
                await erin_moves()
                await fake.wait_until(bots_turn_done, timeout=30, what="the bot's move")

            # Server B's process dies between a move's commit and its post.
            hold = fake.world.hold_response("POST", CALLBACK)  # the board answers the move
            game = stored(url, game_b)
            held_move = pick(rng, game.position)
            result = fake.send_command(
                mover(b, game_b), place_b, "dvonn play", {"move": str(held_move)}
            )
            await asyncio.wait_for(hold.entered.wait(), 10)
            killed = time.monotonic()
            await cluster.kill(b.shard)
            hold.release()
            await result.wait_response(timeout=10)
            # Another process posts it, while B's process is down.
            await fake.wait_until(lambda: unsent(url) == 0, timeout=40, what="the held post")
            took = time.monotonic() - killed
            print(f"the killed process's post came {took:.1f} s after the kill")
            assert took <= TAKEOVER_GOAL, f"its post came {took:.1f} s after the kill"
            assert not cluster.serving(b.shard)
            # Server A's game goes on meanwhile.
            for _ in range(4):
                await move(a, place_a, game_a)

            # Server C's process dies while the bot thinks; another one takes the turn over.
            await erin_moves()
            await fake.wait_until(
                lambda: thinking(url, game_c), timeout=10, what="the bot to think"
            )
            killed = time.monotonic()
            await cluster.kill(c.shard)
            assert not bots_turn_done(), "the bot was quicker than the kill"
            await fake.wait_until(bots_turn_done, timeout=45, what="the bot's move elsewhere")
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="its post")
            took = time.monotonic() - killed
            print(f"the killed process's computer turn was posted {took:.1f} s after the kill")
            # Taken over, then thought about again from the start (for a second).
            assert took <= TAKEOVER_GOAL + 1.0, f"its turn came {took:.1f} s after the kill"

            # Both come back; their servers' games go on.
            await asyncio.gather(cluster.start(b.shard), cluster.start(c.shard))
            for _ in range(4):
                await move(b, place_b, game_b)
                await move(a, place_a, game_a)
            await erin_moves()
            await fake.wait_until(bots_turn_done, timeout=30, what="the bot's last move")
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="every post")
            await asyncio.sleep(0.5)  # nothing more comes

            check_posts(fake, place_a, stored(url, game_a), _colours(a))
            check_posts(fake, place_b, stored(url, game_b), _colours(b))
            bot = fake.world.bot.id
            people_c = {"W": c.people[0].id, "B": bot}
            check_posts(fake, c.channel, stored(url, game_c), people_c, computer=bot)
            assert answers_found(fake) >= 1  # the held answer was found, not posted again
        except BaseException:
            cluster.print_logs()
            with psycopg.connect(url) as db:
                print("leases:", db.execute("SELECT * FROM leases").fetchall())
                print(
                    "unsent:",
                    db.execute(
                        "SELECT id, kind, game_id, claimed_by, leased_until, attempts "
                        "FROM notifications WHERE sent_at IS NULL"
                    ).fetchall(),
                )
            raise
        finally:
            await cluster.stop()


def _colours(server: Server) -> dict[str, int]:
    return {"W": server.people[0].id, "B": server.people[1].id}
