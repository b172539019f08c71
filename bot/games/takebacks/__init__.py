"""Takebacks: a player asks to take their last move back, the opponent accepts or declines.

requests (the use cases: :class:`~bot.games.takebacks.requests.Takebacks`), errors,
announcements (takeback).
"""
