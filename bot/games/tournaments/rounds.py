"""A tournament's rounds: pairing them, and going on when a game of one ends.

Everything here runs inside the caller's write transaction, so a tournament moves on in the
same commit as the change that moved it: the end of its round's last game pairs the next round
(its games made, waiting for their threads, and announced) in the transaction that ended the
game. A crash rolls both back or keeps both; nothing is done twice. The tournament's row is read
first (:meth:`~bot.storage.Writer.tournament` locks it on PostgreSQL), so two processes ending
a round's last two games at once take turns, and the second sees the first's result.

On PostgreSQL every transaction that changes a tournament takes its locks in one order, so that
none waits for another that waits for it (PostgreSQL would end one as a deadlock, failing a
player's command): the games (by id), then the tournament or league division, then the league,
and the players' ratings last. A game's end holds its game; :func:`lock_for_end` takes the
rest before the game is rated. A withdrawal or a cancellation locks the games it may end before
the tournament (:meth:`~bot.storage.Writer.lock_games_first`).

Round robins (and a league's divisions) pair every round at the start, all games at once (as
Little Golem's groups); a Swiss tournament pairs each round when the one before has ended; a
knockout plays each round's matches, a drawn game followed by another with colours swapped.

**A league season** is planned where it starts (who plays in which division: the
``season_places`` rows, migration 21) and its divisions made from the plan
(:func:`make_divisions`), each division's places deleted as it is made: a league of no more
than :data:`MADE_AT_ONCE` divisions is made whole in the transaction that starts its season, as
it always was; the network championship's thousand divisions are made
:data:`DIVISIONS_A_BATCH` at a time by the housekeeping job ``tournaments: seasons being made``
(:meth:`~bot.games.tournaments.running.Tournaments.make_seasons`), a batch a transaction, so
that no other write waits long behind a season (nor a game's end, the last of a season, behind
the next season's thousand divisions). A season is not over while divisions remain to make.

**A league season's end**: a league of no more than :data:`MADE_AT_ONCE` divisions plans and
begins its next season in the transaction of its last game's end, as it always did. A larger
one's last game's end only ends the season (nothing is written for it: every division of the
season finished and no place left to make is the record, found by
:meth:`~bot.storage.Store.seasons_over`); the same housekeeping job plans the next season
(:meth:`~bot.games.tournaments.running.Tournaments.plan_seasons`): it reads the season
(:func:`read_season_end`) and computes the next (:func:`next_season_of`: a thousand divisions'
standings and the pyramid, seconds of pure Python) outside any write transaction, then writes
it (:func:`end_season`) in a short one that first checks that nothing it was computed from
changed meanwhile (the season's mark, :meth:`~bot.storage.Writer.season_mark`: the league's
row, its entrants, the season's results; computed again if not), so that no other write waits
behind the standings, and the last game's player not for the answer to their move.

**The network championship** (a league of guild :data:`~bot.games.core.network.NETWORK`,
:mod:`bot.games.tournaments.championship`) runs here as any league does, but: its divisions are
a pyramid's (:mod:`bot.games.tournaments.pyramid`: the first season by network rating, then
two up from every division and as many down as keep every level full), with blocked pairs kept
apart; its games are network games, each made pending with its homes and the rows that make
them ready (:func:`bot.games.core.network.make_homes`: it begins when the last is ready); a
player who left the network is out at the season's end; and no server's news is posted for
it (its standings are read by whoever asks, in a network channel or privately).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, Protocol

import rules
from bot.games.core import timecontrol
from bot.games.core.network import NETWORK, make_homes
from bot.games.core.ratings import START_RATING
from bot.games.tournaments import pairing, pyramid, standings, swiss
from bot.games.tournaments.announcements import tournament_game, tournament_news
from bot.games.tournaments.errors import NotEntered
from bot.games.tournaments.tables import results_of, table
from bot.storage import (
    Claim,
    EndReason,
    Entrant,
    Game,
    GameStatus,
    NetworkBlock,
    NewGame,
    NewNotification,
    Tournament,
    TournamentFormat,
    TournamentGame,
    TournamentStatus,
    UserId,
    Writer,
)
from bot.storage.tournaments import NewTournament

log = logging.getLogger(__name__)

FIRST_ROUND: Final = 1
MADE_AT_ONCE: Final = 20
"""A league season of no more divisions than this is made whole in the transaction that starts
it, as a league always was (its games at once); a larger one (the network championship's
thousand divisions) is planned there and made by batches of :data:`DIVISIONS_A_BATCH`."""
DIVISIONS_A_BATCH: Final = 5
"""A large league season's divisions made in one transaction (:func:`make_divisions`): five
divisions of ten are 225 games with their homes and announcements, about half a second on
SQLite and a second and a half on PostgreSQL (``tests.bot.networkbench``), so that no other
write waits long behind a season."""


def is_championship(tournament: Tournament) -> bool:
    """Whether ``tournament`` is the network championship (or one of its divisions)."""
    return tournament.guild_id == NETWORK


async def news(tx: Writer, tournament: Tournament, notice: NewNotification, now: datetime) -> None:
    """Write ``notice``, news of ``tournament`` for its server's thread; the network
    championship has no server to post in: none."""
    if not is_championship(tournament):
        await tx.enqueue(notice, now)


async def begin(tx: Writer, tournament: Tournament, now: datetime) -> Tournament:
    """Start ``tournament`` (open, its entrants checked by the caller): pair its first round
    (a round robin: all its rounds), or, for a league, make its first season's divisions."""
    entrants = [e for e in await tx.entrants(tournament.id) if not e.withdrawn]
    running = dataclasses.replace(
        tournament,
        status=TournamentStatus.RUNNING,
        round=FIRST_ROUND,
        started_at=now,
        season=1 if tournament.is_league else tournament.season,
    )
    saved = await tx.save_tournament(running)
    if tournament.is_league:
        await _start_season(tx, saved, entrants, now)
    else:
        await _pair(tx, saved, entrants, [], now)
    await news(tx, saved, tournament_news(saved, started=True), now)
    return saved


