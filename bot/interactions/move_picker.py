"""One move picker for every feature that offers moves by tapping: the game's ("Your move"),
its "Plan a reply" steps and the puzzles'.

The flow is the same everywhere, in one private message:

* placing: the empty cells, in three menus by column (:data:`COLUMN_GROUPS`: Discord's menus
  hold 25 choices, the board has 49 cells);
* moving: the movable stacks; then where the chosen one lands, each landing saying what it cuts
  off, with "Choose again" beside them;
* the move chosen: the feature's own step, as a rule a :class:`ConfirmButton` (play the move,
  plan the line, try it in the puzzle) and "Choose again".

What differs is passed in as a :class:`Picker`: how the ids spell the step a picker showed (a
game's version, a plan's move expected so far, a puzzle try's step), who may choose and in
which position (checked again at every step: a picker only ever acts in the position it
showed), the feature's "Choose again", what a chosen move leads to, the texts that differ, and
which stacks and landings are offered (the legal ones; a lesson offers illegal ones too, so
that a wrong tap is explained by the rules).
Each feature subclasses the menus and the confirm button with its own id templates and names
its picker (``picker = ...``): the ids are a contract with messages already posted
(:mod:`bot.interactions.buttons`), and the templates stay with the feature that owns them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar, cast

import discord

import rules
from bot.i18n import Text, _
from bot.interactions.buttons import BotButton, BotMenu, label
from bot.interactions.errors import UserError
from bot.interactions.move_labels import landing_label, stack_label
from bot.posting.publisher import Publisher, Reader

COLUMN_GROUPS: Final = ("ABCD", "EFGH", "IJK")
AT: Final = r"(?P<attempt>\d+):(?P<step>\d+)"
"""How the ids of a private board's try (a puzzle's, a lesson's) spell the try and its step."""
"""The placement menus' columns: at most 25 cells each (A–D 17, E–H 20, I–K 12)."""
MAX_OPTIONS: Final = 25  # Discord's limit for a select menu


@dataclass(frozen=True, slots=True)
class At:
    """The try (a puzzle's, a lesson's) and the step of it a board showed, as the ids spell them
    (:data:`AT`)."""

    attempt_id: int
    step: int

    def __str__(self) -> str:
        return f"{self.attempt_id}:{self.step}"

    @classmethod
    def read(cls, match: re.Match[str]) -> At:
        """From an id matched with :data:`AT` in its template."""
        return cls(int(match["attempt"]), int(match["step"]))


class Showing(Protocol):
    """What a step finds when it is used (:meth:`Picker.open`): at least the position in which
    the move is chosen."""

    @property
    def position(self) -> rules.Position: ...


Step = TypeVar("Step")
"""What a picker's ids carry of the position it showed, spelled in them by ``str()``."""
Opened = TypeVar("Opened", bound=Showing)
"""What a step finds, checked, when it is used: the game, the plan being made, the try."""


class _Host(Protocol):
    @property
    def publisher(self) -> Publisher: ...


def private_reader(interaction: discord.Interaction[Any]) -> Reader:
    """The reader of a picker's step: whoever taps, in their language (every step is private)."""
    return cast(_Host, interaction.client).publisher.private_reader(interaction)


def menu(
    custom_id: str, placeholder: str, options: Sequence[tuple[str, str]]
) -> discord.ui.Select[Any]:
    """A menu of ``(value, label)`` options (none when rebuilt from its id on a choice)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=[discord.SelectOption(label=text, value=value) for value, text in options],
    )


class Picker(ABC, Generic[Step, Opened]):
    """What one feature's picker does its own way; the flow is the menus'."""

    prefix: ClassVar[str]
    """What its ids begin with (``dvonn:puzzle``)."""
    not_a_stack: ClassVar[Text] = _("Pick one of your stacks from the menu.")
    """The refusal of a stack chosen that cannot move (only a forged choice can be one)."""

    def spell(self, kind: str, step: Step, *parts: str) -> str:
        """The id of a step's item: ``prefix:kind:step:parts…`` (``dvonn:to:12:52:69:E3``)."""
        return ":".join([self.prefix, kind, str(step), *parts])

    @abstractmethod
    def read(self, match: re.Match[str]) -> Step:
        """The step an id spells, from its template's groups."""

    @abstractmethod
    async def open(self, interaction: discord.Interaction[Any], step: Step) -> Opened:
        """What ``step`` showed, if the user may still choose in it; otherwise raises the error
        that tells them why not (not theirs, or it has moved on since)."""

    @abstractmethod
    def again(self, step: Step, opened: Opened, reader: Reader) -> discord.ui.Item[Any]:
        """ "Choose again", beside the landings: back to the first step."""

    @abstractmethod
    async def picked(
        self, interaction: discord.Interaction[Any], step: Step, opened: Opened, move: rules.Move
    ) -> None:
        """A whole move was chosen, a cell (the feature checks it) or a stack and one of its
        landings: the feature's next step (as a rule, what the move does and its confirm)."""

    def stacks(self, position: rules.Position) -> Sequence[rules.Cell]:
        """The stacks offered in the first step while moving: those that may move. (A lesson
        offers every stack, so that a wrong tap can be tried and explained.)"""
        return rules.movable_cells(position)

    def landings(self, position: rules.Position, source: rules.Cell) -> Sequence[rules.Cell]:
        """Where the stack on ``source`` is offered to land: where it may. (A lesson offers
        every cell in line with it.)"""
        return rules.destinations(position, source)

    def landing_text(
        self, position: rules.Position, source: rules.Cell, target: rules.Cell
    ) -> Text:
        """A landing's option: the cell and what landing there cuts off."""
        return landing_label(position, source, target)

    def stack_placeholder(self, step: Step) -> Text:
        return _("Your stack")

    def landing_placeholder(self, source: str) -> Text:
        return _("Where it lands")

    async def show(
        self,
        interaction: discord.Interaction[Any],
        reader: Reader,
        question: Text,
        view: discord.ui.View,
    ) -> None:
        """A step's answer, in the picker's own message: ``question`` and what ``view`` offers
        (a picker under a board, whose text is the board's, keeps the text)."""
        await interaction.response.edit_message(content=reader(question), view=view)


