"""The deliverer, with a stand-in for Discord: what a crash at any moment would leave."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import pytest

import rules
from bot.games.service import GameService
from bot.posting import outbox as posting
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher
from bot.posting.texts import GamePost, Players
from bot.storage import Store, open_database
from bot.storage.models import Game
from bot.storage.outbox import OutboxWrites
from tests.bot.games.test_service import ALICE, BOB, start_game

ROUTE = "1234:5678:the-command-s-token"


@dataclass(frozen=True)
class Posted:
    id: int
    answered: bool


class Discord:
    """Posts and deletions, as the publisher would make them; each deletion notes whether the
    row of the deleted post was recorded as sent by then (what a crash there would leave)."""

    def __init__(self, service: GameService, other: Store) -> None:
        self.service = service
        self.other = other
        self.rows_of: dict[int, int] = {}
        """The row each message posted."""
        self.deleted: list[tuple[int, str | None, bool]] = []

    async def game(self, game_id: int) -> Game:
        return await self.service.get_game(game_id)

    async def players(self, game: Game) -> Players:
        return Players(white="Alice", black="Bob")

    async def send_to_game(
        self, game: Game, post: GamePost, *, nonce: str, answered: str | None = None, **_: Any
    ) -> Posted:
        # A row that keeps its command's route is answered by it (as the command's answer).
        message = Posted(id=1000 + len(self.rows_of), answered=answered is not None)
        self.rows_of[message.id] = int(nonce.removeprefix("dvonn-"))
        return message

    async def delete_post(self, game: Game, message_id: int, *, answered: str | None) -> None:
        row = self.rows_of[message_id]
        recorded = await self.other.notification(row) is None  # as another process reads it
        self.deleted.append((message_id, answered, recorded))


def first_placement(game: Game) -> rules.Move:
    return rules.legal_moves(game.position)[0]


@pytest.fixture
async def other(database_target: str) -> AsyncIterator[Store]:
    """The database as another process (the next one, after a crash) reads it."""
    store = Store(await open_database(database_target))
    yield store
    await store.close()


async def test_an_answered_placement_board_is_deleted_only_once_its_row_is_marked(
    service: GameService, other: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The marks of rows posted are recorded in batches after the posts; here each takes long.
    mark_sent = OutboxWrites.mark_sent

    async def slow_mark_sent(self: OutboxWrites, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.2)
        await mark_sent(self, *args, **kwargs)

    monkeypatch.setattr(OutboxWrites, "mark_sent", slow_mark_sent)
    monkeypatch.setattr(posting, "is_answer", lambda message: message.answered)
    game = await start_game(service)
    # White places, answered by the board; Black's placement (the computer's, say) is written
    # before that board is out, so the one lane posts both, one after the other.
    white = await service.play(game.id, ALICE, first_placement(game), answer=ROUTE)
    black = await service.play(game.id, BOB, first_placement(white.game))
    discord = Discord(service, other)
    deliverer = Deliverer(service, cast(Publisher, discord))
    first = await deliverer.announce(white.announcement, game_id=game.id, timeout=10)
    assert isinstance(first, Posted) and first.answered
    second = await deliverer.announce(black.announcement, game_id=game.id, timeout=10)
    assert isinstance(second, Posted) and not second.answered
    # Black's board replaced White's, deleted through the command's route, and only once
    # White's row was recorded as sent: killed there, the next process would otherwise try
    # it again, find the command's answer gone, and post White's board a second time.
    assert discord.deleted == [(first.id, ROUTE, True)]
