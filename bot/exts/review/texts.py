"""What a review says: who was ahead when, how it ended, and each player's biggest mistakes.

Pure: texts to render for a reader (numbers with decimals are written in the reader's language
here, since a catalogue cannot); the command and the buttons send them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from babel.numbers import format_decimal

import rules
from ai.review import Review
from bot.games.core.models import EndReason
from bot.i18n import COLOUR_NAMES, Text, _, n_
from bot.posting.descriptions import listed
from bot.posting.texts import Players, result_line
from render import GraphMark
from rules import PLACEMENT_PLIES, Colour, Move, Position

LEVEL: Final = 1.0
"""Leads smaller than this many pieces count as level."""
SWINGS: Final = 3
"""How many of the curve's biggest swings the graph's alt text names."""


def pieces(value: float, language: str) -> str:
    """A number of pieces with one decimal, as the reader writes it (``3.1``, ``3,1``)."""
    return format_decimal(round(abs(value), 1), format="0.0", locale=language)


def transcript_ending(final: Position, resigned: Colour | None, players: Players) -> Text:
    """How a transcript's game ended (in the words of the bot's own games' endings)."""
    white, black = rules.score(final)
    if resigned is not None:
        return result_line(EndReason.RESIGNATION, resigned.opponent, (white, black), players)
    winner = None if white == black else Colour.WHITE if white > black else Colour.BLACK
    return result_line(EndReason.SCORE, winner, (white, black), players)


def course(review: Review, players: Players) -> list[Text]:
    """Who was ahead when, from the drawn curve, from the end of the placement on: the lead
    then, the side behind at the end at its best moment, and when the side ahead at the end
    took the lead for good.

    Nothing is said of the placement's own leads: they rest on the placement's evaluation,
    which barely predicts how a game ends (see :mod:`ai.review`), so that a lead "for good
    from move 3", when only the DVONN pieces stood, was no verdict at all. A winner ahead
    through all the movement was ahead from the end of the placement; a game that ended in
    the placement gets no line."""
    curve = review.curve()
    lines: list[Text] = []
    if len(curve) <= PLACEMENT_PLIES:
        return lines
    lead = curve[PLACEMENT_PLIES]
    if abs(lead) < LEVEL:
        lines.append(_("After the placement the game was level."))
    else:
        lines.append(
            n_(
                "After the placement {player} was ahead by about {count} piece.",
                "After the placement {player} was ahead by about {count} pieces.",
                round(abs(lead)),
                player=players.name(Colour.WHITE if lead > 0 else Colour.BLACK),
            )
        )
    final = curve[-1]
    if abs(final) < LEVEL:
        return lines
    ahead = Colour.WHITE if final > 0 else Colour.BLACK
    sign = 1 if ahead is Colour.WHITE else -1
    moves = range(PLACEMENT_PLIES, len(curve))
    behind_best = max(moves, key=lambda i: (-sign * curve[i], -i))
    if -sign * curve[behind_best] >= LEVEL:
        lines.append(
            n_(
                "{player} was ahead by up to {count} piece (move {number}).",
                "{player} was ahead by up to {count} pieces (move {number}).",
                round(-sign * curve[behind_best]),
                player=players.name(ahead.opponent),
                number=behind_best,
            )
        )
    since = len(curve) - 1
    while since > PLACEMENT_PLIES and sign * curve[since - 1] >= LEVEL:
        since -= 1
    if since == PLACEMENT_PLIES:
        lines.append(
            _(
                "{player} was ahead from the end of the placement to the end.",
                player=players.name(ahead),
            )
        )
    else:
        lines.append(
            _(
                "{player} was ahead for good from move {number}.",
                player=players.name(ahead),
                number=since,
            )
        )
    return lines


def move_text(move: Move) -> str:
    """A move as the record spells it (``E3``, ``E3F4``)."""
    return str(move)


