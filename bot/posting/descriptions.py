"""Boards in words: the alt text of the images the bot posts, and the text board.

Discord shows an attachment's description (its alt text, at most :data:`MAX_ALT_TEXT`
characters) to screen readers, and where the image does not load. A board's alt text says what
its header shows (whose turn, the phase and move number, the score, the last move, what it
cut off and the pass it forced: one :class:`~bot.posting.texts.LastTurn`) and then the position
row by row, as ``NOTATION.md`` names the rows: each occupied cell with the colour on top of its
stack, its height when above one, and whether it holds a DVONN piece ("C3 white 2 (DVONN)").
The text board (``/dvonn board text``) is the same, with every cell of each row in order, empty
ones too, so that a screen reader reads the board cell by cell and a sighted player can copy it.

Pure: catalogue texts (:class:`~bot.i18n.Text`) built from :mod:`rules`' positions, and
:func:`fit`, which renders them with the reader's ``render`` and keeps within a limit. Should a
board in some language be too long for its limit, the words give up detail in this order:
the row by row order (the stacks are then listed by the colour on top, still every one), then
the position itself (what the header says stays), and last the end of the text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

import rules
from bot.games.core.models import Game
from bot.games.core.results import GameOver
from bot.i18n import COLOUR_NAMES, Text, _, n_
from bot.posting.texts import GamePost, LastTurn, Players, ending_line, game_title
from rules import CELL_NAMES, CELLS, HEXES, Cell, Colour, Jump, Pass, Place, Position, Stack

MAX_ALT_TEXT: Final = 1024
"""The most an attachment's description (its alt text) may hold."""
ELLIPSIS: Final = "…"

Render = Callable[[Text], str]
"""Renders a text in the reader's language (a :class:`~bot.posting.publisher.Reader`'s
``plain`` for alt text, which Discord shows as it is, never as Markdown)."""

ROWS: Final[tuple[tuple[Cell, ...], ...]] = tuple(
    tuple(cell for cell in CELLS if HEXES[cell].row == row) for row in range(rules.board.ROWS)
)
"""The cells of rows 1 to 5, each from its lowest letter (as ``NOTATION.md`` lists them)."""

LEGEND: Final = _("Each cell: the colour on top, then the height when more than one piece.")
EMPTY_BOARD: Final = _("The board is empty.")
FINAL_BOARD: Final = _("Final board.")
TOO_LONG: Final = _("The position is too long to tell here: /dvonn board with text shows it.")


# --- fitting ------------------------------------------------------------------------------------


