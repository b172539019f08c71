"""What the lessons say: each lesson's title and introduction, each task's prompt, and the answer
to every try (right, a legal move that misses, a move the rules refuse, a question's choice).
Pure: the book's tasks and verdicts in, :class:`bot.i18n.Text` out (the Discord layer renders
them in the player's language).

Every text names the cells it is about, worked out from the task's position and the try, never
written into the message: a lesson's position can change without a text going wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final

import rules
from bot.games.lessons.book import (
    Ask,
    GameTask,
    Miss,
    MoveTask,
    Question,
    Removal,
    Task,
    Verdict,
    answer_of,
    learner,
)
from bot.i18n import COLOUR_NAMES, Text, _, n_, rules_error_text
from rules import Cell, Colour, IllegalReason, Position

# --- lessons -------------------------------------------------------------------------------------

_TITLES: Final[Mapping[str, Text]] = {
    "placing": _("Placing the pieces"),
    "distance": _("How far a stack moves"),
    "landing": _("Landing on a piece"),
    "surrounded": _("Surrounded stacks"),
    "control": _("Who controls a stack"),
    "cut_off": _("Cutting pieces off"),
    "keep_linked": _("Keeping your pieces linked"),
    "dvonn": _("Moving a DVONN piece"),
    "pass": _("Passing"),
    "count": _("The end and the count"),
    "game": _("A short game"),
}

_INTROS: Final[Mapping[str, Text]] = {
    "placing": _(
        "A game starts on an empty board of 49 cells. First the three red DVONN pieces are "
        "placed (White, Black, White), then the players take turns placing their own pieces, "
        "Black first, until every cell is filled. Then the moves begin."
    ),
    "distance": _(
        "Once the board is full, pieces move. A single piece, or a stack of pieces, moves in a "
        "straight line exactly as many cells as it is high: 1 cell for a single piece, 2 for a "
        "stack of two, and so on. On its way it jumps over whatever is in between, empty cells "
        "too."
    ),
    "landing": _(
        "A move must end on a piece or a stack, never on an empty cell. The moving stack is put "
        "on top of the one it lands on, whoever's it is: yours, your opponent's, or a DVONN "
        "piece."
    ),
    "surrounded": _(
        "A stack whose six neighbouring cells are all occupied is surrounded: it cannot move. A "
        "cell on the edge of the board has fewer than six neighbours, so a stack there is never "
        "surrounded."
    ),
    "control": _(
        "A stack belongs to the player whose piece is on top: only they may move it, and at the "
        "end all its pieces count for them, whatever the colour of the pieces below. Land on a "
        "stack and it is yours."
    ),
    "cut_off": _(
        "This is what DVONN turns on: after every move, each piece or stack that is no longer "
        "linked to a DVONN piece, directly or through a chain of pieces, is removed from the "
        "board at once, whoever's it is. Cut your opponent's pieces off and they are gone."
    ),
    "keep_linked": _(
        "Cutting off works both ways: a move can cut off your own pieces too. Before you move a "
        "stack, look at what it links: if it is the only link between some of your pieces and a "
        "DVONN piece, moving it loses them."
    ),
    "dvonn": _(
        "A lone DVONN piece never moves. But once a stack lands on it, the DVONN piece is part "
        "of that stack and goes wherever the stack goes. Moving it away can cut off every piece "
        "that was linked through it."
    ),
    "pass": _(
        "If you have no legal move, you pass, and your opponent plays on. You may pass only "
        "then: while you have a move, you must make one."
    ),
    "count": _(
        "The game ends when neither player can move. Then each player counts the pieces in the "
        "stacks they control (their colour on top): every piece of the stack, whatever its "
        "colour. The higher count wins."
    ),
    "game": _(
        "Time to put it all together: a short game against the computer, from a position near "
        "the end. Play until neither side can move, then count."
    ),
}


def lesson_title(lesson_key: str) -> Text:
    """The lesson's name (its menus and its messages' first line)."""
    return _TITLES[lesson_key]


def lesson_intro(lesson_key: str) -> Text:
    """What the lesson teaches, said once before its first task."""
    return _INTROS[lesson_key]


# --- facts of a position, for the texts ----------------------------------------------------------


def _names(cells: Iterable[Cell]) -> str:
    """Cells as a text names them: ``D3, F4``."""
    return ", ".join(rules.cell_name(cell) for cell in sorted(set(cells)))


def _where(position: Position, test: Callable[[Cell, str], bool]) -> list[Cell]:
    return [cell for cell, stack in enumerate(position.stacks) if stack and test(cell, stack)]


def _own(position: Position) -> list[Cell]:
    """The cells of the stacks the side to move controls."""
    return _where(position, lambda cell, _stack: position.owner(cell) is position.turn)


def _sources(task: MoveTask) -> list[Cell]:
    """The cells the task's goal moves start from."""
    return sorted({m.source for m in task.goal.moves if isinstance(m, rules.Jump)})


