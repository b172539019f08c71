"""Boards in words (bot.posting.descriptions): what a screen reader hears of each board, worked
out by hand for a few positions, and within Discord's limits for every position the oracle's
games and hundreds of random games reach, in every language the bot speaks."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from bot.i18n import ENGLISH, Catalogues, Text, _
from bot.interactions.replies import MAX_CONTENT
from bot.posting import descriptions
from bot.posting.descriptions import (
    MAX_ALT_TEXT,
    board_alt_text,
    board_summary,
    by_colour,
    by_rows,
    cells_picture,
    fit,
    replay_alt_text,
    text_board,
)
from bot.posting.texts import LastTurn, Players
from tests.conftest import SHARED

PLAYERS = Players("alice", "bob")
LONGEST_NAMES = Players("W" * 32, "B" * 32)
"""Discord's display names are at most 32 characters."""
TITLE = _(
    "DVONN #{game}: {white} (White) vs {black} (Black)",
    game=123_456,
    white=LONGEST_NAMES.white,
    black=LONGEST_NAMES.black,
)
"""The text board's first line, as a game's title (bot.posting.texts.game_title)."""
RANDOM_GAMES = 200
LONGEST_CHECKED = 200
"""How many of the boards longest in English are rendered in every language too."""
TRANSLATION_ROOM = 1.3
"""How much longer than the English a translation may be and still fit: the English must fit
in the limit divided by this (the translations come in one pass after the English is done)."""


def position(stacks: dict[str, str], ply: int) -> rules.Position:
    board = [""] * rules.CELL_COUNT
    for name, stack in stacks.items():
        board[rules.CELL_NAMES.index(name)] = stack
    return rules.Position(board, ply)


# Black to move at move 61; C1 black over white over a DVONN piece, K4 white over both.
RUNNING = position(
    {"A1": "W", "C1": "DWB", "E3": "D", "F3": "WW", "E4": "B", "K4": "BDW", "D5": "B"}, 60
)


def english(lines: tuple[Text, ...]) -> list[str]:
    return [ENGLISH.render(line) for line in lines]


def test_a_running_board_in_words() -> None:
    summary = board_summary(
        RUNNING,
        PLAYERS,
        last_move=rules.parse_move("E2F3"),
        removed={rules.B2: "WB", rules.G5: "B"},
    )
    assert board_alt_text(RUNNING, ENGLISH.render, summary=summary) == "\n".join(
        [
            "Board at move 61, movement: bob (Black) to move.",
            "Last move: White moved E2 to F3.",
            "Cut off and removed: 3 pieces, from B2, G5.",
            "Score: White 6, Black 5.",
            "Each cell: the colour on top, then the height when more than one piece.",
            "Row 1: A1 white, C1 black 3 (DVONN).",
            "Row 2: empty.",
            "Row 3: E3 DVONN, F3 white 2.",
            "Row 4: E4 black, K4 white 3 (DVONN).",
            "Row 5: D5 black.",
        ]
    )


def test_the_text_board_names_every_cell_in_order() -> None:
    text = text_board(
        RUNNING, ENGLISH.render, summary=board_summary(RUNNING, PLAYERS), limit=MAX_CONTENT
    )
    lines = text.splitlines()
    assert lines[:3] == [
        "Board at move 61, movement: bob (Black) to move.",
        "Score: White 6, Black 5.",
        "Each cell: the colour on top, then the height when more than one piece.",
    ]
    assert lines[3] == (
        "Row 1: A1 white, B1 empty, C1 black 3 (DVONN), D1 empty, E1 empty, F1 empty, "
        "G1 empty, H1 empty, I1 empty."
    )
    assert lines[4] == "Row 2: " + ", ".join(f"{c}2 empty" for c in "ABCDEFGHIJ") + "."
    # Every cell once, row by row, in the notation's order.
    words = [word.rstrip(",.") for line in lines[3:] for word in line.split()]
    assert [word for word in words if word in rules.CELL_NAMES] == list(rules.CELL_NAMES)


def test_each_phase_says_who_acts_and_how() -> None:
    start = rules.new_game()
    assert english(board_summary(start, PLAYERS)) == [
        "Board at move 1, placement: alice (White) to place a DVONN piece.",
        "Score: White 0, Black 0.",
    ]
    assert english(by_rows(start)) == ["The board is empty."]
    placed = rules.play(rules.play(start, rules.parse_move("E3")), rules.parse_move("C1"))
    assert english(board_summary(placed, PLAYERS, last_move=rules.parse_move("C1")))[:2] == [
        "Board at move 3, placement: alice (White) to place a DVONN piece.",
        "Last move: Black placed a DVONN piece on C1.",
    ]
    later = rules.replay(rules.parse_record("E3 C1 G5 A1"))[-1]
    assert english(board_summary(later, PLAYERS, last_move=rules.parse_move("A1")))[:2] == [
        "Board at move 5, placement: alice (White) to place a piece.",
        "Last move: Black placed a piece on A1.",
    ]
    # The 49th placement is White's, and White moves first: the mover is told by the ply.
    placements = [rules.Place(cell) for cell in rules.CELLS]  # in order: the last is K5
    full = rules.replay(placements)[-1]
    assert english(board_summary(full, PLAYERS, last_move=placements[-1]))[:2] == [
        "Board at move 50, movement: alice (White) to move.",
        "Last move: White placed a piece on K5.",
    ]


