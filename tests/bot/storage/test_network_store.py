"""The network's storage (issue 41), on both backends: members, servers, blocks, network games'
homes, the open network challenges a player may take, the network leaderboard, the deletion of
a player's network data; and the migration that made its tables, on a database with games."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

import rules
from bot.storage import (
    MIGRATIONS,
    NETWORK_GUILD_ID,
    ChallengeStatus,
    ChannelTaken,
    Database,
    Entrant,
    GameStatus,
    HomeSeat,
    NewChallenge,
    NewGame,
    NewHome,
    NewTournament,
    RatingRow,
    SQLiteDatabase,
    Store,
    TournamentFormat,
    TournamentStatus,
    open_database,
)
from bot.storage.copy import copy_database
from bot.storage.models import time_to_text
from bot.storage.network import NO_BOARD

NOW = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
ANN, BOB, CAT, DAN, EVE = 101, 202, 303, 404, 505
GUILD_A, GUILD_B = 7001, 7002
NETWORK_A, NETWORK_B = 8001, 8002

INTEGRITY = (sqlite3.IntegrityError, psycopg.errors.IntegrityError)
"""What either backend raises when a constraint refuses a write."""


@pytest.fixture
async def store(database_target: str) -> AsyncIterator[Store]:
    """A store on each backend in turn, with five players."""
    store = Store(await open_database(database_target))
    async with store.write() as tx:
        await tx.ensure_players([ANN, BOB, CAT, DAN, EVE], NOW)
    yield store
    await store.close()


async def _join(store: Store, *members: tuple[int, str, int | None]) -> None:
    async with store.write() as tx:
        for user_id, name, home in members:
            await tx.join(user_id, name, home, NOW)


async def _seek(
    store: Store,
    challenger: int,
    *,
    min_rating: int | None = None,
    max_rating: int | None = None,
    opponent: int | None = None,
    expires: timedelta = timedelta(days=3),
    network: bool = True,
    channel: int = NETWORK_A,
) -> int:
    async with store.write() as tx:
        made = await tx.insert_challenge(
            NewChallenge(
                guild_id=GUILD_A,
                channel_id=channel,
                challenger_id=challenger,
                opponent_id=opponent,
                challenger_colour=None,
                clock_days=3,
                created_at=NOW,
                expires_at=NOW + expires,
                network=network,
                min_rating=min_rating,
                max_rating=max_rating,
            )
        )
    return made.id


async def _network_game(
    store: Store,
    white: int,
    black: int,
    homes: list[NewHome],
    *,
    channel: int = 9001,
    status: GameStatus = GameStatus.ACTIVE,
) -> int:
    async with store.write() as tx:
        game = await tx.insert_game(
            NewGame(
                guild_id=None,
                channel_id=channel,
                parent_channel_id=None,
                challenge_id=None,
                white_id=white,
                black_id=black,
                position=rules.new_game(),
                clock_days=3,
                deadline_at=None,
                created_at=NOW,
                status=status,
                network=True,
            )
        )
        await tx.add_homes(game.id, homes, NOW)
    return game.id


async def _end(store: Store, game_id: int, *, rated: bool) -> None:
    """End a game with White's win, rated in the network already or not yet."""
    async with store.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET status = 'finished', result = 'white', end_reason = 'resignation', "
            "finished_at = ?, rated_at = ? WHERE id = ?",
            (time_to_text(NOW), time_to_text(NOW) if rated else None, game_id),
        )


# --- members -------------------------------------------------------------------------------------


async def test_joining_leaving_and_joining_again(store: Store) -> None:
    assert await store.member(ANN) is None
    await _join(store, (ANN, "Ann", GUILD_A))
    ann = await store.member(ANN)
    assert ann is not None and ann.is_member
    assert (ann.name, ann.home_guild_id, ann.joined_at, ann.forget_at) == (
        "Ann",
        GUILD_A,
        NOW,
        None,
    )
    # Joining again moves the home and keeps the day she joined.
    later = NOW + timedelta(days=1)
    async with store.write() as tx:
        moved = await tx.join(ANN, "Ann", None, later)
    assert (moved.home_guild_id, moved.joined_at, moved.updated_at) == (None, NOW, later)
    async with store.write() as tx:
        assert await tx.leave(ANN, later)
        assert not await tx.leave(ANN, later)  # once
        assert not await tx.leave(BOB, later)  # never joined
    left = await store.member(ANN)
    assert left is not None and not left.is_member and left.left_at == later
    # Back after leaving: a member again, from then; a deletion she had asked for is called off.
    again = NOW + timedelta(days=2)
    async with store.write() as tx:
        assert await tx.mark_forget(ANN, again)
        back = await tx.join(ANN, "Ann", GUILD_B, again)
    assert back.is_member and back.joined_at == again and back.forget_at is None
    assert back.home_guild_id == GUILD_B


