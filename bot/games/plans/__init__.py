"""Planned lines: conditional moves kept for a game and played as soon as they are due.

lines (their rules, pure), planning (the use cases: :class:`~bot.games.plans.planning.Planning`,
and a move played with the replies it brings), errors.
"""
