"""What the bot posts about games, without Discord: each post mentions and pings the people it
calls, and never the bot itself (in a game against it, it would see its own name highlighted
in its own posts, and ask Discord to notify itself)."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta

import pytest

import rules
from bot.games.core.clocks import GameClock
from bot.games.core.results import GameOver, PlayedMove
from bot.games.core.timecontrol import LITTLE_GOLEM, Bank, DaysPerMove
from bot.i18n import ENGLISH
from bot.posting.texts import (
    GamePost,
    Players,
    board_post,
    clock_text,
    duration_text,
    ended_post,
    for_home,
    players_at_home,
    start_post,
    takeback_post,
    turn_post,
)
from bot.storage.models import EndReason, Game, GameStatus, Result

ALICE, BOB, BOT = 101, 202, 999
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def new_game(white: int, black: int, *, computer: int | None = None) -> Game:
    return Game(
        id=7,
        guild_id=1,
        channel_id=2,
        parent_channel_id=None,
        challenge_id=None,
        white_id=white,
        black_id=black,
        status=GameStatus.ACTIVE,
        position=rules.new_game(),
        version=0,
        clock_days=None,
        deadline_at=None,
        created_at=NOW,
        updated_at=NOW,
        rated=computer is None,
        computer_id=computer,
    )


def play(game: Game, move: rules.Move) -> tuple[Game, PlayedMove]:
    """``game`` after ``move``, and the move as the service reports it."""
    applied = rules.apply(game.position, move)
    colour = game.position.turn
    record = PlayedMove(
        game.position.ply, colour, game.player(colour), move, False, applied.removed, NOW
    )
    return dataclasses.replace(game, position=applied.after, version=game.version + 1), record


def resign(game: Game, by: int) -> tuple[Game, GameOver]:
    """``game`` after ``by`` resigned, and its ending."""
    loser = game.colour_of(by)
    assert loser is not None
    ended = dataclasses.replace(
        game,
        status=GameStatus.FINISHED,
        result=Result.WHITE if loser is rules.Colour.BLACK else Result.BLACK,
        end_reason=EndReason.RESIGNATION,
        ended_by=by,
        score=rules.score(game.position),
        finished_at=NOW,
    )
    return ended, GameOver.of(ended)


def mentioned(post: GamePost) -> set[int]:
    """The users a post mentions anywhere, as a reader gets it."""
    texts = [post.title, *post.lines, *post.content, *([post.footer] if post.footer else [])]
    return {int(m) for t in texts for m in re.findall(r"<@!?(\d+)>", ENGLISH.render(t))}


def content(post: GamePost) -> str:
    """The message text outside the embed, where pings go."""
    return "\n".join(ENGLISH.render(line) for line in post.content)


@pytest.mark.parametrize("bot_colour", list(rules.Colour))
def test_no_post_of_a_game_against_the_bot_mentions_or_pings_it(bot_colour: rules.Colour) -> None:
    white, black = (BOT, ALICE) if bot_colour is rules.Colour.WHITE else (ALICE, BOT)
    players = Players(*(("dvonn-bot", "alice") if white == BOT else ("alice", "dvonn-bot")))
    game = new_game(white, black, computer=BOT)
    posts = {"start": start_post(game, players)}
    for move in (rules.Place(rules.E3), rules.Place(rules.F3)):  # a turn of each
        game, record = play(game, move)
        posts[f"after {move}"] = turn_post(game, players, [record], None)
    if game.to_move_id == ALICE:  # an accepted takeback leaves her to move
        posts["takeback"] = takeback_post(game, players, ["E3", "F3"])
    posts["board"] = board_post(game, players)
    ended, over = resign(game, ALICE)
    posts["last move"] = turn_post(ended, players, [record], over)
    posts["resigned"] = ended_post(ended, players, over)
    for name, post in posts.items():
        assert BOT not in mentioned(post), (name, content(post))
        assert BOT not in post.ping, name
    for name in ("last move", "resigned"):  # the end still calls the person
        assert content(posts[name]).endswith(f"<@{ALICE}>: the game is over."), name
        assert posts[name].ping == (ALICE,)
    if bot_colour is rules.Colour.WHITE:  # the bot places first: it calls nobody
        assert content(posts["start"]) == "The bot is thinking about its move."
        assert posts["start"].ping == ()
    else:
        assert content(posts["start"]).startswith(f"<@{ALICE}>, your turn (White)")
        assert posts["start"].ping == (ALICE,)


def test_the_end_of_a_game_between_people_calls_them_both() -> None:
    players = Players("alice", "bob")
    game, record = play(new_game(ALICE, BOB), rules.Place(rules.E3))
    ended, over = resign(game, BOB)
    for post in (turn_post(ended, players, [record], over), ended_post(ended, players, over)):
        assert content(post).endswith(f"<@{ALICE}> <@{BOB}>: the game is over.")
        assert post.ping == (ALICE, BOB)
    start = start_post(new_game(ALICE, BOB), players)
    assert start.ping == (ALICE,) and mentioned(start) == {ALICE}
    turn = turn_post(game, players, [record], None)
    assert turn.ping == (BOB,) and mentioned(turn) == {BOB}


def test_each_home_of_a_network_game_pings_and_mentions_only_its_own_player() -> None:
    players = Players("Alice", "Bob")
    names = {ALICE: "Alice", BOB: "Bob"}
    game = clocked(new_game(ALICE, BOB), GameClock.starting(LITTLE_GOLEM, NOW))
    game = dataclasses.replace(game, network=True, guild_id=None)
    moved, record = play(game, rules.Place(rules.E3))
    ended, over = resign(moved, BOB)
    posts = [
        start_post(game, players),
        turn_post(moved, players, [record], None),
        takeback_post(game, players, ["E3"]),
        board_post(game, players),
        ended_post(ended, players, over),
        turn_post(ended, players, [record], over),
    ]
    assert players_at_home(game, "W") == (ALICE,) and players_at_home(game, "B") == (BOB,)
    assert players_at_home(game, "*") == (ALICE, BOB) == players_at_home(game, "")
    for post in posts:
        for home, player in (("W", ALICE), ("B", BOB)):
            shown = for_home(post, players_at_home(game, home), names)
            assert set(shown.ping) == set(post.ping) & {player}
            assert mentioned(shown) == mentioned(post) & {player}
            # The same words otherwise: the other player named in plain words.
            plain = {f"<@{u}>": n for u, n in names.items() if u != player}
            for before, after in zip(
                [post.title, *post.lines, *post.content],
                [shown.title, *shown.lines, *shown.content],
                strict=True,
            ):
                expected = ENGLISH.render(before)
                for mention, name in plain.items():
                    expected = expected.replace(mention, name)
                assert ENGLISH.render(after) == expected
        both = for_home(post, (ALICE, BOB), names)
        assert both == post  # a home of both players: the post as it is
    call = for_home(posts[1], (ALICE,), names)
    assert content(call).endswith("Bob, your turn (Black): place a DVONN piece with /dvonn place.")
    last = for_home(posts[-1], (BOB,), names)
    assert content(last).endswith(f"Alice <@{BOB}>: the game is over.")


def clocked(game: Game, clock: GameClock) -> Game:
    return dataclasses.replace(
        game,
        clock_days=clock.clock_days,
        bank=clock.bank,
        deadline_at=clock.deadline_at,
        white_bank=clock.white_bank,
        black_bank=clock.black_bank,
    )


def test_every_board_post_shows_both_banks() -> None:
    players = Players("alice", "bob")
    game = clocked(new_game(ALICE, BOB), GameClock.starting(LITTLE_GOLEM, NOW))
    game = dataclasses.replace(game, black_bank=timedelta(days=9, hours=4, minutes=59))
    deadline = int((NOW + timedelta(days=10)).timestamp())
    expected = (
        "Clock: time bank of 10 d + 36 h a move, at most 10 d; "
        f"<@{ALICE}> must play by <t:{deadline}:f> (<t:{deadline}:R>), <@{BOB}> has 9 d 4 h in "
        "the bank."
    )
    moved, record = play(game, rules.Place(rules.E3))
    moved = dataclasses.replace(moved, deadline_at=NOW + timedelta(days=10))
    posts = {
        "start": start_post(game, players),
        "board": board_post(game, players),
        "takeback": takeback_post(game, players, ["E3"]),
    }
    for name, post in posts.items():
        assert expected in [ENGLISH.render(line) for line in post.lines], name
    turn = [ENGLISH.render(line) for line in turn_post(moved, players, [record], None).lines]
    assert f"<@{ALICE}> has 10 d in the bank." in turn[-1] and f"<@{BOB}> must play" in turn[-1]
    assert mentioned(posts["start"]) == {ALICE, BOB} and posts["start"].ping == (ALICE,)


def test_days_per_move_read_as_before() -> None:
    players = Players("alice", "bob")
    game = clocked(new_game(ALICE, BOB), GameClock.starting(DaysPerMove(3), NOW))
    deadline = int((NOW + timedelta(days=3)).timestamp())
    (line, *_) = start_post(game, players).lines
    assert ENGLISH.render(line) == (
        f"Clock: 3 days per move; <@{ALICE}> must play by <t:{deadline}:f> (<t:{deadline}:R>)."
    )


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (timedelta(days=10, hours=4, minutes=30), "10 d 4 h"),
        (timedelta(days=2), "2 d"),
        (timedelta(hours=5, minutes=20, seconds=59), "5 h 20 min"),
        (timedelta(hours=3), "3 h"),
        (timedelta(minutes=12), "12 min"),
        (timedelta(seconds=-5), "0 min"),
    ],
)
def test_what_is_in_a_bank_reads_short(amount: timedelta, text: str) -> None:
    assert ENGLISH.render(duration_text(amount)) == text


def test_clocks_are_named_alike_everywhere() -> None:
    assert ENGLISH.render(clock_text(None)) == "no clock"
    assert ENGLISH.render(clock_text(DaysPerMove(1))) == "1 day per move"
    assert ENGLISH.render(clock_text(LITTLE_GOLEM)) == (
        "time bank: 10 d + 36 h a move, at most 10 d"
    )
    odd = Bank(timedelta(hours=90, minutes=30), timedelta(minutes=45), timedelta(days=4))
    assert ENGLISH.render(clock_text(odd)) == "time bank: 3 d 18 h + 45 min a move, at most 4 d"
