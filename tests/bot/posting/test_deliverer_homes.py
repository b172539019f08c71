"""The deliverer and the publisher posting a network game in its two homes (hand-written
homes: no command makes network games yet), with a stand-in for Discord's channels: each home
gets each post once, pinging only its own player, naming players as they joined the network;
one home's rate limit or refusal never holds back the other."""

from __future__ import annotations

import itertools
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

import rules
from bot.exts.clocks.announcements import Announcements
from bot.games.clocks.announcements import REMINDER, VACATION
from bot.games.service import GameService
from bot.i18n import Catalogues
from bot.posting.answers import Answer
from bot.posting.names import Names
from bot.posting.outbox import Deliverer
from bot.posting.publisher import Publisher
from bot.posting.renderer import Renderer
from bot.storage import Game, HomeSeat, NewHome, NewNotification
from tests.bot.clock import ManualClock
from tests.bot.games.test_outbox_homes import (
    GUILD_A,
    GUILD_B,
    NETWORK_A,
    NETWORK_B,
    ROUTE,
    THREAD_A,
    THREAD_B,
    network_game,
)
from tests.bot.games.test_service import ALICE, BOB, start_game

NICKNAMES = {ALICE: "Ally the Nicknamed", BOB: "Bobby of Server B"}
"""What this process's cache of names holds: server nicknames, never shown across servers."""


@dataclass
class Posted:
    id: int
    channel_id: int
    content: str
    embed: str
    mentions: tuple[int, ...]
    nonce: str
    view: object = None


class Refusal:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"
        self.headers = {"Retry-After": "30"}


@dataclass
class Discord:
    """Channels by id: what was posted and deleted in each; a channel may refuse (403) or
    rate-limit (429) every post for now."""

    posts: list[Posted] = field(default_factory=list)
    deleted: list[tuple[int, int]] = field(default_factory=list)
    refusing: dict[int, int] = field(default_factory=dict)
    before_refusal: Callable[[], Awaitable[None]] | None = None
    """Run once just before a channel refuses (what changed while the post was under way)."""
    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(5000))

    def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Channel:
        return Channel(self, channel_id)

    async def fetch_user(self, user_id: int) -> Any:
        return Closed(user_id)

    def in_channel(self, channel_id: int) -> list[Posted]:
        return [p for p in self.posts if p.channel_id == channel_id]


@dataclass
class Closed:
    """A user whose DMs are closed to the bot."""

    id: int

    async def send(self, *args: Any, **kwargs: Any) -> Any:
        raise discord.Forbidden(cast(Any, Refusal(403)), {"code": 50007, "message": "closed"})


@dataclass
class Channel:
    world: Discord
    id: int

    async def send(
        self,
        content: str | None = None,
        *,
        embed: discord.Embed | None = None,
        allowed_mentions: discord.AllowedMentions | None = None,
        nonce: str | int | None = None,
        view: object = None,
        **_: Any,
    ) -> Posted:
        status = self.world.refusing.get(self.id)
        if status is not None:
            meanwhile, self.world.before_refusal = self.world.before_refusal, None
            if meanwhile is not None:
                await meanwhile()
            error = discord.Forbidden if status == 403 else discord.HTTPException
            raise error(cast(Any, Refusal(status)), {"code": 50001, "message": "no"})
        same = [p for p in self.world.in_channel(self.id) if p.nonce == nonce]
        if same:
            return same[0]  # Discord's nonce: the message made the first time
        users = allowed_mentions.users if allowed_mentions is not None else []
        assert isinstance(users, list)
        text = "" if embed is None else f"{embed.title}\n{embed.description}\n{embed.footer.text}"
        posted = Posted(
            id=next(self.world.ids),
            channel_id=self.id,
            content=content or "",
            embed=text,
            mentions=tuple(user.id for user in users),
            nonce=str(nonce),
            view=view,
        )
        self.world.posts.append(posted)
        return posted

    def get_partial_message(self, message_id: int) -> Message:
        return Message(self, message_id)


@dataclass
class Message:
    channel: Channel
    id: int

    async def delete(self) -> None:
        self.channel.world.deleted.append((self.channel.id, self.id))


class Nicknames:
    async def get(self, user_id: int) -> str:
        return NICKNAMES[user_id]


class Boards:
    async def board_png(self, *args: Any, **kwargs: Any) -> bytes:
        return b"a board"


