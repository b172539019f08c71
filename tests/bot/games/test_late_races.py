"""Late actions through the service, on each backend: racing the housekeeping pass over two
connections (as two processes would), whichever comes first ends the game lost on time, once
(one final post, one rating), and every late action is refused (with the deadline, or as the
game is over), none of them played; and in a tournament, a late move ends its game as the
housekeeping pass would (the absent player withdrawn, the next round paired without them)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.games.core import announcements as kinds
from bot.games.core.errors import GameFinished, LostOnTime, WonOnTime
from bot.games.core.timecontrol import DaysPerMove
from bot.games.service import GameService, Sweep
from bot.storage import EndReason, Game, Store, open_database
from bot.storage.models import TournamentFormat
from rules import Colour
from tests.bot.clock import ManualClock
from tests.bot.games.test_tournaments import _begin_pending, _made

ALICE, BOB = 11, 22
GUILD = 1


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


async def test_a_late_move_in_a_tournament_ends_its_game_as_the_housekeeping_pass_would(
    service: GameService, clock: ManualClock
) -> None:
    tournament = await _made(
        service, TournamentFormat.SWISS, max_players=6, rounds=3, clock="days:2"
    )
    for player in range(1, 7):
        await service.tournaments.join(tournament.id, player)
    games = await _begin_pending(service, tournament.id)
    # Player 6 makes no move in time; the other games end at once.
    absent = None
    for game_id in games:
        game = await service.get_game(game_id)
        if 6 in game.player_ids:
            absent = game
            if game.white_id != 6:
                absent = (await service.play(game_id, game.white_id, "A1")).game
            continue
        await service.play(game_id, game.white_id, "A1")
        await service.play(game_id, game.black_id, "A2")
        await service.resign(game_id, game.black_id)
    assert absent is not None and absent.deadline_at is not None and absent.to_move_id == 6
    clock.advance(days=3)
    with pytest.raises(LostOnTime) as refused:
        await service.play(absent.id, 6, "A2" if absent.ply else "A1")
    assert refused.value.deadline == absent.deadline_at and len(refused.value.announcements) == 1
    ended = await service.get_game(absent.id)
    assert ended.end_reason is EndReason.TIME and ended.ply == absent.ply
    standing = await service.tournaments.standing(tournament.id)
    assert {e.user_id for e in standing.entrants if e.withdrawn} == {6}
    second = [p for p in standing.pairings if p.round == 2]
    assert len(second) == 3 and all(6 not in p.player_ids for p in second)
    assert (await service.sweep()).lost_on_time == ()  # nothing left to end