def _source(task: MoveTask) -> Cell:
    (source,) = _sources(task)
    return source


def _surrounded(position: Position) -> list[Cell]:
    """The side to move's stacks that are surrounded."""
    return [cell for cell in _own(position) if position.is_surrounded(cell)]


def _between(jump: rules.Jump) -> list[Cell]:
    """The cells a jump passes over."""
    for ray in rules.RAYS[jump.source]:
        if jump.target in ray:
            return list(ray[: ray.index(jump.target)])
    return []


def _jump(verdict: Verdict) -> rules.Jump:
    if not isinstance(verdict.move, rules.Jump):
        raise ValueError(f"not a move of a stack: {verdict.move}")
    return verdict.move


def _place(verdict: Verdict) -> Cell:
    if not isinstance(verdict.move, rules.Place):
        raise ValueError(f"not a placement: {verdict.move}")
    return verdict.move.cell


def _height(verdict: Verdict) -> int:
    """How high the stack was that the try moved."""
    assert verdict.result is not None
    return len(verdict.result.before.stack(_jump(verdict).source))


def _over(verdict: Verdict) -> Text | str:
    """What a jump passed over: the cells, each said empty or not."""
    assert verdict.result is not None
    before = verdict.result.before
    cells = _between(_jump(verdict))
    empty = [cell for cell in cells if not before.stack(cell)]
    taken = [cell for cell in cells if before.stack(cell)]
    if empty and taken:
        return _(
            "the empty {empty} and the occupied {taken}", empty=_names(empty), taken=_names(taken)
        )
    if empty:
        return n_(
            "the empty cell {cells}", "the empty cells {cells}", len(empty), cells=_names(empty)
        )
    return n_("the piece on {cells}", "the pieces on {cells}", len(taken), cells=_names(taken))


def _colour(task: Task) -> Text:
    return COLOUR_NAMES[learner(task)]


def _opponent(task: Task) -> Text:
    return COLOUR_NAMES[learner(task).opponent]


_SIGNS: Final = {"W": "⚪", "B": "⚫", "D": "🔴"}


def _pieces(stack: str) -> str:
    """A stack's pieces from bottom to top, as coloured discs."""
    return "".join(_SIGNS[piece] for piece in stack)


def _target(task: MoveTask) -> Cell:
    (target,) = {m.target for m in task.goal.moves if isinstance(m, rules.Jump)}
    return target


def _removal(verdict: Verdict) -> Removal:
    assert verdict.result is not None
    return Removal.of(verdict.result)


# --- prompts -------------------------------------------------------------------------------------


def _prompt_placing_dvonn(task: MoveTask) -> Text:
    dvonn = _where(task.position, lambda _cell, stack: stack == "D")
    return _(
        "You play **{colour}**. Two DVONN pieces are on the board already, on {cells}. Place "
        "the third one: tap or type any empty cell.",
        colour=_colour(task),
        cells=_names(dvonn),
    )


def _prompt_placing_colours(task: MoveTask) -> Text:
    black = _where(task.position, lambda _cell, stack: stack == "B")
    return _(
        "You play **{colour}**. The three DVONN pieces are placed, and Black has placed its "
        "first black piece, on {cells}. Now place your first white piece on any empty cell.",
        colour=_colour(task),
        cells=_names(black),
    )


def _prompt_placing_last(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**. The board is almost full: only {cell} is empty. Place the 49th "
        "and last piece there.",
        colour=_colour(task),
        cell=_names(rules.empty_cells(task.position)),
    )


