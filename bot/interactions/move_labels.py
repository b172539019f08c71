"""How a menu or an autocomplete names a move to choose: a stack to move, where it lands and
what that cuts off, a whole move. Shared by every feature that offers moves (the game's
picker, its "Plan a reply" steps and ``/dvonn move``'s autocomplete; the puzzles' picker and
``/puzzle move``; the lessons' picker and ``/learn move``)."""

from __future__ import annotations

import rules
from bot.i18n import Text, _, n_


def typed_move(text: str) -> str:
    """What a player typed so far of a move, as moves are spelled (``e3-f`` → ``E3F``): what an
    autocomplete of moves matches against."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def pieces_cut(position: rules.Position, source: int, target: int) -> int:
    """How many pieces the jump from ``source`` to ``target`` cuts off the board."""
    return rules.apply(position, rules.jump(source, target)).pieces_removed


def stack_label(position: rules.Position, cell: int) -> Text:
    """A stack to move."""
    return n_(
        "{cell}: a single piece",
        "{cell}: a stack of {count}",
        len(position.stacks[cell]),
        cell=rules.cell_name(cell),
    )


def cut_label(named: str, cut: int) -> Text:
    """A choice (a landing cell, or a whole move) and the pieces it cuts off: "F4: cuts off 3
    pieces"."""
    return n_("{cell}: cuts off {count} piece", "{cell}: cuts off {count} pieces", cut, cell=named)


def landing_label(position: rules.Position, source: int, target: int) -> Text:
    """Where the stack on ``source`` may land, and what that cuts off."""
    cut = pieces_cut(position, source, target)
    if not cut:
        return _("{cell}: cuts nothing off", cell=rules.cell_name(target))
    return cut_label(rules.cell_name(target), cut)


def move_label(position: rules.Position, move: rules.Move) -> Text | str:
    """A whole move as an autocomplete lists it: its spelling, and what a jump cuts off."""
    if isinstance(move, rules.Jump):
        cut = pieces_cut(position, move.source, move.target)
        if cut:
            return cut_label(str(move), cut)
    return str(move)


def move_question(position: rules.Position, move: rules.Move) -> Text:
    """The confirm step's question: what the move does."""
    if isinstance(move, rules.Place):
        return _("Place your piece on {cell}?", cell=rules.cell_name(move.cell))
    if isinstance(move, rules.Jump):
        cut = pieces_cut(position, move.source, move.target)
        if cut:
            return n_(
                "Move {source} to {target}? It cuts off {count} piece.",
                "Move {source} to {target}? It cuts off {count} pieces.",
                cut,
                source=rules.cell_name(move.source),
                target=rules.cell_name(move.target),
            )
        return _(
            "Move {source} to {target}?",
            source=rules.cell_name(move.source),
            target=rules.cell_name(move.target),
        )
    return _("You cannot move: pass?")