def test_a_pass_and_unnamed_players() -> None:
    anonymous = Players("", "")
    summary = board_summary(RUNNING, anonymous, last_move=rules.PASS)
    assert english(summary)[:2] == [
        "Board at move 61, movement: Black to move.",
        "Last move: White passed.",
    ]


def test_the_end_by_the_rules_and_by_resignation() -> None:
    # Nobody can move any more: the rules' own ending, and the winner by the score.
    over = position({"A1": "W", "C1": "DWB", "E3": "D", "F3": "WW", "K4": "BDW", "D5": "B"}, 60)
    assert rules.is_over(over)
    assert english(board_summary(over, PLAYERS)) == [
        "Final board.",
        "Game over: alice (White) wins.",
        "Score: White 6, Black 4.",
    ]
    resigned = board_summary(RUNNING, PLAYERS, ending=_("bob resigned: alice wins."))
    assert english(resigned) == [
        "Final board.",
        "bob resigned: alice wins.",
        "Score: White 6, Black 5.",
    ]


def test_the_cells_picture_in_words() -> None:
    assert ENGLISH.render(cells_picture()) == (
        "The empty DVONN board, each cell named by its letter and row number. Row 1, at the "
        "top: A1 to I1; row 2: A2 to J2; row 3, the longest: A3 to K3; row 4: B4 to K4; row 5, "
        "at the bottom: C5 to K5. Each row is shifted half a cell from the next: E3 touches D2, "
        "E2, D3, F3, E4 and F4."
    )


def test_what_is_given_up_first_when_words_are_long() -> None:
    summary = board_summary(RUNNING, PLAYERS)

    def stretched(factor: int) -> descriptions.Render:
        """A language whose every character takes ``factor``."""
        return lambda text: "".join(c * factor for c in ENGLISH.render(text))

    full = "\n".join(stretched(2)(line) for line in (*summary, *by_rows(RUNNING)))
    assert len(full) <= MAX_ALT_TEXT
    assert board_alt_text(RUNNING, stretched(2), summary=summary) == full
    # Too long by rows: by the colour on top, every stack still there.
    words = board_alt_text(RUNNING, stretched(4), summary=summary)
    assert words.endswith(stretched(4)(by_colour(RUNNING)[-1]))
    assert ENGLISH.render(by_colour(RUNNING)[0]) == "White on top: A1, F3 2, K4 3 (DVONN)."
    # Too long even so: what the header says, and where the position is.
    words = board_alt_text(RUNNING, stretched(7), summary=summary)
    assert words.endswith(stretched(7)(descriptions.TOO_LONG))
    # And last, the end of the text, at a space.
    words = board_alt_text(RUNNING, stretched(40), summary=summary)
    assert len(words) <= MAX_ALT_TEXT and words.endswith("…")


def test_fit_takes_the_first_version_that_fits() -> None:
    long, short = _("{text}", text="x" * 30), _("{text}", text="y" * 5)
    assert fit([(long,), (short,)], ENGLISH.render, 10) == "y" * 5
    assert fit([(long, long)], ENGLISH.render, 100) == "x" * 30 + "\n" + "x" * 30
    assert fit([(long,)], ENGLISH.render, 10) == "x" * 9 + "…"
    spaced = _("{text}", text="one two three four")
    assert fit([(spaced,)], ENGLISH.render, 12) == "one two…"


# --- the bounds ---------------------------------------------------------------------------------


def oracle_games() -> Iterator[list[rules.Move]]:
    for name in ("edge_games.jsonl", "random_games_sample.jsonl"):
        with Path(SHARED, "oracle", name).open(encoding="utf-8") as lines:
            for line in lines:
                yield [rules.parse_move(p["action"]) for p in json.loads(line)["positions"]]


def random_games(count: int) -> Iterator[list[rules.Move]]:
    for seed in range(count):
        rng, pos, moves = random.Random(seed), rules.new_game(), []
        while not rules.is_over(pos):
            move = rng.choice(rules.legal_moves(pos))
            moves.append(move)
            pos = rules.play(pos, move)
        yield moves


def last_turns(moves: list[rules.Move]) -> Iterator[tuple[rules.Position, LastTurn]]:
    """After each move of a game, the position and ``LastTurn.of(moves[: index + 1])``, from
    one replay instead of one a move. It is checked against ``LastTurn.of`` where they could
    differ (after a pass, which belongs to the move before it) and at each game's end."""
    positions = rules.replay(moves)
    turn = 0
    for index, move in enumerate(moves):
        if index == 0 or not isinstance(move, rules.Pass):
            turn = index
        removed = rules.apply(positions[turn], moves[turn]).removed
        last = LastTurn(turn, moves[turn], dict(removed), index - turn)
        if last.passes or index == len(moves) - 1:
            assert last == LastTurn.of(moves[: index + 1])
        yield positions[index + 1], last