async def test_a_member_needs_a_player_row(store: Store) -> None:
    with pytest.raises(INTEGRITY):
        async with store.write() as tx:
            await tx.join(999, "Nobody", None, NOW)


async def test_names_are_searched_by_their_beginning_whatever_the_case(store: Store) -> None:
    await _join(
        store,
        (ANN, "Anna", GUILD_A),
        (BOB, "annie_b", GUILD_B),
        (CAT, "Bo%b", None),
        (DAN, "anxious", GUILD_A),
        (EVE, "Zed", GUILD_A),
    )
    async with store.write() as tx:
        await tx.leave(DAN, NOW)
        assert await tx.set_name(EVE, "Ann-Eve", NOW)
        assert not await tx.set_name(EVE, "Ann-Eve", NOW)  # no change
    found = await store.search_names("AN")
    assert [m.name for m in found] == ["Ann-Eve", "Anna", "annie_b"]  # not Dan: he left
    assert [m.user_id for m in await store.search_names("ann", limit=2)] == [EVE, ANN]
    # LIKE's wildcards are only letters here.
    assert [m.name for m in await store.search_names("bo%")] == ["Bo%b"]
    assert await store.search_names("b%") == []
    assert [m.name for m in await store.search_names("annie_")] == ["annie_b"]
    assert await store.search_names("ann_e") == []
    assert await store.names([ANN, DAN, 999]) == {ANN: "Anna", DAN: "anxious"}
    assert await store.names([]) == {}
    assert [m.user_id for m in await store.members_homed_in(GUILD_A)] == [EVE, ANN]


# --- servers and the seeks count ----------------------------------------------------------------


async def test_a_server_takes_part_moves_its_channel_leaves_and_comes_back(store: Store) -> None:
    assert await store.network_server(GUILD_A) is None
    async with store.write() as tx:
        joined = await tx.set_channel(GUILD_A, NETWORK_A, ANN, NOW)
        assert joined.is_live and (joined.channel_id, joined.joined_by) == (NETWORK_A, ANN)
        assert await tx.set_board(GUILD_A, 555, 4, NOW)
    same = NOW + timedelta(hours=1)
    async with store.write() as tx:
        kept = await tx.set_channel(GUILD_A, NETWORK_A, BOB, same)
    # The same channel named again keeps its board; the moderator who named it is the last.
    assert (kept.board_message_id, kept.board_version, kept.board_at) == (555, 4, NOW)
    assert (kept.joined_by, kept.joined_at, kept.updated_at) == (BOB, NOW, same)
    async with store.write() as tx:
        moved = await tx.set_channel(GUILD_A, NETWORK_B, BOB, same)
    assert moved.channel_id == NETWORK_B and moved.joined_at == NOW
    assert (moved.board_message_id, moved.board_version, moved.board_at) == (None, NO_BOARD, None)
    gone = NOW + timedelta(days=1)
    async with store.write() as tx:
        assert await tx.set_board(GUILD_A, 556, 5, same)
        assert await tx.leave_server(GUILD_A, gone)
        assert not await tx.leave_server(GUILD_A, gone)
        assert not await tx.set_board(GUILD_A, 557, 6, gone)  # not in the network
    left = await store.network_server(GUILD_A)
    assert left is not None and not left.is_live and left.left_at == gone
    assert left.channel_id == NETWORK_B and left.board_message_id == 556  # kept, for the record
    back = gone + timedelta(days=1)
    async with store.write() as tx:
        returned = await tx.set_channel(GUILD_A, NETWORK_B, ANN, back)
    assert returned.is_live and returned.joined_at == back and returned.board_message_id is None
    assert returned.board_version == NO_BOARD