def _prompt_distance_one(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**. Your pieces on {cells} are single pieces, 1 high. Move one of "
        "them exactly 1 cell, onto a piece next to it (tap it, then where it goes, or type "
        "both cells, such as D3E3).",
        colour=_colour(task),
        cells=_names(_own(task.position)),
    )


def _prompt_distance_two(task: MoveTask) -> Text:
    source = _source(task)
    return n_(
        "You play **{colour}**. Move your piece on {source}: it is {count} high.",
        "You play **{colour}**. Your stack on {source} is {count} high (your colour on top, so "
        "it is yours): move it. It goes exactly {count} cells in a straight line.",
        len(task.position.stack(source)),
        colour=_colour(task),
        source=rules.cell_name(source),
    )


def _prompt_landing_three(task: MoveTask) -> Text:
    source = _source(task)
    return n_(
        "You play **{colour}**. Your piece on {source} is {count} high: move it onto a piece.",
        "You play **{colour}**. Your stack on {source} is {count} high, so it moves exactly "
        "{count} cells. Several cells are {count} cells away from it in a straight line, but "
        "a move must land on a piece: move it.",
        len(task.position.stack(source)),
        colour=_colour(task),
        source=rules.cell_name(source),
    )


def _prompt_surrounded_free(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**. Your stack on {cell} is surrounded: all six cells around it "
        "are occupied, so it cannot move. Make a move after which it could move.",
        colour=_colour(task),
        cell=_names(_surrounded(task.position)),
    )


def _prompt_surrounded_edge(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**, on the same board. Every cell next to your stack on {source} "
        "is occupied too, but {source} is on the edge of the board. Move that stack.",
        colour=_colour(task),
        source=rules.cell_name(_source(task)),
    )


def _prompt_control_capture(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**, on the same board. {opponent} controls the stack on {cell}. Take "
        "it: land one of your stacks on it.",
        colour=_colour(task),
        opponent=_opponent(task),
        cell=rules.cell_name(_target(task)),
    )


def _prompt_cut_off(task: MoveTask) -> Text:
    return n_(
        "You play **{colour}**. Some of {opponent}'s pieces are linked to a DVONN piece only "
        "through one of yours. Cut off at least {count} of them with one move.",
        "You play **{colour}**. Some of {opponent}'s pieces are linked to a DVONN piece only "
        "through one of yours. Cut off at least {count} of them with one move.",
        task.goal.count,
        colour=_colour(task),
        opponent=_opponent(task),
    )


def _prompt_keep_linked(task: MoveTask) -> Text:
    position = task.position
    theirs = _where(position, lambda cell, _stack: position.owner(cell) is learner(task).opponent)
    tallest = max(theirs, key=lambda cell: len(position.stack(cell)))
    return _(
        "You play **{colour}**. {opponent}'s stack on {cell} is worth taking, but look first: "
        "which of your pieces link the others to a DVONN piece? Make a move that keeps all your "
        "pieces linked.",
        colour=_colour(task),
        opponent=_opponent(task),
        cell=rules.cell_name(tallest),
    )


def _prompt_dvonn_carry(task: MoveTask) -> Text:
    position = task.position
    carriers = [cell for cell in _own(position) if position.has_dvonn(cell)]
    return n_(
        "You play **{colour}**. Your stack on {source} has a DVONN piece under your piece, so "
        "you may move it, and the DVONN piece goes along. Cut off at least {count} of "
        "{opponent}'s pieces.",
        "You play **{colour}**. Your stack on {source} has a DVONN piece under your piece, so "
        "you may move it, and the DVONN piece goes along. Cut off at least {count} of "
        "{opponent}'s pieces.",
        task.goal.count,
        colour=_colour(task),
        opponent=_opponent(task),
        source=_names(carriers),
    )


def _prompt_pass_must(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**. Look at your stacks on {cells}: can any of them move? If none "
        "can, pass.",
        colour=_colour(task),
        cells=_names(_own(task.position)),
    )


def _prompt_pass_not_allowed(task: MoveTask) -> Text:
    return _(
        "You play **{colour}**, on a board much like the last one: your stacks are on {cells}. "
        "Can you pass this time?",
        colour=_colour(task),
        cells=_names(_own(task.position)),
    )


