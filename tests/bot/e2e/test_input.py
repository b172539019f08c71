"""Bad input, as players type it on Discord: every mistake gets a short private answer, and each
command does only what it says."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import discord
import pytest

import rules
from bot.app import DvonnBot
from bot.i18n import ENGLISH, Text, _, n_
from bot.interactions.errors import ErrorHandler
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern, says_played
from tests.bot.e2e.test_game import start_game
from tests.fakediscord import InteractionResult, UserAttachment

LONG = 6000  # Discord lets a user type this much into an option


async def _positions(bot: DvonnBot, table: Table, place: Any) -> rules.Position:
    game = await bot.service.game_in_channel(place.id)
    assert game is not None
    position: rules.Position = game.position
    return position


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("dvonn play", {"move": "E3F4" * 500}),  # 2,000 characters
        ("dvonn play", {"move": "x" * LONG}),
        ("dvonn place", {"cell": "E" * LONG}),
        ("dvonn move", {"from": "E3" * 3000, "to": "F4"}),
        ("dvonn move", {"from": "E3", "to": "`@everyone`" * 500}),
    ],
)
async def test_very_long_input_gets_a_short_answer_quoting_an_excerpt(
    table: Table, bot: DvonnBot, command: str, options: dict[str, str]
) -> None:
    place = await start_game(table)
    answer = await table.fake.run_command(table.alice, place, command, options)
    assert answer.ephemeral and 20 < len(answer.content) < 400, answer.content
    assert "…" in answer.content and "@everyone" not in answer.content
    assert (await _positions(bot, table, place)).ply == 0  # nothing was played


async def test_a_long_token_in_an_imported_transcript_is_quoted_short(
    table: Table, bot: DvonnBot
) -> None:
    transcript = b"1. e3 " + b"q" * 3000
    answer = await table.fake.run_command(
        table.carol,
        table.games,
        "dvonn import",
        {"transcript": UserAttachment("x.txt", transcript)},
    )
    unreadable = said_pattern(_("This is not a transcript I can read: {error}"))
    assert answer.ephemeral and unreadable.search(answer.content)
    assert len(answer.content) < 500 and "…" in answer.content


async def test_move_needs_both_cells_and_never_places(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    place = await start_game(table)
    for options in ({"from": "", "to": "J4"}, {"from": "J4", "to": " "}):
        answer = await fake.run_command(table.alice, place, "dvonn move", options)
        both = _(
            "Name both cells: from, the stack to move, and to, where it lands (such as E3 and F4)."
        )
        assert answer.ephemeral and said(both) in answer.content, answer.content
    answer = await fake.run_command(table.alice, place, "dvonn move", {"from": "E3", "to": "F4"})
    still_placing = _(
        "Pieces are still being placed: put one on an empty cell with /dvonn place. Moving starts "
        "once all 49 pieces are on the board."
    )
    assert answer.ephemeral and said(still_placing, mentions=bot.mentions) in answer.content
    assert (await _positions(bot, table, place)).ply == 0


@pytest.mark.machine_speed
async def test_place_only_places(table: Table, bot: DvonnBot) -> None:
    fake = table.fake
    place = await start_game(table)
    answer = await fake.run_command(table.alice, place, "dvonn place", {"cell": "D1C1"})
    not_a_cell = _("“{text}” is not a cell: /dvonn place takes one empty cell, such as E3.")
    assert answer.ephemeral, answer.content
    assert said(not_a_cell, text="D1C1", mentions=bot.mentions) in answer.content, answer.content
    # Fill the board, then try to place again: the phase's own explanation, with the command.
    position = await _positions(bot, table, place)
    users = {rules.Colour.WHITE: table.alice, rules.Colour.BLACK: table.bob}
    while position.is_placement:
        move = rules.legal_moves(position)[0]
        turn = await play_turn(fake, users[position.turn], place, move)
        assert turn.post is not None, turn.reply.content
        position = await _positions(bot, table, place)
    mover = users[position.turn]
    answer = await fake.run_command(mover, place, "dvonn place", {"cell": "E3"})
    placed = _(
        "All 49 pieces are on the board: placing is over. Move a stack with /dvonn move (from, to)."
    )
    assert answer.ephemeral, answer.content
    assert said(placed, mentions=bot.mentions) in answer.content, answer.content
    jump = next(m for m in rules.legal_moves(position) if isinstance(m, rules.Jump))
    typed = rules.CELL_NAMES[jump.source] + rules.CELL_NAMES[jump.target]
    answer = await fake.run_command(mover, place, "dvonn place", {"cell": typed})
    assert answer.ephemeral
    assert said(not_a_cell, text=typed, mentions=bot.mentions) in answer.content
    assert (await _positions(bot, table, place)).ply == rules.PLACEMENT_PLIES


@pytest.mark.parametrize("typed", ["Е3", "Ｅ３", "е3"])  # Cyrillic Е, full width, Cyrillic е
async def test_look_alike_letters_are_understood(table: Table, bot: DvonnBot, typed: str) -> None:
    place = await start_game(table)
    answer = await table.fake.run_command(table.alice, place, "dvonn place", {"cell": typed})
    assert says_played(answer, "E3"), answer.content
    assert (await _positions(bot, table, place)).ply == 1


async def test_simultaneous_accepts_make_one_thread_and_tell_the_others(
    table: Table, bot: DvonnBot
) -> None:
    fake = table.fake
    challenge = await fake.run_command(table.alice, table.games, "dvonn challenge")
    assert challenge.message is not None
    clicks = [
        fake.send_click(user, challenge.message, label=said(_("Accept")))
        for user in (table.bob, table.carol, table.moderator)
    ]
    for click in clicks:
        await click.wait_response(timeout=5)
    await asyncio.gather(*(click.settled(timeout=10) for click in clicks))
    taken = said(_("This challenge has already been accepted."))

    def refused() -> list[InteractionResult]:
        # (the winner, new to DVONN, may have a followup too: the lessons' offer)
        return [c for c in clicks if any(taken in f.content for f in c.followups)]

    await fake.wait_until(lambda: len(refused()) == 2, what="the two late clicks' answers")
    assert len(fake.threads_in(table.games)) == 1
    thread_calls = [r for r in fake.world.requests if r.path.endswith("/threads")]
    assert [r.status for r in thread_calls] == [201]  # no thread made in vain, none refused
    assert all(f.ephemeral for c in refused() for f in c.followups)


async def test_a_refused_error_reply_is_logged_and_replaced_by_a_short_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    sent: list[str] = []

    class Response:
        def is_done(self) -> bool:
            return False

        async def send_message(self, content: str, *, ephemeral: bool) -> None:
            if not sent:
                sent.append(content)
                raise discord.HTTPException(_Refusal(), {"code": 50035, "message": "Invalid"})
            sent.append(content)

    class Interaction:
        locale = "en-US"
        response = Response()
        command = None
        data: ClassVar[dict[str, str]] = {"custom_id": "dvonn:resign:1"}
        type = discord.InteractionType.component

    handler = ErrorHandler(ENGLISH)
    await handler.reply(Interaction(), rules_text := _long_text())  # type: ignore[arg-type]
    assert sent[0] == ENGLISH.render(rules_text)
    short = _("Sorry, I could not show you why that did not work. Please check what you typed.")
    assert len(sent) == 2 and said(short) in sent[1]
    assert "refused the error reply" in caplog.text


class _Refusal:
    status = 400
    reason = "Bad Request"


def _long_text() -> Text:
    return Text("{x}", {"x": "y" * 3000})


@pytest.mark.slow  # fetches 50 names after a restart
async def test_games_answers_in_time_with_a_cold_cache_and_fifty_rows(
    table: Table, bot_runner: BotRunner
) -> None:
    """After a restart no name is known: the lists fetch them, which may take longer than
    Discord's three seconds; the answer is deferred first, and never longer than a message."""
    fake = table.fake
    async with bot_runner.run() as bot:
        for number in range(50):
            rival = fake.add_user(f"rival-with-a-long-name-{number:02}", table.guild)
            challenge = await bot.service.create_challenge(
                guild_id=table.guild.id,
                channel_id=10_000 + number,
                challenger_id=table.alice.id,
                opponent_id=rival.id,
            )
            await bot.service.accept_challenge(challenge.id, rival.id)
    # A new process: nothing cached. The games' channels are not the server's: their posts go
    # to the players' DMs instead, fifty of them to Alice's at five per 5 s, still going when
    # the test is over; the bot need not wait for them (ten seconds by default) to stop.
    async with bot_runner.run(sync=False, shutdown_grace=0.5):
        hold = fake.world.hold_response("GET", r"/users/\d+$")  # Discord is slow to answer
        listing = fake.send_command(table.alice, table.games, "dvonn games")
        await listing.wait_response(timeout=3.5)
        assert listing.deferred  # within the three seconds
        fake.advance_time(3.5)  # past Discord's three seconds, on the fake's clock
        hold.release()
        await listing.settled(timeout=10)
        assert listing.ephemeral and said(_("Your running games:")) in listing.content
        more = [
            said(n_("…and {count} more game.", "…and {count} more games.", n)) for n in range(2, 50)
        ]
        assert len(listing.content) <= 2000 and any(m in listing.content for m in more)
        assert "rival-with-a-long-name-49" in listing.content  # the newest first