class CellMenu(BotMenu, Generic[Step], template=r"dvonn:picker:cells"):
    """The empty cells of one group of columns (placing)."""

    picker: ClassVar[Picker[Any, Any]]

    def __init__(
        self, step: Step, group: int, cells: Sequence[str] = (), reader: Reader | None = None
    ) -> None:
        self.step, self.group = step, group
        letters = COLUMN_GROUPS[group]
        super().__init__(
            menu(
                self.picker.spell("cells", step, str(group)),
                label(reader, _("Cells {first}–{last}", first=letters[0], last=letters[-1])),
                [(c, c) for c in cells],
            )
        )

    @classmethod
    def offer(cls, step: Step, position: rules.Position, reader: Reader) -> list[Self]:
        """The first step while placing: a menu for each group of columns with empty cells."""
        empty = [rules.cell_name(c) for c in rules.empty_cells(position)]  # in cell order
        groups = [[c for c in empty if c[0] in letters] for letters in COLUMN_GROUPS]
        return [cls(step, group, cells, reader) for group, cells in enumerate(groups) if cells]

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        return cls(cls.picker.read(match), int(match["group"]))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        opened = await self.picker.open(interaction, self.step)
        cell = rules.lookup_cell(self.chosen or "")
        if cell is None:
            raise UserError(_("Pick a cell from the menu."))
        await self.picker.picked(interaction, self.step, opened, rules.Place(cell))


class LandingMenu(BotMenu, Generic[Step], template=r"dvonn:picker:to"):
    """Where the chosen stack may land, each saying what it cuts off."""

    picker: ClassVar[Picker[Any, Any]]

    def __init__(
        self,
        step: Step,
        source: str,
        options: Sequence[tuple[str, str]] = (),
        reader: Reader | None = None,
    ) -> None:
        self.step, self.source = step, source
        super().__init__(
            menu(
                self.picker.spell("to", step, source),
                label(reader, self.picker.landing_placeholder(source)),
                options,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        return cls(cls.picker.read(match), match["source"])

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        opened = await self.picker.open(interaction, self.step)
        source = rules.lookup_cell(self.source)
        target = rules.lookup_cell(self.chosen or "")
        if (
            source is None
            or target is None
            or target not in self.picker.landings(opened.position, source)
        ):
            raise UserError(_("Pick where the stack lands from the menu."))
        await self.picker.picked(interaction, self.step, opened, rules.jump(source, target))


class StackMenu(BotMenu, Generic[Step], template=r"dvonn:picker:from"):
    """The stacks that may move (moving): the one chosen is answered with its landings."""

    picker: ClassVar[Picker[Any, Any]]
    landings: ClassVar[type[LandingMenu[Any]]]
    """The feature's menu of landings."""

    def __init__(
        self, step: Step, options: Sequence[tuple[str, str]] = (), reader: Reader | None = None
    ) -> None:
        self.step = step
        super().__init__(
            menu(
                self.picker.spell("from", step),
                label(reader, self.picker.stack_placeholder(step)),
                options,
            )
        )

    @classmethod
    def offer(cls, step: Step, position: rules.Position, reader: Reader) -> Self | None:
        """The first step while moving: the stacks that may move, each with its height (as many
        as a menu holds); none when the player to move can only pass."""
        options = [
            (rules.cell_name(c), reader(stack_label(position, c)))
            for c in cls.picker.stacks(position)
        ]
        return cls(step, options[:MAX_OPTIONS], reader) if options else None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        return cls(cls.picker.read(match))

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        picker = self.picker
        opened = await picker.open(interaction, self.step)
        position = opened.position
        source = rules.lookup_cell(self.chosen or "")
        landings = [] if source is None else picker.landings(position, source)
        if source is None or not landings:  # not a stack that can move
            raise UserError(picker.not_a_stack)
        reader = private_reader(interaction)
        name = rules.cell_name(source)
        targets = [
            (rules.cell_name(t), reader(picker.landing_text(position, source, t))) for t in landings
        ][:MAX_OPTIONS]
        view = discord.ui.View(timeout=None)
        view.add_item(self.landings(self.step, name, targets, reader))
        view.add_item(picker.again(self.step, opened, reader))
        await picker.show(interaction, reader, _("Where does {cell} go?", cell=name), view)


class ConfirmButton(BotButton, Generic[Step], template=r"dvonn:picker:confirm"):
    """The last step's button, for the move chosen: the feature says what it does
    (:meth:`run`) and how it is labelled."""

    picker: ClassVar[Picker[Any, Any]]
    kind: ClassVar[str] = "confirm"
    """Its ids' word after the picker's prefix."""

    def __init__(self, step: Step, move: str, reader: Reader | None = None) -> None:
        self.step, self.move = step, move
        super().__init__(
            discord.ui.Button(
                label=label(reader, self.text(move)),
                style=discord.ButtonStyle.success,
                custom_id=self.picker.spell(self.kind, step, move),
            )
        )

    def text(self, move: str) -> Text:
        return _("Play {move}", move=move)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: Any, match: re.Match[str], /
    ) -> Self:
        return cls(cls.picker.read(match), match["move"])