_PROMPTS: Final[Mapping[str, Callable[[MoveTask], Text]]] = {
    "placing.dvonn": _prompt_placing_dvonn,
    "placing.colours": _prompt_placing_colours,
    "placing.last": _prompt_placing_last,
    "distance.one": _prompt_distance_one,
    "distance.two": _prompt_distance_two,
    "landing.three": _prompt_landing_three,
    "surrounded.free": _prompt_surrounded_free,
    "surrounded.edge": _prompt_surrounded_edge,
    "control.capture": _prompt_control_capture,
    "cut_off.bridge": _prompt_cut_off,
    "keep_linked.bridge": _prompt_keep_linked,
    "dvonn.carry": _prompt_dvonn_carry,
    "pass.must": _prompt_pass_must,
    "pass.not_allowed": _prompt_pass_not_allowed,
}


def _prompt_control_owner(question: Question) -> Text:
    assert question.cell is not None
    stack = question.position.stack(question.cell)
    return n_(
        "You play **{colour}**. Look at the stack on {cell}: {count} piece, from bottom to top "
        "{pieces}. Who controls it?",
        "You play **{colour}**. Look at the stack on {cell}: {count} pieces, from bottom to top "
        "{pieces}. Who controls it?",
        len(stack),
        colour=_colour(question),
        cell=rules.cell_name(question.cell),
        pieces=_pieces(stack),
    )


def _prompt_count_winner(question: Question) -> Text:
    position = question.position
    stacks = [cell for cell in position.occupied_cells() if position.owner(cell) is not None]
    return _(
        "You played **{colour}**. The game is over: neither side can move. The stacks, each from "
        "bottom to top: {stacks}. Who wins?",
        colour=_colour(question),
        stacks=", ".join(f"{rules.cell_name(c)} {_pieces(position.stack(c))}" for c in stacks),
    )


def _prompt_count_margin(question: Question) -> Text:
    return _(
        "You played **{colour}**, on the same board. By how many pieces does the winner win?",
        colour=_colour(question),
    )


_QUESTION_PROMPTS: Final[Mapping[str, Callable[[Question], Text]]] = {
    "control.owner": _prompt_control_owner,
    "count.winner": _prompt_count_winner,
    "count.margin": _prompt_count_margin,
}


def task_prompt(task: Task) -> Text:
    """What the task asks, and which colour the player plays."""
    if isinstance(task, MoveTask):
        return _PROMPTS[task.key](task)
    if isinstance(task, Question):
        return _QUESTION_PROMPTS[task.key](task)
    return _(
        "You play **{colour}** against the computer at the beginner level, a few moves before "
        "the end of a game. Cut off what you can, keep your own pieces linked, and win the "
        "count. Ask for a hint whenever you like.",
        colour=_colour(task),
    )


# --- a right move --------------------------------------------------------------------------------


def _right_placing_dvonn(_task: MoveTask, verdict: Verdict) -> Text:
    return _(
        "✅ The third DVONN piece is on {cell}. Now the players place their own pieces in "
        "turn, Black first.",
        cell=rules.cell_name(_place(verdict)),
    )


def _right_placing_colours(_task: MoveTask, verdict: Verdict) -> Text:
    return _(
        "✅ Your first white piece is on {cell}. Black and White go on taking turns until all "
        "49 cells are filled.",
        cell=rules.cell_name(_place(verdict)),
    )


def _right_placing_last(_task: MoveTask, _verdict: Verdict) -> Text:
    return _(
        "✅ The board is full: 23 white pieces, 23 black ones and the 3 DVONN pieces. Placing "
        "is over, and the moves begin: White moves first."
    )


def _right_distance_one(_task: MoveTask, verdict: Verdict) -> Text:
    assert verdict.result is not None
    move = _jump(verdict)
    return n_(
        "✅ Right: a single piece is 1 high, so it moves exactly 1 cell. It landed on {target}, "
        "which now holds a stack of {count} with your piece on top.",
        "✅ Right: a single piece is 1 high, so it moves exactly 1 cell. It landed on {target}, "
        "which now holds a stack of {count} with your piece on top.",
        len(verdict.result.after.stack(move.target)),
        target=rules.cell_name(move.target),
    )


