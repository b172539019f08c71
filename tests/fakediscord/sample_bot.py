"""A tiny discord.py bot that exercises what dvonn-bot will use, to test the fake with.

It is not dvonn-bot: just enough of the same Discord features (a ``/dvonn`` group with an
autocompleted option, a DynamicItem button that must survive a restart, a deferred reply with
a PNG in an embed, a thread) to prove the fake handles them as Discord does. With
``user_installs=True`` it also has a global, user-installable ``/pocket`` group, usable in DMs
and group DMs between users.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
from typing import Any

import discord
from discord import app_commands

from bot.endpoints import use_discord_endpoints
from tests.fakediscord.harness import png_bytes

CELLS = [f"{col}{row}" for row in range(1, 6) for col in "ABCDEFGHIJK"][:49]
BOARD_PNG = png_bytes(8, 5)


def neighbours(cell: str) -> list[str]:
    """Plausible destinations for the autocomplete demo (not DVONN's rules)."""
    col, row = cell[0], int(cell[1:])
    cols = "ABCDEFGHIJK"
    i = cols.index(col) if col in cols else 0
    found = []
    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
        if 0 <= i + dc < len(cols) and 1 <= row + dr <= 5:
            found.append(f"{cols[i + dc]}{row + dr}")
    return found


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dvonn:(?P<game>\d+):(?P<action>[a-z]+)",
):
    """A per-game button whose state is all in its custom_id, so it works after a restart."""

    def __init__(self, game: int, action: str, player_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=action.title(),
                style=discord.ButtonStyle.primary,
                custom_id=f"dvonn:{game}:{action}",
            )
        )
        self.game = game
        self.action = action
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        # The challenged player is whoever the challenge message pinged.
        mentioned = interaction.message.raw_mentions if interaction.message else []
        return cls(int(match["game"]), match["action"], mentioned[0] if mentioned else 0)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        generation = getattr(client, "generation", 0)
        if interaction.user.id != self.player_id:
            await interaction.response.send_message("This is not your game.", ephemeral=True)
            return
        await interaction.response.edit_message(
            content=f"game {self.game}: {self.action} (client {generation})", view=None
        )


class NameModal(discord.ui.Modal, title="Name your game"):
    """A one-field modal."""

    game_name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", max_length=40)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.game_name.value}", ephemeral=True)


