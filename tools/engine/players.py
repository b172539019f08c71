"""Players for matches: the levels, a uniformly random player, a greedy one-ply player, and
external programs that speak the CodeCup 2011 protocol (PrimaDvonna, say)."""

from __future__ import annotations

import dataclasses
import queue
import random
import shlex
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ai.choose import move_rng, think
from ai.evaluation import white_to_act
from ai.levels import Level, LevelSpec
from ai.native import NativeWeights
from rules import Move, Position, RulesError, legal_moves, parse_move, play, replay, score


class Player(Protocol):
    """Something that picks a legal move; ``budget`` is seconds per move (``None``: no clock)."""

    @property
    def name(self) -> str: ...

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move: ...

    def close(self) -> None:
        """The game is over: release what the player holds (a process, say)."""


@dataclass(frozen=True, slots=True)
class LevelPlayer:
    """A level of the computer opponent; ``budget`` overrides the match's budget if given."""

    level: Level
    budget: float | None = None
    spec: LevelSpec | None = None
    """The level's settings changed for an experiment (see :func:`parse_player`)."""
    changes: str = ""

    @property
    def name(self) -> str:
        suffix = f"@{self.budget:g}s" if self.budget is not None else ""
        changes = f"{{{self.changes}}}" if self.changes else ""
        return f"level:{self.level.value}{changes}{suffix}"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        own = self.budget if self.budget is not None else budget
        return think(pos, level=self.level, budget=own, seed=seed, spec=self.spec).move

    def close(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class RandomPlayer:
    """Any legal move, uniformly at random."""

    @property
    def name(self) -> str:
        return "random"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        return move_rng(seed, pos).choice(legal_moves(pos))

    def close(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class GreedyPlayer:
    """The move that maximises the score difference right after it (ties at random).

    While placing, every placement adds one piece to the mover's score, so it places at random.
    """

    @property
    def name(self) -> str:
        return "greedy"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        rng = move_rng(seed, pos)
        white = white_to_act(pos.ply)
        best: list[Move] = []
        best_value = -1_000
        for move in legal_moves(pos):
            w, b = score(play(pos, move))
            value = w - b if white else b - w
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return rng.choice(best)

    def close(self) -> None:
        pass


CODECUP_PREFIX: Final = "codecup:"
ANSWER_TIMEOUT: Final = 120.0
"""Seconds an external program may take for one move before the match gives up on it."""


class CodeCupError(RuntimeError):
    """An external program broke the protocol: it sent no move, an unreadable or illegal one."""


@dataclass(slots=True)
class CodeCupPlayer:
    """An external program that plays DVONN by the CodeCup 2011 protocol, one process a game.

    The program reads ``Start`` when it plays White, and otherwise the opponent's moves, one a
    line (``E3``, ``E3F4``, ``PASS``); it writes its own moves the same way, and leaves on
    ``Quit``. ``{seed}`` in the command is replaced by the game's seed. The program keeps its
    own clock (the match's budget is not passed on: give it in the command, e.g.
    ``codecup:/path/player --time=40``). Every move it sends is checked against our rules.
    """

    command: str
    _process: subprocess.Popen[str] | None = field(default=None, init=False)
    _lines: queue.Queue[str] = field(default_factory=queue.Queue, init=False)
    _known: Position | None = field(default=None, init=False)

    @property
    def name(self) -> str:
        return f"{CODECUP_PREFIX}{self.command}"

    def choose(self, pos: Position, *, budget: float | None, seed: int) -> Move:
        if self._process is None:
            if pos.ply > 1:
                raise CodeCupError(
                    f"{self.command!r} must take part from the first placement "
                    "(play it with --opening-plies 0)"
                )
            self._start(seed)
            self._known = Position()
            if pos.ply == 0:
                self._send("Start")
        assert self._known is not None
        for move in _moves_between(self._known, pos):
            self._send(str(move))
        move = self._receive(pos)
        self._known = play(pos, move)
        return move

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            self._send_to(process, "Quit")
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    # --- the pipe ----------------------------------------------------------------------------

    def _start(self, seed: int) -> None:
        argv = shlex.split(self.command.replace("{seed}", str(seed)))
        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        # A thread reads its lines as they come: it may write two moves in a row (the last
        # placement and the first jump), and a queue waits with a timeout where a pipe cannot.
        threading.Thread(target=_read_lines, args=(self._process, self._lines), daemon=True).start()

    def _send(self, line: str) -> None:
        assert self._process is not None
        self._send_to(self._process, line)

    @staticmethod
    def _send_to(process: subprocess.Popen[str], line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def _receive(self, pos: Position) -> Move:
        assert self._process is not None
        try:
            line = self._lines.get(timeout=ANSWER_TIMEOUT).strip()
        except queue.Empty:
            self.close()
            raise CodeCupError(f"{self.command!r} sent no move in {ANSWER_TIMEOUT:g} s") from None
        if not line:
            try:
                code: int | None = self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = None
            self.close()
            raise CodeCupError(f"{self.command!r} stopped (exit code {code}) instead of moving")
        try:
            move = parse_move(line)
            play(pos, move)
        except RulesError as error:
            self.close()
            raise CodeCupError(f"{self.command!r} sent {line!r}: {error}") from None
        return move


def _read_lines(process: subprocess.Popen[str], lines: queue.Queue[str]) -> None:
    """Hand every line the program writes to ``lines``; an empty string when it ends."""
    assert process.stdout is not None
    for line in process.stdout:
        if line.strip():
            lines.put(line)
    lines.put("")


def _moves_between(before: Position, after: Position) -> list[Move]:
    """The moves that lead from ``before`` to ``after``: the opponent's, or at the end of the
    placement White's last placement and first jump."""
    if after == before:
        return []
    for first in legal_moves(before):
        middle = play(before, first)
        if middle == after:
            return [first]
        if after.ply == middle.ply + 1:
            for second in legal_moves(middle):
                if play(middle, second) == after:
                    return [first, second]
    raise CodeCupError(
        f"no move leads from ply {before.ply} to ply {after.ply}: an external player must "
        "see every move"
    )


def parse_player(text: str) -> Player:
    """``random``, ``greedy``, or a level (``strong``, ``level:strong``, ``strong@0.5`` for a
    budget of its own), or ``codecup:COMMAND`` for an external program."""
    if text.startswith(CODECUP_PREFIX):
        return CodeCupPlayer(text.removeprefix(CODECUP_PREFIX).strip())
    name, _, budget_text = text.strip().lower().partition("@")
    if name == "random":
        return RandomPlayer()
    if name == "greedy":
        return GreedyPlayer()
    budget = float(budget_text.removesuffix("s")) if budget_text else None
    name, _, changes = name.partition("{")
    level = Level.parse(name)
    if not changes:
        return LevelPlayer(level, budget)
    changes = changes.removesuffix("}")
    return LevelPlayer(level, budget, changed_spec(level.spec, changes), changes)


def changed_spec(spec: LevelSpec, changes: str) -> LevelSpec:
    """``spec`` with ``name=value,...`` changed: its own fields (``compiled=0``,
    ``late_placement=10``) or the compiled evaluation's weights (``moves=30``)."""
    own: dict[str, Any] = {}
    weights: dict[str, int] = {}
    for item in filter(None, changes.split(",")):
        key, _, value = item.partition("=")
        key = key.strip()
        if key in {f.name for f in dataclasses.fields(NativeWeights)}:
            weights[key] = int(value)
        elif isinstance(getattr(spec, key, None), int | float):  # bool is an int too
            own[key] = type(getattr(spec, key))(float(value))
        else:
            raise ValueError(f"no number {key!r} among the level's settings and weights")
    return dataclasses.replace(spec, native=dataclasses.replace(spec.native, **weights), **own)


def random_opening(plies: int, seed: int) -> Position:
    """The position after ``plies`` uniformly random placements (a match's shared opening)."""
    return replay(random_opening_moves(plies, seed))[-1]


def random_opening_moves(plies: int, seed: int) -> list[Move]:
    """The placements of :func:`random_opening`."""
    rng = random.Random(f"opening/{seed}")
    pos = Position()
    moves: list[Move] = []
    for _ in range(plies):
        move = rng.choice(legal_moves(pos))
        moves.append(move)
        pos = play(pos, move)
    return moves