def _right_distance(_task: MoveTask, verdict: Verdict) -> Text:
    move = _jump(verdict)
    height = _height(verdict)
    if height == 1:
        return _(
            "✅ Right: the piece on {source} is 1 high, so it moved exactly 1 cell, onto {target}.",
            source=rules.cell_name(move.source),
            target=rules.cell_name(move.target),
        )
    return n_(
        "✅ Right: the stack on {source} is {count} high, so it moved exactly {count} cell in a "
        "straight line, jumping over {over}, and landed on {target}.",
        "✅ Right: the stack on {source} is {count} high, so it moved exactly {count} cells in a "
        "straight line, jumping over {over}, and landed on {target}.",
        height,
        source=rules.cell_name(move.source),
        target=rules.cell_name(move.target),
        over=_over(verdict),
    )


def _right_landing(task: MoveTask, verdict: Verdict) -> Text:
    move = _jump(verdict)
    height = _height(verdict)
    if height == 1:
        return _right_distance(task, verdict)
    return n_(
        "✅ Right: of the cells exactly {count} cell from {source} in a straight line, {target} "
        "is the one that holds a piece, so the stack lands there, on top. On its way it jumped "
        "over {over}.",
        "✅ Right: of the cells exactly {count} cells from {source} in a straight line, {target} "
        "is the one that holds a piece, so the stack lands there, on top. On its way it jumped "
        "over {over}.",
        height,
        source=rules.cell_name(move.source),
        target=rules.cell_name(move.target),
        over=_over(verdict),
    )


def _right_surrounded_free(task: MoveTask, verdict: Verdict) -> Text:
    return _(
        "✅ Right: after {move}, {source} is empty, so your stack on {cell} is no longer "
        "surrounded: it can move next turn.",
        move=str(verdict.move),
        source=rules.cell_name(_jump(verdict).source),
        cell=_names(_surrounded(task.position)),
    )


def _right_surrounded_edge(_task: MoveTask, verdict: Verdict) -> Text:
    move = _jump(verdict)
    return n_(
        "✅ Right: {source} is on the edge, with only {count} neighbour, so a stack there is "
        "never surrounded, even when every neighbour is occupied. It moved to {target}.",
        "✅ Right: {source} is on the edge, with only {count} neighbours, so a stack there is "
        "never surrounded, even when every neighbour is occupied. It moved to {target}.",
        len(rules.NEIGHBOURS[move.source]),
        source=rules.cell_name(move.source),
        target=rules.cell_name(move.target),
    )


def _right_control_capture(_task: MoveTask, verdict: Verdict) -> Text:
    assert verdict.result is not None
    target = _jump(verdict).target
    return n_(
        "✅ Right: your piece is on top of the stack on {target} now, so it is yours: all "
        "{count} of its pieces will count for you at the end, whatever their colour.",
        "✅ Right: your piece is on top of the stack on {target} now, so it is yours: all "
        "{count} of its pieces will count for you at the end, whatever their colour.",
        len(verdict.result.after.stack(target)),
        target=rules.cell_name(target),
    )


def _right_cut_off(task: MoveTask, verdict: Verdict) -> Text:
    removal = _removal(verdict)
    return n_(
        "✅ Right: {move} cut off {count} of {opponent}'s pieces ({cells}): it lost its last "
        "link to a DVONN piece and was removed from the board.",
        "✅ Right: {move} cut off {count} of {opponent}'s pieces ({cells}): they lost their "
        "last link to a DVONN piece and were removed from the board.",
        removal.theirs,
        move=str(verdict.move),
        opponent=_opponent(task),
        cells=", ".join(removal.their_cells),
    )


def _right_keep_linked(task: MoveTask, verdict: Verdict) -> Text:
    removal = _removal(verdict)
    if not removal.theirs:
        return _(
            "✅ Right: after {move}, every one of your pieces is still linked to a DVONN piece.",
            move=str(verdict.move),
        )
    return n_(
        "✅ Right: after {move}, every one of your pieces is still linked to a DVONN piece, and "
        "{count} of {opponent}'s pieces were cut off ({cells}).",
        "✅ Right: after {move}, every one of your pieces is still linked to a DVONN piece, and "
        "{count} of {opponent}'s pieces were cut off ({cells}).",
        removal.theirs,
        move=str(verdict.move),
        opponent=_opponent(task),
        cells=", ".join(removal.their_cells),
    )


