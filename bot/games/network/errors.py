"""The network's refusals (the pattern of every service error: :mod:`bot.games.core.errors`).

None of them says who blocked whom: a block either way is "this player does not take
challenges from you" (:class:`PlayerUnavailable`).
"""

from __future__ import annotations

from bot.games.core.errors import ChallengeAlreadyAccepted, OwnChallenge, ServiceError


class NetworkError(ServiceError):
    """A refusal of the network."""


class NotInNetwork(NetworkError):
    """The player acting is not in the network (never joined, or left)."""

    key = "network.not_member"
    template = (
        "You are not in the DVONN network: join it with /network join to play players of "
        "other servers."
    )

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)


class NotANetworkPlayer(NetworkError):
    """The player named (challenged) is not in the network."""

    key = "network.player_not_member"
    template = "That player is not in the DVONN network: only its members can be challenged there."

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)


class OwnNetworkChallenge(OwnChallenge):
    """The challenger tried to accept their own network challenge (the lobby's texts)."""


class NetworkChallengeTaken(ChallengeAlreadyAccepted):
    """Someone accepted the network challenge first (the lobby's texts)."""


class PlayerUnavailable(NetworkError):
    """One of two players blocked the other: no challenge between them, either way. Worded
    alike whoever blocked whom, so that nobody learns it."""

    key = "network.unavailable"
    template = "This player does not take challenges from you."

    def __init__(self, user_id: int, other_id: int) -> None:
        self.user_id = user_id
        self.other_id = other_id
        super().__init__(user_id=user_id, other_id=other_id)


class SeekUnavailable(PlayerUnavailable):
    """A seek (shown on every network board, whatever the blocks: a board is seen by a whole
    channel) whose challenger and accepter are kept apart by a block, either way: refused,
    worded alike whoever blocked whom, saying why it was shown and where to find the seeks
    one may accept."""

    key = "network.seek_unavailable"
    template = (
        "This player does not take challenges from you. The network boards show every open "
        "network challenge; /network seeks lists only those you may accept."
    )


class OutOfRange(NetworkError):
    """The accepter's network rating is outside the challenge's range."""

    key = "network.out_of_range"
    template = (
        "This challenge is for network ratings from {low} to {high}, and yours is {rating}: "
        "pick another one, or make your own."
    )

    def __init__(self, challenge_id: int, rating: int, low: int, high: int) -> None:
        self.challenge_id = challenge_id
        self.rating = rating
        super().__init__(challenge_id=challenge_id, rating=rating, low=low, high=high)


class InvalidRatingRange(NetworkError):
    """A challenge's range of ratings that cannot be."""

    key = "network.invalid_range"
    template = (
        "A rating range is from {lowest} to {highest}, its lower end no higher than its upper "
        "end: {low} to {high} is not one."
    )

    def __init__(self, low: int, high: int, lowest: int, highest: int) -> None:
        super().__init__(low=low, high=high, lowest=lowest, highest=highest)


class ServerLeftNetwork(NetworkError):
    """The server acted in (or the challenge's) no longer takes part in the network."""

    key = "network.server_left"
    template = (
        "This server has left the DVONN network: a moderator can bring it back with "
        "/network server, and you can still play the network from your DMs with the bot."
    )

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        super().__init__(guild_id=guild_id)


class NoNetworkChannel(NetworkError):
    """The server acted in never took part in the network."""

    key = "network.no_channel"
    template = (
        "This server does not take part in the DVONN network: a moderator can name its network "
        "channel with /network server, and you can play the network from your DMs with the bot."
    )

    def __init__(self, guild_id: int) -> None:
        self.guild_id = guild_id
        super().__init__(guild_id=guild_id)


class NotYourHome(NetworkError):
    """A player acted in the other player's home of a network game."""

    key = "network.not_your_home"
    template = (
        "This is your opponent's home of game #{game_id}: play it from your own, in your "
        "server's network channel or your DMs with the bot."
    )

    def __init__(self, game_id: int, user_id: int) -> None:
        self.game_id = game_id
        self.user_id = user_id
        super().__init__(game_id=game_id, user_id=user_id)


class SelfBlock(NetworkError):
    key = "network.self_block"
    template = "You cannot block yourself."

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(user_id=user_id)