async def lock_for_end(tx: Writer, game: Game) -> TournamentGame | None:
    """``game`` is ending (saved in ``tx``, not rated yet): if it is a tournament's, lock what
    its end goes on to change, in the order above: the other games of a loser on time who never
    moved (withdrawn by :func:`game_over`, they lose them in
    :mod:`bot.games.tournaments.withdrawals`), then the tournament (a division), all before the
    players' ratings. A withdrawal's forfeit rates a game while holding the tournament, and the end
    of another game of the same opponent would otherwise hold that rating and wait for the
    tournament. Returns its pairing, for :func:`game_over` (``None``: not a tournament's game)."""
    paired = await tx.pairing_of_game(game.id)
    if paired is None:
        return None
    absent = await absent_loser(tx, game)
    if absent is not None:
        await tx.lock_games_first(paired.tournament_id, absent)
    await tx.tournament(paired.tournament_id)
    return paired


async def game_over(tx: Writer, game: Game, paired: TournamentGame, now: datetime) -> None:
    """``game``, ``paired``'s game in a tournament, just ended (saved in ``tx``): record its
    result and let the tournament go on (the next round, the next leg of a match, the end)."""
    tournament = await tx.tournament(paired.tournament_id)  # its lock first, then its rows
    found = await tx.pairing_of_game(game.id)
    if tournament is None or found is None or not tournament.is_running:
        return
    await tx.save_pairing(_decided(found, game))
    if game.status is GameStatus.ABORTED and tournament.format is TournamentFormat.KNOCKOUT:
        # A knockout needs a winner: an aborted game of a match is played again.
        assert found.black_id is not None
        await _new_legs(
            tx, tournament, [(found, pairing.Pairing(found.white_id, found.black_id))], now
        )
    absent = await absent_loser(tx, game)
    if absent is not None:
        # Gone (left the server, blocked the bot, or just away): withdrawn before the next
        # round is paired, so that nobody waits for them again. Their other games are lost
        # right after this game's end (bot.games.tournaments.withdrawals.after_loss_on_time).
        whole = await whole_of(tx, tournament)
        await mark_withdrawn(tx, whole, absent, now)
        log.info("tournament %s: %s lost on time without a move: withdrawn", whole.id, absent)
    await _go_on(tx, tournament, now)
    await news(tx, tournament, tournament_news(tournament, game_id=game.id), now)