def _right_dvonn_carry(task: MoveTask, verdict: Verdict) -> Text:
    move, removal = _jump(verdict), _removal(verdict)
    return n_(
        "✅ Right: the DVONN piece went along from {source} to {target}. The piece on {cells} "
        "was linked to a DVONN piece only through it, so it was cut off and removed: {count} "
        "of {opponent}'s pieces.",
        "✅ Right: the DVONN piece went along from {source} to {target}. The pieces on {cells} "
        "were linked to a DVONN piece only through it, so they were cut off and removed: "
        "{count} of {opponent}'s pieces.",
        removal.theirs,
        source=rules.cell_name(move.source),
        target=rules.cell_name(move.target),
        cells=", ".join(removal.their_cells),
        opponent=_opponent(task),
    )


def _right_pass(task: MoveTask, _verdict: Verdict) -> Text:
    return _(
        "✅ Right: none of your stacks could move, so you pass, and {opponent} plays on. When "
        "neither side can move, the game is over.",
        opponent=_opponent(task),
    )


def _right_pass_not_allowed(_task: MoveTask, verdict: Verdict) -> Text:
    move = _jump(verdict)
    return n_(
        "✅ Right: {move} is a legal move: the stack on {source} is {count} high, and {target} "
        "holds a piece exactly {count} cell away. While you have a move, you may not pass.",
        "✅ Right: {move} is a legal move: the stack on {source} is {count} high, and {target} "
        "holds a piece exactly {count} cells away. While you have a move, you may not pass.",
        _height(verdict),
        move=str(move),
        source=rules.cell_name(move.source),
        target=rules.cell_name(move.target),
    )


_RIGHT: Final[Mapping[str, Callable[[MoveTask, Verdict], Text]]] = {
    "placing.dvonn": _right_placing_dvonn,
    "placing.colours": _right_placing_colours,
    "placing.last": _right_placing_last,
    "distance.one": _right_distance_one,
    "distance.two": _right_distance,
    "landing.three": _right_landing,
    "surrounded.free": _right_surrounded_free,
    "surrounded.edge": _right_surrounded_edge,
    "control.capture": _right_control_capture,
    "cut_off.bridge": _right_cut_off,
    "keep_linked.bridge": _right_keep_linked,
    "dvonn.carry": _right_dvonn_carry,
    "pass.must": _right_pass,
    "pass.not_allowed": _right_pass_not_allowed,
}


def right_text(task: MoveTask, verdict: Verdict) -> Text:
    """What a right move did, and why by the rules it is what the task asked."""
    return _RIGHT[task.key](task, verdict)


# --- a legal move that misses --------------------------------------------------------------------


