"""Moves by tapping: a "Your move" button on every board, and a private picker behind it.

The button opens, for the player to move only, a private picker of the position as it is now:

* placing: the empty cells, in three menus by column (A–D, E–H, I–K: Discord's menus hold 25
  choices, the board has 49 cells);
* moving: the player's movable stacks; then that stack's destinations, each saying what it cuts
  off;
* then a confirm button that plays the move;
* and, beside the first step, "Text board": the position in words, privately (``text_board.py``).

The steps are the shared ones of :mod:`bot.interactions.move_picker`; :class:`GamePicker` says
what is the game's own.

Everything is a persistent :class:`~bot.interactions.buttons.BotButton` (or menu) whose id says
which game it was made for, so it works after a restart. The picker's menus and its confirm
button also carry the game's stored version (:class:`Shown`): it grows with every change that is
saved, a takeback included, so it never comes round again, as the ply does after a takeback and
another move. They refuse, safely and privately, once the game is at another version: a picker
can only ever play in the position it showed. Only the player to move gets a picker; their
opponent, waiting, is offered "Plan a reply" instead (``plan_picker.py``: the move they expect,
then their reply); anyone else who taps is told why not, privately.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.exts.play.moves import play_and_report
from bot.exts.play.text_board import TextBoardButton
from bot.games.core.models import Game
from bot.i18n import Text, _
from bot.interactions import move_picker
from bot.interactions.buttons import BotButton, label, run_like_a_command
from bot.interactions.errors import UserError
from bot.interactions.move_labels import move_question
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction

OUT_OF_DATE: Final = _(
    "The game has moved on since this was opened: tap “Your move” on the newest board."
)

SHOWN: Final = r"(?P<game>\d+):(?P<ply>\d+):(?P<version>\d+)"
"""How a picker's ids spell the position it shows (:class:`Shown`): numbers only, which the
metrics leave out of a button's name."""
PLAN: Final = "dvonn:plan"
"""The beginning of the ids of the "Plan a reply" steps (``plan_picker.py``), offered here to
the player who waits."""


@dataclass(frozen=True, slots=True)
class Shown:
    """The position a picker shows: its game, its ply and the game's stored version.

    The version alone decides whether the picker may still act; the ply is there for whoever
    reads an id, and makes these ids one part longer than the pickers' ids of old (game and ply
    only: :class:`OutdatedPicker`), so that neither kind can be taken for the other."""

    game_id: int
    ply: int
    version: int

    @classmethod
    def of(cls, game: Game) -> Shown:
        return cls(game.id, game.position.ply, game.version)

    @classmethod
    def read(cls, match: re.Match[str]) -> Shown:
        return cls(int(match["game"]), int(match["ply"]), int(match["version"]))

    def __str__(self) -> str:
        """As the ids spell it (:data:`SHOWN`)."""
        return f"{self.game_id}:{self.ply}:{self.version}"


def board_view(game: Game, reader: Reader) -> discord.ui.View | None:
    """The "Your move" button under a board, when a person is to move in it."""
    if not game.is_active or game.to_move_id is None or game.computer_to_move:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(game.id, game.position.ply, reader))
    return view


async def game_for(
    interaction: Interaction, game_id: int, version: int | None = None, *, waiting: bool = False
) -> Game:
    """The game, if the interaction's user is to move in it (with ``waiting``: if they wait in
    it, and may plan a reply) and it is still at ``version``, when given: the position a picker
    showed."""
    game = await interaction.client.service.get_game(game_id)
    user = interaction.user.id
    if not game.is_active:
        raise UserError(_("Game #{game} is over.", game=game_id))
    if not game.is_player(user):
        raise UserError(_("This is not your game: only its two players can move in it."))
    if version is not None and game.version != version:
        raise UserError(OUT_OF_DATE)
    if waiting and not waits(game, user):
        raise UserError(_("It is your turn now: tap “Your move” on the newest board."))
    if not waiting and game.to_move_id != user:
        raise UserError(_("It is not your turn: wait for your opponent's move."))
    return game


def picker(game: Game, reader: Reader) -> tuple[str, discord.ui.View]:
    """The private picker's text and menus for the position as it is."""
    position, shown = game.position, Shown.of(game)
    view = discord.ui.View(timeout=None)
    items: Sequence[discord.ui.Item[Any]]
    if position.is_placement:
        items = CellMenu.offer(shown, position, reader)
        question = _("Where do you place your piece?")
    elif stacks := StackMenu.offer(shown, position, reader):
        items = [stacks]
        question = _("Which stack do you move?")
    else:
        items = [ConfirmButton(shown, str(rules.PASS), reader)]
        question = move_question(position, rules.PASS)
    for item in items:
        view.add_item(item)
    view.add_item(TextBoardButton(game.id, reader))  # the position in words, to read or copy
    return reader(question), view


