"""A fixed script of ordinary games (one place each, no homes) whose every announcement is
written to the outbox and delivered: what the outbox rows and the posts made from them are,
as plain data. ``tests/bot/data/ordinary_outbox.json`` holds what the script gave before games
could have two homes; tests/bot/games/test_outbox_homes.py checks that it still gives exactly
that (``python -m tests.bot.games.ordinary_outbox`` writes the file anew: only on purpose).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import rules
from bot.exts.clocks.announcements import Announcements
from bot.games.clocks.announcements import REMINDER, VACATION
from bot.games.core.models import Game
from bot.games.core.timecontrol import DaysPerMove
from bot.games.service import GameService
from bot.i18n import Catalogues, Text
from bot.posting import outbox as posting
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import GamePost, Players
from bot.storage import Store, open_database
from tests.bot.clock import ManualClock
from tests.bot.games.test_service import ALICE, BOB, CAROL, start_game

GOLDEN = Path(__file__).parents[1] / "data" / "ordinary_outbox.json"
ROUTE = "1234:5678:the-command-s-token"
COLUMNS = (
    "id, kind, user_id, game_id, payload, created_at, sent_at, attempts, claimed_by, "
    "leased_until, message_id, answer"
)
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def english(text: Text | str) -> str:
    return text if isinstance(text, str) else text.english()


def post_data(post: GamePost) -> dict[str, Any]:
    return {
        "title": english(post.title),
        "lines": [english(line) for line in post.lines],
        "content": [english(line) for line in post.content],
        "ping": list(post.ping),
        "turn_ping": post.turn_ping,
        "footer": None if post.footer is None else english(post.footer),
        "ending": None if post.ending is None else english(post.ending.headline),
        "last_move": None if post.last_move is None else str(post.last_move),
    }


def place(game: Game) -> dict[str, Any]:
    return {
        "game": game.id,
        "guild": game.guild_id,
        "channel": game.channel_id,
        "parent": game.parent_channel_id,
        "private": game.private,
        "lost": game.channel_lost_at is not None,
    }


@dataclass(frozen=True)
class Message:
    id: int
    answered: bool


class Names:
    async def get(self, user_id: int) -> str:
        return NAMES.get(user_id, f"#{user_id}")


class Recorder:
    """The publisher's calls the deliverer and the clocks' handlers make, recorded."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.calls: list[dict[str, Any]] = []
        self.names = Names()
        self.catalogues = Catalogues()

    def _message(self, nonce: str | None, answered: bool = False) -> Message:
        """The message a post makes: its id told by its row (lanes post side by side, in an
        order of their own)."""
        row = (nonce or "").removeprefix("dvonn-")
        number = int(row) if row.isdigit() else 99_999
        return Message(id=100_000 + number, answered=answered)

    async def game(self, game_id: int) -> Game:
        return await self.service.get_game(game_id)

    async def players(self, game: Game) -> Players:
        return Players(white=await self.names.get(game.white_id), black=NAMES[game.black_id])

    async def opponent_name(self, game: Game, user_id: int) -> str:
        """As the publisher names an ordinary game's opponent (a network game's: never here)."""
        assert not game.network
        return await self.names.get(game.opponent_of(user_id))

    async def send_to_game(
        self,
        game: Game,
        post: GamePost,
        *,
        players: Players | None = None,
        nonce: str | None = None,
        answer: Any = None,
        answered: str | None = None,
    ) -> Message:
        message = self._message(nonce, answered is not None)
        self.calls.append(
            {
                "call": "send_to_game",
                **place(game),
                "post": post_data(post),
                "players": None if players is None else list(players.as_tuple()),
                "nonce": nonce,
                "answered": answered,
                "message": message.id,
            }
        )
        return message

    async def delete_post(self, game: Game, message_id: int, *, answered: str | None) -> None:
        self.calls.append(
            {"call": "delete_post", **place(game), "message_id": message_id, "answered": answered}
        )

    async def send_text(
        self,
        game: Game,
        content: str,
        *,
        ping: tuple[int, ...] = (),
        silent: bool = False,
        nonce: str | None = None,
    ) -> Message:
        message = self._message(nonce)
        self.calls.append(
            {
                "call": "send_text",
                **place(game),
                "content": content,
                "ping": list(ping),
                "nonce": nonce,
                "message": message.id,
            }
        )
        return message

    async def direct_message(
        self, user_id: int, content: str, *, nonce: str | None = None
    ) -> Message:
        message = self._message(nonce)
        self.calls.append(
            {
                "call": "direct_message",
                "user": user_id,
                "content": content,
                "nonce": nonce,
                "message": message.id,
            }
        )
        return message

    async def public_reader(self, guild_id: int | None, interaction: Any = None) -> Reader:
        return Reader(self.catalogues, None)

    def reader(self, locale: Any) -> Reader:
        return Reader(self.catalogues, locale)


def deliverer(service: GameService, recorder: Recorder) -> Deliverer:
    publisher = cast(Publisher, recorder)
    made = Deliverer(service, publisher)
    announcements = Announcements(service, publisher)
    made.handle(REMINDER, announcements.reminder)
    made.handle(VACATION, announcements.vacation)
    return made


