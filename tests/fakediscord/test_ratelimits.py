"""Discord's rate limits in the fake: the global 50 a second per token (interactions excepted),
per-route buckets per channel with truthful headers, the 429s' shape and scope, the Cloudflare
ban after 10,000 invalid requests and its end; and, switched off, no limit at all.

The figures are checked with plain HTTP on the fake's clock (no sleeping); that discord.py
waits on the headers instead of running into 429s, with the real client."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, InteractionType, RecordedRequest
from tests.fakediscord.conftest import Scene
from tests.fakediscord.ratelimits import (
    MESSAGE_CREATE,
    MESSAGE_DELETE,
    ROUTE_BUCKETS,
    UNBOUNDED,
    Bucket,
)

POSTS = "POST /channels/{channel_id}/messages"


async def send(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Mapping[str, str], Any]:
    """One request: its status, headers and body (JSON, or the text when it is not JSON)."""
    async with http.request(method, path.lstrip("/"), json=body) as response:
        text = await response.text()
        try:
            parsed = json.loads(text) if text else None
        except json.JSONDecodeError:
            parsed = text
        return response.status, dict(response.headers), parsed


@pytest.fixture
async def client(discord_fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A real discord.py client logged in with the fake's token (REST only, no gateway)."""
    async with logged_in(discord_fake) as started:
        yield started


