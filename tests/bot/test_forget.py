"""Forgetting a player (``python -m bot forget``), on both backends: their own rows go, their id
leaves every table, and the others' games, ratings and tournaments stay whole and still show.
A player still playing is refused, with nothing changed; the command runs on an SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import discord
import pytest

import rules
from bot.__main__ import main
from bot.exts.tournaments.texts import standings_table
from bot.games.lessons import book
from bot.games.lobby.errors import RematchOfFormerPlayer
from bot.games.service import GameService
from bot.games.tournaments.tables import table
from bot.i18n import Catalogues
from bot.posting.names import Names
from bot.posting.publisher import Reader
from bot.posting.texts import Players, board_post, mention
from bot.single import only_process
from bot.storage import (
    NETWORK_GUILD_ID,
    BoardTheme,
    ChallengeStatus,
    GameStatus,
    HomeSeat,
    NewChallenge,
    NewGame,
    NewHome,
    NotAPlayerId,
    Result,
    SQLiteDatabase,
    StillPlaying,
    Store,
    TournamentFormat,
    is_placeholder,
)
from render.standings import standings_png
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import play_moves, start_game

# Snowflake-like ids, as Discord's are: none is also a game's number, a ply or a count.
ALICE, BOB, CAROL = 412345678901234567, 523456789012345678, 634567890123456789
GUILD, CHANNEL = 745678901234567890, 856789012345678901
NETWORK_CHANNEL = 878901234567890123
THREADS = iter(range(967_890_123_456_789_012, 967_890_123_456_799_012))


async def columns(store: Store) -> list[tuple[str, str]]:
    """Every column of every table, read from the database's own catalogue."""
    if store.db.kind == "sqlite":
        tables = await store.db.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
        found = []
        for row in tables:
            for column in await store.db.fetch_all(f"PRAGMA table_info({row['name']})"):
                found.append((str(row["name"]), str(column["name"])))
        return found
    rows = await store.db.fetch_all(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema()"
    )
    return [(str(row["table_name"]), str(row["column_name"])) for row in rows]


async def holding(store: Store, user_id: int) -> dict[str, int]:
    """Rows holding ``user_id`` (as a whole value, or inside text such as JSON), by column."""
    found = {}
    for table_name, column in await columns(store):
        row = await store.db.fetch_one(
            f'SELECT count(*) FROM "{table_name}" WHERE CAST("{column}" AS TEXT) LIKE ?',
            (f"%{user_id}%",),
        )
        assert row is not None
        if row[0]:
            found[f"{table_name}.{column}"] = int(row[0])
    return found


@dataclass
class History:
    """What Alice, Bob and Carol did together before Alice asked to be forgotten."""

    games: list[int]
    """Alice's finished games with Bob."""
    tournament: int
    network_game: int
    """Her finished network game with Bob."""


