"""``/dvonn``: every slash command, as a thin adapter over the game service.

Each command parses the interaction, calls the service, and turns the result into a reply.
Errors from the rules and the service propagate to the tree's one error handler, which answers
ephemerally in the user's language. Commands that draw a board answer within Discord's three
seconds: the move is committed first (milliseconds), then the reply is deferred while the board
renders in a thread.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

import ai
import rules
from bot.client import UserError
from bot.cogs.correspondence import CorrespondenceCommands
from bot.components import AbortAgreeButton, ChallengeButton, ResignButton, challenge_view
from bot.games.errors import NoGameHere
from bot.games.service import SERVER_DEFAULT, GameService
from bot.i18n import COLOUR_NAMES, Text, _, n_
from bot.posting import Publisher, Reader
from bot.presenter import board_post, ended_post, mention, turn_post
from bot.storage.models import Game

if TYPE_CHECKING:
    from bot.client import DvonnBot

log = logging.getLogger(__name__)

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete answers
LEVEL_NAMES: Final[dict[ai.Level, Text]] = {
    ai.Level.BEGINNER: _("beginner"),
    ai.Level.EASY: _("easy"),
    ai.Level.MEDIUM: _("medium"),
    ai.Level.STRONG: _("strong"),
    ai.Level.STRONGEST: _("strongest"),
}
NO_CLOCK: Final = 0

Interaction: TypeAlias = "discord.Interaction[DvonnBot]"


def _upper(text: str) -> str:
    return text.strip().upper().replace(" ", "").replace("-", "")


class DvonnCog(
    CorrespondenceCommands,
    commands.GroupCog,
    group_name="dvonn",
    group_description=locale_str("Play DVONN"),
):
    def __init__(self, bot: DvonnBot) -> None:
        self.bot = bot
        self.publisher = Publisher(bot)
        super().__init__()

    @property
    def service(self) -> GameService:
        return self.bot.service

    # --- where is the game? --------------------------------------------------------------------

    async def _game_here(self, interaction: Interaction) -> Game:
        """The running game in this channel or thread, or an error that points to the user's."""
        channel_id = interaction.channel_id
        assert channel_id is not None
        game = await self.service.game_in_channel(channel_id)
        if game is not None:
            return game
        elsewhere = [
            g
            for g in await self.service.active_games(interaction.user.id)
            if g.guild_id == interaction.guild_id
        ]
        if elsewhere:
            raise UserError(
                _(
                    "There is no game in this channel. Your games are in: {channels}.",
                    channels=", ".join(f"<#{g.channel_id}>" for g in elsewhere),
                )
            )
        raise NoGameHere(channel_id)

    # --- challenges ----------------------------------------------------------------------------

    @app_commands.command(
        name="challenge", description=locale_str("Challenge someone to a game of DVONN")
    )
    @app_commands.describe(
        opponent=locale_str("Who to play (leave empty: anyone in this channel may accept)"),
        colour=locale_str("Your colour (default: drawn at random)"),
        clock=locale_str("Days per move before a player loses on time (default: the server's)"),
    )
    @app_commands.choices(
        colour=[
            Choice(name=locale_str("White (moves first)"), value="W"),
            Choice(name=locale_str("Black"), value="B"),
            Choice(name=locale_str("Random"), value="random"),
        ]
    )
    @app_commands.choices(
        clock=[
            Choice(name=locale_str("No clock"), value=NO_CLOCK),
            Choice(name=locale_str("1 day per move"), value=1),
            Choice(name=locale_str("2 days per move"), value=2),
            Choice(name=locale_str("3 days per move"), value=3),
            Choice(name=locale_str("5 days per move"), value=5),
            Choice(name=locale_str("7 days per move"), value=7),
            Choice(name=locale_str("14 days per move"), value=14),
        ],
    )
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        colour: str | None = None,
        clock: int | None = None,
    ) -> None:
        async with self.bot.inflight.track():
            me = self.bot.user
            if opponent is not None and me is not None and opponent.id == me.id:
                chosen_colour = None if colour in (None, "random") else rules.Colour(colour)
                await self._start_computer_game(interaction, ai.Level.MEDIUM, chosen_colour)
                return
            if opponent is not None and opponent.bot:
                raise UserError(_("Bots cannot accept challenges: challenge a person."))
            assert interaction.channel_id is not None
            chosen = None if colour in (None, "random") else rules.Colour(colour)
            days: Any = SERVER_DEFAULT if clock is None else (None if clock == NO_CLOCK else clock)
            challenge = await self.service.create_challenge(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                challenger_id=interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                colour=chosen,
                clock_days=days,
            )
            if opponent is not None:
                self.bot.names.remember(opponent)
            reader = await self.publisher.public_reader(interaction.guild_id, interaction)
            await interaction.response.send_message(
                reader(challenge_text(challenge, interaction.user.display_name)),
                view=challenge_view(challenge, reader),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(opponent.id)] if opponent is not None else []
                ),
            )

    # --- moves ---------------------------------------------------------------------------------

    @app_commands.command(
        name="place", description=locale_str("Place your next piece on an empty cell")
    )
    @app_commands.describe(cell=locale_str("An empty cell, such as E3"))
    async def place(self, interaction: Interaction, cell: str) -> None:
        await self._play(interaction, cell)

    @app_commands.command(name="move", description=locale_str("Move one of your stacks"))
    @app_commands.rename(source="from", target="to")
    @app_commands.describe(
        source=locale_str("The cell of your stack, such as E3"),
        target=locale_str("Where it lands: as many cells away as the stack is high"),
    )
    async def move(self, interaction: Interaction, source: str, target: str) -> None:
        await self._play(interaction, f"{source.strip()}{target.strip()}")

    @app_commands.command(
        name="play", description=locale_str("Play a move written in notation: E3, E3F4 or PASS")
    )
    @app_commands.describe(
        move=locale_str("A cell to place on (E3), two cells to move (E3F4), or PASS")
    )
    async def play(self, interaction: Interaction, move: str) -> None:
        await self._play(interaction, move)

    async def _play(self, interaction: Interaction, text: str) -> None:
        async with self.bot.inflight.track():
            game = await self._game_here(interaction)
            outcome = await self.service.play(game.id, interaction.user.id, text)
            # Committed. Now the slow part: defer so Discord's 3 seconds cannot run out. The
            # turn is posted as a new message, because Discord pings nobody for mentions that
            # a followup edits into a deferred reply, and the next player must be pinged.
            await interaction.response.defer(ephemeral=True, thinking=True)
            saved = outcome.game
            players = await self.publisher.players(saved)
            post = turn_post(saved, players, outcome.moves, outcome.game_over)
            sent = await self.publisher.send_to_game(saved, post, interaction, players)
            self.bot.computer.play_if_its_turn(saved)
            reader = self.publisher.private_reader(interaction)
            await interaction.edit_original_response(
                content=reader(
                    _("You played {move}: {link}", move=outcome.move.text, link=sent.jump_url)
                )
            )

    # --- the computer opponent -----------------------------------------------------------------

    @app_commands.command(name="play-bot", description=locale_str("Play a game against the bot"))
    @app_commands.describe(
        level=locale_str("How strongly the bot plays"),
        colour=locale_str("Your colour (default: drawn at random)"),
    )
    @app_commands.choices(
        level=[
            Choice(name=locale_str("Beginner"), value=ai.Level.BEGINNER.value),
            Choice(name=locale_str("Easy"), value=ai.Level.EASY.value),
            Choice(name=locale_str("Medium"), value=ai.Level.MEDIUM.value),
            Choice(name=locale_str("Strong"), value=ai.Level.STRONG.value),
            Choice(name=locale_str("Strongest"), value=ai.Level.STRONGEST.value),
        ],
        colour=[
            Choice(name=locale_str("White (moves first)"), value="W"),
            Choice(name=locale_str("Black"), value="B"),
            Choice(name=locale_str("Random"), value="random"),
        ],
    )
    @app_commands.guild_only()
    async def play_bot(
        self,
        interaction: Interaction,
        level: str = ai.Level.MEDIUM.value,
        colour: str | None = None,
    ) -> None:
        async with self.bot.inflight.track():
            chosen = None if colour in (None, "random") else rules.Colour(colour)
            await self._start_computer_game(interaction, ai.Level.parse(level), chosen)

    async def _start_computer_game(
        self, interaction: Interaction, level: ai.Level, colour: rules.Colour | None
    ) -> None:
        from bot.components import game_thread
        from bot.presenter import start_post

        me = self.bot.user
        assert me is not None and interaction.channel_id is not None
        busy = await self.service.game_in_channel(interaction.channel_id)
        if busy is not None and not isinstance(interaction.channel, discord.TextChannel):
            from bot.games.errors import ChannelBusy

            raise ChannelBusy(busy.id, interaction.channel_id)
        reader = await self.publisher.public_reader(interaction.guild_id, interaction)
        await interaction.response.send_message(
            reader(
                _(
                    "{player} starts a game against the bot ({level}).",
                    player=interaction.user.display_name,
                    level=LEVEL_NAMES[level],
                )
            )
        )
        message = await interaction.original_response()
        name = reader(_("DVONN: {player} vs the bot", player=interaction.user.display_name))
        thread = await game_thread(interaction, message, interaction.guild_id, name)
        try:
            game = await self.service.start_computer_game(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                human_id=interaction.user.id,
                computer_id=me.id,
                level=level.value,
                human_colour=colour,
                thread_id=None if thread is None else thread.id,
            )
        except Exception:
            if thread is not None:
                await thread.delete()
            raise
        self.bot.names.remember(me)
        players = await self.publisher.players(game)
        await self.publisher.send_to_game(game, start_post(game, players), interaction, players)
        self.bot.computer.play_if_its_turn(game)

    @app_commands.command(
        name="hint", description=locale_str("A suggestion, in a game against the bot")
    )
    async def hint(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            game = await self._game_here(interaction)
            if game.computer_id is None:
                raise UserError(_("Hints are only for games against the bot."))
            if game.to_move_id != interaction.user.id:
                raise UserError(_("A hint is for the player to move, when it is their turn."))
            await interaction.response.defer(ephemeral=True, thinking=True)
            move = await self.bot.computer.hint(game)
            reader = self.publisher.private_reader(interaction)
            await interaction.followup.send(
                reader(_("The bot would play {move}.", move=move)), ephemeral=True
            )

    # --- autocomplete --------------------------------------------------------------------------

    async def _my_position(self, interaction: Interaction) -> rules.Position | None:
        """The position of the user's game here, if it is the user's turn."""
        if interaction.channel_id is None:
            return None
        game = await self.service.game_in_channel(interaction.channel_id)
        if game is None or game.to_move_id != interaction.user.id:
            return None
        position: rules.Position = game.position
        return position

    @place.autocomplete("cell")
    async def place_cell_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        position = await self._my_position(interaction)
        if position is None or not position.is_placement:
            return []
        typed = _upper(current)
        names = [rules.CELL_NAMES[c] for c in rules.empty_cells(position)]
        return [Choice(name=n, value=n) for n in names if n.startswith(typed)][:MAX_CHOICES]

    @move.autocomplete("source")
    async def move_from_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        position = await self._my_position(interaction)
        if position is None or position.is_placement:
            return []
        reader = self.publisher.private_reader(interaction)
        typed = _upper(current)
        choices = []
        for cell in rules.movable_cells(position):
            name = rules.CELL_NAMES[cell]
            if name.startswith(typed):
                height = len(position.stacks[cell])
                label = n_(
                    "{cell}: a single piece", "{cell}: a stack of {count}", height, cell=name
                )
                choices.append(Choice(name=reader(label), value=name))
        return choices[:MAX_CHOICES]

    @move.autocomplete("target")
    async def move_to_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        position = await self._my_position(interaction)
        source = rules.lookup_cell(str(getattr(interaction.namespace, "from", "") or ""))
        if position is None or position.is_placement or source is None:
            return []
        reader = self.publisher.private_reader(interaction)
        typed = _upper(current)
        choices = []
        for target in rules.destinations(position, source):
            name = rules.CELL_NAMES[target]
            if not name.startswith(typed):
                continue
            cut = rules.apply(position, rules.jump(source, target)).pieces_removed
            label: Text | str = name
            if cut:
                label = n_(
                    "{cell}: cuts off {count} piece",
                    "{cell}: cuts off {count} pieces",
                    cut,
                    cell=name,
                )
            choices.append(Choice(name=reader(label), value=name))
        return choices[:MAX_CHOICES]

    @play.autocomplete("move")
    async def play_move_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        position = await self._my_position(interaction)
        if position is None:
            return []
        typed = _upper(current)
        texts = [str(m) for m in rules.legal_moves(position)]
        return [Choice(name=t, value=t) for t in texts if t.startswith(typed)][:MAX_CHOICES]

    # --- the game as a whole -------------------------------------------------------------------

    @app_commands.command(name="board", description=locale_str("Show the board of the game here"))
    @app_commands.describe(game=locale_str("A game number (default: the game in this channel)"))
    async def board(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.bot.inflight.track():
            found = await self._game_for_record(interaction, game)
            await interaction.response.defer(thinking=True)
            players = await self.publisher.players(found)
            reader = await self.publisher.public_reader(found.guild_id, interaction)
            kwargs = await self.publisher.message(
                found, board_post(found, players), reader, players
            )
            await interaction.followup.send(**kwargs)

    @app_commands.command(
        name="resign", description=locale_str("Give up the game here (asks first)")
    )
    async def resign(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            game = await self._game_here(interaction)
            if not game.is_player(interaction.user.id):
                raise UserError(_("This is not your game: only its two players can resign it."))
            reader = self.publisher.private_reader(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(ResignButton(game.id, reader))
            await interaction.response.send_message(
                reader(_("Really resign game #{game}? Your opponent will win.", game=game.id)),
                view=view,
                ephemeral=True,
            )

    @app_commands.command(
        name="abort", description=locale_str("Call the game here off without a result")
    )
    async def abort(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            game = await self._game_here(interaction)
            player = game.is_player(interaction.user.id)
            moderator = bool(interaction.permissions.manage_threads) and not player
            outcome = await self.service.abort(game.id, interaction.user.id, moderator=moderator)
            if outcome.aborted:
                await self._post_ending(interaction, outcome.game)
                return
            reader = await self.publisher.public_reader(game.guild_id, interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(AbortAgreeButton(game.id, reader))
            assert outcome.waiting_for is not None
            await interaction.response.send_message(
                reader(
                    _(
                        "{player} proposes to call game #{game} off without a result. "
                        "{opponent}, do you agree?",
                        player=interaction.user.display_name,
                        game=game.id,
                        opponent=mention(outcome.waiting_for),
                    )
                ),
                view=view,
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(outcome.waiting_for)]
                ),
            )

    async def _post_ending(self, interaction: Interaction, game: Game) -> None:
        from bot.games.results import GameOver

        players = await self.publisher.players(game)
        post = ended_post(game, players, GameOver.of(game))
        reader = await self.publisher.public_reader(game.guild_id, interaction)
        kwargs = await self.publisher.message(game, post, reader, players)
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    @app_commands.command(name="games", description=locale_str("List your running games"))
    async def games(self, interaction: Interaction) -> None:
        async with self.bot.inflight.track():
            reader = self.publisher.private_reader(interaction)
            games = await self.service.active_games(interaction.user.id)
            if not games:
                await interaction.response.send_message(
                    reader(_("You have no running games. Start one with /dvonn challenge.")),
                    ephemeral=True,
                )
                return
            lines = [reader(_("Your running games:"))]
            for game in games:
                opponent = await self.bot.names.get(game.opponent_of(interaction.user.id))
                colour = game.colour_of(interaction.user.id)
                turn = (
                    _("your turn")
                    if game.to_move_id == interaction.user.id
                    else _("{player}'s turn", player=opponent)
                )
                lines.append(
                    reader(
                        _(
                            "#{game} vs {opponent} ({colour}) in <#{channel}>: {turn}",
                            game=game.id,
                            opponent=opponent,
                            colour=COLOUR_NAMES[colour] if colour else "",
                            channel=game.channel_id,
                            turn=turn,
                        )
                    )
                )
            await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(
        name="history", description=locale_str("The game's record, and a Little Golem transcript")
    )
    @app_commands.describe(game=locale_str("A game number (default: the game in this channel)"))
    async def history(self, interaction: Interaction, game: int | None = None) -> None:
        async with self.bot.inflight.track():
            found = await self._game_for_record(interaction, game)
            record = await self.service.record(found.id)
            players = await self.publisher.players(found)
            reader = self.publisher.private_reader(interaction)
            body = record.text or reader(_("(no moves yet)"))
            await interaction.response.send_message(
                reader(_("Record of game #{game}:", game=found.id)) + f"\n```\n{body}\n```"[:1900],
                file=self.publisher.transcript_file(record, players),
                ephemeral=True,
            )

    @app_commands.command(name="rules", description=locale_str("How to play DVONN, in brief"))
    async def rules_(self, interaction: Interaction) -> None:
        await self._explain(interaction, RULES_TEXT)

    @app_commands.command(name="help", description=locale_str("The bot's commands"))
    async def help(self, interaction: Interaction) -> None:
        await self._explain(interaction, HELP_TEXT)

    async def _explain(self, interaction: Interaction, texts: tuple[Text, ...]) -> None:
        async with self.bot.inflight.track():
            reader = self.publisher.private_reader(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            png = await _cell_names_png(self.bot, reader)
            embed = discord.Embed(description="\n\n".join(reader(t) for t in texts))
            embed.set_image(url="attachment://cells.png")
            await interaction.followup.send(
                embed=embed,
                file=discord.File(io.BytesIO(png), filename="cells.png"),
                ephemeral=True,
            )


def challenge_text(challenge: Any, challenger_name: str) -> Text:
    clock = (
        _("no clock")
        if challenge.clock_days is None
        else n_("{count} day per move", "{count} days per move", challenge.clock_days)
    )
    colour = (
        _("colours drawn at random")
        if challenge.challenger_colour is None
        else _(
            "{player} plays {colour}",
            player=challenger_name,
            colour=COLOUR_NAMES[challenge.challenger_colour],
        )
    )
    if challenge.opponent_id is None:
        return _(
            "{player} is looking for a DVONN opponent ({clock}, {colour}): anyone here may accept.",
            player=challenger_name,
            clock=clock,
            colour=colour,
        )
    return _(
        "{opponent}, {player} challenges you to a game of DVONN ({clock}, {colour}).",
        opponent=mention(challenge.opponent_id),
        player=challenger_name,
        clock=clock,
        colour=colour,
    )


async def _cell_names_png(bot: DvonnBot, reader: Reader) -> bytes:
    from bot.presenter import image_labels

    labels = image_labels(reader.catalogues, reader.locale)
    names = (labels.white, labels.black)
    return await bot.renderer.board_png(rules.new_game(), players=names, labels=labels)


RULES_TEXT: Final = (
    _(
        "**DVONN** is played on 49 cells. White has 23 white pieces and 2 red DVONN pieces, "
        "Black 23 black pieces and 1 DVONN piece."
    ),
    _(
        "**1. Placing.** In turn, place one piece on any empty cell: White, Black and White "
        "place the three DVONN pieces first, then Black and White their own pieces, until the "
        "board is full (`/dvonn place`)."
    ),
    _(
        "**2. Moving.** White moves first. Move a piece or stack you control (your colour on "
        "top) in a straight line exactly as many cells as it is high, onto another piece or "
        "stack (`/dvonn move`). Empty cells may be jumped. A stack surrounded on all six sides "
        "cannot move; a lone DVONN piece never moves."
    ),
    _(
        "**Losing pieces.** After every move, pieces no longer linked to a DVONN piece through "
        "a chain of pieces are removed at once."
    ),
    _(
        "**End.** If you cannot move, you pass. When nobody can move, each player counts the "
        "pieces in the stacks they control: the higher count wins. The picture names every "
        "cell: a letter and a row number, such as E3."
    ),
)

HELP_TEXT: Final = (
    _(
        "`/dvonn challenge` someone (or anyone here) · `/dvonn place` a piece · `/dvonn move` "
        "a stack (from, to) · `/dvonn play` a move in notation (E3, E3F4, PASS)"
    ),
    _(
        "`/dvonn board` shows the game · `/dvonn games` lists yours · `/dvonn history` gives "
        "the record · `/dvonn resign` · `/dvonn abort` (by agreement, or a moderator) · "
        "`/dvonn rules`"
    ),
)

__all__ = ["ChallengeButton", "DvonnCog"]
