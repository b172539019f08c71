"""Turn notices: how a player hears it is their turn, and the daily digest.

digests (the use cases: :class:`~bot.games.notices.digests.Digests`; time zones), errors,
announcements (digest).
"""
