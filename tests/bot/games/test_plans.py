"""Conditional moves through the game service, on both backends: lines planned, answered,
chained, dropped, refused; clocks; and the planned reply played once, in the transaction of the
move it answers, whatever races it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

import rules
from bot.games.core import announcements as kinds
from bot.games.core.errors import GameChanged, GameFinished, NotAPlayer
from bot.games.core.timecontrol import Bank
from bot.games.plans.errors import (
    PlanConflict,
    PlanEndsOnTheirMove,
    PlanIllegalMove,
    PlanNotAMove,
    PlanNotHere,
    PlansAgainstTheBot,
    TooManyLines,
)
from bot.games.plans.lines import MOST_LINES, Line
from bot.games.play.errors import NotYourTurn
from bot.games.service import GameService
from bot.storage import Game, Store, open_database
from bot.storage.models import GameStatus
from bot.storage.plans import PlanWrites
from rules import Colour
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import ALICE, BOB, CAROL, play_moves, start_game

DAY, HOUR = timedelta(days=1), timedelta(hours=1)


@pytest.fixture
async def other(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """Another process's service on the same database, on the same clock."""
    service = GameService(Store(await open_database(database_target)), clock=clock)
    yield service
    await service.close()


@pytest.fixture
async def game(service: GameService) -> Game:
    """A game where Alice (White) is to place the first DVONN piece."""
    return await start_game(service)


async def record(service: GameService, game_id: int) -> str:
    return (await service.record(game_id)).text


async def turn_posts(service: GameService, game_id: int) -> list[dict[str, Any]]:
    """The game's turn announcements, oldest first: each one's moves and payload."""
    rows = await service.store.db.fetch_all(
        "SELECT id FROM notifications WHERE game_id = ? AND kind = ? ORDER BY id",
        (game_id, kinds.TURN),
    )
    found = [await service.outbox.get(row["id"]) for row in rows]
    return [dict(n.payload) for n in found if n is not None]


def texts(lines: tuple[Line, ...]) -> list[str]:
    return [line.text for line in lines]


# --- lines answered, going on, dropped ----------------------------------------------------------


async def test_a_planned_reply_is_played_at_once_and_announced_as_planned(
    service: GameService, game: Game
) -> None:
    planned = await service.plans.plan(game.id, BOB, "e3 f4 d2 d3")
    assert planned.line is not None and planned.line.text == "E3 F4 D2 D3"
    assert planned.played is None and texts(planned.lines) == ["E3 F4 D2 D3"]
    assert (await service.get_game(game.id)).version == game.version  # nothing else changed

    outcome = await service.play(game.id, ALICE, "E3")
    assert [m.text for m in outcome.moves] == ["E3"] and not outcome.move.planned
    assert [(m.text, m.planned, m.player_id) for m in outcome.replies] == [("F4", True, BOB)]
    assert outcome.game.ply == 2 and outcome.next_player_id == ALICE
    assert await record(service, game.id) == "E3 F4"
    posts = await turn_posts(service, game.id)
    assert [[m["move"] for m in p["moves"]] for p in posts] == [["E3"], ["F4"]]
    assert posts[0].get("followed") is True and "planned" not in posts[0]["moves"][0]
    assert posts[1]["moves"][0]["planned"] is True and "followed" not in posts[1]
    rows = await service.store.db.fetch_all(
        "SELECT id FROM notifications WHERE game_id = ? AND kind = ? ORDER BY id",
        (game.id, kinds.TURN),
    )
    assert outcome.announcement == rows[0]["id"]  # the move's own post, its reply's after it
    _, lines = await service.plans.lines(game.id, BOB)
    assert texts(lines) == ["D2 D3"] and lines[0].ply == 2

    again = await service.play(game.id, ALICE, "D2")
    assert [m.text for m in again.replies] == ["D3"]
    assert await record(service, game.id) == "E3 F4 D2 D3"
    assert (await service.plans.lines(game.id, BOB))[1] == ()  # used up


