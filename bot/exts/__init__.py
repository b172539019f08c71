"""The features: each a discord.py extension (``async def setup(bot)``), one package each,
holding its commands next to its buttons, its texts and its background work. The composition
root (:mod:`bot.app`) loads them by name; no feature imports another (they talk through
:mod:`bot.interactions.events`)."""