async def absent_loser(tx: Writer, game: Game) -> UserId | None:
    """The player who lost ``game`` on time without having made a move in it."""
    loser = game.ended_by  # who ran out of time (Ending.on_time)
    if game.end_reason is not EndReason.TIME or loser is None:
        return None
    if any(m.player_id == loser and not m.automatic for m in await tx.moves(game.id)):
        return None
    return loser


async def whole_of(tx: Writer, tournament: Tournament) -> Tournament:
    """The tournament a player enters: a division's league, else itself."""
    if tournament.league_id is None:
        return tournament
    league = await tx.tournament(tournament.league_id)
    assert league is not None, "a division names its league"
    return league


async def mark_withdrawn(
    tx: Writer, tournament: Tournament, user_id: UserId, now: datetime
) -> None:
    """``user_id`` is out of running ``tournament`` (a league: the whole league, and this
    season's division): not paired again, and said so in the tournament's thread. Their games
    still to play are lost by :mod:`bot.games.tournaments.withdrawals`. Raises
    :class:`NotEntered`."""
    entrants = await tx.entrants(tournament.id)
    mine = next((e for e in entrants if e.user_id == user_id and not e.withdrawn), None)
    if mine is None:
        raise NotEntered(tournament.id, tournament.name)
    await tx.save_entrant(dataclasses.replace(mine, withdrawn_at=now))
    for part in await parts_of(tx, tournament):
        if part.is_division:
            theirs = [e for e in await tx.entrants(part.id) if e.user_id == user_id]
            for entrant in theirs:
                await tx.save_entrant(dataclasses.replace(entrant, withdrawn_at=now))
    await news(tx, tournament, tournament_news(tournament, withdrawn=user_id), now)


async def parts_of(tx: Writer, tournament: Tournament) -> list[Tournament]:
    """Where ``tournament``'s games are paired: itself, or a league's current divisions."""
    if tournament.is_league and tournament.season is not None:
        return await tx.divisions(tournament.id, tournament.season)
    return [tournament]


def unclaimed(claim: Claim, now: datetime) -> Claim:
    """``claim`` run out already: an announcement written with it goes to the next deliverer
    that looks (a game ended as a side effect, whose id the caller never learns)."""
    return dataclasses.replace(claim, until=now)


def _decided(pairing: TournamentGame, game: Game) -> TournamentGame:
    """A pairing with its game's result: aborted, it counts for nobody; a loss on time is a
    forfeit (FIDE's ``+/-``), as is a game that never began (set by the withdrawal). Only a
    game played to the count keeps its score, the piece margin of the standings: a
    resignation, a loss on time or a withdrawal ends a game whose board decided nothing (the
    one who resigned may have been ahead on it), and counts 0."""
    if game.status is GameStatus.ABORTED:
        return dataclasses.replace(pairing, void=True)
    return dataclasses.replace(
        pairing,
        result=game.result,
        score=game.score if game.end_reason is EndReason.SCORE else None,
        forfeit=pairing.forfeit or game.end_reason is EndReason.TIME,
    )


