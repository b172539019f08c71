"""The computer opponent: choose a DVONN move at one of several levels, within a time budget.

>>> import rules, ai
>>> move = ai.choose_move(rules.new_game(), level=ai.Level.STRONG, seed=1)
>>> move in rules.legal_moves(rules.new_game())
True

The levels, weakest first (``ai.Level.parse("strong")`` reads a name):

- ``beginner``: looks one move ahead, picks loosely among the moves and a quarter of the time
  plays any legal move;
- ``easy``: looks one move ahead and nearly always plays the move that looks best;
- ``medium``: places pieces a little loosely, then searches two plies;
- ``strong``: searches three plies;
- ``strongest``: iterative deepening alpha-beta for as long as its budget allows, solving the
  endgame exactly when it can, and searching from the last eight placements into the moves;
  compiled (:mod:`ai.native`, some thirty times as many positions a second) where ``make``
  could build it, else in Python (also from the last eight placements).

:func:`choose_move` thinks in the calling thread; :class:`Engine` thinks in a process pool, for
callers on an event loop, and serves several games fairly. ``python -m tools.engine.match``
(the engine's lab, outside the bot) plays two players against each other and prints the score
and the Elo difference.

Imports only :mod:`rules` and the standard library.
"""

from ai.choose import choose_move, think
from ai.engine import Engine
from ai.levels import Level, LevelSpec
from ai.search import SearchResult

__all__ = ["Engine", "Level", "LevelSpec", "SearchResult", "choose_move", "think"]
