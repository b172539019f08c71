"""Discord's rate limits in the fake, as Discord documents them (its "Rate Limits" page).

**The global limit.** A bot may make ``global_per_second`` (50) requests a second in all,
whichever process or shard makes them: one fake is one token, so every client connected to it
shares them. Interaction endpoints are not bound to it (``POST /interactions/{id}/{token}/
callback`` and everything under ``/webhooks/{application_id}/{interaction_token}``). Past it:
429 with ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global`` and a body whose
``global`` is true; discord.py then holds every request it has not sent yet for
``retry_after``. The fake counts them a second at a time as buckets are counted (a second
starts with the first call after the last one ended): 50 in a second, then 429s until it ends,
whose ``retry_after`` is the rest of it.

**Per-route buckets**, shared per top-level resource (the channel, the guild, or the webhook id
with its token, whichever the path names first), announced on every answer, errors included:
``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds), ``-Reset-After`` (seconds)
and ``-Bucket`` (one opaque hash for every route that shares the limit). discord.py reads them
and waits when ``Remaining`` reaches 0, so they are exact: a bucket's window starts with its
first call and ``Reset-After`` says when it ends. Past it: 429, ``X-RateLimit-Scope: user``.
The figures Discord does not document but everyone observes: 5 message posts per 5 s per
channel, 5 message deletes per 1 s per channel (:data:`ROUTE_BUCKETS`). Others are this fake's
assumptions, each said where it is defined; a route without one gets a bucket of its own that
the global limit binds first (50 a second).

**Invalid requests** (401, 403, and 429 but those of scope ``shared``): 10,000 in 10 minutes
get the bot's IP banned by Cloudflare for about an hour; meanwhile every request, interaction
callbacks included, gets Cloudflare's 429 (error 1015): an HTML page without Discord's JSON
body, ``Via`` or rate limit headers, which discord.py takes for a ban and raises as
``HTTPException`` (status 429) without retrying.

Time is the fake's clock (:class:`~tests.fakediscord.clock.FakeClock`): a test moves it
forward past a bucket's window, the 10 minutes or the hour instead of sleeping. (Clients sleep
on their own clocks: moving the fake's forward lets them in sooner, never later.)

Switches, per fake (:class:`RateLimits`, ``FakeDiscord(limits=...)`` or ``fake.limits.<knob> =
...``): ``enabled`` (all of it), ``global_per_second``, ``per_channel`` (the per-route buckets:
off, each still announces itself, as a bucket no bot can empty), ``invalid_ban``; and, off by
default, ``shared_threads`` (the hidden limit reported on starting threads). A test that plays
games at machine speed in one thread may turn ``per_channel`` off; the limits themselves are
tested in ``test_ratelimits.py``. ``fake.traffic`` counts what the calls came to.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from tests.fakediscord.clock import FakeClock

Scope = Literal["user", "global", "shared"]
"""``X-RateLimit-Scope`` of a 429: the bot's own per-route limit, its global limit, or a limit
of the resource shared with everyone (only these do not count as invalid requests)."""

INTERACTION_ROUTES: Final = ("POST /interactions/", "/webhooks/")
"""Routes (``METHOD /path``, or any method for ``/webhooks/``) of interactions: answered with
the interaction's token, and not bound to the global limit."""


@dataclass(frozen=True, slots=True)
class Bucket:
    """``limit`` calls per ``per`` seconds, counted for each top-level resource apart."""

    name: str
    limit: int
    per: float

    @property
    def hash(self) -> str:
        """``X-RateLimit-Bucket``: opaque as Discord's, the same for the routes that share it."""
        return hashlib.sha256(self.name.encode()).hexdigest()[:32]


