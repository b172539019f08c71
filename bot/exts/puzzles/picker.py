"""What can be tapped under a puzzle: the picker of the solver's move (their movable stacks,
then where the chosen one lands and what that cuts off, then **Play E3F4** or **Choose
again**), **Give up** (the solution is shown), **Next puzzle** once it is over, and **Solve
it** under a server's daily post. The picker's steps are the shared ones of
:mod:`bot.interactions.move_picker`; :class:`PuzzlePicker` says what is the puzzles' own.

Every item is a persistent :class:`~bot.interactions.buttons.BotButton` (or menu) whose id says
which try and which step of it the board showed (``dvonn:puzzle:from:<try>:<step>``), so it
works after a restart and refuses, privately, once the try has moved on: a picker only ever
plays in the position it showed. The service checks the step again as it saves the move (two
taps at once play once)."""

from __future__ import annotations

import re
from datetime import date
from typing import TYPE_CHECKING, Any, Final

import discord

import rules
from bot.exts.puzzles.board import message
from bot.games.puzzles.errors import PuzzleMovedOn
from bot.games.puzzles.solving import PuzzleMoved, PuzzleShown
from bot.i18n import Text, _
from bot.interactions import move_picker
from bot.interactions.buttons import BotButton, label
from bot.interactions.move_picker import AT, At
from bot.interactions.replies import finish
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import Interaction

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
    at = At(attempt.id, attempt.step)
    if stacks := StackMenu.offer(at, subject.puzzle.position_at(attempt.step), reader):
        view.add_item(stacks)
    view.add_item(GiveUpButton(attempt.id, attempt.step, reader))
    return view


async def _shown_at(interaction: Interaction, attempt_id: int, step: int) -> PuzzleShown:
    """The try, if it is the user's, running, and still at ``step``."""
    service = interaction.client.service
    shown = await service.puzzles.shown(interaction.user.id, attempt_id)
    if shown.attempt.step != step:
        raise PuzzleMovedOn(attempt_id)
    return shown


class PuzzlePicker(move_picker.Picker[At, PuzzleShown]):
    """The solver's, under the board: each step checks the try is theirs and still at the step
    shown (the message keeps its text, the board's); the move chosen is tried by Play."""

    prefix = "dvonn:puzzle"

    def read(self, match: re.Match[str]) -> At:
        return At.read(match)

    async def open(self, interaction: Interaction, step: At) -> PuzzleShown:
        return await _shown_at(interaction, step.attempt_id, step.step)

    def again(self, step: At, opened: PuzzleShown, reader: Reader) -> AgainButton:
        return AgainButton(step.attempt_id, step.step, reader)

    def landing_placeholder(self, source: str) -> Text:
        return _("Where {cell} lands", cell=source)

    async def show(
        self,
        interaction: discord.Interaction[Any],
        reader: Reader,
        question: Text,
        view: discord.ui.View,
    ) -> None:
        await interaction.response.edit_message(view=view)

    async def picked(
        self, interaction: Interaction, step: At, opened: PuzzleShown, move: rules.Move
    ) -> None:
        reader = interaction.client.publisher.private_reader(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(PlayButton(step, str(move), reader))
        view.add_item(self.again(step, opened, reader))
        await interaction.response.edit_message(view=view)


PICKER: Final = PuzzlePicker()


class LandingMenu(
    move_picker.LandingMenu[At], template=rf"dvonn:puzzle:to:{AT}:(?P<source>[A-K][1-5])"
):
    """Where the chosen stack may land, each saying what it cuts off."""

    picker = PICKER


class StackMenu(move_picker.StackMenu[At], template=rf"dvonn:puzzle:from:{AT}"):
    """The solver's movable stacks."""

    picker, landings = PICKER, LandingMenu


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


class PlayButton(move_picker.ConfirmButton[At], template=rf"dvonn:puzzle:play:{AT}:(?P<move>\w+)"):
    """Plays the move chosen, if the try is still where the board showed it."""

    picker, kind = PICKER, "play"

    async def run(self, interaction: Interaction) -> None:
        moved = await interaction.client.service.puzzles.play(
            interaction.user.id, self.move, attempt_id=self.step.attempt_id, step=self.step.step
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