async def history(service: GameService) -> History:
    """Alice's preferences, two finished rated games against Bob (one with its channel lost,
    which told both by DM), a puzzle failed, a lesson done and another begun (and the lessons
    offered), a challenge to Carol still open, and a round robin
    she organised and withdrew from (its news names her) that Bob and Carol finished."""
    await service.remember_locale(ALICE, "pl")
    await service.save_theme(ALICE, BoardTheme.LIGHT)
    first = await start_game(service, ALICE, BOB, guild=GUILD, channel=CHANNEL)
    first = await play_moves(service, first, ["E3", "F3", "D3"])
    assert await service.lose_channel(first.id)
    await service.resign(first.id, ALICE)
    second = await start_game(service, BOB, ALICE, guild=GUILD, channel=CHANNEL + 1)
    await service.resign(second.id, BOB)
    shown = await service.puzzles.start(ALICE)
    right = shown.puzzle.line[0]
    wrong = next(m for m in rules.legal_moves(shown.position) if m != right)
    assert (await service.puzzles.play(ALICE, wrong)).over
    short = next(each for each in book.LESSONS if len(each.tasks) == 1)
    task = short.tasks[0]
    assert isinstance(task, book.MoveTask)
    await service.lessons.start(ALICE, short.key)
    right = next(m for m in rules.legal_moves(task.position) if book.judge(task, m).right)
    assert (await service.lessons.try_move(ALICE, right)).finished  # a lesson done
    await service.lessons.start(ALICE, book.LESSONS[0].key)  # and one running
    async with service.store.write() as tx:
        assert await tx.mark_offered(ALICE, service.now())
    challenge = await service.create_challenge(
        guild_id=GUILD, channel_id=CHANNEL + 2, challenger_id=ALICE, opponent_id=CAROL
    )
    assert challenge.status is ChallengeStatus.OPEN
    cup = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 3,
        by=ALICE,
        organiser=True,
        name="Autumn Cup",
        format=TournamentFormat.ROUND_ROBIN,
        max_players=3,
    )
    for player in (ALICE, BOB, CAROL):
        await service.tournaments.join(cup.id, player)
    paired = [p.game_id for p in (await service.tournaments.standing(cup.id)).pairings]
    games = [game_id for game_id in paired if game_id is not None]  # the others are byes
    for game_id in games:
        await service.tournaments.begin_game(game_id, next(THREADS), CHANNEL + 3)
    await service.tournaments.withdraw(cup.id, ALICE)
    for game_id in games:
        game = await service.get_game(game_id)
        if game.is_active:
            await service.resign(game.id, CAROL)
    assert not (await service.tournaments.get(cup.id)).is_running
    return History([first.id, second.id], cup.id, await network_history(service))


async def network_history(service: GameService) -> int:
    """In the network (written through its storage: no command writes there yet): Alice, Bob
    and Carol joined, Alice named the server's network channel, blocked Carol and was blocked
    by Bob, made an open network challenge, and resigned a network game to Bob played from her
    DMs and his server (both rated in the network, as its rating will do); its id."""
    store = service.store
    now = service.now()
    async with store.write() as tx:
        await tx.ensure_players([ALICE, BOB, CAROL], now)
        await tx.join(ALICE, "alice", None, now)
        await tx.join(BOB, "bob", GUILD, now)
        await tx.join(CAROL, "carol", GUILD, now)
        await tx.set_channel(GUILD, NETWORK_CHANNEL, ALICE, now)
        assert await tx.block(ALICE, CAROL, now) and await tx.block(BOB, ALICE, now)
        await tx.insert_challenge(
            NewChallenge(
                guild_id=None,
                channel_id=next(THREADS),
                challenger_id=ALICE,
                opponent_id=None,
                challenger_colour=None,
                clock_days=3,
                created_at=now,
                expires_at=now + timedelta(days=2),
                network=True,
                min_rating=1200,
            )
        )
        dm, thread = next(THREADS), next(THREADS)
        game = await tx.insert_game(
            NewGame(
                guild_id=None,
                channel_id=dm,
                parent_channel_id=None,
                challenge_id=None,
                white_id=ALICE,
                black_id=BOB,
                position=rules.new_game(),
                clock_days=3,
                deadline_at=None,
                created_at=now,
                network=True,
            )
        )
        await tx.add_homes(
            game.id,
            [
                NewHome(HomeSeat.WHITE, user_id=ALICE, channel_id=dm),
                NewHome(HomeSeat.BLACK, GUILD, NETWORK_CHANNEL, channel_id=thread),
            ],
            now,
        )
    await service.resign(game.id, ALICE)  # rated in the network's ratings (guild 0), at once
    async with store.write() as tx:
        assert not await tx.claim_for_rating(game.id, now)
        for player in (ALICE, BOB):
            assert await tx.rating(NETWORK_GUILD_ID, player) is not None
    return game.id