def _miss_other_stack(_task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return _(
        "{move} is a legal move, but it moves the stack on {source}: this task is about the "
        "stack on {sources}.",
        move=str(verdict.move),
        source=miss.params["source"],
        sources=", ".join(miss.params["sources"]),
    )


def _miss_other_target(_task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return _(
        "{move} is a legal move, but not the one this task asks for: from {source}, go to "
        "{targets}.",
        move=str(verdict.move),
        source=miss.params["source"],
        targets=", ".join(miss.params["targets"]),
    )


def _miss_other_cell(_task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return _(
        "{move} is a legal placement, but this task asks for a piece on {cells}.",
        move=str(verdict.move),
        cells=", ".join(miss.params["cells"]),
    )


def _miss_passed(_task: MoveTask, _verdict: Verdict, _miss: Miss) -> Text:
    return _("Passing is not what this task asks: make a move.")


def _miss_cut_nothing(task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return n_(
        "{move} cut nothing off: every piece is still linked to a DVONN piece. Find a move that "
        "leaves at least {count} of {opponent}'s pieces with no link.",
        "{move} cut nothing off: every piece is still linked to a DVONN piece. Find a move that "
        "leaves at least {count} of {opponent}'s pieces with no link.",
        miss.params["count"],
        move=str(verdict.move),
        opponent=COLOUR_NAMES[learner(task).opponent],
    )


def _miss_cut_too_few(_task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return n_(
        "{move} cut off only {count} piece ({cells}). You can do better: cut off at least {goal}.",
        "{move} cut off only {count} pieces ({cells}). You can do better: cut off at least {goal}.",
        miss.params["removed"],
        move=str(verdict.move),
        cells=", ".join(miss.params["cells"]),
        goal=miss.params["count"],
    )


def _miss_cut_own(task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return _(
        "{move} cut off some of your own pieces: {own}. Find a move that cuts off only your "
        "opponent's.",
        move=str(verdict.move),
        own=_own_cut_off(task, miss),
    )


def _miss_cut_own_linked(task: MoveTask, verdict: Verdict, miss: Miss) -> Text:
    return _(
        "{move} cut off some of your own pieces: {own}. Find a move that keeps all your pieces "
        "linked.",
        move=str(verdict.move),
        own=_own_cut_off(task, miss),
    )


def _own_cut_off(task: MoveTask, miss: Miss) -> Text:
    """The learner's pieces a miss cut off (and the opponent's, if any), and why they went."""
    own = n_(
        "{count} piece ({cells}) lost its last link to a DVONN piece and was removed",
        "{count} pieces ({cells}) lost their last link to a DVONN piece and were removed",
        miss.params["count"],
        cells=", ".join(miss.params["cells"]),
    )
    if not miss.params["theirs"]:
        return own
    return n_(
        "{own}, along with {count} of {opponent}'s ({cells})",
        "{own}, along with {count} of {opponent}'s ({cells})",
        miss.params["theirs"],
        own=own,
        opponent=_opponent(task),
        cells=", ".join(miss.params["their_cells"]),
    )


_MISSES: Final[Mapping[str, Callable[[MoveTask, Verdict, Miss], Text]]] = {
    "one_of.other_stack": _miss_other_stack,
    "one_of.other_target": _miss_other_target,
    "one_of.other_cell": _miss_other_cell,
    "one_of.passed": _miss_passed,
    "cut_off.nothing": _miss_cut_nothing,
    "cut_off.too_few": _miss_cut_too_few,
    "cut_off.own": _miss_cut_own,
    "keep_linked.cut_own": _miss_cut_own_linked,
}
"""The text of each kind of miss, whatever the task."""


def _miss_surrounded_free(task: MoveTask, verdict: Verdict, _miss: Miss) -> Text:
    return _(
        "{move} is a legal move, but your stack on {cell} is still surrounded: all six cells "
        "around it are still occupied. Move one of its neighbours away.",
        move=str(verdict.move),
        cell=_names(_surrounded(task.position)),
    )


def _miss_control_capture(task: MoveTask, verdict: Verdict, _miss: Miss) -> Text:
    return _(
        "{move} is a legal move, but {opponent} still controls the stack on {cell}: its top "
        "piece has not changed. Land on it to take it.",
        move=str(verdict.move),
        opponent=_opponent(task),
        cell=rules.cell_name(_target(task)),
    )


_TASK_MISSES: Final[Mapping[str, Callable[[MoveTask, Verdict, Miss], Text]]] = {
    "surrounded.free": _miss_surrounded_free,
    "control.capture": _miss_control_capture,
}
"""Tasks that say more about a miss than :data:`_MISSES` does (every miss of the task)."""


def miss_text(task: MoveTask, verdict: Verdict) -> Text:
    """What a legal move that misses did, and why it is not what the task asked."""
    if verdict.miss is None:
        raise ValueError(f"{verdict.move} is not a miss")
    explain = _TASK_MISSES.get(task.key) or _MISSES[verdict.miss.key]
    return explain(task, verdict, verdict.miss)


# --- a try the rules refuse ----------------------------------------------------------------------


def error_text(task: MoveTask, verdict: Verdict) -> Text:
    """Why the rules refuse a try (a text that is no move, or an illegal move), with a word of
    the lesson where it helps."""
    if verdict.error is None:
        raise ValueError(f"{verdict.move} is not refused")
    error = rules_error_text(verdict.error)
    reason = verdict.error.reason
    lesson_key = task.key.split(".")[0]
    if reason is IllegalReason.WRONG_DISTANCE and lesson_key in {"distance", "landing"}:
        return _("{error} Count along the line from the stack, empty cells included.", error=error)
    if reason is IllegalReason.TARGET_EMPTY and lesson_key in {"distance", "landing"}:
        return _(
            "{error} Look along the six straight lines from your stack for a piece at the right "
            "distance.",
            error=error,
        )
    if reason is IllegalReason.NOT_YOUR_STACK and lesson_key == "control":
        return _("{error} To take a stack, land one of yours on it.", error=error)
    if reason is IllegalReason.LONE_DVONN and lesson_key == "dvonn":
        return _(
            "{error} A stack with a DVONN piece inside and your piece on top can move, though.",
            error=error,
        )
    if task.key == "pass.must" and isinstance(verdict.error, rules.IllegalMoveError):
        return _("{error} None of your stacks has a legal move here: pass.", error=error)
    if reason is IllegalReason.PASS_NOT_ALLOWED:
        return _("{error} Look again along the six lines from each of your stacks.", error=error)
    return error


# --- questions -----------------------------------------------------------------------------------


def choice_text(question: Question, choice: str) -> Text:
    """A choice of ``question`` as its button shows it."""
    if question.ask is Ask.MARGIN:
        return n_("By {count} piece", "By {count} pieces", int(choice))
    if choice == "draw":
        return _("A draw")
    if choice == "nobody":
        return _("Nobody")
    return COLOUR_NAMES[Colour[choice.upper()]]


def _count(question: Question) -> dict[str, object]:
    white, black = rules.score(question.position)
    return {"white": white, "black": black}


def question_right(question: Question) -> Text:
    """The answer to a right choice: why it is right, with the count."""
    answer = answer_of(question)
    if question.ask is Ask.OWNER:
        assert question.cell is not None
        return _(
            "✅ Right: the stack on {cell} is {colour}'s, because a {colour} piece is on top. "
            "The pieces under it do not matter.",
            cell=rules.cell_name(question.cell),
            colour=COLOUR_NAMES[Colour[answer.upper()]],
        )
    white, black = rules.score(question.position)
    if white == black:
        return _("✅ Right: a draw, White {white}, Black {black}.", **_count(question))
    winner = COLOUR_NAMES[Colour.WHITE if white > black else Colour.BLACK]
    if question.ask is Ask.MARGIN:
        return n_(
            "✅ Right: {winner} wins by {count} piece: White {white}, Black {black}.",
            "✅ Right: {winner} wins by {count} pieces: White {white}, Black {black}.",
            abs(white - black),
            winner=winner,
            **_count(question),
        )
    return _(
        "✅ Right: {winner} wins. Each side counts every piece in the stacks it controls: White "
        "{white}, Black {black}.",
        winner=winner,
        **_count(question),
    )


def question_wrong(question: Question, choice: str) -> Text:
    """The answer to a wrong choice: the count (or the rule) that shows why."""
    if question.ask is Ask.OWNER:
        assert question.cell is not None
        answer = answer_of(question)
        return _(
            "❌ Not so: only the top piece counts. The top piece of the stack on {cell} is "
            "{colour}, so the stack is {colour}'s, whatever lies under it.",
            cell=rules.cell_name(question.cell),
            colour=COLOUR_NAMES[Colour[answer.upper()]],
        )
    if question.ask is Ask.MARGIN:
        white, black = rules.score(question.position)
        return n_(
            "❌ Not quite: White has {white} and Black {black}, a difference of {count} piece.",
            "❌ Not quite: White has {white} and Black {black}, a difference of {count} pieces.",
            abs(white - black),
            **_count(question),
        )
    return _(
        "❌ Not quite: count the pieces, not the stacks. Every piece of a stack counts for the "
        "side whose piece is on top: White {white}, Black {black}.",
        **_count(question),
    )


# --- the game ------------------------------------------------------------------------------------


def game_over_text(task: GameTask, position: Position) -> Text:
    """The count at the end of the game lesson, said to the player."""
    over = rules.outcome(position)
    if over is None:
        raise ValueError("the game is not over")
    counts = {"white": over.white, "black": over.black}
    if over.winner is None:
        return _("Game over: a draw, White {white}, Black {black}.", **counts)
    margin = abs(over.white - over.black)
    if over.winner is learner(task):
        return n_(
            "🎉 Game over: you win by {count} piece, White {white}, Black {black}!",
            "🎉 Game over: you win by {count} pieces, White {white}, Black {black}!",
            margin,
            **counts,
        )
    return n_(
        "Game over: the computer wins by {count} piece, White {white}, Black {black}. Play it "
        "again: a few cut-offs change everything.",
        "Game over: the computer wins by {count} pieces, White {white}, Black {black}. Play it "
        "again: a few cut-offs change everything.",
        margin,
        **counts,
    )