MESSAGE_CREATE: Final = Bucket("message create", 5, 5.0)
"""POST /channels/{id}/messages: 5 per 5 s per channel, as observed (DMs are channels too)."""
MESSAGE_DELETE: Final = Bucket("message delete", 5, 1.0)
"""DELETE /channels/{id}/messages/{id}: 5 per second per channel, as observed."""
MESSAGE_EDIT: Final = Bucket("message edit", 5, 5.0)
"""PATCH /channels/{id}/messages/{id}: assumed as posts (nothing documented)."""
THREAD_CREATE: Final = Bucket("thread create", 5, 10.0)
"""Starting a thread (from a message, or without one): Discord documents no figure and none is
commonly reported, so this fake assumes 5 per 10 s per parent channel, one bucket for both
routes. A bot that opens a thread per game meets it when many games start in one channel.
What is reported besides: after rapid thread starts in one channel, 429s of scope ``shared``
whose ``retry_after`` is minutes (219 s, 260 s, 280 s; discord/discord-api-docs#7816, and bots'
issue trackers), from a limit no header announces and whose count nobody gives:
:attr:`RateLimits.shared_threads` models it when a test sets one."""
THREAD_ROUTES: Final = frozenset(
    {
        "POST /channels/{channel_id}/messages/{message_id}/threads",
        "POST /channels/{channel_id}/threads",
    }
)
"""Starting a thread, from a message or without one."""
INTERACTION_WEBHOOK: Final = Bucket("interaction webhook", 5, 2.0)
"""Followups, and reading, editing and deleting an interaction's messages, per token: 5 per 2 s,
what webhooks are observed to allow (assumed for interaction tokens)."""
DEFAULT_LIMIT: Final = 50
"""A route without a bucket of its own: as many a second as the global limit allows."""
UNBOUNDED: Final = 1_000_000
"""What a bucket announces with the per-route limits off: more than any test makes."""

ROUTE_BUCKETS: Final[Mapping[str, Bucket]] = {
    "POST /channels/{channel_id}/messages": MESSAGE_CREATE,
    "DELETE /channels/{channel_id}/messages/{message_id}": MESSAGE_DELETE,
    "PATCH /channels/{channel_id}/messages/{message_id}": MESSAGE_EDIT,
    **dict.fromkeys(THREAD_ROUTES, THREAD_CREATE),
    "POST /webhooks/{app_id}/{token}": INTERACTION_WEBHOOK,
    "GET /webhooks/{app_id}/{token}/messages/{message_id}": INTERACTION_WEBHOOK,
    "PATCH /webhooks/{app_id}/{token}/messages/{message_id}": INTERACTION_WEBHOOK,
    "DELETE /webhooks/{app_id}/{token}/messages/{message_id}": INTERACTION_WEBHOOK,
}
"""Each route's bucket, by ``METHOD /template`` (the fake's route templates, without /api/v10)."""


@dataclass
class RateLimits:
    """Which of Discord's limits a fake enforces, and their figures: Discord's by default."""

    enabled: bool = True
    """Off: nothing is limited (buckets still announce themselves, unbounded)."""
    global_per_second: int = 50
    """Requests a second for the whole token (0: no global limit)."""
    per_channel: bool = True
    """The per-route buckets (per channel, guild or webhook), e.g. 5 posts per 5 s a channel."""
    invalid_ban: bool = True
    """Ban the bot's IP after ``invalid_requests`` invalid requests in ``invalid_window`` s."""
    invalid_requests: int = 10_000
    invalid_window: float = 600.0
    ban_seconds: float = 3600.0
    buckets: Mapping[str, Bucket] = field(default_factory=dict)
    """Other figures for some routes (by ``METHOD /template``), over :data:`ROUTE_BUCKETS`."""
    shared_threads: tuple[int, float] | None = None
    """``(count, seconds)``: the hidden limit on starting threads in one channel (see
    :data:`THREAD_CREATE`), answered with 429s of scope ``shared`` until its window ends, the
    headers still showing the announced bucket's room. Off by default: its figures are not
    known (e.g. ``(10, 300.0)``: ten in five minutes)."""

    def bucket(self, route: str) -> Bucket:
        found = self.buckets.get(route) or ROUTE_BUCKETS.get(route)
        return found if found is not None else Bucket(route, DEFAULT_LIMIT, 1.0)


