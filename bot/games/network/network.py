"""The network's use cases together, as the game service shows them
(:attr:`bot.games.service.GameService.network`), and its periodic jobs."""

from __future__ import annotations

import random
from datetime import timedelta

from bot.games.core.housekeeping import PeriodicJobs
from bot.games.core.parts import Shared
from bot.games.network.blocks import Blocks
from bot.games.network.boards import Boards
from bot.games.network.games import NetworkGames
from bot.games.network.membership import Membership
from bot.games.network.seeking import NetworkLobby
from bot.games.network.servers import Servers


class Network:
    """Members, servers, blocks, network challenges and network games' homes."""

    def __init__(self, shared: Shared, rng: random.Random, challenge_ttl: timedelta) -> None:
        self.membership = Membership(shared)
        self.servers = Servers(shared)
        self.blocks = Blocks(shared)
        self.lobby = NetworkLobby(shared, rng, challenge_ttl)
        self.games = NetworkGames(shared)
        self.boards = Boards(shared)
        # The use cases the Discord layer calls, on the network itself.
        self.join = self.membership.join
        self.leave = self.membership.leave
        self.member = self.membership.member
        self.set_channel = self.servers.set_channel
        self.stop = self.servers.stop
        self.server_removed = self.servers.removed
        self.block = self.blocks.block
        self.unblock = self.blocks.unblock
        self.challenge = self.lobby.create
        self.accept = self.lobby.accept
        self.decline = self.lobby.decline
        self.cancel = self.lobby.cancel
        self.seeks_for = self.lobby.seeks_for
        self.home_ready = self.games.home_ready
        self.lose_home = self.games.lose_home
        self.home_here = self.games.home_here
        self.home_of = self.games.home_of
        self.names = self.games.names

    def add_jobs(self, jobs: PeriodicJobs) -> None:
        """Add the network's periodic jobs: its challenges expired (before the lobby's expiry,
        which would close them without telling the boards), the homes of servers that left
        moved out, and the deletions asked for."""
        jobs.add("network: seeks expired", self.lobby.expire_due)
        jobs.add("network: homes to move", self.games.move_homes_out)
        jobs.add("network: forget", self.games.forget_due)
