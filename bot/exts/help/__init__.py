"""Help: ``/dvonn rules`` and ``/dvonn help``, each with a picture naming every cell and
**Learn by playing** (the lessons, ``/learn``) under it."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.app_commands import locale_str

import rules
from bot.config import user_install_url
from bot.games.core.timecontrol import PRESETS
from bot.i18n import Text, _
from bot.interactions import events
from bot.interactions.buttons import label
from bot.interactions.feature import Feature
from bot.interactions.replies import finish
from bot.posting.commands import subcommands
from bot.posting.descriptions import cells_picture
from bot.posting.publisher import Publisher, Reader
from bot.posting.texts import bank_terms, image_labels

if TYPE_CHECKING:
    from bot.app import DvonnBot, Interaction


async def setup(bot: DvonnBot) -> None:
    await bot.add_feature(Help(bot.service, bot.publisher, bot.deliverer, bot.inflight))


class Help(Feature):
    @app_commands.command(name="rules", description=locale_str("How to play DVONN, in brief"))
    async def rules_(self, interaction: Interaction) -> None:
        await self._explain(interaction, lambda reader: [reader(t) for t in RULES_TEXT])

    @app_commands.command(name="help", description=locale_str("The bot's commands"))
    async def help(self, interaction: Interaction) -> None:
        descriptions = command_descriptions(interaction.client.dvonn)
        install = user_install_url(interaction.application_id)
        await self._explain(
            interaction, lambda reader: help_paragraphs(reader, descriptions, install)
        )

    async def _explain(
        self, interaction: Interaction, paragraphs: Callable[[Reader], list[str]]
    ) -> None:
        async with self.inflight.track():
            await interaction.response.defer(ephemeral=True, thinking=True)
            reader = await self.publisher.own_reader(interaction)  # an answer for them alone
            png = await _cell_names_png(self.publisher, reader)
            first, *more = [
                [discord.Embed(description=text) for text in embeds]
                for embeds in in_messages(paragraphs(reader))
            ]
            first[0].set_image(url="attachment://cells.png")
            await finish(
                interaction,
                embeds=first,
                file=discord.File(
                    io.BytesIO(png), filename="cells.png", description=reader.plain(cells_picture())
                ),
                view=None if more else learn_view(reader),
            )
            for index, embeds in enumerate(more, 1):  # what one message cannot hold follows
                last = index == len(more)
                view = learn_view(reader) if last else discord.utils.MISSING
                await interaction.followup.send(embeds=embeds, ephemeral=True, view=view)


def learn_view(reader: Reader) -> discord.ui.View:
    """ "Learn by playing", under the last message: the lessons (``/learn``), privately, for
    whoever taps. The lessons feature answers it (:data:`bot.interactions.events.LEARN_BUTTON`)."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=label(reader, _("Learn by playing")),
            style=discord.ButtonStyle.primary,
            emoji="🎓",
            custom_id=events.LEARN_BUTTON,
        )
    )
    return view


EMBED_DESCRIPTION: Final = 4096
"""The most characters Discord takes in an embed's description."""
EMBEDS_TOTAL: Final = 6000
"""The most characters Discord takes in all of a message's embeds together (their titles,
descriptions, fields, footers and authors: here, descriptions only)."""
EMBEDS_IN_A_MESSAGE: Final = 10
"""The most embeds a message holds."""
BREAK: Final = "\n\n"
"""Between two paragraphs of one embed."""


