"""Tournament formats through the fake Discord, on each backend, as the players see them: a
knockout of eight played to its winner, with drawn matches (a second game with colours swapped
in a thread of its own; one match won in it, one won by the better seed after two draws); a
league of two divisions over a season's end (moves up and down, a newcomer in the lowest
division, the next season begun by itself); and a league's standings as a player asks for them.

A standings image is read as a player reads it: the bot's drawing of a table is recorded as it
is made, each image posted is matched to its drawing byte for byte, and its marks are read
from the image's pixels (the band at each row's left edge, in the mark's colour)."""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from PIL import Image

import rules
from bot.app import DvonnBot
from bot.exts.tournaments.texts import knockout_places, league_marks, standings_table
from bot.games.service import GameService
from bot.games.tournaments.reading import Standing
from bot.i18n import Catalogues, _
from bot.posting.commands import CommandMentions
from bot.posting.publisher import Reader
from bot.storage import Entrant
from bot.storage.models import (
    Result,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
)
from render.standings import BAND, Mark, StandingsTable, standings_layout
from render.theme import DEFAULT_THEME, rgb
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import FIRST_TOURNAMENT, play_turn, said, said_pattern
from tests.fakediscord import FakeChannel, FakeUser, Permission, RecordedMessage

DRAWN = """B1 J2 B3 J3 D3 A1 A2 C4 C2 G3 D4 E3 E5 B2 C3 G5 G2 G4 H3 D1 I4 J5 C1 A3 I1 K5 H2 E4 C5
    J4 H5 F4 H4 F2 F5 D2 F1 F3 E2 I5 I2 K3 D5 K4 E1 H1 I3 B4 G1 A2A1 K3J2 G1G2 D1C1 G2I4 F2F1
    F5F4 H1H2 I2H2 E4E5 E1F1 C1C3 F4H4 B4A3 D3D4 C4D4 C2C3 B2B3 E2D2 G3H3 D5C5 K5J4 I3H2 G4F3
    H5I5 J3J4 A1C3 A3C3 I1J2 B3B1"""
"""A drawn game, 3–3 in 79 plies and no pass: the reference game ``random-6`` of
/work/shared/oracle/random_games_sample.jsonl (uniformly random legal moves from seed 6,
computed by an engine nobody here wrote), checked against the rules by
:func:`test_the_drawn_game_is_a_draw_by_the_rules`. Each player plays their colour's moves,
whoever has White."""

GAME_POSTS = [
    said_pattern(_("{tournament}, game #{number}: {white} (White) vs {black} (Black).")),
    said_pattern(
        _("{tournament}, season {season}, game #{number}: {white} (White) vs {black} (Black).")
    ),
    said_pattern(
        _(
            "{tournament}, season {season}, division {division}, game #{number}: {white} "
            "(White) vs {black} (Black)."
        )
    ),
]
"""A tournament's game as its post announces it, in each of its words."""
MADE = _(
    "Made {tournament}. Its post here takes entries; players join with its button or "
    "`/dvonn tournament join`."
)
FULL = _("You are in {tournament}: it is full, and has begun. Your games get their threads here.")
MARK_COLOURS = {
    rgb(DEFAULT_THEME.winner): Mark.WINNER,
    rgb(DEFAULT_THEME.promoted): Mark.PROMOTED,
    rgb(DEFAULT_THEME.relegated): Mark.RELEGATED,
}
COLOUR_SLACK = 4
WAIT = 15.0
"""Seconds to wait for what a game's end sets off (the next games' threads, the standings)."""


def announced(content: str) -> tuple[int, int, int] | None:
    """The game a tournament's post announces: its number, White's and Black's user ids."""
    for post in GAME_POSTS:
        if found := post.search(content):
            white, black = (int(found[side].strip("<@>")) for side in ("white", "black"))
            return int(found["number"]), white, black
    return None


def test_the_drawn_game_is_a_draw_by_the_rules() -> None:
    position = rules.new_game()
    for move in DRAWN.split():
        position = rules.play(position, rules.parse_move(move))
    outcome = rules.outcome(position)
    assert rules.is_over(position) and outcome is not None and outcome.winner is None
    assert rules.score(position) == (3, 3)


