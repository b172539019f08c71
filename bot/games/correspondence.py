"""Correspondence play: clocks that end games, reminders, vacations, takebacks, ratings.

Every use case takes its time from the service's injected clock, so tests move time forward
instead of sleeping. What the bot must announce (a loss on time, a reminder, a vacation) goes
into the outbox in the same transaction as the change; the Discord layer delivers it later,
even after a crash or a restart in between.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Final

import rules
from bot.games.errors import (
    GameFinished,
    GameNotFound,
    NoTakebackRequested,
    NotAPlayer,
    NothingToTakeBack,
    OwnTakeback,
    TakebackPending,
    VacationNotAllowed,
)
from bot.games.results import GameEnded, GameOver
from bot.storage.correspondence import CorrespondenceStore, PlayerPrefs, RatingRow
from bot.storage.models import EndReason, Game, GameStatus, GuildId, Result, UserId

if TYPE_CHECKING:
    from bot.games.service import GameService

log = logging.getLogger(__name__)

REMIND_BEFORE: Final = timedelta(hours=24)
"""A player is reminded of a deadline this long before it."""
REMIND_AT_MOST_EVERY: Final = timedelta(hours=12)
"""However many games they have, a player gets at most two reminders a day."""
VACATION_DAYS_PER_YEAR: Final = 14
LEADERBOARD_MIN_GAMES: Final = 3
LEADERBOARD_SIZE: Final = 10

# Outbox kinds, read by the Discord layer.
GAME_ENDED: Final = "game_ended"
REMINDER: Final = "reminder"
VACATION: Final = "vacation"


@dataclass(frozen=True, slots=True)
class Reminder:
    user_id: UserId
    game_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Vacation:
    user_id: UserId
    until: datetime
    days_left: int
    game_ids: tuple[int, ...]
    """The player's running games, whose opponents are told."""


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    game: Game
    accepted: bool
    undone: tuple[str, ...]
    """The moves taken back, in canonical spelling (the requester's, then automatic passes)."""


@dataclass(frozen=True, slots=True)
class Profile:
    user_id: UserId
    rating: RatingRow | None
    active: tuple[Game, ...]


@dataclass(frozen=True, slots=True)
class Sweep:
    """What one housekeeping pass did."""

    expired_challenges: int = 0
    lost_on_time: tuple[GameEnded, ...] = ()
    rated: int = 0
    reminders: tuple[Reminder, ...] = ()


