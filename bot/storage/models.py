"""What the database holds, as small immutable values: challenges, games, moves, settings.

These are the shapes the storage layer reads and writes; the game service hands them on to the
Discord layer. Users, servers and channels are Discord snowflakes, but nothing here depends on
that: they are opaque ``int`` ids. Times are aware UTC :class:`~datetime.datetime` values.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

import rules
from rules import Colour, Move, Position

UserId = int
"""A user's id (a Discord snowflake), opaque to the service."""
GuildId = int
"""A server's id."""
ChannelId = int
"""A channel's or thread's id."""

NETWORK_GUILD_ID: Final[GuildId] = 0
"""The server id of the network's own rows (no Discord id is 0): its ratings
(``ratings.guild_id``), its championship (``tournaments.guild_id``)."""


class ChallengeStatus(enum.StrEnum):
    """Where a challenge stands. Only ``OPEN`` challenges can be accepted."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class Setup(enum.StrEnum):
    """How a game's 49 pieces are placed."""

    STANDARD = "standard"
    """By the players, one by one, as the rules say."""
    RANDOM = "random"
    """By the bot, at random, when the game begins: the movement starts at once."""


class TurnNotices(enum.StrEnum):
    """How the bot tells a player it is their turn (deadline reminders come whatever it is)."""

    PING = "ping"
    """A ping in the game's post on every turn."""
    DIGEST = "digest"
    """One DM a day at the player's own hour, listing every game where it is their turn."""
    NONE = "none"
    """Nothing: the player looks for themselves."""


class BoardTheme(enum.StrEnum):
    """The colours a board is drawn in."""

    DARK = "dark"
    """The bot's default."""
    LIGHT = "light"


class GameStatus(enum.StrEnum):
    """Whether a game is being played."""

    PENDING = "pending"
    """A tournament's game paired but not begun: it waits for its thread, and its clock with it."""
    ACTIVE = "active"
    FINISHED = "finished"
    """Ended with a result (by the rules, or by resignation)."""
    ABORTED = "aborted"
    """Ended without a result."""


class Result(enum.StrEnum):
    """A finished game's result."""

    WHITE = "white"
    """White won."""
    BLACK = "black"
    """Black won."""
    DRAW = "draw"

    @property
    def winner(self) -> Colour | None:
        """The winning side; ``None`` for a draw."""
        if self is Result.DRAW:
            return None
        return Colour.WHITE if self is Result.WHITE else Colour.BLACK

    @classmethod
    def won_by(cls, colour: Colour | None) -> Result:
        """The result in which ``colour`` won (``None``: a draw)."""
        if colour is None:
            return cls.DRAW
        return cls.WHITE if colour is Colour.WHITE else cls.BLACK


class EndReason(enum.StrEnum):
    """Why a game ended."""

    SCORE = "score"
    """Neither side could move; the score decided."""
    RESIGNATION = "resignation"
    TIME = "time"
    """The player to move let the clock run out; the opponent won."""
    ABORT = "abort"
    """Aborted without result, by agreement or by a moderator."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """An invitation to a game, to one user or (``opponent_id is None``) to anyone in a channel."""

    id: int
    guild_id: GuildId | None
    channel_id: ChannelId
    challenger_id: UserId
    opponent_id: UserId | None
    challenger_colour: Colour | None
    """The colour the challenger asked for; ``None``: drawn at random on acceptance."""
    clock_days: int | None
    """Days per move; ``None``: no clock (or a time bank)."""
    status: ChallengeStatus
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None = None
    closed_by: UserId | None = None
    game_id: int | None = None
    """The game it started, once accepted."""
    bank: str | None = None
    """The time bank chosen instead of days per move, as :mod:`bot.games.core.timecontrol` spells
    it (``bank:10d+36h/10d``); ``None``: none."""
    setup: Setup = Setup.STANDARD
    rematch_of: int | None = None
    """The game this challenge offers to play again (colours swapped), if it is a rematch."""
    network: bool = False
    """A network challenge (open to every network member, or direct to one): its server and
    channel are where it was made."""
    min_rating: int | None = None
    """A network challenge's lowest network rating that may accept it (``None``: no bound)."""
    max_rating: int | None = None
    """Its highest (``None``: no bound)."""
    message_id: int | None = None
    """A network seek's own post, where it was made (``channel_id``), once the bot knows it:
    edited to say so when the seek closes."""

    @property
    def is_open_to_anyone(self) -> bool:
        return self.opponent_id is None

    def is_expired(self, now: datetime) -> bool:
        """Whether it is (or, still open, should be) expired at ``now``."""
        return self.status is ChallengeStatus.EXPIRED or (
            self.status is ChallengeStatus.OPEN and now >= self.expires_at
        )


