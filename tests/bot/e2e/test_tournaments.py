"""Tournaments through the fake Discord, on each backend, as their players and organiser see
them: a round robin played to its end (joined by the button and the command, a game a thread,
games resigned, one played out move by move, one lost on time; the standings image replaced
after each game, tie-breaks that decide places, the winner named), a Swiss of nine players over
four rounds with a withdrawal, the private answers to what makes no sense, and a round of many
games started at once within Discord's rate limits. The clock is moved by hand; nothing sleeps.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

import rules
from bot.i18n import _, n_
from bot.posting.commands import CommandMentions
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import (
    FIRST_TOURNAMENT,
    is_board_post,
    play_turn,
    said,
    said_pattern,
    shorter_windows,
)
from tests.bot.e2e.test_tournament_formats import announced
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    Permission,
    RecordedMessage,
)

NAME = "Spring Cup"
BEGUN = _("{tournament} has begun.")
OVER = _("{tournament} is over.")
WINS = _("{player} wins.")
POSTED = _("🏆 {tournament}: a {format} made by {organiser}.")
GAMES_PLAYED = _("{format} · {played} of {games} games played")
ORGANISERS_ONLY = _(
    "Only the tournament's organiser, or someone with Manage Server (or the server's organiser "
    "role), may do that."
)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def named(number: int = FIRST_TOURNAMENT) -> str:
    """How texts name tournament ``number``."""
    return f"#{number} **{NAME}**"


def made(mentions: CommandMentions, number: int) -> str:
    """The answer to ``/dvonn tournament create`` that made tournament ``number``."""
    return said(
        _(
            "Made {tournament}. Its post here takes entries; players join with its button or "
            "`/dvonn tournament join`."
        ),
        tournament=named(number),
        mentions=mentions,
    )


def resigned(loser: FakeUser, winner: FakeUser) -> str:
    """A game's last post when ``loser`` resigned it."""
    return said(_("{loser} resigned: {winner} wins."), loser=loser.username, winner=winner.username)


@dataclass(frozen=True)
class Club:
    """The table's server with an organiser (Manage Server) and as many players as needed."""

    table: Table
    organiser: FakeUser
    players: tuple[FakeUser, ...]

    @property
    def fake(self) -> FakeDiscord:
        return self.table.fake

    def user(self, user_id: int) -> FakeUser:
        return next(p for p in self.players if p.id == user_id)


def club(table: Table, count: int) -> Club:
    guild = table.guild
    organisers = guild.add_role("organisers", Permission.MANAGE_GUILD)
    organiser = table.fake.add_user("olga", guild, roles=[organisers])
    names = ["dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj"]
    others = [table.fake.add_user(n, guild) for n in names[: max(0, count - 3)]]
    return Club(table, organiser, (table.alice, table.bob, table.carol, *others)[:count])


@dataclass(frozen=True)
class Paired:
    """A tournament game as the channel shows it: its post, then its thread."""

    number: int
    white: FakeUser
    black: FakeUser
    thread: FakeChannel

    def player(self, colour: rules.Colour) -> FakeUser:
        return self.white if colour is rules.Colour.WHITE else self.black

    def other(self, user: FakeUser) -> FakeUser:
        return self.black if user is self.white else self.white


def paired_games(the: Club) -> dict[int, Paired]:
    """Every tournament game posted in the games channel so far, by number, whose thread has
    its first post (the game has begun there)."""
    fake = the.fake
    found = {}
    for message in fake.messages_in(the.table.games):
        match = announced(message.content)
        if match is None or message.thread_id is None:
            continue
        thread = fake.world.channel(message.thread_id)
        if not fake.messages_in(thread):
            continue
        number, white, black = match
        found[number] = Paired(number, the.user(white), the.user(black), thread)
    return found


async def wait_for_games(the: Club, count: int, *, timeout: float = 20.0) -> dict[int, Paired]:
    """The first ``count`` games once each has its thread and first post."""
    await the.fake.wait_until(
        lambda: len(paired_games(the)) >= count, timeout=timeout, what=f"{count} game threads"
    )
    return paired_games(the)


