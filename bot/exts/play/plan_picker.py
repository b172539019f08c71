"""Planning a reply by tapping: the "Plan a reply" steps, for the player who waits.

"Your move" under a board, tapped by the player who waits for their opponent, offers "Plan a
reply" (:func:`~bot.exts.play.picker.plan_button`). Its steps, in that same private message:

1. the move they expect of their opponent, as the picker shows a player to move: the empty
   cells while placing; while moving, the opponent's stacks, then where the chosen one lands;
2. their own reply, in the position the expected move would leave;
3. "Plan it": the line is kept (:class:`bot.games.plans.planning.Planning`), checked as every
   line is, and played for them as soon as the opponent plays the move they expected.

The steps are the shared picker's (:mod:`bot.interactions.move_picker`); :class:`PlanPicker`
says what is planning's own. Every id carries the game's version
(:class:`~bot.exts.play.picker.Shown`) and the moves chosen so far (:class:`Planned`): a step
refuses once the game has moved on. Nothing of it is seen by anyone else. Lines of more than
one reply: ``/dvonn plan``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.exts.play.picker import OUT_OF_DATE, PLAN, SHOWN, Shown, game_for, plan_button
from bot.games.core import turns
from bot.games.core.models import Game
from bot.i18n import Text, _, n_
from bot.interactions import move_picker
from bot.interactions.buttons import BotButton
from bot.interactions.errors import UserError
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction

MOVE: Final = r"(?:[A-K][1-5]){1,2}"
"""A move in an id: a cell (a placement) or two (a jump)."""
EXPECTED: Final = rf"(?P<expected>(?:{MOVE})?)"
"""The move expected of the opponent, once chosen (empty before)."""
AGAIN: Final = _("Choose again")


@dataclass(frozen=True, slots=True)
class Planned:
    """What a step's ids carry: the game as shown, and the move expected of the opponent once
    chosen (``""`` before)."""

    shown: Shown
    expected: str

    def __str__(self) -> str:
        return f"{self.shown}:{self.expected}"


@dataclass(frozen=True, slots=True)
class Planning:
    """A step, checked: the game, the move expected (once chosen), and the position in which
    the step's move is chosen (the game's, or the one the move expected would leave)."""

    game: Game
    expected: rules.Move | None
    position: rules.Position


def _move(text: str) -> rules.Move | None:
    return rules.parse_move(text) if text else None


async def _plan_game(interaction: Interaction, shown: Shown) -> Game:
    """The game a step was made for, if its user still waits in it at the version shown."""
    return await game_for(interaction, shown.game_id, shown.version, waiting=True)


async def _step(
    interaction: Interaction, game: Game, expected: rules.Move | None
) -> tuple[str, discord.ui.View]:
    """The step that asks for the next move of the line: the one expected of the opponent
    (``expected`` ``None``), or the player's own reply to ``expected``."""
    reader = interaction.client.publisher.private_reader(interaction)
    opponent = await interaction.client.publisher.opponent_name(game, interaction.user.id)
    view = discord.ui.View(timeout=None)
    step = Planned(Shown.of(game), "" if expected is None else str(expected))
    if expected is None:
        position = game.position
        question = _("Plan a reply. Which move do you expect from {player}?", player=opponent)
    else:
        position = turns.turn(game.position, expected).after
        if rules.is_over(position) or position.turn is game.position.turn:
            # The game would end, or the player would have to pass: nothing to reply.
            view.add_item(plan_button(game, reader, AGAIN))
            text = _(
                "After {move} you would have no move to make: choose another.", move=step.expected
            )
            return reader(text), view
        question = _(
            "If {player} plays {move}, what do you play?", player=opponent, move=step.expected
        )
    if position.is_placement:
        for menu in PlanCellMenu.offer(step, position, reader):
            view.add_item(menu)
    elif stacks := PlanStackMenu.offer(step, position, reader):
        view.add_item(stacks)
    if expected is not None:
        view.add_item(plan_button(game, reader, AGAIN))
    return reader(question), view


def _after(game: Game, expected: rules.Move) -> rules.Position:
    try:
        return turns.turn(game.position, expected).after
    except rules.RulesError:
        raise UserError(OUT_OF_DATE) from None


