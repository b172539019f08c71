"""The network championship (issue 41): a standing league of the whole DVONN network that the
bot runs by itself, as Little Golem runs its championship.

It is one ``tournaments`` row of guild :data:`~bot.games.core.network.NETWORK` (and channel 0: it
is no server's), format ``league``, divisions of :data:`DIVISION_SIZE`, its games on the operator's
clock. :meth:`Championship.open_due` makes it as a housekeeping job once the network has a
member, or when someone first asks for it (and again only if one ever ended, too few playing on),
its first season starting at the operator's moment or, by default, a week after it opened
(``bot.config.FIRST_SEASON_WAIT``);
entries are taken from then on, by network members only. At the start, the existing job
``tournaments: starts due`` begins it (too few entered: it waits, open, for more): the first
season's divisions are a pyramid by network rating, blocked pairs kept apart; from then on
:mod:`bot.games.tournaments.rounds` runs it as any league, with the differences its docstring
lists (the pyramid's rules: :mod:`bot.games.tournaments.pyramid`; network games with homes; no
server's news). A season's last game begins the next, newcomers in the lowest level. A season
of more than twenty divisions is planned where it starts and its divisions made five a
transaction by the housekeeping job ``tournaments: seasons being made``
(:func:`~bot.games.tournaments.rounds.make_divisions`); while it is being made, the divisions
not made yet are not shown, and who moves where is read from the plan.

Standings are read by division (:meth:`Championship.view`), with names from the network's
members (never a server's nickname) and who moves up and down.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Final

from bot.games.core.network import NETWORK
from bot.games.core.parts import Shared, UseCases
from bot.games.tournaments import pyramid, rounds
from bot.games.tournaments.errors import NoChampionship, NoSuchDivision
from bot.games.tournaments.reading import Standing
from bot.games.tournaments.running import Joined, Tournaments
from bot.games.tournaments.tables import table
from bot.storage import (
    Tournament,
    TournamentFormat,
    TournamentStatus,
    UserId,
)
from bot.storage.tournaments import NewTournament

log = logging.getLogger(__name__)

DIVISION_SIZE: Final = 10
"""Players in a division (Little Golem's)."""
NAME: Final = "DVONN network championship"
"""The championship's stored name (the Discord layer shows it in the reader's language)."""
ORGANISER: Final[UserId] = 0
"""Nobody: the bot runs it."""
ON: Final = (TournamentStatus.OPEN, TournamentStatus.RUNNING)


class Move(Enum):
    """Where a player of a season goes the next: up a level, or down."""

    UP = "up"
    DOWN = "down"


@dataclass(frozen=True, slots=True)
class ChampionshipOpened:
    """What the job making the championship did: the row it made (``None``: nothing to do)."""

    championship: Tournament | None = None

    @property
    def announcements(self) -> tuple[int, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class DivisionView:
    """The championship as a reader sees it: a division of a season (``None`` before the first
    season), with its players' network names and where they go next (at a season's end; while
    it runs, where they would go were it over now)."""

    championship: Tournament
    players: int
    """Players in (not withdrawn): newcomers waiting for the next season included."""
    season: int | None = None
    division: Standing | None = None
    level: int | None = None
    divisions: int = 0
    """Divisions of that season."""
    names: Mapping[UserId, str] = dataclasses.field(default_factory=dict)
    moves: Mapping[UserId, Move] = dataclasses.field(default_factory=dict)
    """Who of the division goes up a level, and who down (the others stay)."""
    entered: bool = False
    """The viewer is in."""
    drawing: int = 0
    """Divisions of that season still being drawn (a large season is made by batches, minutes
    long); ``division`` is ``None`` when the one asked for (or the viewer's) is one of them."""


class Championship(UseCases):
    """The network championship's use cases; ``tournaments`` runs it as it runs any league."""

    def __init__(
        self,
        shared: Shared,
        tournaments: Tournaments,
        *,
        clock: str,
        season_start: datetime | timedelta | None,
    ) -> None:
        """``clock``: its games' time control (a spelling :mod:`bot.games.core.timecontrol`
        reads); ``season_start``: its first season's start, a moment or how long after the
        championship opens (``None``: there is no championship)."""
        super().__init__(shared)
        self._tournaments = tournaments
        self._clock = clock
        self._season_start = season_start

    async def open_due(self, *, asked: bool = False) -> ChampionshipOpened:
        """Make the championship, open for entries, if there is to be one and none is open or
        running (once: as a housekeeping job, under the housekeeping pass's lease, one process
        at a time; and when someone ``asked`` for it). Its first season starts at the
        configured moment, or that long after it opened: then only once the network has a
        member, or someone asked for it (a bot nobody plays the network on makes none, and the
        ids of its servers' tournaments are theirs from #1)."""
        if self._season_start is None:
            return ChampionshipOpened()
        if await self.current() is not None:
            return ChampionshipOpened()
        if (
            isinstance(self._season_start, timedelta)
            and not asked
            and not await self._store.network_has_members()
        ):
            return ChampionshipOpened()
        now = self._now()
        if isinstance(self._season_start, timedelta):
            starts_at = now + self._season_start
        else:
            starts_at = self._season_start
        async with self._store.write() as tx:
            if await self._store.tournaments_in(NETWORK, ON):
                return ChampionshipOpened()
            made = await tx.insert_tournament(
                NewTournament(
                    guild_id=NETWORK,
                    channel_id=0,
                    name=NAME,
                    format=TournamentFormat.LEAGUE,
                    organiser_id=ORGANISER,
                    created_at=now,
                    clock=self._clock,
                    rated=True,
                    starts_at=starts_at,
                    division_size=DIVISION_SIZE,
                )
            )
        log.info("network championship %s made, its first season at %s", made.id, made.starts_at)
        return ChampionshipOpened(made)

    async def current(self) -> Tournament | None:
        """The championship taking entries or running (``None``: none is configured yet)."""
        on = await self._store.tournaments_in(NETWORK, ON)
        return on[0] if on else None

    async def _require(self) -> Tournament:
        """The championship, opened now if there is to be one and it is not yet."""
        championship = await self.current() or (await self.open_due(asked=True)).championship
        if championship is None:
            raise NoChampionship()
        return championship

    async def enter(self, user_id: UserId) -> Joined:
        """A network member enters: before the first season, to play it; later, a newcomer
        who plays the next season in the lowest level. Raises :class:`NoChampionship`,
        :class:`ChampionshipMembersOnly`, :class:`~bot.games.tournaments.errors.AlreadyJoined`."""
        championship = await self._require()
        return await self._tournaments.join(championship.id, user_id)  # checks membership

    async def withdraw(self, user_id: UserId) -> Tournament:
        """Leave the championship: before its first season, the entry is taken back; later,
        the games still to play are lost (those played count) and the player is in no later
        season (entering again: a newcomer). Raises :class:`NoChampionship`,
        :class:`~bot.games.tournaments.errors.NotEntered`."""
        championship = await self._require()
        return await self._tournaments.leave(championship.id, user_id)

    async def division_numbers(self) -> list[int]:
        """The current season's divisions (none before the first)."""
        championship = await self.current()
        if championship is None or championship.season is None:
            return []
        every = await self._store.league_divisions(championship.id)
        return [d.division for d in every if d.season == championship.season and d.division]

    async def view(
        self,
        viewer: UserId | None = None,
        division: int | None = None,
        season: int | None = None,
    ) -> DivisionView:
        """The standings of ``division`` of ``season`` (by default the current; the division by
        default the ``viewer``'s, else the top); a division still being drawn: none, with
        :attr:`DivisionView.drawing`. Raises :class:`NoChampionship`, :class:`NoSuchDivision`."""
        championship = await self._require()
        entrants = await self._store.entrants(championship.id)
        players = sum(1 for e in entrants if not e.withdrawn)
        entered = any(e.user_id == viewer and not e.withdrawn for e in entrants)
        if championship.season is None:
            return DivisionView(championship, players, entered=entered)
        wanted = championship.season if season is None else season
        every = await self._store.league_divisions(championship.id)
        parts = [d for d in every if d.season == wanted]
        # A season being made (rounds.make_divisions): its divisions not made yet are places.
        to_draw = await self._store.season_places(championship.id, wanted)
        being_drawn = DivisionView(
            championship, players, season=wanted, entered=entered, drawing=len(to_draw)
        )
        if not parts:
            if to_draw and (division is None or division in to_draw):
                return being_drawn
            raise NoSuchDivision(division or 1)
        standings = [await self._tournaments.standing(d.id) for d in parts]
        if division is None:
            mine = next(
                (s for s in standings if any(e.user_id == viewer for e in s.entrants)), None
            )
            if mine is None and any(viewer in placed for placed in to_draw.values()):
                return being_drawn
            shown = mine or standings[0]
        else:
            found = next((s for s in standings if s.tournament.division == division), None)
            if found is None:
                if division in to_draw:
                    return being_drawn
                raise NoSuchDivision(division)
            shown = found
        later = [d for d in every if d.season == wanted + 1]
        drawing = await self._store.season_places(championship.id, wanted + 1)
        moves = await self._moves(championship, standings, later, drawing)
        shown_players = {e.user_id for e in shown.entrants}
        moves = {p: m for p, m in moves.items() if p in shown_players}
        number = shown.tournament.division or 1
        names = await self._store.names(e.user_id for e in shown.entrants)
        return DivisionView(
            championship,
            players,
            season=wanted,
            division=shown,
            level=pyramid.level_of(number),
            divisions=len(parts),
            names=names,
            moves=moves,
            entered=entered,
            drawing=len(to_draw),
        )

    async def _moves(
        self,
        championship: Tournament,
        season: list[Standing],
        following: list[Tournament],
        drawing: Mapping[int, list[UserId]],
    ) -> dict[UserId, Move]:
        """Who of ``season``'s divisions goes up a level and who down: where they play the
        next season once it is made (``following``'s divisions, and ``drawing``'s places of
        its divisions not made yet), else where the pyramid's rule would send them were the
        season over now."""
        levels: dict[UserId, int] = {}
        if following or drawing:
            for later in following:
                for entrant in await self._store.entrants(later.id):
                    levels[entrant.user_id] = pyramid.level_of(later.division or 1)
            for number, placed_in in drawing.items():
                levels.update(dict.fromkeys(placed_in, pyramid.level_of(number)))
        else:
            tables = [table(s.tournament, s.entrants, s.pairings) for s in season]
            withdrawn = {e.user_id for s in season for e in s.entrants if e.withdrawn}
            size = championship.division_size or DIVISION_SIZE
            placed = pyramid.next_season(tables, leaving=withdrawn, size=size)
            for number, players in enumerate(placed, start=1):
                levels.update(dict.fromkeys(players, pyramid.level_of(number)))
        moves: dict[UserId, Move] = {}
        for part in season:
            level = pyramid.level_of(part.tournament.division or 1)
            for entrant in part.entrants:
                then = levels.get(entrant.user_id)
                if then is not None and then != level:
                    moves[entrant.user_id] = Move.UP if then < level else Move.DOWN
        return moves


def is_championship(tournament: Tournament) -> bool:
    """Whether ``tournament`` is the network championship (or a division of it)."""
    return rounds.is_championship(tournament)