@dataclass(frozen=True, slots=True)
class Game:
    """A game as stored: where it is played, by whom, and its current position."""

    id: int
    guild_id: GuildId | None
    channel_id: ChannelId
    """Where the game is played: its thread, or the channel itself."""
    parent_channel_id: ChannelId | None
    """The channel the game's thread belongs to; ``None`` when played in the channel."""
    challenge_id: int | None
    white_id: UserId
    black_id: UserId
    status: GameStatus
    position: Position
    version: int
    """Increases with every change; a move commits only against the version it was checked on."""
    clock_days: int | None
    deadline_at: datetime | None
    """When the player to move runs out of time (``None`` without a clock or once over)."""
    created_at: datetime
    updated_at: datetime
    result: Result | None = None
    end_reason: EndReason | None = None
    ended_by: UserId | None = None
    """Who resigned or aborted, for those endings."""
    score: tuple[int, int] | None = None
    """``(white, black)`` when the game ended (pieces in each side's stacks at that moment)."""
    abort_requested_by: UserId | None = None
    finished_at: datetime | None = None
    rated: bool = True
    """Whether the result counts for the server's ratings."""
    takeback_requested_by: UserId | None = None
    """A player asking the opponent to undo their last move, until answered or a move is made."""
    takeback_ply: int | None = None
    """The first ply a takeback would undo."""
    computer_id: UserId | None = None
    """The bot's user id when it plays in this game; ``None`` for two humans."""
    computer_level: str | None = None
    """How strongly the bot plays here (an ``ai.Level`` value)."""
    private: bool = False
    """Played where the bot cannot post on its own (a DM between players who installed the
    app): its posts answer the players' interactions (see ``Store.reply_route``)."""
    channel_lost_at: datetime | None = None
    """When its thread or channel refused the bot's posts (lost permissions, or deleted):
    posts there are given up until a player's command shows the bot may post again."""
    bank: str | None = None
    """Its time bank's terms, as :mod:`bot.games.core.timecontrol` spells them
    (``bank:10d+36h/10d``); ``None``: days per move (:attr:`clock_days`) or no clock."""
    white_bank: timedelta | None = None
    """What is in White's time bank: now, when Black is to move; when White's turn began,
    while White is to move (then :attr:`deadline_at` says when it runs out)."""
    black_bank: timedelta | None = None
    """What is in Black's time bank, as :attr:`white_bank` is White's."""
    setup_seed: int | None = None
    """A random setup's seed (:mod:`bot.games.lobby.setups`); ``None``: the players placed."""
    rematch_of: int | None = None
    """The game this one plays again with colours swapped, if it is a rematch."""
    network: bool = False
    """A network game: its :attr:`guild_id` is ``None`` (no server's ratings or lists count
    it), :attr:`channel_id` its first home's channel; it is played in its homes
    (:class:`GameHome`) and rated in the network's rating."""

    @property
    def setup(self) -> Setup:
        return Setup.STANDARD if self.setup_seed is None else Setup.RANDOM

    @property
    def human_ids(self) -> tuple[UserId, ...]:
        """The players who are people (not the bot)."""
        return tuple(p for p in (self.white_id, self.black_id) if p != self.computer_id)

    @property
    def computer_to_move(self) -> bool:
        return self.computer_id is not None and self.to_move_id == self.computer_id

    @property
    def ply(self) -> int:
        """How many actions have been played (the length of the record)."""
        return self.position.ply

    @property
    def is_active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    @property
    def player_ids(self) -> tuple[UserId, UserId]:
        """``(white, black)``."""
        return self.white_id, self.black_id

    def player(self, colour: Colour) -> UserId:
        """Who plays ``colour``."""
        return self.white_id if colour is Colour.WHITE else self.black_id

    def colour_of(self, user_id: UserId) -> Colour | None:
        """The colour ``user_id`` plays, or ``None`` if they are not a player."""
        if user_id == self.white_id:
            return Colour.WHITE
        if user_id == self.black_id:
            return Colour.BLACK
        return None

    def is_player(self, user_id: UserId) -> bool:
        return user_id in (self.white_id, self.black_id)

    def opponent_of(self, user_id: UserId) -> UserId:
        """The other player (``user_id`` must be a player)."""
        colour = self.colour_of(user_id)
        if colour is None:
            raise ValueError(f"{user_id} does not play in game {self.id}")
        return self.player(colour.opponent)

    @property
    def to_move(self) -> Colour | None:
        """The side to act; ``None`` once the game has ended."""
        return self.position.turn if self.is_active else None

    @property
    def to_move_id(self) -> UserId | None:
        """The user to act; ``None`` once the game has ended."""
        colour = self.to_move
        return None if colour is None else self.player(colour)

    @property
    def winner_id(self) -> UserId | None:
        """The winner, for a finished game that was not drawn."""
        winner = self.result.winner if self.result is not None else None
        return None if winner is None else self.player(winner)


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """One action of a game's record, as stored."""

    game_id: int
    ply: int
    colour: Colour
    player_id: UserId
    move: Move
    automatic: bool
    """Not the player's own act: a PASS the service recorded because the player had no legal
    move, or a placement of a random setup."""
    played_at: datetime
    white_bank: timedelta | None = None
    """In a time-bank game: White's bank when this ply's turn began (a takeback to this ply
    puts it back); ``None`` in other games."""
    black_bank: timedelta | None = None
    """Black's, as :attr:`white_bank`."""

    @property
    def text(self) -> str:
        """The canonical spelling (``E3``, ``E3F4``, ``PASS``)."""
        return str(self.move)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's preferences; every field ``None`` means "the bot's default"."""

    guild_id: GuildId
    default_clock_days: int | None = None
    """Days per move when a challenge does not say; ``0``: no clock; ``None``: not set."""
    default_bank: str | None = None
    """A time bank instead (:attr:`Challenge.bank`'s spelling); set, it is the default and
    :attr:`default_clock_days` is ``None``."""
    use_threads: bool = True
    locale: str | None = None
    channels: frozenset[ChannelId] = frozenset()
    """Where the bot plays in this server; empty: in any channel."""
    organiser_role_id: int | None = None
    """Besides Manage Server, who may run the server's tournaments."""
    theme: BoardTheme | None = None
    """The theme of the server's public posts; ``None``: the default."""
    puzzle_channel_id: ChannelId | None = None
    """Where the daily puzzle is posted; ``None``: nowhere."""

    def allows(self, channel_id: ChannelId, parent_id: ChannelId | None = None) -> bool:
        """Whether games may start in ``channel_id`` (or in a thread of ``parent_id``)."""
        return not self.channels or channel_id in self.channels or parent_id in self.channels


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """What the bot remembers of a player between games."""

    user_id: UserId
    notify: bool = True
    last_reminded_at: datetime | None = None
    vacation_until: datetime | None = None
    vacation_year: int | None = None
    vacation_days_used: int = 0
    locale: str | None = None
    """The Discord locale the player last used with the bot."""
    turns: TurnNotices = TurnNotices.PING
    digest_hour: int | None = None
    """The hour (0-23) of the daily digest, in :attr:`time_zone`; ``None``: not chosen yet."""
    time_zone: str | None = None
    """The player's IANA time zone (``Europe/Warsaw``, ``UTC``); ``None``: not told yet."""
    next_digest_at: datetime | None = None
    """When the next digest is due; ``None``: none is (turn notices are not a digest)."""
    last_digest_at: datetime | None = None
    theme: BoardTheme | None = None
    """The theme of what the bot shows this player privately; ``None``: the default."""

    def on_vacation(self, now: datetime) -> bool:
        return self.vacation_until is not None and self.vacation_until > now

    def days_used_in(self, year: int) -> int:
        return self.vacation_days_used if self.vacation_year == year else 0


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's Glicko-2 rating in one server, and their record there."""

    guild_id: GuildId
    user_id: UserId
    rating: float
    deviation: float
    volatility: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class PuzzleRating:
    """A player's Glicko-2 puzzle rating (one for every server), and their record."""

    user_id: UserId
    rating: float
    deviation: float
    volatility: float
    solved: int = 0
    """Rated puzzles solved."""
    failed: int = 0
    streak: int = 0
    """Rated puzzles solved in a row, up to now."""
    best_streak: int = 0

    @property
    def tried(self) -> int:
        """Rated puzzles finished."""
        return self.solved + self.failed


