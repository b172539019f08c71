"""Health and metrics over HTTP, for the operator: ``/healthz`` and ``/metrics``.

Optional: served only when ``DVONN_HTTP_PORT`` is set (on ``DVONN_HTTP_HOST``, 127.0.0.1 by
default: put a reverse proxy or the container's port mapping in front to expose it).

* ``/healthz`` answers 200 when the gateway is connected, the database answers and the outbox
  keeps up (its oldest unsent post is younger than :data:`MAX_OUTBOX_LAG`), else 503; the body
  says which, as JSON.
* ``/metrics`` is Prometheus' text format (``prometheus-client``): interactions by command and
  outcome, their latency, the outbox's lag, the games running, the computer opponent's queue,
  board render times.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

log = logging.getLogger(__name__)

MAX_OUTBOX_LAG: Final = 300.0
"""Seconds the oldest unsent post may wait before the bot counts as unhealthy."""
LATENCY_BUCKETS: Final = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """The bot's metrics, in a registry of its own (so that two bots in one process, as in
    tests, do not share them)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._interactions = Counter(
            "dvonn_interactions",
            "Interactions handled, by command (or button) and outcome.",
            ["command", "outcome"],
            registry=self.registry,
        )
        self._latency = Histogram(
            "dvonn_interaction_seconds",
            "From the interaction's creation on Discord until the bot finished it.",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.render_seconds = Histogram(
            "dvonn_render_seconds",
            "Time to draw a board image.",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.outbox_lag = Gauge(
            "dvonn_outbox_lag_seconds",
            "Age of the oldest post not delivered yet (0: none waits).",
            registry=self.registry,
        )
        self.games_running = Gauge(
            "dvonn_games_running", "Games being played.", registry=self.registry
        )
        self.computer_queue = Gauge(
            "dvonn_computer_queue",
            "Requests waiting for the engine's workers: the computer opponent's moves, hints "
            "and reviews' searches.",
            registry=self.registry,
        )

    def interaction(self, command: str, outcome: str, seconds: float) -> None:
        """Count one interaction: ``outcome`` is ``ok``, ``refused`` (the user's mistake,
        answered) or ``failed`` (a bug: an incident)."""
        self._interactions.labels(command=command, outcome=outcome).inc()
        self._latency.observe(max(0.0, seconds))


@dataclass(frozen=True, slots=True)
class Probes:
    """What the health check asks, and what refreshes the gauges before a scrape."""

    gateway_connected: Callable[[], bool]
    database_read: Callable[[], Awaitable[object]]
    """Any read: the database answers when it returns, not when it raises."""
    outbox_lag: Callable[[], Awaitable[float]]
    refresh: Callable[[], Awaitable[None]]


class MonitoringServer:
    """``/healthz`` and ``/metrics`` on one port."""

    def __init__(self, metrics: Metrics, probes: Probes) -> None:
        self._metrics = metrics
        self._probes = probes
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port); returns the port."""
        app = web.Application()
        app.router.add_get("/healthz", self._health)
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        listening = socket.create_server((host, port))
        await web.SockSite(self._runner, listening).start()
        bound = int(listening.getsockname()[1])
        log.info("health and metrics on http://%s:%d/", host, bound)
        return bound

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, request: web.Request) -> web.Response:
        started = time.perf_counter()
        try:
            await self._probes.database_read()
            database = True
        except Exception:
            log.exception("the health check could not read the database")
            database = False
        lag = await self._probes.outbox_lag() if database else float("inf")
        report = {
            "gateway": self._probes.gateway_connected(),
            "database": database,
            "outbox_lag_seconds": round(lag, 3),
            "checked_in_seconds": round(time.perf_counter() - started, 4),
        }
        healthy = bool(report["gateway"]) and database and lag < MAX_OUTBOX_LAG
        return web.json_response(report, status=200 if healthy else 503)

    async def _scrape(self, request: web.Request) -> web.Response:
        await self._probes.refresh()
        body = generate_latest(self._metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