class TurnButton(BotButton, template=r"dvonn:turn:(?P<game>\d+):(?P<ply>\d+)"):
    """ "Your move", under a board: opens the picker of the position as it is now (also from an
    older board: the picker is made for the position of the moment, and checks it)."""

    def __init__(self, game_id: int, ply: int, reader: Reader | None = None) -> None:
        self.game_id = game_id
        self.ply = ply
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Your move")),
                style=discord.ButtonStyle.primary,
                custom_id=f"dvonn:turn:{game_id}:{ply}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(int(match["game"]), int(match["ply"]))

    @classmethod
    def again(cls, game: Game, reader: Reader) -> TurnButton:
        """ "Choose again", in the picker: back to its first step."""
        button = cls(game.id, game.position.ply)
        button.item.label = reader(_("Choose again"))
        button.item.style = discord.ButtonStyle.secondary
        return button

    async def run(self, interaction: Interaction) -> None:
        waiting = await interaction.client.service.get_game(self.game_id)
        if waits(waiting, interaction.user.id):
            await _offer_plan(interaction, waiting)
            return
        game = await game_for(interaction, self.game_id)
        reader = interaction.client.publisher.private_reader(interaction)
        text, view = picker(game, reader)
        if _in_picker(interaction):  # "choose again", in the picker itself
            await interaction.response.edit_message(content=text, view=view)
        else:
            await interaction.response.send_message(text, view=view, ephemeral=True)


def _in_picker(interaction: Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


def waits(game: Game, user_id: int) -> bool:
    """Whether ``user_id`` plays in ``game`` and waits for their opponent, a person: they may
    plan their replies (:mod:`bot.games.plans.lines`)."""
    return (
        game.is_active
        and game.is_player(user_id)
        and game.to_move_id != user_id
        and game.computer_id is None
    )


def plan_button(game: Game, reader: Reader, text: Text) -> discord.ui.Button[Any]:
    """The button that begins planning a reply in ``game`` as it is (``plan_picker.py``)."""
    return discord.ui.Button(
        label=reader(text),
        style=discord.ButtonStyle.primary,
        custom_id=f"{PLAN}:{Shown.of(game)}",
    )


async def _offer_plan(interaction: Interaction, game: Game) -> None:
    """ "Your move" tapped by the player who waits: not their turn, but they may plan their
    replies, privately."""
    reader = interaction.client.publisher.private_reader(interaction)
    view = discord.ui.View(timeout=None)
    view.add_item(plan_button(game, reader, _("Plan a reply")))
    view.add_item(TextBoardButton(game.id, reader))
    text = _(
        "It is not your turn: your opponent is to move. You may plan your reply to the move "
        "you expect; it is played for you as soon as they play it, and only you see it."
    )
    await interaction.response.send_message(reader(text), view=view, ephemeral=True)


class GamePicker(move_picker.Picker[Shown, Game]):
    """The player to move's: each step checks they are still to move at the version shown; the
    move chosen is confirmed by a button that plays it."""

    prefix = "dvonn"

    def read(self, match: re.Match[str]) -> Shown:
        return Shown.read(match)

    async def open(self, interaction: Interaction, step: Shown) -> Game:
        return await game_for(interaction, step.game_id, step.version)

    def again(self, step: Shown, opened: Game, reader: Reader) -> TurnButton:
        return TurnButton.again(opened, reader)

    async def picked(
        self, interaction: Interaction, step: Shown, opened: Game, move: rules.Move
    ) -> None:
        """The picker's last step: what the move does, and the button that plays it."""
        reader = interaction.client.publisher.private_reader(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(step, str(move), reader))
        view.add_item(self.again(step, opened, reader))
        await self.show(interaction, reader, move_question(opened.position, move), view)


PICKER: Final = GamePicker()


class CellMenu(move_picker.CellMenu[Shown], template=rf"dvonn:cells:{SHOWN}:(?P<group>\d)"):
    """Empty cells of one group of columns (placing)."""

    picker = PICKER


class LandingMenu(
    move_picker.LandingMenu[Shown], template=rf"dvonn:to:{SHOWN}:(?P<source>[A-K][1-5])"
):
    """Where the chosen stack may land, each saying what it cuts off."""

    picker = PICKER


class StackMenu(move_picker.StackMenu[Shown], template=rf"dvonn:from:{SHOWN}"):
    """The player's movable stacks (moving)."""

    picker, landings = PICKER, LandingMenu


class ConfirmButton(
    move_picker.ConfirmButton[Shown], template=rf"dvonn:confirm:{SHOWN}:(?P<move>\w+)"
):
    """Plays the move chosen, if the game is still where it was (checked again as it is saved:
    the version goes to the service as the one the move is expected at)."""

    picker = PICKER

    async def run(self, interaction: Interaction) -> None:
        game = await PICKER.open(interaction, self.step)
        bot: DvonnBot = interaction.client
        await play_and_report(
            bot, interaction, game, self.move, expected_version=self.step.version, in_picker=True
        )


OLD_IDS: Final = (
    r"dvonn:(?:cells:\d+:\d+:\d|from:\d+:\d+|to:\d+:\d+:[A-K][1-5]|confirm:\d+:\d+:\w+)"
)
"""The ids of the pickers' menus and confirm buttons before they carried the game's version."""


class OutdatedPicker(discord.ui.DynamicItem[discord.ui.Item[Any]], template=OLD_IDS):
    """The menus and the confirm button of a picker opened before its ids carried the game's
    version (game and ply only, which a takeback and another move bring round again): they
    cannot tell whether the game is still where they were made, so they only ever refuse."""

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OutdatedPicker:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await run_like_a_command(interaction, self.run)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        raise UserError(OUT_OF_DATE)
