"""A game's number names one game, through the fake Discord on each backend: in a league of
two divisions over two seasons, every announcement, thread and pairings line names its game
by the bot's game number (the one its own posts and every command use), never by a count that
starts again in each division and season, with the season and the division beside it; a bye
is no game and takes no number."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from bot.i18n import _
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import FIRST_TOURNAMENT, said, said_pattern, shorter_windows
from tests.bot.e2e.test_tournament_formats import (
    WAIT,
    Paired,
    create,
    games_posted,
    join_all,
    organiser,
    resign,
)
from tests.fakediscord import FakeUser

ANNOUNCED = _(
    "{tournament}, season {season}, division {division}, game #{number}: {white} (White) vs "
    "{black} (Black)."
)
SEASON = _("**Season {season}**")
PAIRING_LINE = re.compile(r"^#(\d+) (\w+) – (\w+): ")


async def check_announced(
    table: Table, games: Sequence[Paired], season: int, divisions: Sequence[set[FakeUser]]
) -> None:
    """Each game's post names the league, the season, the game's division and its number;
    so does its thread, the number first; and its first board, in the thread, is of the game
    of that number (the bot's own)."""
    for paired in games:
        (division,) = [n for n, part in enumerate(divisions, start=1) if paired.players <= part]
        assert paired.post.content == said(
            ANNOUNCED,
            tournament=f"#{FIRST_TOURNAMENT} **Club League**",
            season=season,
            division=division,
            number=paired.number,
            white=paired.white.mention,
            black=paired.black.mention,
        )
        assert paired.thread.name == said(
            _("{name}: season {season}, division {division}"),
            name=f"#{paired.number} {paired.white.username} vs {paired.black.username}",
            season=season,
            division=division,
        )
        board = next(m for m in table.fake.messages_in(paired.thread) if m.embed_image())
        footer = _("Game #{game} · move {number} · White {white_score} – Black {black_score}")
        assert said_pattern(footer, game=paired.number).search(str(board.embeds)), board.embeds


async def listed_numbers(table: Table, user: FakeUser) -> tuple[list[str], list[int]]:
    """``/dvonn tournament pairings`` as ``user`` sees it: its lines, and the game numbers."""
    listed = await table.fake.run_command(user, table.games, "dvonn tournament pairings")
    assert listed.ephemeral, listed.content
    lines = listed.content.splitlines()
    return lines, [int(m[1]) for line in lines if (m := PAIRING_LINE.match(line))]


async def test_a_leagues_games_have_numbers_no_other_game_of_the_server_has(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    # Six threads a season in one channel: with Discord's windows, ten seconds waited out each
    # season for what the numbers do not depend on; the limits stay on, in shorter windows.
    shorter_windows(fake, 10)
    boss = organiser(table)
    names = ("ada", "ben", "cy", "dee", "eve", "fay")
    ada, ben, cy, dee, eve, fay = players = [fake.add_user(n, table.guild) for n in names]
    async with bot_runner.run() as bot:
        post, home = await create(
            table,
            boss,
            {"name": "Club League", "format": "league", "division_size": 3},
            bot.mentions,
        )
        await join_all(table, post, players)
        started = await fake.run_command(boss, table.games, "dvonn tournament start")
        begun = said(
            _("{tournament} has begun."), tournament=f"#{FIRST_TOURNAMENT} **Club League**"
        )
        assert started.ephemeral and begun in started.content, started.content

        # Season 1: two divisions of three, a round robin each: three games and three byes
        # each (a round off per player), six games in all, each with a number of its own.
        season_one = await games_posted(table, players, 6)
        first_divisions = [{ada, ben, cy}, {dee, eve, fay}]
        await check_announced(table, season_one, 1, first_divisions)
        numbers = [g.number for g in season_one]
        assert len(set(numbers)) == 6, numbers
        # Byes take none: the six games are the bot's six games, numbered one after another.
        assert sorted(numbers) == list(range(min(numbers), min(numbers) + 6)), numbers
        for number in numbers:
            assert (await bot.service.get_game(number)).player_ids in {
                (g.white.id, g.black.id) for g in season_one
            }

        # The pairings name the same games by the same numbers, the byes by none.
        lines, listed = await listed_numbers(table, ada)
        assert lines[:2] == [f"#{FIRST_TOURNAMENT} **Club League**", said(SEASON, season=1)], lines
        assert sorted(listed) == sorted(numbers), lines
        byes = [line for line in lines if line.endswith(": bye")]
        assert len(byes) == 6 and not any(line.startswith("#") for line in byes), byes

        # The season ends; the next begins by itself, and its games take new numbers.
        mark = fake.mark()
        for paired in season_one:
            loser = max(paired.players, key=players.index)
            await resign(table, loser, paired)
        season_over = said(_("Season {season} is over."), season=1)
        await fake.wait_for_message(
            home, lambda m: season_over in m.content, after=mark, timeout=WAIT
        )
        season_two = await games_posted(table, players, 6, after=mark)
        standing = await bot.service.tournaments.standing(FIRST_TOURNAMENT)
        second_divisions = [
            {p for p in players if any(e.user_id == p.id for e in d.entrants)}
            for d in standing.divisions
        ]
        assert len(second_divisions) == 2
        await check_announced(table, season_two, 2, second_divisions)
        every = [*numbers, *(g.number for g in season_two)]
        assert len(set(every)) == 12, every
        threads = Counter(t.name for t in fake.threads_in(table.games))
        assert all(count == 1 for count in threads.values()), threads
        lines, listed = await listed_numbers(table, ada)
        assert said(SEASON, season=2) in lines and sorted(listed) == sorted(
            g.number for g in season_two
        )
