"""What can be tapped under a lesson's board: the picker of the learner's try (their stacks,
then where the chosen one lands and what that cuts off; the empty cells while placing; Pass),
a question's choices, **Try again** after a wrong try, **Next** after a right one, **Hint** in
the game lesson, and the menu of every lesson (those done marked) to take or replay any. And
**Learn by playing** (under ``/dvonn rules``, ``/dvonn help`` and the offer), which opens the
lessons for whoever taps. The picker's steps are the shared ones of
:mod:`bot.interactions.move_picker`; :class:`LessonPicker` says what is the lessons' own: a
move chosen is tried at once (a lesson's tries cost nothing), and the picker offers every
stack of the board and every landing in line, not only the legal ones, so that a wrong tap is
explained by the rules as a typed one is.

Every item is a persistent :class:`~bot.interactions.buttons.BotButton` (or menu) whose id says
which lesson and which step of it the board showed (``dvonn:learn:from:<lesson>:<step>``), so it
works after a restart and refuses, privately, once the lesson has moved on or when someone else
taps it. The service checks the step again as it saves the try (two taps at once count once)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Final

import discord

import ai
import rules
from bot.exts.lessons import texts
from bot.exts.lessons.board import Answer, message
from bot.games.lessons import book
from bot.games.lessons.errors import LessonMovedOn
from bot.games.lessons.learning import LessonShown, LessonTried, Progress
from bot.i18n import Text, _
from bot.interactions import events, move_picker
from bot.interactions.buttons import BotButton, BotMenu, label
from bot.interactions.move_picker import AT, At
from bot.interactions.replies import finish
from bot.interactions.thinking import BUDGETS, HINT_LEVEL
from bot.posting.publisher import Reader

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction


def at(shown: LessonShown) -> At:
    return At(shown.attempt.id, shown.attempt.step)


def lesson_view(answer: Answer, reader: Reader) -> discord.ui.View:
    """Under a lesson's board: what the player can do now, then the lessons' menu."""
    view = discord.ui.View(timeout=None)
    shown = answer.shown
    here = at(shown)
    task = shown.task
    if shown.over:
        if shown.next_lesson is not None:
            view.add_item(NextButton(here, reader, lesson_over=True))
    elif answer.wrong:
        view.add_item(AgainButton(here, reader))
    elif answer.waiting_for_next:
        view.add_item(NextButton(here, reader))
    elif isinstance(task, book.Question):
        for choice in task.choices:
            view.add_item(ChoiceButton(here, choice, reader, texts.choice_text(task, choice)))
    else:
        position = shown.position
        if position.is_placement:
            for cells in CellMenu.offer(here, position, reader):
                view.add_item(cells)
        elif stacks := StackMenu.offer(here, position, reader):
            view.add_item(stacks)
        if _may_pass(shown, position):
            view.add_item(PassButton(here, reader))
        if isinstance(task, book.GameTask):
            view.add_item(HintButton(here, reader))
    view.add_item(LessonMenu(reader, shown.done, shown.lesson.key))
    return view


def progress_view(progress: Progress, reader: Reader) -> discord.ui.View:
    """Under the list of lessons (every one done): the menu to replay any."""
    view = discord.ui.View(timeout=None)
    view.add_item(LessonMenu(reader, progress.done))
    return view


def _may_pass(shown: LessonShown, position: rules.Position) -> bool:
    """Pass is offered when it is legal, and in every move task of the lesson about passing
    (where a pass tapped when a move is left is a wrong try, explained)."""
    if position.is_placement:
        return False
    teaches_passing = any(
        isinstance(each, book.MoveTask) and each.goal.aim is book.Aim.PASS
        for each in shown.lesson.tasks
    )
    if isinstance(shown.task, book.MoveTask) and teaches_passing:
        return True
    return rules.legal_moves(position) == (rules.PASS,)


async def _shown_at(interaction: Interaction, step: At) -> LessonShown:
    """The lesson, if it is the user's, running, and still at the step shown."""
    lessons = interaction.client.service.lessons
    return await lessons.shown(interaction.user.id, step.attempt_id, step.step)


