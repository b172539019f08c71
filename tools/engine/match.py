"""Play two players against each other over many games and report who is stronger.

    python -m tools.engine.match --a strongest --b greedy --games 200 --budget 0.5 --seed 1 --jobs 1

Players: a level (``beginner`` .. ``strongest``, also ``level:strong``, or ``strong@0.2`` for a
budget of its own), ``random``, ``greedy``, or ``codecup:COMMAND``: a program that plays by the
CodeCup 2011 protocol, such as PrimaDvonna (``--b "codecup:./player --time=40 --seed={seed}"``),
named by its source and build with ``--b-source`` (a log requires it, and records it and the
program's arguments instead of its path on one machine).

``--a-clock S`` gives A a clock of S seconds for the whole game instead of ``--budget`` a move,
as a CodeCup program has (PrimaDvonna: 4.95 s), spent by :func:`ai.clock.move_budget`.

Games come in pairs with swapped colours (A is White in even games); with ``--opening-plies N``
both games of a pair start from the same N random placements. Prints wins/draws/losses for A,
A's score, and the Elo difference A - B with its 95% confidence interval; also each player's
thinking time per move.

Long matches (the 2 s/move ones take hours) keep a log with ``--log FILE``: one JSON line per
finished game, written as it ends, with the game's record (to replay or study it). Run the same
command again and the games already in the log are kept and only the rest are played; a log
from other settings is refused.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ai.clock import move_budget
from rules import Colour, Move, format_record, legal_moves, play, replay, score
from tools.engine.players import CODECUP_PREFIX, parse_player, random_opening_moves
from tools.engine.stats import Tally

MIN_BUDGET: Final = 0.005
"""The least a move on a game clock is given, even with the clock run out (the report shows
A's time a game, so an overrun is seen)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game, from player A's point of view."""

    index: int
    a_is_white: bool
    white: int
    black: int
    plies: int
    a_seconds: float
    a_moves: int
    a_longest: float
    b_seconds: float
    b_moves: int
    b_longest: float
    record: str = ""
    """Every action of the game, the shared opening included (``rules.format_record``)."""

    @property
    def a_score(self) -> int:
        return self.white if self.a_is_white else self.black

    @property
    def b_score(self) -> int:
        return self.black if self.a_is_white else self.white


@dataclass(frozen=True, slots=True)
class MatchSettings:
    a: str
    b: str
    budget: float | None
    seed: int
    opening_plies: int
    a_source: str | None = None
    """What an external program A is, by its source and build (``maksverver/PrimaDvonna
    commit 548dacf, submission.c, gcc -O2 -m32``): logs and reports name it so, never by the
    path it has on one machine."""
    b_source: str | None = None
    a_clock: float | None = None
    """Seconds A may think in a whole game (each move's share by :func:`ai.clock.move_budget`),
    instead of ``budget`` a move."""

    def header(self) -> dict[str, object]:
        """The log's first line: the settings, an external program named by its source and
        build and the arguments it was given, without its path."""
        header: dict[str, object] = {}
        for side, player, source in (("a", self.a, self.a_source), ("b", self.b, self.b_source)):
            if player.startswith(CODECUP_PREFIX) and source is not None:
                _program, _, arguments = player.removeprefix(CODECUP_PREFIX).partition(" ")
                header |= {side: "codecup", f"{side}_source": source, f"{side}_args": arguments}
            else:
                header[side] = player
        header |= {"budget": self.budget, "seed": self.seed, "opening_plies": self.opening_plies}
        return header | ({"a_clock": self.a_clock} if self.a_clock is not None else {})

    def name(self, side: str) -> str:
        """Player A's or B's name in the report: an external program's source, if given."""
        source = self.a_source if side == "a" else self.b_source
        return source or parse_player(self.a if side == "a" else self.b).name


def play_game(settings: MatchSettings, index: int) -> GameResult:
    """Play game ``index`` of the match (A has White when ``index`` is even)."""
    players = {True: parse_player(settings.a), False: parse_player(settings.b)}
    a_is_white = index % 2 == 0
    game_seed = settings.seed * 1_000_003 + index
    opening = random_opening_moves(settings.opening_plies, settings.seed * 1_000_003 + index // 2)
    pos = replay(opening)[-1]
    played: list[Move] = list(opening)
    seconds = {True: 0.0, False: 0.0}
    moves = {True: 0, False: 0}
    longest = {True: 0.0, False: 0.0}
    try:
        while legal_moves(pos):
            is_a = (pos.turn is Colour.WHITE) == a_is_white
            budget = settings.budget
            if is_a and settings.a_clock is not None:
                budget = max(MIN_BUDGET, move_budget(pos, settings.a_clock - seconds[True]))
            started = time.perf_counter()
            move = players[is_a].choose(pos, budget=budget, seed=game_seed)
            spent = time.perf_counter() - started
            seconds[is_a] += spent
            moves[is_a] += 1
            longest[is_a] = max(longest[is_a], spent)
            pos = play(pos, move)  # raises if a player ever chose an illegal move
            played.append(move)
    finally:
        for player in players.values():
            player.close()
    white, black = score(pos)
    return GameResult(
        index,
        a_is_white,
        white,
        black,
        pos.ply,
        seconds[True],
        moves[True],
        longest[True],
        seconds[False],
        moves[False],
        longest[False],
        format_record(played),
    )


class MatchLogError(ValueError):
    """A match log that cannot be continued with these settings."""


class MatchLog:
    """Finished games on disk, one JSON line each, after a first line with the settings."""

    def __init__(self, path: Path, settings: MatchSettings) -> None:
        self.path = path
        self.settings = settings

    def load(self) -> list[GameResult]:
        """The games already played (none if the log does not exist yet)."""
        if not self.path.exists():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        if not lines:
            return []
        header = json.loads(lines[0])
        expected = self.settings.header()
        if header != expected:
            raise MatchLogError(
                f"{self.path} holds a match with other settings ({header}); "
                f"these are {expected}: choose another file"
            )
        # A line cut short by a crash is the one game that is played again.
        results = []
        for line in lines[1:]:
            try:
                results.append(GameResult(**json.loads(line)))
            except (ValueError, TypeError):
                continue
        return results

    def append(self, result: GameResult) -> None:
        with self.path.open("a+b") as file:
            if file.tell() == 0:
                file.write(_json_line(self.settings.header()))
            else:
                file.seek(-1, os.SEEK_END)
                if file.read(1) != b"\n":
                    file.write(b"\n")  # end a line torn by a crash
            file.write(_json_line(dataclasses.asdict(result)))
            file.flush()
            os.fsync(file.fileno())


def _json_line(data: object) -> bytes:
    return (json.dumps(data) + "\n").encode()


def run_games(settings: MatchSettings, indices: Iterable[int], jobs: int) -> Iterator[GameResult]:
    """Play the games numbered ``indices``, in ``jobs`` processes; yields results as they end."""
    if jobs <= 1:
        for index in indices:
            yield play_game(settings, index)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_game, settings, index) for index in indices]
        for future in as_completed(futures):
            yield future.result()


def tally(results: Iterable[GameResult]) -> Tally:
    wins = draws = losses = 0
    for r in results:
        if r.a_score > r.b_score:
            wins += 1
        elif r.a_score == r.b_score:
            draws += 1
        else:
            losses += 1
    return Tally(wins, draws, losses)


def report(settings: MatchSettings, results: list[GameResult], wall: float) -> str:
    """The match table as printed at the end."""
    a_name, b_name = settings.name("a"), settings.name("b")
    total = tally(results)
    as_white = tally(r for r in results if r.a_is_white)
    as_black = tally(r for r in results if not r.a_is_white)
    n = len(results)
    budget = "none (node limits)" if settings.budget is None else f"{settings.budget:g} s/move"
    if settings.a_clock is not None:
        budget += f", A {settings.a_clock:g} s a game"
    a_moves = sum(r.a_moves for r in results) or 1
    b_moves = sum(r.b_moves for r in results) or 1
    low, high = total.score_interval()
    lines = [
        f"match: A = {a_name} vs B = {b_name}; {n} games, budget {budget}, seed {settings.seed}, "
        f"opening plies {settings.opening_plies}",
        f"{'':18}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}{'score':>9}",
    ]
    for label, t in (("A overall", total), ("A as White", as_white), ("A as Black", as_black)):
        lines.append(f"{label:18}{t.games:>6}{t.wins:>6}{t.draws:>6}{t.losses:>7}{t.score:>9.1%}")
    lines += [
        f"A's score {total.score:.1%} (95% CI {low:.1%} .. {high:.1%}); "
        f"Elo A - B: {total.elo_text()}",
        f"mean final pieces A {sum(r.a_score for r in results) / max(n, 1):.1f}, "
        f"B {sum(r.b_score for r in results) / max(n, 1):.1f}; "
        f"mean plies {sum(r.plies for r in results) / max(n, 1):.1f}",
        f"thinking per move: A mean {sum(r.a_seconds for r in results) / a_moves:.3f} s, "
        f"longest {max((r.a_longest for r in results), default=0):.3f} s; "
        f"B mean {sum(r.b_seconds for r in results) / b_moves:.3f} s, "
        f"longest {max((r.b_longest for r in results), default=0):.3f} s",
        f"thinking per game: A mean {sum(r.a_seconds for r in results) / max(n, 1):.2f} s, "
        f"most {max((r.a_seconds for r in results), default=0):.2f} s; "
        f"B mean {sum(r.b_seconds for r in results) / max(n, 1):.2f} s, "
        f"most {max((r.b_seconds for r in results), default=0):.2f} s",
        f"wall time {wall:.0f} s",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, help="player A (e.g. strongest, level:strong)")
    parser.add_argument("--b", required=True, help="player B (e.g. greedy, random, medium)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=None, help="seconds per move")
    parser.add_argument(
        "--a-clock",
        type=float,
        default=None,
        help="seconds A may think in a whole game, as a CodeCup program does (instead of "
        "--budget for A's moves)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--opening-plies", type=int, default=0, help="random placements first")
    parser.add_argument("--progress", type=int, default=20, help="report every N games")
    parser.add_argument("--log", type=Path, help="keep finished games here; continue from it")
    for side in ("a", "b"):
        parser.add_argument(
            f"--{side}-source",
            help=f"an external program {side.upper()} by its source and build, for the log and "
            "the report (e.g. 'maksverver/PrimaDvonna commit 548dacf, submission.c, "
            "gcc -O2 -m32'); a log needs it: it names no path of one machine",
        )
    args = parser.parse_args(argv)
    settings = MatchSettings(
        args.a,
        args.b,
        args.budget,
        args.seed,
        args.opening_plies,
        args.a_source,
        args.b_source,
        args.a_clock,
    )
    for side, player, source in (("a", args.a, args.a_source), ("b", args.b, args.b_source)):
        if args.log and player.startswith(CODECUP_PREFIX) and source is None:
            parser.error(
                f"name {side.upper()} by its source and build with --{side}-source: a match log "
                "names an external program so, not by its path on this machine"
            )
    parse_player(args.a), parse_player(args.b)  # fail early on a bad name
    log = MatchLog(args.log, settings) if args.log else None
    try:
        results = [r for r in log.load() if r.index < args.games] if log else []
    except MatchLogError as error:
        parser.error(str(error))
    done = {r.index for r in results}
    if done:
        print(f"continuing: {len(done)} games already in {args.log}", file=sys.stderr)
    started = time.perf_counter()
    todo = [index for index in range(args.games) if index not in done]
    for result in run_games(settings, todo, args.jobs):
        if log:
            log.append(result)
        results.append(result)
        if args.progress and len(results) % args.progress == 0:
            t = tally(results)
            print(
                f"[{len(results):>4}/{args.games}] A {t.wins}-{t.draws}-{t.losses} "
                f"({t.score:.1%}) {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    results.sort(key=lambda r: r.index)
    print(report(settings, results, time.perf_counter() - started))


if __name__ == "__main__":
    main()
