"""``/puzzle [move] [id]``: a puzzle near your puzzle rating (or the one you are trying), a
move typed in it, or a puzzle by its name for practice; always privately."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from discord import app_commands
from discord.app_commands import Choice, locale_str

import rules
from bot.exts.puzzles.picker import answer_anew
from bot.games.puzzles.errors import NoPuzzleRunning
from bot.i18n import _
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.move_labels import move_label, typed_move

if TYPE_CHECKING:
    from bot.app import Interaction

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete


class PuzzleCommands(Feature, name="Puzzles"):
    @app_commands.command(
        name="puzzle",
        description=locale_str("A DVONN puzzle near your puzzle rating, only for you to see"),
    )
    @app_commands.describe(
        move=locale_str("Your move in the puzzle you are trying, e.g. E3F4"),
        puzzle_id=locale_str("Practise a puzzle by its name, e.g. p0002 (unrated)"),
    )
    @app_commands.rename(puzzle_id="id")
    async def puzzle(
        self,
        interaction: Interaction,
        move: app_commands.Range[str, 1, 20] | None = None,
        puzzle_id: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        async with self.inflight.track():
            if move is not None and puzzle_id is not None:
                raise UserError(_("Play a move, or ask for a puzzle by its name: one at a time."))
            puzzles = self.service.puzzles
            if move is not None:
                await answer_anew(interaction, await puzzles.play(interaction.user.id, move))
                return
            shown = await puzzles.start(interaction.user.id, puzzle_id=puzzle_id)
            await answer_anew(interaction, shown)

    @puzzle.autocomplete("move")
    async def move_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        try:
            shown = await self.service.puzzles.current(interaction.user.id)
        except NoPuzzleRunning:
            return []
        position = shown.position
        reader = self.publisher.private_reader(interaction)
        typed = typed_move(current)
        return [
            Choice(name=reader(move_label(position, m)), value=str(m))
            for m in rules.legal_moves(position)
            if str(m).startswith(typed)
        ][:MAX_CHOICES]
