"""Games with two homes in the outbox: one row per home for each announcement, claimed and
posted per home; and ordinary games (one place) writing and posting exactly what they did
before homes existed."""

from __future__ import annotations

import json

from bot.games.service import GameService
from tests.bot.clock import ManualClock
from tests.bot.games import ordinary_outbox


async def test_ordinary_games_write_and_post_exactly_what_they_did_before_homes(
    service: GameService, clock: ManualClock
) -> None:
    # Recorded (tests/bot/data/ordinary_outbox.json) by the same script before the outbox
    # knew homes: every row of a whole game's announcements (and of the other games' kinds),
    # as written and once delivered, and every post made from them.
    before = json.loads(ordinary_outbox.GOLDEN.read_text(encoding="utf-8"))
    now = await ordinary_outbox.run(service, clock)
    assert len(now["written"]) == len(before["written"]) == 102
    assert now["written"] == before["written"]
    assert now["posts"] == before["posts"]
    assert now["delivered"] == before["delivered"]
