"""What the puzzle feature says: the lines of a puzzle's private answers, the words on its
board, and the daily post. Pure: texts in, texts out (the Discord layer renders them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import rules
from bot.games.core.models import PuzzleRating
from bot.games.core.ratings import is_provisional
from bot.games.puzzles.solving import PuzzleMoved, PuzzleShown
from bot.i18n import COLOUR_NAMES, Text, _, n_
from bot.posting.texts import rating_text
from rules import CELL_NAMES, Cell, Colour, Move, Position, Stack

TYPED: Final = _("Tap below, or type /puzzle move: (the menu lists the legal moves).")


def move_text(move: Move) -> str:
    return str(move)


def line_text(moves: tuple[Move, ...]) -> str:
    """A line as played: ``C1E3 K4H4 B3C4``."""
    return " ".join(move_text(m) for m in moves)


def title(puzzle_id: str, puzzle_rating: int, *, rated: bool) -> Text:
    if rated:
        return _("🧩 Puzzle {puzzle} (rating {rating})", puzzle=puzzle_id, rating=puzzle_rating)
    return _(
        "🧩 Puzzle {puzzle} (rating {rating}) · practice: your rating stays as it is",
        puzzle=puzzle_id,
        rating=puzzle_rating,
    )


def find_line(colour: Colour, moves_left: int) -> Text:
    """What the solver is to do."""
    return n_(
        "You play {colour}. Find the winning move: {count} move of yours to find.",
        "You play {colour}. Find the winning moves: {count} moves of yours to find; the "
        "opponent's replies are played for you.",
        moves_left,
        colour=COLOUR_NAMES[colour],
    )


def shown_lines(shown: PuzzleShown) -> list[Text]:
    """A try as it is shown (begun, or shown again)."""
    attempt, puzzle = shown.attempt, shown.puzzle
    lines = [title(puzzle.id, puzzle.rating, rated=attempt.rated)]
    if shown.resumed and attempt.step > 0:
        lines.append(
            _("Your puzzle so far: {line}", line=" ".join(attempt.played)),
        )
    elif shown.resumed:
        lines.append(_("Your puzzle is still waiting for your move."))
    lines.append(find_line(shown.solver, shown.moves_left))
    lines.append(rating_line(shown.rating))
    lines.append(TYPED)
    return lines


def puzzle_rating_text(rating: PuzzleRating) -> str:
    """A puzzle rating as every puzzle text shows it: rounded, with "?" while provisional
    (:func:`bot.posting.texts.rating_text`, as game ratings)."""
    return rating_text(rating.rating, provisional=is_provisional(rating))


def rating_line(rating: PuzzleRating) -> Text:
    """The player's puzzle rating and record."""
    if rating.tried == 0:
        return _(
            "Your puzzle rating: {rating} (no rated puzzle yet).",
            rating=puzzle_rating_text(rating),
        )
    return n_(
        "Your puzzle rating: {rating} · {count} rated puzzle: {solved} solved · streak "
        "{streak} (best {best})",
        "Your puzzle rating: {rating} · {count} rated puzzles: {solved} solved · streak "
        "{streak} (best {best})",
        rating.tried,
        rating=puzzle_rating_text(rating),
        solved=rating.solved,
        streak=rating.streak,
        best=rating.best_streak,
    )


def change_line(before: PuzzleRating, after: PuzzleRating) -> Text:
    """A rated puzzle's rating change, and the streak."""
    change = round(after.rating) - round(before.rating)
    return _(
        "Puzzle rating {before} → {after} ({change}) · streak {streak} (best {best})",
        before=puzzle_rating_text(before),
        after=puzzle_rating_text(after),
        change=f"{change:+d}".replace("-", "−"),
        streak=after.streak,
        best=after.best_streak,
    )


def moved_lines(moved: PuzzleMoved) -> list[Text]:
    """The answer to a move (or to giving up)."""
    puzzle, attempt = moved.puzzle, moved.attempt
    lines = [title(puzzle.id, puzzle.rating, rated=attempt.rated)]
    colour = COLOUR_NAMES[puzzle.solver().opponent]
    if not moved.over:
        assert moved.move is not None and moved.reply is not None
        lines.append(right_line(moved.move, moved.cut_off))
        lines.append(reply_line(colour, moved.reply, moved.reply_cut_off))
        left = puzzle.solver_moves - attempt.step // 2
        lines.append(
            n_(
                "Your move again: {count} move of yours to find.",
                "Your move again: {count} moves of yours to find.",
                left,
            )
        )
        lines.append(TYPED)
        return lines
    if moved.solved:
        assert moved.move is not None
        lines.append(right_line(moved.move, moved.cut_off))
        lines.append(
            n_(
                "🎉 Solved! With best play on both sides you win by {count} piece.",
                "🎉 Solved! With best play on both sides you win by {count} pieces.",
                puzzle.margin,
            )
        )
    elif moved.move is None:
        lines.append(
            _("You gave up. The winning move was {solution} (the arrow).", solution=solution(moved))
        )
    else:
        lines.append(
            _(
                "❌ Not this time: {move} does not win. The winning move was {solution} "
                "(the arrow).",
                move=move_text(moved.move),
                solution=solution(moved),
            )
        )
    lines.append(_("The whole line: {line}", line=line_text(puzzle.line)))
    if moved.rated:
        lines.append(change_line(moved.rating_before, moved.rating_after))
    else:
        lines.append(_("Practice: your puzzle rating stays as it was."))
    return lines


