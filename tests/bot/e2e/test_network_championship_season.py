"""A whole season of the network championship played through the fake Discord with the real
discord.py client, the bot on its **default settings** (the network on, the championship opened
when first asked for, its first season a week later); only its clock is a hand-moved one, and
its housekeeping passes are run by the test when the clock has moved.

Three servers take part (their moderators name their network channels), fifteen players join
and enter from their servers' channels, one of them (Dana, who installed the app to her
account) from her DMs. A week later the first season begins: a pyramid of two levels (division
1 of ten, division 2 of five, by network rating, ties by entry). Every game is played to its end
from the players' homes, the threads of their servers' network channels and Dana's DMs: most by
the loser's ``/dvonn resign`` and its button (the better seeded always wins), one by moves. A
newcomer enters mid-season; the standings are asked for in a network channel, marking who goes
up and who down; the last game's end begins the next season by itself: the first two of
division 2 up, the last two of division 1 down, the newcomer in the lowest level.

SQLite only: the championship on each backend is tested in test_network_championship.py; this
test's point is a season through Discord, 55 games, and it takes long enough once."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

import rules
from bot.app import DvonnBot
from bot.config import FIRST_SEASON_WAIT, Secret, Settings
from bot.exts.network.championship import CHAMPIONSHIP, ENTER_ID
from bot.i18n import _, n_
from bot.storage import Tournament, TournamentGame
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult
from tests.fakediscord.harness import discord_endpoints, running

pytestmark = [pytest.mark.slow, pytest.mark.machine_speed]

EXTRA_HOMES = (0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1)
"""The servers of the members besides Ann, Bob, Cat and Eve: ten to enter before the first
season, and a newcomer. Division 2's last two (the ninth and tenth) are both of the third
server: the game they play by moves has one home, a thread both play from, so each turn is one
board to draw, not two (cross-server games by moves: test_network_games.py)."""


@dataclass(frozen=True)
class Player:
    user: FakeUser
    server: int | None
    """The server whose network channel is their home; ``None``: their DMs."""

    @property
    def name(self) -> str:
        return self.user.global_name or self.user.username


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def default_bot(
    network_tables: NetworkTables, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[DvonnBot]:
    """The bot on the default settings, as an operator who set only the token would run it
    (pointed at the fake Discord, boards drawn in threads), its clock moved by hand and its
    housekeeping run by the test."""
    fake = network_tables.fake
    settings = Settings(
        token=Secret(fake.token),
        database=tmp_path / "dvonn.sqlite3",
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        render_processes=0,
    )
    bot = DvonnBot(settings, sync_commands=True, clock=clock, housekeeping_interval=0)
    with discord_endpoints(fake):
        async with running(bot, fake) as started:
            yield started


async def eventually(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60) -> None:
    """Wait until ``check()`` holds (what the bot does after answering: posts, homes)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


def private(reply: InteractionResult) -> str:
    assert reply.ephemeral, reply.content
    return reply.content


ROW = re.compile(r"^(?P<rank>\d+)\. (?P<name>.+?)(?: \((?P<mark>[^()]+)\))?: ")


def division_line(*, season: int, division: int, level: int) -> str:
    """The line above a division's standings image, sixteen players in (the newcomer too)."""
    line = n_(
        "{name}: season {season}, division {division} of {divisions} (level {level}); "
        "{count} player in.",
        "{name}: season {season}, division {division} of {divisions} (level {level}); "
        "{count} players in.",
        16,
    )
    return said(
        line,
        name=CHAMPIONSHIP,
        season=season,
        division=division,
        divisions=2,
        level=level,
        count=16,
    )


def rows_of(reply: InteractionResult) -> dict[str, str | None]:
    """The standings image's players (its description, what a screen reader says), each with
    their mark ("moves up", "moves down") or ``None``."""
    assert [f.filename for f in reply.files] == ["championship.png"], reply.content
    assert reply.files[0].data.startswith(b"\x89PNG")
    lines = (reply.files[0].description or "").splitlines()[1:]
    found = {}
    for line in lines:
        match = ROW.match(line)
        assert match is not None, line
        found[match["name"]] = match["mark"]
    return found


