"""The network's announcements (the pattern of every announcement:
:mod:`bot.games.core.announcements`): a network game's home to make ready, a direct
challenge to post in its opponent's home, and a seek's own post to edit once it closed.

Neither is written with the game's id: a home's posts wait for its thread (or DM channel), and
the post that makes it must not wait behind them; so each is a row of its own (the deliverer's
lane of one row), which names the game in its payload.
"""

from __future__ import annotations

from typing import Final

# A network game's home is made ready for whatever began the game (a network challenge, the
# championship): the announcement is the core's.
from bot.games.core.network import NETWORK_HOME, network_home, read_network_home
from bot.storage import Challenge, NewNotification

__all__ = [
    "DIRECT_CHALLENGE",
    "NETWORK_HOME",
    "SEEK_CLOSED",
    "direct_challenge",
    "network_home",
    "read_network_home",
    "seek_closed",
]

DIRECT_CHALLENGE: Final = "network_direct_challenge"
"""A direct network challenge, posted in its opponent's home (their network channel, or their
DMs with the bot), pinging only them, with Accept and Decline."""


def direct_challenge(challenge: Challenge) -> NewNotification:
    """Post ``challenge`` (direct) in its opponent's home."""
    return NewNotification(
        DIRECT_CHALLENGE, user_id=challenge.opponent_id, payload={"challenge": challenge.id}
    )


SEEK_CLOSED: Final = "network_seek_closed"
"""A seek (an open network challenge) closed: taken (from another server's board, say),
cancelled or expired. Its own post, where it was made, is edited to say so, its buttons
removed (the challenge, read when the row is posted, says how it closed)."""


def seek_closed(challenge: Challenge) -> NewNotification:
    """Edit ``challenge``'s own post (:attr:`Challenge.message_id`) to say it closed."""
    return NewNotification(SEEK_CLOSED, payload={"challenge": challenge.id})
