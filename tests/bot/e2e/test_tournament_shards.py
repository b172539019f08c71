"""A tournament's game threads made by a process that does not hold the server's shard.

Two ``python -m bot`` processes on one PostgreSQL database hold shards 0 and 1; the server is
on shard 1. Its organiser starts a round robin of three; while the first game's post is being
made (Discord made it, the process never heard), shard 1's process is killed (SIGKILL). The
process of shard 0 must deliver the games' rows: post each game (the held one found again by
its nonce) and start its thread, in a server it does not hold. Every game begins in its own
thread, with its first post there.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from tests.bot.e2e.helpers import FIRST_TOURNAMENT
from tests.bot.e2e.test_shards import Cluster, guild_id_on, sharded_fake, unsent
from tests.bot.e2e.test_tournament_crashes import FIRST_POST
from tests.fakediscord import FakeDiscord, Permission

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.alone]


def _games(url: str) -> list[tuple[int, str, int | None]]:
    with psycopg.connect(url) as db:
        rows = db.execute(
            "SELECT g.id, g.status, g.channel_id FROM tournament_games p "
            "JOIN games g ON g.id = p.game_id ORDER BY p.number"
        ).fetchall()
    return [(int(i), str(s), None if c is None else int(c)) for i, s, c in rows]


def _begun(fake: FakeDiscord, url: str, count: int) -> bool:
    games = _games(url)
    if len(games) != count:
        return False
    for _game, status, channel_id in games:
        if status == "pending" or channel_id is None or channel_id not in fake.world.channels:
            return False
        if not any(
            FIRST_POST in str(m.embeds) for m in fake.messages_in(fake.world.channel(channel_id))
        ):
            return False
    return True


async def test_a_tournaments_game_threads_are_made_by_a_process_of_another_shard(
    postgres_url: str, tmp_path: Path
) -> None:
    url = postgres_url
    async with sharded_fake() as fake:
        guild = fake.add_guild("club 1", guild_id=guild_id_on(1))
        games = guild.add_text_channel("games")
        organiser = fake.add_user(
            "olga", guild, roles=[guild.add_role("org", Permission.MANAGE_GUILD)]
        )
        players = [fake.add_user(name, guild) for name in ("alice", "bob", "carol")]
        cluster = Cluster(fake, url, tmp_path)
        try:
            await cluster.start(0)  # it syncs the commands
            await cluster.start(1)
            made = await fake.run_command(
                organiser,
                games,
                "dvonn tournament create",
                {"name": "Shard Cup", "format": "round_robin", "max_players": 4},
            )
            assert made.ephemeral and f"Made #{FIRST_TOURNAMENT}" in made.content, made.content
            post = await fake.wait_for_message(games, lambda m: bool(m.buttons()))
            await fake.wait_until(lambda: post.thread_id, what="the tournament's thread")
            for player in players:
                joined = await fake.run_command(player, games, "dvonn tournament join")
                assert joined.ephemeral, joined.content
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="the joins' posts")

            # The first game's post is held; shard 1's process dies while it is being made.
            hold = fake.world.hold_response("POST", rf"/channels/{games.id}/messages$")
            started = await fake.run_command(organiser, games, "dvonn tournament start")
            assert started.ephemeral, started.content
            await asyncio.wait_for(hold.entered.wait(), 20)
            await cluster.kill(1)
            hold.release()

            # Shard 0's process delivers every game's row: its post and its thread.
            await fake.wait_until(
                lambda: _begun(fake, url, 3), timeout=45, what="the games begun in threads"
            )
            await fake.wait_until(lambda: unsent(url) == 0, timeout=20, what="the outbox")
            assert fake.world.nonce_hits >= 1  # the held post found again, not posted twice
            begun = _games(url)
            threads = {channel_id for _game, _status, channel_id in begun}
            assert len(threads) == 3
            assert threads <= {t.id for t in fake.threads_in(games)}
            pairing = [
                m for m in fake.messages_in(games) if m.thread_id is not None and m.id != post.id
            ]
            # One post a game, each with its game's thread.
            assert len(pairing) == 3 and {m.thread_id for m in pairing} == threads
        except BaseException:
            cluster.print_logs()
            with psycopg.connect(url) as db:
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