async def resign(the: Club, game: Paired, loser: FakeUser) -> RecordedMessage:
    """``loser`` resigns ``game`` (the command asks first; the button confirms); returns the
    game's last post."""
    fake = the.fake
    asked = await fake.run_command(loser, game.thread, "dvonn resign")
    assert asked.ephemeral and asked.message is not None, asked.content
    (button,) = asked.message.buttons()
    done = await fake.click(loser, asked.message, button["custom_id"])
    assert said(_("You resigned game #{game}."), game=game.number) in done.content
    ended = resigned(loser, game.other(loser))
    return await fake.wait_for_message(game.thread, lambda m: ended in str(m.embeds))


async def withdraw(the: Club, player: FakeUser, running: Paired) -> None:
    """``player`` withdraws: the game they are playing ends as if they resigned, and the
    tournament's thread says so."""
    answer = await the.fake.run_command(player, the.table.games, "dvonn tournament withdraw")
    withdrew = _(
        "You withdrew from {tournament}: your games still to play are lost, those you played count."
    )
    assert answer.ephemeral and said(withdrew, tournament=named()) in answer.content, answer.content
    lost = resigned(player, running.other(player))
    await the.fake.wait_for_message(running.thread, lambda m: lost in str(m.embeds))
    news = said(_("{player} withdrew from the tournament."), player=player.mention)
    await the.fake.wait_for_message(tournament_thread(the), lambda m: news in m.content)


def tournament_thread(the: Club) -> FakeChannel:
    (thread,) = [t for t in the.fake.threads_in(the.table.games) if t.name == NAME]
    return thread


def standings_posts(the: Club) -> list[RecordedMessage]:
    """The standings posts still in the tournament's thread (each replaces the one before)."""
    thread = tournament_thread(the)
    return [m for m in the.fake.messages_in(thread) if m.files]


async def standings_after(the: Club, *, played: int) -> RecordedMessage:
    """The standings post once it counts ``played`` games, the only one in the thread."""

    counted = said_pattern(GAMES_PLAYED, played=played)

    def latest() -> RecordedMessage | None:
        found = standings_posts(the)
        if len(found) == 1 and counted.search(alt_text(found[0])):
            return found[0]
        return None

    post = await the.fake.wait_until(latest, what=f"the standings after {played} games alone")
    assert post is not None
    return post


def alt_text(message: RecordedMessage) -> str:
    """The standings image's description: what a screen reader says of it."""
    (image,) = message.files
    assert image.image_size() is not None and image.description, image
    return image.description


def random_game_won_by(winner: rules.Colour) -> tuple[list[rules.Move], int]:
    """The moves of a random game (the first seed whose game ``winner`` wins), passes out
    (the bot plays those itself), and by how many pieces it is won."""
    for seed in range(1000):
        rng = random.Random(seed)
        pos = rules.new_game()
        moves = []
        while not rules.is_over(pos):
            move = rng.choice(rules.legal_moves(pos))
            moves.append(move)
            pos = rules.play(pos, move)
            while rules.legal_moves(pos) == (rules.PASS,):
                pos = rules.play(pos, rules.PASS)
        outcome = rules.outcome(pos)
        if outcome is not None and outcome.winner is winner:
            white, black = rules.score(pos)
            return moves, abs(white - black)
    raise AssertionError("no random game won by {winner}")


async def play_out(the: Club, game: Paired, moves: Sequence[rules.Move]) -> RecordedMessage:
    """Play ``moves`` in ``game``'s thread; returns the last board post."""
    pos = rules.new_game()
    post = None
    for move in moves:
        mover = game.player(pos.turn)
        turn = await play_turn(the.fake, mover, game.thread, move)
        assert turn.post is not None, f"{move}: {turn.reply.content}"
        post = turn.post
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
    assert post is not None and rules.is_over(pos)
    return post


def in_now(count: int) -> str:
    """How a join's answer (to the first tournament) counts the players in."""
    joined = n_(
        "You are in {tournament} ({count} player).",
        "You are in {tournament} ({count} players).",
        count,
    )
    return said(joined, tournament=named())


