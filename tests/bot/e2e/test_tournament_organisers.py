"""Who runs a server's tournaments, through the fake Discord: members who may manage the
server, and the role `/dvonn settings` names; a player's own round robin (unrated: asking for
a rated one is refused); a tournament always has a clock; who may abort a tournament's game."""

from __future__ import annotations

import pytest

from bot.app import DvonnBot
from bot.games.core.timecontrol import LITTLE_GOLEM
from bot.games.play.errors import AbortNeedsOrganiser
from bot.games.tournaments.errors import OrganisersOnly, TournamentNeedsClock
from bot.games.tournaments.running import PLAYERS_OWN_MOST
from bot.i18n import _
from bot.posting.texts import clock_text
from bot.storage.models import TournamentStatus
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import FIRST_TOURNAMENT, said, said_pattern
from tests.fakediscord import FakeChannel, FakeUser, Permission

RUN_BY = _("Tournaments are run by: {who}")
MANAGERS = _("members who may manage the server")
SAVED = _("Settings saved.")
CALLED_OFF = _("Game #{game} was called off.")
MADE = _(
    "Made {tournament}. Its post here takes entries; players join with its button or "
    "`/dvonn tournament join`."
)


async def test_the_organiser_role_runs_tournaments_and_only_manage_server_sets_it(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    admins = table.guild.add_role("admins", Permission.MANAGE_GUILD)
    directors = table.guild.add_role("directors")
    admin = fake.add_user("admin", table.guild, roles=[admins])
    director = fake.add_user("director", table.guild, roles=[directors])
    swiss = {"name": "Winter Swiss", "format": "swiss", "clock": "days:3"}
    async with bot_runner.run() as bot:
        shown = await fake.run_command(table.alice, table.games, "dvonn settings")
        assert said(RUN_BY, who=MANAGERS) in shown.content, shown.content

        refused = await fake.run_command(
            director, table.games, "dvonn tournament create", dict(swiss)
        )
        assert refused.ephemeral and said(OrganisersOnly, most=PLAYERS_OWN_MOST) in refused.content

        not_yours = await fake.run_command(
            director, table.games, "dvonn settings", {"organiser_role": directors}
        )
        only_managers = _("Only members who may manage the server can change its settings.")
        assert not_yours.ephemeral and said(only_managers) in not_yours.content
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"organiser_role": directors}
        )
        assert saved.ephemeral and said(SAVED) in saved.content
        role = _("members who may manage the server, and <@&{role}>", role=directors.id)
        assert said(RUN_BY, who=role) in saved.content

        made = await fake.run_command(director, table.games, "dvonn tournament create", swiss)
        winter = said(
            MADE, tournament=f"#{FIRST_TOURNAMENT} **Winter Swiss**", mentions=bot.mentions
        )
        assert made.ephemeral and winter in made.content
        # A player without the role may still make a small round robin of their own.
        own = await fake.run_command(
            table.alice, table.games, "dvonn tournament create", {"name": "Friends"}
        )
        assert own.ephemeral
        assert (
            said(MADE, tournament=f"#{FIRST_TOURNAMENT + 1} **Friends**", mentions=bot.mentions)
            in own.content
        )
        assert "/dvonn tournament join:" in own.content  # the command, tappable
        # ... with a clock: Little Golem's bank when none is chosen; never none.
        post = await fake.wait_for_message(table.games, lambda m: "Friends" in m.content)
        clock = said(
            _("Clock: {clock}; {rated}."), clock=clock_text(LITTLE_GOLEM), rated=_("not rated")
        )
        assert clock in post.content, post.content
        clockless = await fake.run_command(
            table.bob, table.games, "dvonn tournament create", {"name": "Slow", "clock": "none"}
        )
        assert clockless.ephemeral and said(TournamentNeedsClock) in clockless.content

        both = await fake.run_command(
            admin,
            table.games,
            "dvonn settings",
            {"organiser_role": directors, "clear_organiser_role": True},
        )
        not_both = _("Choose a role for organisers, or clear it: not both.")
        assert both.ephemeral and said(not_both) in both.content
        cleared = await fake.run_command(
            admin, table.games, "dvonn settings", {"clear_organiser_role": True}
        )
        assert said(RUN_BY, who=MANAGERS) in cleared.content
        again = await fake.run_command(director, table.games, "dvonn tournament create", swiss)
        assert again.ephemeral and said(OrganisersOnly, most=PLAYERS_OWN_MOST) in again.content