@dataclass
class Bot:
    discord: Discord
    publisher: Publisher
    deliverer: Deliverer
    lost: list[tuple[int, str]]


@pytest.fixture
async def bot(service: GameService) -> AsyncIterator[Bot]:
    fake = Discord()
    publisher = Publisher(
        cast(discord.Client, fake),
        service,
        names=cast(Names, Nicknames()),
        renderer=cast(Renderer, Boards()),
        catalogues=Catalogues(),
    )
    publisher.end_view = lambda game, reader: cast(discord.ui.View, "Rematch")
    deliverer = Deliverer(service, publisher)
    deliverer.handle(VACATION, Announcements(service, publisher).vacation)
    lost: list[tuple[int, str]] = []

    async def home_lost(game_id: int, home: str, refused: int) -> Iterable[int]:
        lost.append((game_id, home))
        return ()

    deliverer.home_lost = home_lost
    yield Bot(fake, publisher, deliverer, lost)
    await deliverer.close(60)


async def deliver(service: GameService, bot: Bot, clock: ManualClock) -> None:
    """Everything claimable posted (the writer's claims run out first)."""
    clock.advance(service.outbox.lease * 2)
    while await bot.deliverer.deliver_pending():
        pass
    await bot.deliverer.close(60)
    await service.outbox.flush()


async def play_placements(
    service: GameService, bot: Bot, game: Game, count: int, *, wait: float = 30
) -> tuple[Game, list[Posted | None]]:
    """``count`` placements, each announced as its mover's command would (the mover's
    outcome's row, waited for up to ``wait`` seconds)."""
    shown = []
    for _ in range(count):
        assert game.to_move_id is not None
        outcome = await service.play(game.id, game.to_move_id, rules.legal_moves(game.position)[0])
        message = await bot.deliverer.announce(outcome.announcement, game_id=game.id, timeout=wait)
        shown.append(cast(Posted | None, message))
        game = outcome.game
    return game, shown


MENTION = re.compile(r"<@!?(\d+)>")


def mentioned(posts: Iterable[Posted]) -> set[int]:
    return {int(m) for p in posts for m in MENTION.findall(p.content + p.embed)}


async def test_each_home_gets_each_post_once_pinging_only_its_own_player(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)
    game, shown = await play_placements(service, bot, game, 4)
    await deliver(service, bot, clock)
    in_a, in_b = bot.discord.in_channel(THREAD_A), bot.discord.in_channel(THREAD_B)
    assert {p.channel_id for p in bot.discord.posts} == {THREAD_A, THREAD_B}
    assert len(in_a) == len(in_b) == 5  # the start and four turns, once in each home
    nonces = [p.nonce for p in bot.discord.posts]
    assert len(set(nonces)) == len(nonces)  # a row per home: a nonce per home
    rows = {n.id: n for n in await service.store.unsent_notifications(game.id)}
    assert rows == {}  # all sent
    # Each mover saw their own home's board (the row their move returned is White's home's).
    assert all(message is not None for message in shown)
    # Pings and mentions: only the home's own player; the other is named in plain words.
    assert {u for p in in_a for u in p.mentions} == {ALICE}
    assert {u for p in in_b for u in p.mentions} == {BOB}
    assert mentioned(in_a) == {ALICE} and mentioned(in_b) == {BOB}
    assert any("Bob, your turn" in p.content for p in in_a)
    assert any("Alice, your turn" in p.content for p in in_b)
    # Names as the players joined the network, never this process's nicknames.
    for post in bot.discord.posts:
        assert "DVONN #" in post.embed and "Alice (White) vs Bob (Black)" in post.embed
        assert not any(nick in post.content + post.embed for nick in NICKNAMES.values())
    # Each placement board replaced the last one of its own home only.
    for thread, posts in ((THREAD_A, in_a), (THREAD_B, in_b)):
        deleted = [m for channel, m in bot.discord.deleted if channel == thread]
        assert deleted == [p.id for p in posts[1:-1]]  # the turns' boards but the last
    assert {channel for channel, _ in bot.discord.deleted} == {THREAD_A, THREAD_B}