def final_score(moves: Sequence[rules.Move]) -> tuple[int, int]:
    """White's and Black's score at the end of a game of ``moves`` (passes played between)."""
    pos = rules.new_game()
    for move in moves:
        pos = rules.play(pos, move)
        while rules.legal_moves(pos) == (rules.PASS,):
            pos = rules.play(pos, rules.PASS)
    return rules.score(pos)


async def create(the: Club, **options: object) -> InteractionResult:
    return await the.fake.run_command(
        the.organiser, the.table.games, "dvonn tournament create", {"name": NAME, **options}
    )


# --- a round robin played to its end --------------------------------------------------------

BEATS = {
    "alice": {"bob", "carol", "dave", "erin"},
    "bob": {"carol", "dave", "erin", "frank"},
    "carol": {"dave", "erin", "frank"},
    "dave": {"erin", "frank"},
    "erin": {"frank"},
    "frank": {"alice"},
}
"""Who beats whom. Points: alice 4, bob 4, carol 3, dave 2, erin 1, frank 1. Two ties, each
settled by Sonneborn-Berger (the points of the opponents beaten):

- alice: bob 4 + carol 3 + dave 2 + erin 1 = 10; bob: carol 3 + dave 2 + erin 1 + frank 1 = 7:
  alice wins the tournament though bob has as many points;
- frank: alice 4 = 4; erin: frank 1 = 1: frank is fifth though erin beat him.

carol's SB: dave 2 + erin 1 + frank 1 = 4; dave's: erin 1 + frank 1 = 2."""


def loser_of(game: Paired) -> FakeUser:
    white, black = game.white, game.black
    return black if black.username in BEATS[white.username] else white