class LessonPicker(move_picker.Picker[At, LessonShown]):
    """The learner's, under the board: each step checks the lesson is theirs and still at the
    step shown (the message keeps its text, the board's); a move chosen is tried at once."""

    prefix = "dvonn:learn"

    def read(self, match: re.Match[str]) -> At:
        return At.read(match)

    async def open(self, interaction: Interaction, step: At) -> LessonShown:
        return await _shown_at(interaction, step)

    def again(self, step: At, opened: LessonShown, reader: Reader) -> AgainButton:
        return AgainButton(step, reader, _("Choose again"))

    def landing_placeholder(self, source: str) -> Text:
        return _("Where {cell} lands", cell=source)

    def stacks(self, position: rules.Position) -> list[rules.Cell]:
        # Every stack, the opponent's and the stuck ones too, so that a wrong tap is tried and
        # explained; on a board too full for one menu (the game lesson's), the movable ones.
        every = [cell for cell in rules.CELLS if position.stack(cell)]
        return every if len(every) <= move_picker.MAX_OPTIONS else rules.movable_cells(position)

    def landings(self, position: rules.Position, source: rules.Cell) -> list[rules.Cell]:
        # Every cell in line (18 at most), at any distance: the rules say why one is not a
        # landing.
        return [cell for ray in rules.RAYS[source] for cell in ray]

    def landing_text(
        self, position: rules.Position, source: rules.Cell, target: rules.Cell
    ) -> Text:
        # The cell alone: what a landing cuts off (or why it is no landing) is the lesson's
        # answer, shown once it is tried.
        return Text(rules.cell_name(target))

    async def show(
        self,
        interaction: discord.Interaction[Any],
        reader: Reader,
        question: Text,
        view: discord.ui.View,
    ) -> None:
        await interaction.response.edit_message(view=view)

    async def picked(
        self, interaction: Interaction, step: At, opened: LessonShown, move: rules.Move
    ) -> None:
        await try_in_place(interaction, move, step)


PICKER: Final = LessonPicker()


class CellMenu(move_picker.CellMenu[At], template=rf"dvonn:learn:cells:{AT}:(?P<group>\d)"):
    """Empty cells of one group of columns (placing)."""

    picker = PICKER


class LandingMenu(
    move_picker.LandingMenu[At], template=rf"dvonn:learn:to:{AT}:(?P<source>[A-K][1-5])"
):
    """Where the chosen stack may land (and, in a lesson, where it may not)."""

    picker = PICKER


class StackMenu(move_picker.StackMenu[At], template=rf"dvonn:learn:from:{AT}"):
    """The stacks to try a move with."""

    picker, landings = PICKER, LandingMenu


