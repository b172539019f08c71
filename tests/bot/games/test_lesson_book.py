"""The lessons' book against the rules: every position real, every task solvable, every legal try
either right or a miss with its reason, every illegal try refused with the rules' own error,
every question's answer the count's, and the game lesson playable to its end."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import ai
import rules
from bot.games.lessons import book
from bot.games.lessons.book import Aim, Ask, GameTask, MoveTask, Question, Task
from rules import Cell, Position

TASKS = [task for _lesson, task in book.tasks()]
MOVE_TASKS = [task for task in TASKS if isinstance(task, MoveTask)]
QUESTIONS = [task for task in TASKS if isinstance(task, Question)]
GAMES = [task for task in TASKS if isinstance(task, GameTask)]


def ids(task: Task) -> str:
    return task.key


def linked(position: Position) -> set[Cell]:
    """The occupied cells linked to a DVONN piece through occupied neighbours (worked out here,
    not by the rules' own bit masks)."""
    reached = {cell for cell, stack in enumerate(position.stacks) if "D" in stack}
    frontier = list(reached)
    while frontier:
        cell = frontier.pop()
        for neighbour in rules.NEIGHBOURS[cell]:
            if position.stack(neighbour) and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached


def tries(position: Position) -> Iterator[rules.Move]:
    """Moves a learner may try, legal or not: every occupied cell to every cell in line with it
    at any distance, a placement on every cell, and a pass."""
    for source, stack in enumerate(position.stacks):
        if stack:
            for ray in rules.RAYS[source]:
                for target in ray:
                    yield rules.jump(source, target)
    for cell in rules.CELLS:
        yield rules.Place(cell)
    yield rules.PASS


def test_the_lessons_come_in_the_order_they_are_taught() -> None:
    assert [lesson.key for lesson in book.LESSONS] == [
        "placing",
        "distance",
        "landing",
        "surrounded",
        "control",
        "cut_off",
        "keep_linked",
        "dvonn",
        "pass",
        "count",
        "game",
    ]
    assert [type(task) for task in book.LESSONS[-1].tasks] == [GameTask]
    assert {book.learner(task) for task in TASKS} == set(rules.Colour)
    assert all(1 <= len(lesson.tasks) <= 3 for lesson in book.LESSONS)
    keys = [task.key for task in TASKS]
    assert len(set(keys)) == len(keys)
    assert len({lesson.key for lesson in book.LESSONS}) == len(book.LESSONS)
    assert all(book.lesson(lesson.key) is lesson for lesson in book.LESSONS)
    with pytest.raises(KeyError):
        book.lesson("chess")


@pytest.mark.parametrize("task", TASKS, ids=ids)
def test_each_position_is_real_and_the_learner_is_to_move(task: Task) -> None:
    position = task.position
    assert Position.from_text(position.to_text()) == position
    assert book.learner(task) is position.turn
    if isinstance(task, Question) and task.ask is not Ask.OWNER:
        return  # a question about the count may be asked at the end
    assert not rules.is_over(position)
    if position.is_placement:
        # Placed one by one from the empty board: one piece a ply, the DVONN pieces first.
        assert position.pieces_on_board() == position.ply
        assert "".join(position.stacks).count("D") == min(position.ply, 3)
    else:
        assert "".join(position.stacks).count("D") == 3
        occupied = set(position.occupied_cells())
        assert linked(position) == occupied, "a stack cut off before the learner moves"


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_each_move_task_has_a_right_move_and_wrong_ones_that_say_why(task: MoveTask) -> None:
    legal = rules.legal_moves(task.position)
    verdicts = {move: book.judge(task, move) for move in legal}
    right = [move for move, verdict in verdicts.items() if verdict.right]
    missed = [move for move, verdict in verdicts.items() if verdict.miss is not None]
    assert right, "no move meets the goal"
    assert set(right) == set(book.solutions(task))
    assert set(right) | set(missed) == set(legal)
    assert all(verdict.error is None for verdict in verdicts.values())
    if task.goal.aim is Aim.PASS:
        assert legal == (rules.PASS,)
    elif task.goal.aim is not Aim.ANY:
        assert missed, "no legal move misses: the task teaches nothing"
    if task.goal.aim is Aim.ONE_OF:
        assert task.goal.moves <= set(legal), "a goal move is not legal"
        assert set(right) == task.goal.moves


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_each_miss_is_explained_by_what_the_move_did(task: MoveTask) -> None:
    for move in rules.legal_moves(task.position):
        verdict = book.judge(task, move)
        if verdict.miss is None:
            continue
        assert verdict.result is not None
        removal = book.Removal.of(verdict.result)
        key, params = verdict.miss.key, verdict.miss.params
        if task.goal.aim is Aim.ONE_OF:
            assert key.startswith("one_of."), key
            assert move not in task.goal.moves
        elif task.goal.aim is Aim.CUT_OFF:
            expected = (
                "cut_off.own"
                if removal.mine
                else "cut_off.nothing"
                if not removal.theirs
                else "cut_off.too_few"
            )
            assert key == expected
            if key == "cut_off.too_few":
                assert params["removed"] == removal.theirs < task.goal.count
        elif task.goal.aim is Aim.KEEP_LINKED:
            assert key == "keep_linked.cut_own"
            assert params["count"] == removal.mine > 0
        else:
            pytest.fail(f"{task.goal.aim} never misses, yet {move} did: {key}")


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_illegal_tries_get_the_rules_own_error(task: MoveTask) -> None:
    legal = set(rules.legal_moves(task.position))
    refused = 0
    for move in tries(task.position):
        verdict = book.judge(task, move)
        typed = book.judge(task, str(move).lower())
        assert typed.move == move and typed.right == verdict.right
        if move in legal:
            assert verdict.error is None
            continue
        with pytest.raises(rules.IllegalMoveError) as raised:
            rules.play(task.position, move)
        assert verdict.error is not None and not verdict.right
        assert verdict.error.reason is raised.value.reason
        assert dict(verdict.error.params) == dict(raised.value.params)
        assert typed.error is not None and typed.error.reason is raised.value.reason
        refused += 1
    assert refused > 0
    nonsense = book.judge(task, "hello")
    assert nonsense.move is None and isinstance(nonsense.error, rules.InvalidMoveError)


@pytest.mark.parametrize("task", QUESTIONS, ids=ids)
def test_each_question_is_answered_by_the_count(task: Question) -> None:
    answer = book.answer_of(task)
    assert answer in task.choices
    assert len(set(task.choices)) == len(task.choices) >= 2
    white, black = rules.score(task.position)
    if task.ask is Ask.OWNER:
        assert task.cell is not None
        top = task.position.stack(task.cell)[-1]
        assert answer == {"W": "white", "B": "black"}[top]
    elif task.ask is Ask.MARGIN:
        assert rules.is_over(task.position)
        assert int(answer) == abs(white - black)
    else:
        over = rules.outcome(task.position)
        assert over is not None, "who wins is asked at the end"
        assert answer == ("draw" if over.winner is None else over.winner.name.lower())


def play_out(position: Position, seed: int) -> tuple[Position, int]:
    """The game played to its end by two beginners; the end and the learner's moves."""
    learner, moves = position.turn, 0
    while not rules.is_over(position):
        if position.turn is learner and rules.legal_moves(position) != (rules.PASS,):
            moves += 1
        move = ai.choose_move(position, level=ai.Level.BEGINNER, seed=seed)
        position = rules.play(position, move)
    return position, moves


@pytest.mark.parametrize("task", GAMES, ids=ids)
def test_the_game_is_short_open_and_playable_to_its_end(task: GameTask) -> None:
    assert ai.Level.parse(task.level) is ai.Level.BEGINNER
    winners = set()
    started = time.monotonic()
    for seed in range(12):
        end, moves = play_out(task.position, seed)
        assert rules.outcome(end) is not None
        assert 3 <= moves <= 16, moves
        over = rules.outcome(end)
        assert over is not None
        winners.add(over.winner)
    assert time.monotonic() - started < 12 * 3
    assert book.learner(task) in winners, "the learner never wins"
    assert book.learner(task).opponent in winners, "the game is decided already"


R = rules.IllegalReason
TRAPS = {
    "placing.dvonn": {R.CELL_OCCUPIED, R.PLACEMENT_NOT_OVER},
    "distance.one": {R.WRONG_DISTANCE, R.TARGET_EMPTY},
    "distance.two": {R.WRONG_DISTANCE, R.TARGET_EMPTY},
    "landing.three": {R.TARGET_EMPTY, R.WRONG_DISTANCE},
    "surrounded.free": {R.SURROUNDED},
    "surrounded.edge": {R.SURROUNDED},
    "control.capture": {R.NOT_YOUR_STACK},
    "dvonn.carry": {R.LONE_DVONN},
    "pass.must": {R.TARGET_EMPTY},
    "pass.not_allowed": {R.PASS_NOT_ALLOWED},
}
"""The illegal tries each task is there to explain (a beginner's likely mistakes)."""
MISSES = {
    "distance.two": {"one_of.other_stack"},
    "surrounded.free": {"one_of.other_stack"},
    "surrounded.edge": {"one_of.other_stack"},
    "control.capture": {"one_of.other_target"},
    "cut_off.bridge": {"cut_off.own", "cut_off.nothing", "cut_off.too_few"},
    "keep_linked.bridge": {"keep_linked.cut_own"},
    "dvonn.carry": {"cut_off.nothing"},
}
"""The legal but wrong moves each task is there to explain."""


@pytest.mark.parametrize("task", MOVE_TASKS, ids=ids)
def test_the_mistakes_each_task_teaches_can_be_made(task: MoveTask) -> None:
    tried = [book.judge(task, move) for move in tries(task.position)]
    errors = {verdict.error.reason for verdict in tried if verdict.error is not None}
    misses = {verdict.miss.key for verdict in tried if verdict.miss is not None}
    assert TRAPS.get(task.key, set()) <= errors
    assert MISSES.get(task.key, set()) <= misses
    assert set(TRAPS) | set(MISSES) <= {each.key for each in MOVE_TASKS}


def test_the_board_hides_the_score_while_the_count_is_asked() -> None:
    counts = [task for task in QUESTIONS if task.ask in {Ask.WINNER, Ask.MARGIN}]
    assert counts
    assert not any(book.shows_score(task) for task in counts)
    assert all(book.shows_score(task) for task in TASKS if task not in counts)