def fit(versions: Sequence[Sequence[Text]], render: Render, limit: int) -> str:
    """The first of ``versions`` (each a list of lines, the most detailed first) whose lines,
    rendered and joined, fit in ``limit`` characters; if none does, the last one cut short."""
    text = ""
    for lines in versions:
        text = "\n".join(render(line) for line in lines)
        if len(text) <= limit:
            return text
    return cut(text, limit)


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: cut at a space and marked "…" if it is longer."""
    if len(text) <= limit:
        return text
    kept = text[: limit - len(ELLIPSIS)]
    if " " in kept:
        kept = kept.rsplit(" ", 1)[0]
    return kept + ELLIPSIS


# --- the position -------------------------------------------------------------------------------


def stack_words(cell: Cell, stack: Stack) -> Text:
    """One cell as a row lists it: "E3 white", "E3 black 3 (DVONN)", "C3 DVONN", "E3 empty"."""
    name = CELL_NAMES[cell]
    if not stack:
        return _("{cell} empty", cell=name)
    top, height = stack[-1], len(stack)
    if top == rules.Piece.DVONN:
        # A DVONN piece never moves and nothing is placed on a piece, so a DVONN piece is on
        # top only alone: a height would say nothing.
        return _("{cell} DVONN", cell=name)
    dvonn = rules.Piece.DVONN in stack
    if top == rules.Piece.WHITE:
        if height == 1:
            return _("{cell} white", cell=name)
        if dvonn:
            return _("{cell} white {height} (DVONN)", cell=name, height=height)
        return _("{cell} white {height}", cell=name, height=height)
    if height == 1:
        return _("{cell} black", cell=name)
    if dvonn:
        return _("{cell} black {height} (DVONN)", cell=name, height=height)
    return _("{cell} black {height}", cell=name, height=height)


def by_rows(position: Position, *, empty_cells: bool = False) -> tuple[Text, ...]:
    """The position row by row, a line a row: its occupied cells in order (``empty_cells``:
    every cell, the empty ones said so), after a line saying how to read them."""
    stacks = position.stacks
    if not any(stacks):
        return (EMPTY_BOARD,)
    lines = [LEGEND]
    for number, cells in enumerate(ROWS, start=1):
        shown = [stack_words(c, stacks[c]) for c in cells if stacks[c] or empty_cells]
        if shown:
            lines.append(_("Row {row}: {cells}.", row=number, cells=listed(shown)))
        else:
            lines.append(_("Row {row}: empty.", row=number))
    return tuple(lines)


def by_colour(position: Position) -> tuple[Text, ...]:
    """The position in fewer words: the stacks by the colour on top, each a cell with its
    height when above one (every stack still, but no longer in the rows' order)."""
    stacks = position.stacks
    if not any(stacks):
        return (EMPTY_BOARD,)

    def topped_by(piece: rules.Piece) -> Text | None:
        shown = [_short(cell, stacks[cell]) for cell in CELLS if stacks[cell][-1:] == piece]
        return listed(shown) if shown else None

    lines: list[Text] = []
    if (white := topped_by(rules.Piece.WHITE)) is not None:
        lines.append(_("White on top: {cells}.", cells=white))
    if (black := topped_by(rules.Piece.BLACK)) is not None:
        lines.append(_("Black on top: {cells}.", cells=black))
    if (alone := topped_by(rules.Piece.DVONN)) is not None:
        lines.append(_("DVONN pieces alone: {cells}.", cells=alone))
    return tuple(lines)


def _short(cell: Cell, stack: Stack) -> Text | str:
    """A stack in :func:`by_colour`'s list: its cell, and its height when above one."""
    name = CELL_NAMES[cell]
    if len(stack) == 1:
        return name
    if rules.Piece.DVONN in stack:
        return _("{cell} {height} (DVONN)", cell=name, height=len(stack))
    return f"{name} {len(stack)}"  # no words: nothing to translate


def listed(items: Sequence[Text | str]) -> Text:
    """A list of texts, each rendered in the reader's language, joined by commas: a text whose
    template is only the placeholders of its items (nothing in it to translate; at least one
    item)."""
    template = ", ".join(f"{{item{index}}}" for index in range(len(items)))
    return Text(template, {f"item{index}": item for index, item in enumerate(items)})


# --- what the header says -----------------------------------------------------------------------


def side(colour: Colour, players: Players | None) -> Text:
    """A side as the words name it: its player and colour ("alice (White)"), or only the
    colour when there are no names (the player's name left empty)."""
    name = None if players is None else players.name(colour)
    if not name:
        return COLOUR_NAMES[colour]
    return _("{player} ({colour})", player=name, colour=COLOUR_NAMES[colour])


def turn_line(position: Position, players: Players | None) -> Text:
    """Which move it is, the phase, and who is to act and how."""
    number, who = position.ply + 1, side(position.turn, players)
    if position.is_placement:
        if position.ply < rules.position.DVONN_PIECES:
            return _(
                "Board at move {number}, placement: {side} to place a DVONN piece.",
                number=number,
                side=who,
            )
        return _(
            "Board at move {number}, placement: {side} to place a piece.", number=number, side=who
        )
    return _("Board at move {number}, movement: {side} to move.", number=number, side=who)


def score_line(position: Position) -> Text:
    white, black = rules.score(position)
    return _(
        "Score: White {white_score}, Black {black_score}.", white_score=white, black_score=black
    )


def last_action_lines(position: Position, last: LastTurn | None) -> tuple[Text, ...]:
    """The turn that led to ``position`` (if given), as its post tells it: the move, by the
    side that played it; the stacks that cut off; the pass it forced, if it did."""
    if last is None or position.ply == 0:
        return ()
    lines: list[Text] = []
    move, colour = last.move, COLOUR_NAMES[rules.colour_to_act(last.ply)]
    if isinstance(move, Place):
        cell = CELL_NAMES[move.cell]
        if last.ply < rules.position.DVONN_PIECES:
            lines.append(
                _("Last move: {colour} placed a DVONN piece on {cell}.", colour=colour, cell=cell)
            )
        else:
            lines.append(
                _("Last move: {colour} placed a piece on {cell}.", colour=colour, cell=cell)
            )
    elif isinstance(move, Jump):
        lines.append(
            _(
                "Last move: {colour} moved {source} to {target}.",
                colour=colour,
                source=CELL_NAMES[move.source],
                target=CELL_NAMES[move.target],
            )
        )
    elif isinstance(move, Pass):
        lines.append(_("Last move: {colour} passed.", colour=colour))
    if last.removed:
        lines.append(
            n_(
                "Cut off and removed: {count} piece, from {cells}.",
                "Cut off and removed: {count} pieces, from {cells}.",
                sum(map(len, last.removed.values())),
                cells=", ".join(CELL_NAMES[cell] for cell in sorted(last.removed)),
            )
        )
    for ply in range(last.ply + 1, last.ply + 1 + last.passes):
        passer = COLOUR_NAMES[rules.colour_to_act(ply)]
        lines.append(_("Then {colour} had no legal move and passed.", colour=passer))
    return tuple(lines)


def board_summary(
    position: Position,
    players: Players | None,
    *,
    last_turn: LastTurn | None = None,
    last_move: rules.Move | None = None,
    removed: Mapping[Cell, Stack] | None = None,
    ending: Text | None = None,
) -> tuple[Text, ...]:
    """What a game's board says above the position: whose turn, or how the game ended (the
    rules' own ending, else ``ending``: a resignation, say), the last turn, the score.

    The last turn is a game's ``last_turn``, or, on a board that is not a game's (an analysis
    board, a puzzle), the action ``last_move`` that led to ``position`` and what it cut off."""
    if last_turn is None and last_move is not None:
        last_turn = LastTurn(position.ply - 1, last_move, removed or {})
    if ending is None and (over := rules.outcome(position)) is not None:
        if over.winner is None:
            ending = _("Game over: a draw.")
        else:
            ending = _("Game over: {side} wins.", side=side(over.winner, players))
    lines = [turn_line(position, players)] if ending is None else [FINAL_BOARD, ending]
    return (*lines, *last_action_lines(position, last_turn), score_line(position))


def board_alt_text(position: Position, render: Render, *, summary: Sequence[Text]) -> str:
    """A board image's alt text: ``summary``, then the position, within :data:`MAX_ALT_TEXT`."""
    return fit(
        [
            (*summary, *by_rows(position)),
            (*summary, *by_colour(position)),
            (*summary, TOO_LONG),
        ],
        render,
        MAX_ALT_TEXT,
    )


def post_alt_text(
    position: Position, post: GamePost, players: Players | None, render: Render
) -> str:
    """The alt text of a game post's board (:mod:`bot.posting.texts`), as its image shows it."""
    summary = board_summary(
        position,
        players,
        last_turn=post.last_turn,
        ending=None if post.ending is None else post.ending.headline,
    )
    return board_alt_text(position, render, summary=summary)


def text_board(position: Position, render: Render, *, summary: Sequence[Text], limit: int) -> str:
    """The text board: ``summary``, then every cell of each row in order (giving up the empty
    cells, then the rows' order, should the reader's language need more than ``limit``)."""
    return fit(
        [
            (*summary, *by_rows(position, empty_cells=True)),
            (*summary, *by_rows(position)),
            (*summary, *by_colour(position)),
        ],
        render,
        limit,
    )


def game_text_board(
    game: Game, moves: Sequence[rules.Move], players: Players, render: Render, *, limit: int
) -> str:
    """A game's text board: its title, whose turn or how it ended, its last move, the score,
    then every cell row by row (:func:`text_board`)."""
    ending = None if game.is_active else ending_line(GameOver.of(game), players, game)
    summary = board_summary(game.position, players, last_turn=LastTurn.of(moves), ending=ending)
    return text_board(
        game.position, render, summary=(game_title(game, players), *summary), limit=limit
    )


# --- other pictures -----------------------------------------------------------------------------


def cells_picture() -> Text:
    """The alt text of the picture that names every cell (``/dvonn rules`` and ``help``)."""
    spans = [
        _("{first} to {last}", first=CELL_NAMES[cells[0]], last=CELL_NAMES[cells[-1]])
        for cells in ROWS
    ]
    return _(
        "The empty DVONN board, each cell named by its letter and row number. Row 1, at the "
        "top: {row1}; row 2: {row2}; row 3, the longest: {row3}; row 4: {row4}; row 5, at the "
        "bottom: {row5}. Each row is shifted half a cell from the next: E3 touches D2, E2, D3, "
        "F3, E4 and F4.",
        row1=spans[0],
        row2=spans[1],
        row3=spans[2],
        row4=spans[3],
        row5=spans[4],
    )


def replay_alt_text(
    render: Render,
    *,
    game_id: int,
    players: Players,
    moves: Sequence[rules.Move],
    result: Text,
) -> str:
    """The alt text of a game's animated replay: whose game, one frame an action, how it ended
    (``result``, or who is to play), and the record, as much of it as fits."""
    return fit(
        [
            (
                n_(
                    "Animated replay of game #{game}, {white} (White) against {black} (Black): "
                    "one frame, for its only action.",
                    "Animated replay of game #{game}, {white} (White) against {black} (Black): "
                    "one frame for each of its {count} actions.",
                    len(moves),
                    game=game_id,
                    white=players.white,
                    black=players.black,
                ),
                result,
                _("The record: {record}", record=rules.format_record(moves)),
            )
        ],
        render,
        MAX_ALT_TEXT,
    )
