"""Late actions racing the housekeeping pass, over two connections (as two processes would), on
each backend: whichever comes first ends the game lost on time, once (one final post, one
rating), and every late action is refused (with the deadline, or as the game is over), none
of them played."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.games import GameFinished, GameService, LostOnTime, Sweep, WonOnTime
from bot.games import announcements as kinds
from bot.games.timecontrol import DaysPerMove
from bot.storage import EndReason, Game, Store, open_database
from rules import Colour
from tests.bot.clock import ManualClock

ALICE, BOB = 11, 22
GUILD = 1


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def services(database_target: str, clock: ManualClock) -> AsyncIterator[list[GameService]]:
    one = GameService(
        Store(await open_database(database_target)), clock=clock, rng=random.Random(1)
    )
    two = GameService(Store(await open_database(database_target)), clock=clock)
    yield [one, two]
    await two.close()
    await one.close()


@pytest.fixture
async def game(services: list[GameService]) -> Game:
    service = services[0]
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=2,
        challenger_id=ALICE,
        opponent_id=BOB,
        colour=Colour.WHITE,
        clock=DaysPerMove(1),
    )
    return (await service.accept_challenge(challenge.id, BOB)).game


async def test_late_actions_and_sweeps_at_once_end_the_game_once(
    services: list[GameService], game: Game, clock: ManualClock
) -> None:
    assert game.deadline_at is not None
    clock.now = game.deadline_at + timedelta(seconds=30)
    attempts = []
    for index in range(6):
        service = services[index % 2]
        attempts += [
            service.play(game.id, ALICE, "E3"),
            service.abort(game.id, ALICE),
            service.takebacks.request(game.id, BOB),
            service.sweep(),
        ]
    results = await asyncio.gather(*attempts, return_exceptions=True)

    refusals = [r for r in results if isinstance(r, BaseException)]
    assert len(refusals) == 18, refusals  # every late action; no sweep failed
    # Refused with the deadline; or, begun once the game had ended, as any action then is.
    assert all(isinstance(r, LostOnTime | WonOnTime | GameFinished) for r in refusals), refusals
    assert {r.deadline for r in refusals if isinstance(r, LostOnTime | WonOnTime)} == {
        game.deadline_at
    }
    record = await services[1].record(game.id)
    assert record.game.end_reason is EndReason.TIME and record.game.winner_id == BOB
    assert record.moves == ()
    posts = await services[0].store.unsent_notifications(game.id)
    assert [p.kind for p in posts].count(kinds.GAME_ENDED) == 1
    ended_by_sweeps = sum(len(r.lost_on_time) for r in results if isinstance(r, Sweep))
    announced = [
        a for r in refusals if isinstance(r, LostOnTime | WonOnTime) for a in r.announcements
    ]
    assert ended_by_sweeps + len(announced) == 1
    winner = await services[0].ratings.rating(GUILD, BOB)
    assert winner is not None and (winner.games, winner.wins) == (1, 1)