async def _go_on(tx: Writer, tournament: Tournament, now: datetime) -> None:
    """Pair a drawn knockout match's next game at once; the next round, or end the
    tournament, once every game of its round is decided."""
    pairings = await tx.pairings(tournament.id)
    current = [p for p in pairings if tournament.format.all_at_once or p.round == tournament.round]
    entrants = await tx.entrants(tournament.id)
    if tournament.format is TournamentFormat.KNOCKOUT:
        # A drawn match's second game begins at once, not when the round's other matches end.
        seeds = [e.user_id for e in sorted(entrants, key=lambda e: e.seed)]
        second_games = [
            (board[-1], decided.pairing)
            for board in _boards(current)
            if board
            and all(p.is_decided for p in board)
            and isinstance(decided := _match(board, seeds), pairing.SecondGame)
        ]
        if second_games:
            await _new_legs(tx, tournament, second_games, now)
            return
    if not all(p.is_decided for p in current):
        return
    if tournament.format is TournamentFormat.KNOCKOUT:
        if len(_boards(current)) > 1:
            await _next_round(tx, tournament, entrants, pairings, now)
            return
    elif tournament.format is TournamentFormat.SWISS:
        assert tournament.rounds is not None
        active = [e for e in entrants if not e.withdrawn]
        # Withdrawals may leave too few players for the rounds still to come: it ends early
        # rather than pair the same two again.
        if tournament.round < min(tournament.rounds, swiss.most_swiss_rounds(len(active))):
            await _next_round(tx, tournament, entrants, pairings, now)
            return
    await _finish(tx, tournament, now)


def _boards(pairings: Sequence[TournamentGame]) -> list[list[TournamentGame]]:
    """A knockout round's matches: each board's games (legs) in order, void ones left out."""
    boards: dict[int, list[TournamentGame]] = {}
    for pair in pairings:
        boards.setdefault(pair.board, [])
        if not pair.void:
            boards[pair.board].append(pair)
    return [boards[board] for board in sorted(boards)]


def _match(
    legs: Sequence[TournamentGame], seeds: Sequence[UserId]
) -> pairing.MatchWon | pairing.SecondGame | UserId:
    """A knockout match's outcome so far (a bye: its player, through)."""
    if legs[0].black_id is None:
        return legs[0].white_id
    games = [r for r in results_of(legs) if isinstance(r, standings.GameResult)]
    return pairing.match_winner(games, seeds)


def knockout_winner(legs: Sequence[TournamentGame], seeds: Sequence[UserId]) -> UserId | None:
    """Who won a decided knockout match (``None`` while it goes on)."""
    if not legs or not all(p.is_decided for p in legs):
        return None
    decided = _match(legs, seeds)
    if isinstance(decided, pairing.SecondGame):
        return None
    return decided if isinstance(decided, int) else decided.winner


async def _next_round(
    tx: Writer,
    tournament: Tournament,
    entrants: Sequence[Entrant],
    pairings: Sequence[TournamentGame],
    now: datetime,
) -> None:
    moved = await tx.save_tournament(dataclasses.replace(tournament, round=tournament.round + 1))
    await _pair(tx, moved, [e for e in entrants if not e.withdrawn], pairings, now)


async def _finish(tx: Writer, tournament: Tournament, now: datetime) -> None:
    over = await tx.save_tournament(
        dataclasses.replace(tournament, status=TournamentStatus.FINISHED, finished_at=now)
    )
    log.info("tournament %s finished", tournament.id)
    await news(tx, over, tournament_news(over, final=True), now)
    if over.league_id is not None:
        await _season_maybe_over(tx, over.league_id, now)


# --- pairing ---------------------------------------------------------------------------------


