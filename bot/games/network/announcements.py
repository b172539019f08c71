"""The network's announcements (the pattern of every announcement:
:mod:`bot.games.core.announcements`): a network game's home to make ready, and a direct
challenge to post in its opponent's home.

Neither is written with the game's id: a home's posts wait for its thread (or DM channel), and
the post that makes it must not wait behind them; so each is a row of its own (the deliverer's
lane of one row), which names the game in its payload.
"""

from __future__ import annotations

from typing import Any, Final

from bot.storage import Challenge, HomeSeat, NewNotification, Notification

NETWORK_HOME: Final = "network_home"
"""A network game's home to make: its thread in the home server's network channel (its line
names the players by their network names), or the bot's DM channel with its player; then the
service is told (:meth:`bot.games.network.games.NetworkGames.home_ready`). A home moved (its
server left, or refused the bot's posts) says the game goes on there, with the current board."""

DIRECT_CHALLENGE: Final = "network_direct_challenge"
"""A direct network challenge, posted in its opponent's home (their network channel, or their
DMs with the bot), pinging only them, with Accept and Decline."""


def network_home(game_id: int, seat: HomeSeat, *, moved: bool = False) -> NewNotification:
    """Make ``game_id``'s home ``seat`` ready; ``moved``: it was elsewhere before."""
    payload: dict[str, Any] = {"game": game_id, "seat": seat.value}
    if moved:
        payload["moved"] = True
    return NewNotification(NETWORK_HOME, payload=payload)


def read_network_home(notification: Notification) -> tuple[int, HomeSeat, bool]:
    """The game, the seat of its home, and whether the home moved."""
    payload = notification.payload
    return int(payload["game"]), HomeSeat(payload["seat"]), bool(payload.get("moved"))


def direct_challenge(challenge: Challenge) -> NewNotification:
    """Post ``challenge`` (direct) in its opponent's home."""
    return NewNotification(
        DIRECT_CHALLENGE, user_id=challenge.opponent_id, payload={"challenge": challenge.id}
    )
