"""What the bot says about games, as catalogue texts: pure, no Discord, no I/O.

The publisher (:mod:`bot.posting.publisher`) turns these into embeds and messages in the
reader's language. Names are the players' display names (user content, never translated);
mentions are Discord's ``<@id>`` syntax, and only ever of people: in a game against the bot, no
post mentions or pings the bot itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

import render
import rules
from bot.games.core.announcements import RatingShift
from bot.games.core.clocks import bank_of, banks
from bot.games.core.models import EndReason, Game
from bot.games.core.results import GameOver, PlayedMove
from bot.games.core.timecontrol import Bank, DaysPerMove, TimeControl
from bot.i18n import COLOUR_NAMES, Catalogues, Locale, Text, _, n_, p_
from rules import CELL_NAMES, Cell, Colour, Jump, Pass, Place, Stack


def mention(user_id: int) -> str:
    """Discord's mention syntax for a user; a forgotten player's placeholder (a negative id, see
    ``python -m bot forget``) is no user, and is written as its name is (``#-1``)."""
    if user_id <= 0:
        return f"#{user_id}"
    return f"<@{user_id}>"


def discord_time(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone and language
    (``R``: "in 2 days"; ``f``: the full date and time)."""
    return f"<t:{int(moment.timestamp())}:{style}>"


@dataclass(frozen=True, slots=True)
class Players:
    """The two players' display names, by colour."""

    white: str
    black: str

    def name(self, colour: Colour) -> str:
        return self.white if colour is Colour.WHITE else self.black

    def as_tuple(self) -> tuple[str, str]:
        return (self.white, self.black)


@dataclass(frozen=True, slots=True)
class Ending:
    """A game's end as the image's status line shows it: a headline and the winner's colour."""

    headline: Text
    winner: Colour | None


@dataclass(frozen=True, slots=True)
class LastTurn:
    """A game's last turn, the one source of what every board of the game says of it (its
    post's image and alt text, ``/dvonn board``, the text board): the move its player made,
    what that cut off, and the passes it forced after it (a player left with no legal move
    passes, and the pass is recorded with the move that left them none)."""

    ply: int
    """The move's index in the record (0..48 are the placements)."""
    move: rules.Move
    removed: Mapping[Cell, Stack]
    """The stacks the move cut off and removed, by cell."""
    passes: int = 0
    """How many passes it forced (at most one: a pass leaves the mover a move)."""

    @property
    def last_action(self) -> rules.Move:
        """The turn's last action, which the image marks: the pass, when there was one (the
        image then says who passed, and still crosses out what the move cut off)."""
        return rules.PASS if self.passes else self.move

    @classmethod
    def played(cls, moves: Sequence[PlayedMove]) -> LastTurn | None:
        """The turn of ``moves``, as the service recorded it: the move, then its passes."""
        if not moves:
            return None
        first = moves[0]
        return cls(first.ply, first.move, dict(first.removed), sum(m.is_pass for m in moves[1:]))

    @classmethod
    def of(cls, record: Iterable[rules.Move]) -> LastTurn | None:
        """The last turn of a game's record (its moves in order; ``None`` before the first)."""
        moves = list(record)
        index = len(moves) - 1
        while index > 0 and isinstance(moves[index], Pass):
            index -= 1  # a pass is recorded with the move that forced it
        if index < 0:
            return None
        before = rules.replay(moves[:index])[-1]
        removed = rules.apply(before, moves[index]).removed
        return cls(index, moves[index], dict(removed), len(moves) - 1 - index)


@dataclass(frozen=True, slots=True)
class GamePost:
    """One post in a game's thread or channel: a board image with a few lines of text."""

    title: Text
    lines: tuple[Text, ...]
    content: tuple[Text, ...] = ()
    """The message text outside the embed, a line each: where the ping goes (embeds never ping),
    and what a phone's notification shows."""
    ping: tuple[int, ...] = ()
    """The users this post may notify; nobody else, never roles or @everyone."""
    turn_ping: bool = False
    """Its ping tells the player to move that it is their turn: it notifies them only if they
    chose a ping on every turn (not the daily digest, nor nothing: ``/dvonn notify``)."""
    footer: Text | None = None
    ending: Ending | None = None
    """For the image's status line when the rules alone cannot tell it (resignation, abort)."""
    last_turn: LastTurn | None = None
    """The turn that led to the position shown, which its image marks and its words tell."""

    @property
    def last_move(self) -> rules.Move | None:
        """The action the image marks (:attr:`LastTurn.last_action`)."""
        return None if self.last_turn is None else self.last_turn.last_action

    @property
    def removed(self) -> dict[Cell, Stack]:
        """The stacks the image crosses out: those the turn's move cut off."""
        return {} if self.last_turn is None else dict(self.last_turn.removed)


def players_at_home(game: Game, home: str) -> tuple[int, ...]:
    """The players whose home of a network game ``home`` is (its seat: ``W``, ``B``, or ``*``
    for both); a game's one place (``""``) is both players'."""
    if home == "W":
        return (game.white_id,)
    if home == "B":
        return (game.black_id,)
    return game.human_ids


_MENTION: Final = re.compile(r"<@!?(\d+)>")


def home_text(text: Text, home: Collection[int], names: Mapping[int, str]) -> Text:
    """``text`` as one home of a network game shows it: mentions of the players of that home
    (``home``) stay, anyone else is named in plain words (``names``, else ``#id``)."""

    def plain(match: re.Match[str]) -> str:
        user = int(match.group(1))
        return match.group(0) if user in home else names.get(user, f"#{user}")

    def param(value: object) -> object:
        if isinstance(value, str):
            return _MENTION.sub(plain, value)
        if isinstance(value, Text):
            return home_text(value, home, names)
        return value

    return dataclasses.replace(text, params={k: param(v) for k, v in text.params.items()})


def for_home(post: GamePost, home: Collection[int], names: Mapping[int, str]) -> GamePost:
    """``post`` as one home of a network game shows it: it pings only the players of that
    home (``home``), and names anyone else in plain words (``names``, else ``#id``) instead of
    mentioning them (:func:`home_text`), so that nobody is called from a server they do not
    play in. Nothing else changes: a home's post says what the other's says."""

    def texts(values: tuple[Text, ...]) -> tuple[Text, ...]:
        return tuple(home_text(value, home, names) for value in values)

    ending = post.ending
    if ending is not None:
        ending = dataclasses.replace(ending, headline=home_text(ending.headline, home, names))
    return dataclasses.replace(
        post,
        title=home_text(post.title, home, names),
        lines=texts(post.lines),
        content=texts(post.content),
        ping=tuple(user for user in post.ping if user in home),
        footer=None if post.footer is None else home_text(post.footer, home, names),
        ending=ending,
    )


def game_title(game: Game, players: Players) -> Text:
    return _("DVONN #{game}: {white} (White) vs {black} (Black)", game=game.id, **_names(players))


def _names(players: Players) -> dict[str, str]:
    return {"white": players.white, "black": players.black}


def move_line(played: PlayedMove, players: Players) -> Text:
    """One line for one recorded action: a placement, a move (with what it cut off), a pass."""
    name = players.name(played.colour)
    move = played.move
    if isinstance(move, Place):
        cell = CELL_NAMES[move.cell]
        if played.automatic:  # a random setup's: not the player's own act
            if played.ply < rules.position.DVONN_PIECES:
                return _("A DVONN piece was placed at random on {cell}.", cell=cell)
            return _("{player}'s piece was placed at random on {cell}.", player=name, cell=cell)
        if played.ply < rules.position.DVONN_PIECES:
            return _("{player} placed a DVONN piece on {cell}.", player=name, cell=cell)
        return _("{player} placed a piece on {cell}.", player=name, cell=cell)
    if isinstance(move, Pass):
        if played.automatic:
            return _("{player} has no legal move and passes.", player=name)
        return _("{player} passed.", player=name)
    assert isinstance(move, Jump)
    source, target = CELL_NAMES[move.source], CELL_NAMES[move.target]
    if not played.removed:
        return _("{player} moved {source}→{target}.", player=name, source=source, target=target)
    return n_(
        "{player} moved {source}→{target}: {count} piece cut off and removed ({cells}).",
        "{player} moved {source}→{target}: {count} pieces cut off and removed ({cells}).",
        played.pieces_removed,
        player=name,
        source=source,
        target=target,
        cells=", ".join(played.removed_cell_names),
    )


def turn_prompt(game: Game) -> Text:
    """The line that pings the player to act: placing or moving, and how."""
    position = game.position
    user = game.to_move_id
    assert user is not None, "a finished game has nobody to move"
    colour = COLOUR_NAMES[position.turn]
    if position.is_placement:
        if position.ply < rules.position.DVONN_PIECES:
            return _(
                "{mention}, your turn ({colour}): place a DVONN piece with /dvonn place.",
                mention=mention(user),
                colour=colour,
            )
        return _(
            "{mention}, your turn ({colour}): place a piece with /dvonn place.",
            mention=mention(user),
            colour=colour,
        )
    return _(
        "{mention}, your turn ({colour}): move with /dvonn move.",
        mention=mention(user),
        colour=colour,
    )


def _call_to_move(game: Game) -> tuple[Text, tuple[int, ...]]:
    """The post's line for whoever is to move, and whom it pings: the player, or, when it is
    the bot, nobody."""
    if game.computer_to_move:
        return _("The bot is thinking about its move."), ()
    assert game.to_move_id is not None, "a finished game has nobody to move"
    return turn_prompt(game), (game.to_move_id,)


def _call_game_over(game: Game) -> tuple[Text, tuple[int, ...]]:
    """The post's line for the players when the game ends, and whom it pings: its people."""
    people = game.human_ids
    return _("{players}: the game is over.", players=" ".join(map(mention, people))), people


def ending_line(over: GameOver, players: Players, game: Game) -> Text:
    """How the game ended, with the score."""
    winner = None
    if over.winner_id is not None:
        winner = Colour.WHITE if over.winner_id == game.white_id else Colour.BLACK
    return result_line(over.reason, winner, over.score, players)


def result_line(
    reason: EndReason, winner_colour: Colour | None, score: tuple[int, int], players: Players
) -> Text:
    """How a game ended (``winner_colour`` ``None``: a draw, or no result), with the score."""
    white, black = score
    if reason is EndReason.ABORT:
        return _("The game was called off: no result.")
    if winner_colour is None:
        return _(
            "Game over: a draw, {white_score}–{black_score}.", white_score=white, black_score=black
        )
    winner = players.name(winner_colour)
    if reason is EndReason.TIME:
        return _(
            "{loser} ran out of time: {winner} wins on time.",
            loser=players.name(winner_colour.opponent),
            winner=winner,
        )
    if reason is EndReason.RESIGNATION:
        return _(
            "{loser} resigned: {winner} wins.",
            loser=players.name(winner_colour.opponent),
            winner=winner,
        )
    return _(
        "Game over: {winner} wins, {white_score}–{black_score}.",
        winner=winner,
        white_score=white,
        black_score=black,
    )


def turn_post(
    game: Game,
    players: Players,
    moves: Sequence[PlayedMove],
    over: GameOver | None,
    ratings: tuple[RatingShift, RatingShift] | None = None,
    *,
    followed: bool = False,
) -> GamePost:
    """The post after a turn: what was played, and who is to move (pinged) or how it ended
    (with the rating changes, and how to see the game again). A reply the player had planned
    says so; ``followed``: the next player's planned reply was played at once (its own post
    comes next and pings), so this one pings nobody."""
    played = [move_line(m, players) for m in moves]
    if moves and moves[0].planned:
        name = players.name(moves[0].colour)
        played.insert(0, _("{player} had planned this reply:", player=name))
    lines = list(played)
    last = LastTurn.played(moves)
    if over is not None:
        lines.append(ending_line(over, players, game))
        lines.extend(afterword(game, players, ratings))
        call, ping = _call_game_over(game)
        return GamePost(
            title=game_title(game, players),
            lines=tuple(lines),
            content=(*played, call),
            ping=ping,
            last_turn=last,
            ending=_image_ending(game, players, over),
        )
    if game.deadline_at is not None:
        lines.append(deadline_line(game))  # every board shows the clock, a followed one too
    if followed:
        replier = players.name(game.position.turn)
        call = _("{player} had planned a reply: it follows.", player=replier)
        return GamePost(
            title=game_title(game, players),
            lines=(*lines, call),
            content=(*played, call),
            footer=move_footer(game),
            last_turn=last,
        )
    call, ping = _call_to_move(game)
    return GamePost(
        title=game_title(game, players),
        lines=tuple(lines),
        content=(*played, call),
        ping=ping,
        turn_ping=True,
        footer=move_footer(game),
        last_turn=last,
    )


def deadline_line(game: Game) -> Text:
    """The clock of a running game: when the player to move must play, and on a time bank
    what is in the other player's bank."""
    assert game.deadline_at is not None
    bank = bank_of(game)
    if bank is not None:
        waiting = game.position.turn.opponent
        return _(
            "Clock: time bank of {terms}; {player} must play by {deadline} ({relative}), "
            "{opponent} has {left} in the bank.",
            terms=bank_terms(bank),
            player=mention(game.to_move_id or 0),
            deadline=discord_time(game.deadline_at, "f"),
            relative=discord_time(game.deadline_at),
            opponent=mention(game.player(waiting)),
            left=duration_text(banks(game)[waiting]),
        )
    return _(
        "Clock: {days} per move; {player} must play by {deadline} ({relative}).",
        days=n_("{count} day", "{count} days", game.clock_days or 0),
        player=mention(game.to_move_id or 0),
        deadline=discord_time(game.deadline_at, "f"),
        relative=discord_time(game.deadline_at),
    )


def duration_text(amount: timedelta) -> Text:
    """What is in a time bank, to the minute below: "10 d 4 h", "5 h 20 min", "12 min"."""
    minutes = max(timedelta(0), amount) // timedelta(minutes=1)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days and hours:
        return _("{days} d {hours} h", days=days, hours=hours)
    if days:
        return _("{days} d", days=days)
    if hours and minutes:
        return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
    if hours:
        return _("{hours} h", hours=hours)
    return _("{minutes} min", minutes=minutes)


def _term(amount: timedelta) -> Text:
    """A bank's term in its largest whole unit, as Little Golem states its own: "36 h"."""
    if not amount % timedelta(days=1):
        return _("{days} d", days=amount // timedelta(days=1))
    if not amount % timedelta(hours=1):
        return _("{hours} h", hours=amount // timedelta(hours=1))
    return duration_text(amount)


def bank_terms(bank: Bank) -> Text:
    """A bank's terms: "10 d + 36 h a move, at most 10 d"."""
    return _(
        "{initial} + {increment} a move, at most {cap}",
        initial=_term(bank.initial),
        increment=_term(bank.increment),
        cap=_term(bank.cap),
    )


def clock_text(control: TimeControl | None) -> Text:
    """A clock as a challenge or the settings name it: "no clock", "3 days per move",
    "time bank: 10 d + 36 h a move, at most 10 d"."""
    if isinstance(control, DaysPerMove):
        return n_("{count} day per move", "{count} days per move", control.days)
    if isinstance(control, Bank):
        return _("time bank: {terms}", terms=bank_terms(control))
    return _("no clock")


def start_post(game: Game, players: Players) -> GamePost:
    """The first post of a game: who plays what, and how to play, in two lines (a random
    setup's says its pieces are placed, a rematch's which game it plays again)."""
    clock = (deadline_line(game),) if game.deadline_at is not None else ()
    call, ping = _call_to_move(game)
    rematch: tuple[Text, ...] = ()
    if game.rematch_of is not None:
        rematch = (_("A rematch of game #{game}, colours swapped.", game=game.rematch_of),)
    how = _(
        "Place pieces with /dvonn place (White places first: three DVONN pieces, then "
        "your own), then move stacks with /dvonn move: a stack moves exactly as far as "
        "it is high, in a straight line, onto another stack."
    )
    if game.setup_seed is not None:
        how = _(
            "Random setup: the bot placed all 49 pieces at random, and the movement begins "
            "now. Move stacks with /dvonn move: a stack moves exactly as far as it is high, in "
            "a straight line, onto another stack."
        )
    return GamePost(
        title=game_title(game, players),
        lines=(
            *rematch,
            *clock,
            how,
            _(
                "Stay connected to a red DVONN piece or lose your pieces; the taller towers win. "
                "/dvonn rules explains it all."
            ),
        ),
        content=(call,),
        ping=ping,
        turn_ping=True,
        footer=move_footer(game),
    )


def takeback_post(game: Game, players: Players, undone: Sequence[str]) -> GamePost:
    """After an accepted takeback: what was undone, and who is to move again (pinged)."""
    lines: list[Text] = [_("Takeback accepted: {moves} undone.", moves=" ".join(undone))]
    if game.deadline_at is not None:
        lines.append(deadline_line(game))
    call, ping = _call_to_move(game)
    return GamePost(
        title=game_title(game, players),
        lines=tuple(lines),
        content=(call,),
        ping=ping,
        turn_ping=True,
        footer=move_footer(game),
    )


def board_post(game: Game, players: Players, last_turn: LastTurn | None = None) -> GamePost:
    """A repost of the current position (nobody is pinged), with the game's last turn
    (:meth:`LastTurn.of` its record) marked and told as its own post did."""
    if game.is_active:
        assert game.to_move_id is not None
        line = _(
            "{player} ({colour}) is to play.",
            player=players.name(game.position.turn),
            colour=COLOUR_NAMES[game.position.turn],
        )
        clock = (deadline_line(game),) if game.deadline_at is not None else ()
        return GamePost(
            title=game_title(game, players),
            lines=(line, *clock),
            footer=move_footer(game),
            last_turn=last_turn,
        )
    over = GameOver.of(game)
    return GamePost(
        title=game_title(game, players),
        lines=(ending_line(over, players, game),),
        ending=_image_ending(game, players, over),
        last_turn=last_turn,
    )


def ended_post(
    game: Game,
    players: Players,
    over: GameOver,
    ratings: tuple[RatingShift, RatingShift] | None = None,
) -> GamePost:
    """The post when a game ends other than by a move: resignation, time, abort."""
    call, ping = _call_game_over(game)
    return GamePost(
        title=game_title(game, players),
        lines=(ending_line(over, players, game), *afterword(game, players, ratings)),
        content=(call,),
        ping=ping,
        ending=_image_ending(game, players, over),
    )


def channel_lost_text(game_id: int, channel_id: int) -> Text:
    """A player's DM: the bot can no longer post where their game is played."""
    return _(
        "I can no longer post in <#{channel}>, where your DVONN game #{game} is played: I lost "
        "my permission to send messages there, or the channel is gone. Ask a moderator to let "
        "me post there again. Meanwhile your moves there still show the board.",
        channel=channel_id,
        game=game_id,
    )


def rating_text(value: float, *, provisional: bool = False) -> str:
    """A rating as players read it: rounded, with "?" while it is provisional (as lichess)."""
    return f"{round(value)}{'?' if provisional else ''}"


def afterword(
    game: Game, players: Players, ratings: tuple[RatingShift, RatingShift] | None
) -> tuple[Text, ...]:
    """What follows a game's ending line: each player's rating change, and how to see the
    game again."""
    lines: list[Text] = []
    if ratings is not None:
        for name, shift in zip(players.as_tuple(), ratings, strict=True):
            change = round(shift.after) - round(shift.before)
            lines.append(
                _(
                    "{player}: rating {before} → {after} ({change})",
                    player=name,
                    before=rating_text(shift.before),
                    after=rating_text(shift.after, provisional=shift.provisional),
                    change=f"{change:+d}".replace("-", "−"),
                )
            )
    lines.append(
        _(
            "See it again with /dvonn replay, or take its transcript with /dvonn export "
            "(game: {game}).",
            game=game.id,
        )
    )
    return tuple(lines)


def move_footer(game: Game) -> Text:
    score_white, score_black = rules.score(game.position)
    return _(
        "Game #{game} · move {number} · White {white_score} – Black {black_score}",
        game=game.id,
        number=game.position.ply + 1,
        white_score=score_white,
        black_score=score_black,
    )


def _image_ending(game: Game, players: Players, over: GameOver) -> Ending | None:
    # render draws the rules' own ending by itself; a resignation, a loss on time or an abort
    # happen in a position the rules think is still running, so the image must be told.
    if over.reason is EndReason.SCORE:
        return None
    winner = None
    if over.winner_id is not None:
        winner = Colour.WHITE if over.winner_id == game.white_id else Colour.BLACK
    return Ending(ending_line(over, players, game), winner)


def image_status(ending: Ending, catalogues: Catalogues, locale: Locale) -> render.Status:
    """The image's status line for an ending the rules do not see, in the reader's language."""
    return render.Status(
        headline=catalogues.render(ending.headline, locale),
        details=catalogues.render(IMAGE_LABELS["game_over"], locale),
        highlighted=ending.winner,
    )


IMAGE_LABELS: Final[dict[str, Text]] = {
    "white": p_("colour", "White"),
    "black": p_("colour", "Black"),
    "placement": _("Placement"),
    "movement": _("Movement"),
    "move_number": _("Move {number}"),
    "to_move": _("{player} to move"),
    "to_place_dvonn": _("{player} to place a DVONN piece"),
    "passed": _("{player} passed"),
    "wins": _("{player} wins"),
    "draw": _("Draw"),
    "game_over": _("Game over"),
}
"""The board image's words; templates keep their ``{fields}`` for render to fill."""


def image_labels(catalogues: Catalogues, locale: Locale) -> render.Labels:
    """The board image's words in the reader's language.

    The texts have no params, so rendering leaves their ``{fields}`` for render to fill.
    """
    words = {key: catalogues.render(text, locale) for key, text in IMAGE_LABELS.items()}
    return render.Labels().replace(**words)


def played_reply(move: str, board_link: str | None, channel_id: int) -> Text:
    """The mover's private reply: what they played, and where its board is (its link, once
    posted; else the channel it goes to)."""
    if board_link is not None:
        return _("You played {move}. [See the board]({link})", move=move, link=board_link)
    return _(
        "You played {move}. The board is on its way to <#{channel}>.",
        move=move,
        channel=channel_id,
    )
