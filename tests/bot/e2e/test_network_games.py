"""Network challenges, the network board and network games played from two homes, through the
fake Discord with the real discord.py client: three servers and a player who installed the app
to her account (:func:`tests.bot.e2e.conftest.network_tables`)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from pathlib import Path

import pytest

import rules
from bot.app import DvonnBot
from bot.games.core.errors import ChallengeAlreadyAccepted as ALREADY_TAKEN
from bot.games.core.errors import OwnChallenge
from bot.games.network.errors import PlayerUnavailable, SeekUnavailable, ServerLeftNetwork
from bot.i18n import COLOUR_NAMES, Text, _
from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import join_network, name_network_channel, play_turn, said
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    Overwrite,
    OverwriteTarget,
    Permission,
    RecordedMessage,
)

PICK = "dvonn:net:pick"


def private(reply: InteractionResult) -> str:
    """The answer's words, after checking only its asker saw them."""
    assert reply.ephemeral, reply.content
    return reply.content


def bot_dm(tables: NetworkTables, user: FakeUser) -> FakeChannel:
    return tables.fake.world.open_dm(user.id)


async def take_part(tables: NetworkTables, *servers: int) -> None:
    """The servers' moderators name their network channels."""
    for server in servers:
        await name_network_channel(
            tables.fake, tables.moderators[server], tables.generals[server], tables.networks[server]
        )


async def join(tables: NetworkTables, user: FakeUser, channel: FakeChannel) -> None:
    await join_network(tables.fake, user, channel)


async def everyone_in(tables: NetworkTables) -> None:
    """The three servers take part; Ann, Bob and Cat join, each from their server's network
    channel."""
    await take_part(tables, 0, 1, 2)
    for server, player in enumerate(tables.players):
        await join(tables, player, tables.networks[server])


async def thread_in(tables: NetworkTables, channel: FakeChannel) -> FakeChannel:
    """The (first) thread the bot started in ``channel``, once it has."""
    fake = tables.fake

    def first() -> FakeChannel | None:
        return next(iter(fake.threads_in(channel)), None)

    found = await fake.wait_until(first, what=f"a thread in {channel!r}", timeout=10)
    assert found is not None
    return found


async def dm_with(tables: NetworkTables, user: FakeUser) -> FakeChannel:
    """The bot's DM channel with ``user``, once the bot opened it."""
    fake = tables.fake

    def opened() -> FakeChannel | None:
        return fake.dm_channel(user)

    found = await fake.wait_until(opened, what=f"the bot's DMs with {user!r}", timeout=10)
    assert found is not None
    return found


def posted_in_both(fake: FakeDiscord, homes: tuple[FakeChannel, ...], count: int) -> bool:
    return all(len(boards(fake.messages_in(home))) >= count for home in homes)


def boards(fake_messages: list[RecordedMessage]) -> list[RecordedMessage]:
    return [m for m in fake_messages if m.embed_image() is not None and not m.ephemeral]


def boards_ever(fake: FakeDiscord, home: FakeChannel) -> list[RecordedMessage]:
    """Every board posted in ``home``, those deleted since too (while pieces are placed, each
    board replaces the last)."""
    world = fake.world
    return boards([world.messages[m] for m in world.channel_messages.get(home.id, [])])


def posted_ever_in_both(fake: FakeDiscord, homes: tuple[FakeChannel, ...], count: int) -> bool:
    return all(len(boards_ever(fake, home)) >= count for home in homes)


