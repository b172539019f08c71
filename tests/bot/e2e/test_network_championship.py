"""``/network championship`` through the fake Discord with the real discord.py client, on each
backend: entering by the Enter button and the option (network players only), the refusals
answered privately, the first season begun by the clock, the standings image public in the
network channel and private elsewhere, the division autocomplete, withdrawing.

The bot runs with the network on, so ``/network`` is the product's own group."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from bot.app import DvonnBot
from bot.exts.network.championship import CHAMPIONSHIP, ENTER_ID
from bot.games.service import GameService
from bot.games.tournaments.errors import ChampionshipMembersOnly, NoSuchDivision
from bot.i18n import _, n_
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said, said_pattern

FIRST_SEASON = timedelta(days=1)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def bot(bot_runner: BotRunner, clock: ManualClock) -> AsyncIterator[DvonnBot]:
    bot_runner.settings = dataclasses.replace(bot_runner.settings, network=True)  # /network
    service = await GameService.open(
        bot_runner.database,
        clock=clock,
        network=True,
        network_clock="days:3",
        network_season_start=clock() + FIRST_SEASON,
    )
    async with bot_runner.run(service=service, clock=clock, housekeeping_interval=0) as started:
        yield started


def files_of(result: Any) -> list[str]:
    return [f.filename for f in result.files]


async def test_entering_standings_and_withdrawing(
    bot: DvonnBot, table: Table, clock: ManualClock
) -> None:
    fake, service = table.fake, bot.service
    network = table.guild.add_text_channel("network")
    await service.network.set_channel(table.guild.id, network.id, table.moderator.id)
    for player in (table.alice, table.bob):
        await service.network.join(player.id, player.username, table.guild.id)
    await bot.housekeeping()  # the championship is made

    shown = await fake.run_command(table.alice, network, "network championship")
    assert not shown.ephemeral  # in the network channel: for everyone
    assert said_pattern(
        n_(
            "{name}: {count} player entered; its first season begins {start}.",
            "{name}: {count} players entered; its first season begins {start}.",
            0,
        ),
        name=CHAMPIONSHIP,
        count=0,
    ).fullmatch(shown.content)
    assert shown.message is not None

    entered = await fake.click(table.alice, shown.message, ENTER_ID)
    assert entered.ephemeral
    assert said_pattern(
        n_(
            "You are in the network championship ({count} player): its first season begins "
            "{start}. Your games are played in your network home.",
            "You are in the network championship ({count} players): its first season begins "
            "{start}. Your games are played in your network home.",
            1,
        ),
        count=1,
    ).fullmatch(entered.content)
    by_option = await fake.run_command(
        table.bob, table.games, "network championship", {"enter": True}
    )
    assert by_option.ephemeral and "(2 players)" in by_option.content

    # Not a network player: refused privately; nor both options at once.
    refused = await fake.click(table.carol, shown.message, ENTER_ID)
    assert (
        refused.ephemeral
        and said(ChampionshipMembersOnly, mentions=bot.mentions) in refused.content
    )
    both = await fake.run_command(
        table.bob, network, "network championship", {"enter": True, "withdraw": True}
    )
    assert both.ephemeral and said(_("Choose one: `enter` or `withdraw`.")) in both.content
    await service.network.join(table.carol.id, table.carol.username, None)  # homed in DMs
    await fake.run_command(table.carol, network, "network championship", {"enter": True})

    # The first season begins by the clock; the standings are an image.
    clock.advance(FIRST_SEASON + timedelta(minutes=1))
    await bot.housekeeping()
    public = await fake.run_command(table.bob, network, "network championship")
    assert not public.ephemeral
    assert files_of(public) == ["championship.png"]
    assert public.files[0].data.startswith(b"\x89PNG")
    description = public.files[0].description or ""
    assert all(p.username in description for p in (table.alice, table.bob, table.carol))
    assert (
        said(
            n_(
                "{name}: season {season}, division {division} of {divisions} (level {level}); "
                "{count} player in.",
                "{name}: season {season}, division {division} of {divisions} (level {level}); "
                "{count} players in.",
                3,
            ),
            name=CHAMPIONSHIP,
            season=1,
            division=1,
            divisions=1,
            level=1,
            count=3,
        )
        in public.content
    )
    assert not public.components  # all in: no Enter button
    elsewhere = await fake.run_command(table.bob, table.games, "network championship")
    assert elsewhere.ephemeral and files_of(elsewhere) == ["championship.png"]

    choices = await fake.autocomplete(
        table.bob, network, "network championship", focused="division"
    )
    assert [c.value for c in choices] == [1]
    missing = await fake.run_command(table.bob, network, "network championship", {"division": 4})
    assert missing.ephemeral and said(NoSuchDivision, division=4) in missing.content

    gone = await fake.run_command(table.carol, network, "network championship", {"withdraw": True})
    assert gone.ephemeral
    assert (
        said(
            _(
                "You withdrew from the network championship: your games still to play are lost, "
                "those played count."
            )
        )
        in gone.content
    )
    view = await service.championship.view()
    assert view.players == 2
    after = await fake.run_command(table.carol, network, "network championship")
    assert re.search(r"\b2\b", after.content) and after.components  # Enter offered again
    marked = after.files[0].description or ""
    assert f"{table.carol.username} ({said(_('withdrew'))})" in marked
