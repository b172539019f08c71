"""The game service's core: what every feature of :mod:`bot.games` shares, and nothing of any
feature."""
