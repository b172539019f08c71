"""What can be tapped under a puzzle: the picker of the solver's move (their movable stacks,
then where the chosen one lands and what that cuts off, then **Play E3F4** or **Choose
again**), **Give up** (the solution is shown), **Next puzzle** once it is over, and **Solve
it** under a server's daily post.

Every item is a persistent :class:`~bot.interactions.buttons.BotButton` (or menu) whose id says
which try and which step of it the board showed (``dvonn:puzzle:from:<try>:<step>``), so it
works after a restart and refuses, privately, once the try has moved on: a picker only ever
plays in the position it showed. The service checks the step again as it saves the move (two
taps at once play once)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.exts.puzzles.board import message
from bot.games.puzzles.errors import PuzzleMovedOn
from bot.games.puzzles.solving import PuzzleMoved, PuzzleShown
from bot.i18n import _
from bot.interactions.buttons import BotButton, BotMenu, label
from bot.interactions.errors import UserError
from bot.interactions.move_labels import landing_label, stack_label
from bot.interactions.replies import finish
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction

MAX_OPTIONS: Final = 25  # Discord's limit for a select menu
AT: Final = r"(?P<attempt>\d+):(?P<step>\d+)"
"""How the ids spell the try and the step a board showed."""
DAY: Final = r"(?P<day>\d{8})"
"""A daily post's day, as ``20250301``: numbers only, which the metrics leave out of a name."""


def day_id(day: date) -> str:
    return day.strftime("%Y%m%d")


def read_day(text: str) -> date:
    return date(int(text[:4]), int(text[4:6]), int(text[6:]))


def puzzle_view(subject: PuzzleShown | PuzzleMoved, reader: Reader) -> discord.ui.View:
    """Under a puzzle's board: the picker and Give up while it runs; Next puzzle once over."""
    view = discord.ui.View(timeout=None)
    if isinstance(subject, PuzzleMoved) and subject.over:
        view.add_item(NextPuzzleButton(reader))
        return view
    attempt = subject.attempt
    position = subject.puzzle.position_at(attempt.step)
    options = [
        (rules.cell_name(c), reader(stack_label(position, c)))
        for c in rules.movable_cells(position)
    ]
    if options:
        view.add_item(StackMenu(attempt.id, attempt.step, options[:MAX_OPTIONS], reader))
    view.add_item(GiveUpButton(attempt.id, attempt.step, reader))
    return view


def _menu(
    custom_id: str, placeholder: str, options: Sequence[tuple[str, str]]
) -> discord.ui.Select[Any]:
    """A menu of ``(value, label)`` options (none when rebuilt from its id on a choice)."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=[discord.SelectOption(label=text, value=value) for value, text in options],
    )


async def _shown_at(interaction: Interaction, attempt_id: int, step: int) -> PuzzleShown:
    """The try, if it is the user's, running, and still at ``step``."""
    service = interaction.client.service
    shown = await service.puzzles.shown(interaction.user.id, attempt_id)
    if shown.attempt.step != step:
        raise PuzzleMovedOn(attempt_id)
    return shown


