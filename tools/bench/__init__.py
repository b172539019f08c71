"""Benchmarks, one module each, run as ``python -m tools.bench.NAME`` (each module's docstring
says what it measures and its options): ``rules`` (random games a second), ``render`` (a
board's drawing time and size), ``ai`` (how closely each level keeps its time budget),
``service`` (the game service's move latency and housekeeping pass), ``pairing`` (a big Swiss's
pairing times) and ``puzzles`` (the time to serve a puzzle)."""
