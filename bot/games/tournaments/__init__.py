"""Tournaments and leagues: entries, rounds, pairings and standings.

running (the use cases: :class:`~bot.games.tournaments.running.Tournaments`, and its hook at
every game's end), reading (the queries), rounds (pairing rounds and going on when a game ends,
in that game's transaction), withdrawals, pairing and swiss (who plays whom, pure), standings
(pure), tables (stored pairings as standings), errors, announcements.
"""