async def test_a_forgotten_player_leaves_no_trace_and_the_others_records_stay_whole(
    service: GameService,
) -> None:
    store = service.store
    past = await history(service)
    assert set(await holding(store, ALICE)) >= {
        "players.user_id",
        "ratings.user_id",
        "puzzle_ratings.user_id",
        "puzzle_attempts.user_id",
        "lesson_learners.user_id",
        "lesson_attempts.user_id",
        "lessons_done.user_id",
        "games.white_id",
        "games.black_id",
        "games.ended_by",
        "moves.player_id",
        "challenges.challenger_id",
        "tournaments.organiser_id",
        "tournament_players.user_id",
        "tournament_games.white_id",
        "notifications.user_id",
        "notifications.payload",
        "network_members.user_id",
        "network_blocks.blocker_id",
        "network_blocks.blocked_id",
        "network_servers.joined_by",
        "game_homes.user_id",
    }
    ratings = {p: await store.rating(GUILD, p) for p in (BOB, CAROL)}
    bobs_network_rating = await store.rating(NETWORK_GUILD_ID, BOB)
    assert bobs_network_rating is not None
    records = [(await service.record(g)).text for g in past.games]
    before = await service.tournaments.standing(past.tournament)
    ranked = table(before.tournament, before.entrants, before.pairings)

    forgotten = await store.forget_player(ALICE, service.now())

    assert await holding(store, ALICE) == {}
    placeholder = forgotten.placeholder
    assert placeholder is not None and is_placeholder(placeholder)
    assert forgotten.deleted["players"] == 1
    assert forgotten.deleted["ratings"] == 2  # one server, and the network
    assert forgotten.deleted["puzzle_ratings"] == forgotten.deleted["puzzle_attempts"] == 1
    assert forgotten.deleted["lesson_attempts"] == 2
    assert forgotten.deleted["lessons_done"] == forgotten.deleted["lesson_learners"] == 1
    assert forgotten.deleted["challenges"] == 2  # the open ones; the games' challenges stay
    assert forgotten.deleted["notifications"] == 1  # the DM about the lost channel
    assert forgotten.deleted["network_members"] == 1
    assert forgotten.deleted["network_blocks"] == 2  # hers of Carol, Bob's of her
    assert forgotten.anonymised["games.white_id"] == 3  # with Bob, of the cup, in the network
    assert forgotten.anonymised["game_homes.user_id"] == 1  # her DM home
    assert forgotten.anonymised["network_servers.joined_by"] == 1
    assert forgotten.anonymised["tournament_players.user_id"] == 1
    assert forgotten.anonymised["tournaments.organiser_id"] == 1
    assert forgotten.anonymised["notifications.payload"] >= 1  # "withdrawn" in the cup's news
    # Her preferences are gone: asked again, they are the defaults.
    prefs = await service.prefs(ALICE)
    assert (prefs.locale, prefs.theme) == (None, None)
    # Bob's and Carol's ratings, Bob's games and their records are as they were.
    assert {p: await store.rating(GUILD, p) for p in (BOB, CAROL)} == ratings
    assert await store.rating(NETWORK_GUILD_ID, BOB) == bobs_network_rating
    assert [m.name for m in await store.search_names("")] == ["bob", "carol"]
    assert await store.blocks_of(BOB) == []
    server = await store.network_server(GUILD)
    assert server is not None and server.joined_by == placeholder and server.is_live
    homes = await store.homes(past.network_game)
    assert [(h.seat, h.user_id, h.guild_id) for h in homes] == [
        (HomeSeat.WHITE, placeholder, None),
        (HomeSeat.BLACK, None, GUILD),
    ]
    assert [(await service.record(g)).text for g in past.games] == records
    first = await service.get_game(past.games[0])
    assert (first.white_id, first.black_id, first.ended_by) == (placeholder, BOB, placeholder)
    assert first.status is GameStatus.FINISHED and first.result is Result.BLACK
    for ply in range(first.ply + 1):
        await service.position_at(first.id, ply)
    profile = await service.ratings.profile(GUILD, BOB)
    assert profile.rating == ratings[BOB]
    # The cup's standings count the same points, the placeholder in Alice's place.
    after = await service.tournaments.standing(past.tournament)
    renamed = {ALICE: placeholder}
    assert [
        (r.player, r.points, r.games)
        for r in table(after.tournament, after.entrants, after.pairings)
    ] == [(renamed.get(r.player, r.player), r.points, r.games) for r in ranked]
    # And they still show: the standings table and image, a board post of the game.
    names = Names(cast(discord.Client, _Client()))
    english = Reader(Catalogues(), "en-US")
    drawn = await standings_table(after, names.get, english)
    assert f"#{placeholder}" in [row.name for row in drawn.rows]
    assert standings_png(drawn)
    post = board_post(first, Players(await names.get(placeholder), await names.get(BOB)))
    assert all(english(line) for line in (post.title, *post.lines))