def in_messages(
    paragraphs: Sequence[str],
    *,
    embed_limit: int | None = None,
    message_limit: int | None = None,
) -> list[list[str]]:
    """``paragraphs`` as few messages' embeds' descriptions as fit Discord's limits: each
    embed at most ``embed_limit`` characters (:data:`EMBED_DESCRIPTION`), each message's
    embeds at most ``message_limit`` together (:data:`EMBEDS_TOTAL`) and
    :data:`EMBEDS_IN_A_MESSAGE` in number. A paragraph is split (at its lines, else anywhere)
    only if it would not fit in an embed of its own."""
    embed_limit = embed_limit or EMBED_DESCRIPTION
    message_limit = message_limit or EMBEDS_TOTAL
    messages: list[list[str]] = [[]]
    for paragraph in paragraphs:
        for piece in _pieces(paragraph, min(embed_limit, message_limit)):
            embeds = messages[-1]
            used = sum(map(len, embeds))
            if (
                embeds
                and len(embeds[-1]) + len(BREAK + piece) <= embed_limit
                and (used + len(BREAK + piece) <= message_limit)
            ):
                embeds[-1] += BREAK + piece
            elif len(embeds) < EMBEDS_IN_A_MESSAGE and used + len(piece) <= message_limit:
                embeds.append(piece)
            else:
                messages.append([piece])
    return messages


def _pieces(paragraph: str, limit: int) -> list[str]:
    """``paragraph`` in pieces of at most ``limit`` characters: whole if it fits, else cut
    between lines, and a line longer than ``limit`` anywhere."""
    if len(paragraph) <= limit:
        return [paragraph]
    pieces: list[str] = []
    for line in paragraph.split("\n"):
        if pieces and len(pieces[-1]) + 1 + len(line) <= limit:
            pieces[-1] += "\n" + line
        else:
            pieces += [line[start : start + limit] for start in range(0, len(line), limit)]
    return pieces


async def _cell_names_png(publisher: Publisher, reader: Reader) -> bytes:
    """The empty board naming every cell (no game's header above it)."""
    labels = image_labels(reader.catalogues, reader.locale)
    return await publisher.renderer.board_png(
        rules.new_game(), labels=labels, header=False, theme=reader.theme
    )


RULES_TEXT: Final = (
    _(
        "**DVONN** is played on 49 cells. White has 23 white pieces and 2 red DVONN pieces, "
        "Black 23 black pieces and 1 DVONN piece."
    ),
    _(
        "**1. Placing.** In turn, place one piece on any empty cell: White, Black and White "
        "place the three DVONN pieces first, then Black and White their own pieces, until the "
        "board is full (`/dvonn place`)."
    ),
    _(
        "**Random setup.** A challenge (or `/dvonn play-bot`) may choose the setup Random: the "
        "bot then places all 49 pieces at random, in this order, and the game begins with the "
        "moves. After a game, its last post's Rematch button plays it again, colours swapped."
    ),
    _(
        "**2. Moving.** White moves first. Move a piece or stack you control (your colour on "
        "top) in a straight line exactly as many cells as it is high, onto another piece or "
        "stack (`/dvonn move`). Empty cells may be jumped. A stack surrounded on all six sides "
        "cannot move; a lone DVONN piece never moves."
    ),
    _(
        "**Losing pieces.** After every move, pieces no longer linked to a DVONN piece through "
        "a chain of pieces are removed at once."
    ),
    _(
        "**End.** If you cannot move, you pass. When nobody can move, each player counts the "
        "pieces in the stacks they control: the higher count wins. The picture names every "
        "cell: a letter and a row number, such as E3."
    ),
)


def where_to_play(link: str) -> Text:
    """What works where: servers, and DMs through the app added to one's own account."""
    return _(
        "**Where you can play.** In a server that added the bot, everything works, and each "
        "game gets its own thread. In your DMs and group DMs, once you add the app to your own "
        "account ([add it]({link})): challenges, moves (typed, or by tapping “Your move” under a "
        "board), the computer opponent, resigning, calling off and takebacks. There the bot can "
        "only answer you: each board is the answer to the move before it, and reminders and "
        "losses on time come to your DMs. Ratings, the leaderboard and settings belong to "
        "servers.",
        link=link,
    )


