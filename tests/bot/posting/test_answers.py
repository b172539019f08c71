"""A command's answer is taken once, and only while Discord still takes it."""

from __future__ import annotations

import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.posting import answers
from bot.posting.answers import Answer, AnswerState


def interaction_made(seconds_ago: float) -> Any:
    return SimpleNamespace(created_at=discord.utils.utcnow() - timedelta(seconds=seconds_ago))


def test_the_answer_is_taken_once_by_either_side() -> None:
    deliverer = Answer(interaction_made(0))
    assert deliverer.take() and not deliverer.close()  # the board answers; the command not
    command = Answer(interaction_made(0))
    assert command.close() and not command.take()  # the command answers; the board is posted
    assert command.state is AnswerState.CLOSED


def test_too_late_the_board_is_posted_instead() -> None:
    late = Answer(interaction_made(answers.ANSWER_WITHIN + 0.1))
    assert not late.take() and late.close()


def test_a_bot_clock_behind_discord_s_does_not_stretch_the_three_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(answers, "ANSWER_WITHIN", 0.05)
    # By the bot's clock, Discord made the interaction ten seconds from now.
    answer = Answer(interaction_made(-10.0))
    time.sleep(0.1)
    assert not answer.take()
