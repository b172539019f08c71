"""The project's tools: benchmarks, the engine's lab, the puzzle generator and the gallery.

Not part of the bot: neither installed with it (pyproject.toml's packages) nor copied into its
image (.dockerignore). Each tool runs from the repository's root, as ``python -m tools.NAME``:

- :mod:`tools.bench`: benchmarks of the rules, the rendering, the levels' clocks, the game
  service, pairing and serving puzzles (``make bench`` runs the first three);
- :mod:`tools.engine`: the engine's lab: matches between levels or programs, tuning and
  fitting the compiled search's weights, checks of the game review (its match logs are in
  docs/matches/);
- :mod:`tools.puzzles`: the puzzle generator and prover, which make and prove again
  ``ai/puzzles.txt`` (the bot reads it with :mod:`ai.puzzles`);
- :mod:`tools.gallery`: sample boards, graphs, replays and standings to look at
  (``make gallery``).

Tools may import every package of the bot (rules, render, ai, bot); none of those imports tools
(tests/test_layers.py).
"""