@dataclass(frozen=True, slots=True)
class PuzzleAttempt:
    """One try of a puzzle by a player."""

    id: int
    user_id: UserId
    puzzle_id: str
    step: int
    """The index in the puzzle's line of the solver's next move (0, 2, 4...)."""
    played: tuple[str, ...]
    """The moves so far, the solver's and the replies, canonical; a wrong one last."""
    rated: bool
    started_at: datetime
    daily_day: date | None = None
    """The day of the daily post it was started from (``None``: not from one)."""
    guild_id: GuildId | None = None
    """The server of that post."""
    ended_at: datetime | None = None
    solved: bool | None = None
    """``None`` while it runs."""
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def running(self) -> bool:
        return self.ended_at is None


class LessonState(enum.StrEnum):
    """Where a player's lesson stands."""

    RUNNING = "running"
    DONE = "done"
    """Every task solved."""
    LEFT = "left"
    """Left for another lesson before its end."""


@dataclass(frozen=True, slots=True)
class LessonAttempt:
    """A player taking a lesson (a replay is another)."""

    id: int
    user_id: UserId
    lesson_key: str
    task: int
    """The index of the task the player is on."""
    step: int
    """Counts every change (a try, a move, a hint): a board shown at an older step is stale."""
    played: tuple[str, ...]
    """The game lesson's moves so far, the learner's and the computer's, canonical."""
    hints: int
    state: LessonState
    started_at: datetime
    updated_at: datetime

    @property
    def running(self) -> bool:
        return self.state is LessonState.RUNNING


