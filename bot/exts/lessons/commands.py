"""``/learn [lesson] [move]``: where you are in the lessons, a lesson begun or replayed, or a
try typed in the one you are taking; always privately. And the lessons' offer, made once to a
player new to DVONN at their first challenge or game."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

import rules
from bot.exts.lessons import texts
from bot.exts.lessons.board import Answer
from bot.exts.lessons.picker import LearnButton, answer_anew, try_anew, where_you_are
from bot.games.lessons import book
from bot.games.lessons.errors import NoLessonRunning
from bot.i18n import _
from bot.interactions import events
from bot.interactions.errors import UserError
from bot.interactions.feature import Feature
from bot.interactions.move_labels import move_label, typed_move
from bot.interactions.places import answers_only

if TYPE_CHECKING:
    from bot.app import Interaction

log = logging.getLogger(__name__)

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete


class LessonCommands(Feature, name="Lessons"):
    @app_commands.command(
        name="learn",
        description=locale_str("Learn DVONN by playing: short lessons, only for you to see"),
    )
    @app_commands.describe(
        lesson=locale_str("A lesson to take or replay"),
        move=locale_str("Your try in the lesson you are taking, e.g. E3F4"),
    )
    async def learn(
        self,
        interaction: Interaction,
        lesson: app_commands.Range[str, 1, 40] | None = None,
        move: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        async with self.inflight.track():
            if move is not None and lesson is not None:
                raise UserError(_("Choose a lesson, or try a move: one at a time."))
            lessons = self.service.lessons
            if move is not None:
                await try_anew(interaction, move)
            elif lesson is not None:
                await answer_anew(
                    interaction, Answer(await lessons.start(interaction.user.id, lesson))
                )
            else:
                await where_you_are(interaction)

    @learn.autocomplete("lesson")
    async def lesson_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        reader = self.publisher.private_reader(interaction)
        done = await self.service.lessons.progress(interaction.user.id)
        typed = current.casefold()
        found = []
        for number, each in enumerate(book.LESSONS, 1):
            mark = "✅ " if each.key in done.done else ""
            name = f"{mark}{number}. {reader(texts.lesson_title(each.key))}"[:100]
            if typed in name.casefold() or typed in each.key:
                found.append(Choice(name=name, value=each.key))
        return found[:MAX_CHOICES]

    @learn.autocomplete("move")
    async def move_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        try:
            shown = await self.service.lessons.current(interaction.user.id)
        except NoLessonRunning:
            return []
        if isinstance(shown.task, book.Question) or shown.computer_to_move:
            return []
        position = shown.position
        reader = self.publisher.private_reader(interaction)
        typed = typed_move(current)
        return [
            Choice(name=reader(move_label(position, m)), value=str(m))
            for m in rules.legal_moves(position)
            if str(m).startswith(typed)
        ][:MAX_CHOICES]

    @commands.Cog.listener(events.FIRST_STEPS_LISTENER)
    async def on_first_steps(self, interaction: Interaction, game_id: int | None) -> None:
        """A player acted in the lobby: offer them the lessons, privately, if they are new to
        DVONN and were never offered them (once, whatever the processes); not where the bot
        may only answer and a game just began there (its posts need the followups)."""
        if game_id is not None and answers_only(interaction):
            # There the game's posts follow up this interaction, and Discord allows it five
            # followups: they are the game's (the offer waits for another first step).
            return
        async with self.inflight.track():
            try:
                if not await self.service.lessons.offer(interaction.user.id, game_id):
                    return
                reader = self.publisher.private_reader(interaction)
                view = discord.ui.View(timeout=None)
                view.add_item(LearnButton(reader, _("Start the lessons")))
                await interaction.followup.send(
                    reader(
                        _(
                            "New to DVONN? Short lessons teach it by playing, only for you: "
                            "placing, moving, cutting pieces off, the count, and a first game "
                            "against the beginner. Take them now or any time with /learn."
                        )
                    ),
                    view=view,
                    ephemeral=True,
                )
            except Exception:
                log.exception("could not offer the lessons to %s", interaction.user.id)