async def test_a_new_board_is_behind_before_any_seek(store: Store) -> None:
    """A server that names its channel in a network where no seek was ever made (the count is
    0) has its first board posted all the same."""
    assert await store.seeks_version() == 0
    async with store.write() as tx:
        joined = await tx.set_channel(GUILD_A, NETWORK_A, ANN, NOW)
    assert joined.board_version == NO_BOARD
    assert [s.guild_id for s in await store.boards_behind(0, NOW, 10)] == [GUILD_A]
    async with store.write() as tx:
        assert await tx.set_board(GUILD_A, 1, 0, NOW)
    assert await store.boards_behind(0, NOW, 10) == []


async def test_boards_behind_the_seeks_count(store: Store) -> None:
    assert await store.seeks_version() == 0
    async with store.write() as tx:
        assert [await tx.bump_seeks() for _ in range(3)] == [1, 2, 3]
    assert await store.seeks_version() == 3
    async with store.write() as tx:
        await tx.set_channel(GUILD_A, NETWORK_A, ANN, NOW)
        await tx.set_channel(GUILD_B, NETWORK_B, BOB, NOW)
        await tx.set_channel(7003, 8003, CAT, NOW)
        await tx.set_channel(7004, 8004, DAN, NOW)
        await tx.set_board(GUILD_A, 1, 3, NOW)  # up to date
        await tx.set_board(GUILD_B, 2, 1, NOW)  # behind, edited at NOW
        await tx.leave_server(7004, NOW)  # behind, but out
    soon, later = NOW + timedelta(minutes=5), NOW + timedelta(minutes=10)
    # 7003 never had a board: first; GUILD_B once its last edit is old enough.
    assert [s.guild_id for s in await store.boards_behind(3, soon - timedelta(minutes=10), 10)] == [
        7003
    ]
    assert [
        s.guild_id for s in await store.boards_behind(3, later - timedelta(minutes=10), 10)
    ] == [
        7003,
        GUILD_B,
    ]
    assert [s.guild_id for s in await store.boards_behind(3, later, 1)] == [7003]
    assert [s.guild_id for s in await store.boards_behind(1, later, 10)] == [7003]


# --- blocks -----------------------------------------------------------------------------------


async def test_blocks_either_way(store: Store) -> None:
    async with store.write() as tx:
        assert await tx.block(ANN, BOB, NOW)
        assert not await tx.block(ANN, BOB, NOW + timedelta(hours=1))  # once
        assert await tx.block(CAT, ANN, NOW + timedelta(hours=2))
        assert await tx.block(ANN, DAN, NOW + timedelta(hours=3))
        assert await tx.blocked_either(BOB, ANN) and await tx.blocked_either(ANN, BOB)
        assert not await tx.blocked_either(BOB, CAT)
    assert await store.blocked_either(ANN, CAT) and await store.blocked_either(CAT, ANN)
    assert not await store.blocked_either(DAN, CAT)
    assert [(b.blocked_id, b.created_at) for b in await store.blocks_of(ANN)] == [
        (DAN, NOW + timedelta(hours=3)),
        (BOB, NOW),
    ]
    async with store.write() as tx:
        assert await tx.unblock(ANN, BOB)
        assert not await tx.unblock(ANN, BOB)
        assert not await tx.unblock(ANN, CAT)  # Cat's block of her is Cat's to take back
    assert not await store.blocked_either(ANN, BOB)
    assert await store.blocked_either(ANN, CAT)


async def test_nobody_blocks_themselves(store: Store) -> None:
    with pytest.raises(INTEGRITY):
        async with store.write() as tx:
            await tx.block(ANN, ANN, NOW)


async def test_the_blocks_between_a_tournaments_players(store: Store) -> None:
    async with store.write() as tx:
        cup = await tx.insert_tournament(
            NewTournament(
                guild_id=NETWORK_GUILD_ID,
                channel_id=0,
                name="Championship",
                format=TournamentFormat.LEAGUE,
                organiser_id=0,
                created_at=NOW,
                division_size=10,
            )
        )
        for seed, player in enumerate((ANN, BOB, CAT), start=1):
            await tx.add_entrant(Entrant(cup.id, player, seed, NOW))
        await tx.block(ANN, BOB, NOW)
        await tx.block(CAT, ANN, NOW + timedelta(hours=1))
        await tx.block(ANN, DAN, NOW)  # Dan is not in it
    found = await store.blocks_among_entrants(cup.id)
    assert [(b.blocker_id, b.blocked_id) for b in found] == [(ANN, BOB), (CAT, ANN)]


# --- the homes of network games -----------------------------------------------------------------


