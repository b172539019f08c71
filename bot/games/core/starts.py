"""What of a game's start is not about its place: the colours drawn, its setup placed, its
clock; shared by the lobby (a challenge accepted in a channel) and the network (a network
challenge accepted, played in its players' homes).

A game begins either at once (the lobby: its clock starts as it is inserted), or pending (a
network game, waiting for its homes: its clock starts when the last is ready,
:func:`begin_deadline`), as a tournament's game waits for its thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime

import rules
from bot.games.core.clocks import GameClock
from bot.games.core.setups import new_opening
from bot.games.core.timecontrol import from_columns
from bot.storage import (
    Challenge,
    ChannelId,
    Game,
    GameStatus,
    GuildId,
    NewGame,
    UserId,
    Writer,
)
from rules import Colour


@dataclass(frozen=True, slots=True)
class Place:
    """Where a new game is played (a network game: where it is recorded until its homes are
    ready, :attr:`bot.storage.Game.channel_id`)."""

    guild_id: GuildId | None
    channel_id: ChannelId
    parent_channel_id: ChannelId | None = None
    private: bool = False
    """The bot cannot post there on its own (:attr:`bot.storage.Game.private`): not rated."""


@dataclass(frozen=True, slots=True)
class NewStart:
    """A game to insert, and what its random setup placed (to record once it has its id:
    :func:`bot.games.core.setups.record_opening`; nothing for a standard setup)."""

    game: NewGame
    opening: list[rules.MoveResult]


async def new_game_of(
    tx: Writer,
    challenge: Challenge,
    accepter_id: UserId,
    rng: random.Random,
    now: datetime,
    *,
    place: Place,
    network: bool = False,
) -> NewStart:
    """The game ``accepter_id`` starts by accepting ``challenge``: the colours (the
    challenger's choice, else drawn with ``rng``), its setup (a random one placed now), its
    clock, played at ``place``. A lobby game begins now (its clock starts, after the vacation of
    the player to move); a ``network`` game is inserted pending, its clock started when its
    homes are ready (:func:`begin_deadline`), and rated in the network. The accepter's
    ``players`` row is made if missing."""
    colour = challenge.challenger_colour or rng.choice(list(Colour))
    challenger, accepter = challenge.challenger_id, accepter_id
    white, black = (challenger, accepter) if colour is Colour.WHITE else (accepter, challenger)
    await tx.ensure_players([accepter_id], now)
    seed, opening = new_opening(challenge.setup)
    position = opening[-1].after if opening else rules.new_game()
    control = from_columns(challenge.clock_days, challenge.bank)
    paused_until = None
    if control is not None and not network:
        first = white if position.turn is Colour.WHITE else black
        paused_until = (await tx.prefs(first, lock=False)).vacation_until
    clock = GameClock.starting(control, now, paused_until)
    game = NewGame(
        guild_id=None if network else place.guild_id,
        channel_id=place.channel_id,
        parent_channel_id=place.parent_channel_id,
        challenge_id=challenge.id,
        white_id=white,
        black_id=black,
        position=position,
        clock_days=clock.clock_days,
        deadline_at=None if network else clock.deadline_at,
        bank=clock.bank,
        white_bank=clock.white_bank,
        black_bank=clock.black_bank,
        created_at=now,
        # A server without the bot keeps no ladder it could show: not rated.
        rated=not place.private,
        private=place.private,
        status=GameStatus.PENDING if network else GameStatus.ACTIVE,
        setup_seed=seed,
        rematch_of=challenge.rematch_of,
        network=network,
    )
    return NewStart(game, opening)


async def begin_deadline(tx: Writer, game: Game, now: datetime) -> datetime | None:
    """The deadline of a pending game's first turn if it begins ``now`` (its player to move
    on vacation: after it); ``None`` without a clock."""
    control = from_columns(game.clock_days, game.bank)
    if control is None:
        return None
    first = game.player(game.position.turn)  # a pending game has nobody to act yet
    paused = (await tx.prefs(first, lock=False)).vacation_until
    return GameClock.starting(control, now, paused).deadline_at