async def test_forgetting_twice_gives_each_their_own_placeholder_and_a_dry_run_changes_nothing(
    service: GameService,
) -> None:
    store = service.store
    await history(service)
    dry = await store.forget_player(ALICE, service.now(), dry_run=True)
    assert dry.anything and dry.placeholder == -1
    assert "players.user_id" in await holding(store, ALICE)  # nothing changed
    done = await store.forget_player(ALICE, service.now())
    assert (done.deleted, done.anonymised, done.placeholder) == (
        dry.deleted,
        dry.anonymised,
        dry.placeholder,
    )
    # Bob, forgotten next, gets another: their games together keep two distinct players.
    bob = await store.forget_player(BOB, service.now())
    assert bob.placeholder == -2
    assert await holding(store, BOB) == {}
    game = await service.get_game(1)
    assert {game.white_id, game.black_id} == {-1, -2}
    # Forgotten already: nothing is kept about them now.
    again = await store.forget_player(ALICE, service.now())
    assert not again.anything and again.placeholder is None
    with pytest.raises(NotAPlayerId):
        await store.forget_player(-1, service.now())


async def test_a_player_still_playing_is_refused_and_nothing_changes(
    service: GameService,
) -> None:
    store = service.store
    await service.remember_locale(ALICE, "pl")
    running = await start_game(service, ALICE, BOB, guild=GUILD, channel=CHANNEL)
    cup = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 3,
        by=BOB,
        organiser=True,
        name="Winter Cup",
        format=TournamentFormat.ROUND_ROBIN,
        max_players=3,
    )
    for player in (ALICE, BOB, CAROL):
        await service.tournaments.join(cup.id, player)
    before = await holding(store, ALICE)
    for dry_run in (True, False):
        with pytest.raises(StillPlaying) as refused:
            await store.forget_player(ALICE, service.now(), dry_run=dry_run)
        listed = {(b.what, b.id) for b in refused.value.blockers}
        assert ("game", running.id) in listed
        assert ("tournament", cup.id) in listed
        assert sum(b.what == "game" for b in refused.value.blockers) == 3  # two paired for the cup
        assert f"game {running.id}" in str(refused.value)
    assert await holding(store, ALICE) == before
    assert (await service.prefs(ALICE)).locale == "pl"
    # Once the game is over and she has left the cup, she can be forgotten; but not while a
    # game of hers waits to be rated (a crash came between its end and its rating): rated
    # later, it would give the placeholder a rating.
    await service.abort(running.id, BOB, moderator=True)
    await service.tournaments.withdraw(cup.id, ALICE)
    await service.ratings.rate_finished_games()
    ended = await start_game(service, ALICE, CAROL, guild=GUILD, channel=CHANNEL + 1)
    await service.resign(ended.id, ALICE)
    async with store.db.transaction() as conn:
        await conn.execute("UPDATE games SET rated_at = NULL WHERE id = ?", (ended.id,))
    with pytest.raises(StillPlaying) as refused:
        await store.forget_player(ALICE, service.now())
    assert [(b.what, b.id) for b in refused.value.blockers] == [("unrated game", ended.id)]
    assert await service.ratings.rate_finished_games() == 1
    assert (await store.forget_player(ALICE, service.now())).anything
    assert await holding(store, ALICE) == {}


async def test_a_network_game_not_yet_rated_holds_the_forgetting_back(
    service: GameService,
) -> None:
    """Rated later, it would give the placeholder a network rating."""
    store = service.store
    game_id = await network_history(service)
    async with store.db.transaction() as conn:
        await conn.execute("UPDATE games SET rated_at = NULL WHERE id = ?", (game_id,))
    before = await holding(store, ALICE)
    with pytest.raises(StillPlaying) as refused:
        await store.forget_player(ALICE, service.now())
    assert [(b.what, b.id) for b in refused.value.blockers] == [("unrated game", game_id)]
    assert await holding(store, ALICE) == before


