"""The game service over a real SQLite file: whole games, challenges, endings and queries."""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.games.core.errors import GameFinished, NoGameHere, NotAPlayer, PlyOutOfRange
from bot.games.core.timecontrol import DaysPerMove, TimeControl
from bot.games.lobby.challenges import SERVER_DEFAULT
from bot.games.lobby.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeDeclined,
    ChallengeExpired,
    ChallengeNotForYou,
    ChallengeNotFound,
    ChannelBusy,
    InvalidClock,
    NotYourChallenge,
    OpenChallengeNotDeclinable,
    OwnChallenge,
    SelfChallenge,
)
from bot.games.play.errors import AbortTooLate
from bot.games.service import GameService
from bot.storage.models import ChallengeStatus, EndReason, Game, GameStatus, GuildSettings, Result
from rules import Colour
from tests.bot.clock import ManualClock
from tests.conftest import SHARED

GUILD, CHANNEL = 500, 600
ALICE, BOB, CAROL = 11, 22, 33


async def start_game(
    service: GameService,
    white: int = ALICE,
    black: int = BOB,
    *,
    channel: int = CHANNEL,
    guild: int | None = GUILD,
    clock_days: int | None = None,
    clock: TimeControl | None = None,
) -> Game:
    """A game in ``channel`` with ``white`` and ``black`` as asked, on ``clock`` (or
    ``clock_days`` days per move)."""
    challenge = await service.create_challenge(
        guild_id=guild,
        channel_id=channel,
        challenger_id=white,
        opponent_id=black,
        colour=Colour.WHITE,
        clock=clock if clock_days is None else DaysPerMove(clock_days),
    )
    return (await service.accept_challenge(challenge.id, black)).game


async def play_moves(service: GameService, game: Game, moves: list[str]) -> Game:
    """Play ``moves`` in order, each by the player to move."""
    for move in moves:
        assert game.to_move_id is not None
        game = (await service.play(game.id, game.to_move_id, move)).game
    return game


def _oracle_games(name: str) -> list[dict[str, Any]]:
    """The games of an oracle file (none if the shared data is missing: the ``shared_dir``
    fixture then fails the tests that need it, saying why)."""
    path = SHARED / "oracle" / name
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.slow
async def test_a_random_game_from_challenge_to_the_end(service: GameService, seed: int) -> None:
    game = await start_game(service)
    assert (game.status, game.ply, game.version) == (GameStatus.ACTIVE, 0, 0)
    rng = random.Random(seed)
    expected = rules.new_game()
    outcome = None
    while rules.legal_moves(expected) and game.is_active:
        move = rng.choice([m for m in rules.legal_moves(expected) if m != rules.PASS])
        mover = game.to_move_id
        assert mover is not None and mover == game.player(expected.turn)
        outcome = await service.play(game.id, mover, str(move).lower())
        assert outcome.move.move == move and outcome.move.player_id == mover
        assert not outcome.move.automatic
        result = rules.apply(expected, move)
        assert dict(outcome.move.removed) == dict(result.removed)
        expected = result.after
        for auto in outcome.automatic_passes:  # the service passed for whoever had to
            assert auto.automatic and auto.is_pass and auto.player_id == game.player(auto.colour)
            assert auto.colour is expected.turn
            expected = rules.play(expected, rules.PASS)
        assert outcome.position == expected
        game = outcome.game
    assert outcome is not None and rules.is_over(expected)
    white, black = rules.score(expected)
    assert outcome.game_over is not None
    assert outcome.game_over.score == (white, black) == game.score
    assert outcome.game_over.reason is EndReason.SCORE and outcome.next_player_id is None
    stored = await service.get_game(game.id)
    assert stored.status is GameStatus.FINISHED and stored.score == (white, black)
    final = rules.outcome(expected)
    assert final is not None
    assert stored.result is Result.won_by(final.winner)
    assert stored.winner_id == (None if final.winner is None else stored.player(final.winner))
    record = await service.record(game.id)
    assert [m.ply for m in record.moves] == list(range(expected.ply))
    assert record.positions()[-1] == expected == stored.position


