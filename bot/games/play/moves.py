"""Playing a game: a move (with the passes it forces, and the replies planned for it), a
resignation, an abort by agreement or with authority.

Every use case either succeeds completely and durably before it returns, or raises one of
:mod:`bot.games.play.errors` or :mod:`bot.games.core.errors` (or a rules error, unchanged) and
changes nothing. Every ending goes through :func:`bot.games.core.endings.finish`, with the
features' game-end hooks.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

import rules
from bot.games.core import announcements, turns
from bot.games.core.checks import check_running, game_for_action, runs
from bot.games.core.clocks import acting, check_deadline, continued, is_past_deadline, refuse_late
from bot.games.core.endings import Ending, finish
from bot.games.core.errors import GameChanged, GameFinished, GameNotFound, NotAPlayer
from bot.games.core.parts import Shared, UseCases
from bot.games.core.results import AbortOutcome, GameEnded, MoveOutcome, PlayedMove
from bot.games.core.turns import new_moves, played_turn
from bot.games.play.errors import AbortNeedsOrganiser, AbortTooLate, NotYourTurn
from bot.storage import Game, UserId, VersionConflict
from bot.storage.plans import PlansWaiting
from rules import Move, Position

log = logging.getLogger(__name__)

WithPlans = Callable[[Game, Move, datetime, str | None], Awaitable[MoveOutcome]]
"""Plays a move in a game that has planned lines, with them, in one transaction (the plans'
part: :meth:`bot.games.plans.planning.Planning.play`)."""


class Play(UseCases):
    """The play's use cases, over the store; the games they end run the features' ``hooks``,
    and a move in a game with planned lines is played ``with_plans``."""

    def __init__(self, shared: Shared, *, with_plans: WithPlans) -> None:
        super().__init__(shared)
        self._with_plans = with_plans

    async def play(
        self,
        game_id: int,
        user_id: UserId,
        move: str | Move,
        *,
        expected_version: int | None = None,
        answer: str | None = None,
    ) -> MoveOutcome:
        """Play ``move`` (text such as ``"e3f4"``, or a rules move) for ``user_id``.

        ``answer``: the interaction (its route) whose answer the turn's post may be made as;
        it is kept with the announcement (see :attr:`bot.storage.Notification.answer`).

        Checks, in order: the game exists (:class:`GameNotFound`), the user plays in it
        (:class:`NotAPlayer`), it is running (:class:`GameFinished`), it is still at
        ``expected_version`` if given (:class:`GameChanged`), it is the user's turn
        (:class:`NotYourTurn`), the text is a move (:class:`rules.InvalidMoveError`), the
        user's deadline has not passed (else the game is lost on time now, and
        :class:`~bot.games.core.errors.LostOnTime` raised:
        :func:`bot.games.core.clocks.check_deadline`),
        the move is legal (:class:`rules.IllegalMoveError`). Then records it, with a PASS for
        the next player if they have no legal move, and ends the game if the rules say it is
        over; every reply planned for it is played at once, in the same transaction (see
        :mod:`bot.games.plans.planning`: :attr:`MoveOutcome.replies`); all of it is committed (and
        synced) before this returns. If another action was recorded in the meantime, nothing
        is and :class:`GameChanged` is raised.

        If the call is cancelled while its move is being committed, the move may still be
        recorded: the next read of the game says.
        """
        game = await self._store.game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        colour = game.colour_of(user_id)
        if colour is None:
            raise NotAPlayer(game_id, user_id)
        if not game.is_active:
            raise GameFinished(game_id)
        if expected_version is not None and expected_version != game.version:
            raise GameChanged(game_id, expected_version)
        before = game.position
        if before.turn is not colour:
            raise NotYourTurn(game_id, user_id, colour, before.turn)
        parsed = rules.parse_move(move) if isinstance(move, str) else move
        now = self._now()
        if is_past_deadline(game, now):  # the save below is of this version: at this moment
            raise await refuse_late(
                self._store, game, user_id, now, self._outbox, hooks=self._hooks
            )
        # A pass is never a choice: the turn records at once every pass it forces, so it goes
        # to the player who can move (possibly the mover again).
        turn = turns.turn(before, parsed)
        played = played_turn(game, turn, now)
        position = turn.after
        log.info("game %s: %s plays %s", game_id, user_id, parsed)
        if rules.is_over(position):  # its ending drops the game's lines: none is due
            ended = await self._finish_by_move(game, position, played, now, answer)
            return MoveOutcome(ended.game, before, tuple(played), ended, ended.announcement)
        paused_until = mover_paused_until = None
        if game.deadline_at is not None:
            paused_until = (await self._store.prefs(game.player(position.turn))).vacation_until
        if game.bank is not None:
            mover_paused_until = (await self._store.prefs(user_id)).vacation_until
        updated = continued(
            game, position, now, paused_until, mover_paused_until=mover_paused_until
        )
        try:
            saved = await self._store.save_announced(
                updated,
                game.version,
                new_moves(played, game, updated),
                announcements.turn(updated, played, answer=answer),
                self._outbox.claim(),
                # A game against the bot has no planned lines; any other game's move is saved
                # only if its game has none, looked for in the save's transaction.
                unplanned=game.computer_id is None,
            )
        except VersionConflict:
            raise GameChanged(game_id, game.version) from None
        except PlansWaiting:  # the game has lines: played with them, in one transaction
            return await self._with_plans(game, parsed, now, answer)
        assert saved.notice_id is not None
        return MoveOutcome(saved.game, before, tuple(played), None, saved.notice_id)

    async def _finish_by_move(
        self,
        game: Game,
        position: Position,
        played: list[PlayedMove],
        now: datetime,
        answer: str | None,
    ) -> GameEnded:
        try:
            async with self._store.write() as tx:
                return await finish(
                    tx,
                    game,
                    Ending.by_rules(position),
                    now,
                    self._outbox.claim(),
                    hooks=self._hooks,
                    position=position,
                    moves=new_moves(played, game, game),
                    announce=lambda final, change: announcements.turn(
                        final, played, over=True, change=change, answer=answer
                    ),
                )
        except VersionConflict:
            raise GameChanged(game.id, game.version) from None

    async def resign(
        self, game_id: int, user_id: UserId, *, expected_version: int | None = None
    ) -> GameEnded:
        """``user_id`` gives up; the opponent wins. Raises :class:`GameNotFound`,
        :class:`NotAPlayer`, :class:`GameFinished`, :class:`GameChanged`, and
        :class:`~bot.games.core.errors.DeadlinePassed` once the deadline has passed (the game is
        lost on time instead)."""
        now = self._now()
        async with acting(self._store) as tx:
            game = await game_for_action(tx.game, game_id, user_id, expected_version)
            await check_deadline(tx, game, user_id, now, self._outbox, hooks=self._hooks)
            ending = Ending.resignation(game, user_id)
            ended = await finish(tx, game, ending, now, self._outbox.claim(), hooks=self._hooks)
        log.info("game %s: %s resigned", game_id, user_id)
        return ended

    async def abort(
        self,
        game_id: int,
        user_id: UserId,
        *,
        moderator: bool = False,
        organiser: bool = False,
        expected_version: int | None = None,
    ) -> AbortOutcome:
        """Call a game off without a result.

        A moderator (``moderator=True``: the caller checked the permission) aborts any running
        game at once; so does whoever runs the tournament a game belongs to (``organiser=True``:
        the caller may run the server's tournaments; a players' own is run by its maker), in a
        game they do not play, and nobody else. A player may abort another game only while not
        both players have moved a piece in the movement phase, and only by agreement: the first
        call asks, the opponent's call aborts (the bot, as an opponent, agrees at once).
        Raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`GameFinished`,
        :class:`GameChanged`, :class:`AbortTooLate`, :class:`AbortNeedsOrganiser`, and (a
        player's, not a moderator's or an organiser's)
        :class:`~bot.games.core.errors.DeadlinePassed` once the deadline has passed (the game is
        lost on time instead).
        """
        now = self._now()
        async with acting(self._store) as tx:
            game = await tx.game(game_id)
            if game is None:
                raise GameNotFound(game_id)
            pairing = None if moderator else await tx.pairing_of_game(game_id)
            if pairing is not None:  # a tournament's game: whoever runs the tournament decides
                check_running(game, expected_version)
                tournament = await tx.tournament(pairing.tournament_id)
                if (
                    tournament is None
                    or game.is_player(user_id)
                    or not runs(tournament, user_id, organiser=organiser)
                ):
                    raise AbortNeedsOrganiser("" if tournament is None else tournament.name)
                moderator = True  # called off with authority, not by agreement
            elif moderator:
                check_running(game, expected_version)
            else:
                if not game.is_player(user_id):
                    raise NotAPlayer(game_id, user_id)
                check_running(game, expected_version)
                await check_deadline(tx, game, user_id, now, self._outbox, hooks=self._hooks)
                if len(await tx.phase_two_movers(game_id)) == 2:
                    raise AbortTooLate(game_id)
                opponent = game.opponent_of(user_id)
                # The bot agrees at once, as it does to takebacks.
                if opponent not in (game.abort_requested_by, game.computer_id):
                    asked = dataclasses.replace(game, abort_requested_by=user_id, updated_at=now)
                    saved = await tx.save_game(asked, game.version)
                    log.info("game %s: %s proposes to abort", game_id, user_id)
                    return AbortOutcome(saved, user_id, None, waiting_for=opponent)
            ended = await finish(
                tx, game, Ending.abort(user_id), now, self._outbox.claim(), hooks=self._hooks
            )
        log.info("game %s aborted by %s (moderator: %s)", game_id, user_id, moderator)
        requester = user_id if moderator else (game.abort_requested_by or user_id)
        return AbortOutcome(ended.game, requester, ended, by_moderator=moderator)