async def test_a_player_asking_for_a_rated_tournament_is_refused_privately(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run() as bot:
        rated = await fake.run_command(
            table.alice, table.games, "dvonn tournament create", {"name": "Ours", "rated": True}
        )
        assert rated.ephemeral, rated.content
        assert said(OrganisersOnly, most=PLAYERS_OWN_MOST) in rated.content, rated.content
        assert await bot.service.tournaments.listed(table.guild.id, tuple(TournamentStatus)) == []
        # Without it, the player's own round robin is made, and its post says it is unrated.
        own = await fake.run_command(
            table.alice, table.games, "dvonn tournament create", {"name": "Ours"}
        )
        ours = said(MADE, tournament=f"#{FIRST_TOURNAMENT} **Ours**", mentions=bot.mentions)
        assert own.ephemeral and ours in own.content, own.content
        post = await fake.wait_for_message(table.games, lambda m: "Ours" in m.content)
        assert said(_("not rated")) in post.content, post.content


async def tournament_game(
    table: Table, bot: DvonnBot, maker: FakeUser, name: str, players: tuple[FakeUser, FakeUser]
) -> tuple[int, FakeChannel]:
    """``maker`` makes a round robin of two, ``players`` join it and it begins: its game's
    number and thread."""
    fake = table.fake
    made = await fake.run_command(
        maker, table.games, "dvonn tournament create", {"name": name, "max_players": 2}
    )
    (tournament,) = [
        t
        for t in await bot.service.tournaments.listed(table.guild.id, tuple(TournamentStatus))
        if t.name == name
    ]
    named = f"#{tournament.id} **{name}**"
    assert made.ephemeral and said(MADE, tournament=named, mentions=bot.mentions) in made.content
    for player in players:
        joined = await fake.run_command(
            player, table.games, "dvonn tournament join", {"tournament": tournament.id}
        )
        assert joined.ephemeral, joined.content

    game_line = said_pattern(
        _("{tournament}, game #{number}: {white} (White) vs {black} (Black)."), tournament=named
    )

    def started() -> FakeChannel | None:
        for message in fake.messages_in(table.games):
            if game_line.search(message.content):
                thread = fake.world.channel(message.thread_id) if message.thread_id else None
                if thread is not None and fake.messages_in(thread):
                    return thread
        return None

    # Discord's 5 posts per 5 s in a channel would hold up the third tournament's posts (its
    # test is at machine speed; the timeout leaves room for them all the same).
    thread = await fake.wait_until(started, timeout=20, what=f"the game of {name} begun")
    assert thread is not None
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None and game.is_player(players[0].id), game
    return game.id, thread


@pytest.mark.machine_speed  # three tournaments' posts in one channel: not about its limit
async def test_the_organiser_aborts_a_tournament_game_and_its_players_cannot(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    admins = table.guild.add_role("admins", Permission.MANAGE_GUILD)
    directors = table.guild.add_role("directors")
    admin = fake.add_user("admin", table.guild, roles=[admins])
    director = fake.add_user("director", table.guild, roles=[directors])
    pair = (table.alice, table.bob)
    async with bot_runner.run() as bot:
        number, thread = await tournament_game(table, bot, admin, "Cup", pair)
        # Neither its players nor a stranger may call it off: the organiser decides.
        for someone in (table.alice, table.carol):
            refused = await fake.run_command(someone, thread, "dvonn abort")
            assert refused.ephemeral, refused.content
            assert said(AbortNeedsOrganiser, name="Cup") in refused.content
        assert (await bot.service.get_game(number)).is_active
        # Manage Server runs the server's tournaments: the organiser calls the game off.
        aborted = await fake.run_command(admin, thread, "dvonn abort")
        assert not aborted.ephemeral and said(CALLED_OFF, game=number) in aborted.content
        assert (await bot.service.get_game(number)).status.value == "aborted"

        # So does the role the server's settings name for organisers.
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"organiser_role": directors}
        )
        assert saved.ephemeral and said(SAVED) in saved.content, saved.content
        number, thread = await tournament_game(table, bot, director, "Plate", pair)
        aborted = await fake.run_command(director, thread, "dvonn abort")
        assert not aborted.ephemeral and said(CALLED_OFF, game=number) in aborted.content
        assert (await bot.service.get_game(number)).status.value == "aborted"

        # A player's own round robin is run by whoever made it.
        number, thread = await tournament_game(table, bot, table.carol, "Friends", pair)
        aborted = await fake.run_command(table.carol, thread, "dvonn abort")
        assert not aborted.ephemeral and said(CALLED_OFF, game=number) in aborted.content
        assert (await bot.service.get_game(number)).status.value == "aborted"