# --- what players do ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Paired:
    """A tournament's game as its post in the games channel announces it."""

    number: int
    white: FakeUser
    black: FakeUser
    thread: FakeChannel
    post: RecordedMessage

    @property
    def players(self) -> frozenset[FakeUser]:
        return frozenset((self.white, self.black))


def organiser(table: Table) -> FakeUser:
    admins = table.guild.add_role("admins", Permission.MANAGE_GUILD)
    return table.fake.add_user("org", table.guild, roles=[admins])


async def create(
    table: Table, by: FakeUser, options: dict[str, Any], mentions: CommandMentions
) -> tuple[RecordedMessage, FakeChannel]:
    """``by`` makes a tournament (the server's first); returns its post (with Join) and its
    thread. ``mentions``: the bot's, as its answer links the commands it names."""
    fake = table.fake
    made = await fake.run_command(by, table.games, "dvonn tournament create", options)
    named = f"#{FIRST_TOURNAMENT} **{options['name']}**"
    assert made.ephemeral, made.content
    assert said(MADE, tournament=named, mentions=mentions) in made.content, made.content
    post = await fake.wait_for_message(
        table.games, lambda m: options["name"] in m.content and bool(m.buttons())
    )
    await fake.wait_until(lambda: post.thread_id is not None, what="the tournament's thread")
    assert post.thread_id is not None
    return post, fake.world.channel(post.thread_id)


async def join_all(table: Table, post: RecordedMessage, users: Sequence[FakeUser]) -> list[str]:
    """Each of ``users`` presses Join, in order (their seeds); returns the answers."""
    answers = []
    for user in users:
        joined = await table.fake.click(user, post, label=said(_("Join")))
        assert joined.ephemeral, joined.content
        answers.append(joined.content)
    return answers


async def games_posted(
    table: Table, users: Sequence[FakeUser], count: int, *, after: int = 0
) -> list[Paired]:
    """The ``count`` game posts in the games channel after ``after`` by number, once each has
    its thread and the game's first board is there."""
    fake = table.fake
    by_id = {user.id: user for user in users}

    def ready() -> list[RecordedMessage] | None:
        posts = [m for m in fake.messages_in(table.games, after=after) if announced(m.content)]
        if len(posts) < count or any(p.thread_id is None for p in posts):
            return None
        threads = [fake.world.channel(p.thread_id or 0) for p in posts]
        if not all(any(m.embed_image() for m in fake.messages_in(t)) for t in threads):
            return None
        return posts

    posts = await fake.wait_until(ready, timeout=WAIT, what=f"{count} games and their threads")
    assert posts is not None
    assert len(posts) == count, [p.content for p in posts]
    found = []
    for post in posts:
        matched = announced(post.content)
        assert matched is not None
        number, white, black = matched
        found.append(
            Paired(
                number, by_id[white], by_id[black], fake.world.channel(post.thread_id or 0), post
            )
        )
    return sorted(found, key=lambda g: g.number)  # posted at once, in any order


def game(games: Sequence[Paired], *players: FakeUser) -> Paired:
    """The game of ``players`` (the last, if they met more than once)."""
    return [g for g in games if g.players == frozenset(players)][-1]


async def resign(table: Table, user: FakeUser, paired: Paired) -> None:
    """``user`` resigns ``paired``'s game, as a player does: the command, then its button."""
    fake = table.fake
    asked = await fake.run_command(user, paired.thread, "dvonn resign")
    assert asked.message is not None, asked.content
    await fake.click(user, asked.message, label=said(_("Resign game #{game}"), game=paired.number))
    resigned = said_pattern(_("{loser} resigned: {winner} wins."), loser=user.username)
    await fake.wait_for_message(paired.thread, lambda m: bool(resigned.search(str(m.embeds))))


async def play_out(table: Table, paired: Paired, moves: Sequence[str]) -> RecordedMessage:
    """Both players play ``moves`` in ``paired``'s thread, each their colour's; returns the
    last board post (the game's end)."""
    players = {rules.Colour.WHITE: paired.white, rules.Colour.BLACK: paired.black}
    position = rules.new_game()
    post = None
    for text in moves:
        move = rules.parse_move(text)
        turn = await play_turn(table.fake, players[position.turn], paired.thread, move)
        assert turn.post is not None, f"{text}: {turn.reply.content}"
        post = turn.post
        position = rules.play(position, move)
    assert post is not None and rules.is_over(position)
    return post


