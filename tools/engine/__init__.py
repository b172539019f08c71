"""The engine's lab, run as ``python -m tools.engine.NAME`` (each module's docstring says how):
``match`` plays two players against each other (levels, variants of their weights, or a
program speaking the CodeCup protocol: :mod:`~tools.engine.players`) and prints the score and
the Elo difference (:mod:`~tools.engine.stats`); ``codecup`` is this checkout's engine behind
that protocol, for another checkout's match; ``spsa`` tunes the compiled search's weights by
self-play; ``movement_fit`` and ``placement_fit`` fit evaluation weights to self-play games
(:mod:`~tools.engine.fitting`); ``review_check`` measures the game review's verdicts. The
match logs it keeps are in docs/matches/."""
