"""Two processes' services on one database, doing the same work at the same moment: each change
is made once, and the process that loses a race gets a player's error, not an incident.

On SQLite the file's write lock makes them take turns; on PostgreSQL their transactions run
side by side, and row locks (and versions) must give the same outcome.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from datetime import timedelta

import pytest

import rules
from bot.games.lobby.errors import ChallengeError, ChannelBusy
from bot.games.service import GameService
from bot.storage import Store, open_database
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import ALICE, BOB, CAROL, GUILD, start_game

DAVE = 44


@pytest.fixture
async def other(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database, on the same clock."""
    service = GameService(Store(await open_database(database_target)), clock=clock)
    yield service
    await service.close()


async def one_of_two(*attempts: Awaitable[object]) -> BaseException:
    """Run two attempts at once: exactly one must go through; the other's refusal."""
    results = await asyncio.gather(*attempts, return_exceptions=True)
    started = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(started) == 1 and len(refused) == 1
    return refused[0]


async def test_a_challenge_accepted_in_two_processes_at_once_starts_one_game(
    service: GameService, other: GameService
) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=700, challenger_id=ALICE, opponent_id=None
    )
    refused = await one_of_two(
        service.accept_challenge(challenge.id, BOB), other.accept_challenge(challenge.id, CAROL)
    )
    assert isinstance(refused, ChallengeError), repr(refused)


async def test_two_challenges_accepted_at_once_in_one_channel_start_one_game(
    service: GameService, other: GameService
) -> None:
    """Each transaction finds the channel free; the database's index lets one game start, and
    the other player is told the channel is busy (not an incident)."""
    challenges = [
        await service.create_challenge(
            guild_id=GUILD, channel_id=705, challenger_id=challenger, opponent_id=None
        )
        for challenger in (ALICE, CAROL)
    ]
    refused = await one_of_two(
        service.accept_challenge(challenges[0].id, BOB),
        other.accept_challenge(challenges[1].id, DAVE),
    )
    assert isinstance(refused, ChannelBusy), repr(refused)


async def test_two_games_of_one_player_ending_at_once_both_count(
    service: GameService, other: GameService
) -> None:
    first = await start_game(service, ALICE, BOB, channel=701)
    second = await start_game(service, CAROL, ALICE, channel=702)
    await asyncio.gather(
        service.resign(first.id, ALICE, expected_version=first.version),
        other.resign(second.id, ALICE, expected_version=second.version),
    )
    profile = await service.ratings.profile(GUILD, ALICE)
    assert profile.rating is not None
    assert (profile.rating.games, profile.rating.losses) == (2, 2)


async def test_two_processes_sweeping_at_once_end_a_game_on_time_once_and_remind_once(
    service: GameService, other: GameService, clock: ManualClock
) -> None:
    late = await start_game(service, ALICE, BOB, channel=703, clock_days=1)
    near = await start_game(service, CAROL, BOB, channel=704, clock_days=2)
    mover = near.to_move_id
    assert mover is not None
    await service.play(near.id, mover, rules.CELL_NAMES[0])  # now Bob is to move
    clock.advance(timedelta(days=1, hours=1))  # past the first deadline, near the second
    sweeps = await asyncio.gather(service.sweep(), other.sweep())
    assert sum(len(s.lost_on_time) for s in sweeps) == 1
    assert sum(len(s.reminders) for s in sweeps) == 1  # Bob, of the game near its deadline
    assert (await service.get_game(late.id)).is_active is False
    await asyncio.gather(service.sweep(), other.sweep())  # nothing left to do twice
    reminded = await service.store.db.fetch_all(
        "SELECT count(*) FROM notifications WHERE kind = 'reminder'"
    )
    assert reminded[0][0] == sum(len(s.reminders) for s in sweeps)


async def test_two_processes_taking_one_lease_one_gets_it_until_it_lets_go(
    service: GameService, other: GameService, clock: ManualClock
) -> None:
    taken = await asyncio.gather(service.leases.take("job"), other.leases.take("job"))
    assert sorted(taken) == [False, True]
    holder, waiter = (service, other) if taken[0] else (other, service)
    assert await waiter.leases.held_by_others("jo") == {"job"}
    await holder.leases.release("job")
    assert await waiter.leases.take("job")
    clock.advance(waiter.leases.duration + timedelta(seconds=1))  # the holder died: it runs out
    assert await holder.leases.take("job")


async def test_a_servers_language_stored_by_one_process_is_read_by_another(
    service: GameService, other: GameService
) -> None:
    """The process that serves a server's shard stores its language; a process without that
    server in its cache posts there in it."""
    assert await other.guild_locale(GUILD) is None
    await service.remember_guild_locale(GUILD, "fr")
    assert await other.guild_locale(GUILD) == "fr"
    await service.remember_guild_locale(GUILD, "ko")  # the server changed it
    assert await other.guild_locale(GUILD) == "ko"


async def test_a_move_and_a_reminder_of_its_player_at_once_both_go_through(
    service: GameService,
) -> None:
    """The reminder holds the player's row, then writes the game; the move writes the game,
    then its record checks the player's row. Row locks that also blocked those checks would
    deadlock here on PostgreSQL (found in review)."""
    game = await start_game(service, ALICE, BOB, channel=706, clock_days=3)
    mover = game.to_move_id
    assert mover is not None
    now = service.now()
    holding, go = asyncio.Event(), asyncio.Event()

    async def reminder() -> None:
        async with service.store.write() as tx:
            await tx.prefs(mover)  # locked, as the reminders' sweep does
            holding.set()
            await go.wait()
            await tx.mark_reminded(mover, [game], now)

    async def move() -> None:
        await holding.wait()
        playing = asyncio.create_task(service.play(game.id, mover, "C3"))
        await asyncio.sleep(0.3)  # its game row written, its record waiting
        go.set()
        await playing

    await asyncio.wait_for(asyncio.gather(reminder(), move()), 10)
    assert (await service.get_game(game.id)).position.ply == 1
