"""The review feature without Discord: what it says of a game, and how reviews share the engine."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, cast

import pytest

import rules
from ai.engine import Engine
from ai.review import Estimate, PlyReview, Review, estimate
from bot.exts.review.reviewer import Reviewer, ReviewsBusy, ReviewStopped, Subject
from bot.exts.review.texts import (
    biggest_swings,
    course,
    graph_description,
    listing_rule,
    mistake_lines,
    pieces,
)
from bot.i18n import ENGLISH, Catalogues, _
from bot.posting.texts import Players
from rules import PLACEMENT_PLIES

PLAYERS = Players("ann", "ben")


def review_of(curve: list[float]) -> Review:
    """A review whose drawn curve is ``curve`` (every lead proven: no smoothing)."""
    return Review(plies=(), leads=tuple(curve), proven=(True,) * len(curve))


def said(review: Review) -> list[str]:
    return [ENGLISH.render(line) for line in course(review, PLAYERS)]


def test_the_course_says_who_led_after_the_placement_and_from_when_for_good() -> None:
    curve = [0.0] * 30 + [3.2] * 20 + [-6.0] * 10 + [2.0] * 5 + [-1.5, -4.0]
    lines = said(review_of(curve))
    assert lines == [
        "After the placement ann was ahead by about 3 pieces.",
        # ann led from move 30, in the placement: her best moment is counted from its end.
        "ann was ahead by up to 3 pieces (move 49).",
        "ben was ahead for good from move 65.",
    ]


def test_a_level_game_says_so_and_no_more() -> None:
    curve = [0.0] * (PLACEMENT_PLIES + 5)
    assert said(review_of(curve)) == ["After the placement the game was level."]


def test_no_lead_is_for_good_on_the_placements_estimates_alone() -> None:
    # This once said "ann was ahead for good from move 2": a claim on the placement's
    # estimates, which barely predict the end (ai.review), when only DVONN pieces stood.
    assert said(review_of([0.0, 0.4, 2.0])) == []
    ended_in_the_placement = [0.0] * 10 + [5.0] * (PLACEMENT_PLIES - 10)
    assert said(review_of(ended_in_the_placement)) == []
    # ben led by the placement's estimates from move 3, and through all the movement.
    led_throughout = [0.0] * 3 + [-5.0] * (PLACEMENT_PLIES - 3) + [-2.0] * 20 + [-7.0]
    assert said(review_of(led_throughout)) == [
        "After the placement ben was ahead by about 2 pieces.",
        "ben was ahead from the end of the placement to the end.",
    ]
    # ann's lead in the placement is not named; ben's lead from the first move is.
    turned = [0.0] * 3 + [8.0] * (PLACEMENT_PLIES - 3) + [0.5, -3.0, -3.0, -6.0]
    assert said(review_of(turned)) == [
        "After the placement the game was level.",
        "ben was ahead for good from move 50.",
    ]


def test_numbers_are_written_as_the_reader_writes_them() -> None:
    assert pieces(-3.14, "en") == "3.1" and pieces(3.14, "fr") == "3,1"
    assert pieces(12, "ru") == "12,0"


def test_mistakes_are_listed_by_player_numbered_in_the_order_played() -> None:
    moves = list(rules.parse_record("C3 I3 E3 D3 F3 C2 G3 C4 G4"))
    review = _review_with_losses(moves, {4: 2.0, 5: 3.0, 7: 1.0})
    lines = [ENGLISH.render(t) for t in mistake_lines(review, PLAYERS, "en")]
    assert lines[0] == "**Biggest mistakes**"
    assert lines[1:] == [
        "ann (White):",
        "**1** · move 5: F3 (−2.0); better E3",
        "ben (Black):",
        "**2** · move 6: C2 (−3.0); better E3",
    ]
    french = Catalogues().render(mistake_lines(review, PLAYERS, "fr")[2], "fr")
    assert french == "**1** · coup 5 : F3 (−2,0) ; mieux : E3"


def test_an_estimated_loss_is_not_listed_and_the_review_says_why() -> None:
    moves = list(rules.parse_record("C3 I3 E3 D3 F3 C2 G3 C4 G4"))
    review = _review_with_losses(moves, {4: 2.0, 5: 3.0})
    estimated = dataclasses.replace(
        review, plies=tuple(dataclasses.replace(p, proven=False) for p in review.plies)
    )
    lines = [ENGLISH.render(t) for t in mistake_lines(estimated, PLAYERS, "en")]
    assert lines[1:] == [
        "ann (White): no mistake the engine could prove.",
        "ben (Black): no mistake the engine could prove.",
    ]
    assert ENGLISH.render(listing_rule()) == (
        "-# A mistake is listed only where the engine worked the game out to its end and proved "
        "what the move cost; placements are not weighed."
    )


def _review_with_losses(moves: list[rules.Move], losses: dict[int, float]) -> Review:
    plies = []
    for ply, move in enumerate(moves):
        colour = rules.replay(moves[:ply])[-1].turn
        best = rules.parse_move("E3") if ply in losses else move
        loss = losses.get(ply, 0.0)
        plies.append(PlyReview(ply, colour, move, best, 0, 0, 0, loss, ply >= 3, proven=True))
    return Review(tuple(plies), (0.0,) * (len(moves) + 1), (False,) * (len(moves) + 1))


def test_the_graph_in_words_says_who_led_when_and_the_biggest_swings() -> None:
    curve = [0.0] * 30 + [3.2] * 20 + [-6.0] * 10 + [2.0] * 5 + [-1.5, -4.0]
    moves = list(rules.parse_record("C3 I3 E3 D3 F3 C2 G3 C4 G4"))
    mistakes = _review_with_losses(moves, {4: 2.0, 5: 3.0})
    review = dataclasses.replace(mistakes, leads=tuple(curve), proven=(True,) * len(curve))
    assert [ENGLISH.render(line) for line in graph_description(review, PLAYERS)] == [
        "Graph of the lead in pieces after each move, as the engine sees it: White's lead "
        "above the middle line, Black's below it.",
        "After the placement ann was ahead by about 3 pieces.",
        "ann was ahead by up to 3 pieces (move 49).",
        "ben was ahead for good from move 65.",
        "Biggest swings: 9 pieces toward ben at move 50, 8 pieces toward ann at move 60, "
        "4 pieces toward ben at move 65.",
        "The 2 numbered marks are the mistakes listed in the message.",
    ]


def test_a_swing_spread_over_three_points_is_named_once() -> None:
    # The drawn curve averages each lead with its neighbours: one move's jump of 4 pieces
    # shows as steps of 1, 2 and 1.
    assert biggest_swings([0.0, 0.0, 0.0, 1.0, 3.0, 4.0, 4.0]) == [(4, 2.0)]
    assert biggest_swings([0.0, 0.5, 0.2, -0.4]) == []  # nothing of a whole piece
    assert biggest_swings([0.0, -2.0, -2.0, 3.0, 3.0, 0.0, 0.0, 1.5], count=2) == [
        (3, 5.0),
        (5, -3.0),
    ]


class SlowEngine:
    """Answers searches as the review does, once let go; counts them."""

    def __init__(self) -> None:
        self.go = asyncio.Event()
        self.searched: list[str] = []

    async def estimate(self, position: rules.Position, *args: Any, **kwargs: Any) -> Estimate:
        self.searched.append(position.to_text())
        await self.go.wait()
        return estimate(position, budget=None, max_nodes=300)


def subject(key: str, record: str) -> Subject:
    moves = tuple(rules.parse_record(record))
    return Subject(key, moves, PLAYERS, lambda _players: _("Game over"))


async def test_reviews_are_shared_kept_and_limited() -> None:
    engine = SlowEngine()
    reviewer = Reviewer(cast(Engine, engine), budget=None, at_once=1)
    first = subject("g1", "C3 I3 E3 D3 F3 C2")
    asked = [asyncio.create_task(reviewer.review(first)) for _ in range(2)]
    await asyncio.sleep(0.01)
    with pytest.raises(ReviewsBusy):  # one at a time
        reviewer.start(subject("g2", "C3 I3 E3 D3 F3 C2 G3"))
    joined = reviewer.start(first)  # asking again joins the one under way
    engine.go.set()
    one, two = await asyncio.gather(*asked)
    assert await joined() is one
    searched = len(engine.searched)
    assert one is two and searched == len(set(engine.searched))  # each position once
    kept = reviewer.reviewed("g1")
    assert kept is not None and kept.review is one and kept.subject == first
    assert await reviewer.review(first) is one and len(engine.searched) == searched  # kept
    second = reviewer.start(subject("g2", "C3 I3 E3 D3 F3 C2 G3"))  # the first is done
    assert (await second()).plies
    await reviewer.close()


async def test_closing_stops_the_reviews_under_way() -> None:
    engine = SlowEngine()
    reviewer = Reviewer(cast(Engine, engine), budget=None)
    task = asyncio.create_task(reviewer.review(subject("g3", "C3 I3 E3 D3 F3")))
    await asyncio.sleep(0.01)
    await reviewer.close()
    # The asker learns that the review stopped (to tell the player), and is not cancelled.
    with pytest.raises(ReviewStopped):
        await task
    assert reviewer.reviewed("g3") is None