def turn_notices() -> Text:
    """How a player may hear of their turns."""
    return _(
        "**Your turns.** Each board pings the player to move. With `/dvonn notify` you may "
        "have one DM a day instead, at an hour of your own, listing every game where it is your "
        "move (your time zone is asked once), or nothing at all; reminders before a deadline "
        "come either way."
    )


def puzzles() -> Text:
    """Puzzles: a command of their own, beside /dvonn."""
    return _(
        "**Puzzles.** `/puzzle` gives you a position where one move wins, near your puzzle "
        "rating, only for you: find the move (tap it, or `/puzzle move`), the reply is played, "
        "and so on. Your puzzle rating counts everywhere. A server may have a puzzle a day "
        "posted (`/dvonn settings puzzle_channel`)."
    )


def lessons() -> Text:
    """The lessons: a command of their own, beside /dvonn."""
    return _(
        "**Lessons.** New to DVONN? `/learn` teaches it by playing, a short lesson at a time, "
        "only for you: placing, moving, what cuts pieces off, passing, the count, and a first "
        "game against the beginner. Tap **Learn by playing** below to begin."
    )


def clocks(banks: str) -> Text:
    """The clocks a game may have; ``banks``: the time banks offered, in the reader's words."""
    return _(
        "**Clocks.** A challenge may set a clock (or take the server's default, from "
        "`/dvonn settings`): days per move, or a time bank ({banks}; the first is Little "
        "Golem's). On a bank your thinking time is taken from your bank and each move adds to "
        "it, up to its cap; each board shows both banks. Whoever runs out of time loses. A "
        "reminder comes a day before (or a quarter of your bank, if that is less), "
        "`/dvonn vacation` pauses your clocks, and a takeback puts the banks back as they were.",
        banks=banks,
    )


HELP_GROUPS: Final[tuple[tuple[Text, tuple[str, ...]], ...]] = (
    (_("Start a game"), ("challenge", "play-bot")),
    (_("Your turn"), ("place", "move", "play", "plan", "hint", "takeback")),
    (
        _("Look at games"),
        ("board", "games", "history", "replay", "review", "export", "import"),
    ),
    (_("End a game"), ("resign", "abort")),
    (_("Your clocks"), ("vacation", "notify")),
    (_("Ratings"), ("profile", "leaderboard")),
    (_("This server"), ("settings",)),
    (
        _("Tournaments and leagues"),
        tuple(
            f"tournament {name}"
            for name in (
                "create",
                "join",
                "leave",
                "withdraw",
                "start",
                "standings",
                "pairings",
                "cancel",
            )
        ),
    ),
    (_("Learn"), ("rules", "help")),
)
"""Every command, by what a player wants to do (a test checks that none is left out)."""


def command_descriptions(group: app_commands.Group) -> dict[str, str]:
    """Each command of ``group`` by its name under it (``tournament join``), with its English
    description (a subcommand group stands for nothing itself)."""
    return {name: command.description for name, command in subcommands(group).items()}


def help_paragraphs(reader: Reader, descriptions: Mapping[str, str], install: str) -> list[str]:
    """The help in the reader's language: a paragraph a group, a line a command (tappable once
    the bot knows the commands' ids) with what it does; then what works where, with the link
    that adds the app to one's own account (``install``). ``descriptions``: each command's
    English description, which is its catalogue message."""
    paragraphs = []
    for title, names in HELP_GROUPS:
        lines = [f"**{reader(title)}**"]
        lines += [
            f"{reader(f'/dvonn {name}')} · {reader(Text(descriptions[name]))}" for name in names
        ]
        paragraphs.append("\n".join(lines))
    paragraphs.append(reader(clocks("; ".join(reader(bank_terms(bank)) for bank in PRESETS))))
    paragraphs.append(reader(turn_notices()))
    paragraphs.append(reader(puzzles()))
    paragraphs.append(reader(lessons()))
    paragraphs.append(reader(where_to_play(install)))
    return paragraphs