async def _post(store: Store, game_id: int, home: str) -> int:
    """An unsent post of a game to one home (as the outbox will write it)."""
    async with store.db.transaction() as conn:
        rows = await conn.fetch_all(
            "INSERT INTO notifications (kind, game_id, created_at, home) VALUES ('turn', ?, ?, ?) "
            "RETURNING id",
            (game_id, time_to_text(NOW), home),
        )
    return int(rows[0][0])


async def _unsent(store: Store, game_id: int) -> list[int]:
    rows = await store.db.fetch_all(
        "SELECT id FROM notifications WHERE game_id = ? AND sent_at IS NULL ORDER BY id",
        (game_id,),
    )
    return [int(row["id"]) for row in rows]


async def test_a_network_games_homes_are_made_lost_and_moved(store: Store) -> None:
    game_id = await _network_game(
        store,
        ANN,
        BOB,
        [
            NewHome(HomeSeat.BLACK, GUILD_B, NETWORK_B),
            NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A),
        ],
    )
    game = await store.game(game_id)
    assert game is not None and game.network and game.guild_id is None
    homes = await store.homes(game_id)
    assert [(h.seat, h.guild_id, h.parent_channel_id, h.ready) for h in homes] == [
        (HomeSeat.WHITE, GUILD_A, NETWORK_A, False),
        (HomeSeat.BLACK, GUILD_B, NETWORK_B, False),
    ]
    async with store.write() as tx:
        assert await tx.set_home_channel(game_id, HomeSeat.WHITE, 9101, NETWORK_A)
        assert await tx.set_home_channel(game_id, HomeSeat.BLACK, 9102, NETWORK_B)
        assert not await tx.set_home_channel(game_id, HomeSeat.BOTH, 9103, NETWORK_A)
        assert all(h.ready for h in await tx.homes(game_id))
    white_post, black_post = await _post(store, game_id, "W"), await _post(store, game_id, "B")
    # Black's home refuses the bot's posts: its posts are given up, White's are not.
    async with store.write() as tx:
        # A refusal from where the home is not (another channel) changes nothing.
        assert not await tx.lose_home(game_id, HomeSeat.BLACK, NOW, refused=9101)
        assert await tx.lose_home(game_id, HomeSeat.BLACK, NOW, refused=9102)
        assert not await tx.lose_home(game_id, HomeSeat.BLACK, NOW, refused=9102)  # once
    assert await _unsent(store, game_id) == [white_post]
    black = (await store.homes(game_id))[1]
    assert black.lost_at == NOW
    # It moves to Bob's DMs (its channel to be made), found again, and posts again there.
    async with store.write() as tx:
        assert await tx.move_home_to_dm(game_id, HomeSeat.BLACK, BOB)
        assert not await tx.move_home_to_dm(game_id, HomeSeat.BLACK, BOB)  # in DMs already
    black = (await store.homes(game_id))[1]
    assert black.in_dms and (black.user_id, black.channel_id, black.lost_at) == (BOB, None, None)
    later_post = await _post(store, game_id, "B")
    async with store.write() as tx:
        assert await tx.set_home_channel(game_id, HomeSeat.BLACK, 9201, None)
        # White's home moves with its unsent post kept, to be posted in the DMs.
        assert await tx.move_home_to_dm(game_id, HomeSeat.WHITE, ANN)
    assert await _unsent(store, game_id) == [white_post, later_post]
    assert black_post not in await _unsent(store, game_id)
    with pytest.raises(ValueError, match="split"):
        async with store.write() as tx:
            await tx.move_home_to_dm(game_id, HomeSeat.BOTH, ANN)


async def test_a_home_of_both_players_is_split_into_two_dm_homes(store: Store) -> None:
    game_id = await _network_game(store, ANN, BOB, [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A)])
    other = await _network_game(
        store, CAT, DAN, [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A)], channel=9002
    )
    shared = await _post(store, game_id, "*")
    others = await _post(store, other, "*")
    async with store.write() as tx:
        assert await tx.split_shared_home(game_id, ANN, BOB, NOW)
        assert not await tx.split_shared_home(game_id, ANN, BOB, NOW)
    homes = await store.homes(game_id)
    assert [(h.seat, h.user_id, h.in_dms, h.ready) for h in homes] == [
        (HomeSeat.WHITE, ANN, True, False),
        (HomeSeat.BLACK, BOB, True, False),
    ]
    # Its unsent posts are given up (each new home starts from the board); the other game's
    # shared home is untouched.
    assert shared not in await _unsent(store, game_id)
    assert await _unsent(store, other) == [others]
    assert [h.seat for h in await store.homes(other)] == [HomeSeat.BOTH]


