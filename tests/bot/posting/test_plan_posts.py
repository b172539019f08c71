"""The posts of a move answered by a planned reply, without Discord: the move's post pings
nobody (the reply is played already), the reply's says it was planned and pings the player to
move; and an announcement keeps both marks."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import rules
from bot.games.core import announcements
from bot.i18n import ENGLISH
from bot.posting.texts import Players, turn_post
from bot.storage import NewNotification
from bot.storage.models import Notification
from tests.bot.posting.test_texts import ALICE, BOB, new_game, play

PLAYERS = Players("Alice", "Bob")


def test_a_move_followed_by_a_planned_reply_pings_nobody_and_says_it_follows() -> None:
    game, move = play(new_game(ALICE, BOB), rules.parse_move("E3"))
    post = turn_post(game, PLAYERS, [move], None, followed=True)
    assert post.ping == ()
    content = [ENGLISH.render(text) for text in post.content]
    assert content == ["Alice placed a DVONN piece on E3.", "Bob had planned a reply: it follows."]
    assert not any(f"<@{BOB}>" in line for line in content)


def test_a_planned_reply_says_so_and_pings_the_player_to_move() -> None:
    game, _ = play(new_game(ALICE, BOB), rules.parse_move("E3"))
    game, reply = play(game, rules.parse_move("F4"))
    planned = dataclasses.replace(reply, planned=True)
    post = turn_post(game, PLAYERS, [planned], None)
    assert post.ping == (ALICE,)
    content = [ENGLISH.render(text) for text in post.content]
    assert content[:2] == ["Bob had planned this reply:", "Bob placed a DVONN piece on F4."]
    assert f"<@{ALICE}>" in content[-1]


def test_an_announcement_keeps_the_planned_mark_and_the_reply_that_follows() -> None:
    game, _ = play(new_game(ALICE, BOB), rules.parse_move("E3"))
    game, reply = play(game, rules.parse_move("F4"))
    notice = announcements.turn(game, [dataclasses.replace(reply, planned=True)], followed=True)
    stored = _stored(notice)
    turn = announcements.read_turn(stored, game)
    assert turn.followed and turn.moves[0].planned
    plain = announcements.read_turn(_stored(announcements.turn(game, [reply])), game)
    assert not plain.followed and not plain.moves[0].planned


def _stored(notice: NewNotification) -> Notification:
    """An announcement as the outbox reads it back."""
    return Notification(
        id=1,
        kind=notice.kind,
        user_id=notice.user_id,
        game_id=notice.game_id,
        payload=dict(notice.payload),
        created_at=datetime(2026, 3, 1, tzinfo=UTC),
        attempts=0,
    )
