"""Takebacks: a player asks to undo their last move, the opponent accepts or declines.

Either, once the deadline of the player to move has passed, ends the game lost on time instead
(:func:`bot.games.core.clocks.check_deadline`).

Against the bot, which always lets a human take a move back, the request is granted at once.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core.checks import game_for_action
from bot.games.core.clocks import acting, check_deadline, taken_back
from bot.games.core.parts import UseCases
from bot.games.takebacks.announcements import takeback
from bot.games.takebacks.errors import (
    NoTakebackRequested,
    NothingToTakeBack,
    OwnTakeback,
    TakebackPending,
)
from bot.storage import Game, UserId, Writer

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    game: Game
    accepted: bool
    undone: tuple[str, ...]
    """The moves taken back, in canonical spelling (the requester's, then automatic passes)."""
    announcement: int | None = None
    """The outbox row of the board posted again, once accepted."""
    by_computer: bool = False
    """The bot answered (it always accepts), so nobody else needs to be asked."""


class Takebacks(UseCases):
    """The takebacks' use cases, over the store."""

    async def request(self, game_id: int, user_id: UserId) -> Game | TakebackAnswer:
        """The player who made the last move asks to undo it (and any pass recorded after it).

        Returns the game waiting for the opponent's answer; against the bot, which answers at
        once, the :class:`TakebackAnswer`: the player's last move is undone together with the
        bot's replies to it."""
        now = self._now()
        async with acting(self._store) as tx:
            game = await game_for_action(tx.game, game_id, user_id)
            await check_deadline(tx, game, user_id, now, self._outbox, hooks=self._hooks)
            if game.takeback_requested_by is not None:
                raise TakebackPending(game_id)
            moves = await tx.moves(game_id)
            own = [m for m in moves if not m.automatic]
            while own and own[-1].player_id == game.computer_id != user_id:
                own.pop()  # the bot's replies go with the move they answered
            if not own or own[-1].player_id != user_id:
                raise NothingToTakeBack(game_id, user_id)
            asked = dataclasses.replace(
                game, takeback_requested_by=user_id, takeback_ply=own[-1].ply, updated_at=now
            )
            saved = await tx.save_game(asked, game.version)
            if game.computer_id is None or game.opponent_of(user_id) != game.computer_id:
                return saved
            answer = await self._accept(tx, saved, now)
        log.info("game %s: the bot let %s take back %s", game_id, user_id, " ".join(answer.undone))
        return dataclasses.replace(answer, by_computer=True)

    async def answer(self, game_id: int, user_id: UserId, accept: bool) -> TakebackAnswer:
        """The opponent accepts (the move and any automatic pass after it are undone, and the
        requester is to move again, on a time bank with both banks as they were then) or
        declines. A move played meanwhile has voided the request."""
        now = self._now()
        async with acting(self._store) as tx:
            game = await game_for_action(tx.game, game_id, user_id)
            await check_deadline(tx, game, user_id, now, self._outbox, hooks=self._hooks)
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
            answer = await self._accept(tx, game, now)
        log.info("game %s: %s took back %s", game_id, requester, " ".join(answer.undone))
        return answer

    async def _accept(self, tx: Writer, game: Game, now: datetime) -> TakebackAnswer:
        requester, ply = game.takeback_requested_by, game.takeback_ply
        assert requester is not None and ply is not None
        moves = await tx.moves(game.id)
        keep = [m.move for m in moves if m.ply < ply]
        undone = tuple(str(m.move) for m in moves if m.ply >= ply)
        back_to = next((m for m in moves if m.ply == ply), None)
        position = rules.replay(keep)[-1]
        prefs = await tx.prefs(requester, lock=False)  # only looked at
        restored = taken_back(game, position, now, back_to, prefs.vacation_until)
        await tx.delete_moves_from(game.id, ply)
        await tx.drop_plans(game.id)  # planned against moves no longer played: all dropped
        saved = await tx.save_game(restored, game.version)
        notice = await tx.enqueue(takeback(saved, undone), now, self._outbox.claim())
        return TakebackAnswer(saved, True, undone, notice)
