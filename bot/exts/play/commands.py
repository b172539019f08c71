"""The commands of a game in progress.

Each command parses the interaction, calls the game service, and turns the result into a
reply. Errors from the rules and the service propagate to the one error handler, which answers
privately in the user's language. Commands that draw a board answer within Discord's three
seconds: the move is committed first (milliseconds), then the reply is deferred while the board
renders.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

import rules
from bot.exts.play.buttons import AbortAgreeButton, ResignButton
from bot.exts.play.moves import play_and_report
from bot.exts.play.text_board import send_text_board
from bot.games.core.errors import NoGameHere
from bot.games.core.models import BoardTheme
from bot.i18n import COLOUR_NAMES, Text, _, excerpt, n_
from bot.interactions import choices
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.lookup import game_for_record, game_here
from bot.interactions.move_labels import cut_label, pieces_cut, stack_label
from bot.interactions.organisers import is_organiser
from bot.interactions.places import remember_reply_route
from bot.interactions.replies import finish, fit_lines
from bot.posting.outbox import REPLY_WAIT
from bot.posting.texts import LastTurn, board_post, mention

if TYPE_CHECKING:
    from bot.app import Interaction
    from bot.games.core.models import Game

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete answers


PLACING_IS_OVER: Final = _(
    "All 49 pieces are on the board: placing is over. Move a stack with /dvonn move (from, to)."
)
STILL_PLACING: Final = _(
    "Pieces are still being placed: put one on an empty cell with /dvonn place. Moving starts "
    "once all 49 pieces are on the board."
)
NAME_BOTH_CELLS: Final = _(
    "Name both cells: from, the stack to move, and to, where it lands (such as E3 and F4)."
)
THEME_KEPT: Final = {
    BoardTheme.DARK: _("From now on, boards shown only to you are dark."),
    BoardTheme.LIGHT: _("From now on, boards shown only to you are light."),
}
"""What ``/dvonn board theme`` tells the player, privately, of the theme it keeps."""
TEXT_OR_THEME: Final = _(
    "A text board has no colours: ask /dvonn board for the text, or for a theme, not both."
)


def _upper(text: str) -> str:
    """What was typed so far, as notation (for matching autocomplete choices)."""
    return rules.normalise(text.strip()).replace(" ", "").replace("-", "")


class Play(Feature):
    # --- moves ---------------------------------------------------------------------------------

    @app_commands.command(
        name="place", description=locale_str("Place your next piece on an empty cell")
    )
    @app_commands.describe(cell=locale_str("An empty cell, such as E3"))
    async def place(self, interaction: Interaction, cell: str) -> None:
        found = rules.lookup_cell(cell)
        if found is None:
            raise UserError(
                _(
                    "“{text}” is not a cell: /dvonn place takes one empty cell, such as E3.",
                    text=excerpt(cell),
                )
            )
        try:
            await self._play(interaction, rules.Place(found))
        except rules.IllegalMoveError as error:
            if error.reason is not rules.IllegalReason.PLACEMENT_OVER:
                raise
            raise UserError(PLACING_IS_OVER) from error

    @app_commands.command(name="move", description=locale_str("Move one of your stacks"))
    @app_commands.rename(source="from", target="to")
    @app_commands.describe(
        source=locale_str("The cell of your stack, such as E3"),
        target=locale_str("Where it lands: as many cells away as the stack is high"),
    )
    async def move(self, interaction: Interaction, source: str, target: str) -> None:
        if not source.strip() or not target.strip():
            raise UserError(NAME_BOTH_CELLS)
        cells = [rules.lookup_cell(source), rules.lookup_cell(target)]
        for typed, cell in zip((source, target), cells, strict=True):
            if cell is None:
                raise rules.InvalidMoveError(rules.InvalidReason.UNKNOWN_CELL, text=typed.strip())
        start, end = cells
        assert start is not None and end is not None
        try:
            await self._play(interaction, rules.jump(start, end))
        except rules.IllegalMoveError as error:
            if error.reason is not rules.IllegalReason.PLACEMENT_NOT_OVER:
                raise
            raise UserError(STILL_PLACING) from error

    @app_commands.command(
        name="play", description=locale_str("Play a move written in notation: E3, E3F4 or PASS")
    )
    @app_commands.describe(
        move=locale_str("A cell to place on (E3), two cells to move (E3F4), or PASS")
    )
    async def play(self, interaction: Interaction, move: str) -> None:
        await self._play(interaction, move)

    async def _play(self, interaction: Interaction, move: rules.Move | str) -> None:
        """Play ``move`` (or the notation typed with ``/dvonn play``) in the game here."""
        async with self.inflight.track():
            game = await game_here(self.service, interaction)
            await play_and_report(self, interaction, game, move)

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
                choices.append(Choice(name=reader(stack_label(position, cell)), value=name))
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
            cut = pieces_cut(position, source, target)
            label = reader(cut_label(name, cut)) if cut else name
            choices.append(Choice(name=label, value=name))
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
    @app_commands.describe(
        game=locale_str("A game number (default: the game in this channel)"),
        theme=locale_str("Draw it dark or light; boards shown only to you keep that theme"),
        text=locale_str("The position as text, only to you: for a screen reader, or to copy"),
    )
    @app_commands.choices(theme=choices.THEMES)
    async def board(
        self,
        interaction: Interaction,
        game: int | None = None,
        theme: str | None = None,
        text: bool = False,
    ) -> None:
        # Posted for all to see: in the theme of the game's posts (the server's; outside a
        # server, its players'), or in the theme asked for, which is then the player's own too.
        async with self.inflight.track():
            if text and theme is not None:
                raise UserError(TEXT_OR_THEME)
            chosen = None if theme is None else choices.theme(theme)
            try:
                found = await game_for_record(self.service, interaction, game)
            except (NoGameHere, UserError):
                if chosen is None or game is not None:
                    raise
                await self._keep_theme_alone(interaction, chosen)  # no game here: a theme
                return
            if text:
                await send_text_board(interaction, self, found.id)  # privately
                return
            await interaction.response.defer(thinking=True)
            reader = await self.publisher.game_reader(found, interaction)
            if chosen is not None:
                await self.service.save_theme(interaction.user.id, chosen)
                reader = dataclasses.replace(reader, theme=chosen)
            record = await self.service.record(found.id)  # its last turn, as its post told it
            found = record.game
            players = await self.publisher.players(found)
            last = LastTurn.of(m.move for m in record.moves)
            kwargs = await self.publisher.message(
                found, board_post(found, players, last), reader, players
            )
            await finish(interaction, **kwargs)
            if chosen is not None:
                kept = self.publisher.private_reader(interaction)(THEME_KEPT[chosen])
                await interaction.followup.send(kept, ephemeral=True)

    async def _keep_theme_alone(self, interaction: Interaction, theme: BoardTheme) -> None:
        """``/dvonn board theme`` where there is no game to show: the theme is kept all the
        same, and the player told so, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.save_theme(interaction.user.id, theme)
        reader = self.publisher.private_reader(interaction)
        text = [THEME_KEPT[theme], _("(There is no game here to show.)")]
        await finish(interaction, "\n".join(reader(line) for line in text))

    @app_commands.command(
        name="resign", description=locale_str("Give up the game here (asks first)")
    )
    async def resign(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            game = await game_here(self.service, interaction)
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
        async with self.inflight.track():
            game = await game_here(self.service, interaction)
            await remember_reply_route(self.service, interaction, game)
            player = game.is_player(interaction.user.id)
            moderator = bool(interaction.permissions.manage_threads) and not player
            outcome = await self.service.abort(
                game.id,
                interaction.user.id,
                moderator=moderator,
                # Only a stranger to the game may call it off as its tournament's organiser.
                organiser=not player
                and not moderator
                and await is_organiser(self.service, interaction),
            )
            reader = await self.publisher.public_reader(game.guild_id, interaction)
            if outcome.ended is not None:
                await interaction.response.send_message(
                    reader(_("Game #{game} was called off.", game=game.id))
                )
                await self.deliverer.announce(
                    outcome.ended.announcement, game_id=game.id, timeout=REPLY_WAIT
                )
                return
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

    @app_commands.command(name="games", description=locale_str("List your running games"))
    async def games(self, interaction: Interaction) -> None:
        async with self.inflight.track():
            # Names may have to be fetched from Discord (a cold cache after a restart): take
            # the time that needs, not Discord's three seconds.
            await interaction.response.defer(ephemeral=True, thinking=True)
            reader = self.publisher.private_reader(interaction)
            games = await self.service.active_games(interaction.user.id)
            if not games:
                await finish(
                    interaction,
                    reader(_("You have no running games. Start one with /dvonn challenge.")),
                )
                return
            lines = [reader(_("Your running games:"))]
            for game in games:
                lines.append(reader(await self._running_game_line(game, interaction.user.id)))

            def more(count: int) -> str:
                return reader(n_("…and {count} more game.", "…and {count} more games.", count))

            await finish(interaction, fit_lines(lines, more))

    async def _running_game_line(self, game: Game, user_id: int) -> Text:
        """A line of ``/dvonn games``: a network game's opponent by their network name (never a
        server's nickname) and where the asker plays it, their own home."""
        colour = game.colour_of(user_id)
        players = await self.publisher.players(game)
        opponent = players.black if colour is rules.Colour.WHITE else players.white
        turn = (
            _("your turn") if game.to_move_id == user_id else _("{player}'s turn", player=opponent)
        )
        params = {
            "game": game.id,
            "opponent": opponent,
            "colour": COLOUR_NAMES[colour] if colour else "",
            "turn": turn,
        }
        if not game.network:
            return _(
                "#{game} vs {opponent} ({colour}) in <#{channel}>: {turn}",
                channel=game.channel_id,
                **params,
            )
        home = await self.service.network.home_of(game, user_id)
        if home is not None and home.in_dms:
            return _(
                "#{game} vs {opponent} ({colour}), a network game in your DMs with the bot: {turn}",
                **params,
            )
        if home is None or home.channel_id is None:
            return _(
                "#{game} vs {opponent} ({colour}), a network game whose thread is being made: "
                "{turn}",
                **params,
            )
        return _(
            "#{game} vs {opponent} ({colour}), a network game in <#{channel}>: {turn}",
            channel=home.channel_id,
            **params,
        )
