"""Conditional moves as use cases: plan a line, see and clear one's lines, and play a move
together with the lines of its game. What a line may be, and how lines answer moves, is
:mod:`bot.games.plans.lines` (pure); they are kept by :mod:`bot.storage.plans`.

How a planned reply is played once, on any number of processes: in the transaction of the move
that it answers. :meth:`GameService.play <bot.games.play.moves.Play.play>` saves a move
without looking at lines; the storage refuses the save if the game has any, looked for once
the save's transaction holds the game's row (:class:`~bot.storage.plans.PlansWaiting`), and
the move is played here instead: :meth:`Planning.play` holds the game's row, reads its lines,
and writes in one commit the move, every planned reply after it (with the passes they force),
their posts (an outbox row each, like any move's), and the lines as they go on. A line is
planned (:meth:`Planning.plan`) in a transaction that holds the game's row too, so it is either
seen by the move's transaction or planned after the move, against the new position. (A move
that ends the game needs no lines: the ending drops them.)

Clocks: a planned reply is a move made at the moment of the move it answers, so its player's
time bank loses nothing and gains its increment, and the next player's clock starts then.
A takeback, an abort and every ending drop a game's lines (:mod:`bot.games.takebacks.requests`,
:func:`bot.games.core.endings.finish`). Games against the bot have no lines: it answers at once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core import announcements
from bot.games.core.checks import game_for_action
from bot.games.core.clocks import acting, check_deadline, continued
from bot.games.core.endings import Ending, finish
from bot.games.core.errors import GameChanged, GameNotFound, NotAPlayer
from bot.games.core.parts import UseCases
from bot.games.core.results import GameEnded, MoveOutcome, PlayedMove
from bot.games.core.turns import new_moves, played_turn
from bot.games.plans import lines as plans
from bot.games.plans.errors import PlanNotHere, PlansAgainstTheBot
from bot.games.plans.lines import Line
from bot.storage import Game, NewMove, UserId, VersionConflict, Writer
from bot.storage.plans import StoredLine
from rules import Colour, Move

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Planned:
    """What :meth:`Planning.plan` did."""

    game: Game
    """The game now."""
    line: Line | None
    """The line kept (what is left of it, if it began with the player's own move and a chain
    of planned moves went on from there); ``None`` once all of it was played."""
    lines: tuple[Line, ...]
    """All the player's lines in the game now, the new one among them."""
    played: MoveOutcome | None = None
    """The player's own move, when the line began with it (it is played at once)."""
    planned_already: bool = False
    """Another of the player's lines held all of this one already: nothing new was kept."""


