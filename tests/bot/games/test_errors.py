"""Every bad input gets its own error, with a catalogue key, params and a sentence for players,
and changes nothing."""

from __future__ import annotations

import random
import string
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

import rules
from bot.games.core.errors import GameChanged, GameFinished, GameNotFound, NotAPlayer, ServiceError
from bot.games.play.errors import NotYourTurn
from bot.games.service import GameService
from bot.storage import Game, Store, open_database
from rules import Colour
from tests.bot.clock import ManualClock

ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def service(database_target: str) -> AsyncIterator[GameService]:
    db = await open_database(database_target)
    service = GameService(Store(db), clock=ManualClock(), rng=random.Random(1))
    yield service
    await service.close()


@pytest.fixture
async def game(service: GameService) -> Game:
    """A game with White (Alice) to move, after two placements."""
    challenge = await service.create_challenge(
        guild_id=1, channel_id=2, challenger_id=ALICE, opponent_id=BOB, colour=Colour.WHITE
    )
    game = (await service.accept_challenge(challenge.id, BOB)).game
    await service.play(game.id, ALICE, "E3")
    return (await service.play(game.id, BOB, "F3")).game


async def _unchanged(service: GameService, before: Game) -> None:
    after = await service.get_game(before.id)
    assert after == before
    assert len((await service.record(before.id)).moves) == before.ply


async def test_unknown_game(service: GameService) -> None:
    with pytest.raises(GameNotFound) as error:
        await service.play(404, ALICE, "E3")
    assert error.value.params == {"game_id": 404}
    for call in (service.resign(404, ALICE), service.abort(404, ALICE), service.record(404)):
        with pytest.raises(GameNotFound):
            await call


async def test_not_a_player(service: GameService, game: Game) -> None:
    with pytest.raises(NotAPlayer) as error:
        await service.play(game.id, CAROL, "A1")
    assert (error.value.game_id, error.value.user_id) == (game.id, CAROL)
    with pytest.raises(NotAPlayer):
        await service.resign(game.id, CAROL)
    await _unchanged(service, game)


async def test_not_your_turn(service: GameService, game: Game) -> None:
    with pytest.raises(NotYourTurn) as error:
        await service.play(game.id, BOB, "A1")
    assert error.value.params == {
        "game_id": game.id,
        "user_id": BOB,
        "colour": Colour.BLACK,
        "turn": Colour.WHITE,
    }
    assert str(error.value) == "It is not your turn: White is to play, and you play Black."
    await _unchanged(service, game)


async def test_a_finished_game(service: GameService, game: Game) -> None:
    ended = (await service.resign(game.id, BOB)).game
    with pytest.raises(GameFinished):
        await service.play(game.id, ALICE, "A1")
    await _unchanged(service, ended)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("hello", rules.InvalidReason.NOT_A_MOVE),
        ("Z9", rules.InvalidReason.UNKNOWN_CELL),
        ("E3E", rules.InvalidReason.NOT_A_MOVE),
    ],
)
async def test_a_malformed_move(
    service: GameService, game: Game, text: str, reason: rules.InvalidReason
) -> None:
    with pytest.raises(rules.InvalidMoveError) as error:
        await service.play(game.id, ALICE, text)
    assert error.value.reason is reason  # the rules' own error, unchanged
    await _unchanged(service, game)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("E3", rules.IllegalReason.CELL_OCCUPIED),
        ("A1B1", rules.IllegalReason.PLACEMENT_NOT_OVER),
        ("PASS", rules.IllegalReason.PLACEMENT_NOT_OVER),
    ],
)
async def test_an_illegal_move(
    service: GameService, game: Game, move: str, reason: rules.IllegalReason
) -> None:
    with pytest.raises(rules.IllegalMoveError) as error:
        await service.play(game.id, ALICE, move)
    assert error.value.reason is reason
    await _unchanged(service, game)


async def test_a_stale_version(service: GameService, game: Game) -> None:
    with pytest.raises(GameChanged) as error:
        await service.play(game.id, ALICE, "A1", expected_version=game.version - 1)
    assert error.value.params == {"game_id": game.id, "expected_version": game.version - 1}
    with pytest.raises(GameChanged):
        await service.resign(game.id, ALICE, expected_version=game.version - 1)
    await _unchanged(service, game)
    moved = await service.play(game.id, ALICE, "A1", expected_version=game.version)
    assert moved.game.version == game.version + 1


# --- the catalogue ------------------------------------------------------------------------------


def _concrete_errors() -> list[type[ServiceError]]:
    found: list[type[ServiceError]] = []
    pending: list[type[ServiceError]] = [ServiceError]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "key" in cls.__dict__:
            found.append(cls)
    return found


def _sample(cls: type[ServiceError]) -> ServiceError:
    """An instance built from its constructor's annotations."""
    samples: dict[str, Any] = {
        "int": 7,
        "Colour": Colour.BLACK,
        "tuple[int, ...]": (1, 2, 3),
        "datetime": datetime(2025, 1, 2, 12, 0, tzinfo=UTC),
        "str": "Spring cup",
        "rules.RulesError": rules.IllegalMoveError(rules.IllegalReason.GAME_OVER),
    }
    annotations = dict(cls.__init__.__annotations__)
    annotations.pop("return", None)
    return cls(**{name: samples[kind] for name, kind in annotations.items()})


def test_every_service_error_has_its_own_key_and_a_message_from_its_params() -> None:
    classes = _concrete_errors()
    assert len(classes) >= 20
    keys = [cls.key for cls in classes]
    assert len(set(keys)) == len(keys), "two errors share a catalogue key"
    for cls in classes:
        error = _sample(cls)
        placeholders = {f for _, f, _, _ in string.Formatter().parse(cls.template) if f}
        assert placeholders <= set(error.params), cls
        assert not str(error)[0].islower()
        assert str(error).endswith("."), cls
        assert "{" not in str(error), cls


def test_every_error_is_in_the_errors_module_of_its_room() -> None:
    """The core's in bot.games.core.errors, each feature's in its own package's: a reader finds
    a feature's refusals in one place, and the Discord layer imports them from there."""
    classes: list[type[ServiceError]] = [ServiceError, *_concrete_errors()]
    for cls in classes:
        room, _, module = cls.__module__.removeprefix("bot.games.").rpartition(".")
        assert module == "errors" and "." not in room and room, f"{cls.__name__}: {cls.__module__}"
