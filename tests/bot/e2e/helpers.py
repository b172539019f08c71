"""Playing DVONN through the fake Discord as a user would."""

from __future__ import annotations

import functools
import io
import re
import string
from dataclasses import dataclass, replace
from typing import Final

import pytest
from babel.messages.pofile import read_po
from PIL import Image

import rules
from bot.games.core.errors import ServiceError
from bot.i18n import Catalogues, Locale, Text, _
from bot.i18n.tools import TEMPLATE, ids, messages
from bot.posting import answers
from bot.posting.commands import CommandMentions
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RecordedMessage,
)
from tests.fakediscord.ratelimits import ROUTE_BUCKETS, Bucket

FIRST_TOURNAMENT: Final = 2
"""The id of a fresh database's first tournament of a server: ids are the bot's, counting every
server's and the network's, and the network championship (on by default) is made first, when
the bot starts."""


@dataclass(frozen=True)
class Turn:
    """A move sent as a command: the answer, and the public post (if it was accepted). The
    post is the answer itself when the bot answered with the board (it does in the game's own
    channel when the board is ready in time), else a message of its own after a private reply
    ("You played …")."""

    reply: InteractionResult
    post: RecordedMessage | None

    @property
    def answered(self) -> bool:
        """Whether the board was the command's answer."""
        return self.post is not None and self.post is self.reply.message


async def play_turn(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    move: rules.Move,
    *,
    typed: bool = False,
) -> Turn:
    """Send ``move`` and wait for the turn's post in ``channel`` (none if refused)."""
    before = fake.last_message(channel)
    reply = await send_move(fake, user, channel, move, typed=typed)
    if is_board_post(reply.message):
        return Turn(reply, reply.message)
    if not played_privately(reply, str(move)):
        return Turn(reply, None)
    post = await fake.wait_for_message(
        channel, lambda m: m.embed_image() is not None and not m.ephemeral, after=before
    )
    return Turn(reply, post)


def is_board_post(message: RecordedMessage | None) -> bool:
    """Whether ``message`` is a public board post (an answer or a message of its own)."""
    return message is not None and not message.ephemeral and message.embed_image() is not None


def says_played(reply: InteractionResult, move: str) -> bool:
    """Whether the answer to a move says it was played: the board itself, naming the move, or
    (the board was not ready in time) a private "You played …"."""
    if is_board_post(reply.message):
        assert reply.message is not None
        return move in reply.message.content or move in str(reply.message.embeds)
    return played_privately(reply, move)


def played_privately(reply: InteractionResult, move: str) -> bool:
    """Whether a private answer says ``move`` was played, its board posted apart (a link to it,
    or where it is on its way to)."""
    return any(
        said_pattern(entry, move=move).search(reply.content)
        for entry in (
            _("You played {move}. [See the board]({link})"),
            _("You played {move}. The board is on its way to <#{channel}>."),
        )
    )


def boards_miss_their_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if every board took too long to draw to answer its command: the mover is told
    privately, and the board is posted in the channel (the path a slow machine takes)."""
    monkeypatch.setattr(answers, "ANSWER_WITHIN", 0.0)


async def send_move(
    fake: FakeDiscord,
    user: FakeUser,
    channel: FakeChannel,
    move: rules.Move,
    *,
    typed: bool = False,
) -> InteractionResult:
    """Play ``move`` with the command a player would use (``typed``: ``/dvonn play E3F4``)."""
    if typed or isinstance(move, rules.Pass):
        return await fake.run_command(user, channel, "dvonn play", {"move": str(move)})
    if isinstance(move, rules.Place):
        return await fake.run_command(
            user, channel, "dvonn place", {"cell": rules.CELL_NAMES[move.cell]}
        )
    return await fake.run_command(
        user,
        channel,
        "dvonn move",
        {"from": rules.CELL_NAMES[move.source], "to": rules.CELL_NAMES[move.target]},
    )


async def name_network_channel(
    fake: FakeDiscord, moderator: FakeUser, where: FakeChannel, channel: FakeChannel
) -> None:
    """A moderator (Manage Server), from ``where``, names ``channel`` their server's network
    channel (``/network server channel:``); answered privately."""
    reply = await fake.run_command(moderator, where, "network server", {"channel": channel})
    assert reply.ephemeral, reply.content


async def join_network(fake: FakeDiscord, user: FakeUser, channel: FakeChannel) -> None:
    """``user`` joins the network from ``channel`` (``/network join``): their home is that
    server's network channel if it has one, else their DMs; answered privately."""
    reply = await fake.run_command(user, channel, "network join")
    assert reply.ephemeral and reply.content, reply.content