class StackMenu(BotMenu, template=rf"dvonn:puzzle:from:{AT}"):
    """The solver's movable stacks."""

    def __init__(
        self,
        attempt_id: int,
        step: int,
        options: Sequence[tuple[str, str]] = (),
        reader: Reader | None = None,
    ) -> None:
        self.attempt_id, self.step = attempt_id, step
        super().__init__(
            _menu(
                f"dvonn:puzzle:from:{attempt_id}:{step}",
                label(reader, _("Your stack")),
                options,
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> StackMenu:
        return cls(int(match["attempt"]), int(match["step"]))

    async def run(self, interaction: Interaction) -> None:
        shown = await _shown_at(interaction, self.attempt_id, self.step)
        position = shown.position
        source = rules.lookup_cell(self.chosen or "")
        landings = [] if source is None else rules.destinations(position, source)
        if source is None or not landings:
            raise UserError(_("Pick one of your stacks from the menu."))
        reader = interaction.client.publisher.private_reader(interaction)
        targets = [
            (rules.cell_name(t), reader(landing_label(position, source, t))) for t in landings
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(
            LandingMenu(self.attempt_id, self.step, rules.cell_name(source), targets, reader)
        )
        view.add_item(AgainButton(self.attempt_id, self.step, reader))
        await interaction.response.edit_message(view=view)


class LandingMenu(BotMenu, template=rf"dvonn:puzzle:to:{AT}:(?P<source>[A-K][1-5])"):
    """Where the chosen stack may land, each saying what it cuts off."""

    def __init__(
        self,
        attempt_id: int,
        step: int,
        source: str,
        options: Sequence[tuple[str, str]] = (),
        reader: Reader | None = None,
    ) -> None:
        self.attempt_id, self.step, self.source = attempt_id, step, source
        super().__init__(
            _menu(
                f"dvonn:puzzle:to:{attempt_id}:{step}:{source}",
                label(reader, _("Where {cell} lands", cell=source)),
                options,
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> LandingMenu:
        return cls(int(match["attempt"]), int(match["step"]), match["source"])

    async def run(self, interaction: Interaction) -> None:
        shown = await _shown_at(interaction, self.attempt_id, self.step)
        source = rules.lookup_cell(self.source)
        target = rules.lookup_cell(self.chosen or "")
        if (
            source is None
            or target is None
            or target not in rules.destinations(shown.position, source)
        ):
            raise UserError(_("Pick where the stack lands from the menu."))
        reader = interaction.client.publisher.private_reader(interaction)
        move = str(rules.jump(source, target))
        view = discord.ui.View(timeout=None)
        view.add_item(PlayButton(self.attempt_id, self.step, move, reader))
        view.add_item(AgainButton(self.attempt_id, self.step, reader))
        await interaction.response.edit_message(view=view)


class AgainButton(BotButton, template=rf"dvonn:puzzle:again:{AT}"):
    """ "Choose again": back to the stacks."""

    def __init__(self, attempt_id: int, step: int, reader: Reader | None = None) -> None:
        self.attempt_id, self.step = attempt_id, step
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Choose again")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:puzzle:again:{attempt_id}:{step}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> AgainButton:
        return cls(int(match["attempt"]), int(match["step"]))

    async def run(self, interaction: Interaction) -> None:
        shown = await _shown_at(interaction, self.attempt_id, self.step)
        reader = interaction.client.publisher.private_reader(interaction)
        await interaction.response.edit_message(view=puzzle_view(shown, reader))


class PlayButton(BotButton, template=rf"dvonn:puzzle:play:{AT}:(?P<move>\w+)"):
    """Plays the move chosen, if the try is still where the board showed it."""

    def __init__(self, attempt_id: int, step: int, move: str, reader: Reader | None = None) -> None:
        self.attempt_id, self.step, self.move = attempt_id, step, move
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Play {move}", move=move)),
                style=discord.ButtonStyle.success,
                custom_id=f"dvonn:puzzle:play:{attempt_id}:{step}:{move}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> PlayButton:
        return cls(int(match["attempt"]), int(match["step"]), match["move"])

    async def run(self, interaction: Interaction) -> None:
        moved = await interaction.client.service.puzzles.play(
            interaction.user.id, self.move, attempt_id=self.attempt_id, step=self.step
        )
        await answer_in_place(interaction, moved)


class GiveUpButton(BotButton, template=rf"dvonn:puzzle:solution:{AT}"):
    """Give up: the solution is shown, and a rated puzzle counts as failed."""

    def __init__(self, attempt_id: int, step: int, reader: Reader | None = None) -> None:
        self.attempt_id, self.step = attempt_id, step
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Give up (show the solution)")),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:puzzle:solution:{attempt_id}:{step}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> GiveUpButton:
        return cls(int(match["attempt"]), int(match["step"]))

    async def run(self, interaction: Interaction) -> None:
        moved = await interaction.client.service.puzzles.give_up(
            interaction.user.id, self.attempt_id, self.step
        )
        await answer_in_place(interaction, moved)


class NextPuzzleButton(BotButton, template=r"dvonn:puzzle:next"):
    """Under a puzzle that is over: the next one (or the player's running one)."""

    def __init__(self, reader: Reader | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Next puzzle")),
                style=discord.ButtonStyle.primary,
                custom_id="dvonn:puzzle:next",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> NextPuzzleButton:
        return cls()

    async def run(self, interaction: Interaction) -> None:
        shown = await interaction.client.service.puzzles.start(interaction.user.id)
        await answer_anew(interaction, shown)


class SolveDailyButton(BotButton, template=rf"dvonn:puzzle:daily:{DAY}"):
    """ "Solve it", under a server's daily post: that day's puzzle, privately, for whoever
    taps (rated on their first try of it)."""

    def __init__(self, day: date, reader: Reader | None = None) -> None:
        self.day = day
        super().__init__(
            discord.ui.Button(
                label=label(reader, _("Solve it")),
                style=discord.ButtonStyle.primary,
                emoji="🧩",
                custom_id=f"dvonn:puzzle:daily:{day_id(day)}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> SolveDailyButton:
        try:
            return cls(read_day(match["day"]))
        except ValueError:
            return cls(date.min)  # no such day: the service says there is no puzzle of it

    async def run(self, interaction: Interaction) -> None:
        shown = await interaction.client.service.puzzles.start(
            interaction.user.id, daily=self.day, guild_id=interaction.guild_id
        )
        await answer_anew(interaction, shown)


def daily_view(day: date, reader: Reader) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SolveDailyButton(day, reader))
    return view


BUTTONS: Final = (
    StackMenu,
    LandingMenu,
    AgainButton,
    PlayButton,
    GiveUpButton,
    NextPuzzleButton,
    SolveDailyButton,
)
"""Every persistent item of the feature, for ``bot.add_dynamic_items``."""


async def answer_in_place(interaction: Interaction, moved: PuzzleMoved) -> None:
    """A tap in a puzzle's own message: the message becomes the answer (its board replaced);
    then what the move queued is posted (a daily post's count, updated)."""
    await interaction.response.defer()
    bot = interaction.client
    reader = await bot.publisher.own_reader(interaction)
    kwargs = await message(bot.publisher.renderer, moved, reader)
    await finish(interaction, **kwargs, view=puzzle_view(moved, reader))
    await bot.deliverer.deliver(moved.announcements)


async def answer_anew(interaction: Interaction, subject: PuzzleShown | PuzzleMoved) -> None:
    """A puzzle shown in a new private message (a command, Next puzzle, Solve it)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    reader = await bot.publisher.own_reader(interaction)
    await finish(
        interaction,
        **await message(bot.publisher.renderer, subject, reader),
        view=puzzle_view(subject, reader),
    )
    if isinstance(subject, PuzzleMoved):
        await bot.deliverer.deliver(subject.announcements)  # a daily post's count, updated
