"""The lobby: challenges (made, accepted, declined, cancelled, expired), games against the bot
started, rematches offered; each game begins here (what of its start is not about its channel:
:mod:`bot.games.core.starts`).

challenges (the use cases: :class:`~bot.games.lobby.challenges.Lobby`), checks (a channel free;
the core's challenge checks named here), setups (the core's random setups, named here),
rematches (who may have one), errors.
"""
