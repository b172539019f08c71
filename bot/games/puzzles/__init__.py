"""Puzzles: positions to win from, tried privately, rated per player, and the daily puzzle.

book (the puzzles, how one is chosen, puzzle ratings), solving (the use cases:
:class:`~bot.games.puzzles.solving.Puzzles`), errors, announcements (the daily puzzle).
"""
