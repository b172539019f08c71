"""``/dvonn review`` through the fake Discord: the graph, the mistakes, their boards, refusals,
and the player's language."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import rules
from ai.review import settle
from bot.app import DvonnBot
from bot.exts.review.commands import COG_NAME
from bot.exts.review.reviewer import Reviewer
from bot.i18n import _
from bot.storage.models import EndReason
from render.graph import DEFAULT_GRAPH_WIDTH, HEIGHT, MARK_LANE
from tests.bot.e2e.conftest import BotRunner, Table
from tests.bot.e2e.helpers import said, said_pattern
from tests.bot.e2e.test_game import start_game
from tests.fakediscord import FakeChannel, InteractionResult, UserAttachment

QUICK = 0.02
"""Seconds of search per position: a review of a whole game then takes a few seconds."""
MISTAKE = said_pattern(_("**{mark}** · move {number}: {move} (−{loss}); better {best}"))
"""A mistake as the review lists it: its mark, move number, move, cost and the better move."""
BIGGEST_MISTAKES = _("**Biggest mistakes**")
SHOWN = _("Move {number}: {player} played {move}; the engine prefers {best} (the arrow).")
COST = _("Cost: about {loss} in pieces of final margin.")
NO_MISTAKE = said_pattern(_("{player} ({colour}): no mistake the engine could prove."))
MISTAKES_OF = said_pattern(_("{player} ({colour}):"))
STILL_PLAYED = _(
    "Game #{game} is still being played: a review now could help one of its players. Ask again "
    "when it is over."
)
NO_PIECE_YET = _(
    "This game ended before its first white or black piece: there is nothing to review."
)
STOPPED = _("The bot is restarting and stopped this review: ask again in a minute.")


def oracle_game(shared_dir: Path, index: int = 0) -> list[rules.Move]:
    """A complete game of uniformly random moves (full of mistakes) from the oracle's sample."""
    lines = (shared_dir / "oracle" / "random_games_sample.jsonl").read_text().splitlines()
    game = json.loads(lines[index])
    return [rules.parse_move(p["action"]) for p in game["positions"]]


async def finished_game(
    table: Table, bot: DvonnBot, plies: int | None, seed: int = 3
) -> FakeChannel:
    """Alice (White) and Bob play ``plies`` random actions, then Bob resigns (``None``: to the
    end of the game)."""
    thread = await start_game(table)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None
    rng = random.Random(seed)
    while (plies is None or game.position.ply < plies) and game.is_active:
        move = rng.choice(rules.legal_moves(game.position))
        assert game.to_move_id is not None
        game = (await bot.service.play(game.id, game.to_move_id, move)).game
    if game.is_active:
        await bot.service.resign(game.id, table.bob.id)
    return thread


def graph(reply: InteractionResult) -> Image.Image:
    (attached,) = reply.files
    assert attached.filename == "review.png"
    image = Image.open(io.BytesIO(attached.data))
    assert image.format == "PNG"
    image.load()
    return image


def expected_height(marks: bool) -> int:
    width = DEFAULT_GRAPH_WIDTH
    return round(HEIGHT * width) + (round(MARK_LANE * width) if marks else 0)