@contextlib.asynccontextmanager
async def logged_in(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    """A discord.py client logged in with the fake's token, closed at the end."""
    async with discord.Client(intents=discord.Intents.none()) as client:
        await client.login(fake.token)
        yield client


def bot_messages(fake: FakeDiscord, scene: Scene, count: int) -> list[int]:
    """``count`` messages of the bot's in the games channel, made on the fake's side."""
    world = fake.world
    return [
        world.post_channel_message(scene.games.id, {"content": f"m{i}"}, []).id
        for i in range(count)
    ]


def most_in_a_window(moments: Sequence[float], seconds: float) -> int:
    """The most of ``moments`` in one of a bucket's windows, counted as Discord (and the fake)
    count them: a window opens with the first call after the last one closed and lasts
    ``seconds``. Not a sliding window: calls at the end of one window and the start of the next
    may number twice the limit within ``seconds`` without any being over it."""
    most, count, closes = 0, 0, float("-inf")
    for moment in sorted(moments):
        if moment >= closes:
            count, closes = 0, moment + seconds
        count += 1
        most = max(most, count)
    return most


def admitted(requests: Sequence[RecordedRequest], method: str, marker: str) -> list[float]:
    return [r.at for r in requests if r.method == method and marker in r.path and r.status < 400]


# --- per-route buckets ---------------------------------------------------------------------------


async def test_five_posts_per_five_seconds_per_channel_with_truthful_headers(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/messages"
    seen = []
    for n in range(5):
        status, headers, _ = await send(http, "POST", path, {"content": f"move {n}"})
        assert status == 200
        seen.append(headers)
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2", "1", "0"]
    assert {h["X-RateLimit-Limit"] for h in seen} == {"5"}
    assert {h["X-RateLimit-Bucket"] for h in seen} == {MESSAGE_CREATE.hash}
    assert all(0 < float(h["X-RateLimit-Reset-After"]) <= 5.0 for h in seen)
    reset = float(seen[-1]["X-RateLimit-Reset"])
    assert abs(reset - (fake.world.now().timestamp() + 5.0)) < 1.0  # epoch seconds

    status, headers, body = await send(http, "POST", path, {"content": "one too many"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 4.0 < body["retry_after"] <= 5.0
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["X-RateLimit-Remaining"] == "0" and headers["Via"]
    assert headers["Retry-After"] == "5"
    assert headers["X-RateLimit-Reset-After"] == f"{body['retry_after']:.3f}"
    assert not any(m.content == "one too many" for m in fake.messages_in(scene.games))
    assert (fake.traffic.rate_limited["user"], fake.traffic.invalid_recent()) == (1, 1)

    # Another channel has a bucket of its own; this one's empties after its window.
    other = f"channels/{scene.no_threads.id}/messages"
    status, headers, _ = await send(http, "POST", other, {"content": "elsewhere"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")
    fake.advance_time(5.0)
    status, headers, _ = await send(http, "POST", path, {"content": "later"})
    assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")


async def test_five_deletes_a_second_per_channel(scene: Scene, http: aiohttp.ClientSession) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/messages"
    ids = bot_messages(fake, scene, 6)
    answers = [await send(http, "DELETE", f"{path}/{i}") for i in ids]
    assert [status for status, _, _ in answers] == [204] * 5 + [429]
    assert {h["X-RateLimit-Bucket"] for _, h, _ in answers[:5]} == {MESSAGE_DELETE.hash}
    assert [h["X-RateLimit-Remaining"] for _, h, _ in answers] == ["4", "3", "2", "1", "0", "0"]
    assert 0 < answers[5][2]["retry_after"] <= 1.0
    # Deletes have their own bucket: posting there still works.
    assert (await send(http, "POST", path, {"content": "a post"}))[0] == 200
    fake.advance_time(1.0)
    assert (await send(http, "DELETE", f"{path}/{ids[5]}"))[0] == 204


async def test_every_answer_announces_its_bucket_errors_included(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    status, headers, _ = await send(http, "GET", "users/@me")
    assert status == 200 and headers["X-RateLimit-Limit"] == "50"
    status, headers, body = await send(http, "GET", f"channels/{scene.games.id}/messages/1")
    assert (status, body["code"]) == (404, 10008)
    assert headers["X-RateLimit-Remaining"] == "49"
    # Threads from a message and without one share one bucket per parent channel.
    assert (
        ROUTE_BUCKETS["POST /channels/{channel_id}/threads"]
        is ROUTE_BUCKETS["POST /channels/{channel_id}/messages/{message_id}/threads"]
    )


async def test_discord_py_waits_on_the_headers_instead_of_running_into_429s(
    scene: Scene, client: discord.Client
) -> None:
    fake = scene.fake
    # Posts: 5 per 0.5 s here (the real 5 s would make the test sleep 5 s); deletes as Discord's.
    fake.limits.buckets = {POSTS: Bucket(MESSAGE_CREATE.name, 5, 0.5)}
    channel = client.get_partial_messageable(scene.games.id)
    posted = await asyncio.gather(*(channel.send(f"post {n}") for n in range(8)))
    ids = bot_messages(fake, scene, 8)
    await asyncio.gather(*(channel.get_partial_message(i).delete() for i in ids))

    assert len(posted) == 8 and fake.traffic.rate_limited == {}
    requests = fake.requests
    posts = admitted(requests, "POST", "/messages")
    deletes = admitted(requests, "DELETE", "/messages/")
    assert most_in_a_window(posts, 0.5) <= 5 and max(posts) - min(posts) >= 0.5
    assert most_in_a_window(deletes, 1.0) <= 5 and max(deletes) - min(deletes) >= 1.0
    assert all(fake.world.message(i).deleted for i in ids)


async def test_a_hidden_shared_limit_on_thread_starts_when_a_test_sets_one(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/threads"
    fake.limits.shared_threads = (2, 300.0)
    answers = [await send(http, "POST", path, {"name": f"g{n}", "type": 11}) for n in range(3)]
    assert [status for status, _, _ in answers] == [201, 201, 429]
    _, headers, body = answers[2]
    assert headers["X-RateLimit-Scope"] == "shared" and headers["X-RateLimit-Remaining"] == "3"
    assert body["message"] == "The resource is being rate limited."
    assert 299 < body["retry_after"] <= 300 and headers["Retry-After"] == "300"
    assert fake.traffic.invalid_recent() == 0  # shared: not counted against the bot
    other = f"channels/{scene.no_threads.id}/threads"
    assert (await send(http, "POST", other, {"name": "x", "type": 12}))[0] == 201
    fake.advance_time(300.0)
    assert (await send(http, "POST", path, {"name": "later", "type": 11}))[0] == 201


# --- the global limit ----------------------------------------------------------------------------


async def test_fifty_requests_a_second_for_the_token_shared_by_its_clients(
    scene: Scene,
) -> None:
    fake = scene.fake
    channels = [scene.guild.add_text_channel(f"c{n}") for n in range(80)]
    async with logged_in(fake) as one, logged_in(fake) as two:
        fetched = await asyncio.gather(
            *(one.http.get_channel(c.id) for c in channels[:40]),
            *(two.http.get_channel(c.id) for c in channels[40:]),
        )
    assert [int(c["id"]) for c in fetched] == [c.id for c in channels]
    requests = fake.requests
    refused = [r for r in requests if r.status == 429]
    assert refused and {r.scope for r in refused} == {"global"}
    assert fake.traffic.rate_limited == {"global": len(refused)}
    assert fake.traffic.limited_routes == {"GET /channels/{channel_id}": len(refused)}
    # Never more than 50 in a second, whichever client sent them.
    assert most_in_a_window([r.at for r in requests if r.status == 200], 1.0) == 50


async def test_a_global_429_says_so(scene: Scene, http: aiohttp.ClientSession) -> None:
    fake = scene.fake
    fake.limits.global_per_second = 3
    answers = [await send(http, "GET", "users/@me") for _ in range(4)]
    assert [status for status, _, _ in answers] == [200, 200, 200, 429]
    _, headers, body = answers[3]
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] and int(headers["Retry-After"]) >= body["retry_after"] > 0
    assert "X-RateLimit-Bucket" not in headers  # the global limit is no route's
    assert body == {
        "message": "You are being rate limited.",
        "retry_after": body["retry_after"],
        "global": True,
    }
    assert fake.traffic.global_counted == 4 and fake.traffic.invalid_recent() == 1
    fake.advance_time(1.0)
    assert (await send(http, "GET", "users/@me"))[0] == 200


async def test_interaction_endpoints_are_not_bound_to_the_global_limit(
    scene: Scene, sample_bot: discord.Client, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.limits.global_per_second = 2
    while (await send(http, "GET", "users/@me"))[0] != 429:
        pass  # the token's budget is spent
    counted, total = fake.traffic.global_counted, fake.traffic.total
    result = await fake.run_command(scene.alice, scene.games, "dvonn board")
    assert result.embeds and result.message is not None and result.message.files
    assert fake.traffic.global_counted == counted  # the callback and the edit: not counted
    assert fake.traffic.total == total + 2
    assert fake.traffic.calls["POST /interactions/{interaction_id}/{token}/callback"] == 1
    assert fake.traffic.calls["PATCH /webhooks/{app_id}/{token}/messages/{message_id}"] == 1
    assert fake.traffic.rate_limited == {"global": 1}


# --- invalid requests and Cloudflare's ban -------------------------------------------------------


def invalid(fake: FakeDiscord, count: int) -> None:
    """``count`` invalid requests (as 403s) noted now, as if the bot had made them."""
    for _ in range(count):
        fake.world.limiter.answered(403, None)


async def test_ten_thousand_invalid_requests_in_ten_minutes_get_the_ip_banned_for_an_hour(
    scene: Scene, http: aiohttp.ClientSession, client: discord.Client
) -> None:
    fake = scene.fake
    invalid(fake, 9_999)
    async with http.get("users/@me", headers={"Authorization": "Bot wrong"}) as refused:
        assert refused.status == 401  # the 10,000th
    assert fake.traffic.invalid_recent() == fake.traffic.invalid_peak == 10_000

    status, headers, page = await send(http, "GET", "users/@me")
    assert status == 429 and "Error 1015" in page and "cloudflare" in headers["Server"]
    assert "Via" not in headers and "X-RateLimit-Limit" not in headers
    # discord.py takes it for a ban: an HTTPException at once, never retried.
    before = len(fake.requests)
    with pytest.raises(discord.HTTPException) as caught:
        await client.http.get_channel(scene.games.id)
    assert caught.value.status == 429 and "1015" in caught.value.text
    assert len(fake.requests) == before + 1
    # Everything is refused, interactions too; the ban's refusals count as neither.
    record = fake.desk.start(
        kind=InteractionType.APPLICATION_COMMAND,
        user=scene.alice,
        channel=scene.games,
        data={"id": "1", "name": "dvonn", "type": 1, "options": []},
        label="/dvonn",
    )
    callback = f"interactions/{record.id}/{record.token}/callback"
    assert (await send(http, "POST", callback, {"type": 5}))[0] == 429
    assert fake.traffic.banned == 3 and fake.traffic.rate_limited == {}

    fake.advance_time(3600.0)  # an hour later
    assert (await send(http, "GET", "users/@me"))[0] == 200
    assert await client.http.get_channel(scene.games.id)


async def test_invalid_requests_older_than_ten_minutes_are_forgotten(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    invalid(fake, 9_999)
    fake.advance_time(600.0)
    invalid(fake, 1)
    assert fake.traffic.invalid_recent() == 1 and fake.traffic.invalid_peak == 9_999
    assert (await send(http, "GET", "users/@me"))[0] == 200


async def test_shared_429s_are_not_invalid_requests_403s_are(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/messages"
    fake.world.rate_limit("POST", path, retry_after=0.5)  # a resource's limit: shared
    status, headers, _ = await send(http, "POST", path, {"content": "x"})
    assert (status, headers["X-RateLimit-Scope"]) == (429, "shared")
    assert fake.traffic.invalid_recent() == 0 and fake.traffic.rate_limited == {"shared": 1}
    thread = {"name": "game", "type": 11}
    status, _, _ = await send(http, "POST", f"channels/{scene.no_threads.id}/threads", thread)
    assert status == 403  # Missing Permissions: invalid
    assert fake.traffic.invalid_recent() == 1


# --- switched off --------------------------------------------------------------------------------


async def test_switched_off_nothing_is_limited(scene: Scene, http: aiohttp.ClientSession) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/messages"
    fake.limits.enabled = False
    answers = await asyncio.gather(*(send(http, "POST", path, {"content": "x"}) for _ in range(60)))
    assert {status for status, _, _ in answers} == {200}
    # Buckets still announce themselves, as buckets nobody empties.
    assert {h["X-RateLimit-Limit"] for _, h, _ in answers} == {str(UNBOUNDED)}
    invalid(fake, 10_000)
    assert (await send(http, "GET", "users/@me"))[0] == 200
    assert fake.traffic.global_counted == 61 and fake.traffic.rate_limited == {}


async def test_without_per_channel_limits_the_global_one_still_holds(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake, path = scene.fake, f"channels/{scene.games.id}/messages"
    fake.limits.per_channel = False
    answers = await asyncio.gather(*(send(http, "POST", path, {"content": "x"}) for _ in range(55)))
    statuses = sorted(status for status, _, _ in answers)
    assert statuses.count(200) == 50 and statuses.count(429) == 5
    assert fake.traffic.rate_limited == {"global": 5}
