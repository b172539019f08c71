"""Incidents reach the owner: each bug a player ran into (its incident id, the command, the
kind of error) is sent to a Discord webhook (``DVONN_INCIDENT_WEBHOOK``) and/or by DM to the
owner (``DVONN_OWNER_ID``), at most :data:`PER_HOUR` an hour (the rest are counted and said in
the next one). Never the token, never who ran into it or what they typed: the log has the rest,
under the incident id."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Final

import aiohttp

log = logging.getLogger(__name__)

PER_HOUR: Final = 10
Send = Callable[[str], Awaitable[None]]


class IncidentReporter:
    """Sends incident notes through ``senders`` (a webhook, a DM), rate-limited."""

    def __init__(self, senders: list[Send], *, clock: Callable[[], float] = time.monotonic):
        self._senders = senders
        self._clock = clock
        self._sent: deque[float] = deque()
        self._held = 0
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def enabled(self) -> bool:
        return bool(self._senders)

    def report(self, incident: str, where: str, error: BaseException) -> None:
        """Tell the owner of an incident, in the background; never raises."""
        if not self._senders:
            return
        now = self._clock()
        while self._sent and now - self._sent[0] > 3600:
            self._sent.popleft()
        if len(self._sent) >= PER_HOUR:
            self._held += 1
            return
        self._sent.append(now)
        note = f"dvonn-bot incident {incident} in {where}: {type(error).__name__}"
        if self._held:
            note += f" ({self._held} more since the last note were not sent)"
            self._held = 0
        task = asyncio.create_task(self._send(note))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, note: str) -> None:
        for send in self._senders:
            try:
                await send(note)
            except Exception:
                log.warning("could not tell the owner of an incident", exc_info=True)

    async def close(self) -> None:
        await asyncio.gather(*self._tasks, return_exceptions=True)


def webhook(url: str) -> Send:
    """Post notes to a Discord webhook URL (any URL taking Discord's webhook JSON)."""

    async def send(note: str) -> None:
        async with (
            aiohttp.ClientSession() as http,
            http.post(url, json={"content": note, "allowed_mentions": {"parse": []}}) as response,
        ):
            response.raise_for_status()

    return send
