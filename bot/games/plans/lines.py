"""Conditional moves: the lines a player plans while waiting for their opponent. Pure.

A *line* is what one player (its *owner*) plans: the move they expect from their opponent, their
reply, the next move they expect, their next reply... ("if they play E3, I play F4; if they then
play D2, I play D3"). It is kept with the ply at which its first move is to be played. Passes
the rules force are never written in a line: they are recorded by themselves, as in a game.

* :func:`read` turns what a player typed into moves (``E3 F4 D2 D3``; while moving ``E3F4``, or
  ``E3-F4``, or two cells in a row: ``E3 F4``).
* :func:`check` says whether a new line may be kept beside its owner's others: every move legal
  in the position it would be played in, the line ending on its owner's reply, no other line of
  theirs answering the same moves with another reply, not too long, not too many. A line whose
  first move is its owner's own (written on their own turn) is played at once, and the rest kept.
* :func:`play` plays a move and whatever was planned to follow it: every line whose next move
  it was goes on, every other one is dropped; when a line's owner is then to move, their reply
  is played at once (checked legal again) and the lines go on from it in turn, so that both
  players' lines may answer each other (a chain, at most :data:`MOST_PLANNED` moves long).

The refusals carry their data (:class:`~bot.games.plans.errors.PlanError` and its kinds), as the
service's errors do.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import rules
from bot.games.core.turns import Turn, turn
from bot.games.plans.errors import (
    EmptyLine,
    PlanConflict,
    PlanEndsOnTheirMove,
    PlanIllegalMove,
    PlanNotAMove,
    PlanPastTheEnd,
    PlanTooLong,
    TooManyLines,
)
from rules import Colour, Move, Place, Position

MOST_LINE_MOVES: Final = 50
"""The most moves a line may hold (enough for both sides' placements, 46 after the DVONN
pieces)."""
MOST_LINES: Final = 10
"""The most lines a player may keep in a game at once."""
MOST_PLANNED: Final = 2 * MOST_LINE_MOVES
"""The most planned moves played after one move. Each planned move uses up a move of a line of
its owner's, and the two players' lines take turns, so no chain of lines within the limits is
longer; this bound only keeps a fault from running on."""

_SEPARATORS: Final = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True)
class Line:
    """A line of planned moves, as it stands now: its next move is to be played at ``ply``."""

    owner: Colour
    ply: int
    moves: tuple[Move, ...]
    key: int | None = None
    """The stored line's id (``None`` for a line not stored yet)."""

    @property
    def text(self) -> str:
        """The moves in the record's notation: ``E3 F4 D2 D3``."""
        return rules.format_record(self.moves)


@dataclass(frozen=True, slots=True)
class Played:
    """What :func:`play` played: the move, the planned moves after it, and the lines left."""

    turns: tuple[Turn, ...]
    """The move itself first, then each planned move (with the passes after each)."""
    kept: tuple[Line, ...]
    """The lines that go on, each at its next move."""
    gone: tuple[Line, ...]
    """The lines used up (their last reply played) or dropped (they no longer match)."""

    @property
    def position(self) -> Position:
        return self.turns[-1].after

    @property
    def planned(self) -> tuple[Turn, ...]:
        return self.turns[1:]


@dataclass(frozen=True, slots=True)
class Checked:
    """A new line :func:`check` found fit to keep."""

    line: Line
    replaces: tuple[Line, ...] = ()
    """The owner's lines it continues (each a beginning of it): it takes their place."""
    planned_already: Line | None = None
    """An owner's line that holds all of it already (nothing new to keep)."""

    @property
    def own_first(self) -> bool:
        """Whether its first move is its owner's own, to play now."""
        return rules.colour_to_act(self.line.ply) is self.line.owner


# --- reading and checking ----------------------------------------------------------------------


def read(text: str, position: Position, *, game_id: int = 0) -> tuple[Move, ...]:
    """The moves of a line as typed, to be played from ``position``: moves in notation
    separated by spaces or commas. Where a move is a jump (after the placements), two cells in
    a row are read as one jump (``E3 F4``: E3F4). Raises :class:`PlanNotAMove`; legality is
    :func:`check`'s."""
    tokens = [token for token in _SEPARATORS.split(text.strip()) if token]
    moves: list[Move] = []
    at: Position | None = position
    index = 0
    while index < len(tokens):
        move = _parse(tokens[index], len(moves) + 1, game_id)
        index += 1
        jumping = at is not None and not at.is_placement
        if isinstance(move, Place) and jumping and index < len(tokens):
            target = _parse(tokens[index], len(moves) + 1, game_id)
            if isinstance(target, Place):
                move = rules.jump(move.cell, target.cell)
                index += 1
        moves.append(move)
        at = _after(at, move)
    return tuple(moves)


def _parse(token: str, number: int, game_id: int) -> Move:
    try:
        return rules.parse_move(token)
    except rules.InvalidMoveError as error:
        raise PlanNotAMove(game_id, number, error) from error


