"""Reading tournaments: the one a command means, a tournament's standings and where its games
are played, and the two posts' ids it keeps (its thread, its standings image). The use cases
of :class:`~bot.games.tournaments.running.Tournaments` include these."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.core.parts import UseCases
from bot.games.tournaments.errors import NoTournamentHere, TournamentNotFound, WhichTournament
from bot.storage import (
    ChannelId,
    Entrant,
    GuildId,
    Tournament,
    TournamentGame,
    TournamentStatus,
    UserId,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """A tournament as its standings show it: itself, its players and its pairings (for a
    league: its current season's divisions, each with theirs)."""

    tournament: Tournament
    entrants: tuple[Entrant, ...]
    pairings: tuple[TournamentGame, ...]
    divisions: tuple[Standing, ...] = ()


@dataclass(frozen=True, slots=True)
class Place:
    """Where a tournament's game is played, as its posts name it beside the game's own number
    (the bot's game id): the tournament (a league, for a division's game), and for a league
    the season, and the division when that season has more than one."""

    tournament: Tournament
    season: int | None = None
    division: int | None = None


class TournamentReads(UseCases):
    """The tournaments' queries (and the two ids they record)."""

    async def get(self, tournament_id: int, guild_id: GuildId | None = None) -> Tournament:
        """A tournament by number (of this server, if given)."""
        tournament = await self._store.tournament(tournament_id)
        if tournament is None or (guild_id is not None and tournament.guild_id != guild_id):
            raise TournamentNotFound(tournament_id)
        if tournament.league_id is not None:  # a division stands for its league
            return await self.get(tournament.league_id, guild_id)
        return tournament

    async def place(self, tournament_id: int) -> Place:
        """Where the games of ``tournament_id`` (a league's division, or any tournament) are
        played, as :class:`Place` names it."""
        part = await self._store.tournament(tournament_id)
        if part is None:
            raise TournamentNotFound(tournament_id)
        if part.league_id is None:
            return Place(part)
        league = await self.get(part.league_id)
        every = await self._store.league_divisions(league.id)
        several = sum(d.season == part.season for d in every) > 1
        return Place(league, part.season, part.division if several else None)

    async def choose(
        self,
        guild_id: GuildId,
        tournament_id: int | None,
        *,
        user_id: UserId | None = None,
        statuses: Sequence[TournamentStatus] = (TournamentStatus.OPEN, TournamentStatus.RUNNING),
    ) -> Tournament:
        """The tournament a command means: the one named, else the only one on (of those
        ``user_id`` is in, if given); refuses when there is none, or several."""
        if tournament_id is not None:
            return await self.get(tournament_id, guild_id)
        on = await self._store.tournaments_in(guild_id, statuses)
        if user_id is not None:
            mine = {t.id for t in await self._store.tournaments_of(user_id, guild_id)}
            on = [t for t in on if t.id in mine] or on
        if not on:
            raise NoTournamentHere()
        if len(on) > 1:
            raise WhichTournament(", ".join(f"#{t.id} {t.name}" for t in on[:5]))
        return on[0]

    async def listed(
        self, guild_id: GuildId, statuses: Sequence[TournamentStatus]
    ) -> list[Tournament]:
        return await self._store.tournaments_in(guild_id, statuses)

    async def standing(self, tournament_id: int, season: int | None = None) -> Standing:
        """Everything a tournament's standings and pairings show (a league: the divisions of
        ``season``, by default its latest)."""
        tournament = await self._store.tournament(tournament_id)
        if tournament is None:
            raise TournamentNotFound(tournament_id)
        entrants = tuple(await self._store.entrants(tournament_id))
        pairings = tuple(await self._store.pairings(tournament_id))
        divisions: tuple[Standing, ...] = ()
        if tournament.is_league:
            every = await self._store.league_divisions(tournament.id)  # the latest season first
            wanted = every[0].season if season is None and every else season
            divisions = tuple([await self.standing(d.id) for d in every if d.season == wanted])
        return Standing(tournament, entrants, pairings, divisions)

    async def set_thread(self, tournament_id: int, thread_id: ChannelId) -> None:
        """Record a tournament's own thread (its divisions post there too)."""
        async with self._store.write() as tx:
            tournament = await tx.tournament(tournament_id)
            if tournament is not None and tournament.thread_id is None:
                await tx.save_tournament(dataclasses.replace(tournament, thread_id=thread_id))

    async def set_standings_message(self, tournament_id: int, message_id: int) -> int | None:
        """Record the standings image just posted; returns the one it replaces."""
        async with self._store.write() as tx:
            tournament = await tx.tournament(tournament_id)
            if tournament is None:
                return None
            await tx.save_tournament(
                dataclasses.replace(tournament, standings_message_id=message_id)
            )
            return tournament.standings_message_id
