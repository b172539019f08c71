"""The lobby: challenges (made, accepted, declined, cancelled, expired), games against the bot
started, rematches offered; each game begins here.

challenges (the use cases: :class:`~bot.games.lobby.challenges.Lobby`), checks (a clock offered,
a challenge still open, a channel free), setups (random setups from a seed, a game's opening),
rematches (who may have one), errors.
"""