class Interaction:
    """A player's command in their home's thread, whose answer the board may be."""

    def __init__(self, world: Discord, channel_id: int) -> None:
        self.created_at = discord.utils.utcnow()
        self.response = self
        self.world, self.channel_id = world, channel_id
        self.answer: Posted | None = None

    async def send_message(self, **kwargs: Any) -> Any:
        channel = Channel(self.world, self.channel_id)
        self.answer = await channel.send(**kwargs, nonce=f"answer-{id(self)}")
        return SimpleNamespace(resource=None)

    async def original_response(self) -> Posted:
        assert self.answer is not None
        return self.answer


async def test_a_move_is_answered_in_its_mover_s_home_and_posted_in_the_other(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)
    for mover, home, other in ((ALICE, THREAD_A, THREAD_B), (BOB, THREAD_B, THREAD_A)):
        asked = Interaction(bot.discord, home)
        outcome = await service.play(
            game.id, mover, rules.legal_moves(game.position)[0], answer=ROUTE
        )
        game = outcome.game
        shown = await bot.deliverer.announce(
            outcome.announcement,
            game_id=game.id,
            timeout=30,
            answer=Answer(cast(discord.Interaction[Any], asked)),
        )
        assert asked.answer is not None and shown == asked.answer  # the command's answer
        assert asked.answer.channel_id == home
        # It is the mover's home's post: the opponent, called to move, is pinged in theirs.
        assert mentioned([asked.answer]) <= {mover} and asked.answer.mentions == ()
        await deliver(service, bot, clock)
        in_other = bot.discord.in_channel(other)
        assert in_other[-1].nonce.startswith("dvonn-")  # a post of its own there
        assert in_other[-1].mentions == (game.to_move_id,)
        assert in_other[-1].content.startswith(("Alice placed", "Bob placed"))
    assert len(bot.discord.in_channel(THREAD_A)) == len(bot.discord.in_channel(THREAD_B)) == 3


async def test_a_rate_limited_home_never_holds_back_the_other(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)
    bot.discord.refusing[THREAD_A] = 429
    await play_placements(service, bot, game, 3, wait=0.5)  # the movers' posts are held up
    await deliver(service, bot, clock)
    assert bot.discord.in_channel(THREAD_A) == []
    assert len(bot.discord.in_channel(THREAD_B)) == 4  # all of the other home's posts
    del bot.discord.refusing[THREAD_A]
    clock.advance(timedelta(seconds=31))  # what the 429 asked to wait
    await deliver(service, bot, clock)
    in_a = bot.discord.in_channel(THREAD_A)
    assert len(in_a) == 4
    assert [int(p.nonce.removeprefix("dvonn-")) for p in in_a] == sorted(
        int(p.nonce.removeprefix("dvonn-")) for p in in_a
    )  # in order
    assert len(bot.discord.in_channel(THREAD_B)) == 4  # nothing twice


async def test_a_refused_home_is_given_up_and_the_other_goes_on(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)
    bot.discord.refusing[THREAD_A] = 403
    # White's own home refuses: her moves' boards never show there, so their answers are not
    # waited for long (the lost home is seen in the rows below, not in a timing).
    await play_placements(service, bot, game, 3, wait=0.5)
    await deliver(service, bot, clock)
    assert bot.discord.in_channel(THREAD_A) == []
    assert len(bot.discord.in_channel(THREAD_B)) == 4
    assert bot.lost == [(game.id, "W")]  # once, for the feature to move the home
    home = await service.outbox.home(game.id, "W")
    assert home is not None and home.lost_at is not None
    assert await service.store.unsent_notifications(game.id) == []  # given up, not pending
    # The game goes on: the lost home's next posts are given up without a try.
    await play_placements(service, bot, game := await service.get_game(game.id), 1, wait=0.5)
    await deliver(service, bot, clock)
    assert bot.discord.in_channel(THREAD_A) == []
    assert len(bot.discord.in_channel(THREAD_B)) == 5
    assert bot.lost == [(game.id, "W")]