async def test_one_home_a_seat(store: Store) -> None:
    game_id = await _network_game(store, ANN, BOB, [NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A)])
    with pytest.raises(INTEGRITY):
        async with store.write() as tx:
            await tx.add_homes(game_id, [NewHome(HomeSeat.WHITE, user_id=ANN)], NOW)


async def test_the_running_games_homed_in_a_server(store: Store) -> None:
    running = await _network_game(
        store,
        ANN,
        BOB,
        [NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A), NewHome(HomeSeat.BLACK, user_id=BOB)],
    )
    pending = await _network_game(
        store,
        CAT,
        ANN,
        [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A)],
        channel=9002,
        status=GameStatus.PENDING,
    )
    ended = await _network_game(
        store, DAN, ANN, [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A)], channel=9003
    )
    await _end(store, ended, rated=True)
    elsewhere = await _network_game(
        store, DAN, EVE, [NewHome(HomeSeat.BOTH, GUILD_B, NETWORK_B)], channel=9004
    )
    assert await store.games_homed_in(GUILD_A, 50) == [running, pending]
    assert await store.games_homed_in(GUILD_A, 1) == [running]
    assert await store.games_homed_in(GUILD_B, 50) == [elsewhere]
    async with store.write() as tx:
        assert await tx.games_homed_in(GUILD_A, 50) == [running, pending]


async def test_a_dm_home_holds_several_network_games(store: Store) -> None:
    """The unique index of running games per channel is an ordinary game's only."""
    first = await _network_game(store, ANN, BOB, [NewHome(HomeSeat.WHITE, user_id=ANN)])
    second = await _network_game(store, ANN, CAT, [NewHome(HomeSeat.WHITE, user_id=ANN)])
    assert first != second
    for game_id in (first, second):
        game = await store.game(game_id)
        assert game is not None and game.is_active and game.channel_id == 9001


# --- open network challenges ------------------------------------------------------------------


async def test_the_open_network_challenges_a_player_may_take(store: Store) -> None:
    await _join(
        store,
        (ANN, "Ann", GUILD_A),
        (BOB, "Bob", GUILD_B),
        (CAT, "Cat", None),
        (DAN, "Dan", GUILD_A),
        (EVE, "Eve", GUILD_B),
    )
    anns = await _seek(store, ANN)
    bobs = await _seek(store, BOB, min_rating=1400, max_rating=1600)
    cats = await _seek(store, CAT, min_rating=1700)
    dans = await _seek(store, DAN, max_rating=1450)
    await _seek(store, EVE, opponent=ANN)  # direct: not open to anyone
    await _seek(store, EVE, expires=timedelta(seconds=-1))  # expired, not yet swept
    await _seek(store, EVE, network=False)  # the channel's own, not the network's
    closed = await _seek(store, EVE)
    async with store.write() as tx:
        await tx.close_challenge(closed, ChallengeStatus.CANCELLED, at=NOW, by=EVE)
        await tx.block(DAN, EVE, NOW)  # Dan blocked Eve
        await tx.block(EVE, CAT, NOW)  # Eve blocked Cat

    async def ids(
        viewer: int | None = None, rating: float | None = None, limit: int = 25
    ) -> list[int]:
        found = await store.open_network_challenges(NOW, viewer=viewer, rating=rating, limit=limit)
        return [c.id for c in found]

    assert await ids() == [dans, cats, bobs, anns]  # the newest first; no viewer: all
    assert await ids(limit=2) == [dans, cats]
    # Eve: not Dan's (he blocked her), not Cat's (she blocked Cat).
    assert await ids(viewer=EVE) == [bobs, anns]
    # Ann, rated 1500: Bob's range holds her, Cat's and Dan's do not; not her own.
    assert await ids(viewer=ANN, rating=1500.0) == [bobs]
    # As shown, rounded: 1450 is within Dan's range, 1451 is not.
    assert await ids(viewer=ANN, rating=1450.4) == [dans, bobs]
    assert await ids(viewer=ANN, rating=1450.6) == [bobs]
    assert await ids(viewer=BOB, rating=1700.2) == [cats, anns]
    # A challenger who left: their challenge is no one's to take.
    async with store.write() as tx:
        await tx.leave(BOB, NOW)
    assert await ids(viewer=EVE) == [anns]
    challenge = (await store.open_network_challenges(NOW, viewer=CAT))[0]
    assert challenge.network and challenge.id == dans and challenge.max_rating == 1450
    # The lobby's list of a channel's open challenges is the channel's own only.
    assert all(not c.network for c in await store.open_challenges(NETWORK_A))
    assert len(await store.open_challenges(NETWORK_A)) == 1


