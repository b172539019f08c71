"""What network challenges, the network board and network games' homes say (the words of
:mod:`.seeks`, :mod:`.buttons`, :mod:`.board` and :mod:`.homes`).

Players are named by their network names (their Discord global names, never a server's
nickname); a mention only ever of someone in the place it is posted (a direct challenge's
opponent in their own home).
"""

from __future__ import annotations

from bot.games.core.models import Challenge, ChallengeStatus, Game, Setup
from bot.games.core.timecontrol import from_columns
from bot.games.network.seeking import HIGHEST_RATING, LOWEST_RATING
from bot.i18n import COLOUR_NAMES, Text, _
from bot.posting.texts import clock_text, discord_time, mention


def terms(challenge: Challenge, challenger: str) -> Text:
    """A network challenge's clock, setup, colours and range, in one line's words."""
    clock = clock_text(from_columns(challenge.clock_days, challenge.bank))
    if challenge.setup is Setup.RANDOM:
        clock = _("{clock}, random setup", clock=clock)
    colour = (
        _("colours drawn at random")
        if challenge.challenger_colour is None
        else _(
            "{player} plays {colour}",
            player=challenger,
            colour=COLOUR_NAMES[challenge.challenger_colour],
        )
    )
    if challenge.min_rating is None and challenge.max_rating is None:
        return _("{clock}, {colour}", clock=clock, colour=colour)
    return _(
        "{clock}, {colour}, network ratings {low}–{high}",
        clock=clock,
        colour=colour,
        low=LOWEST_RATING if challenge.min_rating is None else challenge.min_rating,
        high=HIGHEST_RATING if challenge.max_rating is None else challenge.max_rating,
    )


def seek_text(challenge: Challenge, challenger: str) -> Text:
    """An open network challenge's post, where it was made (it pings nobody)."""
    return _(
        "🌐 {player} is looking for a DVONN opponent from any server of the network ({terms}). "
        "Accept here, or from /network seeks and the board of any network channel.",
        player=challenger,
        terms=terms(challenge, challenger),
    )


def taken_text(player: str, game_id: int, white: str, black: str) -> Text:
    """A seek's own post once ``player`` took it (there, or from anywhere else)."""
    return _(
        "{player} accepted: network game #{game}, {white} (White) vs {black} (Black), is played "
        "in each player's home.",
        player=player,
        game=game_id,
        white=white,
        black=black,
    )


def closed_text(challenge: Challenge, challenger: str, closer: str | None) -> Text:
    """A seek's own post once it closed other than by being taken: cancelled by ``closer``
    (its challenger), called off (its challenger left the network, or its server did), or
    expired."""
    if challenge.status is ChallengeStatus.EXPIRED:
        return _(
            "🌐 {player}'s open network challenge expired: nobody accepted it in time.",
            player=challenger,
        )
    if closer is not None:
        return _("{player} cancelled the network challenge.", player=closer)
    return _("🌐 {player}'s open network challenge was called off.", player=challenger)


def seek_line(challenge: Challenge, challenger: str, rating: int) -> Text:
    """One seek on a board or in a list: who, their network rating, the terms, when it ends."""
    return _(
        "**#{id}** {player} ({rating}): {terms}, until {until}",
        id=challenge.id,
        player=challenger,
        rating=rating,
        terms=terms(challenge, challenger),
        until=discord_time(challenge.expires_at),
    )


def seek_option(challenge: Challenge, challenger: str, rating: int) -> Text:
    """One seek in the menu to accept one (no markup: a menu shows none)."""
    return _(
        "#{id} {player} ({rating}): {terms}",
        id=challenge.id,
        player=challenger,
        rating=rating,
        terms=terms(challenge, challenger),
    )


def direct_text(challenge: Challenge, challenger: str, rating: int) -> Text:
    """A direct network challenge, posted in its opponent's home, pinging only them."""
    assert challenge.opponent_id is not None
    return _(
        "🌐 {opponent}, {player} (network rating {rating}) challenges you to a network game of "
        "DVONN ({terms}).",
        opponent=mention(challenge.opponent_id),
        player=challenger,
        rating=rating,
        terms=terms(challenge, challenger),
    )


def game_line(game: Game, white: str, black: str) -> Text:
    """A network game home's first post (its thread grows from it in a server)."""
    return _(
        "🌐 Network game #{game}: {white} (White) vs {black} (Black). Its boards come here; "
        "each player plays from their own home.",
        game=game.id,
        white=white,
        black=black,
    )


def moved_line(game: Game) -> Text:
    """A network game's home moved to its player's DMs (its server left the network, or the
    bot may no longer post there)."""
    return _(
        "🌐 Your network game #{game} goes on here, in your DMs with the bot: its server no "
        "longer hosts it. The board as it stands:",
        game=game.id,
    )


def thread_name(game: Game, white: str, black: str) -> str:
    """A home thread's name (names are shown as they are; no words to translate)."""
    return f"#{game.id} {white} vs {black}"