@pytest.mark.parametrize(
    "oracle",
    [
        g
        for g in _oracle_games("edge_games.jsonl")
        if "PASS" in [p["action"] for p in g["positions"]]
    ],
    ids=lambda g: g["id"],
)
@pytest.mark.slow
async def test_forced_passes_are_recorded_automatically(
    service: GameService, oracle: dict[str, Any], shared_dir: Path
) -> None:
    """Oracle games in which a side must pass: the players never type PASS, the service records
    it at the right ply, and the game ends with the oracle's score and winner."""
    game = await start_game(service)
    actions = [p["action"] for p in oracle["positions"]]
    ply = 0
    while ply < len(actions):
        outcome = await service.play(game.id, game.to_move_id or 0, actions[ply])
        assert outcome.move.ply == ply
        removed = oracle["positions"][ply].get("removed", [])
        assert sorted(outcome.move.removed_cell_names) == sorted(removed)
        ply += 1
        for auto in outcome.automatic_passes:
            assert actions[ply] == "PASS" and auto.ply == ply
            assert auto.colour is Colour(oracle["positions"][ply]["to_move"])
            ply += 1
        if ply < len(actions):
            assert actions[ply] != "PASS", "the service missed a forced pass"
        game = outcome.game
    assert outcome.game_over is not None
    assert outcome.game_over.score == (oracle["score"]["W"], oracle["score"]["B"])
    winner = {"W": Result.WHITE, "B": Result.BLACK, "draw": Result.DRAW}[oracle["winner"]]
    assert game.result is winner and game.status is GameStatus.FINISHED
    record = await service.record(game.id)
    assert record.text == " ".join(actions)
    assert [m.automatic for m in record.moves] == [a == "PASS" for a in actions]


async def test_white_blocked_at_its_first_move_passes_right_after_placing(
    service: GameService, shared_dir: Path
) -> None:
    (oracle,) = [g for g in _oracle_games("edge_games.jsonl") if g["id"] == "edge-white-blocked-1"]
    actions = [p["action"] for p in oracle["positions"]]
    game = await play_moves(service, await start_game(service), actions[:48])
    outcome = await service.play(game.id, ALICE, actions[48])  # White's 49th placement
    assert [(m.text, m.colour, m.automatic) for m in outcome.moves] == [
        (actions[48], Colour.WHITE, False),
        ("PASS", Colour.WHITE, True),
    ]
    assert outcome.next_player_id == BOB and outcome.next_colour is Colour.BLACK


async def test_a_move_object_plays_like_its_text(service: GameService) -> None:
    game = await start_game(service)
    outcome = await service.play(game.id, ALICE, rules.parse_move("E3"))
    assert outcome.move.text == "E3" and outcome.game.version == game.version + 1
    assert outcome.next_player_id == BOB


# --- challenges ---------------------------------------------------------------------------------


async def test_colours_are_drawn_unless_chosen(service: GameService) -> None:
    whites = set()
    for channel in range(10):
        challenge = await service.create_challenge(
            guild_id=GUILD, channel_id=channel, challenger_id=ALICE, opponent_id=BOB
        )
        assert challenge.challenger_colour is None
        whites.add((await service.accept_challenge(challenge.id, BOB)).game.white_id)
    assert whites == {ALICE, BOB}
    for colour, channel in [(Colour.WHITE, 20), (Colour.BLACK, 21)]:
        challenge = await service.create_challenge(
            guild_id=GUILD, channel_id=channel, challenger_id=ALICE, opponent_id=BOB, colour=colour
        )
        game = (await service.accept_challenge(challenge.id, BOB)).game
        assert game.colour_of(ALICE) is colour and game.colour_of(BOB) is colour.opponent


async def test_an_open_challenge_is_for_anyone_but_its_maker(service: GameService) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE
    )
    assert challenge.is_open_to_anyone and challenge.status is ChallengeStatus.OPEN
    assert await service.open_challenges(CHANNEL) == [challenge]
    with pytest.raises(OwnChallenge):
        await service.accept_challenge(challenge.id, ALICE)
    with pytest.raises(OpenChallengeNotDeclinable):
        await service.decline_challenge(challenge.id, CAROL)
    started = await service.accept_challenge(challenge.id, CAROL)
    assert set(started.game.player_ids) == {ALICE, CAROL}
    assert started.challenge is not None
    assert started.challenge.status is ChallengeStatus.ACCEPTED
    assert started.challenge.game_id == started.game.id and started.challenge.closed_by == CAROL
    assert await service.open_challenges(CHANNEL) == []
    with pytest.raises(ChallengeAlreadyAccepted):
        await service.accept_challenge(challenge.id, BOB)


async def test_a_challenge_to_one_user_is_for_them_only(service: GameService) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    with pytest.raises(ChallengeNotForYou) as error:
        await service.accept_challenge(challenge.id, CAROL)
    assert error.value.params["opponent_id"] == BOB
    with pytest.raises(ChallengeNotForYou):
        await service.decline_challenge(challenge.id, CAROL)
    with pytest.raises(OwnChallenge):
        await service.decline_challenge(challenge.id, ALICE)
    with pytest.raises(NotYourChallenge):
        await service.cancel_challenge(challenge.id, BOB)
    declined = await service.decline_challenge(challenge.id, BOB)
    assert declined.status is ChallengeStatus.DECLINED and declined.closed_by == BOB
    with pytest.raises(ChallengeDeclined):
        await service.accept_challenge(challenge.id, BOB)
    with pytest.raises(ChallengeDeclined):
        await service.cancel_challenge(challenge.id, ALICE)