class ColourSelect(discord.ui.Select[discord.ui.View]):
    """A string select; its view is stored under the id of the message the reply created."""

    def __init__(self) -> None:
        super().__init__(
            custom_id="colour",
            options=[discord.SelectOption(label="White"), discord.SelectOption(label="Black")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"you play {self.values[0]}", view=None)


class DvonnGroup(app_commands.Group):
    """``/dvonn ...``"""

    def __init__(self) -> None:
        super().__init__(name="dvonn", description="Play DVONN")

    @app_commands.command(name="move", description="Move a stack")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="The stack to move", to="Where it lands")
    async def move(self, interaction: discord.Interaction, from_: str, to: str) -> None:
        await interaction.response.send_message(f"{from_}→{to} by {interaction.user.id}")

    @move.autocomplete("from_")
    async def move_from(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = [c for c in CELLS if c.startswith(current.upper())]
        return [app_commands.Choice(name=c, value=c) for c in found[:25]]

    @move.autocomplete("to")
    async def move_to(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        origin = str(interaction.namespace["from"] or "")
        found = [c for c in neighbours(origin) if c.startswith(current.upper())] if origin else []
        return [app_commands.Choice(name=f"{origin}→{c}", value=c) for c in found]

    @app_commands.command(name="noisy", description="Autocomplete that breaks Discord's limit")
    @app_commands.describe(cell="Any cell")
    async def noisy(self, interaction: discord.Interaction, cell: str) -> None:
        await interaction.response.send_message(cell)

    @noisy.autocomplete("cell")
    async def noisy_cell(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CELLS[:30]]  # 30 > 25: refused

    @app_commands.command(name="challenge", description="Challenge a player")
    @app_commands.describe(opponent="Who you challenge")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.Member) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(GameButton(42, "accept", opponent.id))
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you!",
            view=view,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[opponent]),
        )

    @app_commands.command(name="board", description="Show the board")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = await asyncio.to_thread(lambda: BOARD_PNG)
        embed = discord.Embed(title="Board", description="White to move")
        embed.set_image(url="attachment://board.png")
        await interaction.edit_original_response(
            content=f"{interaction.user.mention} to move",
            embed=embed,
            attachments=[discord.File(io.BytesIO(png), filename="board.png")],
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[interaction.user]
            ),
        )

    @app_commands.command(name="thread", description="Start a game thread")
    async def thread(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("A new game!")
        message = await interaction.original_response()
        try:
            thread = await message.create_thread(name="dvonn game")
        except discord.Forbidden:
            await interaction.followup.send("I may not create threads here.", ephemeral=True)
            return
        await thread.add_user(interaction.user)
        await thread.send(f"Welcome {interaction.user.mention}")

    @app_commands.command(name="later", description="Defer, then answer when the test says so")
    async def later(self, interaction: discord.Interaction[SampleBot]) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.client.proceed.wait()
        await interaction.edit_original_response(content="done")

    @app_commands.command(name="name", description="Name the game (a modal)")
    async def name_game(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(name="colour", description="Pick a colour (a select menu)")
    async def colour(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(ColourSelect())
        await interaction.response.send_message("Pick a colour", view=view)

    @app_commands.command(name="remind", description="Send me a DM")
    async def remind(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your move in game 42")
        except discord.Forbidden:
            await interaction.response.send_message("I cannot DM you.", ephemeral=True)
            return
        await interaction.response.send_message("Sent you a DM.", ephemeral=True)

    @app_commands.command(name="slow", description="Answer after a delay")
    @app_commands.describe(seconds="How long to wait")
    async def slow(self, interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await interaction.response.send_message("finally")


class PocketButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pocket:(?P<action>[a-z]+)"
):
    """A button on a ``/pocket`` message; answers publicly, saying who clicked and whether
    discord.py sees the click as a user integration (the clicker being the installer)."""

    def __init__(self, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=action.title(),
                style=discord.ButtonStyle.primary,
                custom_id=f"pocket:{action}",
            )
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PocketButton:
        return cls(match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{self.action} by {interaction.user.id}; "
            f"installer clicked: {interaction.is_user_integration()}"
        )


class PocketGroup(app_commands.Group):
    """``/pocket ...``: installable to users and servers, offered everywhere."""

    def __init__(self) -> None:
        super().__init__(
            name="pocket",
            description="DVONN wherever you are",
            allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=True
            ),
        )

    @app_commands.command(name="where", description="What the bot knows of this place")
    async def where(self, interaction: discord.Interaction) -> None:
        context = interaction.context
        await interaction.response.send_message(
            f"guild={context.guild} dm={context.dm_channel} private={context.private_channel} "
            f"user_install={interaction.is_user_integration()} "
            f"guild_install={interaction.is_guild_integration()} "
            f"channel={type(interaction.channel).__name__} "
            f"app_permissions={interaction.app_permissions.value}",
            ephemeral=True,
        )

    @app_commands.command(name="challenge", description="Challenge someone here")
    @app_commands.describe(opponent="Who you challenge")
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PocketButton("accept"))
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you!",
            view=view,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[opponent]),
        )

    @app_commands.command(name="board", description="Show the board, then a second note")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        embed = discord.Embed(title="Board")
        embed.set_image(url="attachment://board.png")
        await interaction.edit_original_response(
            embed=embed, attachments=[discord.File(io.BytesIO(BOARD_PNG), filename="board.png")]
        )
        note = await interaction.followup.send(f"{interaction.user.mention} to move", wait=True)
        await note.edit(content=f"{interaction.user.mention} to move (edited)")

    @app_commands.command(name="post", description="Try to post here without an interaction")
    async def post(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.abc.Messageable)
        try:
            await interaction.channel.send("posted on my own")
        except discord.HTTPException as error:
            await interaction.response.send_message(
                f"refused: {error.status} {error.code}", ephemeral=True
            )
            return
        await interaction.response.send_message("posted", ephemeral=True)

    @app_commands.command(name="remind", description="Send me a DM")
    async def remind(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your move")
        except discord.HTTPException as error:
            await interaction.response.send_message(f"cannot DM you: {error.code}", ephemeral=True)
            return
        await interaction.response.send_message("Sent you a DM.", ephemeral=True)


@app_commands.command(name="dvonnadmin", description="Moderators only")
@app_commands.default_permissions(manage_threads=True)
@app_commands.guild_only()
async def dvonnadmin(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("aborted", ephemeral=True)


class SampleTree(app_commands.CommandTree["SampleBot"]):
    """Keeps command errors on the client so tests can assert on them."""

    async def on_error(
        self, interaction: discord.Interaction[SampleBot], error: app_commands.AppCommandError
    ) -> None:
        interaction.client.errors.append(error)


class SampleBot(discord.Client):
    """A client with the ``/dvonn`` tree; ``generation`` tells restarted instances apart."""

    def __init__(
        self,
        *,
        guild_id: int | None,
        generation: int = 1,
        sync: bool = True,
        user_installs: bool = False,
        **options: Any,
    ) -> None:
        options.setdefault("intents", discord.Intents.default())
        super().__init__(**options)
        self.tree = SampleTree(self)
        self.tree.add_command(DvonnGroup())
        self.tree.add_command(dvonnadmin)
        self.proceed = asyncio.Event()
        self.guild_id = guild_id
        self.generation = generation
        self.sync = sync
        self.user_installs = user_installs
        self.errors: list[BaseException] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(GameButton, PocketButton)
        if self.guild_id is not None:
            guild = discord.Object(self.guild_id)
            self.tree.copy_global_to(guild=guild)
            if self.sync:
                await self.tree.sync(guild=guild)
        if self.user_installs:
            # Only /pocket is global (user installs reach global commands only); /dvonn stays
            # a command of the guild.
            for name in ("dvonn", "dvonnadmin"):
                self.tree.remove_command(name)
            self.tree.add_command(PocketGroup())
            if self.sync:
                await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py waits 5 s before re-identifying (Discord's identify rate limit); the fake
        # has no such limit and the tests should stay fast.
        return None


def main() -> None:
    """Run the sample bot as its own process, configured like dvonn-bot: from the environment.

    ``DISCORD_TOKEN``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL`` and ``SAMPLE_GUILD_ID``
    (commands are synced to that guild). Stops cleanly on SIGTERM.
    """
    use_discord_endpoints(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    guild = os.environ.get("SAMPLE_GUILD_ID")
    client = SampleBot(guild_id=int(guild) if guild else None)

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        async with client:
            runner = asyncio.create_task(client.start(os.environ["DISCORD_TOKEN"]))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if runner.done():
                runner.result()
        # Leaving "async with" closed the client.

    asyncio.run(serve())


if __name__ == "__main__":
    main()
