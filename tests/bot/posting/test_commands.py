"""Commands named in texts become tappable mentions, those in a subcommand group too."""

from __future__ import annotations

from bot.posting.commands import CommandMentions


def test_commands_in_texts_become_mentions_with_their_group() -> None:
    mentions = CommandMentions()
    text = "Use `/dvonn move` to play, or `/dvonn tournament join` to enter."
    assert mentions.link(text) == text  # the id is not known yet: plain text
    mentions.learn(42, ["move", "tournament join", "tournament"])
    assert mentions.link(text) == (
        "Use </dvonn move:42> to play, or </dvonn tournament join:42> to enter."
    )
    assert mentions.link("Try /dvonn move now") == "Try </dvonn move:42> now"
    assert mentions.link("/dvonn nothing here") == "/dvonn nothing here"


def test_a_top_level_command_in_texts_becomes_a_mention() -> None:
    mentions = CommandMentions()
    text = "Try `/puzzle` or /puzzle now; /puzzles and https://example.org/puzzle stay."
    assert mentions.link(text) == text
    mentions.learn_command("puzzle", 7)
    assert mentions.link(text) == (
        "Try </puzzle:7> or </puzzle:7> now; /puzzles and https://example.org/puzzle stay."
    )
    mentions.learn(42, ["move"])
    assert mentions.link("/puzzle, then /dvonn move") == "</puzzle:7>, then </dvonn move:42>"


def test_another_group_s_subcommands_become_mentions_too() -> None:
    mentions = CommandMentions()
    text = "Run /network join here, then `/network server` and /dvonn move."
    mentions.learn_group("network", 9, ["join", "server"])
    assert mentions.link(text) == (
        "Run </network join:9> here, then </network server:9> and /dvonn move."
    )
    mentions.learn(42, ["move"])
    assert mentions.link(text) == (
        "Run </network join:9> here, then </network server:9> and </dvonn move:42>."
    )
    assert mentions.link("/network nothing") == "/network nothing"
    assert mentions.mention("move") == "</dvonn move:42>"
