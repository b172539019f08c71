"""Incidents reach the owner: by a webhook and by DM, rate-limited, without private data."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from aiohttp import web

from bot.config import Secret
from bot.i18n import _
from bot.incidents import PER_HOUR, IncidentReporter
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said_pattern


async def test_an_incident_is_sent_to_the_webhook_and_the_owner(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    received: list[dict[str, Any]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append(await request.json())
        return web.Response(status=204)

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    owner = fake.add_user("owner", table.guild)
    bot_runner.settings = dataclasses.replace(
        bot_runner.settings,
        incident_webhook=Secret(f"http://127.0.0.1:{port}/hook"),
        owner_id=owner.id,
    )
    try:
        async with bot_runner.run() as bot:

            async def broken(user_id: int) -> list[object]:
                raise RuntimeError("a bug, with a user's secret in it")

            monkeypatch.setattr(bot.service, "active_games", broken)
            answer = await fake.run_command(table.alice, table.games, "dvonn games")
            sorry = _(
                "Sorry, something went wrong on our side (incident {incident}). Nothing you did "
                "was lost; please try again, and quote the incident if it happens again."
            )
            found = said_pattern(sorry).search(answer.content)
            assert found is not None, answer.content
            incident = found["incident"]
            await fake.wait_until(lambda: received, what="the webhook's note")
            dms = await fake.wait_until(
                lambda: [
                    m
                    for m in fake.world.messages.values()
                    if m.channel_id != table.games.id
                    and incident in m.content
                    and m.author_id == fake.world.bot.id
                ],
                what="the owner's DM",
            )
    finally:
        await runner.cleanup()
    note = received[0]["content"]
    assert incident in note and "/dvonn games" in note and "RuntimeError" in note
    for text in (note, dms[0].content):
        assert "secret" not in text and str(table.alice.id) not in text and "alice" not in text


async def test_incident_notes_are_rate_limited_and_say_how_many_were_held() -> None:
    sent: list[str] = []
    now = [0.0]

    async def send(note: str) -> None:
        sent.append(note)

    reporter = IncidentReporter([send], clock=lambda: now[0])
    for number in range(PER_HOUR + 3):
        reporter.report(f"i{number}", "/dvonn move", ValueError())
    await reporter.close()
    assert len(sent) == PER_HOUR
    now[0] = 3601.0
    reporter.report("later", "/dvonn move", ValueError())
    await reporter.close()
    assert len(sent) == PER_HOUR + 1 and "3 more" in sent[-1]