async def test_a_whole_season_is_played_through_discord_and_the_next_begins_by_itself(
    network_tables: NetworkTables, default_bot: DvonnBot, clock: ManualClock
) -> None:
    tables, fake, bot = network_tables, network_tables.fake, default_bot
    service = bot.service
    assert bot.settings.network and bot.settings.network_season_start == FIRST_SEASON_WAIT
    opened = clock()

    # The servers take part; the players join from their servers (home: its network channel),
    # Dana from her DMs (home: there).
    for server in range(3):
        named = await fake.run_command(
            tables.moderators[server],
            tables.generals[server],
            "network server",
            {"channel": tables.networks[server]},
        )
        assert private(named)
    dana = Player(tables.dana, None)
    ann, bob, cat = (Player(user, server) for server, user in enumerate(tables.players))
    extras = [
        Player(fake.add_user(f"player{n:02d}", tables.guilds[server]), server)
        for n, server in enumerate(EXTRA_HOMES, start=1)
    ]
    entering = [dana, ann, bob, cat, Player(tables.eve, 0), *extras[:-1]]
    newcomer = extras[-1]
    dms = fake.world.open_dm(dana.user.id)
    for player in [*entering, newcomer]:
        where = dms if player.server is None else tables.generals[player.server]
        assert private(await fake.run_command(player.user, where, "network join"))

    # The championship opens when first asked for (here; else at the housekeeping pass after
    # the network's first member joined): its first season a week later, shown as a Discord
    # timestamp; each server's network channel shows it, with an Enter button.
    assert await service.championship.current() is None
    starts = opened + FIRST_SEASON_WAIT
    stamp = f"<t:{int(starts.timestamp())}:f>"
    posts = []
    for server in range(3):
        shown = await fake.run_command(
            tables.moderators[server], tables.networks[server], "network championship"
        )
        assert not shown.ephemeral and shown.message is not None
        line = n_(
            "{name}: {count} player entered; its first season begins {start}.",
            "{name}: {count} players entered; its first season begins {start}.",
            0,
        )
        assert said_pattern(line, name=CHAMPIONSHIP, count=0).fullmatch(shown.content)
        assert stamp in shown.content and f"<t:{int(starts.timestamp())}:R>" in shown.content
        posts.append(shown.message)
    made = await service.championship.current()
    assert made is not None and made.starts_at == starts and made.season is None

    # Fifteen enter, in this order (their seeds: all have the start rating): Dana with the
    # option in her DMs, the others by the Enter button in their network channel or the option.
    for number, player in enumerate(entering, start=1):
        if player.server is None:
            reply = await fake.run_command(
                player.user, dms, "network championship", {"enter": True}
            )
        elif number % 2:
            reply = await fake.click(player.user, posts[player.server], ENTER_ID)
        else:
            reply = await fake.run_command(
                player.user, tables.generals[player.server], "network championship", {"enter": True}
            )
        assert f"({number} player" in private(reply) and stamp in reply.content

    # Nothing begins before the week is out; then the housekeeping pass begins it.
    clock.advance(starts - clock() - timedelta(minutes=1))
    await bot.housekeeping()
    championship = await service.championship.current()
    assert championship is not None and championship.season is None
    clock.advance(minutes=2)
    await bot.housekeeping()
    championship = await service.championship.current()
    assert championship is not None and championship.season == 1

    # Two divisions: the first ten entered (Dana first), then five.
    season = (await service.tournaments.standing(championship.id)).divisions
    assert [s.tournament.division for s in season] == [1, 2]
    by_id = {p.user.id: p for p in [*entering, newcomer]}
    seeds = [
        [by_id[e.user_id] for e in sorted(part.entrants, key=lambda e: e.seed)] for part in season
    ]
    assert seeds == [entering[:10], entering[10:]]
    games = [[p for p in part.pairings if not p.is_bye] for part in season]
    assert [len(g) for g in games] == [45, 10]

    # Every game's homes are made and show its first board: a thread of each server player's
    # network channel (two members of one server share one), Dana's DMs.
    def home(player: Player, game_id: int) -> FakeChannel | None:
        if player.server is None:
            return dms
        threads = fake.threads_in(tables.networks[player.server])
        return next((t for t in threads if t.name.startswith(f"#{game_id} ")), None)

    def has_board(player: Player, game_id: int) -> bool:
        channel = home(player, game_id)
        return channel is not None and any(
            m.embed_image() is not None and f"#{game_id}:" in m.embeds[0].get("title", "")
            for m in fake.messages_in(channel)
        )

    def boards_out(pairings: list[TournamentGame]) -> Callable[[], Awaitable[bool]]:
        async def out() -> bool:
            return all(
                has_board(by_id[g.white_id], g.game_id or 0)
                and has_board(by_id[g.black_id or 0], g.game_id or 0)
                for g in pairings
            )

        return out

    every = [g for division in games for g in division]
    await eventually(boards_out(every), "the first board of every game in both homes")

    # The games are played from the homes: the better seeded wins; the loser resigns from
    # their home with /dvonn resign and its button. Division 2's last two play theirs by moves,
    # last of all.
    rank = {p.user.id: index for division in seeds for index, p in enumerate(division)}
    by_moves = next(
        g
        for g in games[1]
        if {g.white_id, g.black_id} == {seeds[1][3].user.id, seeds[1][4].user.id}
    )
    for pairing in every:
        if pairing is by_moves:
            continue
        assert pairing.game_id is not None and pairing.black_id is not None
        loser = by_id[max(pairing.white_id, pairing.black_id, key=rank.__getitem__)]
        assert loser is not dana  # she is the first seed: her opponents resign
        await resign(tables, loser, home(loser, pairing.game_id), pairing.game_id)

    # A newcomer enters mid-season: they play from the next one.
    came = await fake.run_command(
        newcomer.user,
        tables.generals[newcomer.server or 0],
        "network championship",
        {"enter": True},
    )
    newcomer_text = _(
        "You are in the network championship: you play from its next season, in the lowest "
        "level. Your games are played in your network home."
    )
    assert said(newcomer_text) in private(came)

    # The standings, asked for in a network channel: for everyone, as an image, marking who
    # moves up (division 2's first two) and down (division 1's last two) were it over now.
    first = await fake.run_command(ann.user, tables.networks[0], "network championship")
    assert not first.ephemeral
    head = division_line(season=1, division=1, level=1)
    assert first.content == head
    up, down = said(_("moves up")), said(_("moves down"))
    assert rows_of(first) == {p.name: down if p in seeds[0][8:] else None for p in seeds[0]}
    assert list(rows_of(first)) == [p.name for p in seeds[0]]  # Dana first: nine wins
    second = await fake.run_command(
        bob.user, tables.networks[1], "network championship", {"division": 2}
    )
    assert second.content == division_line(season=1, division=2, level=2)
    assert rows_of(second) == {p.name: up if p in seeds[1][:2] else None for p in seeds[1]}

    # The last game, by moves from the players' shared home; its end begins the next season by
    # itself.
    white, black = by_id[by_moves.white_id], by_id[by_moves.black_id or 0]
    assert white.server == black.server == 2 and home(white, by_moves.game_id or 0) is not None
    assert by_moves.game_id is not None
    homes = {rules.Colour.WHITE: white, rules.Colour.BLACK: black}
    game_id = by_moves.game_id
    position = (await service.get_game(game_id)).position
    rng = random.Random(3)
    turns = 0
    while not rules.is_over(position):
        mover = homes[position.turn]
        channel = home(mover, game_id)
        assert channel is not None
        move = rng.choice(rules.legal_moves(position))
        turn = await play_turn(fake, mover.user, channel, move, typed=turns % 7 == 3)
        assert turn.post is not None, f"{move}: {turn.reply.content}"
        turns += 1
        position = rules.play(position, move)
        while not rules.is_over(position) and rules.legal_moves(position) == (rules.PASS,):
            position = rules.play(position, rules.PASS)
    game = await service.get_game(game_id)
    assert not game.is_active and game.position == position and turns > 49

    async def next_season() -> bool:
        now = await service.championship.current()
        return now is not None and now.season == 2

    await eventually(next_season, "the next season", timeout=10)
    now = await service.championship.current()
    assert isinstance(now, Tournament) and now.season == 2
    season_two = (await service.tournaments.standing(now.id)).divisions
    placed = [{by_id[e.user_id] for e in part.entrants} for part in season_two]
    assert placed == [
        {*seeds[0][:8], *seeds[1][:2]},
        {*seeds[0][8:], *seeds[1][2:], newcomer},
    ]

    # Its games begin, all at once, in their players' homes (the newcomer's too), and the
    # newcomer sees their division of it in their network channel.
    new_games = [[p for p in part.pairings if not p.is_bye] for part in season_two]
    assert [len(g) for g in new_games] == [45, 15]
    every = [g for division in new_games for g in division]
    season_out = boards_out(every)

    async def polled() -> bool:
        # The outbox's poll, every few seconds (DVONN_OUTBOX_POLL_SECONDS), which does not run
        # by itself here (housekeeping_interval=0): a look at the outbox takes a hundred rows at
        # most, and the next season's homes are more; those beyond are the next look's.
        await bot.deliverer.deliver_pending()
        return await season_out()

    await eventually(polled, "the next season's first boards in both homes")
    theirs = await fake.run_command(
        newcomer.user, tables.networks[newcomer.server or 0], "network championship"
    )
    assert not theirs.ephemeral
    assert theirs.content == division_line(season=2, division=2, level=2)
    # No game of the new season decided yet: nobody is marked as going up or down.
    assert rows_of(theirs) == {p.name: None for p in placed[1]}


async def resign(
    tables: NetworkTables, player: Player, channel: FakeChannel | None, game_id: int
) -> None:
    """``player`` resigns game ``game_id`` from their home ``channel``: the command, then its
    button."""
    assert channel is not None, f"no home of game {game_id} for {player.name}"
    fake = tables.fake
    asked = await fake.run_command(player.user, channel, "dvonn resign")
    assert asked.message is not None
    assert f"#{game_id}" in private(asked)
    done = await fake.click(player.user, asked.message, f"dvonn:resign:{game_id}")
    assert said(_("You resigned game #{game}.", game=game_id)) in done.content