# --- what players see of the standings ---------------------------------------------------------


class Drawings:
    """The standings tables the bot drew, by the PNG bytes of each drawing."""

    def __init__(self, bot: DvonnBot, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tables: dict[bytes, StandingsTable] = {}
        renderer = bot.renderer
        draw = renderer.standings_png

        async def recorded(table: StandingsTable, **options: Any) -> bytes:
            png = await draw(table, **options)
            self.tables[png] = table
            return png

        monkeypatch.setattr(renderer, "standings_png", recorded)

    def shown(self, message: RecordedMessage) -> list[tuple[StandingsTable, bytes]]:
        """The tables ``message``'s images show, in order, each with its image."""
        images = [f for f in message.files if f.filename.startswith("standings")]
        assert images, f"no standings image in {message.content!r}"
        for image in images:
            assert image.data in self.tables, f"{image.filename}: not a drawing of the bot's"
        return [(self.tables[image.data], image.data) for image in images]


def marks_seen(table: StandingsTable, png: bytes) -> dict[str, Mark]:
    """The marks the image shows, by player: the colour of each row's band, read from the
    pixels where the table's layout puts it."""
    layout = standings_layout(table)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x = round(layout.left + 0.75 * BAND * layout.size)  # inside the band, past any outline
    seen = {}
    for index, row in enumerate(table.rows):
        y = round(layout.rows_top + (index + 0.5) * layout.row_height)
        mark = next((m for c, m in MARK_COLOURS.items() if looks(image.getpixel((x, y)), c)), None)
        if mark is not None:
            seen[row.name] = mark
    return seen


def looks(pixel: object, colour: tuple[int, int, int]) -> bool:
    """Whether ``pixel`` is ``colour`` as the PNG keeps it (its palette may shift it a little)."""
    assert isinstance(pixel, tuple)
    return all(abs(a - b) <= COLOUR_SLACK for a, b in zip(pixel[:3], colour, strict=True))


def outlined(table: StandingsTable, png: bytes) -> list[str]:
    """The rows drawn outlined (the reader's own), read from the pixels of their right edge."""
    layout = standings_layout(table)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x = round(layout.right) - 2
    found = []
    for index, row in enumerate(table.rows):
        y = round(layout.rows_top + (index + 0.5) * layout.row_height)
        if looks(image.getpixel((x, y)), rgb(DEFAULT_THEME.panel_active)):
            found.append(row.name)
    return found


def division_title(season: int, division: int) -> str:
    """The title of a division's table of the league "Club League"."""
    title = _("{name}: season {season}, division {division}")
    return said(title, name="Club League", season=season, division=division)


def standings_posts(table: Table, thread: FakeChannel) -> list[RecordedMessage]:
    return [
        m
        for m in table.fake.messages_in(thread)
        if any(f.filename.startswith("standings") for f in m.files)
    ]


# --- a knockout --------------------------------------------------------------------------------


@pytest.mark.machine_speed
async def test_a_knockout_of_eight_with_drawn_matches_played_to_its_winner(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    boss = organiser(table)
    names = ("ada", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
    ada, ben, cy, dee, eve, fay, gus, hal = players = [fake.add_user(n, table.guild) for n in names]
    async with bot_runner.run() as bot:
        drawings = Drawings(bot, monkeypatch)
        post, home = await create(
            table,
            boss,
            {"name": "Spring Cup", "format": "knockout", "max_players": 8},
            bot.mentions,
        )
        cup = f"#{FIRST_TOURNAMENT} **Spring Cup**"
        answers = await join_all(table, post, players)
        assert said(FULL, tournament=cup) in answers[-1]

        # The first round, seeds in the join order: 1-8, 5-4, 7-2, 3-6, a thread each.
        first = await games_posted(table, players, 4)
        assert [(g.number, g.white, g.black) for g in first] == [
            (1, ada, hal), (2, eve, dee), (3, gus, ben), (4, cy, fay)
        ]  # fmt: skip
        assert len({g.thread.id for g in first} | {home.id}) == 5
        assert all(g.thread.name.startswith(f"#{g.number} ") for g in first)
        mark = fake.mark()

        # Game 1 is drawn: a second game, colours swapped, in a thread of its own.
        end = await play_out(table, game(first, ada, hal), DRAWN.split())
        a_draw = said(
            _("Game over: a draw, {white_score}–{black_score}."), white_score=3, black_score=3
        )
        assert a_draw in str(end.embeds)
        (second,) = await games_posted(table, players, 1, after=mark)
        assert (second.number, second.white, second.black) == (5, hal, ada)
        assert second.thread.id not in {g.thread.id for g in first}
        second_game = said(
            _(
                "Game #{number} was drawn: a second game, colours swapped: {white} (White) "
                "against {black} (Black)."
            ),
            number=1,
            white=hal.mention,
            black=ada.mention,
        )
        await fake.wait_for_message(home, lambda m: second_game in m.content)

        # Game 2 is drawn, and its second game too: the better seed (Dee, 4th) goes through.
        mark = fake.mark()
        await play_out(table, game(first, eve, dee), DRAWN.split())
        (again,) = await games_posted(table, players, 1, after=mark)
        assert (again.number, again.white, again.black) == (6, dee, eve)
        await play_out(table, again, DRAWN.split())
        better_seed = said(
            _("{winner} wins the match against {loser}: both games drawn, as the better seed."),
            winner=dee.mention,
            loser=eve.mention,
        )
        await fake.wait_for_message(home, lambda m: better_seed in m.content, after=mark)

        # Game 5 decides the first match: Hal (8th) wins it and goes through.
        mark = fake.mark()
        await resign(table, ada, second)
        in_its_second = said(
            _("{winner} wins the match against {loser} in its second game."),
            winner=hal.mention,
            loser=ada.mention,
        )
        await fake.wait_for_message(home, lambda m: in_its_second in m.content, after=mark)
        await resign(table, gus, game(first, gus, ben))
        await resign(table, fay, game(first, cy, fay))

        # The semi-finals pair the winners in the bracket's order; then the final.
        semis = await games_posted(table, players, 2, after=mark)
        assert [g.players for g in semis] == [frozenset((hal, dee)), frozenset((ben, cy))]
        mark = fake.mark()
        await resign(table, hal, semis[0])
        await resign(table, cy, semis[1])
        (final,) = await games_posted(table, players, 1, after=mark)
        assert final.players == {dee, ben} and final.number == 9
        await resign(table, ben, final)

        # The winner is announced in the tournament's thread, over the last standings image:
        # Dee first with the winner's star, then Ben, the semi-finalists, the first round's.
        over = said(_("{tournament} is over."), tournament=cup)
        last = await fake.wait_for_message(home, lambda m: over in m.content, after=mark)
        assert said(_("{player} wins."), player=dee.mention) in last.content
        await fake.wait_until(  # each standings post replaces the one before
            lambda: standings_posts(table, home) == [last], what="one standings post"
        )
        ((drawn, png),) = drawings.shown(last)
        assert [(row.rank, row.name) for row in drawn.rows[:4]] == [
            ("1", "dee"), ("2", "ben"), ("3", "hal"), ("3", "cy")
        ]  # fmt: skip
        assert {row.rank for row in drawn.rows[4:]} == {"5"}
        assert marks_seen(drawn, png) == {"dee": Mark.WINNER}
        assert len(fake.threads_in(table.games)) == 1 + 9
        assert (await bot.service.tournaments.get(FIRST_TOURNAMENT)).is_over


# --- a league ----------------------------------------------------------------------------------


async def finish_by_seed(table: Table, games: Sequence[Paired], seeds: Sequence[FakeUser]) -> None:
    """Every game ends, the player seeded lower resigning (so each division's table is its
    seed order)."""
    for paired in games:
        loser = max(paired.players, key=seeds.index)
        await resign(table, loser, paired)


@pytest.mark.machine_speed
async def test_a_league_season_ends_moves_players_and_the_next_begins_by_itself(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    boss = organiser(table)
    names = ("ada", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
    ada, ben, cy, dee, eve, fay, gus, hal = players = [fake.add_user(n, table.guild) for n in names]
    ivy = fake.add_user("ivy", table.guild)
    async with bot_runner.run() as bot:
        drawings = Drawings(bot, monkeypatch)
        post, home = await create(
            table,
            boss,
            {"name": "Club League", "format": "league", "division_size": 4},
            bot.mentions,
        )
        club = f"#{FIRST_TOURNAMENT} **Club League**"
        divisions = _(
            "Clock: {clock}; {rated}; divisions of {size}, each season the first {up} move up and "
            "the last {down} move down; newcomers start in the lowest."
        )
        assert said_pattern(divisions, size=4, up=2, down=2).search(post.content)
        await join_all(table, post, players)
        started = await fake.run_command(boss, table.games, "dvonn tournament start")
        begun = said(_("{tournament} has begun."), tournament=club)
        assert started.ephemeral and begun in started.content, started.content

        # Season 1: two divisions of four by seed, each a round robin, every game at once.
        season_one = await games_posted(table, [*players, ivy], 12)
        top, bottom = {ada, ben, cy, dee}, {eve, fay, gus, hal}
        assert sum(g.players <= top for g in season_one) == 6
        assert sum(g.players <= bottom for g in season_one) == 6
        # A newcomer joins while it runs: they play from the next season.
        joined = await fake.click(ivy, post, label=said(_("Join")))
        next_season = _(
            "You are in {tournament}: you play from its next season, in the lowest division."
        )
        assert said(next_season, tournament=club) in joined.content

        # Every game ends; the season's last sets off its end and the next season, by itself.
        mark = fake.mark()
        await finish_by_seed(table, season_one, players)
        season_over = said(_("Season {season} is over."), season=1)
        over = await fake.wait_for_message(
            home, lambda m: season_over in m.content, after=mark, timeout=WAIT
        )
        lines = over.content.splitlines()
        up = _("Up to division {division}: {players}.")
        assert said(up, division=1, players=f"{eve.mention}, {fay.mention}") in lines
        down = _("Down to division {division}: {players}.")
        assert said(down, division=2, players=f"{cy.mention}, {dee.mention}") in lines
        new = _("New in division {division}: {players}.")
        assert said(new, division=2, players=ivy.mention) in lines
        next_begun = _("Season {season} has begun: each game gets its thread here.")
        assert said(next_begun, season=2) in lines
        # Its images are the season's final tables: the top division's last two go down
        # (nobody goes up from it), the bottom one's first two go up (nobody down from it).
        (first, first_png), (second, second_png) = drawings.shown(over)
        assert first.title == division_title(1, 1)
        assert [row.name for row in first.rows] == ["ada", "ben", "cy", "dee"]
        assert marks_seen(first, first_png) == {"cy": Mark.RELEGATED, "dee": Mark.RELEGATED}
        assert second.title == division_title(1, 2)
        assert [row.name for row in second.rows] == ["eve", "fay", "gus", "hal"]
        assert marks_seen(second, second_png) == {"eve": Mark.PROMOTED, "fay": Mark.PROMOTED}

        # Season 2's games get their threads with nobody's command: a division of four (six
        # games) and one of five with the newcomer (ten games, a round off each).
        season_two = await games_posted(table, [*players, ivy], 16, after=mark)
        top, bottom = {ada, ben, eve, fay}, {cy, dee, gus, hal, ivy}
        assert sum(g.players <= top for g in season_two) == 6
        assert sum(g.players <= bottom for g in season_two) == 10
        # Beside the season's end post, the standings post shows season 2, unmarked.
        await fake.wait_until(
            lambda: len(standings_posts(table, home)) == 2, what="the standings beside it"
        )
        (latest,) = [m for m in standings_posts(table, home) if m is not over]
        tables = drawings.shown(latest)
        assert [t.title for t, _png in tables] == [division_title(2, 1), division_title(2, 2)]
        assert all(marks_seen(t, png) == {} for t, png in tables)
        # The season's end post stays when a new game's standings replace the last ones.
        mark = fake.mark()
        await resign(table, gus, game(season_two, gus, ivy))
        news = await fake.wait_for_message(home, lambda m: bool(m.files), after=mark)
        await fake.wait_until(lambda: standings_posts(table, home) == [over, news], what="it")
        league = await bot.service.tournaments.get(FIRST_TOURNAMENT)
        assert league.is_running and league.season == 2


@pytest.mark.machine_speed
async def test_a_league_standings_show_its_divisions_and_the_readers_own(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    boss = organiser(table)
    names = ("ada", "ben", "cy", "dee", "eve", "fay")
    players = [fake.add_user(n, table.guild) for n in names]
    ivy = fake.add_user("ivy", table.guild)
    async with bot_runner.run() as bot:
        drawings = Drawings(bot, monkeypatch)
        post, _thread = await create(
            table,
            boss,
            {"name": "Club League", "format": "league", "division_size": 3},
            bot.mentions,
        )
        await join_all(table, post, players)
        await fake.run_command(boss, table.games, "dvonn tournament start")
        await games_posted(table, players, 6)
        await fake.click(ivy, post, label=said(_("Join")))

        # A player sees every division, their own row outlined, and is told which is theirs.
        asked = await fake.run_command(players[4], table.games, "dvonn tournament standings")
        assert asked.ephemeral and asked.message is not None
        lines = asked.content.splitlines()
        standings = _("Standings of {tournament}, season {season}.")
        assert lines[0] == said(
            standings, tournament=f"#{FIRST_TOURNAMENT} **Club League**", season=1
        )
        play_in = _("You play in division {division}.")
        assert said(play_in, division=2) in lines
        starting = _("Starting next season, in the lowest division: {players}.")
        assert said(starting, players=ivy.mention) in lines
        shown = drawings.shown(asked.message)
        assert [t.title for t, _png in shown] == [division_title(1, 1), division_title(1, 2)]
        assert [[row.name for row in t.rows] for t, _png in shown] == [
            ["ada", "ben", "cy"],
            ["dee", "eve", "fay"],
        ]
        assert [outlined(t, png) for t, png in shown] == [[], ["eve"]]
        # The newcomer is told they start next season; someone not in it sees no row outlined.
        waiting = await fake.run_command(ivy, table.games, "dvonn tournament standings")
        start_next = _("You start next season, in the lowest division.")
        assert said(start_next) in waiting.content
        outsider = await fake.run_command(table.carol, table.games, "dvonn tournament standings")
        assert not said_pattern(play_in).search(outsider.content)
        assert said(start_next) not in outsider.content
        assert outsider.message is not None
        assert all(outlined(t, png) == [] for t, png in drawings.shown(outsider.message))


# --- the marks and places, without Discord ----------------------------------------------------

NOW = datetime(2025, 1, 1, tzinfo=UTC)
ENGLISH = Reader(Catalogues(), "en-US")


async def name_of(user_id: int) -> str:
    return f"p{user_id}"


def _division(number: int, players: Sequence[int], *, over: bool = True) -> Standing:
    """A league division of season 1 where the better seed won every game."""
    division = Tournament(
        id=10 + number,
        guild_id=1,
        channel_id=2,
        name="League",
        format=TournamentFormat.ROUND_ROBIN,
        organiser_id=0,
        status=TournamentStatus.FINISHED if over else TournamentStatus.RUNNING,
        created_at=NOW,
        league_id=1,
        season=1,
        division=number,
    )
    entrants = tuple(
        Entrant(division.id, player, seed, NOW, division=number)
        for seed, player in enumerate(players, start=1)
    )
    games = tuple(
        TournamentGame(division.id, 1, 1, 1, 1, a, b, result=Result.WHITE, score=(5, 1))
        for a, b in itertools.combinations(players, 2)
    )
    return Standing(division, entrants, games if over else ())


def _league(*divisions: Standing, status: TournamentStatus = TournamentStatus.RUNNING) -> Standing:
    league = Tournament(
        id=1,
        guild_id=1,
        channel_id=2,
        name="League",
        format=TournamentFormat.LEAGUE,
        organiser_id=0,
        status=status,
        created_at=NOW,
        division_size=4,
        moves_down=2,
        season=1,
    )
    entrants = tuple(Entrant(1, e.user_id, e.user_id, NOW) for d in divisions for e in d.entrants)
    return Standing(league, entrants, (), divisions)


def test_every_division_marks_its_moves_the_top_none_up_the_lowest_none_down() -> None:
    top, middle, bottom = (_division(n, range(4 * n - 3, 4 * n + 1)) for n in (1, 2, 3))
    assert league_marks(_league(top, middle, bottom)) == {
        3: Mark.RELEGATED, 4: Mark.RELEGATED,
        5: Mark.PROMOTED, 6: Mark.PROMOTED, 7: Mark.RELEGATED, 8: Mark.RELEGATED,
        9: Mark.PROMOTED, 10: Mark.PROMOTED,
    }  # fmt: skip
    # A division still playing marks nobody yet; a league that has ended moves nobody.
    playing = _division(3, range(9, 13), over=False)
    assert set(league_marks(_league(top, middle, playing))) == {3, 4, 5, 6, 7, 8}
    assert league_marks(_league(top, middle, bottom, status=TournamentStatus.FINISHED)) == {}
    # Once the next season is made, the marks say where each player went: 6 left, so 3 stays
    # up in 6's place, and 7 in 2's.
    following = (
        _division(1, [1, 2, 5, 3]),
        _division(2, [4, 9, 10, 7]),
        _division(3, [8, 11, 12]),
    )
    assert league_marks(_league(top, middle, bottom), following) == {
        4: Mark.RELEGATED, 5: Mark.PROMOTED, 8: Mark.RELEGATED, 9: Mark.PROMOTED,
        10: Mark.PROMOTED,
    }  # fmt: skip


async def test_a_knockout_table_stars_its_winner_even_with_fewer_points() -> None:
    # 1 beats 4 on seed after two draws; 3 beats 2 in a second game; in the final 1 and 3 draw
    # twice, and 1 wins on seed: 2 points against the runner-up's 2½.
    def game(round_: int, board: int, leg: int, players: tuple[int, int], result: Result) -> Any:
        score = (4, 4) if result is Result.DRAW else (6, 2)
        return TournamentGame(1, round_, board, leg, 0, *players, result=result, score=score)

    draw, white = Result.DRAW, Result.WHITE
    knockout = Tournament(
        id=1,
        guild_id=1,
        channel_id=2,
        name="Cup",
        format=TournamentFormat.KNOCKOUT,
        organiser_id=0,
        status=TournamentStatus.FINISHED,
        created_at=NOW,
    )
    standing = Standing(
        knockout,
        tuple(Entrant(1, player, player, NOW) for player in (1, 2, 3, 4)),
        (
            game(1, 1, 1, (1, 4), draw), game(1, 1, 2, (4, 1), draw),
            game(1, 2, 1, (2, 3), draw), game(1, 2, 2, (3, 2), white),
            game(2, 1, 1, (1, 3), draw), game(2, 1, 2, (3, 1), draw),
        ),
    )  # fmt: skip
    assert knockout_places(standing) == ({1: 3.0, 3: 2.0, 2: 1.0, 4: 1.0}, 1)
    drawn = await standings_table(standing, name_of, ENGLISH)
    assert [(row.rank, row.name, row.cells[0], row.mark) for row in drawn.rows] == [
        ("1", "p1", "2", Mark.WINNER),
        ("2", "p3", "2½", None),
        ("3", "p4", "1", None),
        ("3", "p2", "½", None),
    ]


async def test_a_knockout_round_gives_colours_by_the_players_past_games(
    service: GameService,
) -> None:
    """Round 1 of four: seed 1 has White against 4, seed 2 Black against 3. In the final, 2
    gets White: each player's colours alternate (a Swiss's rules on their past games), rather
    than the better seed having the same colour every round."""
    cup = await service.tournaments.create(
        guild_id=1,
        channel_id=2,
        by=100,
        organiser=True,
        name="Cup",
        format=TournamentFormat.KNOCKOUT,
    )
    for player in (1, 2, 3, 4):
        await service.tournaments.join(cup.id, player)
    await service.tournaments.start(cup.id, 100, organiser=True)
    first = (await service.tournaments.standing(cup.id)).pairings
    assert [(p.white_id, p.black_id) for p in first] == [(1, 4), (3, 2)]
    for pairing, loser in zip(first, (4, 3), strict=True):
        assert pairing.game_id is not None
        await service.tournaments.begin_game(pairing.game_id, 1000 + pairing.number, 2)
        await service.resign(pairing.game_id, loser)
    final = (await service.tournaments.standing(cup.id)).pairings[-1]
    assert (final.round, final.white_id, final.black_id) == (2, 2, 1)
