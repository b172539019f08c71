"""The clocks' feature: losses on time found by the housekeeping pass, reminders, vacations (the
clocks themselves and the deadline check are the core's: :mod:`bot.games.core.clocks`).

timekeeping (the use cases: :class:`~bot.games.clocks.timekeeping.Clocks`), errors,
announcements (reminder, vacation).
"""
