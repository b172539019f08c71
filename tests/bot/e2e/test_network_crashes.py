"""A network game's turn mirrored to the other home, with ``python -m bot`` killed (SIGKILL) in
between.

Ann (server A) and Bob (server B) play a network game, each from a thread of their server's
network channel. At turns of either player, in the placement and in the moves, the bot's
process is killed after the mover's home got its answer and while the other home's board is
being made (Discord made it, the bot never heard), then started again on the same database
file: the restarted process posts the owed board with the same nonce, and Discord returns the
message already made. At the end each home has every board exactly once, in order, pinging only
its own player.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import send_move
from tests.bot.e2e.test_crashes import FOOTER_MOVE, REPO, Stored, board_posts, pick, stored
from tests.bot.e2e.test_network_games import PICK, join, take_part, thread_in
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser

pytestmark = pytest.mark.slow


class NetworkProcess:
    """``python -m bot`` with the network on (its commands global), on one database file."""

    def __init__(self, fake: FakeDiscord, database: Path, log: Path) -> None:
        self.fake = fake
        self.database = database
        self.log = log
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        fake = self.fake
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DVONN_"))},
            "PYTHONPATH": str(REPO),
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DVONN_DATABASE": str(self.database),
            "DVONN_NETWORK": "on",
            "DVONN_RENDER_PROCESSES": "0",
            # The default lease (30 s) and poll (5 s): a restart takes an earlier run's claims
            # at once, without waiting for them to run out.
        }
        argv = ["--sync"] if self.starts == 0 else []
        with self.log.open("a") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                *argv,
                cwd=self.database.parent,
                env=env,
                stdout=out,
                stderr=out,
            )
        self.starts += 1
        await fake.wait_for_ready(timeout=30)
        if argv:
            await fake.wait_until(fake.commands, timeout=30, what="the global sync")

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        fake = self.fake
        await fake.wait_until(
            lambda: not fake.gateway.live_sessions(), timeout=10, what="the bot to be gone"
        )

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 30)


@contextlib.asynccontextmanager
async def network_process(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[NetworkProcess]:
    bot = NetworkProcess(fake, tmp_path / "dvonn.sqlite3", tmp_path / "bot.log")
    await bot.start()
    try:
        yield bot
    except BaseException:
        print(bot.log.read_text()[-20000:])  # what the bot said, to see why
        raise
    finally:
        await bot.stop()


def _one(database: Path, query: str, *args: object) -> int | None:
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        row = db.execute(query, args).fetchone()
    return None if row is None else int(row[0])


async def ann_against_bob(
    tables: NetworkTables, database: Path
) -> tuple[int, FakeChannel, FakeChannel]:
    """Ann (server A, White) makes an open network challenge; Bob (server B) takes it from
    /network seeks. The game, and its homes (a thread in each server's network channel)."""
    fake = tables.fake
    ann, bob, _cat = tables.players
    await take_part(tables, 0, 1)
    await join(tables, ann, tables.networks[0])
    await join(tables, bob, tables.networks[1])
    seek = await fake.run_command(ann, tables.networks[0], "network challenge", {"colour": "W"})
    assert not seek.ephemeral and seek.message is not None, seek.content
    listed = await fake.run_command(bob, tables.networks[1], "network seeks")
    assert listed.ephemeral and listed.message is not None
    challenge = _one(database, "SELECT id FROM challenges WHERE network = 1 AND status = 'open'")
    assert challenge is not None
    taken = await fake.select(bob, listed.message, PICK, [str(challenge)])
    assert taken.ephemeral, taken.content
    homes = []
    for server in (0, 1):
        thread = await thread_in(tables, tables.networks[server])
        await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
        homes.append(thread)
    query = "SELECT game_id FROM game_homes WHERE channel_id = ?"
    game_id = _one(database, query, homes[0].id)
    assert game_id is not None and game_id == _one(database, query, homes[1].id)
    return game_id, homes[0], homes[1]


def turns_of(game: Stored) -> list[tuple[int | None, str | None]]:
    """The plies after which a board is owed (0: the first), and who is then to move; the
    final board (no footer) as ``None``."""
    turns: list[tuple[int | None, str | None]] = [(0, "W")]
    record = game.record
    for ply, _colour, _player, automatic in record:
        if automatic:
            continue
        end = ply + 1
        while end < len(record) and record[end][3]:
            end += 1  # the passes recorded with this move
        over = not game.active and end == len(record)
        turns.append((None, None) if over else (end, rules.position.colour_to_act(end).value))
    return turns


def check_home(
    fake: FakeDiscord, home: FakeChannel, game: Stored, player: FakeUser, seat: str
) -> None:
    """Every board exactly once in ``home``, in order, pinging its player (who plays ``seat``)
    when it is theirs to move, and nobody else."""
    posts = board_posts(fake, home)
    numbers: list[int | None] = []
    for post in posts:
        footer = str(post.embeds[0].get("footer", {}).get("text", ""))
        found = FOOTER_MOVE.search(footer)
        numbers.append(int(found[1]) - 1 if found else None)
    turns = turns_of(game)
    assert numbers == [ply for ply, _ in turns], f"{home!r}: posts for plies {numbers}"
    for post, (ply, to_move) in zip(posts, turns, strict=True):
        assert post.pinged_user_ids <= {player.id}, f"the post after ply {ply}: {post.pings}"
        if to_move is not None:
            assert (player.id in post.pinged_user_ids) == (to_move == seat), (
                f"the post after ply {ply} in {home!r} pinged {post.pings}"
            )


def _unsent(database: Path) -> int:
    """How many announcements are not marked sent."""
    return _one(database, "SELECT count(*) FROM notifications WHERE sent_at IS NULL") or 0


@pytest.mark.machine_speed  # a board a turn in each home
async def test_each_home_has_every_board_once_however_often_a_mirror_is_killed(
    network_tables: NetworkTables, tmp_path: Path
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    rng = random.Random(41)
    async with network_process(fake, tmp_path) as bot:
        game_id, home_a, home_b = await ann_against_bob(tables, bot.database)
        seats = {"W": (ann, home_a, home_b), "B": (bob, home_b, home_a)}
        # From either home, in the placement and in the moves (from ply 49).
        kill_plies = [3, 8, 14, 21, 30, 50, 53]
        kills = 0
        while (game := stored(bot.database, game_id)).position.ply < 56 and game.active:
            mover, home, other = seats[game.position.turn.value]
            move = pick(rng, game.position)
            if not kill_plies or game.position.ply < kill_plies[0]:
                await send_move(fake, mover, home, move)
                continue
            kill_plies.pop(0)
            # The other home's board: Discord makes it, the bot never hears.
            hold = fake.world.hold_response("POST", rf"/channels/{other.id}/messages$")
            await send_move(fake, mover, home, move)  # the mover's home has its answer
            await asyncio.wait_for(hold.entered.wait(), 10)
            await bot.kill()
            hold.release()
            kills += 1
            await bot.start()
        await fake.wait_until(
            lambda: _unsent(bot.database) == 0, timeout=30, what="the outbox to empty"
        )
        await asyncio.sleep(1.0)  # anything doubled would be out by now
        game = stored(bot.database, game_id)
        check_home(fake, home_a, game, ann, "W")
        check_home(fake, home_b, game, bob, "B")
        assert kills == 7 and bot.starts == kills + 1
        # Each held board was found again by its nonce, not posted a second time.
        assert fake.world.nonce_hits >= kills
