"""Delivering the outbox: every post and ping the bot owes because a game's state changed.

The game service writes each announcement (:mod:`bot.games.core.announcements`) in the transaction
of the change, claimed by this process. Right after the commit the caller asks for it
(:meth:`Deliverer.announce`), and this posts it, so the mover sees the board at once; the
housekeeping pass (:meth:`Deliverer.deliver_pending`) posts whatever a crash, a restart or a
refusal left unsent, once its claim has run out. What that rests on:

* at least once: a row is marked sent only after Discord answered the post; a deliverer that
  dies leaves its claims to run out, and the next one takes the rows over;
* seen once: every post carries Discord's message nonce derived from its row
  (``dvonn-<id>``, with ``enforce_nonce``), so a post made again after a crash, or by two
  deliverers at once, returns the message made the first time instead of a second one
  (Discord checks nonces for a few minutes, much longer than a claim lasts);
* in order: a game's announcements go out one after another, oldest first (one lane a game);
  a rate-limited post holds back the game's next ones, not other games'. A network game's
  posts go to each of its homes (a thread in each player's server, or their DMs), a row per
  home: one lane per home, so that one home's rate limit or refusal never holds back the
  other's; each home's post pings only that home's player (:func:`~bot.posting.texts.for_home`).

Each kind has one handler (:meth:`Deliverer.handle`): the posting side posts turns, starts,
takebacks and endings; the clocks feature its reminders and vacation notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import NamedTuple

import discord

from bot.games.core import announcements as kinds
from bot.games.core.models import Game, Notification, TurnNotices
from bot.games.core.outbox import ONE_PLACE
from bot.games.core.results import GameOver
from bot.games.service import GameService
from bot.games.takebacks.announcements import TAKEBACK, read_takeback
from bot.posting.answers import Answer, is_answer
from bot.posting.publisher import HOME_TRIED, ChannelLost, HomeNotReady, Publisher
from bot.posting.texts import (
    GamePost,
    Players,
    channel_lost_text,
    ended_post,
    for_home,
    players_at_home,
    start_post,
    takeback_post,
    turn_post,
)

log = logging.getLogger(__name__)

RECENTLY_DONE = 1000
"""How many posted rows the deliverer remembers for callers that ask after the fact."""
REPLY_WAIT = 2.5
"""Seconds a player's reply waits for the post it announces before it says the post is on its
way (Discord rate-limits or is down: the post goes out later, in order)."""

Handler = Callable[[Notification], Awaitable[discord.Message | None]]
"""Posts one announcement (with its nonce); returns the message, or ``None`` when there is
nothing to post any more (a reminder of games moved since). Raises if it could not."""
HomeLost = Callable[[int, str, int], Awaitable[Iterable[int]]]
"""What follows a network game's home refusing the bot's posts (once), given the game, the
home and the channel that refused (moving it to the player's DMs, say, unless it moved from
that channel since); returns the rows it wrote, to post at once."""


class GameLane(NamedTuple):
    """The posts of one game's home, in order (an ordinary game's one place: ``home`` "")."""

    game_id: int
    home: str


class RowLane(NamedTuple):
    """One post that belongs to no game (a reminder, a DM)."""

    row: int


Lane = GameLane | RowLane


def lane_of(notification: Notification) -> Lane:
    if notification.game_id is None:
        return RowLane(notification.id)
    return GameLane(notification.game_id, notification.home)


class Deliverer:
    """Sends what the outbox holds, each row once, in order per game, by its kind's handler."""

    def __init__(self, service: GameService, publisher: Publisher) -> None:
        self._service = service
        self._outbox = service.outbox
        self._publisher = publisher
        self._handlers: dict[str, Handler] = {}
        self._lanes: dict[Lane, asyncio.Task[int]] = {}
        self._again: set[Lane] = set()
        self._results: dict[int, asyncio.Future[discord.Message | None]] = {}
        self._done: OrderedDict[int, discord.Message | None] = OrderedDict()
        """What became of the rows posted lately that nobody was waiting for (yet)."""
        self._answers: dict[int, Answer] = {}
        """The commands that rows being posted may answer, by row."""
        self._kicking: set[asyncio.Task[None]] = set()
        self.home_lost: HomeLost | None = None
        """Set by the feature that runs network games: what follows a home's refusal (its
        posts there are given up first)."""
        self.handle(kinds.TURN, self._turn)
        self.handle(kinds.GAME_STARTED, self._game_started)
        self.handle(TAKEBACK, self._takeback)
        self.handle(kinds.GAME_ENDED, self._game_ended)
        self.handle(kinds.CHANNEL_LOST, self._channel_lost)

    def handle(self, kind: str, handler: Handler) -> None:
        """Post announcements of ``kind`` with ``handler`` (one handler a kind)."""
        if kind in self._handlers:
            raise ValueError(f"announcements of kind {kind!r} have a handler already")
        self._handlers[kind] = handler

    # --- asking for posts ----------------------------------------------------------------------

    async def announce(
        self,
        notification_id: int,
        *,
        game_id: int | None,
        timeout: float | None = None,
        answer: Answer | None = None,
    ) -> discord.Message | None:
        """Post an announcement just written (after the game's earlier ones, if any are still
        pending) and return its message; ``None`` if it is not out within ``timeout`` seconds
        (it goes on in the background: a rate limit, an outage) or there was nothing to post.
        ``answer``: the command the post may answer (see :mod:`bot.posting.answers`)."""
        if notification_id in self._done:  # posted already, with an earlier row of its game
            return self._done[notification_id]
        if answer is not None:
            self._answers[notification_id] = answer
        result = self._result(notification_id)
        if game_id is None:
            self._kick(RowLane(notification_id))
        else:
            self._kick_game(game_id)
        try:
            return await asyncio.wait_for(asyncio.shield(result), timeout)
        except TimeoutError:
            # Held up (a rate limit, another process's claim): it goes out later; whoever
            # posts it then finds nobody waiting.
            if self._results.get(notification_id) is result and not result.done():
                del self._results[notification_id]
            return None

    async def deliver(self, notification_ids: Iterable[int], *, timeout: float = 10.0) -> int:
        """Post these announcements now, waiting up to ``timeout`` seconds for each (what is
        held up goes out later); returns how many were posted."""
        posted = 0
        for notification_id in notification_ids:
            notification = await self._outbox.get(notification_id)
            if notification is not None:
                message = await self.announce(
                    notification_id, game_id=notification.game_id, timeout=timeout
                )
                posted += message is not None
        return posted

    async def deliver_pending(self) -> int:
        """Post everything claimable (the housekeeping pass); returns how many were posted."""
        lanes = {lane_of(n) for n in await self._outbox.claimable()}
        for lane in lanes:
            self._kick(lane)
        done = await asyncio.gather(*(self._lanes[lane] for lane in lanes if lane in self._lanes))
        return sum(done)

    async def close(self, timeout: float) -> None:
        """Let the posts under way finish (for ``timeout`` seconds at most), then stop."""
        running = [task for task in self._lanes.values() if not task.done()]
        if running:
            _, pending = await asyncio.wait(running, timeout=timeout)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)

    # --- lanes: one a game, posting its announcements in order ---------------------------------

    def _result(self, notification_id: int) -> asyncio.Future[discord.Message | None]:
        future = self._results.get(notification_id)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._results[notification_id] = future
        return future

    def _kick(self, lane: Lane) -> None:
        self._again.add(lane)
        task = self._lanes.get(lane)
        if task is None or task.done():
            name = (
                f"outbox-{lane.game_id}{lane.home}"
                if isinstance(lane, GameLane)
                else (f"outbox-row-{lane.row}")
            )
            self._lanes[lane] = asyncio.create_task(self._run_lane(lane), name=name)

    def _kick_game(self, game_id: int) -> None:
        """Post a game's pending rows: its one place's lane, at once unless the game is known
        to be played in homes; each home's lane once they are looked up (an ordinary game's
        look is made once, beside its first post, and it is remembered)."""
        homes = self._outbox.has_homes(game_id)
        if not homes:
            self._kick(GameLane(game_id, ONE_PLACE))
        if homes is False:
            return

        async def kick_homes() -> None:
            try:
                for home in await self._outbox.homes_of(game_id):
                    if home != ONE_PLACE:
                        self._kick(GameLane(game_id, home))
            except Exception:
                log.exception("could not look up the homes of game %s; the next poll will", game_id)

        task = asyncio.create_task(kick_homes(), name=f"outbox-homes-{game_id}")
        self._kicking.add(task)
        task.add_done_callback(self._kicking.discard)

    async def _run_lane(self, lane: Lane) -> int:
        posted = 0
        try:
            while lane in self._again:
                self._again.discard(lane)
                while True:
                    if isinstance(lane, GameLane):
                        notification = await self._outbox.claim_next(lane.game_id, lane.home)
                    else:
                        notification = await self._outbox.claim_one(lane.row)
                    if notification is None:
                        break
                    outcome = await self._deliver(notification)
                    if outcome is None:
                        break  # it failed: the home's next posts wait for its retry
                    posted += outcome
                    if isinstance(lane, RowLane):
                        break
        except Exception:
            log.exception("the outbox lane %s stopped; the housekeeping pass goes on", lane)
        finally:
            if self._lanes.get(lane) is asyncio.current_task():
                del self._lanes[lane]
        return posted

    async def _deliver(self, notification: Notification) -> int | None:
        """Post one claimed announcement; 1 if posted, 0 if there was nothing to post, ``None``
        if it failed (it is retried later)."""
        handler = self._handlers.get(notification.kind)
        message: discord.Message | None = None
        HOME_TRIED.set(None)  # the home's channel, once the handler looks it up
        try:
            if handler is None:
                raise LookupError(f"no handler for announcements of kind {notification.kind!r}")
            async with self._holding(notification):
                message = await handler(notification)
        except ChannelLost:
            # Given up, as the game's posts are while its place refuses the bot (said once).
            self._outbox.sent(notification.id)
            self._settle(notification.id, None)
            return 0
        except HomeNotReady:
            # A network game's home whose thread is being made: its posts wait (not a failed
            # try), the other home's go on.
            await self._postponed(notification, HOME_WAIT)
            return None
        except discord.RateLimited as error:
            await self._postponed(notification, error.retry_after)
            return None
        except discord.Forbidden:
            await self._refused(notification)
            return None
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                await self._refused(notification)
                return None
            if error.code != UNKNOWN_MESSAGE:
                await self._failed(notification)
                return None
            # Discord says a message with this nonce was made and then deleted: it was out.
            log.info("announcement %s was posted before and deleted since", notification.id)
        except discord.HTTPException as error:
            if error.status == RATE_LIMITED:
                await self._postponed(notification, retry_after(error))
            elif error.status == UNAUTHORIZED:
                # The token was revoked: every request fails alike until the operator gives a
                # new one. Not a failed try (the post is not lost), and no loop of refusals.
                log.error("Discord refused the bot's token (401): posts wait for a new one")
                await self._outbox.postpone(notification, UNAUTHORIZED_WAIT)
            else:
                await self._failed(notification)
            return None
        except Exception:
            await self._failed(notification)
            return None
        self._outbox.sent(
            notification.id,
            None if message is None else message.id,
            answered=message is not None and is_answer(message),
        )
        self._settle(notification.id, message)
        return 0 if message is None else 1

    async def _failed(self, notification: Notification) -> None:
        give_up = await self._outbox.failed(notification)
        log.exception(
            "could not deliver announcement %s (%s)%s",
            notification.id,
            notification.kind,
            ": giving up" if give_up else "; trying again later",
        )
        if give_up:
            self._settle(notification.id, None)

    async def _refused(self, notification: Notification) -> None:
        """Discord refused the post for good (403: the bot lost its permissions there; 404:
        the channel is gone). Trying again would only add to the invalid requests for which
        Discord bans a bot, so: a game's posts are given up where it is played, and its
        players are told by DM (:meth:`GameService.lose_channel`, logged once); any other
        post (a DM to someone who closed them) is given up."""
        if notification.game_id is not None and notification.home:
            self._outbox.sent(notification.id)  # given up (lose_home gives up the rest)
            refused = HOME_TRIED.get()
            if refused is None:
                log.warning(
                    "announcement %s (%s) was refused before its home was looked up: given up",
                    notification.id,
                    notification.kind,
                )
            else:
                await self._home_refused(notification.game_id, notification.home, refused)
            self._settle(notification.id, None)
            return
        game = None
        if notification.game_id is not None:
            game = await self._publisher.game(notification.game_id)
        if game is None or game.private:
            log.info(
                "announcement %s (%s) was refused for good: given up",
                notification.id,
                notification.kind,
            )
            self._outbox.sent(notification.id)
        else:
            for written in await self._service.lose_channel(game.id):
                self._kick(RowLane(written))
        self._settle(notification.id, None)

    async def _home_refused(self, game_id: int, home: str, refused: int) -> None:
        """One home of a network game refused the bot's posts in channel ``refused``: its
        unsent posts are given up there (this one too), the other home's go on; then
        :attr:`home_lost` (moving the home elsewhere) if the network feature set it. A late
        refusal from a channel the home has left since (moved to DMs) changes nothing."""
        if not await self._outbox.lose_home(game_id, home, refused):
            return  # recorded already (by another process, say), or the home moved since
        log.info("game %s: its home %s refused the bot's posts; given up there", game_id, home)
        if self.home_lost is not None:
            for written in await self.home_lost(game_id, home, refused):
                row = await self._outbox.get(written)
                if row is not None:
                    self._kick(lane_of(row))

    async def _postponed(self, notification: Notification, seconds: float) -> None:
        """A post Discord kept asking to wait for (discord.py waits and tries again, five
        times, before it gives up): not a failed try, and never given up; it waits its turn
        again, with the game's later posts behind it."""
        seconds = max(seconds, MIN_POSTPONE)
        log.warning(
            "announcement %s (%s) is rate limited; trying again in %.1f s",
            notification.id,
            notification.kind,
            seconds,
        )
        await self._outbox.postpone(notification, seconds)

    def _settle(self, notification_id: int, message: discord.Message | None) -> None:
        self._answers.pop(notification_id, None)
        future = self._results.pop(notification_id, None)
        if future is not None and not future.done():
            future.set_result(message)
            return
        self._done[notification_id] = message
        while len(self._done) > RECENTLY_DONE:
            self._done.popitem(last=False)

    @contextlib.asynccontextmanager
    async def _holding(self, notification: Notification) -> AsyncIterator[None]:
        """Keep the claim on a row while it is being posted (a rate limit may take long)."""

        async def renew() -> None:
            while True:
                await asyncio.sleep(self._outbox.lease.total_seconds() / 3)
                if not await self._outbox.renew(notification.id):
                    log.warning("announcement %s was taken over while posted", notification.id)
                    return

        renewing = asyncio.create_task(renew())
        try:
            yield
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing

    # --- the posting side's own kinds ----------------------------------------------------------

    async def _post(
        self, game: Game, notification: Notification, post: Callable[[Players], GamePost]
    ) -> discord.Message:
        """Post about ``game`` in its thread, with the announcement's nonce: as the answer to
        the command that made it, if this process holds that command and it still can be,
        else (when the row keeps a command's route) unless an earlier try answered with it."""
        answer = self._answers.pop(notification.id, None)
        players = await self._publisher.players(game)
        made = post(players)
        if notification.home:
            # A network game's home: posted in its thread (or DM), pinging only its player(s);
            # a command is answered only by the row of the home it was used in (the row that
            # keeps its route), never by the other home's post.
            if notification.answer is None:
                answer = None
            home = players_at_home(game, notification.home)
            names = {game.white_id: players.white, game.black_id: players.black}
            made = for_home(made, home, names)
            game = await self._place(game, notification)
        return await self._publisher.send_to_game(
            game,
            await self._with_turn_notices(made),
            players=players,
            nonce=notification.nonce,
            answer=answer,
            answered=notification.answer if answer is None else None,
        )

    async def _place(self, game: Game, notification: Notification) -> Game:
        """Where a row about ``game`` is posted: the game's own place, or its row's home."""
        if not notification.home:
            return game
        return await self._publisher.at_home(game, notification.home)

    async def _with_turn_notices(self, post: GamePost) -> GamePost:
        """``post``, pinging the player it calls to move only if they chose a ping on every
        turn (``/dvonn notify``): the mention stays, so the post still says whose turn it is."""
        if not post.turn_ping or not post.ping:
            return post
        quiet = [u for u in post.ping if (await self._service.prefs(u)).turns != TurnNotices.PING]
        if not quiet:
            return post
        return dataclasses.replace(post, ping=tuple(u for u in post.ping if u not in quiet))

    async def _game_now(self, notification: Notification) -> Game:
        assert notification.game_id is not None
        return await self._publisher.game(notification.game_id)

    async def _turn(self, notification: Notification) -> discord.Message:
        turn = kinds.read_turn(notification, await self._game_now(notification))
        over = GameOver.of(turn.game) if turn.over else None
        ratings = kinds.read_ratings(notification)
        message = await self._post(
            turn.game,
            notification,
            lambda players: turn_post(
                turn.game, players, turn.moves, over, ratings, followed=turn.followed
            ),
        )
        if kinds.is_placement(notification):
            place = await self._place(turn.game, notification)
            await self._replace_placement_board(notification, place, message)
        if turn.over:
            self._kick_unclaimed()  # as after any ending (see _game_ended)
        return message

    async def _replace_placement_board(
        self, notification: Notification, game: Game, message: discord.Message
    ) -> None:
        """During the placement phase each new board replaces the last one (deleted: 49 boards
        would bury the game's first post), while every turn still pings the player to move.
        The last placement board stays, under the first move. Which message that was is read
        from the outbox (the row of the turn before, with its message's id), so that a restart
        or another process replaces it too; a post made again after a crash deletes it again
        (it is gone already: nothing to do)."""
        earlier = await self._outbox.last_turn_post(notification)
        if earlier is None:
            return
        row, message_id = earlier
        if kinds.is_placement(row) and message_id != message.id:
            # That row's mark first, if it is still waiting for its batch: killed after the
            # deletion and before the mark, the next process would try the row again, find
            # the command's answer gone, and post the board a second time (a post in the
            # channel is safe either way: its nonce finds the message deleted).
            await self._outbox.record(row.id)
            await self._publisher.delete_post(game, message_id, answered=row.answer)

    async def _game_started(self, notification: Notification) -> discord.Message:
        game = kinds.read_started(notification, await self._game_now(notification))
        return await self._post(game, notification, lambda players: start_post(game, players))

    async def _takeback(self, notification: Notification) -> discord.Message:
        game, undone = read_takeback(notification, await self._game_now(notification))
        return await self._post(
            game, notification, lambda players: takeback_post(game, players, undone)
        )

    async def _channel_lost(self, notification: Notification) -> discord.Message | None:
        """Tell a player by DM that the bot can no longer post where their game is played
        (nothing to post if their DMs are closed too)."""
        assert notification.user_id is not None
        payload = notification.payload
        prefs = await self._service.prefs(notification.user_id)
        text = self._publisher.reader(prefs.locale)(
            channel_lost_text(int(payload["game"]), int(payload["channel"]))
        )
        return await self._publisher.direct_message(
            notification.user_id, text, nonce=notification.nonce
        )

    async def _game_ended(self, notification: Notification) -> discord.Message:
        game = await self._game_now(notification)
        over, ratings = GameOver.of(game), kinds.read_ratings(notification)
        message = await self._post(
            game, notification, lambda players: ended_post(game, players, over, ratings)
        )
        # What the ending wrote besides (a tournament's standings, its next round's games)
        # nobody claimed: out now, after this post, rather than at the next poll.
        self._kick_unclaimed()
        return message

    def _kick_unclaimed(self) -> None:
        async def kick() -> None:
            try:
                for row in await self._outbox.claimable():
                    self._kick(lane_of(row))
            except Exception:
                log.exception("could not look for unclaimed posts; the next poll will")

        task = asyncio.create_task(kick(), name="outbox-unclaimed")
        self._kicking.add(task)
        task.add_done_callback(self._kicking.discard)


UNKNOWN_MESSAGE = 10008
"""Discord's error code for a message that does not exist (any more)."""
UNKNOWN_CHANNEL = 10003
"""Discord's error code for a channel that does not exist (any more)."""


RATE_LIMITED = 429
UNAUTHORIZED = 401
UNAUTHORIZED_WAIT = 600.0
"""Seconds a post waits after Discord refused the bot's token."""
MIN_POSTPONE = 1.0
"""Seconds a rate-limited post waits at least before its next try."""
HOME_WAIT = 10.0
"""Seconds a post waits for its home's thread to be made."""
UNKNOWN_WAIT = 60.0
"""Seconds to wait when a 429 does not say how long (Cloudflare's, not Discord's: a ban for
too many invalid requests, which every early try would make longer)."""


def retry_after(error: discord.HTTPException) -> float:
    """How long a 429 asked to wait: its ``Retry-After`` header, else :data:`UNKNOWN_WAIT`."""
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", UNKNOWN_WAIT))
    except ValueError:
        return UNKNOWN_WAIT