# --- the network leaderboard --------------------------------------------------------------------


async def test_the_network_leaderboard_is_of_members_now(store: Store) -> None:
    await _join(store, (ANN, "Ann", None), (BOB, "Bob", None), (CAT, "Cat", None))
    async with store.write() as tx:
        for player, rating, games in (
            (ANN, 1600.0, 5),
            (BOB, 1700.0, 4),
            (CAT, 1650.0, 2),  # too few games
            (DAN, 1800.0, 9),  # rated in the network but never joined (a forgotten member)
        ):
            await tx.save_rating(
                RatingRow(NETWORK_GUILD_ID, player, rating, 80.0, 0.06, games), NOW
            )
        await tx.save_rating(RatingRow(GUILD_A, EVE, 1900.0, 80.0, 0.06, 20), NOW)  # a server's
        await tx.save_rating(RatingRow(GUILD_A, ANN, 2000.0, 80.0, 0.06, 20), NOW)
    board = await store.network_leaderboard(min_games=3, limit=10)
    assert [(r.user_id, r.rating, r.guild_id) for r in board] == [
        (BOB, 1700.0, NETWORK_GUILD_ID),
        (ANN, 1600.0, NETWORK_GUILD_ID),
    ]
    assert [r.user_id for r in await store.network_leaderboard(min_games=2, limit=2)] == [BOB, CAT]
    async with store.write() as tx:
        await tx.leave(BOB, NOW)
    assert [r.user_id for r in await store.network_leaderboard(min_games=3, limit=10)] == [ANN]
    assert await store.rating(NETWORK_GUILD_ID, BOB) is not None  # kept until deleted


# --- deleting a player's network data -----------------------------------------------------------


async def test_network_data_is_deleted_once_no_network_game_of_theirs_runs(store: Store) -> None:
    await _join(store, (ANN, "Ann", None), (BOB, "Bob", GUILD_A), (CAT, "Cat", None))
    async with store.write() as tx:
        await tx.block(ANN, BOB, NOW)
        await tx.block(CAT, ANN, NOW)
        await tx.block(BOB, CAT, NOW)
        await tx.save_rating(RatingRow(NETWORK_GUILD_ID, ANN, 1600.0, 80.0, 0.06, 5), NOW)
        await tx.save_rating(RatingRow(GUILD_A, ANN, 1500.0, 80.0, 0.06, 5), NOW)
        championship = await tx.insert_tournament(
            NewTournament(
                guild_id=NETWORK_GUILD_ID,
                channel_id=0,
                name="Championship",
                format=TournamentFormat.LEAGUE,
                organiser_id=0,
                created_at=NOW,
                division_size=10,
            )
        )
        cup = await tx.insert_tournament(
            NewTournament(
                guild_id=GUILD_A,
                channel_id=NETWORK_A,
                name="A server's cup",
                format=TournamentFormat.ROUND_ROBIN,
                organiser_id=BOB,
                created_at=NOW,
            )
        )
        for tournament in (championship, cup):
            for seed, player in enumerate((BOB, ANN, CAT), start=1):
                await tx.add_entrant(Entrant(tournament.id, player, seed, NOW))
    game_id = await _network_game(
        store,
        ANN,
        BOB,
        [NewHome(HomeSeat.WHITE, user_id=ANN), NewHome(HomeSeat.BLACK, GUILD_A, NETWORK_A)],
    )
    async with store.write() as tx:
        assert await tx.mark_forget(ANN, NOW)
        assert not await tx.mark_forget(DAN, NOW)  # never joined
        assert await tx.members_to_forget(10) == []  # her game runs
        assert await tx.delete_member_data(ANN) is None
    ann = await store.member(ANN)
    assert ann is not None and not ann.is_member and ann.forget_at == NOW
    await _end(store, game_id, rated=False)
    async with store.write() as tx:
        assert await tx.members_to_forget(10) == []  # ended, not yet rated in the network
        assert await tx.delete_member_data(ANN) is None
    async with store.db.transaction() as conn:
        await conn.execute(
            "UPDATE games SET rated_at = ? WHERE id = ?", (time_to_text(NOW), game_id)
        )
    async with store.write() as tx:
        assert await tx.members_to_forget(10) == [ANN]
        deleted = await tx.delete_member_data(ANN)
    assert deleted == {
        "tournament_players": 1,  # the championship's, not yet begun
        "network_blocks": 2,
        "ratings": 1,  # the network's
        "game_homes": 1,
        "network_members": 1,
    }
    assert await store.member(ANN) is None
    assert await store.blocks_of(CAT) == [] and await store.blocked_either(BOB, CAT)
    assert await store.rating(NETWORK_GUILD_ID, ANN) is None
    assert await store.rating(GUILD_A, ANN) is not None  # a server's rating is the server's
    assert [h.user_id for h in await store.homes(game_id)] == [None, None]
    assert [(e.user_id, e.seed) for e in await store.entrants(championship.id)] == [
        (BOB, 1),
        (CAT, 2),
    ]
    assert [e.user_id for e in await store.entrants(cup.id)] == [BOB, ANN, CAT]
    game = await store.game(game_id)
    assert game is not None and game.white_id == ANN  # the game stays in the records
    async with store.write() as tx:
        assert await tx.members_to_forget(10) == []


