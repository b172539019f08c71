"""Dark and light, through the fake Discord on each backend: a server's theme draws every image
posted there (`/dvonn settings theme`, Manage Server), a player's own theme what only they see
(`/dvonn board theme`, which also draws that board so), a game in a DM is drawn in the theme
its players share, and a theme nobody offered is refused privately.

Which theme an image is in is read from its pixels: the image draws its own background."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

import rules
from bot.i18n import _
from bot.storage.models import BoardTheme
from render import DEFAULT_THEME, LIGHT_THEME
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import (
    FIRST_TOURNAMENT,
    board_image,
    play_turn,
    said,
    said_pattern,
    send_move,
)
from tests.bot.e2e.test_game import start_game
from tests.fakediscord import (
    FakeChannel,
    FakeUser,
    InteractionResult,
    Permission,
    RecordedFile,
    RecordedMessage,
)
from tests.render.pixels import at, near

DARK, LIGHT = BoardTheme.DARK, BoardTheme.LIGHT
BACKGROUNDS = {DARK: DEFAULT_THEME.background, LIGHT: LIGHT_THEME.background}


def theme_of(image: Image.Image) -> BoardTheme:
    """The theme an image is drawn in, by its own background (a corner, where nothing else
    is drawn); fails if it is neither."""
    corner = at(image.convert("RGB"), (2, 2))
    found = [theme for theme, colour in BACKGROUNDS.items() if near(corner, colour, 12)]
    assert len(found) == 1, corner
    return found[0]


def board_theme(message: RecordedMessage | None) -> BoardTheme:
    """The theme of a game post's board."""
    return theme_of(board_image(message))


def file_theme(file: RecordedFile | None) -> BoardTheme:
    assert file is not None
    return theme_of(Image.open(io.BytesIO(file.data)))


def boards(table: Table, place: FakeChannel) -> list[RecordedMessage]:
    """The public posts with a board in ``place``."""
    return [m for m in table.fake.messages_in(place) if m.embed_image() and not m.ephemeral]


def admin_of(table: Table) -> FakeUser:
    admins = table.guild.add_role("admins", Permission.MANAGE_GUILD)
    return table.fake.add_user("admin", table.guild, roles=[admins])


def standings_theme(asked: InteractionResult) -> BoardTheme:
    """The theme of the standings image ``/dvonn tournament standings`` answered with."""
    assert asked.ephemeral and asked.message is not None, asked.content
    return file_theme(asked.message.files[0])


async def help_theme(table: Table, user: FakeUser) -> BoardTheme:
    """The theme of the picture in ``user``'s (private) ``/dvonn help``."""
    shown = await table.fake.run_command(user, table.games, "dvonn help")
    assert shown.ephemeral and shown.message is not None
    return file_theme(shown.message.embed_image())


