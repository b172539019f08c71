"""Planning a reply by tapping: the "Plan a reply" steps, for the player who waits.

"Your move" under a board, tapped by the player who waits for their opponent, offers "Plan a
reply" (:func:`~bot.exts.play.picker.plan_button`). Its steps, in that same private message:

1. the move they expect of their opponent, as the picker shows a player to move: the empty
   cells while placing; while moving, the opponent's stacks, then where the chosen one lands;
2. their own reply, in the position the expected move would leave;
3. "Plan it": the line is kept (:class:`bot.games.plans.planning.Planning`), checked as every line
is,
   and played for them as soon as the opponent plays the move they expected.

Every id carries the game's version (:class:`~bot.exts.play.picker.Shown`) and the moves chosen
so far: a step refuses once the game has moved on. Nothing of it is seen by anyone else. Lines
of more than one reply: ``/dvonn plan``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.exts.play.picker import (
    COLUMN_GROUPS,
    MAX_OPTIONS,
    OUT_OF_DATE,
    PLAN,
    SHOWN,
    Shown,
    _menu,
    plan_button,
    waits,
)
from bot.games.core import turns
from bot.games.core.models import Game
from bot.i18n import Text, _, n_
from bot.interactions.buttons import BotButton, BotMenu, label
from bot.interactions.errors import UserError
from bot.interactions.move_labels import landing_label, stack_label
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction

MOVE: Final = r"(?:[A-K][1-5]){1,2}"
"""A move in an id: a cell (a placement) or two (a jump)."""
EXPECTED: Final = rf"(?P<expected>(?:{MOVE})?)"
"""The move expected of the opponent, once chosen (empty before)."""
AGAIN: Final = _("Choose again")


def _move(text: str) -> rules.Move | None:
    return rules.parse_move(text) if text else None


async def _plan_game(interaction: Interaction, shown: Shown) -> Game:
    """The game a step was made for, if its user still waits in it at the version shown."""
    game = await interaction.client.service.get_game(shown.game_id)
    user = interaction.user.id
    if not game.is_active:
        raise UserError(_("Game #{game} is over.", game=shown.game_id))
    if not game.is_player(user):
        raise UserError(_("This is not your game: only its two players can move in it."))
    if game.version != shown.version:
        raise UserError(OUT_OF_DATE)
    if not waits(game, user):
        raise UserError(_("It is your turn now: tap “Your move” on the newest board."))
    return game


async def _step(
    interaction: Interaction, game: Game, expected: rules.Move | None
) -> tuple[str, discord.ui.View]:
    """The step that asks for the next move of the line: the one expected of the opponent
    (``expected`` ``None``), or the player's own reply to ``expected``."""
    reader = interaction.client.publisher.private_reader(interaction)
    opponent = await interaction.client.publisher.names.get(game.opponent_of(interaction.user.id))
    shown, view = Shown.of(game), discord.ui.View(timeout=None)
    chosen = "" if expected is None else str(expected)
    if expected is None:
        position = game.position
        question = _("Plan a reply. Which move do you expect from {player}?", player=opponent)
    else:
        position = turns.turn(game.position, expected).after
        if rules.is_over(position) or position.turn is game.position.turn:
            # The game would end, or the player would have to pass: nothing to reply.
            view.add_item(plan_button(game, reader, AGAIN))
            text = _("After {move} you would have no move to make: choose another.", move=chosen)
            return reader(text), view
        question = _("If {player} plays {move}, what do you play?", player=opponent, move=chosen)
    if position.is_placement:
        empty = rules.empty_cells(position)
        for group, letters in enumerate(COLUMN_GROUPS):
            cells = [rules.cell_name(c) for c in empty if rules.cell_name(c)[0] in letters]
            if cells:
                view.add_item(PlanCellMenu(shown, group, chosen, cells, reader))
    else:
        stacks = [
            (rules.cell_name(c), reader(stack_label(position, c)))
            for c in rules.movable_cells(position)
        ]
        view.add_item(PlanStackMenu(shown, chosen, stacks[:MAX_OPTIONS], reader))
    if expected is not None:
        view.add_item(plan_button(game, reader, AGAIN))
    return reader(question), view


async def _chosen(
    interaction: Interaction, game: Game, expected: rules.Move | None, move: rules.Move
) -> None:
    """A move was picked: the expected one (then ask for the reply), or the reply (then ask to
    plan the line)."""
    try:
        turns.turn(game.position if expected is None else _after(game, expected), move)
    except rules.RulesError:
        raise UserError(_("Pick a move from the menu.")) from None
    if expected is None:
        text, view = await _step(interaction, game, move)
        await interaction.response.edit_message(content=text, view=view)
        return
    reader = interaction.client.publisher.private_reader(interaction)
    opponent = await interaction.client.publisher.names.get(game.opponent_of(interaction.user.id))
    view = discord.ui.View(timeout=None)
    view.add_item(PlanConfirmButton(Shown.of(game), str(expected), str(move), reader))
    view.add_item(plan_button(game, reader, AGAIN))
    question = _(
        "If {player} plays {move}, you play {reply}. Plan it?",
        player=opponent,
        move=str(expected),
        reply=str(move),
    )
    await interaction.response.edit_message(content=reader(question), view=view)


def _after(game: Game, expected: rules.Move) -> rules.Position:
    try:
        return turns.turn(game.position, expected).after
    except rules.RulesError:
        raise UserError(OUT_OF_DATE) from None


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


