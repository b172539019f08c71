"""Random setups through the game service, on both backends: the 49 placements made at the
start in the rules' order, recorded as ordinary (automatic) placements, the same again from the
stored seed; the movement starts at once, on the clock; takebacks, aborts, absence, ratings,
the Little Golem transcript and games against the bot work on them unchanged."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

import rules
from bot.games.core import announcements as kinds
from bot.games.core.timecontrol import DaysPerMove, TimeControl
from bot.games.lobby.rematches import offers_rematch
from bot.games.lobby.setups import SEED_BITS, new_seed, random_placements, random_setup
from bot.games.service import GameService
from bot.games.takebacks.errors import NothingToTakeBack
from bot.games.tournaments.rounds import absent_loser
from bot.storage import Notification
from bot.storage.models import EndReason, Game, Setup
from rules import Colour
from rules.position import DVONN_PIECES
from tests.bot.clock import ManualClock
from tests.bot.games.test_clocks_takebacks_ratings import pending
from tests.bot.games.test_service import ALICE, BOB, CHANNEL, GUILD

COMPUTER = 99
THREE_DAYS = DaysPerMove(3)


async def random_game(
    service: GameService, *, clock: TimeControl | None = THREE_DAYS, channel: int = CHANNEL
) -> Game:
    """A random-setup game: Alice (White) challenged Bob, who accepted."""
    challenge = await service.create_challenge(
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        colour=Colour.WHITE,
        clock=clock,
        setup=Setup.RANDOM,
    )
    assert challenge.setup is Setup.RANDOM
    assert (await service.get_challenge(challenge.id)).setup is Setup.RANDOM
    return (await service.accept_challenge(challenge.id, BOB)).game


def test_a_seed_makes_the_same_49_placements_in_the_rules_order() -> None:
    seed = new_seed()
    assert 0 <= seed < 1 << SEED_BITS
    placed = random_placements(seed)
    assert [str(r.move) for r in placed] == [str(r.move) for r in random_placements(seed)]
    assert len(placed) == rules.PLACEMENT_PLIES == 49
    assert all(isinstance(r.move, rules.Place) for r in placed)
    # Who places each piece is the rules' business: White, Black, White place the DVONN
    # pieces, then Black and White their own, in turn.
    movers = [r.mover for r in placed]
    assert movers[:DVONN_PIECES] == [Colour.WHITE, Colour.BLACK, Colour.WHITE]
    assert movers[DVONN_PIECES:] == [Colour.BLACK, Colour.WHITE] * 23
    final = placed[-1].after
    assert not final.is_placement and final.turn is Colour.WHITE
    assert rules.replay([r.move for r in placed])[-1] == final
    # Another seed, another board (the chance of the same one is nil).
    assert random_placements(seed ^ 1)[-1].after != final
    assert [str(r.move) for r in random_setup(seed)][:49] == [str(r.move) for r in placed]


def test_seeds_outside_63_bits_are_refused() -> None:
    for seed in (-1, 1 << SEED_BITS):
        with pytest.raises(ValueError, match="63-bit"):
            random_placements(seed)


async def test_a_random_setup_game_begins_with_its_49_placements_recorded(
    service: GameService, clock: ManualClock
) -> None:
    game = await random_game(service)
    assert game.setup is Setup.RANDOM and game.setup_seed is not None
    assert not game.position.is_placement and game.ply >= rules.PLACEMENT_PLIES
    assert game.to_move_id == ALICE and game.to_move is Colour.WHITE  # the movement starts now
    assert game.deadline_at == clock.now + timedelta(days=3)  # her clock runs already
    record = await service.record(game.id)
    assert len(record.moves) == game.ply
    # Ordinary placements, each by the player to act, but none the player's own act.
    assert all(m.automatic for m in record.moves)
    assert [m.player_id for m in record.moves[:3]] == [ALICE, BOB, ALICE]
    assert record.positions()[-1] == game.position
    # The stored seed makes the same record again.
    assert [m.move for m in record.moves] == [r.move for r in random_setup(game.setup_seed)]
    # The first post shows the board as it begins, not an empty one.
    (started,) = await pending(service, kinds.GAME_STARTED)
    assert started["position"] == game.position.to_text()
    notification = Notification(
        1, kinds.GAME_STARTED, None, game.id, {"position": started["position"]}, clock.now, 0
    )
    assert kinds.read_started(notification, game).position == game.position
    # Its Little Golem transcript replays to the same board (export, import, review).
    transcript = rules.parse_little_golem(record.little_golem())
    assert rules.replay(list(transcript.moves))[-1] == game.position


async def test_the_players_move_on_and_take_back_only_their_own_moves(
    service: GameService,
) -> None:
    game = await random_game(service)
    with pytest.raises(NothingToTakeBack):  # the placements are nobody's to take back
        await service.takebacks.request(game.id, BOB)
    move = rules.legal_moves(game.position)[0]
    moved = (await service.play(game.id, ALICE, str(move))).game
    assert moved.to_move_id == BOB
    record = await service.record(game.id)
    assert not record.moves[-1].automatic and record.moves[-1].player_id == ALICE
    with pytest.raises(NothingToTakeBack):
        await service.takebacks.request(game.id, BOB)
    asked = await service.takebacks.request(game.id, ALICE)
    assert isinstance(asked, Game)
    answer = await service.takebacks.answer(game.id, BOB, accept=True)
    assert answer.undone == (str(move),) and answer.game.position == game.position
    # Nobody has moved a piece of their own yet: the game may still be called off.
    assert (await service.abort(game.id, ALICE)).waiting_for == BOB
    assert (await service.abort(game.id, BOB)).aborted


async def test_a_player_who_never_moved_after_a_random_setup_is_still_absent(
    service: GameService, clock: ManualClock
) -> None:
    await random_game(service)
    clock.advance(days=3, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.game.end_reason is EndReason.TIME and lost.over.winner_id == BOB
    async with service.store.write() as tx:
        assert await absent_loser(tx, lost.game) == ALICE
    assert not offers_rematch(lost.game)  # nobody to play it again with

    # Black, who never moved either, is as absent once White has.
    other = await random_game(service, channel=CHANNEL + 1)
    move = rules.legal_moves(other.position)[0]
    await service.play(other.id, ALICE, str(move))
    clock.advance(days=3, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.over.winner_id == ALICE
    async with service.store.write() as tx:
        assert await absent_loser(tx, lost.game) == BOB
    assert not offers_rematch(lost.game)


@pytest.mark.slow
async def test_a_random_setup_game_played_to_its_end_is_rated(service: GameService) -> None:
    game = await random_game(service)
    rng = random.Random(4)
    while game.is_active:
        choices = [m for m in rules.legal_moves(game.position) if m != rules.PASS]
        assert game.to_move_id is not None
        game = (await service.play(game.id, game.to_move_id, str(rng.choice(choices)))).game
    assert game.end_reason is EndReason.SCORE and offers_rematch(game)
    await service.ratings.rate_finished_games()
    for player in (ALICE, BOB):
        rating = await service.ratings.rating(GUILD, player)
        assert rating is not None and rating.games == 1


async def test_a_random_setup_against_the_bot_starts_with_its_move(service: GameService) -> None:
    started = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        human_id=ALICE,
        computer_id=COMPUTER,
        level="easy",
        human_colour=Colour.BLACK,
        setup=Setup.RANDOM,
    )
    game = started.game
    assert game.setup_seed is not None and game.ply >= rules.PLACEMENT_PLIES
    assert game.computer_to_move and game.deadline_at is None
    record = await service.record(game.id)
    assert [m.move for m in record.moves] == [r.move for r in random_setup(game.setup_seed)]
    assert all(m.automatic for m in record.moves)