@dataclass(frozen=True, slots=True)
class DailyPuzzlePost:
    """A server's post of a day's puzzle."""

    guild_id: GuildId
    day: date
    puzzle_id: str
    channel_id: ChannelId
    message_id: int | None = None
    solvers: int | None = None
    """How many solved it from this post (their first try from there), counted once the day
    is over, and again whenever a try from there ends after that."""
    tried: int | None = None
    """How many tried it from this post and are done: solved it or not (their first try from
    there over; before issue 39 the count took in the tries still running as well)."""
    still_open: int | None = None
    """How many first tries from this post were still running at the count: carried by the
    count's announcement, not kept in the table (a try that ends later is counted then)."""


@dataclass(frozen=True, slots=True)
class Notification:
    """An announcement waiting in the outbox, written with the change it announces."""

    id: int
    kind: str
    user_id: UserId | None
    game_id: int | None
    payload: Mapping[str, Any]
    created_at: datetime
    attempts: int
    claimed_by: str | None = None
    leased_until: datetime | None = None
    answer: str | None = None
    """The interaction (its route, opaque to storage) whose answer this post may have been
    made as: a later try asks Discord first, so that it is not posted twice."""
    home: str = ""
    """The home of a network game this post goes to (a :class:`HomeSeat` value); ``""`` for
    every other post, which goes to its game's one place (or to its user)."""

    @property
    def nonce(self) -> str:
        """Discord's message nonce for its post (at most 25 characters): the same on every
        try, so Discord returns the message already made instead of making a second one."""
        return f"dvonn-{self.id}"


