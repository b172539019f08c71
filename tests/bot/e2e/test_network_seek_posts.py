"""A seek's own post (where its challenger made it, with Accept and Cancel) once the seek
closes anywhere else: taken from another server's board, called off (its challenger left the
network), expired; edited through the outbox to say so, its buttons removed. Through the fake
Discord with the real discord.py client, on each backend, with a clock moved by hand."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import DvonnBot
from bot.config import Secret, Settings
from bot.exts.network.seek_texts import taken_text
from bot.games.core.errors import ChallengeAlreadyAccepted as ALREADY_TAKEN
from bot.games.network.announcements import SEEK_CLOSED
from bot.i18n import _
from tests.bot.clock import ManualClock
from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import said
from tests.bot.e2e.test_network_games import PICK, board_in, everyone_in, join, take_part
from tests.fakediscord import FakeDiscord, InteractionResult, RecordedMessage
from tests.fakediscord.harness import discord_endpoints, running

CALLED_OFF = _("🌐 {player}'s open network challenge was called off.")
EXPIRED = _("🌐 {player}'s open network challenge expired: nobody accepted it in time.")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def clocked_bot(
    network_tables: NetworkTables, database_target: str, clock: ManualClock
) -> AsyncIterator[DvonnBot]:
    """As :func:`tests.bot.e2e.conftest.network_bot`, on a clock moved by hand, and with the
    housekeeping passes (and the outbox's) made by the test."""
    fake = network_tables.fake
    database: Path | str = (
        database_target if database_target.startswith("postgresql://") else Path(database_target)
    )
    settings = Settings(
        token=Secret(fake.token),
        database=database,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        render_processes=0,
        network=True,
    )
    bot = DvonnBot(settings, sync_commands=True, clock=clock, housekeeping_interval=0)
    with discord_endpoints(fake):
        async with running(bot, fake) as started:
            yield started


def closed(fake: FakeDiscord, message_id: int) -> RecordedMessage | None:
    """The seek's post, once edited without its buttons."""
    message = fake.message(message_id)
    return message if not message.buttons() else None


async def seek_of_ann(tables: NetworkTables) -> InteractionResult:
    """Ann (server A) makes a seek in A's network channel, playing White."""
    seek = await tables.fake.run_command(
        tables.players[0], tables.networks[0], "network challenge", {"colour": "W"}
    )
    assert not seek.ephemeral and seek.message is not None
    assert {b.get("label") for b in seek.message.buttons()} == {
        said(_("Accept")),
        said(_("Cancel")),
    }
    return seek


async def test_a_seek_taken_from_another_server_s_board_says_so_where_it_was_made(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    _ann, bob, cat = tables.players
    await everyone_in(tables)
    seek = await seek_of_ann(tables)
    assert seek.message is not None

    def board_with_ann() -> RecordedMessage | None:
        board = board_in(fake, tables.networks[2])
        return board if board is not None and "Ann" in board.content else None

    board = await fake.wait_until(board_with_ann, what="C's board with the seek", timeout=20)
    assert board is not None
    (challenge,) = await network_bot.service.network.seeks_for(cat.id)
    listed = await fake.run_command(bob, tables.networks[1], "network seeks")
    assert listed.ephemeral and listed.message is not None
    taken = await fake.select(cat, board, PICK, [str(challenge.id)])
    assert taken.ephemeral, taken.content
    edited = await fake.wait_until(
        functools.partial(closed, fake, seek.message.id), what="the seek's post", timeout=10
    )
    assert edited is not None
    game_id = (await network_bot.service.network.lobby.challenge(challenge.id)).game_id
    assert game_id is not None
    assert edited.content == said(taken_text("Cat", game_id, "Ann", "Cat"))
    assert "Cat of C" not in edited.content and edited.pinged_user_ids == set()
    # Bob's pick from his list, made before, is refused privately.
    late = await fake.select(bob, listed.message, PICK, [str(challenge.id)])
    assert late.ephemeral and said(ALREADY_TAKEN) in late.content


async def test_a_seek_whose_challenger_leaves_or_which_expires_says_so(
    network_tables: NetworkTables, clocked_bot: DvonnBot, clock: ManualClock
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann = tables.players[0]
    await take_part(tables, 0)
    await join(tables, ann, tables.networks[0])
    called_off = await seek_of_ann(tables)
    assert called_off.message is not None
    assert (await fake.run_command(ann, tables.generals[0], "network leave")).ephemeral
    await clocked_bot.housekeeping()  # the outbox's rows nobody waits for
    edited = await fake.wait_until(
        functools.partial(closed, fake, called_off.message.id), what="the post", timeout=10
    )
    assert edited is not None
    assert edited.content == said(CALLED_OFF, player="Ann")

    await join(tables, ann, tables.networks[0])
    expiring = await seek_of_ann(tables)
    assert expiring.message is not None
    clock.advance(timedelta(days=60))
    await clocked_bot.housekeeping()  # the seeks expired, and their posts edited
    edited = await fake.wait_until(
        functools.partial(closed, fake, expiring.message.id), what="the post", timeout=10
    )
    assert edited is not None
    assert edited.content == said(EXPIRED, player="Ann")


async def test_a_seek_cancelled_or_taken_on_its_own_post_is_edited_once_by_the_tap(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """The tap's answer edits the post: no row of the outbox edits it again."""
    tables, fake = network_tables, network_tables.fake
    ann = tables.players[0]
    eve = tables.eve
    await take_part(tables, 0)
    await join(tables, ann, tables.networks[0])
    await join(tables, eve, tables.networks[0])
    cancelled = await seek_of_ann(tables)
    assert cancelled.message is not None
    await fake.click(ann, cancelled.message, label=said(_("Cancel")))
    assert fake.message(cancelled.message.id).buttons() == []
    taken = await seek_of_ann(tables)
    assert taken.message is not None
    await fake.click(eve, taken.message, label=said(_("Accept")))
    assert fake.message(taken.message.id).buttons() == []
    assert said(_("{player} cancelled the network challenge."), player="Ann") in (
        fake.message(cancelled.message.id).content
    )
    rows = await network_bot.service.outbox.claimable()
    assert [r for r in rows if r.kind == SEEK_CLOSED] == []
