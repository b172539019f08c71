"""A puzzle's private answer as a message: its lines, and the board (drawn off the event loop,
in the reader's theme, with alt text).

The board shows where the solver is to move (after the line's reply, which is drawn as the last
move); once solved, the winning move; once failed, the position before the wrong move with the
winning move drawn as an arrow (the solution)."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import discord

import render
import rules
from bot.exts.puzzles.texts import details, game_over_line, headline, moved_lines, shown_lines
from bot.games.puzzles.solving import PuzzleMoved, PuzzleShown
from bot.i18n import Text, _
from bot.interactions.replies import MAX_CONTENT
from bot.posting.descriptions import board_alt_text, board_summary
from bot.posting.publisher import BOARD_FILENAME, Reader
from bot.posting.renderer import Renderer
from bot.posting.texts import Players, image_labels
from rules import Cell, Position, Stack

Subject = PuzzleShown | PuzzleMoved
"""What a puzzle's answer shows: a try as it stands, or a move and what followed."""


def players(subject: Subject, reader: Reader) -> Players:
    """The cards' names: "You" for the solver's side, "Opponent" for the other."""
    you, other = reader(_("You")), reader(_("Opponent"))
    if subject.puzzle.solver() is rules.Colour.WHITE:
        return Players(white=you, black=other)
    return Players(white=other, black=you)


def drawn(subject: Subject) -> tuple[Position, rules.Move | None, Mapping[Cell, Stack]]:
    """The position to draw, the move drawn on it, and what that move cut off."""
    puzzle = subject.puzzle
    if isinstance(subject, PuzzleMoved) and subject.over and not subject.solved:
        return subject.before, subject.expected, {}
    step = subject.attempt.step
    if isinstance(subject, PuzzleMoved) and subject.over:
        step += 1  # solved: after the winning move
    if step == 0:
        return puzzle.position, None, {}
    before = puzzle.position_at(step - 1)
    played = rules.apply(before, puzzle.line[step - 1])
    return played.after, played.move, played.removed


def lines(subject: Subject) -> list[Text]:
    return moved_lines(subject) if isinstance(subject, PuzzleMoved) else shown_lines(subject)


async def message(renderer: Renderer, subject: Subject, reader: Reader) -> dict[str, Any]:
    """Keyword arguments for ``send``/``followup.send`` (``content`` and ``file``) that show
    ``subject`` to its player; what can be tapped under it is the picker's to add."""
    position, move, removed = drawn(subject)
    named = players(subject, reader)
    status = headline(subject)
    png = await renderer.board_png(
        position,
        last_move=move,
        removed=removed,
        players=named.as_tuple(),
        labels=image_labels(reader.catalogues, reader.locale),
        status=render.Status(
            headline=reader(status),
            details=reader(details(subject.puzzle.id)),
            highlighted=subject.puzzle.solver(),
        ),
        theme=reader.theme,
    )
    failed = isinstance(subject, PuzzleMoved) and subject.over and not subject.solved
    summary: tuple[Text, ...] = (
        status,
        *board_summary(
            position,
            named,
            last_move=None if failed else move,
            removed=removed,
            ending=game_over_line(position, subject.puzzle.solver()),
        ),
    )
    if failed and move is not None:
        summary = (*summary, _("The arrow: the winning move, {move}.", move=str(move)))
    content = "\n".join(reader(line) for line in lines(subject))
    return {
        "content": content[:MAX_CONTENT],
        "file": discord.File(
            io.BytesIO(png),
            filename=BOARD_FILENAME,
            description=board_alt_text(position, reader.plain, summary=summary),
        ),
    }
