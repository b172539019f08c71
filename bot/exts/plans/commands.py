"""``/dvonn plan``: conditional moves, planned, listed and cleared through one command's options.

* ``line``: moves in turn, the opponent's expected move first. ``E3 F4 D2 D3`` plans "if they
  play E3, I play F4; if they then play D2, I play D3". On one's own turn a line begins with
  one's own move, which is played at once (its board posted like any move's), the rest kept.
* ``clear: True``: drops one's lines in the game (with a ``line``, before planning it).
* ``game``: the game (default: the one played in this channel).
* no option: one's lines in the game.

Every answer is private, and nothing of a plan is posted until its move is played: a planned
reply is announced by its own board post, marked as planned. The command is never kept as the
way to answer in a private game (:func:`~bot.interactions.places.remember_reply_route`), whose
next board would then show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from discord import app_commands
from discord.app_commands import Choice, locale_str

import rules
from bot.games.core import turns
from bot.games.core.models import Game
from bot.games.plans import lines as plans
from bot.games.plans.errors import PlanError, PlansAgainstTheBot
from bot.games.plans.lines import Line
from bot.games.plans.planning import Planned
from bot.i18n import Text, _, n_
from bot.interactions import events
from bot.interactions.feature import Feature
from bot.interactions.lookup import game_here
from bot.interactions.replies import finish, fit_lines
from bot.posting.outbox import REPLY_WAIT
from bot.posting.publisher import Reader
from bot.posting.texts import played_reply

if TYPE_CHECKING:
    from bot.app import Interaction

MAX_CHOICES: Final = 25  # Discord's limit for autocomplete answers
MAX_CHOICE: Final = 100  # Discord's limit for a choice's name and value

HOW: Final = _(
    "Plan with /dvonn plan line: the move you expect of your opponent, your reply, the next "
    "move you expect, your reply… (such as E3 F4 D2 D3). Each reply is played for you as soon "
    "as they play the move you expected, and only you see your lines until then."
)
LEGEND: Final = _("Each line: the move you expect → your reply (in bold), and so on.")


def line_text(position: rules.Position, line: Line) -> str:
    """A line as its owner reads it, from ``position`` (where its next move is to be played):
    ``E3 → **F4**, D2 → **D3**``, their expected moves plain, the owner's replies in bold."""
    parts: list[str] = []
    at, replying = position, False
    for move in line.moves:
        if at.turn is line.owner:
            parts.append(f"{'' if replying else ' →'} **{move}**")
            replying = True
        else:
            parts.append(f"{', ' if parts else ''}{move}")
            replying = False
        at = turns.turn(at, move).after
    return "".join(parts)


def _listed(reader: Reader, game: Game, lines: tuple[Line, ...]) -> list[str]:
    """The player's lines, a numbered line each, under a heading (or how to plan some)."""
    if not lines:
        return [
            reader(_("You have no planned lines in game #{game}.", game=game.id)),
            reader(HOW),
        ]
    heading = n_(
        "Your planned line in game #{game}:",
        "Your {count} planned lines in game #{game}:",
        len(lines),
        game=game.id,
    )
    listed = [f"{index}. {line_text(game.position, line)}" for index, line in enumerate(lines, 1)]
    return [reader(heading), *listed, reader(LEGEND)]


