"""The computer opponent: choose a DVONN move at one of several levels, within a time budget.

>>> import rules, ai
>>> move = ai.choose_move(rules.new_game(), level=ai.Level.STRONG, seed=1)
>>> move in rules.legal_moves(rules.new_game())
True

Imports only :mod:`rules` and the standard library. :class:`Engine` runs the thinking in a
process pool, for callers on an event loop.
"""

from ai.choose import choose_move, think
from ai.levels import Level, LevelSpec
from ai.search import SearchResult

__all__ = ["Level", "LevelSpec", "SearchResult", "choose_move", "think"]