async def _pair(
    tx: Writer,
    tournament: Tournament,
    entrants: Sequence[Entrant],
    history: Sequence[TournamentGame],
    now: datetime,
) -> None:
    """Pair ``tournament``'s current round (a round robin: its whole schedule) among
    ``entrants``, make its games and announce them."""
    players = [e.user_id for e in sorted(entrants, key=lambda e: e.seed)]
    fmt = tournament.format
    schedule: list[tuple[int, pairing.Round]]
    if fmt.all_at_once:
        double = fmt is TournamentFormat.DOUBLE_ROUND_ROBIN
        schedule = list(enumerate(pairing.berger_rounds(players, double=double), start=1))
    elif fmt is TournamentFormat.SWISS:
        past = pairing.histories(results_of(history))
        schedule = [(tournament.round, swiss.swiss_round(players, past))]
    else:
        assert fmt is TournamentFormat.KNOCKOUT
        if tournament.round == FIRST_ROUND:
            boards = pairing.knockout_first_round(players)
        else:
            previous = [p for p in history if p.round == tournament.round - 1]
            seeds = [
                e.user_id for e in sorted(await tx.entrants(tournament.id), key=lambda e: e.seed)
            ]
            legs = _boards(previous)
            winners = {w for board in legs if (w := knockout_winner(board, seeds)) is not None}
            first_legs = tuple(
                pairing.Pairing(b[0].white_id, b[0].black_id)
                if b[0].black_id is not None
                else standings.Bye(b[0].white_id)
                for b in legs
            )
            past = pairing.histories(results_of(history))  # colours alternate, as in a Swiss
            boards = pairing.knockout_next_round(first_legs, winners, seeds, past)
        schedule = [(tournament.round, boards)]
    number = max((p.number for p in history), default=0)
    made: list[TournamentGame] = []
    for round_number, boards_of_round in schedule:
        for board, paired in enumerate(boards_of_round, start=1):
            number += 1
            white, black = (
                (paired.player, None) if isinstance(paired, standings.Bye) else paired.players
            )
            made.append(
                TournamentGame(
                    tournament_id=tournament.id,
                    round=round_number,
                    board=board,
                    leg=1,
                    number=number,
                    white_id=white,
                    black_id=black,
                )
            )
    await _make_games(tx, tournament, made, now)


async def _new_legs(
    tx: Writer,
    tournament: Tournament,
    legs: Sequence[tuple[TournamentGame, pairing.Pairing]],
    now: datetime,
) -> None:
    """The next game of each of these matches: after ``last``, these colours."""
    number = max((p.number for p in await tx.pairings(tournament.id)), default=0)
    made = []
    for last, colours in legs:
        number += 1
        made.append(
            TournamentGame(
                tournament_id=tournament.id,
                round=last.round,
                board=last.board,
                leg=last.leg + 1,
                number=number,
                white_id=colours.white,
                black_id=colours.black,
            )
        )
    await _make_games(tx, tournament, made, now)


async def _make_games(
    tx: Writer, tournament: Tournament, made: Sequence[TournamentGame], now: datetime
) -> None:
    """Insert the pairings; each that is not a bye gets a game of the bot, waiting for its
    thread (announced: the Discord side makes the thread, then the game begins). The network
    championship's are network games, waiting for their homes (one row to make each ready)."""
    await tx.ensure_players({p for m in made for p in m.player_ids}, now)
    await tx.insert_pairings(made)
    # The clock's terms; it starts when the game's thread exists (Tournaments.begin_game).
    control = timecontrol.parse(tournament.clock or timecontrol.NO_CLOCK)
    days, bank = timecontrol.to_columns(control)
    full = control.initial if isinstance(control, timecontrol.Bank) else None
    network = is_championship(tournament)
    for pair in made:
        if pair.black_id is None:
            continue
        game = await tx.insert_game(
            NewGame(
                # A network game is no server's (its ratings are the network's); its channel
                # is its first home's once ready.
                guild_id=None if network else tournament.guild_id,
                channel_id=tournament.channel_id,
                parent_channel_id=None if network else tournament.channel_id,
                challenge_id=None,
                white_id=pair.white_id,
                black_id=pair.black_id,
                position=rules.new_game(),
                clock_days=days,
                deadline_at=None,
                bank=bank,
                white_bank=full,
                black_bank=full,
                created_at=now,
                rated=tournament.rated,
                status=GameStatus.PENDING,
                network=network,
            )
        )
        await tx.save_pairing(dataclasses.replace(pair, game_id=game.id))
        if network:
            await make_homes(tx, game, now)
        else:
            await tx.enqueue(tournament_game(game, tournament), now)
    log.info("tournament %s: %d pairings made", tournament.id, len(made))


# --- leagues ---------------------------------------------------------------------------------


