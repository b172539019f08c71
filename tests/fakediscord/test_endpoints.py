"""bot/endpoints.py: pointing discord.py at another Discord, and back."""

from __future__ import annotations

import re
from collections.abc import Iterator

import discord.gateway
import discord.http
import pytest
import yarl

from bot.endpoints import (
    DISCORD_API_BASE,
    DISCORD_GATEWAY_URL,
    current_discord_endpoints,
    use_discord_endpoints,
)


@pytest.fixture(autouse=True)
def restore_endpoints() -> Iterator[None]:
    before = current_discord_endpoints()
    yield
    use_discord_endpoints(before.api_base, before.gateway_url)


def test_defaults_are_discords_own() -> None:
    use_discord_endpoints(None, None)
    assert discord.http.Route.BASE == DISCORD_API_BASE
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert gateway == yarl.URL(DISCORD_GATEWAY_URL)


def test_sets_rest_base_and_gateway_and_returns_the_previous_ones() -> None:
    use_discord_endpoints(None, None)
    previous = use_discord_endpoints("http://127.0.0.1:8080/api/v10/", "ws://127.0.0.1:8080/gw")
    assert previous == current_discord_endpoints().__class__(DISCORD_API_BASE, DISCORD_GATEWAY_URL)
    # Routes built afterwards (REST, interaction callbacks, webhooks) use the new base.
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == "http://127.0.0.1:8080/api/v10/users/@me"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8080/gw"
    restored = use_discord_endpoints(previous.api_base, previous.gateway_url)
    assert restored.api_base == "http://127.0.0.1:8080/api/v10"
    assert current_discord_endpoints() == previous


@pytest.mark.parametrize(
    ("api_base", "gateway_url", "message"),
    [
        ("127.0.0.1:8080/api/v10", None, "http(s) URL"),
        ("ftp://example.com/api/v10", None, "http(s) URL"),
        ("http://127.0.0.1:8080", None, "must end with the API version"),
        ("http://127.0.0.1:8080/api/v9", None, "must end with the API version"),
        ("http://127.0.0.1:8080/api/v10?x=1", None, "query"),
        (None, "http://127.0.0.1:8080/gw", "ws(s) URL"),
        (None, "wss://gateway.example/?v=10", "query"),
    ],
)
def test_rejects_malformed_urls(
    api_base: str | None, gateway_url: str | None, message: str
) -> None:
    before = current_discord_endpoints()
    with pytest.raises(ValueError, match=re.escape(message)):
        use_discord_endpoints(api_base, gateway_url)
    assert current_discord_endpoints() == before  # nothing half-applied