class PlanCellMenu(BotMenu, template=rf"{PLAN}:cells:{SHOWN}:(?P<group>\d):{EXPECTED}"):
    """Empty cells of one group of columns (placing): the cell expected, or the reply."""

    def __init__(
        self,
        shown: Shown,
        group: int,
        expected: str,
        cells: list[str] | None = None,
        reader: Reader | None = None,
    ) -> None:
        self.shown, self.group, self.expected = shown, group, expected
        letters = COLUMN_GROUPS[group]
        super().__init__(
            _menu(
                f"{PLAN}:cells:{shown}:{group}:{expected}",
                label(reader, _("Cells {first}–{last}", first=letters[0], last=letters[-1])),
                [(c, c) for c in cells or ()],
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> PlanCellMenu:
        return cls(Shown.read(match), int(match["group"]), match["expected"])

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.shown)
        cell = rules.lookup_cell(self.chosen or "")
        if cell is None:
            raise UserError(_("Pick a cell from the menu."))
        await _chosen(interaction, game, _move(self.expected), rules.Place(cell))


class PlanStackMenu(BotMenu, template=rf"{PLAN}:from:{SHOWN}:{EXPECTED}"):
    """The stacks that may move (moving): the opponent's, then the player's own."""

    def __init__(
        self,
        shown: Shown,
        expected: str,
        options: list[tuple[str, str]] | None = None,
        reader: Reader | None = None,
    ) -> None:
        self.shown, self.expected = shown, expected
        super().__init__(
            _menu(
                f"{PLAN}:from:{shown}:{expected}",
                label(reader, _("Their stack") if not expected else _("Your stack")),
                options or [],
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> PlanStackMenu:
        return cls(Shown.read(match), match["expected"])

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.shown)
        expected = _move(self.expected)
        position = game.position if expected is None else _after(game, expected)
        source = rules.lookup_cell(self.chosen or "")
        landings = [] if source is None else rules.destinations(position, source)
        if source is None or not landings:
            raise UserError(_("Pick a stack from the menu."))
        reader = interaction.client.publisher.private_reader(interaction)
        targets = [
            (rules.cell_name(t), reader(landing_label(position, source, t))) for t in landings
        ]
        view = discord.ui.View(timeout=None)
        name = rules.cell_name(source)
        view.add_item(PlanLandingMenu(self.shown, self.expected, name, targets, reader))
        view.add_item(plan_button(game, reader, AGAIN))
        await interaction.response.edit_message(
            content=reader(_("Where does {cell} go?", cell=name)), view=view
        )


class PlanLandingMenu(BotMenu, template=rf"{PLAN}:to:{SHOWN}:{EXPECTED}:(?P<source>[A-K][1-5])"):
    """Where the chosen stack may land, each saying what it cuts off."""

    def __init__(
        self,
        shown: Shown,
        expected: str,
        source: str,
        options: list[tuple[str, str]] | None = None,
        reader: Reader | None = None,
    ) -> None:
        self.shown, self.expected, self.source = shown, expected, source
        super().__init__(
            _menu(
                f"{PLAN}:to:{shown}:{expected}:{source}",
                label(reader, _("Where it lands")),
                options or [],
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> PlanLandingMenu:
        return cls(Shown.read(match), match["expected"], match["source"])

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.shown)
        source = rules.lookup_cell(self.source)
        target = rules.lookup_cell(self.chosen or "")
        if source is None or target is None:
            raise UserError(_("Pick where the stack lands from the menu."))
        await _chosen(interaction, game, _move(self.expected), rules.jump(source, target))


class PlanConfirmButton(
    BotButton,
    template=rf"{PLAN}:confirm:{SHOWN}:(?P<expected>{MOVE}):(?P<reply>{MOVE})",
):
    """ "Plan it": keeps the line (the move expected, the reply), if the game is still where
    the steps showed it."""

    def __init__(
        self, shown: Shown, expected: str, reply: str, reader: Reader | None = None
    ) -> None:
        self.shown, self.expected, self.reply = shown, expected, reply
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Plan it")),
                style=discord.ButtonStyle.success,
                custom_id=f"{PLAN}:confirm:{shown}:{expected}:{reply}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> PlanConfirmButton:
        return cls(Shown.read(match), match["expected"], match["reply"])

    async def run(self, interaction: Interaction) -> None:
        game = await _plan_game(interaction, self.shown)
        user = interaction.user.id
        planned = await interaction.client.service.plans.plan(
            game.id,
            user,
            [rules.parse_move(self.expected), rules.parse_move(self.reply)],
            expected_version=self.shown.version,
        )
        reader = interaction.client.publisher.private_reader(interaction)
        opponent = await interaction.client.publisher.names.get(game.opponent_of(user))
        said: Text = n_(
            "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
            "line in this game; /dvonn plan lists them.",
            "Planned: if {player} plays {move}, you play {reply}. You have {count} planned "
            "lines in this game; /dvonn plan lists them.",
            len(planned.lines),
            player=opponent,
            move=self.expected,
            reply=self.reply,
        )
        if planned.planned_already:
            said = _("You had planned that already.")
        view = discord.ui.View(timeout=None)
        view.add_item(plan_button(planned.game, reader, _("Plan another reply")))
        await interaction.response.edit_message(content=reader(said), view=view)
