"""The play: a move (with its forced passes and the replies planned for it), a resignation, an
abort.

moves (the use cases: :class:`~bot.games.play.moves.Play`), errors.
"""
