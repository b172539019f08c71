"""The lessons: DVONN taught by playing it, one small position and task at a time.

:mod:`bot.games.lessons.book` holds the lessons as data (positions on the real board and the
tasks set in them) and judges a try by the rules alone; it is pure. Keeping a player's place
in them is :mod:`bot.games.lessons.learning`'s."""
