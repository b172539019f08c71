"""The base of every feature's cog."""

from __future__ import annotations

from discord.ext import commands

from bot.games.service import GameService
from bot.interactions.inflight import InFlight
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher


class Feature(commands.Cog):
    """A feature's commands, with what they all use: the game service (the only door to the
    data), the publisher (replies and posts in the reader's language), the outbox's deliverer
    (announcements the service wrote) and the in-flight counter (a shutdown waits for commands
    under way). A feature that needs more takes it in its own ``__init__``. Its slash commands
    become ``/dvonn`` subcommands when the feature's ``setup()`` adds it with
    ``bot.add_feature``."""

    def __init__(
        self,
        service: GameService,
        publisher: Publisher,
        deliverer: Deliverer,
        inflight: InFlight,
    ) -> None:
        self.service = service
        self.publisher = publisher
        self.deliverer = deliverer
        self.inflight = inflight
