"""Display names with emoji, as Discord's very often are, drawn in the images players see,
through the fake Discord on each backend: a game's board and a tournament's standings show
the emoji in colour, not as the missing-glyph box a font without it draws. The clock is
moved by hand; nothing sleeps.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

import rules
from bot.i18n import _
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import FIRST_TOURNAMENT, board_image, is_board_post, play_turn, said
from tests.fakediscord import Permission, RecordedMessage

ALICE = "Alice 🔥"
BOB = "김민준 🔥"
CAROL = "Алёна 🔥"


def fiery(image: Image.Image) -> int:
    """The pixels of a flame's orange and yellow: bright and saturated, hue 10° to 40°.

    Nothing else in a board or a standings image has them (the beige board is pale, the
    DVONN pieces red), and a missing-glyph box is drawn in the text's grey.
    """
    hsv = image.convert("RGB").convert("HSV")
    return sum(
        count
        for count, colour in hsv.getcolors(1 << 24) or []
        if isinstance(colour, tuple)
        and 7 <= colour[0] <= 28
        and colour[1] >= 150
        and colour[2] >= 180
    )


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


async def test_a_player_named_with_an_emoji_sees_it_on_the_board(
    table: Table, bot_runner: BotRunner
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    alice.global_name, bob.global_name = ALICE, "Bob"
    async with bot_runner.run():
        challenge = await fake.run_command(
            alice, table.games, "dvonn challenge", {"opponent": bob, "colour": "W"}
        )
        message = challenge.message
        assert message is not None and ALICE in challenge.content
        accepted = await fake.click(bob, message, label=said(_("Accept")))
        assert not accepted.ephemeral, accepted.content
        await fake.wait_until(lambda: not message.buttons(), what="the challenge to close")
        (thread,) = fake.threads_in(table.games)
        first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None)
        # Alice to move: her name in her card and in the header's "Alice 🔥 to move".
        assert fiery(board_image(first)) > 100

        turn = await play_turn(fake, alice, thread, rules.parse_move("E3"))
        assert is_board_post(turn.post), turn.reply.content
        # Bob to move: Alice's name in her card only, still in colour.
        assert fiery(board_image(turn.post)) > 40


async def test_a_tournament_s_standings_draw_the_emoji_in_names(
    table: Table, bot_runner: BotRunner, clock: ManualClock
) -> None:
    fake, games = table.fake, table.games
    players = (table.alice, table.bob, table.carol)
    for player, name in zip(players, (ALICE, BOB, CAROL), strict=True):
        player.global_name = name
    organisers = table.guild.add_role("organisers", Permission.MANAGE_GUILD)
    olga = fake.add_user("olga", table.guild, roles=[organisers])
    async with bot_runner.run(clock=clock, housekeeping_interval=0) as bot:
        made = await fake.run_command(
            olga,
            games,
            "dvonn tournament create",
            {"name": "Cup", "format": "round_robin", "clock": "days:3", "max_players": 3},
        )
        made_it = _(
            "Made {tournament}. Its post here takes entries; players join with its button or "
            "`/dvonn tournament join`."
        )
        assert made.ephemeral, made.content
        cup = f"#{FIRST_TOURNAMENT} **Cup**"
        assert said(made_it, tournament=cup, mentions=bot.mentions) in made.content
        post = await fake.wait_for_message(games, lambda m: bool(m.buttons()))
        for player in players:
            joined = await fake.click(player, post, label=said(_("Join")))
            assert joined.ephemeral, joined.content
        thread_id = await fake.wait_until(lambda: post.thread_id, what="the tournament's thread")
        assert thread_id is not None
        thread = fake.world.channel(thread_id)

        def standings() -> RecordedMessage | None:
            found = [m for m in fake.messages_in(thread) if m.files]
            return found[-1] if found else None

        begun = await fake.wait_until(standings, what="the standings")
        assert begun is not None
        (attached,) = begun.files
        assert attached.description is not None
        for name in (ALICE, BOB, CAROL):
            assert name in attached.description  # what a screen reader says: the names whole
        image = Image.open(io.BytesIO(attached.data))
        # Three names, three flames, each in colour.
        assert fiery(image) > 3 * 40