async def seek_from_a_taken_from_b(
    tables: NetworkTables, bot: DvonnBot, **options: object
) -> tuple[int, FakeChannel, FakeChannel]:
    """Ann (server A) makes an open network challenge, playing White; Bob (server B) takes it
    from /network seeks. Returns the game and its two homes (threads), once each has its first
    board."""
    fake = tables.fake
    ann, bob, _cat = tables.players
    await take_part(tables, 0, 1, 2)
    await join(tables, ann, tables.networks[0])
    await join(tables, bob, tables.networks[1])
    seek = await fake.run_command(
        ann, tables.networks[0], "network challenge", {"colour": "W", **options}
    )
    assert not seek.ephemeral and seek.message is not None
    assert seek.message.pinged_user_ids == set()
    listed = await fake.run_command(bob, tables.networks[1], "network seeks")
    assert listed.ephemeral and listed.message is not None
    assert "Ann" in listed.content and "Ann of A" not in listed.content
    challenges = await bot.service.network.seeks_for(bob.id)
    assert len(challenges) == 1
    taken = await fake.select(bob, listed.message, PICK, [str(challenges[0].id)])
    assert taken.ephemeral, taken.content
    game_id = (await bot.service.network.lobby.challenge(challenges[0].id)).game_id
    assert game_id is not None
    homes = []
    for server in (0, 1):
        thread = await thread_in(tables, tables.networks[server])
        await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
        homes.append(thread)
    return game_id, homes[0], homes[1]