def mistake_lines(review: Review, players: Players, language: str) -> list[Text]:
    """Each player's biggest mistakes, numbered as on the graph, with the better move."""
    numbers = {m.ply: index for index, m in enumerate(review.mistakes(), start=1)}
    lines: list[Text] = [_("**Biggest mistakes**")]
    for colour in (Colour.WHITE, Colour.BLACK):
        mistakes = review.mistakes(colour)
        name, colour_name = players.name(colour), COLOUR_NAMES[colour]
        if not mistakes:
            lines.append(
                _(
                    "{player} ({colour}): no mistake the engine could prove.",
                    player=name,
                    colour=colour_name,
                )
            )
            continue
        lines.append(_("{player} ({colour}):", player=name, colour=colour_name))
        for mistake in mistakes:
            lines.append(
                _(
                    "**{mark}** · move {number}: {move} (−{loss}); better {best}",
                    mark=numbers[mistake.ply],
                    number=mistake.number,
                    move=move_text(mistake.played),
                    loss=pieces(mistake.loss, language),
                    best=move_text(mistake.best),
                )
            )
    return lines


def footnote(budget: float | None, language: str) -> Text:
    """What the numbers mean, and what the buttons do."""
    if budget is None:
        return _(
            "-# Leads and losses are pieces of final margin, as the engine sees them. Tap a "
            "number for the board before that move, with the better move."
        )
    return _(
        "-# Leads and losses are pieces of final margin, as the engine sees them after {seconds} s "
        "of search a position. Tap a number for the board before that move, with the better move.",
        seconds=format_decimal(budget, format="0.0#", locale=language),
    )


def listing_rule() -> Text:
    """Which mistakes are listed: only proven ones, never a placement (:mod:`ai.review`)."""
    return _(
        "-# A mistake is listed only where the engine worked the game out to its end and proved "
        "what the move cost; placements are not weighed."
    )


def review_title(subject_game: int | None, players: Players) -> Text:
    if subject_game is None:
        return _(
            "**Review of a Little Golem game**: {white} (White) vs {black} (Black)",
            white=players.white,
            black=players.black,
        )
    return _(
        "**Review of game #{game}**: {white} (White) vs {black} (Black)",
        game=subject_game,
        white=players.white,
        black=players.black,
    )


def mistake_marks(review: Review) -> list[GraphMark]:
    """The graph's marks: each mistake's number, on the point after it."""
    return [
        GraphMark(mistake.ply + 1, number, mistake.colour)
        for number, mistake in enumerate(review.mistakes(), start=1)
    ]


def biggest_swings(
    curve: Sequence[float], *, count: int = SWINGS, at_least: float = LEVEL
) -> list[tuple[int, float]]:
    """The drawn curve's steepest steps, as ``(move number, change in White's lead)``: at
    most ``count``, each of at least ``at_least`` pieces, in the order played. The step into
    point ``i`` is move ``i``'s (the action at ply ``i - 1``); the curve spreads a move's
    effect over the steps beside it too, so no two swings named are next to each other."""
    steps = sorted(
        ((curve[i] - curve[i - 1], i) for i in range(1, len(curve))),
        key=lambda step: (-abs(step[0]), step[1]),
    )
    chosen: list[tuple[int, float]] = []
    for change, number in steps:
        if len(chosen) == count or abs(change) < at_least:
            break
        if all(abs(number - other) > 1 for other, _change in chosen):
            chosen.append((number, change))
    return sorted(chosen)


def graph_description(review: Review, players: Players) -> list[Text]:
    """The graph in words, its alt text: what it draws, who led when (:func:`course`), its
    biggest swings, and what its numbered marks are."""
    lines = [
        _(
            "Graph of the lead in pieces after each move, as the engine sees it: White's lead "
            "above the middle line, Black's below it."
        )
    ]
    lines += course(review, players)
    swings = [
        n_(
            "{count} piece toward {player} at move {number}",
            "{count} pieces toward {player} at move {number}",
            max(1, round(abs(change))),
            number=number,
            player=players.name(Colour.WHITE if change > 0 else Colour.BLACK),
        )
        for number, change in biggest_swings(review.curve())
    ]
    if swings:
        lines.append(_("Biggest swings: {swings}.", swings=listed(swings)))
    marks = len(review.mistakes())
    if marks:
        lines.append(
            n_(
                "The numbered mark is the mistake listed in the message.",
                "The {count} numbered marks are the mistakes listed in the message.",
                marks,
            )
        )
    return lines