async def _start_season(
    tx: Writer,
    league: Tournament,
    entrants: Sequence[Entrant],
    now: datetime,
    placed: Sequence[Sequence[UserId]] | None = None,
) -> None:
    """Start a league season: its plan (the first: its players by seed, cut into divisions;
    the network championship's: by network rating, into a pyramid) written, and, if it has no
    more than :data:`MADE_AT_ONCE` divisions, its divisions made (:func:`make_divisions`),
    each a round robin, all games at once, as a league always was. A larger one's are made by
    the housekeeping job ``tournaments: seasons being made``
    (:meth:`~bot.games.tournaments.running.Tournaments.make_seasons`), a batch a transaction,
    none here: this transaction (a small league's last game's end, the job planning a large
    one's next season, or the job starting a season) is no longer than the plan's."""
    assert league.season is not None and league.division_size is not None
    if placed is None and is_championship(league):
        entrants = await _still_in_network(tx, league, entrants, now)
        placed = pyramid.divide(
            await _by_network_rating(tx, league, entrants),
            size=league.division_size,
            blocked=await blocked_pairs(tx, league),
        )
    if placed is None:
        ladder = [e.user_id for e in sorted(entrants, key=lambda e: e.seed)]
        placed = standings.divisions(ladder, size=league.division_size)
    await tx.place_season(league.id, league.season, placed)
    if len(placed) > MADE_AT_ONCE:
        log.info(
            "league %s: season %s planned, its %d divisions to make by batches",
            league.id,
            league.season,
            len(placed),
        )
        return
    made = await make_divisions(tx, league, now, batch=len(placed))
    assert not made.withdrawn, "a season's plan holds nobody withdrawn when it is written"


@dataclass(frozen=True, slots=True)
class MadeDivisions:
    """What :func:`make_divisions` made: how many divisions, and the players of them who had
    withdrawn from the league since the season's plan was written (division, player), whose
    games the caller forfeits."""

    divisions: int = 0
    withdrawn: tuple[tuple[Tournament, UserId], ...] = ()


async def make_divisions(
    tx: Writer, league: Tournament, now: datetime, *, batch: int | None = None
) -> MadeDivisions:
    """Make the first ``batch`` (by default :data:`DIVISIONS_A_BATCH`) divisions of running
    ``league``'s season plan still to make (the top first): each its division row, entrants and
    round robin (games and their announcements or homes), its places deleted in the same
    transaction, so that a division is made once whichever process makes it and whenever one
    dies (the caller holds the league's row, read with :meth:`~bot.storage.Writer.tournament`:
    two processes take turns, the second finding the places gone; the unique index of a
    season's divisions refuses a second anyway). A player placed who withdrew since is placed
    still (the division's seats are the plan's), withdrawn in it too."""
    assert league.season is not None
    limit = DIVISIONS_A_BATCH if batch is None else batch
    places = await tx.season_places(league.id, league.season, limit=limit)
    if not places:
        return MadeDivisions()
    placed = [user_id for members in places.values() for user_id in members]
    in_league = {e.user_id: e for e in await tx.entrants_among(league.id, placed)}
    withdrawn: list[tuple[Tournament, UserId]] = []
    for number, members in places.items():
        division = await tx.insert_tournament(
            NewTournament(
                guild_id=league.guild_id,
                channel_id=league.channel_id,
                thread_id=league.thread_id,
                name=league.name,
                format=TournamentFormat.ROUND_ROBIN,
                organiser_id=league.organiser_id,
                created_at=now,
                clock=league.clock,
                rated=league.rated,
                league_id=league.id,
                season=league.season,
                division=number,
                status=TournamentStatus.RUNNING,
            )
        )
        division = await tx.save_tournament(
            dataclasses.replace(division, round=FIRST_ROUND, started_at=now)
        )
        members_in = []
        for seed, user_id in enumerate(members, start=1):
            theirs = in_league.get(user_id)
            out = theirs.withdrawn_at if theirs is not None else None
            entrant = Entrant(division.id, user_id, seed, now, division=number, withdrawn_at=out)
            await tx.add_entrant(entrant)
            members_in.append(entrant)
            if theirs is not None:
                await tx.save_entrant(dataclasses.replace(theirs, division=number))
            if out is not None:
                withdrawn.append((division, user_id))
        await _pair(tx, division, members_in, [], now)
        await tx.division_made(league.id, league.season, number)
    return MadeDivisions(len(places), tuple(withdrawn))


