"""Game records: the canonical move list, and Little Golem transcripts.

The canonical record is every action in order, placements and passes included, spelled as
CodeCup 2011 (``"E3 D4 ... E3F4 PASS"``).

A Little Golem transcript is lower case, in numbered pairs (``1. e3 d4 2. ...``), with optional
``Key [value]`` headers, and it leaves out the 49th placement, which is forced (one empty cell
is left); so pair 25 starts with White's first move. A game given up ends with ``resign``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.errors import RulesError
from rules.moves import PLACES, Move, parse_move
from rules.position import (
    PLACEMENT_PLIES,
    Colour,
    Position,
    colour_to_act,
    empty_cells,
    new_game,
    play,
)

_TOKENS: Final = re.compile(r"\[[^\]]*\]|\S+")
_MOVE_NUMBER: Final = re.compile(r"(\d+)\.")


class TranscriptReason(enum.Enum):
    """Why a record or transcript cannot be read; each value is the English message template
    (and the message-catalogue id, as :class:`rules.InvalidReason`'s)."""

    BAD_ACTION = "action {number} ({token}): {cause}"
    MOVE_NUMBER = "expected move number {number}. before White's action, found “{token}”"
    AFTER_RESIGN = "nothing may follow “resign”, but “{token}” does"


class TranscriptError(ValueError):
    """A record or transcript that cannot be read; the message says where and why.

    ``params`` fill the ``reason``'s template: ``number`` (of the action or move), ``token``
    (the text found there) and, for a bad action, ``cause``: the :class:`RulesError` saying
    what is wrong with it (also ``__cause__``).
    """

    def __init__(
        self,
        reason: TranscriptReason,
        *,
        token: str,
        ply: int | None = None,
        number: int | None = None,
        cause: RulesError | None = None,
    ) -> None:
        self.reason = reason
        self.token = token
        self.ply = ply
        self.cause = cause
        self.params: dict[str, object] = {"token": token}
        if number is not None:
            self.params["number"] = number
        if cause is not None:
            self.params["cause"] = cause
        super().__init__(reason.value.format(**{k: str(v) for k, v in self.params.items()}))


def format_record(moves: Iterable[Move]) -> str:
    """The canonical record: every action's canonical spelling, separated by spaces."""
    return " ".join(map(str, moves))


def parse_record(text: str) -> list[Move]:
    """Read a canonical record (any case; spaces, commas or new lines between actions).

    Raises :class:`TranscriptError` naming the first action that is not a move. Legality is not
    checked: use :func:`replay` for that.
    """
    moves: list[Move] = []
    for ply, token in enumerate(re.split(r"[\s,;]+", text.strip()) if text.strip() else []):
        try:
            moves.append(parse_move(token))
        except RulesError as error:
            raise TranscriptError(
                TranscriptReason.BAD_ACTION, token=token, ply=ply, number=ply + 1, cause=error
            ) from error
    return moves


def replay(moves: Sequence[Move], start: Position | None = None) -> list[Position]:
    """Every position of a game: ``[start, after move 1, ...]``.

    Raises :class:`TranscriptError` (from the :class:`IllegalMoveError`) at the first illegal move.
    """
    pos = start if start is not None else new_game()
    positions = [pos]
    for ply, move in enumerate(moves):
        try:
            pos = play(pos, move)
        except RulesError as error:
            raise TranscriptError(
                TranscriptReason.BAD_ACTION, token=str(move), ply=ply, number=ply + 1, cause=error
            ) from error
        positions.append(pos)
    return positions


@dataclass(frozen=True, slots=True)
class Transcript:
    """A game read from (or to be written as) a Little Golem transcript."""

    moves: tuple[Move, ...]
    """Every action, the forced 49th placement included."""
    headers: Mapping[str, str] = field(default_factory=dict)
    resigned: Colour | None = None
    """The side that resigned, if the game ended by resignation."""


def format_little_golem(
    moves: Sequence[Move],
    *,
    headers: Mapping[str, str] | None = None,
    resigned: bool = False,
) -> str:
    """A Little Golem transcript of ``moves`` (``resigned``: the side to act next gave up)."""
    parts: list[str] = []
    for key, value in (headers or {}).items():
        clean_key = "".join(c for c in key if c.isalnum())
        if clean_key:
            parts.append(f"{clean_key} [{value.replace('[', '').replace(']', '')}]")
    actions: list[str] = [str(m).lower() for m in moves]
    if resigned:
        actions.append("resign")
    for ply, action in enumerate(actions):
        if ply == PLACEMENT_PLIES - 1:
            continue  # the forced last placement is left out
        if colour_to_act(ply) is Colour.WHITE:
            parts.append(f"{ply // 2 + 1}.")
        parts.append(action)
    return " ".join(parts)


def parse_little_golem(text: str) -> Transcript:
    """Read a Little Golem transcript, filling in the forced 49th placement.

    Raises :class:`TranscriptError` if the numbering is off, a token is not a move, a move is
    illegal, or anything follows ``resign``.
    """
    tokens = _TOKENS.findall(text)
    headers: dict[str, str] = {}
    index = 0
    while index + 1 < len(tokens) and tokens[index + 1].startswith("["):
        headers[tokens[index]] = tokens[index + 1][1:-1]
        index += 2
    moves: list[Move] = []
    pos = new_game()
    resigned: Colour | None = None
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if resigned is not None:
            raise TranscriptError(TranscriptReason.AFTER_RESIGN, token=token)
        ply = len(moves)
        if colour_to_act(ply) is Colour.WHITE:
            number = _MOVE_NUMBER.fullmatch(token)
            if number is None or int(number[1]) != ply // 2 + 1:
                raise TranscriptError(
                    TranscriptReason.MOVE_NUMBER, token=token, ply=ply, number=ply // 2 + 1
                )
            if index >= len(tokens):
                break
            token = tokens[index]
            index += 1
        if token.lower() == "resign":
            resigned = pos.turn
            continue
        try:
            move = parse_move(token)
            pos = play(pos, move)
        except RulesError as error:
            raise TranscriptError(
                TranscriptReason.BAD_ACTION, token=token, ply=ply, number=ply + 1, cause=error
            ) from error
        moves.append(move)
        if len(moves) == PLACEMENT_PLIES - 1:
            (last_cell,) = empty_cells(pos)
            forced = PLACES[last_cell]
            pos = play(pos, forced)
            moves.append(forced)
    return Transcript(tuple(moves), headers, resigned)
