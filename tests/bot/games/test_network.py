"""The DVONN network through the game service, on both backends: joining, homes and leaving;
servers taking part and stopping; blocks; network challenges (open and direct), the seeks a
player may take and every refusal; a network game's homes made ready (the last begins it),
lost, moved out of a server that left; the deletion asked for; the periodic jobs only when the
network is on."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.games.core import announcements as kinds
from bot.games.core.errors import (
    ChallengeAlreadyAccepted,
    ChallengeCancelled,
    ChallengeNotForYou,
    ChallengeNotFound,
    NotYourChallenge,
    OwnChallenge,
    SelfChallenge,
)
from bot.games.core.network import NETWORK
from bot.games.core.timecontrol import DaysPerMove
from bot.games.network.announcements import DIRECT_CHALLENGE, NETWORK_HOME, SEEK_CLOSED
from bot.games.network.errors import (
    InvalidRatingRange,
    NetworkChallengeTaken,
    NoNetworkChannel,
    NotANetworkPlayer,
    NotInNetwork,
    NotYourHome,
    OutOfRange,
    OwnNetworkChallenge,
    PlayerUnavailable,
    SeekUnavailable,
    SelfBlock,
    ServerLeftNetwork,
)
from bot.games.network.seeking import NetworkGameStarted
from bot.games.service import GameService
from bot.storage import Store, open_database
from bot.storage.models import ChallengeStatus, Game, GameStatus, HomeSeat, Setup
from rules import Colour
from tests.bot.clock import ManualClock

GUILD_A, GUILD_B, GUILD_C = 501, 502, 503
"""A and B take part in the network (channels 601, 602); C never does."""
CHANNEL_A, CHANNEL_B, CHANNEL_C = 601, 602, 603
ALICE, BOB, CAROL, DANA, ERIN = 11, 22, 33, 44, 55
"""Alice and Carol are homed in A, Bob in B, Dana in her DMs; Erin never joins."""
MODERATOR = 99


@pytest.fixture
async def net(database_target: str, clock: ManualClock) -> AsyncIterator[GameService]:
    """A service with the network on, servers A and B in it, Alice, Bob, Carol and Dana
    members."""
    db = await open_database(database_target)
    service = GameService(Store(db), clock=clock, rng=random.Random(7), network=True)
    await service.network.set_channel(GUILD_A, CHANNEL_A, MODERATOR)
    await service.network.set_channel(GUILD_B, CHANNEL_B, MODERATOR)
    await service.network.join(ALICE, "Alice", GUILD_A)
    await service.network.join(BOB, "Bob", GUILD_B)
    await service.network.join(CAROL, "Carol", GUILD_A)
    await service.network.join(DANA, "Dana", None)
    yield service
    await service.close()


async def seek(
    service: GameService,
    who: int = ALICE,
    *,
    guild: int | None = GUILD_A,
    low: int | None = None,
    high: int | None = None,
    setup: Setup = Setup.STANDARD,
) -> int:
    challenge = await service.network.challenge(
        who,
        guild_id=guild,
        channel_id=CHANNEL_A if guild == GUILD_A else 700,
        colour=Colour.WHITE,
        clock=DaysPerMove(3),
        min_rating=low,
        max_rating=high,
        setup=setup,
    )
    assert challenge.network and challenge.is_open_to_anyone
    return challenge.id


async def network_game(
    service: GameService, white: int = ALICE, black: int = BOB
) -> NetworkGameStarted:
    """A network game, accepted, not begun (its homes not ready)."""
    return await service.network.accept(await seek(service, white), black)


async def begun(service: GameService, white: int = ALICE, black: int = BOB) -> Game:
    """A network game begun in its homes (threads 900 + n, or DM channels)."""
    started = await network_game(service, white, black)
    for n, home in enumerate(started.homes):
        ready = await service.network.home_ready(
            started.game.id, home.seat, 900 + n, home.parent_channel_id
        )
    assert ready.started is not None
    return ready.game


async def rows(service: GameService, kind: str) -> list[dict[str, object]]:
    found = await service.store.db.fetch_all(
        "SELECT game_id, user_id, payload, home FROM notifications WHERE kind = ? ORDER BY id",
        (kind,),
    )
    return [
        {
            "game_id": r["game_id"],
            "user": r["user_id"],
            "home": r["home"],
            **json.loads(r["payload"]),
        }
        for r in found
    ]


# --- members -----------------------------------------------------------------------------------


async def test_a_member_s_home_is_their_server_s_network_channel_or_their_dms(
    net: GameService,
) -> None:
    alice = await net.network.member(ALICE)
    assert alice is not None and alice.is_member and alice.home_guild_id == GUILD_A
    dana = await net.network.member(DANA)
    assert dana is not None and dana.home_guild_id is None
    # Joining from a server not in the network: DMs. Joining again moves the home.
    erin = await net.network.join(ERIN, "Erin", GUILD_C)
    assert erin.home_guild_id is None
    moved = await net.network.join(ALICE, "Alice A.", GUILD_B)
    assert (moved.home_guild_id, moved.name, moved.joined_at) == (
        GUILD_B,
        "Alice A.",
        alice.joined_at,
    )
    assert await net.network.member(12345) is None


async def test_leaving_cancels_one_s_challenges_and_leaving_twice_is_refused(
    net: GameService,
) -> None:
    open_one = await seek(net, ALICE)
    direct = await net.network.challenge(
        BOB, guild_id=GUILD_B, channel_id=CHANNEL_B, opponent_id=ALICE
    )
    version = await net.network.lobby.seeks_version()
    left = await net.network.leave(ALICE)
    assert not left.member.is_member
    assert {c.id for c in left.cancelled} == {open_one, direct.id}
    assert (await net.get_challenge(open_one)).status is ChallengeStatus.CANCELLED
    assert await net.network.lobby.seeks_version() == version + 1  # the boards are behind
    with pytest.raises(NotInNetwork):
        await net.network.leave(ALICE)
    with pytest.raises(NotInNetwork):
        await net.network.leave(ERIN)
    # Asking for deletion after leaving still works; rejoining calls it off.
    assert (await net.network.leave(ALICE, forget=True)).member.forget_at is not None
    assert (await net.network.join(ALICE, "Alice", GUILD_A)).forget_at is None


async def test_not_a_member_is_refused_everything(net: GameService) -> None:
    with pytest.raises(NotInNetwork):
        await net.network.challenge(ERIN, guild_id=GUILD_A, channel_id=CHANNEL_A)
    with pytest.raises(NotInNetwork):
        await net.network.accept(await seek(net, ALICE), ERIN)
    with pytest.raises(NotInNetwork):
        await net.network.block(ERIN, ALICE)
    with pytest.raises(NotANetworkPlayer):
        await net.network.challenge(ALICE, guild_id=GUILD_A, channel_id=CHANNEL_A, opponent_id=ERIN)
    with pytest.raises(SelfChallenge):
        await net.network.challenge(
            ALICE, guild_id=GUILD_A, channel_id=CHANNEL_A, opponent_id=ALICE
        )


# --- servers -----------------------------------------------------------------------------------


async def test_challenges_are_made_in_dms_or_in_a_server_that_takes_part(net: GameService) -> None:
    assert await seek(net, DANA, guild=None)
    with pytest.raises(NoNetworkChannel):
        await seek(net, ALICE, guild=GUILD_C)
    # A direct one is confirmed privately and posted in its opponent's home: made anywhere.
    direct = await net.network.challenge(
        ALICE, guild_id=GUILD_C, channel_id=CHANNEL_C, opponent_id=BOB
    )
    assert (await net.network.accept(direct.id, BOB)).game.network
    with pytest.raises(NoNetworkChannel):
        await net.network.stop(GUILD_C, MODERATOR)
    status = await net.network.servers.status(GUILD_A)
    assert status.server is not None and status.server.channel_id == CHANNEL_A
    assert [m.user_id for m in status.members] == [ALICE, CAROL]
    assert (await net.network.servers.status(GUILD_C)).server is None


async def test_a_server_that_stops_cancels_its_seeks_and_refuses_what_follows(
    net: GameService,
) -> None:
    made_in_b = await net.network.challenge(BOB, guild_id=GUILD_B, channel_id=CHANNEL_B)
    from_a = await seek(net, ALICE)
    stopped = await net.network.stop(GUILD_B, MODERATOR)
    assert [c.id for c in stopped.cancelled] == [made_in_b.id]
    assert stopped.server.left_at is not None
    with pytest.raises(ServerLeftNetwork):
        await net.network.challenge(BOB, guild_id=GUILD_B, channel_id=CHANNEL_B)
    with pytest.raises(ServerLeftNetwork):  # a stale button in the server that left
        await net.network.accept(from_a, BOB, guild_id=GUILD_B)
    with pytest.raises(ServerLeftNetwork):
        await net.network.accept(made_in_b.id, CAROL)
    with pytest.raises(ServerLeftNetwork):
        await net.network.stop(GUILD_B, MODERATOR)
    assert await net.network.server_removed(GUILD_B) is None  # already out
    # Bob still plays, from his DMs; B comes back with a channel named again.
    assert (await net.network.accept(from_a, BOB)).game.network
    assert (await net.network.set_channel(GUILD_B, CHANNEL_B, MODERATOR)).is_live


# --- blocks and challenges ---------------------------------------------------------------------


async def test_a_block_either_way_refuses_challenges_and_hides_seeks_without_saying_who(
    net: GameService,
) -> None:
    alice_seek = await seek(net, ALICE)
    bob_seek = await net.network.challenge(BOB, guild_id=GUILD_B, channel_id=CHANNEL_B)
    waiting = await net.network.challenge(ALICE, guild_id=None, channel_id=1, opponent_id=BOB)
    to_carol = await net.network.challenge(ALICE, guild_id=None, channel_id=1, opponent_id=CAROL)
    assert await net.network.block(BOB, ALICE)
    # The direct challenge waiting between them is called off; others are not.
    assert (await net.get_challenge(waiting.id)).status is ChallengeStatus.CANCELLED
    assert (await net.get_challenge(to_carol.id)).status is ChallengeStatus.OPEN
    assert not await net.network.block(BOB, ALICE)  # already
    with pytest.raises(SelfBlock):
        await net.network.block(BOB, BOB)
    refusals = []
    for challenger, opponent in ((ALICE, BOB), (BOB, ALICE)):
        with pytest.raises(PlayerUnavailable) as error:
            await net.network.challenge(
                challenger, guild_id=None, channel_id=1, opponent_id=opponent
            )
        refusals.append(str(error.value))
    assert set(refusals) == {"This player does not take challenges from you."}
    # Their seeks, which every board shows: refused alike, whoever blocked whom, saying why.
    taps = []
    with pytest.raises(SeekUnavailable) as seek_refused:
        await net.network.accept(alice_seek, BOB)
    taps.append(str(seek_refused.value))
    with pytest.raises(SeekUnavailable) as seek_refused:
        await net.network.accept(bob_seek.id, ALICE)
    taps.append(str(seek_refused.value))
    assert set(taps) == {
        "This player does not take challenges from you. The network boards show every open "
        "network challenge; /network seeks lists only those you may accept."
    }
    assert [c.id for c in await net.network.seeks_for(BOB)] == []
    assert [c.id for c in await net.network.seeks_for(ALICE)] == []
    assert [c.id for c in await net.network.seeks_for(CAROL)] == [bob_seek.id, alice_seek]
    assert await net.network.unblock(BOB, ALICE)
    assert [c.id for c in await net.network.seeks_for(BOB)] == [alice_seek]
    assert (await net.network.accept(alice_seek, BOB)).game.white_id == ALICE


async def test_own_taken_and_other_closed_challenges_are_refused(net: GameService) -> None:
    challenge_id = await seek(net, ALICE)
    with pytest.raises(OwnNetworkChallenge) as own:
        await net.network.accept(challenge_id, ALICE)
    assert isinstance(own.value, OwnChallenge)
    assert (await net.get_challenge(challenge_id)).status is ChallengeStatus.OPEN
    assert [c.id for c in await net.network.seeks_for(ALICE)] == []
    await net.network.accept(challenge_id, CAROL)
    with pytest.raises(NetworkChallengeTaken) as taken:
        await net.network.accept(challenge_id, BOB)
    assert isinstance(taken.value, ChallengeAlreadyAccepted)
    assert str(taken.value) == "This challenge has already been accepted."
    cancelled = await seek(net, ALICE)
    with pytest.raises(NotYourChallenge):
        await net.network.cancel(cancelled, BOB)
    await net.network.cancel(cancelled, ALICE)
    with pytest.raises(ChallengeCancelled):
        await net.network.accept(cancelled, BOB)
    # A challenge of the lobby is not the network's, nor the other way round.
    lobby = await net.create_challenge(guild_id=GUILD_A, channel_id=CHANNEL_A, challenger_id=BOB)
    with pytest.raises(ChallengeNotFound):
        await net.network.accept(lobby.id, CAROL)
    with pytest.raises(ChallengeNotFound):
        await net.network.cancel(lobby.id, BOB)
    network_one = await seek(net, ALICE)
    with pytest.raises(ChallengeNotFound):
        await net.accept_challenge(network_one, BOB)
    with pytest.raises(ChallengeNotFound):
        await net.cancel_challenge(network_one, ALICE)
    assert (await net.get_challenge(network_one)).status is ChallengeStatus.OPEN


async def test_a_rating_range_admits_only_ratings_in_it(net: GameService) -> None:
    high = await seek(net, ALICE, low=1600)
    low = await seek(net, ALICE, high=1500)
    assert [c.id for c in await net.network.seeks_for(BOB)] == [low]  # 1500 as everyone starts
    with pytest.raises(OutOfRange) as error:
        await net.network.accept(high, BOB)
    assert error.value.params == {"challenge_id": high, "rating": 1500, "low": 1600, "high": 3000}
    assert (await net.get_challenge(high)).status is ChallengeStatus.OPEN
    assert (await net.network.accept(low, BOB)).game.network
    for bad in ((1700, 1600), (-1, None), (None, 3001)):
        with pytest.raises(InvalidRatingRange):
            await seek(net, ALICE, low=bad[0], high=bad[1])


async def test_a_direct_challenge_is_posted_to_its_opponent_and_only_they_answer(
    net: GameService,
) -> None:
    direct = await net.network.challenge(
        ALICE, guild_id=GUILD_A, channel_id=CHANNEL_A, opponent_id=DANA, min_rating=2000
    )
    assert (direct.opponent_id, direct.min_rating) == (DANA, None)  # no range for one player
    assert await rows(net, DIRECT_CHALLENGE) == [
        {"game_id": None, "user": DANA, "home": "", "challenge": direct.id}
    ]
    assert direct.id not in [c.id for c in await net.network.seeks_for(CAROL)]
    with pytest.raises(ChallengeNotForYou):
        await net.network.accept(direct.id, CAROL)
    declined = await net.network.decline(direct.id, DANA)
    assert declined.status is ChallengeStatus.DECLINED
    again = await net.network.challenge(ALICE, guild_id=None, channel_id=1, opponent_id=DANA)
    assert set((await net.network.accept(again.id, DANA)).game.human_ids) == {ALICE, DANA}


# --- homes -------------------------------------------------------------------------------------


async def test_an_accepted_challenge_makes_a_pending_network_game_with_its_homes(
    net: GameService,
) -> None:
    started = await network_game(net, ALICE, BOB)
    game = started.game
    assert (game.network, game.guild_id, game.status, game.rated) == (
        True,
        None,
        GameStatus.PENDING,
        True,
    )
    assert game.deadline_at is None and game.clock_days == 3  # the clock starts when it begins
    assert [(h.seat, h.guild_id, h.parent_channel_id, h.user_id) for h in started.homes] == [
        (HomeSeat.WHITE, GUILD_A, CHANNEL_A, None),
        (HomeSeat.BLACK, GUILD_B, CHANNEL_B, None),
    ]
    # Each home is made by a row of its own, in no game's lane (the home's posts wait for it).
    assert await rows(net, NETWORK_HOME) == [
        {"game_id": None, "user": None, "home": "", "game": game.id, "seat": seat}
        for seat in ("W", "B")
    ]
    assert started.announcements == tuple(
        r["id"]
        for r in await net.store.db.fetch_all(
            "SELECT id FROM notifications WHERE kind = ? ORDER BY id", (NETWORK_HOME,)
        )
    )
    # Both in one server: one home of both. A member homed in DMs: a DM home.
    shared = await network_game(net, ALICE, CAROL)
    assert [(h.seat, h.guild_id) for h in shared.homes] == [(HomeSeat.BOTH, GUILD_A)]
    dm = await network_game(net, DANA, ALICE)
    assert [(h.seat, h.guild_id, h.user_id) for h in dm.homes] == [
        (HomeSeat.WHITE, None, DANA),
        (HomeSeat.BLACK, GUILD_A, None),
    ]


async def test_the_last_home_ready_begins_the_game_once(
    net: GameService, clock: ManualClock
) -> None:
    started = await network_game(net, ALICE, BOB)
    game_id = started.game.id
    first = await net.network.home_ready(game_id, HomeSeat.BLACK, 902, CHANNEL_B)
    assert first.started is None and first.game.status is GameStatus.PENDING
    assert await rows(net, kinds.GAME_STARTED) == []
    clock.advance(hours=1)
    last = await net.network.home_ready(game_id, HomeSeat.WHITE, 901, CHANNEL_A)
    assert last.started is not None and last.announcements == (last.started.announcement,)
    game = last.game
    assert game.status is GameStatus.ACTIVE and game.channel_id == 901
    assert game.deadline_at is not None and game.deadline_at == clock() + timedelta(days=3)
    again = await net.network.home_ready(game_id, HomeSeat.WHITE, 901, CHANNEL_A)
    assert again.started is None and again.game.version == game.version
    # Written once (one row, or with the outbox's homes one row a home: never two for one).
    homes_started = [r["home"] for r in await rows(net, kinds.GAME_STARTED)]
    assert homes_started and len(set(homes_started)) == len(homes_started)
    assert {h.seat: h.channel_id for h in await net.network.games.homes(game_id)} == {
        HomeSeat.WHITE: 901,
        HomeSeat.BLACK: 902,
    }
    # Each player moves from their own home; the other's refuses, a spectator is let look.
    own = await net.network.home_here(game, ALICE, 901)
    assert own is not None and own.seat is HomeSeat.WHITE
    with pytest.raises(NotYourHome):
        await net.network.home_here(game, ALICE, 902)
    with pytest.raises(NotYourHome):
        await net.network.home_here(game, BOB, 901)
    looking = await net.network.home_here(game, CAROL, 902)
    assert looking is not None and looking.seat is HomeSeat.BLACK
    assert await net.network.home_here(game, ALICE, CHANNEL_A) is None
    moved = await net.play(game_id, ALICE, "E3")
    assert moved.game.ply == 1


async def test_a_random_setup_network_game_begins_with_its_placements(net: GameService) -> None:
    challenge = await seek(net, ALICE, setup=Setup.RANDOM)
    started = await net.network.accept(challenge, BOB)
    assert started.game.setup_seed is not None and started.game.ply >= 49
    assert len((await net.record(started.game.id)).moves) == started.game.ply


async def test_a_server_that_stops_moves_its_homes_to_dms_in_batches(net: GameService) -> None:
    apart = await begun(net, ALICE, BOB)
    shared = await begun(net, CAROL, ALICE)
    await net.network.stop(GUILD_A, MODERATOR)
    assert len(await net.store.games_homed_in(GUILD_A, 10)) == 2  # not yet moved
    moved = await net.network.games.move_homes_out(batch=1)
    assert moved.games == (apart.id, shared.id)
    apart_homes = {h.seat: h for h in await net.network.games.homes(apart.id)}
    assert (apart_homes[HomeSeat.WHITE].user_id, apart_homes[HomeSeat.WHITE].channel_id) == (
        ALICE,
        None,
    )
    assert apart_homes[HomeSeat.BLACK].guild_id == GUILD_B  # Bob's server did not leave
    assert [(h.seat, h.user_id) for h in await net.network.games.homes(shared.id)] == [
        (HomeSeat.WHITE, CAROL),
        (HomeSeat.BLACK, ALICE),
    ]
    made = [(r["game"], r["seat"], r.get("moved")) for r in await rows(net, NETWORK_HOME)]
    assert made[-3:] == [(apart.id, "W", True), (shared.id, "W", True), (shared.id, "B", True)]
    assert len(moved.announcements) == 3
    assert (await net.network.games.move_homes_out()).games == ()  # nothing left
    # New games of Alice's are homed in her DMs while her server is out.
    later = await net.network.accept(await seek(net, ALICE, guild=None), BOB)
    assert later.homes[0].user_id == ALICE


async def test_a_lost_home_moves_to_dms_and_a_lost_dm_home_is_given_up(net: GameService) -> None:
    game = await begun(net, ALICE, DANA)
    written = await net.network.lose_home(game.id, "W", 900)  # its thread
    assert len(written) == 1
    homes = {h.seat: h for h in await net.network.games.homes(game.id)}
    assert (homes[HomeSeat.WHITE].guild_id, homes[HomeSeat.WHITE].user_id) == (None, ALICE)
    assert await net.network.lose_home(game.id, "B", 901) == []  # Dana's DMs
    homes = {h.seat: h for h in await net.network.games.homes(game.id)}
    assert homes[HomeSeat.BLACK].lost_at is not None
    assert await net.network.lose_home(game.id, "*", 900) == []  # no such home


async def test_a_late_refusal_from_a_home_s_old_thread_leaves_its_new_home_alone(
    net: GameService,
) -> None:
    """Alice's home moved to her DMs (her server left the network) while a post to her old
    thread was under way; Discord's refusal of that post, coming after, neither marks her new
    home lost nor gives up its posts, by the outbox's path or the network's."""
    game = await begun(net, ALICE, BOB)
    await net.network.stop(GUILD_A, MODERATOR)
    moved = await net.network.games.move_homes_out()
    assert moved.games == (game.id,)
    await net.network.home_ready(game.id, HomeSeat.WHITE, 4242)  # her DM channel
    game = await net.get_game(game.id)
    assert game.to_move_id is not None
    await net.play(game.id, game.to_move_id, "E3")  # a post for each home, unsent
    unsent = await net.store.unsent_notifications(game.id, home="W")
    assert unsent
    # The old thread (900) refuses late: nothing changes.
    assert not await net.outbox.lose_home(game.id, "W", 900)
    assert await net.network.lose_home(game.id, "W", 900) == []
    white = next(h for h in await net.network.games.homes(game.id) if h.seat is HomeSeat.WHITE)
    assert (white.channel_id, white.lost_at) == (4242, None)
    assert await net.store.unsent_notifications(game.id, home="W") == unsent
    # While its thread is being made, a refusal is of its network channel: that one counts.
    await net.network.set_channel(GUILD_A, CHANNEL_A, MODERATOR)
    await net.network.join(BOB, "Bob", GUILD_A)
    pending = await network_game(net, CAROL, BOB)  # one home of both, in A, no thread yet
    (home,) = pending.homes
    assert await net.network.lose_home(pending.game.id, home.seat.value, 900) == []
    assert len(await net.network.lose_home(pending.game.id, home.seat.value, CHANNEL_A)) == 2


async def test_deletion_waits_for_the_last_network_game(net: GameService) -> None:
    game = await begun(net, ALICE, BOB)
    await net.network.block(ALICE, CAROL)
    await net.network.leave(ALICE, forget=True)
    assert (await net.network.games.forget_due()).players == ()
    assert await net.network.member(ALICE) is not None
    await net.resign(game.id, ALICE)
    done = await net.network.games.forget_due()
    assert done.players == (ALICE,)
    assert dict(done.deleted)["network_members"] == 1 and dict(done.deleted)["network_blocks"] == 1
    assert await net.network.member(ALICE) is None
    assert await net.ratings.network_rating(ALICE) is None
    assert await net.ratings.network_rating(BOB) is not None  # the other player's stays


# --- ratings and jobs --------------------------------------------------------------------------


async def test_a_network_game_rates_the_network_s_ratings_only(net: GameService) -> None:
    game = await begun(net, ALICE, BOB)
    await net.resign(game.id, BOB)
    alice = await net.ratings.network_rating(ALICE)
    bob = await net.ratings.rating(NETWORK, BOB)
    assert alice is not None and bob is not None and alice.rating > 1500 > bob.rating
    for guild in (GUILD_A, GUILD_B):
        assert await net.ratings.rating(guild, ALICE) is None
        assert await net.ratings.rating(guild, BOB) is None
    assert await net.ratings.rate_finished_games() == 0  # once


async def test_the_network_s_jobs_run_only_when_it_is_on(
    net: GameService, database_target: str, clock: ManualClock
) -> None:
    names = net.housekeeping.names
    assert names.index("network: seeks expired") < names.index("challenges: expiry")
    assert {"network: homes to move", "network: forget"} <= set(names)
    off = GameService(net.store, clock=clock)
    assert not [name for name in off.housekeeping.names if name.startswith("network")]
    # An expired seek closes in the sweep, and the boards are told.
    challenge_id = await seek(net, ALICE)
    version = await net.network.lobby.seeks_version()
    clock.advance(days=3)
    await net.sweep()
    assert (await net.get_challenge(challenge_id)).status is ChallengeStatus.EXPIRED
    assert await net.network.lobby.seeks_version() == version + 1


# --- a seek's own post, edited once it closes ---------------------------------------------------


async def test_a_seek_s_own_post_is_edited_once_it_closes_wherever_it_closes(
    net: GameService, clock: ManualClock
) -> None:
    """Taken elsewhere, called off (its challenger left) or expired: one row edits its own post
    (none while its post is not known, none when the tap was on that post); a seek taken before
    its post was known gets its row when the post is."""
    lobby = net.network.lobby

    async def edits_of(challenge_id: int) -> list[int]:
        rows = await net.outbox.claimable()
        return [
            r.id for r in rows if r.kind == SEEK_CLOSED and r.payload == {"challenge": challenge_id}
        ]

    # Taken from elsewhere (a board, a list): its row, claimed by the accepter's process.
    taken = await seek(net)
    assert await lobby.seek_posted(taken, 7001) == ()  # open: kept
    started = await net.network.accept(taken, BOB, tapped=8000)
    assert len(started.edits) == 1
    row = await net.outbox.get(started.edits[0])
    assert row is not None and row.kind == SEEK_CLOSED and row.payload == {"challenge": taken}
    assert (await lobby.challenge(taken)).message_id == 7001
    # Taken on its own post: that tap's answer edits it, no row.
    own = await seek(net, CAROL)
    await lobby.seek_posted(own, 7002)
    assert (await net.network.accept(own, ALICE, tapped=7002)).edits == ()
    # Taken before its post was known: the row comes with the post.
    early = await seek(net, DANA, guild=None)
    assert (await net.network.accept(early, CAROL)).edits == ()
    (written,) = await lobby.seek_posted(early, 7003)
    row = await net.outbox.get(written)
    assert row is not None and row.payload == {"challenge": early}
    # Called off: its challenger left; by the next poll (not claimed).
    left = await seek(net, BOB, guild=GUILD_B)
    await lobby.seek_posted(left, 7004)
    await net.network.leave(BOB)
    assert len(await edits_of(left)) == 1
    # Expired: by the housekeeping job, which posts it.
    expiring = await seek(net, ALICE)
    await lobby.seek_posted(expiring, 7005)
    unknown = await seek(net, ALICE)  # its post never known: nothing to edit
    clock.advance(timedelta(days=60))
    expired = await lobby.expire_due()
    assert {c.id for c in expired.challenges} >= {expiring, unknown}
    assert len(expired.announcements) == 1
    row = await net.outbox.get(expired.announcements[0])
    assert row is not None and row.payload == {"challenge": expiring}