async def _season_maybe_over(tx: Writer, league_id: int, now: datetime) -> None:
    """When the last division of a league's season ends: move players up and down, and start
    the next season by itself (everyone still in, newcomers in the lowest division). A league
    of more than :data:`MADE_AT_ONCE` divisions only ends its season here (nothing written:
    every division finished, no place left, is the record of it); the housekeeping job plans
    its next season outside this transaction
    (:meth:`~bot.games.tournaments.running.Tournaments.plan_seasons`)."""
    league = await tx.tournament(league_id)
    if league is None or not league.is_running or league.season is None:
        return
    if await tx.season_places(league.id, league.season, limit=1):
        return  # divisions still to make: the season is not over
    divisions = await tx.divisions(league.id, league.season)
    if not all(d.status is TournamentStatus.FINISHED for d in divisions):
        return
    if len(divisions) > MADE_AT_ONCE:
        log.info(
            "league %s: season %s over, its next to plan by the housekeeping job",
            league.id,
            league.season,
        )
        return
    end = await read_season_end(tx, league, divisions)
    await end_season(tx, league, next_season_of(end, now), now)


class SeasonReader(Protocol):
    """What :func:`read_season_end` reads with: a write transaction (a small league's end) or
    the store outside any (the housekeeping job planning a large one's next season)."""

    async def season_entrants(self, league_id: int, season: int) -> dict[int, list[Entrant]]: ...

    async def season_pairings(
        self, league_id: int, season: int
    ) -> dict[int, list[TournamentGame]]: ...

    async def entrants(self, tournament_id: int) -> list[Entrant]: ...

    async def members_entered(self, tournament_id: int) -> set[UserId]: ...

    async def blocks_among_entrants(self, tournament_id: int) -> list[NetworkBlock]: ...


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """What a league season's end reads: its ``divisions`` (all finished, the top first), their
    players and pairings (by division id), the league's entrants, and for the network
    championship its entrants still network members and the blocked pairs among them."""

    league: Tournament
    divisions: Sequence[Tournament]
    members: Mapping[int, Sequence[Entrant]]
    played: Mapping[int, Sequence[TournamentGame]]
    entrants: Sequence[Entrant]
    in_network: frozenset[UserId] | None
    blocked: Sequence[pyramid.BlockedPair]


@dataclass(frozen=True, slots=True)
class NextSeason:
    """A season's end computed (:func:`next_season_of`): the entrants withdrawn now (they left
    the network), those staying, and the next season's divisions (fewer than three players in
    all: the league ends)."""

    left_network: tuple[Entrant, ...]
    staying: tuple[Entrant, ...]
    placed: tuple[tuple[UserId, ...], ...]


async def read_season_end(
    reader: SeasonReader, league: Tournament, divisions: Sequence[Tournament]
) -> SeasonEnd:
    """Read what ``league``'s season end computes its next season from (a few queries for a
    thousand divisions; nothing locked)."""
    assert league.season is not None
    network = is_championship(league)
    return SeasonEnd(
        league=league,
        divisions=tuple(divisions),
        members=await reader.season_entrants(league.id, league.season),
        played=await reader.season_pairings(league.id, league.season),
        entrants=tuple(await reader.entrants(league.id)),
        in_network=frozenset(await reader.members_entered(league.id)) if network else None,
        blocked=tuple(
            (b.blocker_id, b.blocked_id) for b in await reader.blocks_among_entrants(league.id)
        )
        if network
        else (),
    )


