"""A stand-in for an external engine: plays random legal moves by the CodeCup 2011 protocol.

    python codecup_random.py [--seed N] [--illegal | --quit-early]

``--illegal`` answers its first turn with a move that breaks the rules; ``--quit-early`` exits
instead of answering.
"""

from __future__ import annotations

import argparse
import random
import sys

from rules import Colour, Position, legal_moves, parse_move, play


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--illegal", action="store_true")
    parser.add_argument("--quit-early", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    first = sys.stdin.readline().strip()
    pos = Position()
    me = Colour.WHITE if first == "Start" else Colour.BLACK
    if first != "Start":
        pos = play(pos, parse_move(first))
    while True:
        moves = legal_moves(pos)
        if moves and pos.turn is me:
            if args.quit_early:
                return
            if args.illegal:
                print("A1K5", flush=True)
                return
            move = rng.choice(moves)
            print(move, flush=True)
            pos = play(pos, move)
            continue
        line = sys.stdin.readline().strip()
        if not line or line == "Quit":
            return
        pos = play(pos, parse_move(line))


if __name__ == "__main__":
    main()