async def test_an_open_network_challenge_from_one_server_is_taken_from_another(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    game_id, home_a, home_b = await seek_from_a_taken_from_b(tables, network_bot)
    game = await network_bot.service.get_game(game_id)
    assert game.network and game.white_id == ann.id and game.black_id == bob.id
    first_a = boards(fake.messages_in(home_a))
    first_b = boards(fake.messages_in(home_b))
    assert len(first_a) == 1 and len(first_b) == 1
    assert first_a[0].pinged_user_ids == {ann.id}  # White places first, pinged in her home
    assert first_b[0].pinged_user_ids == set()
    for message in fake.messages_in(home_b) + fake.messages_in(tables.networks[1]):
        assert "Ann of A" not in message.content and str(ann.id) not in message.content
    # Each lists it as played in their own home, the other by their network name.
    line = _("#{game} vs {opponent} ({colour}), a network game in <#{channel}>: {turn}")
    bobs = private(await fake.run_command(bob, tables.networks[1], "dvonn games"))
    assert (
        said(
            line,
            game=game_id,
            opponent="Ann",
            colour=COLOUR_NAMES[rules.Colour.BLACK],
            channel=home_b.id,
            turn=_("{player}'s turn", player="Ann"),
        )
        in bobs.splitlines()
    )
    anns = private(await fake.run_command(ann, tables.generals[0], "dvonn games"))
    assert (
        said(
            line,
            game=game_id,
            opponent="Bob",
            colour=COLOUR_NAMES[rules.Colour.WHITE],
            channel=home_a.id,
            turn=_("your turn"),
        )
        in anns.splitlines()
    )


@pytest.mark.machine_speed
async def test_a_whole_network_game_is_played_from_both_homes(
    network_tables: NetworkTables, network_bot: DvonnBot, shared_dir: Path
) -> None:
    """A reference game of the oracle (its placements and moves), played from both homes: every
    board exactly once in each home, each pinging only its home's player; spectators of both
    servers see them; no nickname of one server in the other; the end as the oracle has it."""
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    line = (shared_dir / "oracle" / "random_games_sample.jsonl").open().readline()
    reference = json.loads(line)
    moves = [rules.parse_move(p["action"]) for p in reference["positions"]]
    game_id, home_a, home_b = await seek_from_a_taken_from_b(tables, network_bot)
    homes = {rules.Colour.WHITE: (ann, home_a), rules.Colour.BLACK: (bob, home_b)}
    pos = (await network_bot.service.get_game(game_id)).position
    turns = 0
    for move in moves:
        if move == rules.PASS:
            assert rules.legal_moves(pos) == (rules.PASS,)  # the bot passes for the player
            pos = rules.play(pos, move)
            continue
        mover, home = homes[pos.turn]
        turn = await play_turn(fake, mover, home, move, typed=turns % 5 == 2)
        assert turn.post is not None, f"{move}: {turn.reply.content}"
        turns += 1
        pos = rules.play(pos, move)
        await fake.wait_until(
            functools.partial(posted_ever_in_both, fake, (home_a, home_b), 1 + turns),
            what="the turn's board in each home",
            timeout=10,
        )
    assert rules.is_over(pos)
    await asyncio.sleep(0.5)  # anything doubled would be out by now
    game = await network_bot.service.get_game(game_id)
    assert not game.is_active and game.position == pos
    assert rules.score(pos) == (reference["score"]["W"], reference["score"]["B"])
    shown = {home.id: boards(fake.messages_in(home)) for home in (home_a, home_b)}
    for player, home in homes.values():
        posted = boards_ever(fake, home)
        assert len(posted) == 1 + turns  # the first board, then every turn's, once
        for message in posted:
            assert message.pinged_user_ids <= {player.id}
        # Each board asking for a placement gave way to the next (48 of them, the 49th's
        # stays: the board asking for it); every move's board stays.
        assert len(shown[home.id]) == 1 + turns - 48
        texts = " ".join(m.content + str(m.embeds) for m in fake.messages_in(home))
        for someone in (ann, bob):
            assert f"{someone.username.title()} of" not in texts  # no server's nickname
        other_player = bob if player is ann else ann
        assert other_player.mention not in texts
    # Spectators: a member of each server sees every board of their server's home.
    assert boards(fake.visible_to(tables.eve, home_a)) == shown[home_a.id]
    assert boards(fake.visible_to(tables.moderators[1], home_b)) == shown[home_b.id]


async def test_a_direct_challenge_to_a_player_whose_home_is_her_dms(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    _ann, _bob, cat = tables.players
    dana = tables.dana
    await take_part(tables, 2)
    await join(tables, cat, tables.networks[2])
    dana.locale = "fr"  # her home speaks her language
    dm = bot_dm(tables, dana)
    await join(tables, dana, dm)
    found = await fake.autocomplete(
        cat, tables.networks[2], "network challenge", {"player": "da"}, focused="player"
    )
    assert [(c.name, c.value) for c in found] == [("dana", str(dana.id))]
    before = fake.mark()
    made = await fake.run_command(
        cat, tables.networks[2], "network challenge", {"player": str(dana.id), "colour": "B"}
    )
    assert "dana" in private(made)
    assert fake.messages_in(tables.networks[2], after=before) == []  # nothing public
    posted = await fake.wait_for_message(dm, lambda m: bool(m.buttons()), after=before)
    assert "Cat" in posted.content and "Cat of C" not in posted.content
    accept, decline = said(_("Accept"), locale="fr"), said(_("Decline"), locale="fr")
    assert {b.get("label") for b in posted.buttons()} == {accept, decline}
    accepted = await fake.click(dana, posted, label=accept)
    assert not accepted.ephemeral or accepted.content
    thread = await thread_in(tables, tables.networks[2])
    await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
    first = await fake.wait_for_message(
        dm, lambda m: m.embed_image() is not None, after=posted, timeout=10
    )
    assert first.pinged_user_ids <= {dana.id}
    game = await network_bot.service.game_in_channel(dm.id)
    assert game is not None and game.network
    assert (game.white_id, game.black_id) == (dana.id, cat.id)
    game_id = game.id

    def named(text: Text, locale: str | None = None) -> str:
        return said(text, locale=locale, game=game_id, white="dana", black="Cat")

    line = _(
        "🌐 Network game #{game}: {white} (White) vs {black} (Black). Its boards come here; "
        "each player plays from their own home."
    )
    assert any(m.content == named(line, "fr") for m in fake.messages_in(dm))
    title = _("DVONN #{game}: {white} (White) vs {black} (Black)")
    assert first.embeds[0]["title"] == named(title, "fr")
    thread_first = boards(fake.messages_in(thread))[0]
    assert thread_first.embeds[0]["title"] == named(title)  # server C's: English
    # Dana moves from her DMs: the board is the answer there, and comes to Cat's thread.
    listed = private(await fake.run_command(dana, dm, "dvonn games"))
    in_dms = _("#{game} vs {opponent} ({colour}), a network game in your DMs with the bot: {turn}")
    assert (
        said(
            in_dms,
            locale="fr",
            game=game_id,
            opponent="Cat",
            colour=COLOUR_NAMES[rules.Colour.WHITE],
            turn=_("your turn"),
        )
        in listed.splitlines()
    )
    reply = await fake.run_command(dana, dm, "dvonn place", {"cell": "E3"})
    assert not reply.ephemeral, reply.content
    await fake.wait_until(
        lambda: len(boards(fake.messages_in(thread))) == 2, what="the board in Cat's home"
    )


async def test_a_block_keeps_two_players_apart_either_way(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, cat = tables.players
    await everyone_in(tables)
    assert private(
        await fake.run_command(bob, tables.networks[1], "network block", {"player": str(ann.id)})
    )
    # Ann cannot challenge Bob, and is not told who blocked whom.
    refused = await fake.run_command(
        ann, tables.networks[0], "network challenge", {"player": str(bob.id)}
    )
    assert said(PlayerUnavailable) in private(refused)
    # Their seeks are hidden from each other, not from Cat.
    seek = await fake.run_command(ann, tables.networks[0], "network challenge")
    assert not seek.ephemeral
    await fake.run_command(bob, tables.networks[1], "network challenge")
    bobs = private(await fake.run_command(bob, tables.networks[1], "network seeks"))
    anns = private(await fake.run_command(ann, tables.networks[0], "network seeks"))
    cats = private(await fake.run_command(cat, tables.networks[2], "network seeks"))
    assert "Ann" not in bobs and "Bob" not in anns
    assert "Ann" in cats and "Bob" in cats
    # Nor can Bob take Ann's seek by its id from a menu (an old board's, say).
    challenge = next(
        c for c in await network_bot.service.network.seeks_for(cat.id) if c.challenger_id == ann.id
    )
    taken = await fake.run_command(bob, tables.networks[1], "network seeks")
    assert taken.message is not None
    assert str(challenge.id) not in str(taken.message.components)
    # The boards, seen by whole channels, show every seek, whatever the blocks: a pick of the
    # other's there is refused privately, worded alike whoever blocked whom, saying why.
    bobs_seek = next(
        c for c in await network_bot.service.network.seeks_for(cat.id) if c.challenger_id == bob.id
    )
    for picker, server, seek_id in ((bob, 1, challenge.id), (ann, 0, bobs_seek.id)):

        def listing(
            channel: FakeChannel = tables.networks[server], wanted: int = seek_id
        ) -> RecordedMessage | None:
            board = board_in(fake, channel)
            return board if board is not None and f"#{wanted}" in board.content else None

        board = await fake.wait_until(listing, what="the board with the seek", timeout=20)
        assert board is not None
        refused = await fake.select(picker, board, PICK, [str(seek_id)])
        assert private(refused) == said(SeekUnavailable, mentions=network_bot.mentions)
    assert await network_bot.service.network.seeks_for(bob.id) == []
    assert fake.threads_in(tables.networks[0]) == fake.threads_in(tables.networks[1]) == []


async def test_bad_inputs_are_answered_privately(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """One's own challenge, a challenge already taken, a server that left."""
    tables, fake = network_tables, network_tables.fake
    ann, bob, cat = tables.players
    await everyone_in(tables)
    seek = await fake.run_command(ann, tables.networks[0], "network challenge")
    assert seek.message is not None
    own = await fake.click(ann, seek.message, label=said(_("Accept")))
    assert said(OwnChallenge) in private(own)
    # Bob and Cat both list it; Bob takes it first; Cat's pick is refused.
    bobs = await fake.run_command(bob, tables.networks[1], "network seeks")
    cats = await fake.run_command(cat, tables.networks[2], "network seeks")
    assert bobs.message is not None and cats.message is not None
    (challenge,) = await network_bot.service.network.seeks_for(cat.id)
    private(await fake.select(bob, bobs.message, PICK, [str(challenge.id)]))
    late = await fake.select(cat, cats.message, PICK, [str(challenge.id)])
    assert said(ALREADY_TAKEN) in private(late)
    # A seek of a server that left the network cannot be taken any more.
    again = await fake.run_command(cat, tables.networks[2], "network challenge")
    assert again.message is not None
    stopped = await fake.run_command(
        tables.moderators[2], tables.generals[2], "network server", {"stop": True}
    )
    assert stopped.ephemeral
    from_c = await fake.run_command(cat, tables.networks[2], "network challenge")
    assert said(ServerLeftNetwork, mentions=network_bot.mentions) in private(from_c)
    assert await network_bot.service.network.seeks_for(ann.id) == []  # called off with it


async def test_a_server_that_leaves_mid_game_the_game_goes_on_in_the_player_s_dms(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    game_id, home_a, home_b = await seek_from_a_taken_from_b(tables, network_bot, setup="random")
    homes = {rules.Colour.WHITE: (ann, home_a), rules.Colour.BLACK: (bob, home_b)}
    rng = random.Random(5)
    pos = (await network_bot.service.get_game(game_id)).position
    turns = 0

    async def play(home: FakeChannel | None = None) -> None:
        nonlocal pos, turns
        mover, own = homes[pos.turn]
        move = rng.choice(rules.legal_moves(pos))
        turn = await play_turn(fake, mover, home or own, move)
        assert turn.post is not None, turn.reply.content
        pos = rules.play(pos, move)
        turns += 1

    await play()
    await play()
    await fake.wait_until(lambda: len(boards(fake.messages_in(home_b))) == 3, what="B's boards")
    # Server B takes the bot out; Bob installed the app to his account, so the bot may DM him.
    fake.world.install_app(bob)
    fake.world.remove_bot(tables.guilds[1])
    await fake.wait_until(
        lambda: network_bot.get_guild(tables.guilds[1].id) is None, what="the removal"
    )
    await play()  # Ann's: refused in B's thread, so Bob's home moves to his DMs
    await network_bot.housekeeping()
    dm = await dm_with(tables, bob)
    moved = await fake.wait_for_message(dm, lambda m: m.embed_image() is not None, timeout=10)
    assert (
        said(
            _(
                "🌐 Your network game #{game} goes on here, in your DMs with the bot: its server "
                "no longer hosts it. The board as it stands:"
            ),
            game=game_id,
        )
        in moved.content
    )
    for _try in range(100):  # its home is recorded just after its post
        if await network_bot.service.game_in_channel(dm.id) is not None:
            break
        await asyncio.sleep(0.05)
    homes[rules.Colour.BLACK] = (bob, dm)
    await play()  # Bob, from his DMs: answered with the board there
    await play()
    await fake.wait_until(
        lambda: len(boards(fake.messages_in(dm))) == 3, what="Bob's boards in his DMs"
    )
    await asyncio.sleep(0.5)  # anything doubled would be out by now
    assert len(boards(fake.messages_in(home_a))) == 1 + turns  # Ann's home: every board once
    assert len(boards(fake.messages_in(home_b))) == 3  # nothing after the removal
    assert len(boards(fake.messages_in(dm))) == 3  # the board as it stood, then each turn once
    game = await network_bot.service.get_game(game_id)
    assert game.position == pos and game.is_active


def board_in(fake: FakeDiscord, channel: FakeChannel) -> RecordedMessage | None:
    """The network board in ``channel`` (the message with the menu of seeks), if posted."""
    return next(
        (m for m in fake.messages_in(channel) if m.component(PICK) is not None),
        None,
    )


def titled_board_in(fake: FakeDiscord, channel: FakeChannel) -> RecordedMessage | None:
    """The network board in ``channel`` by its title (one without seeks has no menu)."""
    title = said(_("🌐 **Open network challenges**"))
    return next((m for m in fake.messages_in(channel) if m.content.startswith(title)), None)


async def test_every_network_channel_shows_the_board_of_seeks_and_it_accepts(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, cat = tables.players
    await everyone_in(tables)
    seek = await fake.run_command(ann, tables.networks[0], "network challenge", {"setup": "random"})
    assert seek.message is not None
    shown = []
    for channel in tables.networks:
        board = await fake.wait_until(
            functools.partial(board_in, fake, channel), what="the network board", timeout=15
        )
        assert board is not None and "Ann" in board.content and board.pinged_user_ids == set()
        assert "Ann of A" not in board.content
        shown.append(board)
    (challenge,) = await network_bot.service.network.seeks_for(bob.id)
    taken = await fake.select(bob, shown[1], PICK, [str(challenge.id)])
    assert taken.ephemeral
    await thread_in(tables, tables.networks[1])
    late = await fake.select(cat, shown[2], PICK, [str(challenge.id)])  # a board behind
    assert said(ALREADY_TAKEN) in private(late)


async def test_a_server_s_first_board_comes_without_any_seek(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """A moderator names the network channel of a network where no seek was ever made, or
    moves it: its board comes on the boards' job's next pass, though no seek opens or closes."""
    tables, fake = network_tables, network_tables.fake
    assert await network_bot.service.network.lobby.seeks_version() == 0
    await take_part(tables, 0)
    board = await fake.wait_until(
        functools.partial(titled_board_in, fake, tables.networks[0]),
        what="the first board",
        timeout=15,
    )
    assert board is not None
    assert (
        said(_("None now: make one with /network challenge."), mentions=network_bot.mentions)
        in board.content
    )
    # Moved to another channel: a board there too, at once (the old one stays as it was).
    elsewhere = tables.guilds[0].add_text_channel("network-2")
    reply = await fake.run_command(
        tables.moderators[0], tables.generals[0], "network server", {"channel": elsewhere}
    )
    assert reply.ephemeral
    moved = await fake.wait_until(
        functools.partial(titled_board_in, fake, elsewhere), what="the board moved", timeout=15
    )
    assert moved is not None and moved.id != board.id


@pytest.mark.machine_speed  # two games' boards in one DM: not about its limit
async def test_a_dm_home_with_several_network_games_finds_the_one_meant(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """Dana plays two network games in her DMs: a command there is for the one where it is her
    turn; where it is in both, she is asked, privately, to use a board's buttons."""
    tables, fake = network_tables, network_tables.fake
    ann, _bob, cat = tables.players
    dana = tables.dana
    await take_part(tables, 0, 2)
    await join(tables, ann, tables.networks[0])
    await join(tables, cat, tables.networks[2])
    dm = bot_dm(tables, dana)
    await join(tables, dana, dm)
    games = []
    for player, server in ((ann, 0), (cat, 2)):
        before = fake.mark()
        await fake.run_command(
            player,
            tables.networks[server],
            "network challenge",
            {"player": str(dana.id), "colour": "B"},
        )
        posted = await fake.wait_for_message(dm, lambda m: bool(m.buttons()), after=before)
        await fake.click(dana, posted, label=said(_("Accept")))
        await thread_in(tables, tables.networks[server])
        await fake.wait_for_message(
            dm, lambda m: m.embed_image() is not None, after=posted, timeout=10
        )
        found = await network_bot.service.network.games.games_in_channel(dm.id)
        games.append(max(found, key=lambda g: g.id))
    for _try in range(100):  # each home is recorded just after its first post
        if len(await network_bot.service.network.games.games_in_channel(dm.id)) == 2:
            break
        await asyncio.sleep(0.05)
    asked = await fake.run_command(dana, dm, "dvonn place", {"cell": "E3"})
    ids = ", ".join(f"#{g.id}" for g in games)
    several = _(
        "Several of your network games are played here ({games}): use the buttons under the "
        "board of the one you mean."
    )
    assert said(several, games=ids) in private(asked)
    # She plays in the first with its board's buttons (here, the service): the command is
    # then for the other, where it is still her turn.
    await network_bot.service.play(games[0].id, dana.id, "E3")
    played = await fake.run_command(dana, dm, "dvonn place", {"cell": "F3"})
    assert not played.ephemeral, played.content
    first = await network_bot.service.get_game(games[0].id)
    second = await network_bot.service.get_game(games[1].id)
    assert (first.version, second.version) == (games[0].version + 1, games[1].version + 1)
    assert first.position != second.position  # E3 in one, F3 in the other


async def test_a_network_channel_that_refuses_the_bot_sends_the_home_to_dms(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """Server B's network channel no longer lets the bot post when Bob takes Ann's seek: his
    home is made in his DMs instead, and the game begins in both homes."""
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    await take_part(tables, 0, 1)
    await join(tables, ann, tables.networks[0])
    await join(tables, bob, tables.networks[1])
    tables.networks[1].overwrites.append(
        Overwrite(
            fake.world.bot.id,
            OverwriteTarget.MEMBER,
            allow=Permission(0),
            deny=Permission.SEND_MESSAGES,
        )
    )
    seek = await fake.run_command(ann, tables.networks[0], "network challenge")
    assert seek.message is not None
    listed = await fake.run_command(bob, bot_dm(tables, bob), "network seeks")
    assert listed.message is not None
    (challenge,) = await network_bot.service.network.seeks_for(bob.id)
    private(await fake.select(bob, listed.message, PICK, [str(challenge.id)]))
    thread = await thread_in(tables, tables.networks[0])
    dm = await dm_with(tables, bob)
    await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
    await fake.wait_for_message(dm, lambda m: m.embed_image() is not None, timeout=10)
    assert fake.threads_in(tables.networks[1]) == []
    taken = await network_bot.service.network.lobby.challenge(challenge.id)
    assert taken.game_id is not None
    assert (await network_bot.service.get_game(taken.game_id)).is_active


async def test_two_members_of_one_server_share_one_home(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    """Eve takes Ann's seek with its own Accept, in their server: one thread, each board once,
    the post says the seek is taken and Eve is told privately where to play."""
    tables, fake = network_tables, network_tables.fake
    ann, _bob, _cat = tables.players
    eve = tables.eve
    await take_part(tables, 0)
    await join(tables, ann, tables.networks[0])
    await join(tables, eve, tables.networks[0])
    seek = await fake.run_command(
        ann, tables.networks[0], "network challenge", {"colour": "W", "setup": "random"}
    )
    assert seek.message is not None
    await fake.click(eve, seek.message, label=said(_("Accept")))
    thread = await thread_in(tables, tables.networks[0])
    first = await fake.wait_for_message(thread, lambda m: m.embed_image() is not None, timeout=10)
    assert first.pinged_user_ids == {ann.id}
    edited = fake.message(seek.message.id)
    assert edited.buttons() == [] and "eve" in edited.content
    told = [m for m in fake.visible_to(eve, tables.networks[0]) if m.ephemeral]
    accepted = _(
        "You accepted: network game #{game} is played in its thread in <#{channel}>, where its "
        "boards come."
    )
    game = await network_bot.service.game_in_channel(thread.id)
    assert game is not None
    assert said(accepted, game=game.id, channel=tables.networks[0].id) in [m.content for m in told]
    reply = await fake.run_command(ann, thread, "dvonn play", {"move": "PASS"})
    assert reply.ephemeral  # not a legal move now: refused privately, nothing posted
    assert len(boards(fake.messages_in(thread))) == 1


async def test_a_direct_challenge_goes_to_dms_when_the_home_channel_refuses_the_bot(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, fake = network_tables, network_tables.fake
    ann, bob, _cat = tables.players
    await take_part(tables, 0, 1)
    await join(tables, ann, tables.networks[0])
    await join(tables, bob, tables.networks[1])
    tables.networks[1].overwrites.append(
        Overwrite(
            fake.world.bot.id,
            OverwriteTarget.MEMBER,
            allow=Permission(0),
            deny=Permission.SEND_MESSAGES,
        )
    )
    made = await fake.run_command(
        ann, tables.generals[0], "network challenge", {"player": str(bob.id)}
    )
    assert "Bob" in private(made)
    dm = await dm_with(tables, bob)
    posted = await fake.wait_for_message(dm, lambda m: bool(m.buttons()), timeout=10)
    assert "Ann" in posted.content
    assert fake.messages_in(tables.networks[1]) == []
