"""A level of the computer opponent as a program that plays by the CodeCup 2011 protocol.

    python -m tools.engine.codecup --level strongest --budget 2 --seed 7

It reads ``Start`` when it plays White, and otherwise the opponent's moves, one a line
(``E3``, ``E3F4``, ``PASS``); it answers each with its own move, and a second one when it moves
again (White's last placement and first jump); ``Quit`` or the end of its input ends it. It is
how one version of the engine plays another in :mod:`tools.engine.match`
(``--b "codecup:COMMAND"``): run from a checkout of an older commit, it plays that commit's
engine (before the engine's lab moved to tools/, this command was ``python -m ai.codecup``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TextIO

from ai.choose import choose_move
from ai.evaluation import white_to_act
from ai.levels import Level
from rules import Position, legal_moves, parse_move, play


def serve(
    lines: Iterable[str], out: TextIO, *, level: Level, budget: float | None, seed: int
) -> None:
    """Play one game: read the opponent's moves from ``lines``, write our own to ``out``."""
    pos = Position()
    ours: bool | None = None  # True: we play White
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line == "Quit":
            return
        if line == "Start":
            if pos.ply != 0 or ours is not None:
                raise ValueError("Start after the game began")
            ours = True
        else:
            if ours is None:
                ours = False
            pos = play(pos, parse_move(line))
        while legal_moves(pos) and white_to_act(pos.ply) == ours:
            move = choose_move(pos, level=level, budget=budget, seed=seed)
            out.write(f"{move}\n")
            out.flush()
            pos = play(pos, move)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.engine.codecup", description=__doc__)
    parser.add_argument("--level", default="strongest", help="a level of the computer opponent")
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument("--seed", type=int, default=0, help="seeds every random choice")
    args = parser.parse_args(argv)
    serve(sys.stdin, sys.stdout, level=Level.parse(args.level), budget=args.budget, seed=args.seed)


if __name__ == "__main__":
    main()
