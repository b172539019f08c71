"""Tournaments through the service, on both backends: entries, rounds paired as games end,
withdrawals, knockouts, and the refusals a player can cause. (The Discord side, threads and
standings posts, is tested end to end in tests/bot/e2e.)"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.games.play.errors import AbortNeedsOrganiser
from bot.games.service import GameService
from bot.games.tournaments.errors import (
    AlreadyJoined,
    NotOrganiser,
    OrganisersOnly,
    TooFewPlayers,
    TooManyRounds,
    TournamentFull,
    TournamentNeedsClock,
    TournamentStarted,
)
from bot.games.tournaments.tables import table
from bot.storage import Tournament
from bot.storage.models import GameStatus, TournamentFormat, TournamentStatus
from tests.bot.clock import ManualClock

GUILD, CHANNEL, ORGANISER = 1, 2, 100
THREADS = iter(range(10_000, 20_000))


async def _made(service: GameService, fmt: TournamentFormat, **options: object) -> Tournament:
    return await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        by=ORGANISER,
        organiser=True,
        name="Autumn Cup",
        format=fmt,
        **options,  # type: ignore[arg-type]
    )


async def _begin_pending(service: GameService, tournament_id: int) -> list[int]:
    """What the Discord side does for each paired game: a thread, then the game begins."""
    begun = []
    for pairing in (await service.tournaments.standing(tournament_id)).pairings:
        if pairing.game_id is None:
            continue
        if await service.tournaments.pending_game(pairing.game_id) is not None:
            started = await service.tournaments.begin_game(pairing.game_id, next(THREADS), CHANNEL)
            assert started is not None and started.game.is_active
            begun.append(pairing.game_id)
    return begun


async def _lose_all(service: GameService, loser_of: dict[int, int], game_ids: list[int]) -> None:
    """End each game by resignation of whichever player ``loser_of`` ranks lower (a smaller
    number wins), so the results are known in advance."""
    for game_id in game_ids:
        game = await service.get_game(game_id)
        if not game.is_active:  # ended by a withdrawal
            continue
        loser = max(game.player_ids, key=lambda p: loser_of[p])
        await service.resign(game_id, loser)


async def test_a_round_robin_plays_every_pairing_at_once_and_ends_with_the_last_game(
    service: GameService,
) -> None:
    tournament = await _made(service, TournamentFormat.ROUND_ROBIN, max_players=4)
    for player in (1, 2, 3):
        joined = await service.tournaments.join(tournament.id, player)
        assert not joined.started
    with pytest.raises(AlreadyJoined):
        await service.tournaments.join(tournament.id, 1)
    joined = await service.tournaments.join(tournament.id, 4)
    assert joined.started and joined.tournament.status is TournamentStatus.RUNNING
    with pytest.raises(TournamentStarted):
        await service.tournaments.join(tournament.id, 5)
    games = await _begin_pending(service, tournament.id)
    assert len(games) == 6  # everyone meets everyone once, all games at once
    assert await _begin_pending(service, tournament.id) == []  # begun once only
    strength = {1: 1, 2: 2, 3: 3, 4: 4}
    await _lose_all(service, strength, games)
    standing = await service.tournaments.standing(tournament.id)
    assert standing.tournament.status is TournamentStatus.FINISHED
    ranked = table(standing.tournament, standing.entrants, standing.pairings)
    assert [(r.player, r.points) for r in ranked] == [(1, 3), (2, 2), (3, 1), (4, 0)]
    # Sonneborn-Berger: the points of those beaten (1 beat 2, 3 and 4: 2 + 1 + 0).
    assert ranked[0].tie_breaks[0][1] == 3


async def test_a_swiss_pairs_each_round_when_the_last_ends_gives_one_bye_and_skips_the_withdrawn(
    service: GameService,
) -> None:
    tournament = await _made(service, TournamentFormat.SWISS, rounds=3)
    for player in (1, 2, 3, 4, 5):
        await service.tournaments.join(tournament.id, player)
    started = await service.tournaments.start(tournament.id, ORGANISER, organiser=True)
    assert started.round == 1
    strength = {p: p for p in (1, 2, 3, 4, 5)}
    games = await _begin_pending(service, tournament.id)
    assert len(games) == 2  # five players: two games and a bye
    await _lose_all(service, strength, games[:1])
    assert (await service.tournaments.get(tournament.id)).round == 1  # one game still on
    await _lose_all(service, strength, games[1:])
    assert (await service.tournaments.get(tournament.id)).round == 2
    await service.tournaments.withdraw(tournament.id, 5)
    for _ in range(2):
        games = await _begin_pending(service, tournament.id)
        await _lose_all(service, strength, games)
    standing = await service.tournaments.standing(tournament.id)
    assert standing.tournament.status is TournamentStatus.FINISHED
    byes = [p.white_id for p in standing.pairings if p.is_bye]
    assert len(byes) == len(set(byes))  # a bye at most once each
    met = [frozenset(p.player_ids) for p in standing.pairings if not p.is_bye]
    assert len(met) == len(set(met))  # nobody met twice
    later = [p for p in standing.pairings if p.round > 2]
    assert all(5 not in p.player_ids for p in later)  # the withdrawn are not paired
    ranked = table(standing.tournament, standing.entrants, standing.pairings)
    assert ranked[0].player == 1 and ranked[0].points == 3


async def test_a_knockout_ends_with_one_winner_and_a_withdrawal_forfeits_a_game_not_begun(
    service: GameService,
) -> None:
    tournament = await _made(service, TournamentFormat.KNOCKOUT)
    for player in (1, 2, 3, 4, 5, 6):
        await service.tournaments.join(tournament.id, player)
    await service.tournaments.start(tournament.id, ORGANISER, organiser=True)
    standing = await service.tournaments.standing(tournament.id)
    assert sum(p.is_bye for p in standing.pairings) == 2  # six of eight places: two byes
    pending = [p for p in standing.pairings if p.game_id is not None]
    withdrawn = pending[0].black_id
    assert withdrawn is not None
    await service.tournaments.withdraw(tournament.id, withdrawn)
    forfeited = await service.get_game(pending[0].game_id or 0)
    assert forfeited.status is GameStatus.FINISHED and forfeited.winner_id == pending[0].white_id
    strength = {p: p for p in (1, 2, 3, 4, 5, 6)}
    while (await service.tournaments.get(tournament.id)).is_running:
        games = await _begin_pending(service, tournament.id)
        assert games, "a running knockout always has a game to play"
        await _lose_all(service, strength, games)
    standing = await service.tournaments.standing(tournament.id)
    final = max(p.round for p in standing.pairings)
    assert final == 3
    (last,) = [p for p in standing.pairings if p.round == final]
    assert 1 in last.player_ids


async def test_the_refusals(service: GameService) -> None:
    with pytest.raises(OrganisersOnly):
        await service.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            by=7,
            organiser=False,
            name="Ours",
            format=TournamentFormat.SWISS,
        )
    with pytest.raises(OrganisersOnly):  # a player's own is unrated: asking is refused
        await service.tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            by=7,
            organiser=False,
            name="Ours",
            format=TournamentFormat.ROUND_ROBIN,
            rated=True,
        )
    own = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        by=7,
        organiser=False,
        name="Ours",
        format=TournamentFormat.ROUND_ROBIN,
    )
    assert own.players_own and not own.rated and own.max_players == 8
    with pytest.raises(TooManyRounds):
        await _made(service, TournamentFormat.SWISS, rounds=6, max_players=6)
    knockout = await _made(service, TournamentFormat.KNOCKOUT)
    await service.tournaments.join(knockout.id, 1)
    with pytest.raises(TooFewPlayers):
        await service.tournaments.start(knockout.id, ORGANISER, organiser=True)
    with pytest.raises(NotOrganiser):
        await service.tournaments.start(knockout.id, 1, organiser=False)
    full = await _made(service, TournamentFormat.ROUND_ROBIN, max_players=2)
    await service.tournaments.join(full.id, 1)
    await service.tournaments.join(full.id, 2)  # full: it begins
    with pytest.raises(TournamentStarted):
        await service.tournaments.join(full.id, 3)
    (game_id,) = await _begin_pending(service, full.id)
    with pytest.raises(AbortNeedsOrganiser):
        await service.abort(game_id, 1)
    aborted = await service.abort(game_id, ORGANISER, moderator=True)
    assert aborted.aborted
    assert (await service.tournaments.get(full.id)).status is TournamentStatus.FINISHED


async def test_a_full_tournament_refuses_more(service: GameService) -> None:
    tournament = await _made(service, TournamentFormat.SWISS, rounds=1, starts_at=None)
    del tournament
    timed = await _made(service, TournamentFormat.ROUND_ROBIN, max_players=3)
    await service.tournaments.join(timed.id, 1)
    await service.tournaments.join(timed.id, 2)
    await service.tournaments.join(timed.id, 3)
    with pytest.raises((TournamentFull, TournamentStarted)):
        await service.tournaments.join(timed.id, 4)


async def test_a_tournament_on_a_time_bank_starts_each_game_with_full_banks_when_it_begins(
    service: GameService,
) -> None:
    tournament = await _made(
        service, TournamentFormat.ROUND_ROBIN, max_players=2, clock="bank:10d+36h/10d"
    )
    for player in (1, 2):
        await service.tournaments.join(tournament.id, player)
    (pairing,) = (await service.tournaments.standing(tournament.id)).pairings
    assert pairing.game_id is not None
    waiting = await service.get_game(pairing.game_id)
    assert waiting.status is GameStatus.PENDING and waiting.deadline_at is None
    assert waiting.bank == "bank:10d+36h/10d" and waiting.clock_days is None
    started = await service.tournaments.begin_game(pairing.game_id, next(THREADS), CHANNEL)
    assert started is not None
    game = started.game
    assert game.white_bank == game.black_bank == timedelta(days=10)
    assert game.deadline_at == game.updated_at + timedelta(days=10)


async def test_a_tournament_without_a_clock_is_refused_and_by_default_has_little_golems_bank(
    service: GameService,
) -> None:
    with pytest.raises(TournamentNeedsClock):
        await _made(service, TournamentFormat.SWISS, clock="none")
    assert (await _made(service, TournamentFormat.SWISS)).clock == "bank:10d+36h/10d"


async def test_a_player_who_loses_on_time_without_a_move_is_withdrawn_and_not_paired_again(
    service: GameService, clock: ManualClock
) -> None:
    tournament = await _made(
        service, TournamentFormat.SWISS, max_players=6, rounds=3, clock="days:2"
    )
    for player in range(1, 7):
        await service.tournaments.join(tournament.id, player)
    games = await _begin_pending(service, tournament.id)
    # Player 6 never comes; in the other games both players move, then all but 6's end.
    absent_game = None
    for game_id in games:
        game = await service.get_game(game_id)
        if 6 in game.player_ids:
            absent_game = game_id
            if game.white_id != 6:
                await service.play(game_id, game.white_id, "A1")
            continue
        await service.play(game_id, game.white_id, "A1")
        await service.play(game_id, game.black_id, "A2")
        await service.resign(game_id, game.black_id)
    assert absent_game is not None
    clock.advance(days=3)
    (lost,) = (await service.sweep()).lost_on_time
    assert lost.game.id == absent_game
    standing = await service.tournaments.standing(tournament.id)
    assert {e.user_id for e in standing.entrants if e.withdrawn} == {6}
    # Round 2 pairs the five others: two games and a bye, nobody plays 6.
    second = [p for p in standing.pairings if p.round == 2]
    assert len(second) == 3 and all(6 not in p.player_ids for p in second)
    assert sum(p.black_id is None for p in second) == 1


async def test_a_swiss_whose_withdrawals_leave_too_few_players_ends_early(
    service: GameService,
) -> None:
    tournament = await _made(service, TournamentFormat.SWISS, max_players=4, rounds=3)
    for player in (1, 2, 3, 4):
        await service.tournaments.join(tournament.id, player)
    games = await _begin_pending(service, tournament.id)
    await service.tournaments.withdraw(tournament.id, 3)
    await service.tournaments.withdraw(tournament.id, 4)
    await _lose_all(service, {1: 1, 2: 2, 3: 3, 4: 4}, games)
    # Two players are left, who could meet once at most: it ends after round 1 (it used to
    # fail to pair round 2 inside the game-ending transaction, again and again).
    standing = await service.tournaments.standing(tournament.id)
    assert standing.tournament.status is TournamentStatus.FINISHED
    assert {p.round for p in standing.pairings} == {1}


async def test_a_game_forfeited_before_it_began_is_never_rated(service: GameService) -> None:
    """A withdrawal loses the games not begun without play: no rating moves for them, neither
    in the withdrawal's transaction nor in a later housekeeping pass's catch-up."""
    tournament = await _made(service, TournamentFormat.ROUND_ROBIN)
    for player in (1, 2, 3):
        await service.tournaments.join(tournament.id, player)
    await service.tournaments.start(tournament.id, ORGANISER, organiser=True)
    await service.tournaments.withdraw(tournament.id, 3)
    standing = await service.tournaments.standing(tournament.id)
    forfeits = [p for p in standing.pairings if p.forfeit]
    assert len(forfeits) == 2  # both of player 3's games, neither begun
    await service.sweep()
    assert await service.ratings.rate_finished_games() == 0
    for player in (1, 2, 3):
        assert await service.ratings.rating(GUILD, player) is None