async def test_a_late_refusal_of_a_home_s_old_thread_leaves_the_home_moved_since_alone(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    """White's home moves to her DMs while a post to her old thread is under way: that
    thread's refusal, coming after, does not mark the new home lost nor give up its posts."""
    game = await network_game(service)
    dm = 7777

    async def moved_meanwhile() -> None:
        async with service.store.write() as tx:
            assert await tx.move_home_to_dm(game.id, HomeSeat.WHITE, ALICE)
            assert await tx.set_home_channel(game.id, HomeSeat.WHITE, dm, None)

    bot.discord.refusing[THREAD_A] = 403
    bot.discord.before_refusal = moved_meanwhile
    await deliver(service, bot, clock)  # the game's first post: refused in the old thread
    assert bot.discord.before_refusal is None  # it was tried there
    assert bot.lost == []
    home = await service.outbox.home(game.id, "W")
    assert home is not None and (home.channel_id, home.lost_at) == (dm, None)
    # The game goes on: White's next posts come to her DMs.
    await play_placements(service, bot, game, 1, wait=0.5)
    await deliver(service, bot, clock)
    assert len(bot.discord.in_channel(dm)) == 1
    assert len(bot.discord.in_channel(THREAD_B)) == 2


async def test_a_home_whose_thread_is_not_made_waits_and_the_other_goes_on(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    homes = [
        NewHome(HomeSeat.WHITE, GUILD_A, NETWORK_A, channel_id=THREAD_A),
        NewHome(HomeSeat.BLACK, GUILD_B, NETWORK_B),
    ]
    game = await network_game(service, homes)
    await play_placements(service, bot, game, 2)
    await deliver(service, bot, clock)
    assert len(bot.discord.in_channel(THREAD_A)) == 3
    assert bot.discord.in_channel(THREAD_B) == []
    async with service.store.write() as tx:
        await tx.set_home_channel(game.id, HomeSeat.BLACK, THREAD_B, NETWORK_B)
    clock.advance(timedelta(minutes=1))
    await deliver(service, bot, clock)
    assert len(bot.discord.in_channel(THREAD_B)) == 3
    assert len(bot.discord.in_channel(THREAD_A)) == 3


async def test_a_home_of_both_players_gets_each_post_once_pinging_both(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(
        service, [NewHome(HomeSeat.BOTH, GUILD_A, NETWORK_A, channel_id=THREAD_A)]
    )
    await play_placements(service, bot, game, 2)
    await deliver(service, bot, clock)
    posts = bot.discord.in_channel(THREAD_A)
    assert len(posts) == len(bot.discord.posts) == 3
    assert mentioned(posts) == {ALICE, BOB}
    assert {u for p in posts for u in p.mentions} == {ALICE, BOB}


async def test_no_rematch_under_a_network_game_s_last_post(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    ordinary = await start_game(service)
    network = await network_game(service)
    await service.resign(ordinary.id, ALICE)
    await service.resign(network.id, BOB)
    await deliver(service, bot, clock)
    last = {p.channel_id: p for p in bot.discord.posts}
    assert last[ordinary.channel_id].view == "Rematch"  # the lobby's end view, as before
    assert "resigned" in last[THREAD_A].embed and "resigned" in last[THREAD_B].embed
    assert last[THREAD_A].view is None and last[THREAD_B].view is None


async def test_a_vacation_notice_pings_the_opponent_in_their_home_only(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)
    until = service.now() + timedelta(days=2)
    async with service.store.write() as tx:
        await tx.enqueue(
            NewNotification(
                VACATION, game_id=game.id, user_id=ALICE, payload={"until": until.isoformat()}
            ),
            service.now(),
        )
    await deliver(service, bot, clock)
    notice_a = bot.discord.in_channel(THREAD_A)[-1]
    notice_b = bot.discord.in_channel(THREAD_B)[-1]
    assert notice_b.content.startswith(f"<@{BOB}>: Alice is on vacation until")
    assert notice_b.mentions == (BOB,)
    assert notice_a.content.startswith("Bob: Alice is on vacation until")
    assert notice_a.mentions == ()


async def test_a_reminder_in_a_network_game_is_posted_in_the_player_s_own_home(
    service: GameService, bot: Bot, clock: ManualClock
) -> None:
    game = await network_game(service)  # Alice (white) is to move, her DMs closed
    bot.deliverer.handle(REMINDER, Announcements(service, bot.publisher).reminder)
    await deliver(service, bot, clock)
    clock.advance(timedelta(days=3) - timedelta(hours=4) - service.outbox.lease * 2)
    assert [r.user_id for r in (await service.sweep()).reminders] == [ALICE]
    await deliver(service, bot, clock)
    (reminder,) = [p for p in bot.discord.posts if "before the deadline" in p.content]
    assert reminder.channel_id == THREAD_A and reminder.mentions == (ALICE,)
    assert f"#{game.id} vs Bob in <#{THREAD_A}>" in reminder.content
    assert not any(nick in reminder.content for nick in NICKNAMES.values())