async def test_a_servers_theme_draws_every_board_posted_there(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    admin = admin_of(table)
    async with bot_runner.run() as bot:
        shown = await fake.run_command(table.alice, table.games, "dvonn settings")
        posted_here = _("Boards and images posted here: {theme}")
        assert said(posted_here, theme=_("dark")) in shown.content  # the default
        refused = await fake.run_command(
            table.alice, table.games, "dvonn settings", {"theme": "light"}
        )
        only_managers = _("Only members who may manage the server can change its settings.")
        assert refused.ephemeral and said(only_managers) in refused.content
        assert (await bot.service.guild_settings(table.guild.id)).theme is None
        saved = await fake.run_command(admin, table.games, "dvonn settings", {"theme": "light"})
        assert saved.ephemeral and said(_("Settings saved.")) in saved.content
        assert said(posted_here, theme=_("light")) in saved.content

        place = await start_game(table)
        (first,) = boards(table, place)
        assert board_theme(first) is LIGHT
        turn = await play_turn(fake, table.alice, place, rules.Place(rules.E3))
        assert board_theme(turn.post) is LIGHT
        asked = await fake.run_command(table.bob, place, "dvonn board")
        assert not asked.ephemeral and board_theme(asked.message) is LIGHT
        assert not asked.followups  # nothing said of a theme nobody chose

        # A player who asks for a theme has that board in it (and keeps it as their own, told
        # privately); the server's posts stay light.
        own = await fake.run_command(table.bob, place, "dvonn board", {"theme": "dark"})
        assert not own.ephemeral and board_theme(own.message) is DARK
        (kept,) = await own.wait_for_followups()
        assert kept.ephemeral and kept.content == said(KEPT_DARK)
        assert (await bot.service.prefs(table.bob.id)).theme is DARK
        turn = await play_turn(fake, table.bob, place, rules.Place(rules.F4))
        assert board_theme(turn.post) is LIGHT

        # Back to dark: the next post is dark.
        await fake.run_command(admin, table.games, "dvonn settings", {"theme": "dark"})
        turn = await play_turn(fake, table.alice, place, rules.Place(rules.G3))
        assert board_theme(turn.post) is DARK


async def test_a_players_own_theme_draws_what_only_they_see(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run() as bot:
        assert await help_theme(table, table.carol) is DARK  # the default
        # No game here: the theme is kept all the same, and nothing is posted.
        kept = await fake.run_command(table.carol, table.games, "dvonn board", {"theme": "light"})
        assert kept.ephemeral
        assert kept.content.startswith(said(KEPT_LIGHT))
        assert said(_("(There is no game here to show.)")) in kept.content
        assert not fake.messages_in(table.games) or all(
            m.ephemeral for m in fake.messages_in(table.games)
        )
        assert (await bot.service.prefs(table.carol.id)).theme is LIGHT
        # Her private pictures are light; Bob's, who chose nothing, dark.
        assert await help_theme(table, table.carol) is LIGHT
        assert await help_theme(table, table.bob) is DARK

        # In a server that chose nothing, a game's posts stay in the default: her own theme is
        # for what she alone sees. Asked for, a board is drawn in it.
        place = await start_game(table)
        assert board_theme(boards(table, place)[0]) is DARK
        mine = await fake.run_command(table.carol, place, "dvonn board", {"theme": "light"})
        assert board_theme(mine.message) is LIGHT
        turn = await play_turn(fake, table.alice, place, rules.Place(rules.E3))
        assert board_theme(turn.post) is DARK


async def test_a_private_standings_table_is_in_the_readers_theme(
    table: Table, bot_runner: BotRunner
) -> None:
    # A server that chose light posts its standings light; a player who chose dark sees them
    # dark when they ask for them (privately).
    fake = table.fake
    fake.limits.per_channel = False  # a tournament's posts and threads, at machine speed
    admin = admin_of(table)
    async with bot_runner.run() as bot:
        await fake.run_command(admin, table.games, "dvonn settings", {"theme": "light"})
        made = await fake.run_command(
            admin,
            table.games,
            "dvonn tournament create",
            {"name": "Cup", "format": "swiss", "rounds": 1, "max_players": 2},
        )
        made_it = _(
            "Made {tournament}. Its post here takes entries; players join with its button or "
            "`/dvonn tournament join`."
        )
        assert made.ephemeral, made.content
        assert (
            said(made_it, tournament=f"#{FIRST_TOURNAMENT} **Cup**", mentions=bot.mentions)
            in made.content
        )
        post = await fake.wait_for_message(table.games, lambda m: bool(m.buttons()))
        for player in (table.alice, table.bob):
            await fake.click(player, post, label=said(_("Join")))
        game = await fake.wait_until(
            lambda: next((t for t in fake.threads_in(table.games) if boards(table, t)), None),
            what="the tournament's game",
        )
        assert game is not None and board_theme(boards(table, game)[0]) is LIGHT
        resign = await fake.run_command(table.alice, game, "dvonn resign")
        assert resign.message is not None
        (button,) = resign.message.buttons()
        await fake.click(table.alice, resign.message, button["custom_id"])
        (thread,) = [t for t in fake.threads_in(table.games) if t.name == "Cup"]
        standings = await fake.wait_for_message(thread, lambda m: bool(m.files))
        assert file_theme(standings.files[0]) is LIGHT

        await fake.run_command(table.bob, table.games, "dvonn board", {"theme": "dark"})
        asked = await fake.run_command(table.bob, table.games, "dvonn tournament standings")
        assert standings_theme(asked) is DARK
        asked = await fake.run_command(table.alice, table.games, "dvonn tournament standings")
        assert standings_theme(asked) is DARK  # hers: the default, not the server's


KEPT_DARK = _("From now on, boards shown only to you are dark.")
KEPT_LIGHT = _("From now on, boards shown only to you are light.")


def offer_a_stale_theme(table: Table, subcommand: str, value: str) -> None:
    """As if ``/dvonn <subcommand>`` had been registered when its themes held ``value`` (a
    deployment that offered another, then was rolled back; a client's cached command): the
    Discord client then lets a user send it."""
    (group,) = [c for c in table.fake.commands(table.guild) if c.name == "dvonn"]
    (command,) = [o for o in group.options if o["name"] == subcommand]
    (theme,) = [o for o in command["options"] if o["name"] == "theme"]
    theme["choices"] = [*theme["choices"], {"name": value, "value": value}]


@pytest.mark.parametrize(
    ("subcommand", "value"),
    [("board", "sepia"), ("board", "LIGHT"), ("board", "x" * 100), ("settings", "sepia")],
)
async def test_a_theme_the_bot_does_not_offer_is_refused_privately(
    table: Table, bot_runner: BotRunner, subcommand: str, value: str
) -> None:
    fake = table.fake
    admin = admin_of(table)
    async with bot_runner.run() as bot:
        place = await start_game(table)
        before = len(fake.messages_in(place))
        offer_a_stale_theme(table, subcommand, value)
        refused = await fake.run_command(admin, place, f"dvonn {subcommand}", {"theme": value})
        not_a_theme = said_pattern(_("“{text}” is not a theme: choose dark or light."))
        assert refused.ephemeral and not_a_theme.search(refused.content), refused.content
        assert len(refused.content) < 300, refused.content
        assert len(fake.messages_in(place)) == before  # no board
        assert (await bot.service.prefs(admin.id)).theme is None  # nothing kept
        assert (await bot.service.guild_settings(table.guild.id)).theme is None


@pytest.fixture
def global_runner(bot_runner: BotRunner) -> BotRunner:
    """Bots whose commands are global, as for DMs (see test_private)."""
    bot_runner.settings = dataclasses.replace(bot_runner.settings, dev_guild=None)
    return bot_runner


async def test_a_dm_game_is_drawn_in_the_theme_its_players_share(
    table: Table, global_runner: BotRunner
) -> None:
    fake = table.fake
    for user in (table.alice, table.bob):
        fake.install_app(user)
    place = fake.add_private_channel(table.alice, table.bob)
    async with global_runner.run() as bot:
        # Alice chose light before the game (where there was none); Bob has not chosen.
        await fake.run_command(table.alice, table.games, "dvonn board", {"theme": "light"})
        challenge = await fake.run_command(
            table.alice, place, "dvonn challenge", {"opponent": table.bob, "colour": "W"}
        )
        assert challenge.message is not None
        await fake.click(table.bob, challenge.message, label=said(_("Accept")))
        first = await fake.wait_for_message(place, lambda m: m.embed_image() is not None)
        assert board_theme(first) is DARK  # they differ: the default

        # Bob asks for light in the DM: that board is light, and now both chose it.
        asked = await fake.run_command(table.bob, place, "dvonn board", {"theme": "light"})
        shown = asked.message
        assert shown is not None and board_theme(shown) is LIGHT
        (kept,) = await asked.wait_for_followups()
        assert kept.ephemeral and said(KEPT_LIGHT) in kept.content
        assert (await bot.service.prefs(table.bob.id)).theme is LIGHT
        await send_move(fake, table.alice, place, rules.Place(rules.E3))
        post = await fake.wait_for_message(
            place,
            lambda m: m.embed_image() is not None and not m.ephemeral and m.id != shown.id,
            after=first,
        )
        assert board_theme(post) is LIGHT
