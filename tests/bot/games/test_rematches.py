"""Rematches through the game service, on both backends: a finished game played again with
colours swapped on the same clock and setup (a challenge to a person, a game at once against
the bot), one rematch a game, and the refusals a player can cause."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from bot.games.core.errors import NotAPlayer
from bot.games.core.results import GameStarted
from bot.games.core.timecontrol import LITTLE_GOLEM
from bot.games.lobby.errors import (
    ChannelNotAllowed,
    RematchAlreadyOffered,
    RematchOfAbortedGame,
    RematchOfferedToYou,
    RematchOfTournamentGame,
    RematchPlayed,
    RematchRefused,
    RematchTooEarly,
)
from bot.games.lobby.rematches import offers_rematch
from bot.games.service import GameService
from bot.storage.models import (
    Challenge,
    ChallengeStatus,
    Game,
    GameStatus,
    GuildSettings,
    Setup,
    TournamentFormat,
)
from rules import Colour
from tests.bot.clock import ManualClock
from tests.bot.games.test_random_setups import COMPUTER, random_game
from tests.bot.games.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, start_game

THREAD = 7000


async def finished(service: GameService, **options: object) -> Game:
    """A game Alice (White) and Bob played, which Bob resigned."""
    game = await start_game(service, **options)  # type: ignore[arg-type]
    await service.play(game.id, ALICE, "E3")
    return (await service.resign(game.id, BOB)).game


async def test_a_rematch_swaps_the_colours_and_keeps_the_clock(service: GameService) -> None:
    game = await finished(service, clock=LITTLE_GOLEM)
    assert offers_rematch(game)
    challenge = await service.offer_rematch(game.id, BOB, channel_id=THREAD)
    assert challenge.status is ChallengeStatus.OPEN and challenge.rematch_of == game.id
    assert (challenge.challenger_id, challenge.opponent_id) == (BOB, ALICE)
    assert challenge.challenger_colour is Colour.WHITE  # Bob played Black
    assert challenge.bank == LITTLE_GOLEM.to_text() and challenge.clock_days is None
    assert challenge.setup is Setup.STANDARD and challenge.channel_id == THREAD
    started = await service.accept_challenge(challenge.id, ALICE)
    rematch = started.game
    assert (rematch.white_id, rematch.black_id) == (BOB, ALICE)
    assert rematch.rematch_of == game.id and rematch.bank == game.bank and rematch.rated
    assert rematch.channel_id == THREAD and rematch.ply == 0
    # Played: a game has one rematch, whoever asks.
    for player in (ALICE, BOB):
        with pytest.raises(RematchPlayed) as played:
            await service.offer_rematch(game.id, player, channel_id=THREAD)
        assert played.value.params["rematch_id"] == rematch.id
    # The rematch has its own, once it ends.
    await service.resign(rematch.id, ALICE)
    again = await service.offer_rematch(rematch.id, ALICE, channel_id=THREAD)
    assert (again.challenger_colour, again.rematch_of) == (Colour.WHITE, rematch.id)


async def test_a_random_setup_and_days_per_move_are_kept(service: GameService) -> None:
    game = await random_game(service)  # Alice White, 3 days a move
    ended = (await service.resign(game.id, ALICE)).game
    challenge = await service.offer_rematch(ended.id, ALICE, channel_id=CHANNEL)
    assert challenge.setup is Setup.RANDOM and challenge.clock_days == 3
    assert challenge.challenger_colour is Colour.BLACK
    rematch = (await service.accept_challenge(challenge.id, BOB)).game
    assert rematch.setup_seed is not None and rematch.setup_seed != game.setup_seed
    assert rematch.white_id == BOB and not rematch.position.is_placement


async def test_one_rematch_a_game_and_the_refusals(
    service: GameService, clock: ManualClock
) -> None:
    running = await start_game(service, channel=CHANNEL + 1)
    with pytest.raises(RematchTooEarly):
        await service.offer_rematch(running.id, ALICE, channel_id=CHANNEL)
    aborted = await service.abort(running.id, ALICE, moderator=True)
    assert aborted.aborted and not offers_rematch(aborted.game)
    with pytest.raises(RematchOfAbortedGame):
        await service.offer_rematch(running.id, ALICE, channel_id=CHANNEL)

    game = await finished(service, clock_days=2)
    with pytest.raises(NotAPlayer):  # a third person
        await service.offer_rematch(game.id, CAROL, channel_id=CHANNEL)
    offered = await service.offer_rematch(game.id, ALICE, channel_id=CHANNEL)
    assert offered.clock_days == 2 and offered.challenger_colour is Colour.BLACK
    with pytest.raises(RematchAlreadyOffered):  # clicked twice
        await service.check_rematch(game.id, ALICE)
    with pytest.raises(RematchOfferedToYou):  # the other asks too
        await service.offer_rematch(game.id, BOB, channel_id=CHANNEL)
    await service.decline_challenge(offered.id, BOB)
    for player in (ALICE, BOB):
        with pytest.raises(RematchRefused):
            await service.offer_rematch(game.id, player, channel_id=CHANNEL)

    # An offer left to expire counts as not taken up, even before the sweep closes it.
    other = await finished(service, channel=CHANNEL + 2)
    await service.offer_rematch(other.id, BOB, channel_id=CHANNEL + 2)
    clock.advance(days=3)
    with pytest.raises(RematchRefused):
        await service.check_rematch(other.id, BOB)


async def test_a_rematch_is_refused_where_games_may_not_start(service: GameService) -> None:
    game = await finished(service)
    await service.save_guild_settings(GuildSettings(GUILD, channels=frozenset({CHANNEL})))
    with pytest.raises(ChannelNotAllowed):
        await service.offer_rematch(game.id, ALICE, channel_id=CHANNEL + 5)
    # A thread of an allowed channel is allowed.
    made = await service.offer_rematch(game.id, ALICE, channel_id=THREAD, parent_channel_id=CHANNEL)
    assert made.rematch_of == game.id


async def test_against_the_bot_the_rematch_starts_at_once(service: GameService) -> None:
    first = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        human_id=ALICE,
        computer_id=COMPUTER,
        level="strong",
        human_colour=Colour.WHITE,
        setup=Setup.RANDOM,
    )
    with pytest.raises(RematchTooEarly):
        await service.check_rematch(first.game.id, ALICE)
    ended = (await service.resign(first.game.id, ALICE)).game
    assert offers_rematch(ended)
    assert (await service.check_rematch(ended.id, ALICE)).id == ended.id
    with pytest.raises(NotAPlayer):
        await service.check_rematch(ended.id, BOB)

    async def rematch() -> GameStarted:
        return await service.start_computer_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            human_id=ALICE,
            computer_id=COMPUTER,
            level="strong",
            human_colour=Colour.BLACK,
            setup=ended.setup,
            rematch_of=ended.id,
        )

    started = await rematch()
    game = started.game
    assert game.rematch_of == ended.id and game.is_active and game.setup_seed is not None
    assert (game.white_id, game.black_id, game.computer_level) == (COMPUTER, ALICE, "strong")
    await service.resign(game.id, ALICE)
    with pytest.raises(RematchPlayed):  # a second click
        await rematch()


async def test_which_ends_offer_a_rematch(service: GameService, clock: ManualClock) -> None:
    # Lost on time without a move of one's own: the winner is not offered a rematch.
    absent = await start_game(service, clock_days=1)
    clock.advance(days=1, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.over.loser_id == ALICE and not offers_rematch(lost.game)
    # Black, whose first ply is the second: the same.
    late = await start_game(service, clock_days=1, channel=CHANNEL + 1)
    await service.play(late.id, ALICE, "E3")
    clock.advance(days=1, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.over.loser_id == BOB and not offers_rematch(lost.game)
    # Lost on time after moving: a rematch is offered.
    moved = await start_game(service, clock_days=1, channel=CHANNEL + 2)
    for move in ("E3", "F3"):
        moved = (await service.play(moved.id, moved.to_move_id or 0, move)).game
    clock.advance(days=1, seconds=1)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.over.loser_id == ALICE and offers_rematch(lost.game)
    assert absent.id != late.id

    # A tournament's game (paired, not challenged) offers none; the service refuses it too.
    assert not offers_rematch(dataclasses.replace(lost.game, challenge_id=None))
    assert not offers_rematch(dataclasses.replace(lost.game, status=GameStatus.ACTIVE))


async def test_a_tournament_game_has_no_rematch(service: GameService) -> None:
    tournament = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        by=CAROL,
        organiser=True,
        name="Cup",
        format=TournamentFormat.ROUND_ROBIN,
    )
    for player in (ALICE, BOB):
        await service.tournaments.join(tournament.id, player)
    await service.tournaments.start(tournament.id, CAROL, organiser=True)
    (pairing,) = (await service.tournaments.standing(tournament.id)).pairings
    assert pairing.game_id is not None
    begun = await service.tournaments.begin_game(pairing.game_id, THREAD, CHANNEL)
    assert begun is not None
    game = (await service.resign(pairing.game_id, pairing.white_id)).game
    assert not offers_rematch(game)
    with pytest.raises(RematchOfTournamentGame):
        await service.offer_rematch(game.id, ALICE, channel_id=THREAD)


async def test_both_players_asking_at_once_make_one_rematch(service: GameService) -> None:
    game = await finished(service)
    asked = await asyncio.gather(
        *(service.offer_rematch(game.id, player, channel_id=CHANNEL) for player in (ALICE, BOB)),
        return_exceptions=True,
    )
    made = [a for a in asked if isinstance(a, Challenge)]
    refused = [a for a in asked if isinstance(a, RematchAlreadyOffered | RematchOfferedToYou)]
    assert len(made) == 1 and len(refused) == 1, asked
    assert (await service.get_challenge(made[0].id)).rematch_of == game.id


async def test_an_offer_its_player_cancelled_may_be_made_again(service: GameService) -> None:
    game = await finished(service)
    offered = await service.offer_rematch(game.id, ALICE, channel_id=CHANNEL)
    await service.cancel_challenge(offered.id, ALICE)
    again = await service.offer_rematch(game.id, BOB, channel_id=CHANNEL)
    assert again.id != offered.id and again.challenger_id == BOB
    with pytest.raises(RematchOfferedToYou):  # the new offer is the one that counts
        await service.check_rematch(game.id, ALICE)
