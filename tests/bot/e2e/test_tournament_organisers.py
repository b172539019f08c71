"""Who runs a server's tournaments, through the fake Discord: members who may manage the
server, and the role `/dvonn settings` names; a player's own round robin; a tournament always
has a clock."""

from __future__ import annotations

from tests.bot.e2e.conftest import BotRunner, Table
from tests.fakediscord import Permission


async def test_the_organiser_role_runs_tournaments_and_only_manage_server_sets_it(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    admins = table.guild.add_role("admins", Permission.MANAGE_GUILD)
    directors = table.guild.add_role("directors")
    admin = fake.add_user("admin", table.guild, roles=[admins])
    director = fake.add_user("director", table.guild, roles=[directors])
    swiss = {"name": "Winter Swiss", "format": "swiss", "clock": "days:3"}
    async with bot_runner.run():
        shown = await fake.run_command(table.alice, table.games, "dvonn settings")
        assert "Tournaments are run by: members who may manage the server" in shown.content

        refused = await fake.run_command(
            director, table.games, "dvonn tournament create", dict(swiss)
        )
        assert refused.ephemeral and "organiser role" in refused.content

        not_yours = await fake.run_command(
            director, table.games, "dvonn settings", {"organiser_role": directors}
        )
        assert not_yours.ephemeral and "manage the server" in not_yours.content
        saved = await fake.run_command(
            admin, table.games, "dvonn settings", {"organiser_role": directors}
        )
        assert saved.ephemeral and "Settings saved" in saved.content
        assert f"members who may manage the server, and <@&{directors.id}>" in saved.content

        made = await fake.run_command(director, table.games, "dvonn tournament create", swiss)
        assert made.ephemeral and "Made" in made.content and "Winter Swiss" in made.content
        # A player without the role may still make a small round robin of their own.
        own = await fake.run_command(
            table.alice, table.games, "dvonn tournament create", {"name": "Friends"}
        )
        assert own.ephemeral and "Made" in own.content
        assert "/dvonn tournament join:" in own.content  # the command, tappable
        # ... with a clock: Little Golem's bank when none is chosen; never none.
        post = await fake.wait_for_message(table.games, lambda m: "Friends" in m.content)
        assert "Clock: time bank: 10 d + 36 h a move, at most 10 d; not rated." in post.content
        clockless = await fake.run_command(
            table.bob, table.games, "dvonn tournament create", {"name": "Slow", "clock": "none"}
        )
        assert clockless.ephemeral and "needs a clock" in clockless.content

        both = await fake.run_command(
            admin,
            table.games,
            "dvonn settings",
            {"organiser_role": directors, "clear_organiser_role": True},
        )
        assert both.ephemeral and "not both" in both.content
        cleared = await fake.run_command(
            admin, table.games, "dvonn settings", {"clear_organiser_role": True}
        )
        assert "Tournaments are run by: members who may manage the server" in cleared.content
        again = await fake.run_command(director, table.games, "dvonn tournament create", swiss)
        assert again.ephemeral and "organiser role" in again.content
