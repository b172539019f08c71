"""Correspondence play through the fake Discord: clocks, reminders, vacations, takebacks,
ratings, replays, import/export and settings. The clock is moved by hand; nothing sleeps."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

import rules
from bot.games.clocks.errors import VacationNotAllowed
from bot.games.clocks.timekeeping import VACATION_DAYS_PER_YEAR
from bot.games.takebacks.errors import NothingToTakeBack, OwnTakeback
from bot.i18n import Text, _, n_
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import board_image, play_turn, said, said_pattern
from tests.bot.e2e.test_game import accept
from tests.fakediscord import FakeChannel, Permission, UserAttachment


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def before_the_deadline(count: int) -> str:
    """The first line of a reminder of ``count`` games."""
    return said(
        n_(
            "Your move in {count} DVONN game before the deadline:",
            "Your move in {count} DVONN games before their deadlines:",
            count,
        )
    )


THREE_DAYS = n_("{count} day per move", "{count} days per move", 3)


async def clocked_game(table: Table, days: int = 1) -> FakeChannel:
    challenge = await table.fake.run_command(
        table.alice,
        table.games,
        "dvonn challenge",
        {"opponent": table.bob, "colour": "W", "clock": f"days:{days}"},
    )
    assert challenge.message is not None
    return await accept(table, challenge.message, table.bob)


@pytest.mark.slow
async def test_a_player_who_lets_the_clock_run_out_loses_once_even_across_a_restart(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0):
        thread = await clocked_game(table)
        first = fake.messages_in(thread)[-1]
        assert "<t:" in str(first.embeds)  # the deadline, as a Discord timestamp
        clock.advance(days=2)  # Alice (White) never places
    async with bot_runner.run(sync=False, clock=clock, housekeeping_interval=0) as bot:
        before = fake.mark()
        await bot.housekeeping()
        on_time = said(
            _("{loser} ran out of time: {winner} wins on time."), loser="alice", winner="bob"
        )
        ended = await fake.wait_for_message(thread, lambda m: on_time in str(m.embeds))
        assert ended.pinged_user_ids == {table.alice.id, table.bob.id}
        assert board_image(ended).width > 0
        await bot.housekeeping()  # again: nothing new
        announced = [m for m in fake.messages_in(thread, after=before) if on_time in str(m.embeds)]
        assert len(announced) == 1
        profile = await fake.run_command(table.bob, table.games, "dvonn profile")
        record = n_(
            "Rating {rating} (± {deviation}) · {count} game: {wins} won, {losses} lost, {draws} "
            "drawn",
            "Rating {rating} (± {deviation}) · {count} games: {wins} won, {losses} lost, {draws} "
            "drawn",
            1,
        )
        assert said_pattern(record, wins=1, losses=0, draws=0).search(profile.content)


async def test_reminders_come_by_dm_once_for_all_games(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        one = await clocked_game(table)
        second_channel = table.guild.add_text_channel("more-games")
        challenge = await fake.run_command(
            table.alice,
            second_channel,
            "dvonn challenge",
            {"opponent": table.carol, "colour": "W", "clock": "days:1"},
        )
        assert challenge.message is not None
        two = await accept(table, challenge.message, table.carol)
        clock.advance(hours=2)
        await bot.housekeeping()
        (dm,) = fake.dms_to(table.alice)
        assert f"<#{one.id}>" in dm.content and f"<#{two.id}>" in dm.content
        assert dm.content.startswith(before_the_deadline(2))
        await bot.housekeeping()
        assert len(fake.dms_to(table.alice)) == 1  # not twice


async def test_reminders_fall_back_to_the_thread_and_can_be_turned_off(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    shy = fake.add_user("shy", table.guild, accepts_dms=False)
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        off = await fake.run_command(table.bob, table.games, "dvonn notify", {"enabled": False})
        assert off.ephemeral and said(_("Deadline reminders: off.")) in off.content, off.content
        challenge = await fake.run_command(
            shy,
            table.games,
            "dvonn challenge",
            {"opponent": table.bob, "colour": "W", "clock": "days:1"},
        )
        assert challenge.message is not None
        thread = await accept(table, challenge.message, table.bob)
        clock.advance(hours=2)
        await bot.housekeeping()
        reminder = fake.last_message(thread)
        assert reminder is not None and reminder.pinged_user_ids == {shy.id}
        assert before_the_deadline(1) in reminder.content
        await play_turn(fake, shy, thread, rules.parse_move("E3"))
        clock.advance(hours=20)  # Bob's deadline is near, but he turned reminders off
        await bot.housekeeping()
        assert fake.dms_to(table.bob) == []


async def test_a_vacation_pauses_clocks_and_the_opponent_is_told(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        thread = await clocked_game(table)
        reply = await fake.run_command(table.alice, table.games, "dvonn vacation", {"days": 3})
        paused = n_(
            "Your clock is paused until {until} in your {count} running game.",
            "Your clocks are paused until {until} in your {count} running games.",
            1,
        )
        assert reply.ephemeral and said_pattern(paused).search(reply.content), reply.content
        assert said(_("Vacation days left this year: {left}."), left=11) in reply.content
        on_vacation = said_pattern(
            _(
                "{opponent}: {player} is on vacation until {until}; their clock is paused until "
                "then."
            ),
            opponent=table.bob.mention,
            player="alice",
        )
        told = await fake.wait_for_message(thread, lambda m: bool(on_vacation.search(m.content)))
        assert told.pinged_user_ids == {table.bob.id}
        clock.advance(days=3, hours=12)  # past the old deadline, inside the paused one
        await bot.housekeeping()
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.is_active
        too_long = await fake.run_command(table.alice, table.games, "dvonn vacation", {"days": 14})
        refusal = said(VacationNotAllowed, left=11, allowance=VACATION_DAYS_PER_YEAR, days=14)
        assert too_long.ephemeral and refusal in too_long.content, too_long.content


async def test_takeback_accepted_and_declined_with_buttons(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run() as bot:
        thread = await clocked_game(table)
        await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
        nothing = await fake.run_command(table.bob, thread, "dvonn takeback")
        assert nothing.ephemeral and said(NothingToTakeBack) in nothing.content, nothing.content
        asked = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert asked.message is not None and asked.message.pinged_user_ids == {table.bob.id}
        own = await fake.click(table.alice, asked.message, label=said(_("Accept the takeback")))
        assert own.ephemeral and said(OwnTakeback) in own.content, own.content
        await fake.click(table.bob, asked.message, label=said(_("Accept the takeback")))
        accepted = said(_("Takeback accepted: {moves} undone."), moves="E3")
        post = await fake.wait_for_message(thread, lambda m: accepted in str(m.embeds))
        assert post.pinged_user_ids == {table.alice.id}
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.position.ply == 0
        await play_turn(fake, table.alice, thread, rules.parse_move("A1"))
        again = await fake.run_command(table.alice, thread, "dvonn takeback")
        assert again.message is not None
        declined = await fake.click(table.bob, again.message, label=said(_("Decline")))
        declined_it = _("{player} declined the takeback: the game goes on.")
        assert said(declined_it, player="bob") in declined.content, declined.content
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.position.ply == 1


@pytest.mark.slow
async def test_ratings_leaderboard_replay_and_export(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run() as bot:
        channels = []
        for n in range(3):
            channel = table.guild.add_text_channel(f"rated-{n}")
            challenge = await fake.run_command(
                table.alice, channel, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
            )
            assert challenge.message is not None
            thread = await accept(table, challenge.message, table.bob)
            await play_turn(fake, table.alice, thread, rules.parse_move("E3"))
            await play_turn(fake, table.bob, thread, rules.parse_move("F3"))
            game = await bot.service.game_in_channel(thread.id)
            assert game is not None
            await bot.service.resign(game.id, table.bob.id)
            channels.append(thread)
        board = await fake.run_command(table.carol, table.games, "dvonn leaderboard")
        assert board.ephemeral
        lines = board.content.splitlines()
        assert lines[1].startswith("1. alice") and lines[2].startswith("2. bob")
        replay = await fake.run_command(table.carol, channels[0], "dvonn replay")
        (gif,) = replay.files
        frames = Image.open(io.BytesIO(gif.data))
        assert frames.format == "GIF" and getattr(frames, "n_frames", 1) == 2  # one per action
        assert len(gif.data) < 8 * 1024 * 1024
        exported = await fake.run_command(table.carol, channels[0], "dvonn export")
        (transcript,) = exported.files
        assert (
            rules.format_record(rules.parse_little_golem(transcript.data.decode()).moves) == "E3 F3"
        )


async def test_import_shows_a_transcript_on_an_analysis_board(
    table: Table, bot_runner: BotRunner, shared_dir: Path
) -> None:
    line = (shared_dir / "oracle" / "random_games_sample.jsonl").open().readline()
    moves = [rules.parse_move(p["action"]) for p in json.loads(line)["positions"]]
    transcript = rules.format_little_golem(moves, headers={"White": "ann", "Black": "ben"})
    async with bot_runner.run():
        shown = await table.fake.run_command(
            table.carol,
            table.games,
            "dvonn import",
            {"transcript": UserAttachment("game.txt", transcript.encode()), "ply": 60},
        )
        analysis = n_(
            "Analysis board (not a game): {white} vs {black} after {ply} of {count} action.",
            "Analysis board (not a game): {white} vs {black} after {ply} of {count} actions.",
            len(moves),
        )
        assert said(analysis, white="ann", black="ben", ply=60) in shown.content
        assert shown.files and shown.files[0].filename == "board.png"
        bad = await table.fake.run_command(
            table.carol,
            table.games,
            "dvonn import",
            {"transcript": UserAttachment("x.txt", b"1. e3 e3")},
        )
        unreadable = _("This is not a transcript I can read: {error}")

        def occupied(number: int) -> Text:
            return _(
                rules.TranscriptReason.BAD_ACTION.value,
                number=number,
                token="e3",
                cause=_(rules.IllegalReason.CELL_OCCUPIED.value, cell="E3"),
            )

        assert bad.ephemeral and said(unreadable, error=occupied(2)) in bad.content
        table.carol.locale = "ru"  # the whole explanation in the reader's language
        bad = await table.fake.run_command(
            table.carol,
            table.games,
            "dvonn import",
            {"transcript": UserAttachment("x.txt", b"1. e3 d3 2. e3")},
        )
        assert bad.ephemeral
        assert said(unreadable, error=occupied(3), locale="ru") in bad.content, bad.content
        assert not any(word in bad.content for word in ("action", "occupied", "transcript"))


async def test_server_settings_need_manage_server(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    admin = fake.add_user(
        "admin", table.guild, roles=[table.guild.add_role("admins", Permission.MANAGE_GUILD)]
    )
    async with bot_runner.run():
        shown = await fake.run_command(table.alice, table.games, "dvonn settings")
        default_clock = _("Default clock: {clock}")
        assert shown.ephemeral
        assert said(default_clock, clock=_("not set (no clock)")) in shown.content
        refused = await fake.run_command(
            table.alice, table.games, "dvonn settings", {"clock": "days:3"}
        )
        only_managers = _("Only members who may manage the server can change its settings.")
        assert refused.ephemeral and said(only_managers) in refused.content, refused.content
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"clock": "days:3", "allow": table.games}
        )
        assert said(_("Settings saved.")) in saved.content
        assert said(default_clock, clock=THREE_DAYS) in saved.content
        elsewhere = await fake.run_command(table.alice, table.no_threads, "dvonn challenge")
        played_in = _("DVONN is played in {channels} on this server: start your game there.")
        assert elsewhere.ephemeral
        assert said(played_in, channels=f"<#{table.games.id}>") in elsewhere.content
        here = await fake.run_command(table.alice, table.games, "dvonn challenge")
        looking = _(
            "{player} is looking for a DVONN opponent ({clock}, {colour}): anyone here may accept."
        )
        assert said_pattern(looking, player="alice", clock=THREE_DAYS).search(here.content)


@pytest.mark.slow
async def test_a_reminder_dm_speaks_the_players_language(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    """Discord gives no locale outside interactions: the bot remembers the player's."""
    fake = table.fake
    table.alice.locale = "ru"  # an English server, a Russian player
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        await clocked_game(table)
    async with bot_runner.run(sync=False, clock=clock, housekeeping_interval=0) as bot:
        clock.advance(hours=2)
        await bot.housekeeping()  # after a restart: the language came from the database
        (dm,) = fake.dms_to(table.alice)
        russian = bot.catalogues.render(
            n_(
                "Your move in {count} DVONN game before the deadline:",
                "Your move in {count} DVONN games before their deadlines:",
                1,
            ),
            "ru",
        )
        assert dm.content.startswith(russian)
        assert not dm.content.startswith(before_the_deadline(1))