async def test_the_challenger_can_cancel(service: GameService) -> None:
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    cancelled = await service.cancel_challenge(challenge.id, ALICE)
    assert cancelled.status is ChallengeStatus.CANCELLED
    with pytest.raises(ChallengeCancelled):
        await service.accept_challenge(challenge.id, BOB)
    assert (await service.get_challenge(challenge.id)).status is ChallengeStatus.CANCELLED


async def test_challenges_expire(service: GameService, clock: ManualClock) -> None:
    first = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    clock.advance(days=1)
    second = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    clock.advance(first.expires_at - clock.now)  # exactly when the first one runs out
    assert [c.id for c in await service.open_challenges(CHANNEL)] == [second.id]
    with pytest.raises(ChallengeExpired):
        await service.accept_challenge(first.id, BOB)
    assert (await service.get_challenge(first.id)).status is ChallengeStatus.EXPIRED
    with pytest.raises(ChallengeExpired):
        await service.accept_challenge(first.id, BOB)
    clock.advance(days=1)
    expired = await service.expire_challenges()
    assert [c.id for c in expired] == [second.id]
    assert expired[0].status is ChallengeStatus.EXPIRED
    assert await service.expire_challenges() == []  # once only
    with pytest.raises(ChallengeExpired):
        await service.cancel_challenge(second.id, ALICE)


async def test_challenge_inputs_are_checked(service: GameService) -> None:
    with pytest.raises(SelfChallenge):
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=ALICE
        )
    with pytest.raises(InvalidClock) as error:
        await service.create_challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, clock=DaysPerMove(4)
        )
    assert "1, 2, 3, 5, 7, 14" in str(error.value)
    with pytest.raises(ChallengeNotFound):
        await service.accept_challenge(9999, BOB)
    with pytest.raises(ChallengeNotFound):
        await service.get_challenge(9999)


async def test_clocks_set_deadlines(service: GameService, clock: ManualClock) -> None:
    game = await start_game(service, clock_days=3)
    assert game.clock_days == 3 and game.deadline_at == clock.now + timedelta(days=3)
    clock.advance(hours=5)
    game = await play_moves(service, game, ["E3"])
    assert game.deadline_at == clock.now + timedelta(days=3)
    casual = await start_game(service, channel=CHANNEL + 1, clock_days=None)
    assert casual.clock_days is None and casual.deadline_at is None
    ended = await service.resign(game.id, BOB)
    assert ended.game.deadline_at is None


async def test_a_server_default_clock_applies_when_none_is_chosen(service: GameService) -> None:
    await service.save_guild_settings(GuildSettings(GUILD, default_clock_days=7))
    assert (await service.guild_settings(GUILD)).default_clock_days == 7
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, clock=SERVER_DEFAULT
    )
    assert challenge.clock_days == 7
    await service.save_guild_settings(GuildSettings(GUILD, default_clock_days=0))
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE
    )
    assert challenge.clock_days is None
    other_server = await service.create_challenge(
        guild_id=GUILD + 1, channel_id=CHANNEL, challenger_id=ALICE
    )
    assert other_server.clock_days is None  # the service's own default: no clock
    with pytest.raises(InvalidClock):
        await service.save_guild_settings(GuildSettings(GUILD, default_clock_days=9))


# --- one game per channel -----------------------------------------------------------------------


async def test_one_running_game_per_channel(service: GameService) -> None:
    running = await start_game(service)
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=CAROL, opponent_id=BOB
    )
    with pytest.raises(ChannelBusy) as error:
        await service.accept_challenge(challenge.id, BOB)
    assert (error.value.game_id, error.value.channel_id) == (running.id, CHANNEL)
    assert f"<#{CHANNEL}>" in str(error.value)  # says where the running game is
    assert (await service.get_challenge(challenge.id)).status is ChallengeStatus.OPEN
    in_thread = await service.accept_challenge(challenge.id, BOB, thread_id=CHANNEL + 1000)
    assert in_thread.game.channel_id == CHANNEL + 1000
    assert in_thread.game.parent_channel_id == CHANNEL
    await service.resign(running.id, ALICE)
    again = await start_game(service)  # the channel is free once its game has ended
    assert again.channel_id == CHANNEL