async def test_lines_branch_on_the_move_expected_and_the_others_are_dropped(
    service: GameService, game: Game
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4 D2 D3")
    await service.plans.plan(game.id, BOB, "E3 F4 C2 C3")
    await service.plans.plan(game.id, BOB, "A1 A2")
    outcome = await service.play(game.id, ALICE, "E3")
    assert [m.text for m in outcome.replies] == ["F4"]
    assert texts((await service.plans.lines(game.id, BOB))[1]) == ["D2 D3", "C2 C3"]
    outcome = await service.play(game.id, ALICE, "K3")  # nobody planned for it
    assert outcome.replies == () and outcome.next_player_id == BOB
    assert (await service.plans.lines(game.id, BOB))[1] == ()
    assert await service.store.has_plans(game.id) is False


async def test_a_line_on_ones_own_turn_plays_its_first_move_and_keeps_the_rest(
    service: GameService, game: Game
) -> None:
    planned = await service.plans.plan(game.id, ALICE, "E3 F4 D2")
    assert planned.played is not None and planned.played.move.text == "E3"
    assert not planned.played.move.planned and planned.played.next_player_id == BOB
    assert planned.line is not None and planned.line.text == "F4 D2" and planned.line.ply == 1
    outcome = await service.play(game.id, BOB, "F4")
    assert [(m.text, m.player_id, m.planned) for m in outcome.replies] == [("D2", ALICE, True)]


async def test_both_players_lines_chain_and_place_many_pieces_in_one_sitting(
    service: GameService, game: Game
) -> None:
    """Bob plans his answers to Alice's first placements; Alice, on her turn, plays her first
    and plans on: each planned move answers the other's, and ten pieces are placed."""
    await service.plans.plan(game.id, BOB, "A1 B1 A2 B2 A3 B3 C1 C2 C3 C4")
    planned = await service.plans.plan(game.id, ALICE, "A1 B1 A2 B2 A3 B3 C1 C2 C3")
    outcome = planned.played
    assert outcome is not None
    assert " ".join(m.text for m in outcome.replies) == "B1 A2 B2 A3 B3 C1 C2 C3 C4"
    assert [m.planned for m in outcome.replies] == [True] * 9
    assert [m.player_id for m in outcome.replies] == [BOB, ALICE] * 4 + [BOB]
    assert await record(service, game.id) == "A1 B1 A2 B2 A3 B3 C1 C2 C3 C4"
    assert outcome.game.ply == 10 and outcome.next_player_id == ALICE
    assert planned.line is None and planned.lines == ()  # all of both lines was played
    assert not await service.store.has_plans(game.id)
    posts = await turn_posts(service, game.id)
    assert len(posts) == 10  # a post each, like any move's
    assert [bool(p.get("followed")) for p in posts] == [True] * 9 + [False]


async def test_a_chain_that_ends_the_game_ends_it_once_and_drops_every_line(
    service: GameService, game: Game
) -> None:
    rng = random.Random(2)  # a random game whose last two moves are both players' own
    position, played = rules.new_game(), list[rules.Move]()
    while rules.legal_moves(position):
        choices = [m for m in rules.legal_moves(position) if m != rules.PASS]
        move = rng.choice(choices or list(rules.legal_moves(position)))
        played.append(move)
        position = rules.play(position, move)
    *start, expected, reply = played
    game = await play_moves(service, game, [str(m) for m in start if m != rules.PASS])
    mover = game.to_move_id
    assert mover is not None and expected != rules.PASS != reply
    waiting = game.opponent_of(mover)
    await service.plans.plan(game.id, waiting, f"{expected} {reply}")
    outcome = await service.play(game.id, mover, expected)
    assert [m.text for m in outcome.replies] == [str(reply)]
    assert outcome.ended is not None and outcome.game.status is GameStatus.FINISHED
    assert outcome.game.position == position
    posts = await turn_posts(service, game.id)
    assert posts[-1]["over"] is True and posts[-1]["moves"][0]["planned"] is True
    assert posts[-2].get("followed") is True
    assert not await service.store.has_plans(game.id)


# --- what drops every line ----------------------------------------------------------------------


async def test_a_takeback_drops_every_line(service: GameService, game: Game) -> None:
    game = await play_moves(service, game, ["E3", "F4"])
    await service.plans.plan(game.id, BOB, "D2 D3 C2 C3")
    await service.takebacks.request(game.id, BOB)  # his own last move
    answer = await service.takebacks.answer(game.id, ALICE, True)
    assert answer.accepted
    assert not await service.store.has_plans(game.id)
    outcome = await service.play(game.id, BOB, "F4")
    outcome = await service.play(game.id, ALICE, "D2")
    assert outcome.replies == ()


async def test_an_abort_and_a_resignation_drop_every_line(service: GameService) -> None:
    aborted = await start_game(service)
    await service.plans.plan(aborted.id, BOB, "E3 F4")
    await service.abort(aborted.id, ALICE)
    await service.abort(aborted.id, BOB)
    assert not await service.store.has_plans(aborted.id)
    resigned = await start_game(service, channel=601)
    await service.plans.plan(resigned.id, BOB, "E3 F4")
    await service.resign(resigned.id, ALICE)
    assert not await service.store.has_plans(resigned.id)
    with pytest.raises(GameFinished):
        await service.plans.plan(resigned.id, BOB, "E3 F4")
    assert (await service.plans.lines(resigned.id, BOB))[1] == ()


# --- seeing and clearing one's lines ------------------------------------------------------------


async def test_a_player_sees_and_clears_only_their_own_lines(
    service: GameService, game: Game
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4")
    await service.plans.plan(game.id, BOB, "D2 D3")
    assert texts((await service.plans.lines(game.id, BOB))[1]) == ["E3 F4", "D2 D3"]
    assert (await service.plans.lines(game.id, ALICE))[1] == ()  # never the opponent's
    with pytest.raises(NotAPlayer):
        await service.plans.lines(game.id, CAROL)
    assert await service.plans.clear(game.id, ALICE) == 0
    assert await service.plans.clear(game.id, BOB) == 2
    assert (await service.plans.lines(game.id, BOB))[1] == ()
    assert (await service.play(game.id, ALICE, "E3")).replies == ()


async def test_the_same_line_twice_is_kept_once_and_a_longer_one_replaces_it(
    service: GameService, game: Game
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4")
    again = await service.plans.plan(game.id, BOB, "E3 F4")
    assert again.planned_already
    longer = await service.plans.plan(game.id, BOB, "E3 F4 D2 D3")
    assert texts(longer.lines) == ["E3 F4 D2 D3"]
    assert texts((await service.plans.lines(game.id, BOB))[1]) == ["E3 F4 D2 D3"]


# --- refusals -----------------------------------------------------------------------------------


async def test_bad_lines_are_refused_with_their_data_and_nothing_is_kept(
    service: GameService, game: Game
) -> None:
    with pytest.raises(PlanNotAMove) as not_a_move:
        await service.plans.plan(game.id, BOB, "E3 F44")
    assert not_a_move.value.number == 2
    with pytest.raises(PlanIllegalMove) as illegal:
        await service.plans.plan(game.id, BOB, "E3 E3")
    assert (illegal.value.number, illegal.value.move) == (2, "E3")
    assert illegal.value.error.reason is rules.IllegalReason.CELL_OCCUPIED
    with pytest.raises(PlanEndsOnTheirMove):
        await service.plans.plan(game.id, BOB, "E3 F4 D2")
    await service.plans.plan(game.id, BOB, "E3 F4")
    with pytest.raises(PlanConflict) as conflict:
        await service.plans.plan(game.id, BOB, "E3 G4")
    assert (conflict.value.move, conflict.value.other) == ("G4", "F4")
    with pytest.raises(NotAPlayer):
        await service.plans.plan(game.id, CAROL, "E3 F4")
    with pytest.raises(GameChanged):
        await service.plans.plan(game.id, BOB, "D2 D3", expected_version=game.version + 1)
    assert texts((await service.plans.lines(game.id, BOB))[1]) == ["E3 F4"]
    assert await record(service, game.id) == ""


async def test_a_player_keeps_at_most_so_many_lines(service: GameService, game: Game) -> None:
    cells = [rules.cell_name(c) for c in rules.empty_cells(game.position)]
    for index in range(MOST_LINES):
        await service.plans.plan(game.id, BOB, f"{cells[index]} {cells[index + 20]}")
    with pytest.raises(TooManyLines) as error:
        await service.plans.plan(game.id, BOB, f"{cells[15]} {cells[40]}")
    assert error.value.most == MOST_LINES


async def test_a_line_that_begins_with_ones_own_move_is_checked_whole_first(
    service: GameService, game: Game
) -> None:
    with pytest.raises(PlanIllegalMove):
        await service.plans.plan(game.id, ALICE, "E3 F4 E3")
    assert await record(service, game.id) == ""  # nothing was played


async def test_games_against_the_bot_have_no_plans(service: GameService) -> None:
    started = await service.start_computer_game(
        guild_id=1,
        channel_id=900,
        human_id=ALICE,
        computer_id=99,
        level="easy",
        human_colour=Colour.BLACK,
    )
    with pytest.raises(PlansAgainstTheBot):
        await service.plans.plan(started.game.id, ALICE, "E3 F4")


async def test_ones_own_move_in_a_private_game_is_played_with_play(
    service: GameService,
) -> None:
    challenge = await service.create_challenge(
        guild_id=None, channel_id=950, challenger_id=ALICE, opponent_id=BOB, colour=Colour.WHITE
    )
    private = (await service.accept_challenge(challenge.id, BOB, private=True)).game
    with pytest.raises(PlanNotHere):
        await service.plans.plan(private.id, ALICE, "E3 F4 D2")
    planned = await service.plans.plan(private.id, BOB, "E3 F4")  # waiting: fine
    assert planned.line is not None


# --- checked again when played ------------------------------------------------------------------


async def test_a_planned_reply_is_checked_again_when_it_is_played(
    service: GameService, game: Game
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4 D2 D3")
    # As if the rules had changed since it was planned: its reply can no longer be played.
    async with service.store.db.transaction() as conn:
        await conn.execute("UPDATE plans SET moves = 'E3 E3 D2 D3'")
    outcome = await service.play(game.id, ALICE, "E3")
    assert outcome.replies == () and outcome.next_player_id == BOB
    assert await record(service, game.id) == "E3"
    assert not await service.store.has_plans(game.id)


# --- clocks -------------------------------------------------------------------------------------


async def test_a_planned_reply_takes_no_time_and_adds_its_increment(
    service: GameService, clock: ManualClock
) -> None:
    bank = Bank(3 * DAY, 12 * HOUR, 5 * DAY)
    game = await start_game(service, clock=bank)
    game = await play_moves(service, game, ["E3"])  # Bob to move, his bank full
    clock.advance(hours=2)
    await service.plans.plan(game.id, ALICE, "F4 D2")  # while Bob thinks
    clock.advance(hours=5)
    outcome = await service.play(game.id, BOB, "F4")  # 7 hours of Bob's
    saved = outcome.game
    assert [m.text for m in outcome.replies] == ["D2"]
    assert saved.black_bank == 3 * DAY - 7 * HOUR + 12 * HOUR
    # Alice's E3 took nothing and added 12 h; her reply too.
    assert saved.white_bank == 3 * DAY + 2 * 12 * HOUR
    assert saved.deadline_at == clock.now + saved.black_bank  # Bob's clock runs from now
    stored = await service.get_game(game.id)
    assert (stored.white_bank, stored.black_bank, stored.deadline_at) == (
        saved.white_bank,
        saved.black_bank,
        saved.deadline_at,
    )
    moves = (await service.record(game.id)).moves
    assert moves[-1].white_bank == 3 * DAY + 12 * HOUR  # as her turn began
    assert moves[-1].black_bank == saved.black_bank


async def test_on_days_per_move_the_next_deadline_starts_at_the_planned_reply(
    service: GameService, clock: ManualClock
) -> None:
    game = await start_game(service, clock_days=3)
    await service.plans.plan(game.id, BOB, "E3 F4")
    clock.advance(days=2)
    outcome = await service.play(game.id, ALICE, "E3")
    assert outcome.game.deadline_at == clock.now + 3 * DAY and outcome.next_player_id == ALICE


# --- once, whatever races it --------------------------------------------------------------------


async def test_a_line_planned_while_a_move_was_on_its_way_is_answered_in_its_transaction(
    service: GameService, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move read the game before the line was planned (no lines then): its save, which
    holds the game's row before it looks, finds the line and the move is played with it."""
    await service.plans.plan(game.id, BOB, "E3 F4")

    async def none_yet(game_id: int) -> bool:
        return False

    monkeypatch.setattr(service.store, "has_plans", none_yet)
    outcome = await service.play(game.id, ALICE, "E3")
    assert [m.text for m in outcome.replies] == ["F4"]
    assert await record(service, game.id) == "E3 F4"


async def test_a_failure_while_answering_leaves_nothing_played_and_the_line_kept(
    service: GameService, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4 D2 D3")

    async def broken(self: object, changed: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(PlanWrites, "update_plans", broken)
    with pytest.raises(RuntimeError):
        await service.play(game.id, ALICE, "E3")
    assert await record(service, game.id) == ""
    assert await turn_posts(service, game.id) == []
    monkeypatch.undo()
    outcome = await service.play(game.id, ALICE, "E3")
    assert [m.text for m in outcome.replies] == ["F4"]


async def test_the_move_sent_by_two_processes_at_once_plays_the_reply_once(
    service: GameService, other: GameService, game: Game
) -> None:
    await service.plans.plan(game.id, BOB, "E3 F4 D2 D3")
    results = await asyncio.gather(
        service.play(game.id, ALICE, "E3"),
        other.play(game.id, ALICE, "E3"),
        return_exceptions=True,
    )
    played = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(played) == 1 and len(refused) == 1
    assert isinstance(refused[0], GameChanged | NotYourTurn), repr(refused[0])
    assert await record(service, game.id) == "E3 F4"
    assert len(await turn_posts(service, game.id)) == 2
    assert texts((await other.plans.lines(game.id, BOB))[1]) == ["D2 D3"]


async def test_a_line_planned_in_one_process_as_a_move_comes_in_another_is_never_lost(
    service: GameService, other: GameService
) -> None:
    """Either the line is planned first and answers the move, or the move is first and the
    line is refused (the game moved on): never a line kept against a position gone by."""
    for round_ in range(6):
        game = await start_game(service, channel=700 + round_)
        results = await asyncio.gather(
            service.plans.plan(game.id, BOB, "E3 F4"),
            other.play(game.id, ALICE, "E3"),
            return_exceptions=True,
        )
        planned, moved = results
        assert not isinstance(moved, BaseException), repr(moved)
        text = await record(service, game.id)
        if isinstance(planned, BaseException):
            assert isinstance(planned, GameChanged | NotYourTurn), repr(planned)
            assert text == "E3"
        else:
            assert text == "E3 F4", "the line planned before the move answers it"
        assert not await service.store.has_plans(game.id)