async def test_a_round_robin_of_six_played_to_its_end_through_discord(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    fake.limits.per_channel = False  # fifteen threads at machine speed: see test_limits for them
    the = club(table, 6)
    alice, bob, carol, dave, _erin, frank = the.players
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        answer = await create(the, format="round_robin", clock="days:3", max_players=6)
        assert answer.ephemeral and made(bot.mentions, FIRST_TOURNAMENT) in answer.content, (
            answer.content
        )
        post = await fake.wait_for_message(table.games, lambda m: bool(m.buttons()))
        round_robin = _("round robin")
        posted = said(
            POSTED, tournament=named(), format=round_robin, organiser=the.organiser.mention
        )
        assert posted in post.content
        assert said(_("At most {count} players."), count=6) in post.content
        await fake.wait_until(lambda: post.thread_id, what="the tournament's thread")
        assert tournament_thread(the).id == post.thread_id

        for count, player in enumerate(the.players[:5], start=1):
            joined = await fake.click(player, post, label=said(_("Join")))
            assert joined.ephemeral and in_now(count) in joined.content, joined.content
        assert paired_games(the) == {}
        joined = await fake.run_command(frank, table.games, "dvonn tournament join")
        full = _(
            "You are in {tournament}: it is full, and has begun. Your games get their threads here."
        )
        assert joined.ephemeral and said(full, tournament=named()) in joined.content

        # Everyone meets everyone once: fifteen games at once, each in a thread of its own,
        # whose first post pings White to place a piece.
        games = await wait_for_games(the, 15)
        assert sorted(games) == list(range(1, 16))
        met = {frozenset((g.white.id, g.black.id)) for g in games.values()}
        assert len(met) == 15
        for game in games.values():
            first = fake.messages_in(game.thread)[0]
            assert first.pinged_user_ids == {game.white.id}, first.content
            assert game.thread.name == f"#{game.number} {game.white.username} vs " + (
                game.black.username
            )
        has_begun = said(BEGUN, tournament=named())
        begun = await fake.wait_for_message(
            tournament_thread(the), lambda m: has_begun in m.content
        )
        assert said(GAMES_PLAYED, format=round_robin, played=0, games=15) in alt_text(begun)

        listed = await fake.run_command(carol, table.games, "dvonn tournament pairings")
        assert listed.ephemeral
        for game in games.values():
            assert f"<#{game.thread.id}>" in listed.content, listed.content

        # One game played out move by move, to the rules' end.
        (real,) = [g for g in games.values() if {g.white, g.black} == {carol, dave}]
        winner = rules.Colour.WHITE if real.white is carol else rules.Colour.BLACK
        moves, margin = random_game_won_by(winner)
        last = await play_out(the, real, moves)
        white_score, black_score = final_score(moves)
        game_over = _("Game over: {winner} wins, {white_score}–{black_score}.")
        assert said(
            game_over, winner="carol", white_score=white_score, black_score=black_score
        ) in str(last.embeds)
        after_real = await standings_after(the, played=1)
        assert begun.deleted  # replaced

        # All but one of the others resigned by their loser; each ending replaces the
        # standings in the tournament's thread.
        (on_time,) = [g for g in games.values() if {g.white, g.black} == {alice, frank}]
        previous = after_real
        others = [g for g in games.values() if g not in (real, on_time)]
        for played, game in enumerate(others, start=2):
            await resign(the, game, loser_of(game))
            newest = await standings_after(the, played=played)
            assert previous.deleted
            assert newest.content == said(_("Standings of {tournament}."), tournament=named())
            previous = newest
        assert said(GAMES_PLAYED, format=round_robin, played=14, games=15) in alt_text(previous)

        # Alice places a piece, Frank another, then Alice plays no more: three days later
        # she loses on time (having moved, she is not taken for gone and withdrawn).
        assert on_time.white is alice
        for player, cell in ((alice, "E3"), (frank, "F3")):
            turn = await play_turn(fake, player, on_time.thread, rules.parse_move(cell))
            assert turn.post is not None, turn.reply.content
        clock.advance(days=3, seconds=1)
        await bot.housekeeping()
        timed_out = said(
            _("{loser} ran out of time: {winner} wins on time."), loser="alice", winner="frank"
        )
        await fake.wait_for_message(on_time.thread, lambda m: timed_out in str(m.embeds))

        # The end: one post says so and names the winner, with the final standings.
        final = await standings_after(the, played=15)
        assert previous.deleted
        assert final.content.startswith(said(OVER, tournament=named()) + "\n")
        assert said(WINS, player=alice.mention) in final.content
        assert bob.mention not in final.content
        assert final.pinged_user_ids == frozenset()  # the names only: nobody is pinged
        assert alt_text(final) == "\n".join(
            [
                f"{NAME}: round robin · 15 of 15 games played",
                "1. alice (winner): Pts 4, Games 5, SB 10, ± 0",
                "2. bob: Pts 4, Games 5, SB 7, ± 0",
                f"3. carol: Pts 3, Games 5, SB 4, ± +{margin}",
                f"4. dave: Pts 2, Games 5, SB 2, ± -{margin}",
                "5. frank: Pts 1, Games 5, SB 4, ± 0",
                "6. erin: Pts 1, Games 5, SB 1, ± 0",
            ]
        )

        # Anyone may ask for the standings (privately: the same table) and the pairings
        # (every result, no links: nothing runs any more).
        asked = await fake.run_command(dave, table.games, "dvonn tournament standings")
        assert asked.ephemeral and asked.message is not None
        assert alt_text(asked.message) == alt_text(final)
        listed = await fake.run_command(dave, table.games, "dvonn tournament pairings")
        assert f"#{on_time.number} alice – frank: −–+" in listed.content
        assert (
            f"#{real.number} {real.white.username} – {real.black.username}: "
            + ("1–0" if winner is rules.Colour.WHITE else "0–1")
            in listed.content
        )
        assert "<#" not in listed.content


# --- a Swiss of nine over four rounds ------------------------------------------------------

ROUND_LINE = re.compile(r"^Round (\d+)$")
GAME_LINE = re.compile(r"^#(\d+) (\w+) – (\w+): ")
BYE_LINE = re.compile(r"^(\w+): bye$")  # no game, so no number


@dataclass
class Rounds:
    """The pairings as ``/dvonn tournament pairings`` lists them: each round's games (white,
    black) and bye."""

    games: dict[int, list[tuple[str, str]]]
    byes: dict[int, list[str]]


def read_pairings(text: str) -> Rounds:
    found = Rounds({}, {})
    number = 0
    for line in text.splitlines():
        if match := ROUND_LINE.match(line):
            number = int(match[1])
            found.games[number], found.byes[number] = [], []
        elif match := GAME_LINE.match(line):
            found.games[number].append((match[2], match[3]))
        elif match := BYE_LINE.match(line):
            found.byes[number].append(match[1])
    return found


def swiss_table(
    seeds: Sequence[str],
    wins: Sequence[tuple[str, str]],
    byes: Sequence[str],
    withdrawn: str,
) -> list[str]:
    """The standings' lines worked out here, apart from the bot's: a win or a bye 1 point;
    Buchholz cut-1 the opponents' points less the lowest (a bye counts as an opponent with the
    player's own points), median Buchholz less the highest too; every margin 0 (no game ended
    on the board); level on all of these, the better rank shared, seed order."""
    points = {p: float(sum(w == p for w, _ in wins) + byes.count(p)) for p in seeds}
    met: dict[str, list[float]] = {p: [] for p in seeds}
    for winner, loser in wins:
        met[winner].append(points[loser])
        met[loser].append(points[winner])
    for player in byes:
        met[player].append(points[player])
    games = {p: sum(p in pair for pair in wins) for p in seeds}

    def key(player: str) -> tuple[float, float, float]:
        kept = sorted(met[player])[1:]
        return (points[player], sum(kept), sum(kept[:-1]))

    order = sorted(seeds, key=lambda p: tuple(-v for v in key(p)))
    lines = []
    for player in order:
        rank = 1 + sum(key(other) > key(player) for other in seeds)
        pts, cut, median = (f"{v:g}" for v in key(player))
        mark = " (withdrew)" if player == withdrawn else " (winner)" if rank == 1 else ""
        lines.append(
            f"{rank}. {player}{mark}: Pts {pts}, Games {games[player]}, BH-1 {cut}, "
            f"BH-m {median}, ± 0"
        )
    return lines


async def test_a_swiss_of_nine_over_four_rounds_with_a_withdrawal(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    """Each round is paired when the last game of the one before ends; nine players: a bye
    a round, never to the same player twice; nobody meets anyone twice; a player who
    withdraws in round 3 loses the game they were playing, is not paired again, and keeps
    what they played."""
    fake = table.fake
    fake.limits.per_channel = False  # a standings post a game in one thread, at machine speed
    the = club(table, 9)
    names = [p.username for p in the.players]
    wins: list[tuple[str, str]] = []
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        answer = await create(the, format="swiss", rounds=4, clock="days:3")
        assert answer.ephemeral and made(bot.mentions, FIRST_TOURNAMENT) in answer.content, (
            answer.content
        )
        post = await fake.wait_for_message(table.games, lambda m: bool(m.buttons()))
        for count, player in enumerate(the.players, start=1):
            joined = await fake.click(player, post, label=said(_("Join")))
            assert in_now(count) in joined.content  # no most: the organiser starts it
        started = await fake.run_command(the.organiser, table.games, "dvonn tournament start")
        assert started.ephemeral and said(BEGUN, tournament=named()) in started.content

        quitter: FakeUser | None = None
        seen: dict[int, Paired] = {}
        for number in range(1, 5):
            games = await wait_for_games(the, len(seen) + 4)
            this_round = [g for n, g in sorted(games.items()) if n not in seen]
            assert len(this_round) == 4, sorted(games)  # four games (and a bye till round 4)
            seen.update((g.number, g) for g in this_round)
            listed = await fake.run_command(
                the.players[0], table.games, "dvonn tournament pairings"
            )
            assert len(read_pairings(listed.content).games[number]) == 4
            for game in this_round:
                assert f"<#{game.thread.id}>" in listed.content  # a link to each running game
            if number == 3:
                # Erin (or whoever plays the first game, if Erin has the bye) withdraws: the
                # game she is playing is lost at once, and said in the tournament's thread.
                leaving = next(
                    (g for g in this_round if "erin" in (g.white.username, g.black.username)),
                    this_round[0],
                )
                quitter = leaving.white if leaving.white.username == "erin" else leaving.black
                await withdraw(the, quitter, leaving)
                wins.append((leaving.other(quitter).username, quitter.username))
                this_round.remove(leaving)
            for index, game in enumerate(this_round):
                if index == len(this_round) - 1 and number < 4:
                    # Every game but this round's last has ended: no new round yet.
                    await standings_after(the, played=len(wins))
                    assert sorted(paired_games(the)) == sorted(seen)
                white, black = game.white.username, game.black.username
                loser = game.black if names.index(white) < names.index(black) else game.white
                await resign(the, game, loser)  # the better seed always wins
                wins.append((game.other(loser).username, loser.username))

        final = await standings_after(the, played=16)
        assert quitter is not None
        assert said(OVER, tournament=named()) in final.content
        assert said(WINS, player="alice") not in final.content  # a mention, not a name
        assert said(WINS, player=the.players[0].mention) in final.content
        listed = await fake.run_command(the.organiser, table.games, "dvonn tournament pairings")
        rounds = read_pairings(listed.content)
        assert [len(rounds.byes[n]) for n in (1, 2, 3, 4)] == [1, 1, 1, 0], listed.content
        byes = [player for n in (1, 2, 3) for player in rounds.byes[n]]
        assert len(set(byes)) == 3  # a different player each round
        met = [frozenset(pair) for n in rounds.games for pair in rounds.games[n]]
        assert len(met) == 16 and len(set(met)) == 16  # nobody met twice
        assert all(quitter.username not in pair for pair in rounds.games[4])
        assert alt_text(final).splitlines()[1:] == swiss_table(
            names, wins, byes, quitter.username
        ), alt_text(final)


# --- what makes no sense, answered privately -------------------------------------------------


async def refused(result: InteractionResult, *words: str) -> str:
    """The private answer to a refused command or click, which says ``words``."""
    assert result.ephemeral, result.content
    for saying in words:
        assert saying in result.content, result.content
    return result.content


def too_many_rounds(players: int, most: int) -> str:
    return said(
        _(
            "A Swiss tournament of {players} players can have at most {most} rounds (after that "
            "players would meet again); choose fewer rounds or more players."
        ),
        players=players,
        most=most,
    )


async def test_what_makes_no_sense_is_answered_privately(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    fake.limits.per_channel = False  # five threads in a channel: the limits' own test waits
    the = club(table, 4)
    alice, bob, carol, dave = the.players
    games = table.games
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        # Players make only small round robins of their own; more rounds than players allow.
        own = await fake.run_command(
            alice, games, "dvonn tournament create", {"name": "Mine", "format": "swiss"}
        )
        organisers_only = _(
            "Players may make a small round robin of their own (at most {most} players); other "
            "formats, and rated or larger tournaments, need Manage Server or the server's "
            "organiser role."
        )
        await refused(own, said(organisers_only, most=8))
        too_long = await create(the, format="swiss", rounds=8, max_players=4)
        await refused(too_long, too_many_rounds(4, 3))

        # A knockout with one player cannot begin; only its organiser may start it.
        answer = await create(the, format="knockout")
        assert answer.ephemeral and made(bot.mentions, FIRST_TOURNAMENT) in answer.content, (
            answer.content
        )
        post = await fake.wait_for_message(games, lambda m: bool(m.buttons()))
        joined = await fake.click(alice, post, label=said(_("Join")))
        assert in_now(1) in joined.content
        twice = await fake.click(alice, post, label=said(_("Join")))
        await refused(twice, said(_("You are already in {name}."), name=NAME))
        not_theirs = await fake.run_command(bob, games, "dvonn tournament start")
        await refused(not_theirs, said(ORGANISERS_ONLY))
        alone = await fake.run_command(the.organiser, games, "dvonn tournament start")
        too_few = _("{name} needs at least {needed} players to begin; players in so far: {count}.")
        await refused(alone, said(too_few, name=NAME, needed=2, count=1))
        not_in = await fake.run_command(bob, games, "dvonn tournament withdraw")
        not_begun = _("{name} has not begun yet: to leave it, use `/dvonn tournament leave`.")
        await refused(not_in, said(not_begun, name=NAME, mentions=bot.mentions))
        called_off = await fake.run_command(the.organiser, games, "dvonn tournament cancel")
        cancelled = _("{tournament} is called off; its running games are aborted.")
        assert called_off.ephemeral and said(cancelled, tournament=named()) in called_off.content
        await fake.wait_until(lambda: not post.buttons(), what="the Join button gone")

        # Full: two places taken, and it waits for its start time.
        answer = await create(the, format="round_robin", max_players=2, start_in_hours=2)
        assert made(bot.mentions, FIRST_TOURNAMENT + 1) in answer.content, answer.content
        for player in (alice, bob):
            await fake.run_command(
                player, games, "dvonn tournament join", {"tournament": FIRST_TOURNAMENT + 1}
            )
        full = await fake.run_command(
            carol, games, "dvonn tournament join", {"tournament": FIRST_TOURNAMENT + 1}
        )
        await refused(full, said(_("{name} is full ({most} players)."), name=NAME, most=2))

        # Begun: entries are closed (its post no longer offers to join), and someone who is
        # not in it cannot withdraw.
        answer = await create(the, format="swiss", rounds=1, max_players=2)
        assert made(bot.mentions, FIRST_TOURNAMENT + 2) in answer.content, answer.content
        swiss = _("Swiss")
        third = said(
            POSTED,
            tournament=named(FIRST_TOURNAMENT + 2),
            format=swiss,
            organiser=the.organiser.mention,
        )
        post = await fake.wait_for_message(
            games, lambda m: third in m.content and bool(m.buttons())
        )
        for player in (carol, dave):
            await fake.click(player, post, label=said(_("Join")))
        await fake.wait_until(lambda: not post.buttons(), what="the Join button gone")
        late = await fake.run_command(
            bob, games, "dvonn tournament join", {"tournament": FIRST_TOURNAMENT + 2}
        )
        await refused(late, said(_("{name} has already begun: entries are closed."), name=NAME))
        stranger = await fake.run_command(
            bob, games, "dvonn tournament withdraw", {"tournament": FIRST_TOURNAMENT + 2}
        )
        await refused(stranger, said(_("You are not in {name}."), name=NAME))
        not_theirs = await fake.run_command(
            bob, games, "dvonn tournament cancel", {"tournament": FIRST_TOURNAMENT + 2}
        )
        await refused(not_theirs, said(ORGANISERS_ONLY))

        # A Swiss of five rounds with three players in (a bye's seat makes four: three
        # rounds at most) cannot begin either.
        answer = await create(the, format="swiss", rounds=5)
        assert made(bot.mentions, FIRST_TOURNAMENT + 3) in answer.content, answer.content
        for player in (alice, bob, carol):
            await fake.run_command(
                player, games, "dvonn tournament join", {"tournament": FIRST_TOURNAMENT + 3}
            )
        early = await fake.run_command(
            the.organiser, games, "dvonn tournament start", {"tournament": FIRST_TOURNAMENT + 3}
        )
        await refused(early, too_many_rounds(3, 3))
        # Nothing refused was posted: the games channel holds the four tournaments' posts
        # and the one game of #3.
        fourth = said(
            POSTED,
            tournament=named(FIRST_TOURNAMENT + 3),
            format=swiss,
            organiser=the.organiser.mention,
        )
        await fake.wait_for_message(games, lambda m: m.content.startswith(fourth))
        posts = [m for m in fake.messages_in(games) if m.author_id == fake.bot.id]
        assert len(posts) == 5, [m.content for m in posts]


# --- a round of many games at once, within Discord's limits ---------------------------------


FEW_429S = 3
"""At most this many 429s in a burst of turns: the first call of each kind of limit learns it."""
WINDOWS_SHORTER = 10
"""Discord's per-channel windows, this many times shorter: 28 games begin in seconds."""
THREAD_START = "POST /channels/{channel_id}/messages/{message_id}/threads"
"""Starting a thread from a post (a game's thread): its bucket's window, waited out."""


@pytest.mark.slow
# Discord's limits are the same whatever the bot stores in: one backend is enough.
@pytest.mark.parametrize("database_target", ["sqlite"], indirect=True)
async def test_twenty_eight_games_begin_at_once_within_the_rate_limits(
    table: Table, bot_runner: BotRunner
) -> None:
    """A round robin of eight begins all its 28 games when the eighth player joins: each gets
    its post in the channel, its thread and its first post, with Discord's limits on (five
    threads per 10 s in a channel, five posts per 5 s: about a minute; here in windows ten
    times shorter, the same counts), and the bot waits them out instead of running into them.
    Then a turn in every game, all within a second: each board posted once, pinging the next
    player, with hardly a 429 (the first call of a kind of limit may learn it)."""
    fake = table.fake
    assert fake.limits.enabled and fake.limits.per_channel and fake.limits.global_per_second
    shorter_windows(fake, WINDOWS_SHORTER)
    thread_window = fake.limits.bucket(THREAD_START).per
    the = club(table, 8)
    async with bot_runner.run() as bot:
        answer = await create(the, format="round_robin", max_players=8)
        assert answer.ephemeral and made(bot.mentions, FIRST_TOURNAMENT) in answer.content, (
            answer.content
        )
        before = fake.traffic.snapshot()
        for count, player in enumerate(the.players[:-1], start=1):
            joined = await fake.run_command(player, table.games, "dvonn tournament join")
            assert joined.ephemeral and in_now(count) in joined.content, joined.content
        # From before the last join: the tournament begins, and its first threads are started,
        # while that command is answered.
        started = time.monotonic()
        last_in = await fake.run_command(the.players[-1], table.games, "dvonn tournament join")
        full = _(
            "You are in {tournament}: it is full, and has begun. Your games get their threads here."
        )
        assert last_in.ephemeral and said(full, tournament=named()) in last_in.content
        games = await wait_for_games(the, 28, timeout=120)
        took = time.monotonic() - started
        assert sorted(games) == list(range(1, 29))
        # 28 starts at five a window: the last five windows after the first were waited out.
        assert took >= 5 * thread_window, took
        for game in games.values():
            (first,) = fake.messages_in(game.thread)
            assert first.pinged_user_ids == {game.white.id}, first.content
        met = {frozenset((g.white.id, g.black.id)) for g in games.values()}
        assert len(met) == 28
        has_begun = said(BEGUN, tournament=named())
        begun = await fake.wait_for_message(
            tournament_thread(the), lambda m: has_begun in m.content
        )
        played = said(GAMES_PLAYED, format=_("round robin"), played=0, games=28)
        assert played in alt_text(begun)
        traffic = fake.traffic.snapshot() - before
        print(f"28 games began in {took:.1f} s; {traffic.total} calls; 429s {traffic.rate_limited}")
        assert not traffic.rate_limited, traffic.rate_limited
        assert traffic.invalid == 0 and traffic.banned == 0

        async def turn(game: Paired, delay: float) -> RecordedMessage:
            await asyncio.sleep(delay)
            answer = await fake.run_command(game.white, game.thread, "dvonn place", {"cell": "E3"})
            assert is_board_post(answer.message), answer.content
            assert answer.message is not None
            return answer.message

        before = fake.traffic.snapshot()
        ordered = list(games.values())
        boards = await asyncio.gather(*(turn(g, i / len(ordered)) for i, g in enumerate(ordered)))
        for game, board in zip(ordered, boards, strict=True):
            assert board.pinged_user_ids == {game.black.id}
            posts = [m for m in fake.messages_in(game.thread) if is_board_post(m)]
            assert posts[-1] is board and len(posts) == 2  # the first post, then this one
        traffic = fake.traffic.snapshot() - before
        assert sum(traffic.rate_limited.values()) <= FEW_429S, traffic.rate_limited
        assert traffic.invalid <= FEW_429S and traffic.banned == 0