def every_board() -> Iterator[tuple[rules.Position, tuple[Text, ...]]]:
    """Every position of the oracle's games and of random games, with what its post says."""
    for moves in (*oracle_games(), *random_games(RANDOM_GAMES)):
        yield rules.new_game(), board_summary(rules.new_game(), LONGEST_NAMES)
        for pos, last in last_turns(moves):
            yield pos, board_summary(pos, LONGEST_NAMES, last_turn=last)


@pytest.fixture(scope="module")
def longest() -> descriptions.Render:
    """The longest reader there is: each text in whichever language makes it longest."""
    catalogues = Catalogues()
    languages = catalogues.languages

    def render(text: Text) -> str:
        return max((catalogues.render(text, language) for language in languages), key=len)

    return render


@pytest.mark.slow
def test_every_board_is_told_whole_within_the_limits(
    shared_dir: Path, longest: descriptions.Render
) -> None:
    """The alt text (occupied cells) and the text board (every cell), row by row: nothing is
    ever given up. The English of every board leaves room for translations; the boards longest
    in English are also told within the limits in the longest language there is."""
    alts: list[tuple[int, tuple[Text, ...]]] = []
    boards: list[tuple[int, tuple[Text, ...]]] = []
    title = len(ENGLISH.render(TITLE)) + 1  # the same on every board, and a line break
    for pos, summary in every_board():
        rows, cells = by_rows(pos), by_rows(pos, empty_cells=True)
        said = len("\n".join(map(ENGLISH.render, summary))) + 1
        alts.append((said + len("\n".join(map(ENGLISH.render, rows))), (*summary, *rows)))
        boards.append(
            (title + said + len("\n".join(map(ENGLISH.render, cells))), (TITLE, *summary, *cells))
        )
    assert len(alts) > 20_000
    for told, limit in ((alts, MAX_ALT_TEXT), (boards, MAX_CONTENT)):
        told.sort(key=lambda found: found[0], reverse=True)
        most, lines = told[0]
        assert most * TRANSLATION_ROOM <= limit, "\n".join(map(ENGLISH.render, lines))
        for _length, lines in told[:LONGEST_CHECKED]:
            assert len("\n".join(map(longest, lines))) <= limit
        print(f"{len(told)} boards, the longest {most} characters in English (limit {limit})")


def test_the_last_turn_of_a_record_is_what_its_post_showed() -> None:
    assert LastTurn.of([]) is None
    moves = rules.parse_record("E3 C1 G5")
    assert LastTurn.of(moves) == LastTurn(2, moves[-1], {})
    # A move that cut pieces off and forced a pass: the turn is the move, what it cut off, and
    # the pass (its turn's post showed all three); its image marks the pass.
    for game in random_games(RANDOM_GAMES):
        for index in range(rules.PLACEMENT_PLIES, len(game) - 1):
            before = rules.replay(game[:index])[-1]
            cut = rules.apply(before, game[index]).removed
            if cut and game[index + 1] == rules.PASS:
                turn = LastTurn.of(game[: index + 2])
                assert turn == LastTurn(index, game[index], cut, passes=1)
                assert turn.last_action == rules.PASS
                assert LastTurn.of(game[: index + 1]) == LastTurn(index, game[index], cut)
                after = rules.replay(game[: index + 2])[-1]
                mover, passer = (c.name.title() for c in (before.turn, before.turn.opponent))
                jump = game[index]
                assert isinstance(jump, rules.Jump)
                pieces = sum(map(len, cut.values()))
                assert english(board_summary(after, PLAYERS, last_turn=turn))[1:4] == [
                    f"Last move: {mover} moved {rules.CELL_NAMES[jump.source]} to "
                    f"{rules.CELL_NAMES[jump.target]}.",
                    f"Cut off and removed: {pieces} piece{'s' if pieces > 1 else ''}, from "
                    f"{', '.join(rules.CELL_NAMES[cell] for cell in sorted(cut))}.",
                    f"Then {passer} had no legal move and passed.",
                ]
                return
    pytest.fail("no move that cut pieces off was followed by a pass")


def test_a_replay_says_its_whole_record_or_as_much_as_fits() -> None:
    result = _("bob resigned: alice wins.")
    for moves in (*oracle_games(), *random_games(RANDOM_GAMES // 4)):
        words = replay_alt_text(
            ENGLISH.render, game_id=123_456, players=LONGEST_NAMES, moves=moves, result=result
        )
        assert words.endswith(rules.format_record(moves)) and len(words) <= MAX_ALT_TEXT
    assert replay_alt_text(
        ENGLISH.render, game_id=7, players=PLAYERS, moves=rules.parse_record("E3"), result=result
    ).splitlines() == [
        "Animated replay of game #7, alice (White) against bob (Black): one frame, for its "
        "only action.",
        "bob resigned: alice wins.",
        "The record: E3",
    ]
    # Longer than any game can be: the record's end is left out, at a space.
    endless = [rules.PASS] * 300
    words = replay_alt_text(
        ENGLISH.render, game_id=7, players=PLAYERS, moves=endless, result=result
    )
    assert len(words) <= MAX_ALT_TEXT and words.endswith(" PASS…")