class PlanPicker(move_picker.Picker[Planned, Planning]):
    """The player who waits: each step checks they still wait at the version shown; the move
    expected is answered with the reply's step, the reply with "Plan it"."""

    prefix = PLAN
    not_a_stack = _("Pick a stack from the menu.")

    def spell(self, kind: str, step: Planned, *parts: str) -> str:
        if kind == "cells":  # the column group before the move expected, as these ids have it
            return f"{PLAN}:cells:{step.shown}:{parts[0]}:{step.expected}"
        return super().spell(kind, step, *parts)

    def read(self, match: re.Match[str]) -> Planned:
        return Planned(Shown.read(match), match["expected"])

    async def open(self, interaction: Interaction, step: Planned) -> Planning:
        game = await _plan_game(interaction, step.shown)
        expected = _move(step.expected)
        return Planning(
            game, expected, game.position if expected is None else _after(game, expected)
        )

    def again(self, step: Planned, opened: Planning, reader: Reader) -> discord.ui.Button[Any]:
        return plan_button(opened.game, reader, AGAIN)

    def stack_placeholder(self, step: Planned) -> Text:
        return _("Their stack") if not step.expected else _("Your stack")

    async def picked(
        self, interaction: Interaction, step: Planned, opened: Planning, move: rules.Move
    ) -> None:
        """A move was picked: the expected one (then ask for the reply), or the reply (then ask
        to plan the line)."""
        try:
            turns.turn(opened.position, move)
        except rules.RulesError:
            raise UserError(_("Pick a move from the menu.")) from None
        game, expected = opened.game, opened.expected
        if expected is None:
            text, view = await _step(interaction, game, move)
            await interaction.response.edit_message(content=text, view=view)
            return
        reader = interaction.client.publisher.private_reader(interaction)
        opponent = await interaction.client.publisher.opponent_name(game, interaction.user.id)
        view = discord.ui.View(timeout=None)
        view.add_item(PlanConfirmButton(Planned(Shown.of(game), str(expected)), str(move), reader))
        view.add_item(self.again(step, opened, reader))
        question = _(
            "If {player} plays {move}, you play {reply}. Plan it?",
            player=opponent,
            move=str(expected),
            reply=str(move),
        )
        await self.show(interaction, reader, question, view)


PICKER: Final = PlanPicker()


class PlanButton(BotButton, template=rf"{PLAN}:{SHOWN}"):
    """ "Plan a reply" (and "Choose again" in its steps): the first step, the move expected."""

    def __init__(self, shown: Shown) -> None:
        self.shown = shown
        super().__init__(discord.ui.Button(custom_id=f"{PLAN}:{shown}"))

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> PlanButton:
        return cls(Shown.read(match))

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.shown)
        text, view = await _step(interaction, game, None)
        await interaction.response.edit_message(content=text, view=view)


class PlanCellMenu(
    move_picker.CellMenu[Planned], template=rf"{PLAN}:cells:{SHOWN}:(?P<group>\d):{EXPECTED}"
):
    """Empty cells of one group of columns (placing): the cell expected, or the reply."""

    picker = PICKER


class PlanLandingMenu(
    move_picker.LandingMenu[Planned],
    template=rf"{PLAN}:to:{SHOWN}:{EXPECTED}:(?P<source>[A-K][1-5])",
):
    """Where the chosen stack may land, each saying what it cuts off."""

    picker = PICKER


class PlanStackMenu(move_picker.StackMenu[Planned], template=rf"{PLAN}:from:{SHOWN}:{EXPECTED}"):
    """The stacks that may move (moving): the opponent's, then the player's own."""

    picker, landings = PICKER, PlanLandingMenu


class PlanConfirmButton(
    move_picker.ConfirmButton[Planned],
    template=rf"{PLAN}:confirm:{SHOWN}:(?P<expected>{MOVE}):(?P<reply>{MOVE})",
):
    """ "Plan it": keeps the line (the move expected, the reply: :attr:`move`), if the game is
    still where the steps showed it."""

    picker = PICKER

    def text(self, move: str) -> Text:
        return _("Plan it")

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> PlanConfirmButton:
        return cls(PICKER.read(match), match["reply"])

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.step.shown)
        user = interaction.user.id
        expected, reply = self.step.expected, self.move
        planned = await interaction.client.service.plans.plan(
            game.id,
            user,
            [rules.parse_move(expected), rules.parse_move(reply)],
            expected_version=self.step.shown.version,
        )
        reader = interaction.client.publisher.private_reader(interaction)
        opponent = await interaction.client.publisher.opponent_name(game, user)
        said: Text = n_(
            "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
            "line in this game; /dvonn plan lists them.",
            "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
            "lines in this game; /dvonn plan lists them.",
            len(planned.lines),
            player=opponent,
            move=expected,
            reply=reply,
        )
        if planned.planned_already:
            said = _("You had planned that already.")
        view = discord.ui.View(timeout=None)
        view.add_item(plan_button(planned.game, reader, _("Plan another reply")))
        await interaction.response.edit_message(content=reader(said), view=view)