# --- endings ------------------------------------------------------------------------------------


async def test_resigning_gives_the_game_to_the_opponent(service: GameService) -> None:
    game = await play_moves(service, await start_game(service), ["E3", "F3"])
    ended = await service.resign(game.id, BOB)  # out of turn is fine
    assert ended.game.status is GameStatus.FINISHED and ended.game.result is Result.WHITE
    over = ended.over
    assert (over.reason, over.winner_id, over.loser_id, over.ended_by) == (
        EndReason.RESIGNATION,
        ALICE,
        BOB,
        BOB,
    )
    assert over.score == rules.score(game.position)
    with pytest.raises(GameFinished):
        await service.resign(game.id, ALICE)
    with pytest.raises(GameFinished):
        await service.play(game.id, ALICE, "A1")
    assert await service.game_in_channel(CHANNEL) is None


async def test_abort_by_agreement_early_in_the_game(service: GameService) -> None:
    game = await start_game(service)
    asked = await service.abort(game.id, ALICE)
    assert not asked.aborted and asked.waiting_for == BOB and asked.requested_by == ALICE
    assert asked.game.status is GameStatus.ACTIVE and asked.game.abort_requested_by == ALICE
    again = await service.abort(game.id, ALICE)  # asking twice is still asking
    assert not again.aborted
    done = await service.abort(game.id, BOB)
    assert done.aborted and not done.by_moderator and done.requested_by == ALICE
    assert done.game.status is GameStatus.ABORTED and done.game.result is None
    assert done.game.end_reason is EndReason.ABORT and done.game.ended_by == BOB


@pytest.mark.slow
async def test_abort_by_agreement_is_refused_once_both_have_moved(
    service: GameService, shared_dir: Path
) -> None:
    (oracle,) = [g for g in _oracle_games("random_games_sample.jsonl") if g["id"] == "random-1"]
    actions = [p["action"] for p in oracle["positions"]]
    assert "PASS" not in actions[:52]
    game = await play_moves(service, await start_game(service), actions[:50])
    await service.abort(game.id, BOB)  # only White has moved a piece: still possible to ask
    game = await play_moves(service, await service.get_game(game.id), actions[50:51])
    with pytest.raises(AbortTooLate):
        await service.abort(game.id, ALICE)
    with pytest.raises(NotAPlayer):
        await service.abort(game.id, CAROL)
    by_moderator = await service.abort(game.id, CAROL, moderator=True)
    assert by_moderator.aborted and by_moderator.by_moderator
    assert by_moderator.game.status is GameStatus.ABORTED and by_moderator.game.ended_by == CAROL
    with pytest.raises(GameFinished):
        await service.abort(game.id, CAROL, moderator=True)


# --- queries ------------------------------------------------------------------------------------


async def test_games_by_channel_and_by_user_across_servers(service: GameService) -> None:
    here = await start_game(service)
    elsewhere = await start_game(service, CAROL, ALICE, channel=700, guild=GUILD + 1)
    other = await start_game(service, BOB, CAROL, channel=800)
    assert (await service.game_in_channel(CHANNEL)) == here
    assert await service.require_game_in_channel(800) == other
    assert await service.game_in_channel(999) is None
    with pytest.raises(NoGameHere):
        await service.require_game_in_channel(999)
    await play_moves(service, elsewhere, ["E3"])  # most recently changed comes first
    assert [g.id for g in await service.active_games(ALICE)] == [elsewhere.id, here.id]
    await service.resign(here.id, ALICE)
    assert [g.id for g in await service.active_games(ALICE)] == [elsewhere.id]
    assert await service.active_games(12345) == []


@pytest.mark.slow
async def test_record_and_positions_at_every_ply(service: GameService, shared_dir: Path) -> None:
    (oracle,) = [g for g in _oracle_games("random_games_sample.jsonl") if g["id"] == "random-2"]
    actions = [p["action"] for p in oracle["positions"]][:60]
    game = await play_moves(service, await start_game(service), actions)
    record = await service.record(game.id)
    assert record.text == " ".join(actions)
    assert [(m.ply, m.player_id) for m in record.moves] == [
        (ply, game.player(rules.colour_to_act(ply))) for ply in range(60)
    ]
    positions = rules.replay([rules.parse_move(a) for a in actions])
    for ply in (0, 1, 48, 49, 59, 60):
        assert await service.position_at(game.id, ply) == positions[ply]
    for ply in (-1, 61):
        with pytest.raises(PlyOutOfRange):
            await service.position_at(game.id, ply)
    transcript = record.little_golem()
    assert rules.parse_little_golem(transcript).moves == tuple(m.move for m in record.moves)
