"""Turn notices through the fake Discord, on each backend: a daily digest over three simulated
days with games in two servers and a DM, pings left out for whoever chose the digest or
nothing, the time-zone picker, the digest in the threads when DMs are closed, and the private
answers to what makes no sense. The clock is moved by hand; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import rules
from bot.i18n import Text, _, n_
from bot.posting.commands import CommandMentions
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import play_turn, said, said_pattern
from tests.bot.e2e.test_game import accept
from tests.bot.e2e.test_private import dm_between, global_runner, next_board
from tests.fakediscord import FakeChannel, FakeUser, RecordedMessage

__all__ = ["global_runner"]  # the fixture, for the DM game


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(datetime(2025, 1, 1, 12, 0, tzinfo=UTC))  # 13:00 in Warsaw


def at(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2025, 1, day, hour, minute, second, tzinfo=UTC)


def stamp(moment: datetime, style: str = "F") -> str:
    return f"<t:{int(moment.timestamp())}:{style}>"


NO_CLOCK = _("#{game} vs {opponent} ({phase}): {link} (no clock)")
CLOCKED = _("#{game} vs {opponent} ({phase}): {link}; play by {deadline} ({relative})")
REMINDERS_ON = _(
    "Deadline reminders: on (by DM where you allow it), whatever you chose for your turns."
)


def your_move_in(count: int) -> Text:
    """A digest's first line."""
    return n_(
        "Your daily DVONN digest: your move in {count} game.",
        "Your daily DVONN digest: your move in {count} games.",
        count,
    )


def one_dm_a_day(hour: str, zone: str, next_one: datetime) -> str:
    """What ``/dvonn notify`` says of a digest at ``hour`` in ``zone``, the next at ``next_one``."""
    return said(
        _(
            "Your turns: one DM a day at {hour} ({zone}), listing every game where it is your "
            "move, with links and the time left. The next: {when} ({relative})."
        ),
        hour=hour,
        zone=zone,
        when=stamp(next_one),
        relative=stamp(next_one, "R"),
    )


def digests(table: Table, user: FakeUser) -> list[RecordedMessage]:
    """The digests ``user`` was sent (of fewer than ten games, as here)."""
    heads = [said(your_move_in(count)) for count in range(1, 10)]
    return [m for m in table.fake.dms_to(user) if any(h in m.content for h in heads)]


def listed(digest: RecordedMessage) -> list[int]:
    """The game numbers a digest lists, in its order."""
    lines = [said_pattern(NO_CLOCK), said_pattern(CLOCKED)]
    return [
        int(found["game"])
        for text in digest.content.splitlines()
        for line in lines
        if (found := line.fullmatch(text))
    ]


def footnote(mentions: CommandMentions, hour: str, zone: str) -> str:
    """A digest's last line."""
    return said(
        _("(One DM a day at {hour} ({zone}) instead of pings; change it with /dvonn notify.)"),
        hour=hour,
        zone=zone,
        mentions=mentions,
    )


async def game_in(
    table: Table, place: FakeChannel, white: FakeUser, black: FakeUser, clock: str | None
) -> tuple[FakeChannel, RecordedMessage]:
    """A game ``white`` challenged ``black`` to in ``place``: where it is played, first post."""
    fake = table.fake
    options: dict[str, object] = {"opponent": black, "colour": "W"}
    if clock is not None:
        options["clock"] = clock
    challenge = await fake.run_command(white, place, "dvonn challenge", options)
    assert challenge.message is not None and not challenge.ephemeral, challenge.content
    if place.guild_id is None:  # a DM: played right there
        await fake.click(black, challenge.message, label=said(_("Accept")))
        return place, await next_board(table, place, challenge.message)
    where = await accept(table, challenge.message, black)
    first = fake.messages_in(where)[-1]
    return where, first