class _AtButton(BotButton, template=r"dvonn:learn:base:(?P<attempt>\d+):(?P<step>\d+)"):
    """A button of a lesson's board: its id carries the lesson and the step shown. (The base
    of the feature's buttons, never registered itself.)"""

    kind: ClassVar[str] = "base"
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    text: ClassVar[Text] = _("Next")
    """Its label, unless one is given (rebuilt from its id, the label is not used)."""

    def __init__(self, step: At, reader: Reader | None = None, text: Text | None = None) -> None:
        self.step = step
        super().__init__(
            discord.ui.Button(
                label=label(reader, text or self.text),
                style=self.style,
                custom_id=f"dvonn:learn:{self.kind}:{step}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> _AtButton:
        return cls(At.read(match))


class AgainButton(_AtButton, template=rf"dvonn:learn:again:{AT}"):
    """ "Try again" after a wrong try, "Choose again" in the picker: the task, as it stands."""

    kind, text = "again", _("Try again")

    async def run(self, interaction: Interaction) -> None:
        shown = await _shown_at(interaction, self.step)
        await answer_in_place(interaction, Answer(shown))


class NextButton(_AtButton, template=rf"dvonn:learn:next:{AT}"):
    """After a right try: the next task; after the lesson's last: the next lesson."""

    kind = "next"
    style = discord.ButtonStyle.primary

    def __init__(
        self, step: At, reader: Reader | None = None, *, lesson_over: bool = False
    ) -> None:
        super().__init__(step, reader, _("Next lesson") if lesson_over else _("Next"))

    async def run(self, interaction: Interaction) -> None:
        lessons = interaction.client.service.lessons
        shown = await lessons.looked_at(interaction.user.id, self.step.attempt_id)
        if shown.over and shown.attempt.step == self.step.step:
            following = shown.next_lesson
            if following is not None:
                shown = await lessons.start(interaction.user.id, following.key)
                await answer_in_place(interaction, Answer(shown))
                return
        shown = await _shown_at(interaction, self.step)
        await answer_in_place(interaction, Answer(shown))


class PassButton(_AtButton, template=rf"dvonn:learn:pass:{AT}"):
    """Pass (when the learner has no move; in the lesson about passing, always)."""

    kind, text = "pass", _("Pass")

    async def run(self, interaction: Interaction) -> None:
        await try_in_place(interaction, rules.PASS, self.step)


class HintButton(_AtButton, template=rf"dvonn:learn:hint:{AT}"):
    """The engine's choice, in the game lesson (hints are counted)."""

    kind, text = "hint", _("Hint")

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        shown = await _shown_at(interaction, self.step)
        await interaction.response.defer()
        hint = await bot.engine.choose(
            shown.position,
            HINT_LEVEL,
            bot.thinking_time(BUDGETS[HINT_LEVEL]) / 2,  # as /dvonn hint
            game=("lesson", shown.attempt.id),
        )
        counted = await bot.service.lessons.hint_asked(
            interaction.user.id, self.step.attempt_id, self.step.step
        )
        await _edit(interaction, Answer(counted, hint=hint))


class ChoiceButton(BotButton, template=rf"dvonn:learn:answer:{AT}:(?P<choice>\w+)"):
    """One of a question's answers."""

    def __init__(
        self, step: At, choice: str, reader: Reader | None = None, text: Text | None = None
    ) -> None:
        self.step, self.choice = step, choice
        super().__init__(
            discord.ui.Button(
                label=label(reader, text or Text(choice)),
                style=discord.ButtonStyle.secondary,
                custom_id=f"dvonn:learn:answer:{step}:{choice}",
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> ChoiceButton:
        return cls(At.read(match), match["choice"])

    async def run(self, interaction: Interaction) -> None:
        tried = await interaction.client.service.lessons.answer(
            interaction.user.id,
            self.choice,
            attempt_id=self.step.attempt_id,
            step=self.step.step,
        )
        await answer_in_place(interaction, Answer(tried.shown, tried))


class LessonMenu(BotMenu, template=r"dvonn:learn:lessons"):
    """Every lesson, those done marked: the one chosen is begun (or replayed) for whoever
    chooses."""

    def __init__(
        self, reader: Reader | None = None, done: frozenset[str] = frozenset(), here: str = ""
    ) -> None:
        options = []
        if reader is not None:
            for number, each in enumerate(book.LESSONS, 1):
                mark = "✅ " if each.key in done else ""
                name = reader(texts.lesson_title(each.key))
                text = f"{mark}{number}. {name}"[:100]
                options.append(
                    discord.SelectOption(label=text, value=each.key, default=each.key == here)
                )
        super().__init__(
            discord.ui.Select(
                custom_id="dvonn:learn:lessons",
                placeholder=label(reader, _("Take or replay a lesson")),
                options=options[: move_picker.MAX_OPTIONS],
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Select[Any], match: re.Match[str], /
    ) -> LessonMenu:
        return cls()

    async def run(self, interaction: Interaction) -> None:
        shown = await interaction.client.service.lessons.start(
            interaction.user.id, self.chosen or ""
        )
        await answer_in_place(interaction, Answer(shown))


class LearnButton(BotButton, template=events.LEARN_BUTTON):
    """ "Learn by playing" (under the rules and the help) and "Start the lessons" (the offer):
    ``/learn``'s answer, privately, for whoever taps."""

    def __init__(self, reader: Reader | None = None, text: Text | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label(reader, text or _("Learn by playing")),
                style=discord.ButtonStyle.primary,
                emoji="🎓",
                custom_id=events.LEARN_BUTTON,
            )
        )

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> LearnButton:
        return cls()

    async def run(self, interaction: Interaction) -> None:
        await where_you_are(interaction)


BUTTONS: Final = (
    CellMenu,
    StackMenu,
    LandingMenu,
    AgainButton,
    NextButton,
    PassButton,
    HintButton,
    ChoiceButton,
    LessonMenu,
    LearnButton,
)
"""Every persistent item of the feature, for ``bot.add_dynamic_items``."""


# --- answers ----------------------------------------------------------------------------------


async def where_you_are(interaction: Interaction) -> None:
    """``/learn`` alone (and Learn by playing): the lesson the player is in, else the first
    not done (begun), else the list of lessons, every one done, to replay any."""
    lessons = interaction.client.service.lessons
    progress = await lessons.progress(interaction.user.id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if progress.running is not None:
        await _edit(interaction, Answer(await _caught_up(interaction, progress.running)))
        return
    following = progress.next_lesson
    if following is not None:
        await _edit(interaction, Answer(await lessons.start(interaction.user.id, following.key)))
        return
    reader = interaction.client.publisher.private_reader(interaction)
    listed = [reader(_("You have done every lesson:"))]
    listed += [
        f"✅ {number}. {reader(texts.lesson_title(each.key))}"
        for number, each in enumerate(book.LESSONS, 1)
    ]
    listed.append(reader(_("Replay any from the menu below.")))
    await finish(interaction, "\n".join(listed), view=progress_view(progress, reader))


async def try_in_place(interaction: Interaction, move: rules.Move | str, step: At | None) -> None:
    """A try tapped in a lesson's own message: judged, and the message becomes the answer."""
    tried = await _try(interaction, move, step)
    await interaction.response.defer()
    await _edit(interaction, await _played_on(interaction.client, interaction, tried))


async def try_anew(interaction: Interaction, move: str) -> None:
    """A try typed (``/learn move``): judged, and answered in a new private message."""
    tried = await _try(interaction, move, None)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _edit(interaction, await _played_on(interaction.client, interaction, tried))


async def _try(interaction: Interaction, move: rules.Move | str, step: At | None) -> LessonTried:
    lessons = interaction.client.service.lessons
    if step is None:
        return await lessons.try_move(interaction.user.id, move)
    return await lessons.try_move(
        interaction.user.id, move, attempt_id=step.attempt_id, step=step.step
    )


async def _played_on(bot: DvonnBot, interaction: Interaction, tried: LessonTried) -> Answer:
    """In the game lesson, the computer's reply to a legal move (saved before it is shown)."""
    shown = tried.shown
    if not shown.computer_to_move:
        return Answer(shown, tried)
    replied, reply = await computer_reply(bot, interaction.user.id, shown)
    return Answer(replied, tried, reply)


async def computer_reply(
    bot: DvonnBot, user_id: int, shown: LessonShown
) -> tuple[LessonShown, rules.Move | None]:
    """The computer's move in the game lesson, at the task's level, saved; if another tap
    saved one first, the lesson as it stands."""
    task = shown.task
    assert isinstance(task, book.GameTask)
    attempt = shown.attempt
    move = await bot.engine.choose(
        shown.position,
        task.level,
        bot.thinking_time(BUDGETS[ai.Level.parse(task.level)]),
        seed=attempt.id * 1000 + len(attempt.played),
        game=("lesson", attempt.id),
    )
    try:
        saved = await bot.service.lessons.reply(user_id, attempt.id, attempt.step, move)
    except LessonMovedOn:
        return await bot.service.lessons.current(user_id), None
    return saved, move


async def _caught_up(interaction: Interaction, shown: LessonShown) -> LessonShown:
    """A lesson shown again: the computer's reply it owes first (after a restart)."""
    if shown.computer_to_move:
        shown, _reply = await computer_reply(interaction.client, interaction.user.id, shown)
    return shown


async def answer_in_place(interaction: Interaction, answer: Answer) -> None:
    """A tap in a lesson's own message: the message becomes the answer (its board replaced)."""
    await interaction.response.defer()
    await _edit(interaction, answer)


async def answer_anew(interaction: Interaction, answer: Answer) -> None:
    """A lesson shown in a new private message (a command, Learn by playing)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await _edit(interaction, answer)


async def _edit(interaction: Interaction, answer: Answer) -> None:
    bot = interaction.client
    reader = await bot.publisher.own_reader(interaction)
    kwargs = await message(bot.publisher.renderer, answer, reader)
    await finish(interaction, **kwargs, view=lesson_view(answer, reader))