def _after(position: Position | None, move: Move) -> Position | None:
    """The position after ``move`` and its forced passes; ``None`` if it cannot be played."""
    if position is None or rules.is_over(position):
        return None
    try:
        return turn(position, move).after
    except rules.RulesError:
        return None


def check(
    position: Position,
    owner: Colour,
    moves: Sequence[Move],
    lines: Sequence[Line] = (),
    *,
    game_id: int = 0,
) -> Checked:
    """Whether ``owner`` may plan ``moves`` from ``position`` (where its first move is to be
    played), beside their ``lines`` (those of other owners, or of other plies, are ignored).

    Raises :class:`EmptyLine`, :class:`PlanTooLong`, :class:`PlanPastTheEnd`,
    :class:`PlanIllegalMove`, :class:`PlanEndsOnTheirMove`, :class:`PlanConflict`,
    :class:`TooManyLines`."""
    if not moves:
        raise EmptyLine(game_id)
    if len(moves) > MOST_LINE_MOVES:
        raise PlanTooLong(game_id, len(moves), MOST_LINE_MOVES)
    movers = _movers(position, moves, game_id)
    if movers[-1] is not owner:
        raise PlanEndsOnTheirMove(game_id, str(moves[-1]))
    new = Line(owner, position.ply, tuple(moves))
    own = [line for line in lines if line.owner is owner and line.ply == position.ply]
    replaces: list[Line] = []
    for line in own:
        shared = _shared(new, line, movers, game_id)
        if shared == len(new.moves):
            return Checked(new, planned_already=line)  # it holds all of the new one
        if shared == len(line.moves):
            replaces.append(line)  # the new one goes on from it
    if len(own) - len(replaces) >= MOST_LINES:
        raise TooManyLines(game_id, MOST_LINES)
    return Checked(new, tuple(replaces))


def _movers(position: Position, moves: Sequence[Move], game_id: int) -> list[Colour]:
    """Who plays each of ``moves``, played in turn from ``position`` (each checked legal)."""
    movers: list[Colour] = []
    at = position
    for number, move in enumerate(moves, start=1):
        if rules.is_over(at):
            raise PlanPastTheEnd(game_id, number, str(move))
        movers.append(at.turn)
        try:
            at = turn(at, move).after
        except rules.RulesError as error:
            raise PlanIllegalMove(game_id, number, str(move), error) from error
    return movers


def _shared(new: Line, old: Line, movers: Sequence[Colour], game_id: int) -> int:
    """How many first moves ``new`` and ``old`` (lines of one owner, from one ply) have in
    common; :class:`PlanConflict` where they part on a reply of the owner's, not on a move
    expected of the opponent."""
    for index, (mine, theirs) in enumerate(zip(new.moves, old.moves, strict=False)):
        if mine != theirs:
            if movers[index] is new.owner:
                raise PlanConflict(game_id, index + 1, str(mine), str(theirs), old.text)
            return index
    return min(len(new.moves), len(old.moves))


# --- playing -----------------------------------------------------------------------------------


def advance(lines: Sequence[Line], done: Turn) -> tuple[list[Line], list[Line]]:
    """The lines after ``done`` was played: those whose next move it was go on to their next
    one (or are used up, if it was their last); every other line is dropped. Returns the lines
    kept and those gone."""
    ply, move = done.played.before.ply, done.played.move
    kept: list[Line] = []
    gone: list[Line] = []
    for line in lines:
        if line.ply > ply:
            kept.append(line)  # begins later (not made by the service, but harmless)
        elif line.ply == ply and line.moves[0] == move and len(line.moves) > 1:
            kept.append(dataclasses.replace(line, ply=done.after.ply, moves=line.moves[1:]))
        else:
            gone.append(line)
    return kept, gone


def due(lines: Sequence[Line], position: Position) -> Line | None:
    """The first line whose owner is to move in ``position`` at its ply: its reply is due."""
    if rules.is_over(position):
        return None
    for line in lines:
        if line.ply == position.ply and line.owner is position.turn:
            return line
    return None


def play(
    position: Position, move: Move, lines: Sequence[Line] = (), *, most: int = MOST_PLANNED
) -> Played:
    """Play ``move`` in ``position``, then every reply ``lines`` plan after it (see the
    module's docstring), at most ``most`` of them. Raises the rules' errors if ``move`` cannot
    be played. A planned reply that cannot be played (a line made against other rules) drops
    its owner's lines of that ply and ends the chain."""
    done = turn(position, move)
    turns = [done]
    kept, gone = advance(lines, done)
    while len(turns) <= most:
        line = due(kept, done.after)
        if line is None:
            break
        try:
            done = turn(done.after, line.moves[0], planned=True)
        except rules.RulesError:
            stale = [other for other in kept if other.owner is line.owner and other.ply == line.ply]
            gone.extend(stale)
            kept = [other for other in kept if other not in stale]
            break
        turns.append(done)
        kept, more = advance(kept, done)
        gone.extend(more)
    return Played(tuple(turns), tuple(kept), tuple(gone))
