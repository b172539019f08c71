"""Benchmark: how long pairing takes for a big field.

    python -m tools.bench.pairing [--players 200] [--rounds 9] [--seed 1] [--repeat 3]

Plays a Swiss of ``--players`` players over ``--rounds`` rounds with random results (the better
seed wins more often; a draw now and then; piece scores as DVONN's), timing
:func:`~bot.games.tournaments.swiss.swiss_round` at every round, and prints the times of the first,
the middle and the last round (the best of ``--repeat`` runs each), and how many rematches and
colour differences beyond 2 they made (0 expected). Then times a whole round robin schedule
of the same players (:func:`~bot.games.tournaments.pairing.berger_rounds`).
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.games.tournaments.pairing import History, Pairing, Round, berger_rounds, histories
from bot.games.tournaments.standings import Bye, GameResult, Outcome, Result
from bot.games.tournaments.swiss import swiss_round

T = TypeVar("T")


def _best_of(repeat: int, work: Callable[[], T]) -> tuple[float, T]:
    """The shortest of ``repeat`` runs of ``work``, in seconds, and its value."""
    best = float("inf")
    value: T | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = work()
        best = min(best, time.perf_counter() - start)
    assert value is not None
    return best, value


def _play(board: Pairing, seeds: dict[int, int], rng: random.Random) -> GameResult:
    """A random result: the better seed wins more often; 1 game in 50 drawn."""
    gap = seeds[board.black] - seeds[board.white]
    white_wins = rng.random() < 0.5 + 0.4 * gap / len(seeds)
    if rng.random() < 0.02:
        pieces = rng.randint(3, 15)
        return GameResult(board.white, board.black, Outcome.DRAW, (pieces, pieces))
    loser, winner = sorted(rng.sample(range(1, 24), 2))
    if white_wins:
        return GameResult(board.white, board.black, Outcome.WHITE_WINS, (winner, loser))
    return GameResult(board.white, board.black, Outcome.BLACK_WINS, (loser, winner))


def swiss(players: Sequence[int], rounds: int, seed: int, repeat: int) -> list[float]:
    """Each round's pairing time, in seconds; prints a line per round timed."""
    rng = random.Random(seed)
    seeds = {player: index for index, player in enumerate(players)}
    results: list[Result] = []
    times: list[float] = []
    rematches = over_two = 0
    for _ in range(rounds):
        past = histories(results)
        seconds, round_ = _best_of(repeat, functools.partial(swiss_round, players, past))
        times.append(seconds)
        for board in round_:
            if isinstance(board, Bye):
                results.append(board)
            else:
                rematches += board.black in past.get(board.white, History()).opponents
                results.append(_play(board, seeds, rng))
        over_two += sum(abs(h.colour_difference) > 2 for h in histories(results).values())
    print(f"  rematches {rematches}, colour differences beyond 2: {over_two}")
    return times


def _count(round_: Round) -> int:
    return sum(isinstance(board, Pairing) for board in round_)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    players = list(range(1_000, 1_000 + args.players))
    print(f"Swiss, {args.players} players, {args.rounds} rounds:")
    times = swiss(players, args.rounds, args.seed, args.repeat)
    middle = (args.rounds + 1) // 2
    for label, number in (("first", 1), ("middle", middle), ("last", args.rounds)):
        print(f"  {label} round ({number}): {times[number - 1] * 1000:.0f} ms")
    print(f"  slowest round: {max(times) * 1000:.0f} ms")
    seconds, schedule = _best_of(args.repeat, lambda: berger_rounds(players))
    games = sum(_count(round_) for round_ in schedule)
    print(
        f"Round robin, {args.players} players: {len(schedule)} rounds, {games} games "
        f"scheduled in {seconds * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