class Planning(UseCases):
    """The use cases of conditional moves (:attr:`GameService.plans`)."""

    async def plan(
        self,
        game_id: int,
        user_id: UserId,
        line: str | Sequence[Move],
        *,
        expected_version: int | None = None,
    ) -> Planned:
        """Plan ``line`` (text such as ``"E3 F4 D2 D3"``, or moves) for ``user_id``: the move
        they expect of their opponent, their reply, and so on. On their own turn a line begins
        with their own move, which is played at once (with whatever was planned after it), the
        rest being kept.

        Raises :class:`GameNotFound`, :class:`NotAPlayer`, :class:`GameFinished`,
        :class:`GameChanged` (not at ``expected_version``, or it moved on meanwhile),
        :class:`~bot.games.plans.errors.PlansAgainstTheBot`,
        :class:`~bot.games.plans.errors.PlanNotHere` (the player's own move in a private game)
        and every :class:`~bot.games.plans.errors.PlanError` of :func:`~bot.games.plans.lines.read`
        and :func:`~bot.games.plans.lines.check`."""
        game = await self._game_for(game_id, user_id, expected_version)
        colour = game.colour_of(user_id)
        assert colour is not None
        moves = plans.read(line, game.position, game_id=game_id) if isinstance(line, str) else line
        if game.position.turn is colour:
            return await self._play_and_plan(game, user_id, colour, moves)
        now = self._now()
        async with self._store.write() as tx:
            current = await tx.game(game_id)  # its row: a move and this line take turns
            if current is None or current.version != game.version:
                raise GameChanged(game_id, game.version)
            stored = await tx.plans_of_game(game_id)
            mine = [_line(current, s) for s in stored if s.user_id == user_id]
            live = [old for old in mine if old.ply == current.ply]
            checked = plans.check(current.position, colour, moves, live, game_id=game_id)
            if checked.planned_already is not None:
                return Planned(current, checked.planned_already, tuple(live), planned_already=True)
            gone = [old for old in mine if old.ply != current.ply or old in checked.replaces]
            await tx.delete_plans([old.key for old in gone if old.key is not None])
            row = await tx.insert_plan(game_id, user_id, current.ply, checked.line.text, now)
        new = _line(current, row)
        kept = (*(old for old in live if old not in checked.replaces), new)
        log.info("game %s: %s planned a line of %d moves", game_id, user_id, len(new.moves))
        return Planned(current, new, kept)

    async def _play_and_plan(
        self, game: Game, user_id: UserId, colour: Colour, moves: Sequence[Move]
    ) -> Planned:
        """A line that begins with the player's own move: checked whole, then its first move
        played at once, with the line among the game's lines."""
        if game.private:
            raise PlanNotHere(game.id)  # its board could only be the answer to the plan
        checked = plans.check(game.position, colour, moves, game_id=game.id)
        outcome = await self.play(game, checked.line.moves[0], self._now(), None, new=checked.line)
        # The player had no line of their own turn: what they have now is what is left of it.
        _, lines = await self.lines(game.id, user_id)
        return Planned(outcome.game, lines[-1] if lines else None, lines, outcome)

    async def lines(self, game_id: int, user_id: UserId) -> tuple[Game, tuple[Line, ...]]:
        """A player's own lines in a game (never their opponent's), as planned; none once the
        game is over. Raises :class:`GameNotFound`, :class:`NotAPlayer`."""
        game = await self._store.game(game_id)
        if game is None:
            raise GameNotFound(game_id)
        if not game.is_player(user_id):
            raise NotAPlayer(game_id, user_id)
        if not game.is_active:
            return game, ()
        stored = await self._store.plans_of(game_id, user_id)
        return game, tuple(line for s in stored if (line := _line(game, s)).ply == game.ply)

    async def clear(self, game_id: int, user_id: UserId) -> int:
        """Drop a player's lines in a game; returns how many were live. Raises
        :class:`GameNotFound`, :class:`NotAPlayer`."""
        async with self._store.write() as tx:
            game = await tx.game(game_id)
            if game is None:
                raise GameNotFound(game_id)
            if not game.is_player(user_id):
                raise NotAPlayer(game_id, user_id)
            live = [s for s in await tx.plans_of_game(game_id) if s.user_id == user_id]
            await tx.drop_plans(game_id, user_id)
        return sum(1 for s in live if s.ply == game.ply and game.is_active)

    async def _game_for(self, game_id: int, user_id: UserId, expected_version: int | None) -> Game:
        game = await game_for_action(self._store.game, game_id, user_id, expected_version)
        if game.computer_id is not None:
            raise PlansAgainstTheBot(game_id)
        return game

    # --- the move path -------------------------------------------------------------------------

    async def play(
        self,
        game: Game,
        move: Move,
        now: datetime,
        answer: str | None,
        *,
        new: Line | None = None,
    ) -> MoveOutcome:
        """Play ``move`` in ``game`` (read at its current version, the mover's turn checked)
        with the game's lines (and ``new``, a line of the mover's beginning with ``move``):
        the move, every planned reply after it and the lines as they go on, in one
        transaction. Raises :class:`GameChanged` if the game moved on, and the rules' errors
        for a move that cannot be played."""
        try:
            async with acting(self._store) as tx:
                current = await tx.game(game.id)  # its row, before its lines
                if current is None or current.version != game.version:
                    raise GameChanged(game.id, game.version)
                mover = current.player(current.position.turn)
                await check_deadline(tx, current, mover, now, self._outbox, hooks=self._hooks)
                stored = await tx.plans_of_game(game.id)
                lines = [_line(current, s) for s in stored]
                chain = plans.play(current.position, move, [*lines, *([new] if new else [])])
                paused: dict[UserId, datetime | None] = {}  # without a clock, nothing to pause
                if current.clock_days is not None or current.bank is not None:
                    paused = {
                        user: (await tx.prefs(user, lock=False)).vacation_until
                        for user in current.human_ids
                    }
                outcome = await self._record(
                    tx, current, chain, now=now, answer=answer, paused=paused
                )
                if outcome.ended is None:  # an ending drops them all (endings.finish)
                    await _keep(tx, current, stored, chain, now)
        except VersionConflict:
            raise GameChanged(game.id, game.version) from None
        log.info(
            "game %s: %s plays %s, and %d planned moves after it",
            game.id,
            outcome.move.player_id,
            move,
            len(chain.planned),
        )
        return outcome

    async def _record(
        self,
        tx: Writer,
        game: Game,
        chain: plans.Played,
        *,
        now: datetime,
        answer: str | None,
        paused: Mapping[UserId, datetime | None],
    ) -> MoveOutcome:
        """Write the turns of ``chain`` (the first answering ``answer``, if given): the moves,
        a post each, and the game as it is after them, ended by the rules if the last turn
        ended it. ``paused``: each player's vacation, if any."""
        claim = self._outbox.claim()
        turns = [played_turn(game, turn, now) for turn in chain.turns]
        ends = rules.is_over(chain.position)
        going_on = len(turns) - 1 if ends else len(turns)
        state, records, notices = game, list[NewMove](), list[int]()
        for index in range(going_on):
            turn, played = chain.turns[index], turns[index]
            after = continued(
                state,
                turn.after,
                now,
                paused.get(state.player(turn.after.turn)),
                mover_paused_until=paused.get(state.player(turn.played.mover)),
            )
            records.extend(new_moves(played, state, after))
            notice = announcements.turn(
                after,
                played,
                answer=answer if index == 0 else None,
                followed=index < len(turns) - 1,
            )
            notices.append(await tx.enqueue(notice, now, claim))
            state = after
        if not ends:
            saved = await tx.save_game(state, game.version, records)
            return _outcome(saved, game, turns, None, notices)
        last, route = turns[-1], answer if len(turns) == 1 else None
        ended = await finish(
            tx,
            state,
            Ending.by_rules(chain.position),
            now,
            claim,
            hooks=self._hooks,
            position=chain.position,
            moves=[*records, *new_moves(last, state, state)],
            announce=lambda final, change: announcements.turn(
                final, last, over=True, change=change, answer=route
            ),
        )
        return _outcome(ended.game, game, turns, ended, [*notices, ended.announcement])


def _outcome(
    saved: Game,
    before: Game,
    turns: Sequence[list[PlayedMove]],
    ended: GameEnded | None,
    notices: Sequence[int],
) -> MoveOutcome:
    replies = tuple(m for played in turns[1:] for m in played)
    return MoveOutcome(saved, before.position, tuple(turns[0]), ended, notices[0], replies)


async def _keep(
    tx: Writer, game: Game, stored: Sequence[StoredLine], chain: plans.Played, now: datetime
) -> None:
    """Write the lines as they go on after ``chain``: moved on, dropped, or (a new one) kept."""
    kept = {line.key: line for line in chain.kept if line.key is not None}
    await tx.delete_plans([s.id for s in stored if s.id not in kept])
    await tx.update_plans([(key, line.ply, line.text) for key, line in kept.items()])
    for line in chain.kept:
        if line.key is None:
            await tx.insert_plan(game.id, game.player(line.owner), line.ply, line.text, now)


def _line(game: Game, stored: StoredLine) -> Line:
    owner = game.colour_of(stored.user_id)
    assert owner is not None, "a line is a player's"
    return Line(owner, stored.ply, tuple(rules.parse_record(stored.moves)), stored.id)