async def test_a_championship_begun_keeps_its_entries(store: Store) -> None:
    await _join(store, (ANN, "Ann", None))
    async with store.write() as tx:
        running = await tx.insert_tournament(
            NewTournament(
                guild_id=NETWORK_GUILD_ID,
                channel_id=0,
                name="Championship",
                format=TournamentFormat.LEAGUE,
                organiser_id=0,
                created_at=NOW,
                division_size=10,
                status=TournamentStatus.RUNNING,
            )
        )
        await tx.add_entrant(Entrant(running.id, ANN, 1, NOW))
        await tx.mark_forget(ANN, NOW)
        assert await tx.delete_member_data(ANN) == {"network_members": 1}
    assert [e.user_id for e in await store.entrants(running.id)] == [ANN]


# --- the migration ------------------------------------------------------------------------------

NETWORK_MIGRATION = next(m.version for m in MIGRATIONS if m.name == "network")


async def _open_at(target: str, version: int | None) -> Database:
    """The database at ``target`` migrated up to ``version`` (``None``: the latest)."""
    if target.startswith("postgres"):
        from bot.storage.postgres import PostgresDatabase  # noqa: PLC0415 - psycopg

        return await PostgresDatabase.open(target, migrate_to=version)
    return await SQLiteDatabase.open(target, migrate_to=version)


