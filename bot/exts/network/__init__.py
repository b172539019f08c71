"""The DVONN network's Discord side (issue 41): the ``/network`` command, its buttons, boards
and homes. Not written yet: the game service's part is (:mod:`bot.games.network`), and the bot
loads no network feature until this package is one, and the operator turns it on."""