def next_season_of(end: SeasonEnd, now: datetime) -> NextSeason:
    """The next season of ``end``'s league (pure: the standings of every division, then the
    moves up and down or the championship's pyramid): everyone still in, newcomers in the lowest
    division; the championship's entrants who left the network are out (withdrawn ``now``)."""
    league = end.league
    tables = [table(d, end.members.get(d.id, []), end.played.get(d.id, [])) for d in end.divisions]
    entrants = list(end.entrants)
    left: tuple[Entrant, ...] = ()
    if end.in_network is not None:  # who left the network since is out too
        left = tuple(e for e in entrants if not e.withdrawn and e.user_id not in end.in_network)
        gone = {e.user_id for e in left}
        entrants = [
            dataclasses.replace(e, withdrawn_at=now) if e.user_id in gone else e for e in entrants
        ]
    playing = {e.user_id for d in end.divisions for e in end.members.get(d.id, [])}
    leaving = [e.user_id for e in entrants if e.withdrawn]
    newcomers = [
        e.user_id
        for e in sorted(entrants, key=lambda e: e.seed)
        if not e.withdrawn and e.user_id not in playing
    ]
    size = league.division_size or standings.DIVISION_SIZE
    placed: Sequence[Sequence[UserId]]
    if is_championship(league):
        placed = pyramid.next_season(
            tables, leaving=leaving, newcomers=newcomers, blocked=end.blocked, size=size
        )
    else:
        placed = standings.next_season(
            tables,
            leaving=leaving,
            newcomers=newcomers,
            size=size,
            down=standings.RELEGATED if league.moves_down is None else league.moves_down,
        )
    return NextSeason(
        left_network=left,
        staying=tuple(e for e in entrants if not e.withdrawn),
        placed=tuple(tuple(members) for members in placed),
    )


async def end_season(tx: Writer, league: Tournament, ended: NextSeason, now: datetime) -> None:
    """Write a season's end computed by :func:`next_season_of` for ``league`` (read in ``tx``,
    its season over): those who left the network withdrawn, the news, and the next season
    started (:func:`_start_season`: its plan written, its divisions made if they are few), or
    the league finished if fewer than three players are left."""
    assert league.season is not None
    for entrant in ended.left_network:
        await tx.save_entrant(dataclasses.replace(entrant, withdrawn_at=now))
        log.info("championship %s: %s left the network: out", league.id, entrant.user_id)
    await news(tx, league, tournament_news(league, season_over=league.season), now)
    if sum(len(d) for d in ended.placed) < 3:
        await tx.save_tournament(
            dataclasses.replace(league, status=TournamentStatus.FINISHED, finished_at=now)
        )
        return
    next_season = await tx.save_tournament(
        dataclasses.replace(league, season=league.season + 1, round=league.round + 1)
    )
    log.info("league %s: season %s begins", league.id, next_season.season)
    await _start_season(tx, next_season, ended.staying, now, ended.placed)


async def blocked_pairs(tx: Writer, league: Tournament) -> list[pyramid.BlockedPair]:
    """The pairs of the network championship's players one of whom blocked the other."""
    return [(b.blocker_id, b.blocked_id) for b in await tx.blocks_among_entrants(league.id)]


async def _by_network_rating(
    tx: Writer, league: Tournament, entrants: Sequence[Entrant]
) -> list[UserId]:
    """The championship's first ladder: its players by network rating, the best first (those
    without one at the start rating), then by when they entered. The ratings are read in one
    query, not locked (the ladder is theirs of the moment; a game ending meanwhile changes a
    rating without waiting for a season's start)."""
    ratings = await tx.entrant_ratings(league.id, NETWORK)
    rated = sorted(entrants, key=lambda e: (-ratings.get(e.user_id, START_RATING), e.seed))
    return [entrant.user_id for entrant in rated]


async def _still_in_network(
    tx: Writer, league: Tournament, entrants: Sequence[Entrant], now: datetime
) -> list[Entrant]:
    """The championship's ``entrants`` not withdrawn who are network members still; those who
    left the network are withdrawn now (a season's end, or its first season's start)."""
    staying = []
    members = await tx.members_entered(league.id)  # one query, nothing locked
    for entrant in entrants:
        if entrant.withdrawn:
            continue
        if entrant.user_id in members:
            staying.append(entrant)
        else:
            await tx.save_entrant(dataclasses.replace(entrant, withdrawn_at=now))
            log.info("championship %s: %s left the network: out", league.id, entrant.user_id)
    return staying
