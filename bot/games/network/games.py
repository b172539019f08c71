"""Network games in their homes: a home made ready (the last begins the game, once), a home
lost (moved to its player's DMs), the homes of a server that left moved out (in batches), and
the deletion of network data asked for, once no network game of the player runs.

A network game's homes change only in a transaction that holds its ``games`` row (read first,
locked on PostgreSQL): two processes making its two homes ready at once begin it once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from bot.games.core import announcements
from bot.games.core.errors import GameNotFound
from bot.games.core.parts import UseCases
from bot.games.core.results import GameStarted
from bot.games.core.starts import begin_deadline
from bot.games.network.announcements import network_home
from bot.games.network.errors import NotYourHome
from bot.storage import ChannelId, Game, GameHome, GameStatus, HomeSeat, UserId, Writer
from rules import Colour

log = logging.getLogger(__name__)

MOVE_BATCH: Final = 50
"""Network games whose homes move out of a server that left, in one transaction."""
FORGET_BATCH: Final = 20
"""Members whose network data is deleted in one pass of the job."""


@dataclass(frozen=True, slots=True)
class HomeReady:
    """A home made ready: the game as it is now, and its start if this home was its last."""

    game: Game
    started: GameStarted | None = None

    @property
    def announcements(self) -> tuple[int, ...]:
        return () if self.started is None else (self.started.announcement,)


@dataclass(frozen=True, slots=True)
class HomesMoved:
    """What the job moving homes out of servers that left did: the games, and the rows that
    make their new homes ready."""

    games: tuple[int, ...] = ()
    written: tuple[int, ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return self.written


@dataclass(frozen=True, slots=True)
class MembersForgotten:
    """What the deletion job did: the players whose network data it deleted, and what of it
    (rows by table)."""

    players: tuple[UserId, ...] = ()
    deleted: tuple[tuple[str, int], ...] = ()

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


class NetworkGames(UseCases):
    """Network games' homes, and the network's deletions."""

    async def home_ready(
        self,
        game_id: int,
        seat: HomeSeat,
        channel_id: ChannelId,
        parent_channel_id: ChannelId | None = None,
    ) -> HomeReady:
        """A home of a network game has its thread (in ``parent_channel_id``, the network
        channel) or DM channel: ``channel_id``. The last of a pending game's homes to be ready
        begins it, in this transaction (its clock starts, its first post is written: to every
        home); a second call changes nothing more. Raises :class:`GameNotFound` (also for a
        game that is not a network game, or has no such home)."""
        async with self._store.write() as tx:
            game = await tx.game(game_id)  # locked: the homes change under it only
            if game is None or not game.network:
                raise GameNotFound(game_id)
            if not await tx.set_home_channel(game_id, seat, channel_id, parent_channel_id):
                raise GameNotFound(game_id)
            homes = await tx.homes(game_id)
            started = None
            if game.status is GameStatus.PENDING and all(h.ready for h in homes):
                started = await self._begin(tx, game, homes)
                game = started.game
        if started is not None:
            log.info("network game %s began in its homes", game_id)
        return HomeReady(game, started)

    async def _begin(self, tx: Writer, game: Game, homes: list[GameHome]) -> GameStarted:
        now = self._now()
        first = homes[0]
        assert first.channel_id is not None
        deadline = await begin_deadline(tx, game, now)
        begun = await tx.begin_pending_game(
            game.id, first.channel_id, first.parent_channel_id, deadline, now
        )
        assert begun, "the game row is held: it is still pending"
        now_begun = await tx.game(game.id)
        assert now_begun is not None
        notice = await tx.enqueue(announcements.started(now_begun), now, self._outbox.claim())
        return GameStarted(None, now_begun, notice)

    async def lose_home(self, game_id: int, seat: str, refused: ChannelId) -> list[int]:
        """A home of a network game refused the bot's posts in channel ``refused`` (its thread
        or channel gone, or the bot's permissions there): its unsent posts are given up (if
        that was not done already), and a home in a server moves to its player's DMs (a home
        of both: one for each), to be made ready there; a DM home refusing is given up (the
        player still plays with the game's buttons and commands, and the clock decides).
        A refusal from where the home no longer is (its old thread, answering late after the
        home moved to DMs) changes nothing. Returns the rows written (to post now)."""
        now = self._now()
        async with self._store.write() as tx:
            game = await tx.game(game_id)
            home = next((h for h in await tx.homes(game_id) if h.seat.value == seat), None)
            if game is None or home is None or not _is_at(home, refused):
                return []
            await tx.lose_home(game_id, home.seat, now, refused=refused)
            if home.in_dms or game.status not in (GameStatus.ACTIVE, GameStatus.PENDING):
                return []
            written = await _move_to_dms(tx, game, home, now)
        log.info("network game %s: its home %s refused the bot's posts: to DMs", game_id, seat)
        return written

    async def move_homes_out(self, batch: int = MOVE_BATCH) -> HomesMoved:
        """The housekeeping job: the running (or pending) network games homed in a server that
        left the network move those homes to their players' DMs, ``batch`` games a
        transaction until none is left. A home of one player keeps its unsent posts (posted in
        the new home once ready); a home of both is split in two, its unsent posts given up
        (each new home begins with the current board)."""
        games: list[int] = []
        written: list[int] = []
        more = True
        while more:
            async with self._store.write() as tx:
                listed = await tx.games_homed_in_left_servers(batch)
                more = len(listed) == batch
                found = [game_id for game_id in listed if game_id not in games]
                if not found:
                    break  # (a game moved this pass and still listed would be a bug: not again)
                for game_id in found:
                    game = await tx.game(game_id)
                    assert game is not None
                    for home in await tx.homes(game_id):
                        if home.guild_id is None:
                            continue
                        server = await tx.network_server(home.guild_id, lock=False)
                        if server is not None and not server.is_live:
                            written += await _move_to_dms(tx, game, home, self._now())
            games += found
        if games:
            log.info("network: %d games moved out of servers that left", len(games))
        return HomesMoved(tuple(games), tuple(written))

    async def forget_due(self, batch: int = FORGET_BATCH) -> MembersForgotten:
        """The housekeeping job: delete the network data of the players who asked for it (on
        leaving) and no longer play a network game, ``batch`` at most a pass, each in a
        transaction of its own."""
        async with self._store.write() as tx:
            due = await tx.members_to_forget(batch)
        players: list[UserId] = []
        deleted: dict[str, int] = {}
        for user_id in due:
            async with self._store.write() as tx:
                done = await tx.delete_member_data(user_id)
            if done is None:
                continue  # a network game of theirs began meanwhile
            players.append(user_id)
            for table, count in done.items():
                deleted[table] = deleted.get(table, 0) + count
        if players:
            log.info("network: the data of %d players deleted, as they asked", len(players))
        return MembersForgotten(tuple(players), tuple(sorted(deleted.items())))

    async def home_here(
        self, game: Game, user_id: UserId, channel_id: ChannelId
    ) -> GameHome | None:
        """The home of network ``game`` that ``channel_id`` is, for ``user_id`` acting there
        (``None``: none of its homes, as a command used elsewhere). A player acts from their
        own home (or one of both): raises :class:`NotYourHome` in the other player's. Anyone
        else is left to the use case (a spectator may look, not play)."""
        home = next(
            (h for h in await self._store.homes(game.id) if h.channel_id == channel_id), None
        )
        if home is None or home.seat is HomeSeat.BOTH or not game.is_player(user_id):
            return home
        if game.player(Colour.WHITE if home.seat is HomeSeat.WHITE else Colour.BLACK) != user_id:
            raise NotYourHome(game.id, user_id)
        return home

    async def games_in_channel(self, channel_id: ChannelId) -> list[Game]:
        """The running network games with a home in ``channel_id`` (a player's DMs may hold
        several), the oldest first."""
        return await self._store.network_games_in_channel(channel_id)

    async def last_in_channel(self, channel_id: ChannelId) -> Game | None:
        """The newest network game with a home in ``channel_id``, running or not."""
        game_id = await self._store.last_network_game_in_channel(channel_id)
        return None if game_id is None else await self._store.game(game_id)

    async def homes(self, game_id: int) -> list[GameHome]:
        """A network game's homes (none for another game)."""
        return await self._store.homes(game_id)

    async def home_of(self, game: Game, user_id: UserId) -> GameHome | None:
        """``user_id``'s home of network ``game``: their own, or the one of both (``None``: not
        a player of it, or not a network game)."""
        colour = game.colour_of(user_id)
        if colour is None:
            return None
        seat = HomeSeat.WHITE if colour is Colour.WHITE else HomeSeat.BLACK
        homes = await self._store.homes(game.id)
        return next((h for h in homes if h.seat in (seat, HomeSeat.BOTH)), None)

    async def names(self, game: Game) -> dict[UserId, str]:
        """The network names of a game's players (those of players whose data is deleted are
        missing)."""
        return await self._store.names(game.human_ids)


def _is_at(home: GameHome, channel_id: ChannelId) -> bool:
    """Whether ``home`` is in ``channel_id``: its thread or DM channel, or, while its thread is
    not made, its network channel."""
    if home.channel_id is not None:
        return home.channel_id == channel_id
    return home.parent_channel_id == channel_id


async def _move_to_dms(tx: Writer, game: Game, home: GameHome, now: datetime) -> list[int]:
    """Move ``home`` (in a server) of ``game`` (whose row the transaction holds) to its
    player's DMs, or each player's for a home of both; the rows that make the new homes
    ready."""
    if home.seat is HomeSeat.BOTH:
        await tx.split_shared_home(game.id, game.white_id, game.black_id, now)
        seats = [HomeSeat.WHITE, HomeSeat.BLACK]
    else:
        player = game.white_id if home.seat is HomeSeat.WHITE else game.black_id
        await tx.move_home_to_dm(game.id, home.seat, player)
        seats = [home.seat]
    return [await tx.enqueue(network_home(game.id, seat, moved=True), now) for seat in seats]