class HomeSeat(enum.StrEnum):
    """Whose home a network game's home is."""

    WHITE = "W"
    BLACK = "B"
    BOTH = "*"
    """One home of both players (both are homed in the same server)."""


@dataclass(frozen=True, slots=True)
class GameHome:
    """Where a network game is played for one player (or both): a thread of a server's network
    channel, or the bot's DM with the player."""

    game_id: int
    seat: HomeSeat
    created_at: datetime
    guild_id: GuildId | None = None
    """The server whose network channel it is in; ``None``: a DM home."""
    parent_channel_id: ChannelId | None = None
    """The network channel the thread belongs to (``None`` in DMs)."""
    channel_id: ChannelId | None = None
    """The thread, or the bot's DM channel with the player; ``None`` until made."""
    user_id: UserId | None = None
    """A DM home's player."""
    lost_at: datetime | None = None
    """When it refused the bot's posts: posts there are given up."""

    @property
    def in_dms(self) -> bool:
        return self.guild_id is None

    @property
    def ready(self) -> bool:
        """Whether its thread or DM channel is made."""
        return self.channel_id is not None


@dataclass(frozen=True, slots=True)
class NetworkMember:
    """A player who joined the network, by their own choice."""

    user_id: UserId
    name: str
    """What other servers see: their Discord global name (else username), never a nickname."""
    joined_at: datetime
    updated_at: datetime
    home_guild_id: GuildId | None = None
    """The server whose network channel hosts their network games; ``None``: their DMs."""
    left_at: datetime | None = None
    forget_at: datetime | None = None
    """When they asked for their network data to be deleted (done once no network game of
    theirs runs)."""

    @property
    def is_member(self) -> bool:
        """In the network now (not left)."""
        return self.left_at is None


@dataclass(frozen=True, slots=True)
class NetworkServer:
    """A server taking part in the network (or that did: :attr:`left_at`)."""

    guild_id: GuildId
    channel_id: ChannelId
    """Its network channel."""
    joined_by: UserId
    """The moderator who named the channel."""
    joined_at: datetime
    updated_at: datetime
    board_message_id: int | None = None
    """Its board of open network challenges, once posted."""
    board_version: int = 0
    """The network's ``seeks`` count (:meth:`NetworkWrites.bump_seeks`) the board shows
    (``-1`` before it is first posted, :data:`bot.storage.network.NO_BOARD`)."""
    board_at: datetime | None = None
    """When the board was last posted or edited."""
    left_at: datetime | None = None
    """When a moderator took it out, or the bot was removed from it."""

    @property
    def is_live(self) -> bool:
        return self.left_at is None


@dataclass(frozen=True, slots=True)
class NetworkBlock:
    """A player who blocked another in the network (the blocked one is never told)."""

    blocker_id: UserId
    blocked_id: UserId
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Claim:
    """A deliverer's hold on announcements: who (a token of the process), and until when."""

    claimant: str
    until: datetime


class TournamentFormat(enum.StrEnum):
    """How a tournament pairs its players."""

    ROUND_ROBIN = "round_robin"
    """Everyone plays everyone once, all games at once."""
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    """Everyone plays everyone twice, once with each colour, all games at once."""
    SWISS = "swiss"
    """A number of rounds, each paired by score when the one before has ended."""
    KNOCKOUT = "knockout"
    """Single elimination; a drawn match goes on with colours swapped."""
    LEAGUE = "league"
    """A server's standing league: divisions of round robins, season after season, with
    promotion and relegation. Its divisions are round robins that name it."""

    @property
    def all_at_once(self) -> bool:
        """Whether every game is paired at the start (a round robin's schedule)."""
        return self in (TournamentFormat.ROUND_ROBIN, TournamentFormat.DOUBLE_ROUND_ROBIN)