@dataclass(frozen=True, slots=True)
class Call:
    """A REST call as the limits see it: its route and its top-level resource."""

    route: str
    """``METHOD /template``, e.g. ``POST /channels/{channel_id}/messages``."""
    resource: str
    """The channel or guild id, ``webhook id+token``, or ``""`` (a route without one)."""

    @property
    def interaction(self) -> bool:
        """An interaction endpoint: not bound to the global limit."""
        callback, webhooks = INTERACTION_ROUTES
        return self.route.startswith(callback) or self.route.partition(" ")[2].startswith(webhooks)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A 429 of Discord's: its scope, how long to wait, and its headers."""

    scope: Scope
    retry_after: float
    headers: Mapping[str, str]

    @property
    def is_global(self) -> bool:
        return self.scope == "global"

    def body(self) -> dict[str, object]:
        message = (
            "The resource is being rate limited."
            if self.scope == "shared"
            else "You are being rate limited."
        )
        return {"message": message, "retry_after": self.retry_after, "global": self.is_global}


@dataclass(frozen=True, slots=True)
class Admission:
    """The limits' verdict on a call: the headers its answer carries, or its 429."""

    headers: Mapping[str, str]
    refusal: Refusal | None = None


def seconds_up(seconds: float) -> float:
    """Seconds to the millisecond, rounded up: a client that waits that long is never early."""
    return max(math.ceil(seconds * 1000 - 1e-6) / 1000, 0.001)


