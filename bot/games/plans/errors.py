"""Refusals of a planned line (the pattern of every service error: :mod:`bot.games.core.errors`)."""

from __future__ import annotations

import rules
from bot.games.core.errors import GameError, ServiceError


class PlanError(GameError):
    """A line that cannot be planned."""


class EmptyLine(PlanError):
    key = "plan.empty"
    template = (
        "Write a line of moves, such as E3 F4 D2 D3: the move you expect, your reply, the next "
        "move you expect, your next reply."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class PlanNotAMove(PlanError):
    key = "plan.not_a_move"
    template = "Move {number} of your line is not a move: {reason}"

    def __init__(self, game_id: int, number: int, error: rules.RulesError) -> None:
        self.game_id = game_id
        self.number = number
        self.error = error
        super().__init__(game_id=game_id, number=number, reason=error)


class PlanIllegalMove(PlanError):
    """A move of the line cannot be played in the position it would be played in."""

    key = "plan.illegal"
    template = "Move {number} of your line, {move}, could not be played there: {reason}"

    def __init__(self, game_id: int, number: int, move: str, error: rules.RulesError) -> None:
        self.game_id = game_id
        self.number = number
        self.move = move
        self.error = error
        super().__init__(game_id=game_id, number=number, move=move, reason=error)


class PlanPastTheEnd(PlanError):
    key = "plan.past_the_end"
    template = "The game would be over before move {number} of your line ({move}): end it sooner."

    def __init__(self, game_id: int, number: int, move: str) -> None:
        self.game_id = game_id
        self.number = number
        self.move = move
        super().__init__(game_id=game_id, number=number, move=move)


class PlanEndsOnTheirMove(PlanError):
    key = "plan.ends_on_their_move"
    template = (
        "Your line ends with {move}, a move of your opponent's: end it with your reply to it."
    )

    def __init__(self, game_id: int, move: str) -> None:
        self.game_id = game_id
        self.move = move
        super().__init__(game_id=game_id, move=move)


class PlanTooLong(PlanError):
    key = "plan.too_long"
    template = "A line holds at most {most} moves; yours has {count}."

    def __init__(self, game_id: int, count: int, most: int) -> None:
        self.game_id = game_id
        self.count = count
        self.most = most
        super().__init__(game_id=game_id, count=count, most=most)


class TooManyLines(PlanError):
    key = "plan.too_many"
    template = (
        "You have {most} lines planned in this game, the most there may be: clear them "
        "(/dvonn plan clear:True) to plan others."
    )

    def __init__(self, game_id: int, most: int) -> None:
        self.game_id = game_id
        self.most = most
        super().__init__(game_id=game_id, most=most)


class PlanConflict(PlanError):
    """Another line of the player's answers the same moves with another reply."""

    key = "plan.conflict"
    template = (
        "Move {number} of your line answers with {move}, but your line {planned} answers the "
        "same moves with {other}: plan the same reply, or clear your lines first "
        "(/dvonn plan clear:True)."
    )

    def __init__(self, game_id: int, number: int, move: str, other: str, planned: str) -> None:
        self.game_id = game_id
        self.number = number
        self.move = move
        self.other = other
        self.planned = planned
        super().__init__(game_id=game_id, number=number, move=move, other=other, planned=planned)


class PlansAgainstTheBot(PlanError):
    key = "plan.against_the_bot"
    template = (
        "The bot answers your moves at once, so there is nothing to plan in a game against it: "
        "play your moves as they come."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)


class PlanNotHere(ServiceError):
    """A line beginning with the player's own move where the bot can only answer (a private
    game): playing it would post the board as the answer to the plan, for the opponent to see."""

    key = "plan.own_move_private"
    template = (
        "It is your turn: play your move with /dvonn play first, then plan your replies "
        "while you wait."
    )

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(game_id=game_id)