class TournamentStatus(enum.StrEnum):
    OPEN = "open"
    """Taking entries."""
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Tournament:
    """A competition of a server: its settings, where it is played, and how far it got."""

    id: int
    guild_id: GuildId
    channel_id: ChannelId
    """Where it was created; each of its games gets a thread there."""
    name: str
    format: TournamentFormat
    organiser_id: UserId
    status: TournamentStatus
    created_at: datetime
    version: int = 0
    thread_id: ChannelId | None = None
    """Its own thread (rounds, standings), once made."""
    players_own: bool = False
    """Made by a player among friends (a small round robin), not by the server's organisers."""
    clock: str | None = None
    """The games' time control, as :mod:`bot.games.core.clocks` names it (``None``: no clock)."""
    rated: bool = True
    rounds: int | None = None
    """A Swiss tournament's number of rounds."""
    max_players: int | None = None
    starts_at: datetime | None = None
    """When it starts by itself (``None``: by the organiser, or when full)."""
    role_id: int | None = None
    """Only members of this role may join (``None``: anyone)."""
    division_size: int | None = None
    """A league's divisions' size."""
    moves_down: int | None = None
    """How many of a league division's last go down a division (the first 2 go up)."""
    league_id: int | None = None
    """For a league's division: the league."""
    season: int | None = None
    """A league's current season, or a division's own."""
    division: int | None = None
    """A league division's number, 1 the top."""
    round: int = 0
    """The round being played (0: not started)."""
    standings_message_id: int | None = None
    """The last standings image posted in its thread (the next replaces it)."""
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def is_open(self) -> bool:
        return self.status is TournamentStatus.OPEN

    @property
    def is_running(self) -> bool:
        return self.status is TournamentStatus.RUNNING

    @property
    def is_over(self) -> bool:
        return self.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)

    @property
    def is_league(self) -> bool:
        return self.format is TournamentFormat.LEAGUE

    @property
    def is_division(self) -> bool:
        return self.league_id is not None


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament (or a league, from season to season)."""

    tournament_id: int
    user_id: UserId
    seed: int
    """Their order before any game: 1 the first."""
    joined_at: datetime
    division: int | None = None
    """In a league: the division they play next season (``None``: a newcomer, the lowest)."""
    withdrawn_at: datetime | None = None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One pairing of a tournament: a game of the bot, or a bye (``black_id`` is ``None``)."""

    tournament_id: int
    round: int
    board: int
    leg: int
    """A knockout match's game: 1, then 2 after a draw (colours swapped), and so on."""
    number: int
    """Its place in the tournament's order of pairing (1, 2, ...; a bye's too). Players never
    see it: posts name a game by its game's own number (:attr:`game_id`), unique in a server
    where this one restarts in every division and season."""
    white_id: UserId
    black_id: UserId | None
    game_id: int | None = None
    result: Result | None = None
    """``None`` while it is played (and for a bye, whose result is :attr:`is_bye`)."""
    score: tuple[int, int] | None = None
    """``(white, black)`` at the end of a game played to the count, which its piece margin is
    made of; ``None`` for any other ending (a resignation, a loss on time, a withdrawal)."""
    forfeit: bool = False
    """Decided without play: a withdrawal from a game that had not begun."""
    void: bool = False
    """Its game was aborted: it counts for nobody (a knockout plays it again)."""

    @property
    def is_bye(self) -> bool:
        return self.black_id is None

    @property
    def is_decided(self) -> bool:
        return self.is_bye or self.void or self.result is not None

    @property
    def player_ids(self) -> tuple[UserId, ...]:
        return (self.white_id,) if self.black_id is None else (self.white_id, self.black_id)


# --- how values are spelled in the database ---------------------------------------------------


def time_to_text(moment: datetime) -> str:
    """An aware datetime as fixed-width ISO 8601 UTC text, which sorts like the time itself."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a naive datetime cannot be stored, it needs a time zone: {moment!r}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def text_to_time(text: str) -> datetime:
    """Read :func:`time_to_text`'s spelling back."""
    return datetime.fromisoformat(text).astimezone(UTC)


def optional_time(text: str | None) -> datetime | None:
    return None if text is None else text_to_time(text)


def colour_from_letter(letter: str | None) -> Colour | None:
    return None if letter is None else Colour(letter)


def move_from_text(text: str) -> Move:
    """A stored canonical move; the database only ever holds well-formed ones."""
    return rules.parse_move(text)