def refusal_headers(scope: Scope, retry_after: float, route: Mapping[str, str]) -> dict[str, str]:
    """A 429's headers: the route's (none for the global limit), ``Retry-After`` in whole
    seconds, the scope; and ``Via``, which discord.py reads as "from Discord, not Cloudflare"."""
    headers = {
        **route,
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
    if scope == "global":
        headers["X-RateLimit-Global"] = "true"
    return headers


@dataclass(slots=True)
class _Window:
    used: int = 0
    resets_at: float = 0.0


@dataclass(frozen=True, slots=True)
class TrafficSnapshot:
    """The counters of :class:`RestTraffic` at one moment; ``later - earlier`` is a phase's."""

    total: int
    global_counted: int
    calls: Mapping[str, int]
    rate_limited: Mapping[str, int]
    limited_routes: Mapping[str, int]
    banned: int
    invalid: int

    def __sub__(self, earlier: TrafficSnapshot) -> TrafficSnapshot:
        return TrafficSnapshot(
            total=self.total - earlier.total,
            global_counted=self.global_counted - earlier.global_counted,
            calls={k: v - earlier.calls.get(k, 0) for k, v in self.calls.items()},
            rate_limited={
                k: v - earlier.rate_limited.get(k, 0) for k, v in self.rate_limited.items()
            },
            limited_routes={
                k: v - earlier.limited_routes.get(k, 0) for k, v in self.limited_routes.items()
            },
            banned=self.banned - earlier.banned,
            invalid=self.invalid - earlier.invalid,
        )


class RestTraffic:
    """What the bot's REST calls came to: counters for tests and benchmarks (``world.traffic``)."""

    def __init__(self, clock: FakeClock, limits: RateLimits) -> None:
        self._clock = clock
        self._limits = limits
        self.total = 0
        """Every REST call (interactions' included)."""
        self.global_counted = 0
        """Calls the global limit counts: all but the interaction endpoints."""
        self.calls: Counter[str] = Counter()
        """Calls by route (``METHOD /template``)."""
        self.rate_limited: Counter[str] = Counter()
        """429s of Discord's by scope: ``user``, ``global``, ``shared``."""
        self.limited_routes: Counter[str] = Counter()
        """The same 429s by route."""
        self.banned = 0
        """Calls refused by Cloudflare's ban."""
        self.invalid_total = 0
        """Invalid requests (401, 403, 429 not ``shared``) in all."""
        self.invalid_peak = 0
        """The most invalid requests there were in one window (``invalid_window``: 10 min)."""
        self._invalid: deque[float] = deque()

    def refused(self, scope: Scope, route: str) -> None:
        """Count a 429 of Discord's."""
        self.rate_limited[scope] += 1
        self.limited_routes[route] += 1

    def invalid_recent(self) -> int:
        """Invalid requests in the last ``invalid_window`` (10 minutes)."""
        self._forget(self._clock.now())
        return len(self._invalid)

    def note_invalid(self) -> int:
        """Count one invalid request now; how many the last window holds."""
        now = self._clock.now()
        self._forget(now)
        self._invalid.append(now)
        self.invalid_total += 1
        self.invalid_peak = max(self.invalid_peak, len(self._invalid))
        return len(self._invalid)

    def _forget(self, now: float) -> None:
        while self._invalid and self._invalid[0] <= now - self._limits.invalid_window:
            self._invalid.popleft()

    def snapshot(self) -> TrafficSnapshot:
        return TrafficSnapshot(
            total=self.total,
            global_counted=self.global_counted,
            calls=dict(self.calls),
            rate_limited=dict(self.rate_limited),
            limited_routes=dict(self.limited_routes),
            banned=self.banned,
            invalid=self.invalid_total,
        )


class RateLimiter:
    """Applies :class:`RateLimits` to each call, on the fake's clock (``world.limiter``)."""

    def __init__(self, limits: RateLimits, clock: FakeClock, traffic: RestTraffic) -> None:
        self.limits = limits
        self._clock = clock
        self.traffic = traffic
        self._global = _Window()
        """The global limit's second: it starts with the first call after the one before."""
        self._windows: dict[tuple[str, str], _Window] = {}
        self.banned_until: float | None = None

    # -- Cloudflare's ban -------------------------------------------------------------------------

    def banned(self) -> bool:
        """Whether the bot's IP is banned now (then every call is refused)."""
        if self.banned_until is None:
            return False
        if self._clock.now() >= self.banned_until:
            self.banned_until = None
            return False
        return True

    def answered(self, status: int, scope: str | None) -> None:
        """Note an answer's status (and a 429's scope): invalid ones count towards the ban."""
        if status not in (401, 403, 429) or scope in ("shared", "ban"):
            return
        recent = self.traffic.note_invalid()
        limits = self.limits
        if (
            limits.enabled
            and limits.invalid_ban
            and recent >= limits.invalid_requests
            and self.banned_until is None
        ):
            self.banned_until = self._clock.now() + limits.ban_seconds

    # -- the global limit and the buckets ---------------------------------------------------------

    def count(self, call: Call) -> None:
        self.traffic.total += 1
        self.traffic.calls[call.route] += 1
        if not call.interaction:
            self.traffic.global_counted += 1

    def admit(self, call: Call) -> Admission:
        """Take ``call`` through the global limit, then its bucket: the headers its answer
        carries, or why it is refused (a 429's scope, wait and headers)."""
        limits = self.limits
        now = self._clock.now()
        bucket = limits.bucket(call.route)
        unbounded = not limits.enabled or not limits.per_channel
        if limits.enabled and limits.global_per_second > 0 and not call.interaction:
            second = self._global
            if now >= second.resets_at:
                second.used, second.resets_at = 0, now + 1.0
            if second.used >= limits.global_per_second:
                wait = seconds_up(second.resets_at - now)
                return self._refuse(call, "global", wait, {})
            second.used += 1
        if unbounded:
            return Admission(self._unbounded(bucket))
        window = self._windows.setdefault((bucket.hash, call.resource), _Window())
        if now >= window.resets_at:
            window.used, window.resets_at = 0, now + bucket.per
        reset_after = seconds_up(window.resets_at - now)
        if window.used >= bucket.limit:
            return self._refuse(call, "user", reset_after, self._headers(bucket, 0, reset_after))
        if limits.shared_threads is not None and call.route in THREAD_ROUTES:
            count, seconds = limits.shared_threads
            burst = self._windows.setdefault(("shared thread starts", call.resource), _Window())
            if now >= burst.resets_at:
                burst.used, burst.resets_at = 0, now + seconds
            if burst.used >= count:
                room = self._headers(bucket, bucket.limit - window.used, reset_after)
                return self._refuse(call, "shared", seconds_up(burst.resets_at - now), room)
            burst.used += 1
        window.used += 1
        return Admission(self._headers(bucket, bucket.limit - window.used, reset_after))

    def _refuse(self, call: Call, scope: Scope, wait: float, route: Mapping[str, str]) -> Admission:
        self.traffic.refused(scope, call.route)
        return Admission({}, Refusal(scope, wait, refusal_headers(scope, wait, route)))

    def _headers(self, bucket: Bucket, remaining: int, reset_after: float) -> dict[str, str]:
        reset = self._clock.utcnow().timestamp() + reset_after
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{reset:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }

    def _unbounded(self, bucket: Bucket) -> dict[str, str]:
        return self._headers(Bucket(bucket.name, UNBOUNDED, 1.0), UNBOUNDED - 1, 1.0)