class Plans(Feature):
    @app_commands.command(
        name="plan",
        description=locale_str("Plan your replies to the moves you expect, privately"),
    )
    @app_commands.describe(
        line=locale_str("Moves in turn, theirs first: E3 F4 D2 D3 (if they play E3, you play F4…)"),
        clear=locale_str("True: drop your planned lines in this game (before planning a line)"),
        game=locale_str("A game number (default: the game in this channel)"),
    )
    async def plan(
        self,
        interaction: Interaction,
        line: app_commands.Range[str, 1, 400] | None = None,
        clear: bool = False,
        game: int | None = None,
    ) -> None:
        async with self.inflight.track():
            found = await self._game(interaction, game)
            reader = self.publisher.private_reader(interaction)
            user = interaction.user.id
            said: list[str] = []
            if clear:
                dropped = await self.service.plans.clear(found.id, user)
                said.append(reader(_cleared(found, dropped)))
            if line is None:
                if not clear:
                    _, lines = await self.service.plans.lines(found.id, user)
                    said.extend(_listed(reader, found, lines))
                await self._say(interaction, said)
                return
            if found.to_move_id == user:
                # Its first move is played at once: its board may take a moment.
                await interaction.response.defer(ephemeral=True, thinking=True)
            planned = await self.service.plans.plan(found.id, user, line)
            said.extend(await self._planned(interaction, reader, planned))
            await self._say(interaction, said)

    async def _game(self, interaction: Interaction, game_id: int | None) -> Game:
        """The game named, or the one here, if the user may plan in it."""
        if game_id is not None:
            found = await self.service.get_game(game_id)
        else:
            found = await game_here(self.service, interaction)
        if found.computer_id is not None and found.is_player(interaction.user.id):
            raise PlansAgainstTheBot(found.id)
        return found

    async def _planned(
        self, interaction: Interaction, reader: Reader, planned: Planned
    ) -> list[str]:
        """What planning a line did, in the player's words."""
        game = planned.game
        said: list[str] = []
        if planned.played is not None:
            outcome = planned.played
            interaction.client.dispatch(events.TURN, outcome.game)
            sent = await self.deliverer.announce(
                outcome.announcement, game_id=game.id, timeout=REPLY_WAIT
            )
            link = None if sent is None else sent.jump_url
            said.append(reader(played_reply(outcome.move.text, link, game.channel_id)))
            replies = [m for m in outcome.replies if not m.automatic]
            if replies:
                said.append(
                    reader(
                        n_(
                            "{count} planned move was played after it: {moves}.",
                            "{count} planned moves were played after it: {moves}.",
                            len(replies),
                            moves=" ".join(m.text for m in replies),
                        )
                    )
                )
            if outcome.ended is not None or planned.line is None:
                return said
        elif planned.planned_already:
            said.append(
                reader(_("You had planned that line already in game #{game}.", game=game.id))
            )
        else:
            assert planned.line is not None
            said.append(
                reader(
                    _(
                        "Planned in game #{game}: {line}. It is played for you, and announced, as "
                        "soon as your opponent plays the move you expect.",
                        game=game.id,
                        line=line_text(game.position, planned.line),
                    )
                )
            )
        return [*said, *_listed(reader, game, planned.lines)]

    async def _say(self, interaction: Interaction, said: list[str]) -> None:
        reader = self.publisher.private_reader(interaction)

        def more(count: int) -> str:
            return reader(n_("…and {count} more line.", "…and {count} more lines.", count))

        text = fit_lines(said, more)
        if interaction.response.is_done():
            await finish(interaction, text)  # deferred, privately
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # --- autocomplete --------------------------------------------------------------------------

    @plan.autocomplete("line")
    async def line_choices(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The line typed so far, followed by each move that may come next (from the public
        position of the user's game: nothing of anyone's lines)."""
        game_id = getattr(interaction.namespace, "game", None)
        try:
            found = await self._game(interaction, game_id if isinstance(game_id, int) else None)
        except Exception:
            return []
        if not found.is_active or not found.is_player(interaction.user.id):
            return []
        tokens = current.split()
        typed = tokens.pop() if tokens and not current[-1].isspace() else ""
        try:
            moves = plans.read(" ".join(tokens), found.position)
        except PlanError:
            return []
        position = found.position
        for move in moves:
            if rules.is_over(position):
                return []
            try:
                position = turns.turn(position, move).after
            except rules.RulesError:
                return []
        prefix = rules.normalise(typed).replace("-", "")
        known = " ".join(str(m) for m in moves)
        choices = []
        for move in rules.legal_moves(position):
            text = str(move)
            if move == rules.PASS or not text.startswith(prefix):
                continue
            whole = f"{known} {text}".strip()
            if len(whole) <= MAX_CHOICE:
                choices.append(Choice(name=whole, value=whole))
        return choices[:MAX_CHOICES]


def _cleared(game: Game, dropped: int) -> Text:
    if not dropped:
        return _("You had no planned lines in game #{game}.", game=game.id)
    return n_(
        "Dropped {count} planned line in game #{game}.",
        "Dropped {count} planned lines in game #{game}.",
        dropped,
        game=game.id,
    )