class Correspondence:
    """The correspondence use cases, over a :class:`GameService` and its store."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.queries = CorrespondenceStore(service.store)

    def now(self) -> datetime:
        return self.service.now()

    # --- the sweep: deadlines, ratings, reminders -------------------------------------------

    async def sweep(self) -> Sweep:
        """One housekeeping pass; the bot runs it every minute, tests after moving the clock."""
        expired = await self.service.expire_challenges()
        lost = await self.enforce_deadlines()
        rated = await self.rate_finished_games()
        reminders = await self.queue_reminders()
        return Sweep(len(expired), tuple(lost), rated, tuple(reminders))

    async def enforce_deadlines(self) -> list[GameEnded]:
        """End every running game whose player to move let the deadline pass: the opponent wins
        on time. Each game ends once, however many sweeps run, before or after a restart."""
        ended: list[GameEnded] = []
        now = self.now()
        for game in await self.queries.games_past_deadline(now):
            async with self.store.write() as tx:
                current = await tx.game(game.id)
                if (
                    current is None
                    or not current.is_active
                    or current.deadline_at is None
                    or current.deadline_at > now
                ):
                    continue  # moved or ended in the meantime
                loser = current.position.turn
                finished = dataclasses.replace(
                    current,
                    status=GameStatus.FINISHED,
                    result=Result.won_by(loser.opponent),
                    end_reason=EndReason.TIME,
                    ended_by=current.player(loser),
                    score=rules.score(current.position),
                    deadline_at=None,
                    takeback_requested_by=None,
                    takeback_ply=None,
                    updated_at=now,
                    finished_at=now,
                )
                saved = await tx.save_game(finished, current.version)
                await CorrespondenceStore.enqueue(tx, GAME_ENDED, now, game_id=saved.id)
            log.info("game %s: %s lost on time", saved.id, saved.player(loser))
            await self.service.rate_game(saved)
            ended.append(GameEnded(saved, GameOver.of(saved)))
        return ended

    async def rate_finished_games(self) -> int:
        """Rate finished games a crash left unrated (each exactly once)."""
        count = 0
        for game in await self.queries.games_to_rate():
            if await self.service.rate_game(game) is not None:
                count += 1
        return count

    async def queue_reminders(self) -> list[Reminder]:
        """One reminder per player whose deadlines draw near, listing all those games; never
        more often than :data:`REMIND_AT_MOST_EVERY`, never to players who turned them off."""
        now = self.now()
        near = await self.queries.games_near_deadline(now, now + REMIND_BEFORE)
        by_player: dict[UserId, list[Game]] = defaultdict(list)
        for game in near:
            to_move = game.to_move_id
            if to_move is not None:
                by_player[to_move].append(game)
        reminders: list[Reminder] = []
        for user_id, games in by_player.items():
            async with self.store.write() as tx:
                prefs = await CorrespondenceStore.prefs_for_update(tx, user_id)
                if not prefs.notify or prefs.on_vacation(now):
                    continue
                last = prefs.last_reminded_at
                if last is not None and now - last < REMIND_AT_MOST_EVERY:
                    continue
                ids = tuple(g.id for g in games)
                await CorrespondenceStore.mark_reminded(tx, user_id, games, now)
                await CorrespondenceStore.enqueue(
                    tx, REMINDER, now, user_id=user_id, payload={"games": list(ids)}
                )
            reminders.append(Reminder(user_id, ids))
        return reminders

    # --- players' own settings -----------------------------------------------------------------

    async def set_notify(self, user_id: UserId, notify: bool) -> None:
        now = self.now()
        async with self.store.write() as tx:
            await tx.ensure_players([user_id], now)
            await CorrespondenceStore.save_notify(tx, user_id, notify)

    async def remember_locale(self, user_id: UserId, locale: str) -> None:
        """Keep the language a player uses, for messages sent outside an interaction."""
        now = self.now()
        async with self.store.write() as tx:
            await tx.ensure_players([user_id], now)
            await CorrespondenceStore.save_locale(tx, user_id, locale)

    async def prefs(self, user_id: UserId) -> PlayerPrefs:
        return await self.queries.prefs(user_id)

    async def start_vacation(self, user_id: UserId, days: int) -> Vacation:
        """Pause the player's clocks for ``days`` days (from now, or from the end of a vacation
        already running), within :data:`VACATION_DAYS_PER_YEAR` a calendar year. Deadlines of
        games where it is their turn move back by as much; the opponents are told."""
        now = self.now()
        async with self.store.write() as tx:
            await tx.ensure_players([user_id], now)
            prefs = await CorrespondenceStore.prefs_for_update(tx, user_id)
            used = prefs.days_used_in(now.year)
            left = VACATION_DAYS_PER_YEAR - used
            if days < 1 or days > left:
                raise VacationNotAllowed(user_id, days, left, VACATION_DAYS_PER_YEAR)
            start = prefs.vacation_until if prefs.on_vacation(now) else now
            assert start is not None
            until = start + timedelta(days=days)
            await CorrespondenceStore.save_vacation(
                tx,
                dataclasses.replace(
                    prefs,
                    vacation_until=until,
                    vacation_year=now.year,
                    vacation_days_used=used + days,
                ),
            )
            games = await self.store.active_games_of(user_id)
            for game in games:
                if game.to_move_id == user_id and game.deadline_at is not None:
                    current = await tx.game(game.id)
                    if current is None or current.deadline_at is None:
                        continue
                    moved = dataclasses.replace(
                        current,
                        deadline_at=current.deadline_at + timedelta(days=days),
                        updated_at=now,
                    )
                    await tx.save_game(moved, current.version)
                await CorrespondenceStore.enqueue(
                    tx,
                    VACATION,
                    now,
                    user_id=user_id,
                    game_id=game.id,
                    payload={"until": until.isoformat()},
                )
        log.info("%s is on vacation until %s", user_id, until)
        return Vacation(user_id, until, left - days, tuple(g.id for g in games))

    # --- takebacks -----------------------------------------------------------------------------

    async def request_takeback(self, game_id: int, user_id: UserId) -> Game:
        """The player who made the last move asks to undo it (and any pass recorded after it).

        Against the bot, which answers at once, the player's last move is undone together with
        the bot's replies to it."""
        now = self.now()
        async with self.store.write() as tx:
            game = await self._running(tx.game, game_id, user_id)
            if game.takeback_requested_by is not None:
                raise TakebackPending(game_id)
            moves = await self.store.moves(game_id)
            own = [m for m in moves if not m.automatic]
            while own and own[-1].player_id == game.computer_id != user_id:
                own.pop()  # the bot's replies go with the move they answered
            if not own or own[-1].player_id != user_id:
                raise NothingToTakeBack(game_id, user_id)
            asked = dataclasses.replace(
                game, takeback_requested_by=user_id, takeback_ply=own[-1].ply, updated_at=now
            )
            return await tx.save_game(asked, game.version)

    async def answer_takeback(self, game_id: int, user_id: UserId, accept: bool) -> TakebackAnswer:
        """The opponent accepts (the move and any automatic pass after it are undone, and the
        requester is to move again) or declines. A move played meanwhile has voided the request."""
        now = self.now()
        async with self.store.write() as tx:
            game = await self._running(tx.game, game_id, user_id)
            requester = game.takeback_requested_by
            if requester is None or game.takeback_ply is None:
                raise NoTakebackRequested(game_id)
            if requester == user_id:
                raise OwnTakeback(game_id, user_id)
            if not accept:
                declined = dataclasses.replace(
                    game, takeback_requested_by=None, takeback_ply=None, updated_at=now
                )
                return TakebackAnswer(await tx.save_game(declined, game.version), False, ())
            moves = await self.store.moves(game_id)
            keep = [m.move for m in moves if m.ply < game.takeback_ply]
            undone = tuple(str(m.move) for m in moves if m.ply >= game.takeback_ply)
            position = rules.replay(keep)[-1]
            prefs = await CorrespondenceStore.prefs_for_update(tx, requester)
            restored = self.service._after_moves(game, position, now, prefs.vacation_until)
            await CorrespondenceStore.delete_moves_from(tx, game_id, game.takeback_ply)
            saved = await tx.save_game(restored, game.version)
        log.info("game %s: %s took back %s", game_id, requester, " ".join(undone))
        return TakebackAnswer(saved, True, undone)

    async def _running(
        self, load: Callable[[int], Awaitable[Game | None]], game_id: int, user_id: UserId
    ) -> Game:
        game = await load(game_id)
        if game is None:
            raise GameNotFound(game_id)
        if not game.is_player(user_id):
            raise NotAPlayer(game_id, user_id)
        if not game.is_active:
            raise GameFinished(game_id)
        return game

    # --- ratings -------------------------------------------------------------------------------

    async def profile(self, guild_id: GuildId, user_id: UserId) -> Profile:
        rating = await self.queries.rating(guild_id, user_id)
        active = await self.store.active_games_of(user_id)
        return Profile(user_id, rating, tuple(g for g in active if g.guild_id == guild_id))

    async def leaderboard(self, guild_id: GuildId) -> list[RatingRow]:
        return await self.queries.leaderboard(
            guild_id, min_games=LEADERBOARD_MIN_GAMES, limit=LEADERBOARD_SIZE
        )


__all__ = [
    "GAME_ENDED",
    "REMINDER",
    "VACATION",
    "Correspondence",
    "Profile",
    "Reminder",
    "Sweep",
    "TakebackAnswer",
    "Vacation",
]