def test_the_command_forgets_a_player_in_an_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "dvonn.sqlite3"
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("DVONN_DATABASE", str(database))

    def on_file(use: Callable[[GameService], Awaitable[Any]]) -> Any:
        async def run() -> Any:
            clock = ManualClock()
            service = GameService(
                Store(await SQLiteDatabase.open(database)), clock=clock, rng=random.Random(5)
            )
            try:
                return await use(service)
            finally:
                await service.close()

        return asyncio.run(run())

    assert main(["forget", str(ALICE)]) == 1  # no database yet: not made by the command
    assert "no database" in capsys.readouterr().err
    game = on_file(lambda service: start_game(service, ALICE, BOB, guild=GUILD))
    assert main(["forget", str(ALICE)]) == 1
    assert f"game {game.id}: active" in capsys.readouterr().err
    on_file(lambda service: service.resign(game.id, ALICE))

    with only_process(database):  # the bot still runs on the file: stop it first
        assert main(["forget", str(ALICE)]) == 1
        assert "in use by dvonn-bot" in capsys.readouterr().err
        assert main(["forget", str(ALICE), "--dry-run"]) == 0  # it changes nothing
        assert "dry run, nothing changed" in capsys.readouterr().out
    assert main(["forget", str(ALICE), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "dry run, nothing changed" in out and "games.white_id" in out
    assert main(["forget", str(ALICE)]) == 0
    out = capsys.readouterr().out
    assert f"forgot player {ALICE}" in out and "now name player -1" in out
    assert "deleted" in out and "players" in out and "ratings" in out
    assert on_file(lambda service: holding(service.store, ALICE)) == {}
    assert main(["forget", str(ALICE)]) == 0
    assert "nothing is kept about player" in capsys.readouterr().out


async def test_a_placeholders_name_is_never_asked_of_discord_nor_mentioned() -> None:
    names = Names(cast(discord.Client, _Client()))
    assert await names.get(-3) == "#-3"
    assert await names.get(BOB) == "Bob"
    assert (mention(-3), mention(BOB)) == ("#-3", f"<@{BOB}>")


class _Client:
    """Discord as far as :class:`Names` asks it: a placeholder's name must never be asked."""

    def get_user(self, user_id: int) -> None:
        assert user_id > 0, "a placeholder is no Discord user"

    async def fetch_user(self, user_id: int) -> Any:
        assert user_id > 0, "a placeholder is no Discord user"
        return _User({BOB: "Bob", CAROL: "Carol"}.get(user_id, str(user_id)), user_id)


@dataclass
class _User:
    display_name: str
    id: int


async def test_no_rematch_is_offered_to_a_forgotten_player(service: GameService) -> None:
    """The Rematch button under an old game stays, but nobody is left to accept: the player
    who asks is told so, privately, and no challenge is made."""
    await history(service)
    await service.store.forget_player(ALICE, service.now())
    with pytest.raises(RematchOfFormerPlayer):
        await service.offer_rematch(1, BOB, channel_id=CHANNEL)
    assert await service.open_challenges(CHANNEL) == []


async def test_an_entry_in_a_tournament_not_begun_is_taken_back_and_the_seeds_close_up(
    service: GameService,
) -> None:
    cup = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL + 3,
        by=BOB,
        organiser=True,
        name="Spring Cup",
        format=TournamentFormat.ROUND_ROBIN,
        max_players=4,
    )
    for player in (ALICE, BOB, CAROL):
        await service.tournaments.join(cup.id, player)
    forgotten = await service.store.forget_player(ALICE, service.now())
    assert forgotten.deleted["tournament_players"] == 1
    entrants = (await service.tournaments.standing(cup.id)).entrants
    assert [(e.user_id, e.seed) for e in entrants] == [(BOB, 1), (CAROL, 2)]