async def test_a_digest_over_three_days_with_games_in_two_servers_and_a_dm(
    table: Table, global_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    alice, bob, carol = table.alice, table.bob, table.carol
    other = fake.add_guild("Second club")
    elsewhere = other.add_text_channel("dvonn")
    for user in (alice, carol):
        other.add_member(user)
    private = await dm_between(table, alice, carol)
    async with global_runner.run(clock=clock, housekeeping_interval=0) as bot:
        # The zone picker shows each zone's time now, so Alice knows hers by her own clock.
        offered = await fake.autocomplete(
            alice, table.games, "dvonn notify", {"timezone": "warsa"}, focused="timezone"
        )
        assert [(c.name, c.value) for c in offered] == [("Europe/Warsaw · 13:00", "Europe/Warsaw")]
        chosen = await fake.run_command(
            alice,
            table.games,
            "dvonn notify",
            {"turns": "digest", "hour": 9, "timezone": "Europe/Warsaw"},
        )
        assert chosen.ephemeral
        # 09:00 in Warsaw is 08:00 UTC in January
        assert one_dm_a_day("09:00", "Europe/Warsaw", at(2, 8)) in chosen.content
        assert said(REMINDERS_ON) in chosen.content

        # Three games where Alice is White, to move first: no ping for her, her name is there.
        one, first = await game_in(table, table.games, alice, bob, "days:3")
        two, second = await game_in(table, elsewhere, alice, carol, "days:3")
        three, third = await game_in(table, private, alice, carol, None)
        for post in (first, second, third):
            assert alice.mention in post.content and alice.id not in post.pinged_user_ids
        games = [await bot.service.game_in_channel(place.id) for place in (one, two, three)]
        game_one, game_two, game_three = [g.id for g in games if g is not None]

        # In the DMs too, /dvonn notify says what stands.
        shown = await fake.run_command(alice, private, "dvonn notify")
        assert shown.ephemeral and one_dm_a_day("09:00", "Europe/Warsaw", at(2, 8)) in shown.content

        # Day 1: nothing before 08:00 UTC; then one digest of all three, with their links.
        clock.now = at(2, 7, 59)
        await bot.housekeeping()
        assert digests(table, alice) == []
        clock.now = at(2, 8, 0, 20)
        await bot.housekeeping()
        await bot.housekeeping()
        (day_one,) = digests(table, alice)
        assert said(your_move_in(3)) in day_one.content
        assert sorted(listed(day_one)) == sorted([game_one, game_two, game_three])
        assert f"https://discord.com/channels/{table.guild.id}/{one.id}" in day_one.content
        assert f"https://discord.com/channels/{other.id}/{two.id}" in day_one.content
        assert f"https://discord.com/channels/@me/{private.id}" in day_one.content
        no_clock = said(
            NO_CLOCK,
            game=game_three,
            opponent="carol",
            phase=_("placing, move {number}", number=1),
            link=f"https://discord.com/channels/@me/{private.id}",
        )
        assert no_clock in day_one.content
        assert footnote(bot.mentions, "09:00", "Europe/Warsaw") in day_one.content

        # Alice plays in the first two; Bob answers and is pinged (he kept pings); Alice is not.
        clock.advance(hours=1)
        mine = await play_turn(fake, alice, one, rules.parse_move("E3"))
        assert mine.post is not None and bob.id in mine.post.pinged_user_ids
        theirs = await play_turn(fake, bob, one, rules.parse_move("F3"))
        assert theirs.post is not None and alice.id not in theirs.post.pinged_user_ids
        assert alice.mention in theirs.post.content
        await play_turn(fake, alice, two, rules.parse_move("E3"))

        # Day 2: the digest lists the games waiting for her now, not the one she played.
        clock.now = at(3, 8, 1)
        await bot.housekeeping()
        day_two = digests(table, alice)[-1]
        assert len(digests(table, alice)) == 2
        assert sorted(listed(day_two)) == sorted([game_one, game_three])
        assert said(your_move_in(2)) in day_two.content

        # She moves her digest to 20:00: not again today, tomorrow evening.
        clock.now = at(3, 10)
        moved = await fake.run_command(alice, table.games, "dvonn notify", {"hour": 20})
        assert one_dm_a_day("20:00", "Europe/Warsaw", at(4, 19)) in moved.content

        # Carol answers in the second server; Alice plays in the DM game.
        await play_turn(fake, carol, two, rules.parse_move("F3"))
        await fake.run_command(alice, private, "dvonn place", {"cell": "E3"})

        # Day 3: nothing at 08:00 any more; at 20:00 Warsaw time the two games waiting.
        clock.now = at(4, 8, 1)
        await bot.housekeeping()
        assert len(digests(table, alice)) == 2
        clock.now = at(4, 19, 1)
        await bot.housekeeping()
        day_three = digests(table, alice)[-1]
        assert len(digests(table, alice)) == 3
        assert sorted(listed(day_three)) == sorted([game_one, game_two])
        await bot.housekeeping()
        assert len(digests(table, alice)) == 3
        # The first game's deadline (3 days from Bob's move) is near: reminded, digest or not.
        before_deadline = said(
            n_(
                "Your move in {count} DVONN game before the deadline:",
                "Your move in {count} DVONN games before their deadlines:",
                1,
            )
        )
        (reminder,) = [m for m in fake.dms_to(alice) if before_deadline in m.content]
        assert f"<#{one.id}>" in reminder.content


async def test_pings_off_the_digest_in_the_threads_when_dms_are_closed_and_refusals(
    table: Table, global_runner: BotRunner, clock: ManualClock
) -> None:
    fake = table.fake
    shy = fake.add_user("shy", table.guild, accepts_dms=False)
    async with global_runner.run(clock=clock, housekeeping_interval=0) as bot:
        # What makes no sense gets a private answer saying what to do.
        needs_hour = await fake.run_command(shy, table.games, "dvonn notify", {"turns": "digest"})
        at_what_hour = _(
            "At what hour should the daily digest come? Choose it with the `hour` option (00:00 "
            "to 23:00, your own time)."
        )
        assert needs_hour.ephemeral and said(at_what_hour) in needs_hour.content
        needs_zone = await fake.run_command(
            shy, table.games, "dvonn notify", {"turns": "digest", "hour": 7}
        )
        which_zone = _(
            "Discord does not tell me your time zone, so I need it once for the daily digest: "
            "start typing your city or region in the `timezone` option and pick it from the list "
            "(each shows its time now, so you can check it is yours)."
        )
        assert needs_zone.ephemeral and said(which_zone) in needs_zone.content
        unknown = await fake.run_command(
            shy, table.games, "dvonn notify", {"turns": "digest", "hour": 7, "timezone": "Mars"}
        )
        unknown_zone = _(
            'I do not know the time zone "{text}": start typing your city or region in the '
            "`timezone` option (Europe/Warsaw, America/New_York, Asia/Seoul) and pick it from the "
            "list, or give UTC or an offset such as UTC+05:30."
        )
        assert unknown.ephemeral and said(unknown_zone, text="Mars") in unknown.content
        assert (await bot.service.prefs(shy.id)).turns.value == "ping"  # nothing changed

        # Nothing: no ping, and the reply says where to look.
        quiet = await fake.run_command(table.bob, table.games, "dvonn notify", {"turns": "none"})
        nothing = _("Your turns: no ping and no digest; look at your games with /dvonn games.")
        assert said(nothing, mentions=bot.mentions) in quiet.content
        # An offset is a time zone too; the shy player's digest comes at 07:00 UTC+02:00.
        chosen = await fake.run_command(
            shy, table.games, "dvonn notify", {"turns": "digest", "hour": 7, "timezone": "UTC+2"}
        )
        assert one_dm_a_day("07:00", "UTC+02:00", at(2, 5)) in chosen.content
        thread, first = await game_in(table, table.games, shy, table.bob, None)
        assert first.pinged_user_ids == set()
        turn = await play_turn(fake, shy, thread, rules.parse_move("E3"))
        assert turn.post is not None and table.bob.id not in turn.post.pinged_user_ids
        back = await play_turn(fake, table.bob, thread, rules.parse_move("F3"))
        assert back.post is not None and back.post.pinged_user_ids == set()

        # The shy player's DMs are closed: the digest is one line in the game's thread.
        clock.now = at(2, 5, 0, 30)
        await bot.housekeeping()
        here = said(
            _("{player}: your move here (your daily digest; I cannot send you DMs)."),
            player=shy.mention,
        )
        line = await fake.wait_for_message(thread, lambda m: here in m.content)
        assert line.pinged_user_ids == {shy.id}
        await bot.housekeeping()
        assert len([m for m in fake.messages_in(thread) if here in m.content]) == 1

        # Shown without options: what stands; the old switch for reminders still works.
        shown = await fake.run_command(shy, table.games, "dvonn notify")
        assert one_dm_a_day("07:00", "UTC+02:00", at(3, 5)) in shown.content
        off = await fake.run_command(shy, table.games, "dvonn notify", {"enabled": False})
        assert said(_("Deadline reminders: off.")) in off.content
        assert one_dm_a_day("07:00", "UTC+02:00", at(3, 5)) in off.content