async def test_a_database_with_running_games_migrates(database_target: str) -> None:
    old = await _open_at(database_target, NETWORK_MIGRATION - 1)
    position = rules.new_game().to_text()
    async with old.transaction() as conn:
        for player in (ANN, BOB, CAT):
            await conn.execute(
                "INSERT INTO players (user_id, created_at) VALUES (?, ?)",
                (player, time_to_text(NOW)),
            )
        for channel, status, white, black in (
            (1, "active", ANN, BOB),
            (2, "active", BOB, CAT),
            (1, "finished", CAT, ANN),
            (3, "pending", ANN, CAT),
        ):
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, status, position, "
                "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    GUILD_A,
                    channel,
                    white,
                    black,
                    status,
                    position,
                    time_to_text(NOW),
                    time_to_text(NOW),
                ),
            )
        await conn.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, status, created_at, "
            "expires_at) VALUES (?, 4, ?, 'open', ?, ?)",
            (GUILD_A, ANN, time_to_text(NOW), time_to_text(NOW + timedelta(days=1))),
        )
        await conn.execute(
            "INSERT INTO notifications (kind, game_id, created_at) VALUES ('turn', 1, ?)",
            (time_to_text(NOW),),
        )
    with pytest.raises(INTEGRITY):  # the index before
        async with old.transaction() as conn:
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, white_id, black_id, status, position, "
                "created_at, updated_at) VALUES (?, 1, ?, ?, 'active', ?, ?, ?)",
                (GUILD_A, CAT, BOB, position, time_to_text(NOW), time_to_text(NOW)),
            )
    await old.close()

    store = Store(await _open_at(database_target, None))
    try:
        games = [await store.game(g) for g in (1, 2, 3, 4)]
        assert [(g.channel_id, g.status, g.network) for g in games if g is not None] == [
            (1, GameStatus.ACTIVE, False),
            (2, GameStatus.ACTIVE, False),
            (1, GameStatus.FINISHED, False),
            (3, GameStatus.PENDING, False),
        ]
        running = await store.active_game_in_channel(1)
        assert running is not None and running.id == 1
        (challenge,) = await store.open_challenges(4)
        assert (challenge.network, challenge.min_rating, challenge.max_rating) == (
            False,
            None,
            None,
        )
        rows = await store.db.fetch_all("SELECT home FROM notifications")
        assert [row["home"] for row in rows] == [""]
        # The recreated index still refuses a second running ordinary game in a channel...
        with pytest.raises(ChannelTaken):
            async with store.write() as tx:
                await tx.insert_game(
                    NewGame(
                        guild_id=GUILD_A,
                        channel_id=1,
                        parent_channel_id=None,
                        challenge_id=None,
                        white_id=CAT,
                        black_id=BOB,
                        position=rules.new_game(),
                        clock_days=None,
                        deadline_at=None,
                        created_at=NOW,
                    )
                )
        # ... and takes network games where an ordinary one runs, two of them.
        for white in (CAT, ANN):
            async with store.write() as tx:
                await tx.insert_game(
                    NewGame(
                        guild_id=None,
                        channel_id=1,
                        parent_channel_id=None,
                        challenge_id=None,
                        white_id=white,
                        black_id=BOB,
                        position=rules.new_game(),
                        clock_days=None,
                        deadline_at=None,
                        created_at=NOW,
                        network=True,
                    )
                )
        running = await store.active_game_in_channel(2)
        assert running is not None and running.id == 2
    finally:
        await store.close()


@pytest.mark.postgres
async def test_the_network_tables_copy_from_sqlite_to_postgresql(
    tmp_path: Path, postgres_url: str
) -> None:
    """The two migrations made the same tables: an SQLite file's network rows copy whole."""
    path = tmp_path / "dvonn.sqlite3"
    lite = Store(await SQLiteDatabase.open(path))
    try:
        async with lite.write() as tx:
            await tx.ensure_players([ANN, BOB, CAT], NOW)
        await _join(lite, (ANN, "Ann", GUILD_A), (BOB, "Bob", None), (CAT, "Cat", GUILD_A))
        async with lite.write() as tx:
            await tx.set_channel(GUILD_A, NETWORK_A, ANN, NOW)
            await tx.set_board(GUILD_A, 555, await tx.bump_seeks(), NOW)
            await tx.block(CAT, BOB, NOW)
        await _seek(lite, ANN, min_rating=1300, max_rating=1700)
        game_id = await _network_game(
            lite,
            ANN,
            BOB,
            [NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A), NewHome(HomeSeat.BLACK, user_id=BOB)],
        )
        await _post(lite, game_id, "B")
        expected = (
            [await lite.member(p) for p in (ANN, BOB, CAT)],
            await lite.network_server(GUILD_A),
            await lite.homes(game_id),
            await lite.open_network_challenges(NOW, viewer=BOB, rating=1500.0),
            await lite.game(game_id),
        )
    finally:
        await lite.close()

    report = await copy_database(path, postgres_url)

    assert {
        table: report.rows[table]
        for table in (
            "network_members",
            "network_servers",
            "network_state",
            "network_blocks",
            "game_homes",
        )
    } == {
        "network_members": 3,
        "network_servers": 1,
        "network_state": 1,
        "network_blocks": 1,
        "game_homes": 2,
    }
    pg = Store(await open_database(postgres_url))
    try:
        assert (
            [await pg.member(p) for p in (ANN, BOB, CAT)],
            await pg.network_server(GUILD_A),
            await pg.homes(game_id),
            await pg.open_network_challenges(NOW, viewer=BOB, rating=1500.0),
            await pg.game(game_id),
        ) == expected
        assert await pg.seeks_version() == 1 and await pg.blocked_either(BOB, CAT)
        rows = await pg.db.fetch_all("SELECT home FROM notifications")
        assert [row["home"] for row in rows] == ["B"]
    finally:
        await pg.close()