async def test_a_finished_game_is_reviewed_with_its_mistakes_and_their_boards(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        # To its end: random moves lose pieces in the endgame, where the engine proves it.
        thread = await finished_game(table, bot, plies=None)
        record = await bot.service.record(1)
        reply = await fake.run_command(table.alice, thread, "dvonn review", timeout=60)
        assert not reply.ephemeral, reply.content
        heading = _("**Review of game #{game}**: {white} (White) vs {black} (Black)")
        assert reply.content.startswith(said(heading, game=1, white="alice", black="bob"))
        assert record.game.end_reason is EndReason.SCORE
        assert said(BIGGEST_MISTAKES) in reply.content
        # Listed by player, numbered in the order played (as on the graph and the buttons).
        named = sorted(MISTAKE.findall(reply.content), key=lambda found: int(found[0]))
        assert named, reply.content  # random moves: some cost a lot
        assert [int(found[0]) for found in named] == list(range(1, len(named) + 1))
        image = graph(reply)
        assert image.size == (DEFAULT_GRAPH_WIDTH, expected_height(marks=True))
        # Each mistake named is the move played then, the better move was legal there, and
        # a button under the review shows it.
        moves = [m.move for m in record.moves]
        buttons = reply.message.buttons() if reply.message else []
        assert len(buttons) == len(named)
        for (mark, number, played, _loss, better), button in zip(named, buttons, strict=True):
            ply = int(number) - 1
            assert str(moves[ply]) == played and better != played
            before = rules.replay(moves[:ply])[-1]
            assert rules.parse_move(better) in rules.legal_moves(before)
            assert button["label"] == said(_("{mark} · move {number}"), mark=mark, number=number)
        assert reply.message is not None
        mark, number, played, loss, better = named[-1]
        label = said(_("{mark} · move {number}"), mark=mark, number=number)
        shown = await fake.click(table.carol, reply.message, label=label)
        assert shown.ephemeral
        mover = (
            "alice"
            if rules.replay(moves[: int(number) - 1])[-1].turn is rules.Colour.WHITE
            else "bob"
        )
        assert said(SHOWN, number=number, player=mover, move=played, best=better) in (shown.content)
        assert said(COST, loss=loss) in shown.content
        (board,) = shown.files
        assert board.filename == "board.png"
        assert Image.open(io.BytesIO(board.data)).width > 0
        # Asked again: the same review, at once, from memory.
        again = await fake.run_command(table.bob, thread, "dvonn review", {"game": 1})
        assert sorted(MISTAKE.findall(again.content)) == sorted(named)


async def test_only_finished_games_are_reviewed(table: Table, bot_runner: BotRunner) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start_game(table)
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        await bot.service.play(game.id, table.alice.id, "E3")
        running = await fake.run_command(table.bob, thread, "dvonn review")
        assert running.ephemeral and said(STILL_PLAYED, game=game.id) in running.content
        assert not running.files
        await bot.service.resign(game.id, table.bob.id)
        short = await fake.run_command(table.bob, thread, "dvonn review")
        assert short.ephemeral and said(NO_PIECE_YET) in short.content
        missing = await fake.run_command(table.bob, thread, "dvonn review", {"game": 99})
        assert missing.ephemeral and "99" in missing.content


async def aborted_game(table: Table, bot: DvonnBot, plies: int, *, seed: int = 5) -> FakeChannel:
    """Alice and Bob play ``plies`` random actions, then a moderator calls the game off."""
    thread = await start_game(table)
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None
    rng = random.Random(seed)
    while game.position.ply < plies:
        assert game.to_move_id is not None
        move = rng.choice(rules.legal_moves(game.position))
        game = (await bot.service.play(game.id, game.to_move_id, move)).game
    await bot.service.abort(game.id, table.moderator.id, moderator=True)
    assert (await bot.service.get_game(game.id)).status.value == "aborted"
    return thread


async def test_a_game_called_off_is_not_reviewed_however_long(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ten placements (the review once listed five 'mistakes' in them), or deep into the moves.
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        searched: list[object] = []
        estimate = bot.engine.estimate

        async def counted(*args: Any, **kwargs: Any) -> Any:
            searched.append(args)
            return await estimate(*args, **kwargs)

        monkeypatch.setattr(bot.engine, "estimate", counted)
        for game_id, plies in ((1, 10), (2, 70)):
            thread = await aborted_game(table, bot, plies)
            here = await fake.run_command(table.alice, thread, "dvonn review")
            elsewhere = await fake.run_command(
                table.carol, table.games, "dvonn review", {"game": game_id}
            )
            for refused in (here, elsewhere):
                assert refused.ephemeral and not refused.files, refused.content
                assert refused.content == (
                    f"Game #{game_id} was called off without a result: there is nothing to review."
                )
        assert searched == []  # refused before any search


async def test_a_transcript_without_moves_is_refused_as_such(
    table: Table, bot_runner: BotRunner
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK):
        for text in (
            "",
            "   \n",
            "White [ann] Black [ben] Event [DVONN]",
            rules.format_little_golem([], headers={"White": "ann", "Black": "ben"}),
            rules.format_little_golem([], resigned=True),  # "1. resign": over, but empty
        ):
            refused = await fake.run_command(
                table.alice,
                table.games,
                "dvonn review",
                {"transcript": UserAttachment("game.txt", text.encode())},
            )
            assert refused.ephemeral and not refused.files, (text, refused.content)
            assert refused.content == said(
                _("This transcript has no moves: there is nothing to review. Send a whole game.")
            ), text
        # Moves, but no white or black piece yet (and resigned: over), keeps its own reason.
        dvonn_only = rules.format_little_golem(rules.parse_record("C3 I3 E3"), resigned=True)
        refused = await fake.run_command(
            table.alice,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", dvonn_only.encode())},
        )
        assert refused.ephemeral and said(NO_PIECE_YET) in refused.content


async def test_a_transcript_is_reviewed_in_the_players_language(
    table: Table, bot_runner: BotRunner, shared_dir: Path
) -> None:
    fake = table.fake
    moves = oracle_game(shared_dir)
    transcript = rules.format_little_golem(moves, headers={"White": "ann", "Black": "ben"})
    async with bot_runner.run(ai_budget=QUICK):
        table.carol.locale = "fr"
        reply = await fake.run_command(
            table.carol,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", transcript.encode())},
            timeout=60,
        )
        assert not reply.ephemeral, reply.content
        assert said(BIGGEST_MISTAKES, locale="fr") in reply.content
        assert said(BIGGEST_MISTAKES) not in reply.content and not MISTAKE.search(reply.content)
        assert said_pattern(
            _("**{mark}** · move {number}: {move} (−{loss}); better {best}"), locale="fr"
        ).search(reply.content)
        assert "ann" in reply.content and "ben" in reply.content
        assert graph(reply).width == DEFAULT_GRAPH_WIDTH
        assert reply.message is not None
        buttons = reply.message.buttons()
        assert buttons and all(b["custom_id"].startswith("dvonn:review:t") for b in buttons)
        shown = await fake.click(table.carol, reply.message, custom_id=buttons[0]["custom_id"])
        assert shown.ephemeral and shown.files and not said_pattern(SHOWN).search(shown.content)
        assert said_pattern(SHOWN, locale="fr").search(shown.content)
        # An unfinished game, and a game number with a transcript, are refused privately.
        unfinished = rules.format_little_golem(moves[:60])
        refused = await fake.run_command(
            table.alice,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", unfinished.encode())},
        )
        not_over = _(
            "The game in this transcript is not over: a review now could help one of its players. "
            "Send it again when the game has ended."
        )
        assert refused.ephemeral and said(not_over) in refused.content
        both = await fake.run_command(
            table.alice,
            table.games,
            "dvonn review",
            {"game": 1, "transcript": UserAttachment("game.txt", transcript.encode())},
        )
        not_both = _("Review a game number or a transcript, not both at once.")
        assert both.ephemeral and said(not_both) in both.content


async def settled(result: InteractionResult) -> InteractionResult:
    """A command sent without waiting, once the bot has answered it in full."""
    await result.wait_response()
    result.require_response()
    return await result.settled(timeout=60)


async def test_two_reviews_of_one_game_at_once_share_the_work(
    table: Table, bot_runner: BotRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await finished_game(table, bot, plies=52, seed=8)
        searched: list[tuple[str, int | None]] = []
        estimate = bot.engine.estimate

        async def counted(position: rules.Position | str, *args: Any, **kwargs: Any) -> Any:
            text = position if isinstance(position, str) else position.to_text()
            searched.append((text, kwargs.get("depth")))  # a move's price: to a set depth
            return await estimate(position, *args, **kwargs)

        monkeypatch.setattr(bot.engine, "estimate", counted)
        first = fake.send_command(table.alice, thread, "dvonn review")
        second = fake.send_command(table.bob, thread, "dvonn review")
        replies = await asyncio.gather(settled(first), settled(second))
        assert all(not r.ephemeral and r.files for r in replies), [r.content for r in replies]
        assert sorted(MISTAKE.findall(replies[0].content)) == sorted(
            MISTAKE.findall(replies[1].content)
        )
        assert searched and len(searched) == len(set(searched))  # no search made twice


async def test_a_review_stopped_by_a_restart_says_so_privately(
    table: Table, bot_runner: BotRunner
) -> None:
    """The review's answer is public, deferred as "thinking…" for all to see; a restart
    stops it (the feature unloaded closes the reviewer), and the notice that it stopped is
    for the asker alone: the public "thinking…" goes, and nobody else reads it."""
    fake = table.fake
    async with bot_runner.run(ai_budget=30.0) as bot:
        thread = await finished_game(table, bot, plies=52, seed=8)
        asked = fake.send_command(table.alice, thread, "dvonn review")
        await asked.wait_response()
        assert asked.deferred and asked.message is not None and not asked.message.ephemeral
        thinking = asked.message
        # What a restart does (cog_unload). (Each bot loads the feature's module anew: no
        # isinstance.)
        cog: Any = bot.get_cog(COG_NAME)
        reviewer: Reviewer = cog.reviewer
        await reviewer.close()
        (notice,) = await asked.wait_for_followups()
        assert notice.ephemeral and notice.visible_to == table.alice.id
        assert said(STOPPED) in notice.content
        assert thinking.deleted
        seen = [m.content for m in fake.visible_to(table.bob, thread)]
        assert not [text for text in seen if said(STOPPED) in text], seen
        assert not asked.rejected


async def test_a_running_game_sent_as_a_resigned_transcript_is_refused(
    table: Table, bot_runner: BotRunner
) -> None:
    # Exported while it is being played, "resign" added (or one move more, then "resign"):
    # the review would tell its players what the engine thinks of their game.
    fake = table.fake
    async with bot_runner.run(ai_budget=QUICK) as bot:
        thread = await start_game(table)
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        rng = random.Random(4)
        while game.position.ply < 20:
            assert game.to_move_id is not None
            move = rng.choice(rules.legal_moves(game.position))
            game = (await bot.service.play(game.id, game.to_move_id, move)).game
        played = [m.move for m in (await bot.service.record(game.id)).moves]
        one_more = [*played, rules.legal_moves(game.position)[0]]
        for moves in (played, one_more):
            transcript = rules.format_little_golem(moves, resigned=True)
            refused = await fake.run_command(
                table.alice,
                table.games,
                "dvonn review",
                {"transcript": UserAttachment("game.txt", transcript.encode())},
            )
            assert refused.ephemeral and said(STILL_PLAYED, game=game.id) in refused.content
            assert not refused.files
        # Once that game is over, the same transcript is reviewed.
        await bot.service.resign(game.id, table.bob.id)
        reviewed = await fake.run_command(
            table.alice,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", transcript.encode())},
            timeout=60,
        )
        assert not reviewed.ephemeral and reviewed.files, reviewed.content


async def test_a_transcript_without_names_or_with_huge_ones_is_reviewed(
    table: Table, bot_runner: BotRunner, shared_dir: Path
) -> None:
    fake = table.fake
    moves = oracle_game(shared_dir, 1)[:40]
    async with bot_runner.run(ai_budget=QUICK):
        nameless = rules.format_little_golem(moves, resigned=True)
        reply = await fake.run_command(
            table.carol,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", nameless.encode())},
            timeout=60,
        )
        assert not reply.ephemeral, reply.content
        # The colours stand for the missing names, in the ending too.
        heading = _("**Review of a Little Golem game**: {white} (White) vs {black} (Black)")
        assert said(heading, white="White", black="Black") in reply.content
        resigned = _("{loser} resigned: {winner} wins.")
        assert said(resigned, loser="White", winner="Black") in reply.content  # to act after 40
        huge = rules.format_little_golem(
            moves, headers={"White": "w" * 20_000, "Black": "b" * 20_000}, resigned=True
        )
        started = asyncio.get_running_loop().time()
        reply = await fake.run_command(
            table.carol,
            table.games,
            "dvonn review",
            {"transcript": UserAttachment("game.txt", huge.encode())},
            timeout=60,
        )
        assert not reply.ephemeral and reply.files, reply.content
        assert "w" * 64 in reply.content and "w" * 65 not in reply.content
        assert len(reply.content) <= 2000
        assert asyncio.get_running_loop().time() - started < 30
        assert reply.message is not None
        for button in reply.message.buttons():
            shown = await fake.click(table.carol, reply.message, custom_id=button["custom_id"])
            assert shown.ephemeral and shown.files and len(shown.content) <= 2000


def oracle_game_named(shared_dir: Path, game: str) -> list[rules.Move]:
    """The actions of the oracle's random game ``game`` (its id)."""
    for line in (shared_dir / "oracle" / "random_games_sample.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["id"] == game:
            return [rules.parse_move(p["action"]) for p in record["positions"]]
    raise LookupError(game)


def listed_by_player(content: str) -> dict[str, list[tuple[str, str, str, str]]]:
    """The review's mistakes under each player's line: (move number, played, cost, better)."""
    listed: dict[str, list[tuple[str, str, str, str]]] = {}
    player = ""
    for line in content.splitlines():
        if header := MISTAKES_OF.fullmatch(line) or NO_MISTAKE.fullmatch(line):
            player = header["player"]
            listed[player] = []
        elif found := MISTAKE.fullmatch(line):
            _mark, number, played, loss, better = found.groups()
            listed[player].append((number, played, loss, better))
    return listed


PROVEN = {
    # White's E4D4 at move 78 lost 14 pieces against H3B3 (+5 to -9), and Black's I2I1 answered
    # it as badly. The review proved the positions either side of each, yet once said of White
    # "no mistake the engine could prove": the move was priced by a search one ply shallower,
    # which did not reach the end.
    "random-4": {
        "alice": [("78", "E4D4", "14.0", "H3B3")],
        "bob": [("79", "I2I1", "14.0", "J3H3")],
    },
    # Black lost 7, 7, 19 and 8 pieces, each proven: the fourth costliest was once left out
    # (three a player at most).
    "random-8": {
        "alice": [("74", "I5I4", "10.0", "D2F2"), ("76", "D1E2", "19.0", "D2F2")],
        "bob": [
            ("73", "C1C2", "7.0", "I3C3"),
            ("75", "A3C3", "7.0", "F2E1"),
            ("77", "B3C3", "19.0", "F2E2"),
            ("79", "H3J5", "8.0", "J5I4"),
        ],
    },
}
"""Losses of 5 pieces or more in two of the oracle's random games, by player, as a review
proves them (at 3,000 nodes a search already, and at 0.3 s)."""


@pytest.mark.parametrize("game", sorted(PROVEN))
async def test_a_review_lists_every_costly_loss_the_engine_proved_for_either_player(
    table: Table,
    bot_runner: BotRunner,
    shared_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
) -> None:
    """At a small budget, on each backend: every loss the searches proved is listed."""
    await costly_losses_listed(table, bot_runner, shared_dir, monkeypatch, budget=QUICK, game=game)


# The review's own budget differs from the small one only in the engine's time: the storage
# is read as above (on both backends there) and the review is kept in memory, not stored. One
# backend is enough for what 0.3 s a position proves (ten seconds a game).
@pytest.mark.parametrize("database_target", ["sqlite"], indirect=True)
@pytest.mark.parametrize("game", sorted(PROVEN))
async def test_a_review_at_its_own_budget_proves_and_lists_every_costly_loss(
    table: Table,
    bot_runner: BotRunner,
    shared_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
) -> None:
    await costly_losses_listed(table, bot_runner, shared_dir, monkeypatch, budget=None, game=game)


async def costly_losses_listed(
    table: Table,
    bot_runner: BotRunner,
    shared_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    budget: float | None,
    game: str,
) -> None:
    # The oracle's random game, played here by Alice (White) and Bob, then reviewed at a
    # small budget and at the review's own (None: 0.3 s).
    fake = table.fake
    moves = oracle_game_named(shared_dir, game)
    positions = rules.replay(moves)
    async with bot_runner.run(ai_budget=budget) as bot:
        thread = await start_game(table)
        played = await bot.service.game_in_channel(thread.id)
        assert played is not None
        for ply, move in enumerate(moves):
            if played.position.ply > ply:  # a pass, recorded by the move before it
                assert move is rules.PASS
                continue
            assert played.to_move_id is not None
            played = (await bot.service.play(played.id, played.to_move_id, move)).game
        assert not played.is_active and played.position.ply == len(moves)
        # What each of the review's searches found (the time a search gets varies with the
        # machine's load: at 0.02 s, not every position is always proven).
        proven: set[str] = set()
        estimate = bot.engine.estimate

        async def recorded(position: rules.Position, *args: Any, **kwargs: Any) -> Any:
            found = await estimate(position, *args, **kwargs)
            if found.proven and kwargs.get("depth") is None:
                proven.add(position.to_text())
            return found

        monkeypatch.setattr(bot.engine, "estimate", recorded)
        reply = await fake.run_command(table.bob, thread, "dvonn review", timeout=120)
        assert not reply.ephemeral, reply.content
        listed = listed_by_player(reply.content)
        checked = []
        for player, mistakes in PROVEN[game].items():
            for mistake in mistakes:
                ply = int(mistake[0]) - 1
                after = settle(positions[ply + 1])  # over, or searched in the first round
                over = not rules.legal_moves(after)
                if positions[ply].to_text() in proven and (over or after.to_text() in proven):
                    assert mistake in listed[player], reply.content
                    checked.append(mistake)
        if budget is None:  # the review's own budget proves every one of them
            assert len(checked) == sum(map(len, PROVEN[game].values())), checked
        assert checked and not NO_MISTAKE.search(reply.content)
        # A listed move's button shows the board before it and names the better move.
        assert reply.message is not None
        number, _played, loss, better = checked[0]
        (label,) = [b["label"] for b in reply.message.buttons() if b["label"].endswith(number)]
        shown = await fake.click(table.carol, reply.message, label=label)
        assert shown.ephemeral
        assert said_pattern(SHOWN, number=number, best=better).search(shown.content)
        assert said(COST, loss=loss) in shown.content