def board_image(message: RecordedMessage | None) -> Image.Image:
    """The board image attached to a message (fails if there is none)."""
    assert message is not None, "no message"
    attached = message.embed_image()
    assert attached is not None, f"no board image in {message.content!r} {message.embeds}"
    assert attached.filename == "board.png"
    image = Image.open(io.BytesIO(attached.data))
    image.load()
    return image


# --- wording --------------------------------------------------------------------------------------
# A test checks what the bot said through the catalogue entry the bot says it with, never English
# typed again: rewording a message then changes its one place, and the test still fails when the
# bot sends another message (or the right one with other values).


@functools.cache
def catalogues() -> Catalogues:
    """Every language's catalogue, as the bot loads them (once for the run)."""
    return Catalogues()


def said(
    entry: Text | type[ServiceError],
    /,
    *,
    locale: Locale = None,
    mentions: CommandMentions | None = None,
    **params: object,
) -> str:
    """A catalogue entry as the bot says it to a reader of ``locale`` (English by default):
    ``entry`` is a message (``_("Settings saved.")``, or ``n_``/``p_``) or a service error's
    class (its template is its message), with ``params`` added to its own; a parameter may be a
    message too (``who=_("everyone")``). E.g. ``assert said(_("Game #{game} was called off."),
    game=7) in reply.content``. With ``mentions`` (the running bot's ``bot.mentions``), the
    commands it names are tappable mentions (``</puzzle:123>``), as in the bot's answers."""
    named = Text(entry.template) if isinstance(entry, type) else entry
    text = replace(named, params={**named.params, **params})
    unknown = [t for t in _texts(text) if _key(t) not in entries()]
    assert not unknown, f"not a catalogue entry of the bot (reworded? then here too): {unknown}"
    rendered = catalogues().render(text, locale)
    return rendered if mentions is None else mentions.link(rendered)


def said_pattern(
    entry: Text | type[ServiceError],
    /,
    *,
    locale: Locale = None,
    mentions: CommandMentions | None = None,
    **params: object,
) -> re.Pattern[str]:
    """:func:`said` where some parameters cannot be known to the test: a pattern that matches the
    entry as said with ``params`` and any text on the line for each of its parameters not given,
    each caught as a group of its name (a plural's ``count`` must be given: it chooses the words,
    and is said as given). A parameter at the very end takes the rest of the line. E.g.
    ``said_pattern(_("Board at move {number}, movement: {side} to move."), side="White")``."""
    named = Text(entry.template) if isinstance(entry, type) else entry
    given = {**named.params, **params}
    names = {
        name
        for template in (named.msgid, named.plural or "")
        for _literal, name, _spec, _conversion in string.Formatter().parse(template)
        if name
    }
    markers = {name: f"\x00{name}\x00" for name in names - set(given)}
    rendered = said(named, locale=locale, mentions=mentions, **given, **markers)
    pieces = re.split("\x00([^\x00]*)\x00", rendered)  # text, name, text, name, …, text
    pattern, seen = re.escape(pieces[0]), set()
    for name, text in zip(pieces[1::2], pieces[2::2], strict=True):
        last = not text
        pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.+{'' if last else '?'})"
        pattern += re.escape(text)
        seen.add(name)
    return re.compile(pattern)


EntryKey = tuple[str | None, tuple[str, ...]]
"""A catalogue entry: its context, and its msgid (and plural msgid if it has one)."""


@functools.cache
def entries() -> frozenset[EntryKey]:
    """Every catalogue entry of the bot, from the template its catalogues are checked against
    (kept current by ``python -m bot.i18n.tools update``; the catalogue tests fail if not). A test
    that names a text the bot no longer has (one reworded in the code and not in the test) then
    fails, even where it asserts the text is *not* said."""
    with TEMPLATE.open("rb") as source:
        return frozenset((m.context, ids(m)) for m in messages(read_po(source)))


def _key(text: Text) -> EntryKey:
    return (text.context, (text.msgid,) if text.plural is None else (text.msgid, text.plural))


def _texts(text: Text) -> list[Text]:
    """``text`` and the messages among its parameters (and theirs)."""
    nested = [t for value in text.params.values() if isinstance(value, Text) for t in _texts(value)]
    return [text, *nested]


def shorter_windows(fake: FakeDiscord, factor: float) -> None:
    """Every per-channel bucket of ``fake`` with its window ``factor`` times shorter and its
    count unchanged (five thread starts a channel per second instead of per 10 s at 10): the
    bot meets and waits out each limit as often as with Discord's figures, in less time.
    discord.py sleeps what the headers say on its own clock, so moving the fake's clock
    forward would not shorten its waits; shorter windows do."""
    fake.limits.buckets = {
        route: Bucket(bucket.name, bucket.limit, bucket.per / factor)
        for route, bucket in ROUTE_BUCKETS.items()
    }
