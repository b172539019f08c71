"""The refusals of tournaments' use cases: each carries its data and says, in English, what
the player can do (the Discord layer shows it in the reader's language, :mod:`bot.i18n`)."""

from __future__ import annotations

from bot.games.core.errors import ServiceError


class TournamentError(ServiceError):
    """An error about one tournament."""

    tournament_id: int


class TournamentNotFound(TournamentError):
    key = "tournament.not_found"
    template = "There is no tournament number {tournament_id} on this server."

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(tournament_id=tournament_id)


class NoTournamentHere(ServiceError):
    key = "tournament.none_here"
    template = (
        "No tournament is taking entries or running on this server: organisers make one with "
        "`/dvonn tournament create`."
    )

    def __init__(self) -> None:
        super().__init__()


class WhichTournament(ServiceError):
    key = "tournament.which"
    template = "Several tournaments are on: choose one with the `tournament` option ({names})."

    def __init__(self, names: str) -> None:
        super().__init__(names=names)


class NotOrganiser(TournamentError):
    key = "tournament.not_organiser"
    template = (
        "Only the tournament's organiser, or someone with Manage Server (or the server's "
        "organiser role), may do that."
    )

    def __init__(self, tournament_id: int, user_id: int) -> None:
        self.tournament_id = tournament_id
        self.user_id = user_id
        super().__init__()


class OrganisersOnly(ServiceError):
    key = "tournament.organisers_only"
    template = (
        "Players may make a small round robin of their own (at most {most} players); other "
        "formats, and rated or larger tournaments, need Manage Server or the server's "
        "organiser role."
    )

    def __init__(self, most: int) -> None:
        super().__init__(most=most)


class TooManyOwnTournaments(ServiceError):
    key = "tournament.too_many_own"
    template = "You have made {count} tournaments today, the most a player may: try again tomorrow."

    def __init__(self, count: int) -> None:
        super().__init__(count=count)


class TooSmallMaximum(ServiceError):
    key = "tournament.too_small_maximum"
    template = "This kind of tournament needs room for at least {needed} players."

    def __init__(self, most: int, needed: int) -> None:
        self.most = most
        super().__init__(needed=needed)


class TooManyRounds(ServiceError):
    key = "tournament.too_many_rounds"
    template = (
        "A Swiss tournament of {players} players can have at most {most} rounds (after that "
        "players would meet again); choose fewer rounds or more players."
    )

    def __init__(self, rounds: int, players: int, most: int) -> None:
        self.rounds = rounds
        super().__init__(players=players, most=most)


class TooFewPlayers(TournamentError):
    key = "tournament.too_few_players"
    template = "{name} needs at least {needed} players to begin; players in so far: {count}."

    def __init__(self, tournament_id: int, name: str, count: int, needed: int) -> None:
        self.tournament_id = tournament_id
        self.count = count
        self.needed = needed
        super().__init__(name=name, count=count, needed=needed)


class AlreadyJoined(TournamentError):
    key = "tournament.already_joined"
    template = "You are already in {name}."

    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name)


class TournamentFull(TournamentError):
    key = "tournament.full"
    template = "{name} is full ({most} players)."

    def __init__(self, tournament_id: int, name: str, most: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name, most=most)


class TournamentStarted(TournamentError):
    key = "tournament.started"
    template = "{name} has already begun: entries are closed."

    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name)


class TournamentNotStarted(TournamentError):
    key = "tournament.not_started"
    template = "{name} has not begun yet: to leave it, use `/dvonn tournament leave`."

    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name)


class TournamentOver(TournamentError):
    key = "tournament.over"
    template = "{name} is over."

    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name)


class RoleRequired(TournamentError):
    key = "tournament.role_required"
    template = "Only members of <@&{role_id}> may join {name}."

    def __init__(self, tournament_id: int, name: str, role_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name, role_id=role_id)


class NotEntered(TournamentError):
    key = "tournament.not_entered"
    template = "You are not in {name}."

    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        super().__init__(name=name)


class TournamentNeedsClock(ServiceError):
    key = "tournament.needs_clock"
    template = (
        "A tournament needs a clock, so that a player who is away loses on time instead of "
        "holding everyone up: choose days per move or a time bank."
    )

    def __init__(self) -> None:
        super().__init__()


class NoChampionship(ServiceError):
    key = "championship.none"
    template = "The network championship has not been set up yet: its first season has no start."

    def __init__(self) -> None:
        super().__init__()


class ChampionshipMembersOnly(ServiceError):
    key = "championship.members_only"
    template = "Only network players may enter the network championship: join with `/network join`."

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__()


class NoSuchDivision(ServiceError):
    key = "championship.no_division"
    template = "This season of the network championship has no division {division}."

    def __init__(self, division: int) -> None:
        self.division = division
        super().__init__(division=division)