def cells_text(removed: Mapping[Cell, Stack]) -> str:
    """The cells of the stacks cut off, as a game's post lists them: ``H3, I3, J4``."""
    return ", ".join(CELL_NAMES[cell] for cell in sorted(removed))


def right_line(move: Move, removed: Mapping[Cell, Stack]) -> Text:
    """The solver's right move, and what it cut off (in a game post's words)."""
    if not removed:
        return _("✅ {move} is right.", move=move_text(move))
    return n_(
        "✅ {move} is right: {count} piece cut off and removed ({cells}).",
        "✅ {move} is right: {count} pieces cut off and removed ({cells}).",
        sum(map(len, removed.values())),
        move=move_text(move),
        cells=cells_text(removed),
    )


def reply_line(colour: Text, reply: Move, removed: Mapping[Cell, Stack]) -> Text:
    """The opponent's reply, and what it cut off."""
    if not removed:
        return _("{colour} answers {reply}.", colour=colour, reply=reply_text(reply))
    return n_(
        "{colour} answers {reply}: {count} piece cut off and removed ({cells}).",
        "{colour} answers {reply}: {count} pieces cut off and removed ({cells}).",
        sum(map(len, removed.values())),
        colour=colour,
        reply=reply_text(reply),
        cells=cells_text(removed),
    )


def game_over_line(position: Position, solver: Colour) -> Text | None:
    """How the game ended on a puzzle's board, said to the solver ("you win as White"),
    ``None`` if it goes on. The boards name the sides "You" and "Opponent", which a game's
    "{side} wins" does not conjugate."""
    over = rules.outcome(position)
    if over is None:
        return None
    if over.winner is None:
        return _("Game over: a draw.")
    if over.winner is solver:
        return _("Game over: you win as {colour}.", colour=COLOUR_NAMES[solver])
    return _("Game over: your opponent wins as {colour}.", colour=COLOUR_NAMES[over.winner])


def solution(moved: PuzzleMoved) -> str:
    return move_text(moved.expected)


def reply_text(move: Move) -> Text | str:
    if move == rules.PASS:
        return _("a pass (no move)")
    return move_text(move)


def headline(shown_or_moved: PuzzleShown | PuzzleMoved) -> Text:
    """The board's status line: what is asked, or how it ended."""
    if isinstance(shown_or_moved, PuzzleMoved) and shown_or_moved.over:
        if shown_or_moved.solved:
            return _("Solved!")
        return _("Solution: {move}", move=solution(shown_or_moved))
    return to_play_and_win(shown_or_moved.puzzle.solver())


def to_play_and_win(colour: Colour) -> Text:
    return _("{colour} to play and win", colour=COLOUR_NAMES[colour])


def details(puzzle_id: str) -> Text:
    return _("Puzzle {puzzle}", puzzle=puzzle_id)


# --- the daily post ----------------------------------------------------------------------------


def daily_lines(
    colour: Colour, solver_moves: int, puzzle_rating: int, date_text: str
) -> list[Text]:
    """The day's post in a server: what is asked, and how to try it."""
    return [
        _("🧩 **Daily DVONN puzzle** · {date}", date=date_text),
        n_(
            "{colour} to play and win: {count} move to find (puzzle rating {rating}).",
            "{colour} to play and win: {count} moves to find (puzzle rating {rating}).",
            solver_moves,
            colour=COLOUR_NAMES[colour],
            rating=puzzle_rating,
        ),
        _(
            "Tap Solve it to try it privately (your first try counts for your puzzle rating); "
            "tomorrow this post says how many solved it."
        ),
    ]


def daily_count_line(solvers: int, tried: int, still_open: int) -> Text:
    """The day's count, added to its post: of the players who tried it from there, by their
    first try from there, how many solved it, did not, and are still trying (counted when they
    are done: the post is updated then)."""
    everyone = tried + still_open
    if everyone == 0:
        return _("Nobody tried it from here.")
    if still_open == 0:
        return n_(
            "Tried from here by {count} player: solved {solved}, not solved {failed}.",
            "Tried from here by {count} players: solved {solved}, not solved {failed}.",
            everyone,
            solved=solvers,
            failed=tried - solvers,
        )
    return n_(
        "Tried from here by {count} player: solved {solved}, not solved {failed}, still "
        "trying {still_open} (counted when done).",
        "Tried from here by {count} players: solved {solved}, not solved {failed}, still "
        "trying {still_open} (counted when done).",
        everyone,
        solved=solvers,
        failed=tried - solvers,
        still_open=still_open,
    )
