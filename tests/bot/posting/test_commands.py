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
