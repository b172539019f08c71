"""Every way a game ends leaves the same traces: one code path (bot.games.core.endings) ends them
all.

Each game below is ended a different way with a takeback request and an abort request pending
and a clock running, then its stored row and its announcement are compared: nothing may be
left pending, the score is recorded, a rated game is rated exactly then, and exactly one
announcement of the end waits in the outbox, claimed by the process that ended the game (a
``game_ended`` post, or for an ending by a move, that move's turn post, which shows the end).
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import Any

import rules
from bot.games.core.announcements import GAME_ENDED, GAME_STARTED, TURN
from bot.games.core.endings import AfterEnd, GameEnd
from bot.games.service import GameService
from bot.storage.models import EndReason, Game, GameStatus, Result
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import ALICE, BOB, CAROL, GUILD, start_game

COMPUTER = 99


async def _with_requests_pending(service: GameService, game: Game, moves: int = 2) -> Game:
    """Play ``moves`` placements, then leave a takeback request pending."""
    for cell in ("E3", "F3", "D3", "C3")[:moves]:
        mover = game.to_move_id
        assert mover is not None
        game = (await service.play(game.id, mover, cell)).game
    last = game.player(game.position.turn.opponent)
    asked = await service.takebacks.request(game.id, last)
    assert isinstance(asked, Game) and asked.takeback_requested_by == last
    return asked


async def _play_until_the_last_move(service: GameService, game: Game, seed: int) -> str:
    """Random legal moves until one more ends the game; returns that move."""
    rng = random.Random(seed)
    while True:
        position = game.position
        move = rng.choice([m for m in rules.legal_moves(position) if m != rules.PASS])
        after = rules.play(position, move)
        while rules.legal_moves(after) == (rules.PASS,):
            after = rules.play(after, rules.PASS)
        if rules.is_over(after):
            return str(move)
        mover = game.to_move_id
        assert mover is not None
        game = (await service.play(game.id, mover, move)).game


async def _traces(service: GameService, game_id: int) -> dict[str, Any]:
    row = await service.store.db.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
    assert row is not None
    notices = await service.store.db.fetch_all(
        "SELECT kind, payload, claimed_by, leased_until, sent_at FROM notifications "
        "WHERE game_id = ?",
        (game_id,),
    )
    ended = [
        n
        for n in notices
        if n["kind"] == GAME_ENDED or (n["kind"] == TURN and json.loads(n["payload"])["over"])
    ]
    return {
        "pending": (
            row["deadline_at"],
            row["abort_requested_by"],
            row["takeback_requested_by"],
            row["takeback_ply"],
        ),
        "score recorded": row["score_white"] is not None and row["score_black"] is not None,
        "finished when last updated": row["finished_at"] == row["updated_at"] is not None,
        "rated now": row["rated_at"] == row["finished_at"]
        if row["rated"] and row["result"] is not None
        else row["rated_at"] is None,
        "announcements": len(ended),
        "announcement claimed": all(
            n["claimed_by"] == service.outbox.claimant
            and n["leased_until"] is not None
            and n["sent_at"] is None
            for n in ended
        ),
    }


async def test_every_kind_of_ending_is_stored_and_announced_the_same_way(
    service: GameService, clock: ManualClock
) -> None:
    same = {
        "pending": (None, None, None, None),
        "score recorded": True,
        "finished when last updated": True,
        "rated now": True,
        "announcements": 1,
        "announcement claimed": True,
    }
    endings: dict[str, tuple[Game, EndReason, GameStatus]] = {}

    # By the rules: the last move of a random game, with a takeback request pending.
    game = await start_game(service, channel=1, clock_days=1)
    last = await _play_until_the_last_move(service, game, seed=3)
    game = await service.get_game(game.id)
    mover = game.to_move_id
    assert mover is not None
    await service.takebacks.request(game.id, game.opponent_of(mover))
    outcome = await service.play(game.id, mover, last)
    assert outcome.ended is not None and outcome.game_over is not None
    endings["rules"] = (outcome.game, EndReason.SCORE, GameStatus.FINISHED)

    # Resignation, with an abort request and a takeback request pending.
    game = await _with_requests_pending(service, await start_game(service, channel=2, clock_days=1))
    await service.abort(game.id, ALICE)
    ended = await service.resign(game.id, BOB)
    endings["resignation"] = (ended.game, EndReason.RESIGNATION, GameStatus.FINISHED)

    # Abort by agreement, with a takeback request pending.
    game = await _with_requests_pending(service, await start_game(service, channel=3, clock_days=1))
    await service.abort(game.id, ALICE)
    aborted = await service.abort(game.id, BOB)
    assert aborted.ended is not None
    endings["abort"] = (aborted.ended.game, EndReason.ABORT, GameStatus.ABORTED)

    # Abort by a moderator.
    game = await _with_requests_pending(service, await start_game(service, channel=4, clock_days=1))
    moderated = await service.abort(game.id, CAROL, moderator=True)
    assert moderated.ended is not None
    endings["moderator"] = (moderated.ended.game, EndReason.ABORT, GameStatus.ABORTED)

    # A game against the bot, resigned (unrated).
    started = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=5,
        human_id=ALICE,
        computer_id=COMPUTER,
        level="easy",
        human_colour=rules.Colour.WHITE,
    )
    computer = (await service.play(started.game.id, ALICE, "E3")).game
    computer = (await service.play(computer.id, COMPUTER, "F3")).game
    ended = await service.resign(computer.id, ALICE)
    endings["computer"] = (ended.game, EndReason.RESIGNATION, GameStatus.FINISHED)

    # Loss on time, with a takeback request pending: the last, since the clock moves on.
    game = await _with_requests_pending(service, await start_game(service, channel=6, clock_days=1))
    clock.advance(timedelta(days=2))
    sweep = await service.sweep()
    (lost,) = sweep.lost_on_time
    assert lost.announcement in sweep.announcements
    endings["time"] = (lost.game, EndReason.TIME, GameStatus.FINISHED)

    for name, (game, reason, status) in endings.items():
        stored = await service.get_game(game.id)
        assert (stored.end_reason, stored.status) == (reason, status), name
        assert (stored.result is None) == (reason is EndReason.ABORT), name
        assert stored.score == rules.score(stored.position), name
        assert await _traces(service, game.id) == same, name
    time_game = await service.get_game(endings["time"][0].id)
    assert time_game.result is Result.BLACK and time_game.ended_by == ALICE  # White's clock ran out
    assert await service.ratings.rating(GUILD, ALICE) is not None  # the rated games counted
    row = await service.store.db.fetch_one(
        "SELECT rated_at FROM games WHERE id = ?", (computer.id,)
    )
    assert row is not None and row["rated_at"] is None  # games against the bot are unrated


async def test_an_announcement_is_left_to_its_writer_until_the_claim_runs_out(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service)
    ended = await service.resign(game.id, ALICE)
    assert await service.outbox.claimable() == []  # the resigning interaction posts it
    clock.advance(service.outbox.lease + timedelta(seconds=1))
    # It did not (a crash): another deliverer may take the game's posts, the oldest first.
    (first,) = await service.outbox.claimable()
    assert first.kind == GAME_STARTED and first.id < ended.announcement
    service.outbox.sent(first.id)
    await service.outbox.flush()
    (left,) = await service.outbox.claimable()
    assert left.id == ended.announcement and left.kind == GAME_ENDED
    service.outbox.sent(left.id)
    assert await service.outbox.claimable() == [] and await service.outbox.get(left.id) is None


async def test_a_feature_s_hook_runs_around_the_ratings_and_the_announcement(
    service: GameService,
) -> None:
    """A feature registered for games' ends takes its part in the ending's transaction: first
    before the game is rated (to take its locks there), then once its end is announced."""
    game = await start_game(service)
    seen: list[tuple[str, bool, int]] = []

    async def hook(end: GameEnd) -> AfterEnd | None:
        async def after() -> None:
            seen.append(("after", await _rated(end), await _announced(end)))

        seen.append(("before", await _rated(end), await _announced(end)))
        return after if end.game.id == game.id else None

    async def _rated(end: GameEnd) -> bool:
        return await end.tx.rating(GUILD, end.game.white_id) is not None

    async def _announced(end: GameEnd) -> int:
        rows = await end.tx._conn.fetch_all(  # the transaction's own view
            "SELECT id FROM notifications WHERE game_id = ? AND kind = ?",
            (end.game.id, GAME_ENDED),
        )
        return len(rows)

    service.game_ends.register(hook)
    ended = await service.resign(game.id, BOB)
    assert ended.game.end_reason is EndReason.RESIGNATION
    assert seen == [("before", False, 0), ("after", True, 1)]