async def deliver(service: GameService, made: Deliverer, clock: ManualClock) -> None:
    """Post all that is claimable, until nothing is left (the writer's claims run out)."""
    clock.advance(service.outbox.lease * 2)
    while await made.deliver_pending():
        pass
    await made.close(60)  # the lanes kicked after an ending, if any still run
    await service.outbox.flush()


def _pick(position: rules.Position, rng: random.Random) -> rules.Move:
    return rng.choice([m for m in rules.legal_moves(position) if m != rules.PASS])


def _move(game: Game, rng: random.Random) -> rules.Move:
    return _pick(game.position, rng)


async def play_script(
    service: GameService, clock: ManualClock, stage: Callable[[], Awaitable[None]]
) -> None:
    """Every kind of announcement a game writes, in a few games of one place each; ``stage``
    (delivering what was written, say) between the games and before a game's last act."""
    rng = random.Random(41)
    # 1. A whole game to its end, some moves answered through a command's route, a takeback
    #    accepted, and a reply planned and played at once.
    game = await start_game(service, channel=101, clock_days=3)
    planned = takeback = False
    while game.is_active:
        assert game.to_move_id is not None
        mover = game.to_move_id
        ply = game.position.ply
        if not planned and ply >= 60 and mover == ALICE:
            expected = _pick(game.position, rng)
            after = rules.play(game.position, expected)
            if after.turn is rules.Colour.BLACK and not rules.is_over(after):
                await service.plans.plan(game.id, BOB, [expected, _pick(after, rng)])
                game = (await service.play(game.id, ALICE, expected)).game
                planned = True
                continue
        answer = ROUTE if ply % 5 == 0 else None
        outcome = await service.play(game.id, mover, _move(game, rng), answer=answer)
        game = outcome.game
        if not takeback and ply >= 55 and game.is_active:
            await service.takebacks.request(game.id, mover)
            await service.takebacks.answer(game.id, game.opponent_of(mover), accept=True)
            game = await service.get_game(game.id)
            takeback = True
    await stage()
    # 2. A vacation told to the opponent, then a resignation.
    game = await start_game(service, channel=102, clock_days=2)
    for _ in range(3):
        assert game.to_move_id is not None
        game = (await service.play(game.id, game.to_move_id, _move(game, rng))).game
    await service.clocks.start_vacation(game.to_move_id or 0, 2)
    await stage()
    await service.resign(game.id, ALICE)
    await stage()
    # 3. Lost on time, with a reminder before.
    game = await start_game(service, ALICE, CAROL, channel=103, clock=DaysPerMove(1))
    clock.advance(timedelta(hours=20))
    await service.sweep()
    await stage()
    clock.advance(timedelta(days=1))
    await service.sweep()
    await stage()
    # 4. Aborted by agreement, and 5. a channel lost.
    game = await start_game(service, BOB, CAROL, channel=104)
    await service.abort(game.id, BOB)
    await service.abort(game.id, CAROL)
    await stage()
    game = await start_game(service, CAROL, ALICE, channel=105)
    game = (await service.play(game.id, CAROL, _move(game, rng))).game
    await service.lose_channel(game.id)


def _row(row: Any, claimants: dict[str, str]) -> dict[str, Any]:
    values = dict(zip([c.strip() for c in COLUMNS.split(",")], tuple(row), strict=True))
    values["payload"] = json.loads(values["payload"])
    claimed = values["claimed_by"]
    if claimed is not None:
        values["claimed_by"] = claimants.setdefault(claimed, f"process-{len(claimants) + 1}")
    return values


async def rows(service: GameService, claimants: dict[str, str]) -> list[dict[str, Any]]:
    found = await service.store.db.fetch_all(f"SELECT {COLUMNS} FROM notifications ORDER BY id")
    return [_row(row, claimants) for row in found]


async def run(service: GameService, clock: ManualClock) -> dict[str, Any]:
    """The script's outbox rows as written (each stage's, before it is delivered), the posts
    made from them, and all the rows at the end."""
    claimants: dict[str, str] = {}
    written: list[dict[str, Any]] = []
    recorder = Recorder(service)
    made = deliverer(service, recorder)

    async def stage() -> None:
        seen = {row["id"] for row in written}
        written.extend(r for r in await rows(service, claimants) if r["id"] not in seen)
        await deliver(service, made, clock)

    # A post made as a command's answer is told by the stand-in's messages themselves.
    names = vars(posting)
    original = names["is_answer"]
    names["is_answer"] = lambda message: bool(getattr(message, "answered", False))
    try:
        await play_script(service, clock, stage)
        await stage()
    finally:
        names["is_answer"] = original
    # Each game's posts in the order made (one lane a game); the rest by row.
    posts = sorted(
        recorder.calls,
        key=lambda c: (c.get("game", 0), str(c.get("nonce", "")) if "game" not in c else ""),
    )
    return {"written": written, "posts": posts, "delivered": await rows(service, claimants)}


async def _main(target: Path) -> None:
    with tempfile.TemporaryDirectory() as directory:
        clock = ManualClock()
        database = await open_database(str(Path(directory) / "script.sqlite3"))
        service = GameService(Store(database), clock=clock, rng=random.Random(7))
        try:
            found = await run(service, clock)
        finally:
            await service.close()
    target.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(_main(Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN))
