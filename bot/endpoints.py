"""Where discord.py sends its REST calls and opens its gateway connection.

Production talks to Discord itself. The process's entry point (:mod:`bot.__main__`) calls
:func:`use_discord_endpoints` with ``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL`` to point the
client elsewhere: a REST proxy, or the fake Discord the end-to-end tests run on 127.0.0.1. It is
the only test hook in the bot.

Why it is process-wide, and stays so: discord.py keeps both addresses in class attributes and
offers no per-client setting. A per-client override would have to replace discord.py's HTTP
client and the module-level webhook adapter that answers interactions, i.e. rewrite its
internals; since one process runs one bot, the entry point sets them once, before the client
exists, and the bot class itself changes nothing of discord.py (tests that start several clients
point them all at one fake, and restore the addresses afterwards). What reads them:

- every REST call, the interaction callbacks and followup webhooks included, is built from
  ``discord.http.Route.BASE``;
- a non-sharded ``Client`` opens ``DiscordWebSocket.DEFAULT_GATEWAY``; an ``AutoShardedClient``
  without a ``shard_count`` asks ``GET /gateway/bot`` (on the REST base) for the URL instead, and
  with a ``shard_count`` uses ``DEFAULT_GATEWAY`` too. After READY both resume on the
  ``resume_gateway_url`` the gateway sent, and fall back to ``DEFAULT_GATEWAY`` when a session is
  invalidated.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import discord.gateway
import discord.http
import yarl

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"

_API_SCHEMES = ("http", "https")
_GATEWAY_SCHEMES = ("ws", "wss")


@dataclass(frozen=True, slots=True)
class DiscordEndpoints:
    """The REST base (with its ``/v10`` suffix) and the gateway URL discord.py uses."""

    api_base: str
    gateway_url: str


def current_discord_endpoints() -> DiscordEndpoints:
    """The endpoints discord.py uses right now (pass them back to restore them)."""
    return DiscordEndpoints(
        api_base=discord.http.Route.BASE,
        gateway_url=str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY),
    )


def use_discord_endpoints(api_base: str | None, gateway_url: str | None) -> DiscordEndpoints:
    """Point discord.py at ``api_base`` and ``gateway_url``; ``None`` means Discord's own.

    ``api_base`` is the full REST base including the API version discord.py speaks, e.g.
    ``http://127.0.0.1:8080/api/v10``; ``gateway_url`` is a ``ws://`` or ``wss://`` URL (discord.py
    adds the ``?v=10&encoding=json...`` query itself). Call it before the client logs in.

    Returns the endpoints in use before the call, so a test can put them back.

    Raises ``ValueError`` for a malformed URL, so a typo in the settings fails at start-up rather
    than as a confusing 404 or connection error later.
    """
    api = _checked_api_base(api_base) if api_base else DISCORD_API_BASE
    gateway = _checked_gateway_url(gateway_url) if gateway_url else DISCORD_GATEWAY_URL
    previous = current_discord_endpoints()
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return previous


def _checked_api_base(url: str) -> str:
    parts = urlsplit(url)
    version = f"/v{discord.http.INTERNAL_API_VERSION}"
    if parts.scheme not in _API_SCHEMES or not parts.netloc:
        raise ValueError(f"DISCORD_API_BASE must be an http(s) URL, not {url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"DISCORD_API_BASE must not carry a query or fragment: {url!r}")
    base = url.rstrip("/")
    # Route.BASE is glued to paths such as "/users/@me"; without the version every call 404s.
    if not base.endswith(version):
        raise ValueError(
            f"DISCORD_API_BASE must end with the API version {version!r} "
            f"(e.g. https://discord.com/api{version}), not {url!r}"
        )
    return base


def _checked_gateway_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in _GATEWAY_SCHEMES or not parts.netloc:
        raise ValueError(f"DISCORD_GATEWAY_URL must be a ws(s) URL, not {url!r}")
    if parts.query or parts.fragment:
        # discord.py replaces the query with its own (?v=10&encoding=json&compress=...).
        raise ValueError(f"DISCORD_GATEWAY_URL must not carry a query or fragment: {url!r}")
    return url
