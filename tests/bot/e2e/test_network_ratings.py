"""The network's ratings shown, through the fake Discord with the real discord.py client:
``/network leaderboard`` (members of three servers; a leaver drops off; too few games, not
listed; public in a network channel, private elsewhere) and the network rating's line in
``/dvonn profile``, for a member only: a player not in the network (or no longer) sees the
profile they always saw.

The network games that feed the ratings are played through the service (its accept, homes ready
and a resignation): the Discord side of network games is another part's."""

from __future__ import annotations

from bot.app import DvonnBot
from bot.games.core.network import NETWORK
from bot.games.core.ratings import LEADERBOARD_MIN_GAMES, is_provisional
from bot.games.core.timecontrol import DaysPerMove
from bot.i18n import Text, _, n_
from bot.posting.texts import rating_text
from bot.storage.models import HomeSeat
from rules import Colour
from tests.bot.e2e.conftest import NetworkTables
from tests.bot.e2e.helpers import said
from tests.fakediscord import FakeChannel, FakeUser, InteractionResult

HEADING = n_(
    "Ratings in the DVONN network (at least {count} network game):",
    "Ratings in the DVONN network (at least {count} network games):",
    LEADERBOARD_MIN_GAMES,
)
EMPTY = n_(
    "Nobody in the DVONN network has played {count} rated network game yet.",
    "Nobody in the DVONN network has played {count} rated network games yet.",
    LEADERBOARD_MIN_GAMES,
)


def row(count: int) -> Text:
    return n_(
        "{place}. {player}: {rating} ({count} game)",
        "{place}. {player}: {rating} ({count} games)",
        count,
    )


def network_line(count: int) -> Text:
    return n_(
        "DVONN network: rating {rating} (± {deviation}) · {count} network game",
        "DVONN network: rating {rating} (± {deviation}) · {count} network games",
        count,
    )


NO_NETWORK_GAME = _("DVONN network: no rated network game yet.")
NO_PUZZLE = _("Puzzles: no rated puzzle yet (/puzzle).")
NO_GAMES_HERE = _("No rated games on this server yet.")


def name_of(user: FakeUser) -> str:
    """The name a player joins the network with: their global name, else their username."""
    return user.global_name or user.username


async def take_part(bot: DvonnBot, tables: NetworkTables) -> None:
    """The three servers take part, each with its network channel."""
    for guild, channel, moderator in zip(
        tables.guilds, tables.networks, tables.moderators, strict=True
    ):
        await bot.service.network.set_channel(guild.id, channel.id, moderator.id)


def home_channel(tables: NetworkTables, parent_id: int | None, user: FakeUser) -> FakeChannel:
    """Where a home is played: its server's network channel (a thread would be made there by
    the bot; the channel itself serves here), or the bot's DMs with its player."""
    if parent_id is None:
        return tables.fake.world.open_dm(user.id)
    return next(c for c in tables.networks if c.id == parent_id)


async def network_game(
    bot: DvonnBot, tables: NetworkTables, winner: FakeUser, loser: FakeUser
) -> None:
    """A network game, ``winner``'s open challenge accepted by ``loser``, begun in its homes and
    resigned by ``loser``."""
    network = bot.service.network
    winners = await network.member(winner.id)
    losers = await network.member(loser.id)
    assert winners is not None and losers is not None
    guild = winners.home_guild_id
    where = (
        tables.fake.world.open_dm(winner.id).id
        if guild is None
        else next(
            c.id for g, c in zip(tables.guilds, tables.networks, strict=True) if g.id == guild
        )
    )
    challenge = await network.challenge(
        winner.id, guild_id=guild, channel_id=where, colour=Colour.WHITE, clock=DaysPerMove(3)
    )
    started = await network.accept(challenge.id, loser.id, guild_id=losers.home_guild_id)
    for home in started.homes:
        player = winner if home.seat is HomeSeat.WHITE else loser
        channel = home_channel(tables, home.parent_channel_id, player)
        ready = await network.home_ready(
            started.game.id, home.seat, channel.id, home.parent_channel_id
        )
    assert ready.started is not None
    await bot.service.resign(started.game.id, loser.id)


async def leaderboard(
    tables: NetworkTables, user: FakeUser, channel: FakeChannel
) -> InteractionResult:
    return await tables.fake.run_command(user, channel, "network leaderboard")


async def test_the_network_leaderboard_lists_members_of_every_server_by_global_name(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, bot = network_tables, network_bot
    ann, bob, cat = tables.players
    eve, dana = tables.eve, tables.dana
    await take_part(bot, tables)
    empty = await leaderboard(tables, cat, tables.networks[2])
    assert said(EMPTY) in empty.content and not empty.ephemeral

    network = bot.service.network
    for player, guild in ((ann, 0), (bob, 1), (cat, 2), (eve, 0)):
        await network.join(player.id, name_of(player), tables.guilds[guild].id)
    await network.join(dana.id, "dana", None)
    # Ann 4 games, Bob, Cat and Eve 3 each, Dana 1 (too few to be listed).
    for winner, loser in ((ann, bob), (bob, cat), (cat, ann), (eve, ann), (eve, bob), (cat, eve)):
        await network_game(bot, tables, winner, loser)
    await network_game(bot, tables, ann, dana)
    await network.leave(eve.id)  # a leaver drops off (her rating is kept until forget)

    ratings = {}
    for player in (ann, bob, cat, eve, dana):
        rating = await bot.service.ratings.rating(NETWORK, player.id)
        assert rating is not None
        ratings[name_of(player)] = rating
    assert ratings["dana"].games == 1 and ratings[name_of(eve)].games == 3
    listed = sorted(("Ann", "Bob", "Cat"), key=lambda name: -ratings[name].rating)
    expected = "\n".join(
        [said(HEADING)]
        + [
            said(
                row(ratings[name].games),
                place=place,
                player=name,
                rating=rating_text(ratings[name].rating, provisional=is_provisional(ratings[name])),
            )
            for place, name in enumerate(listed, start=1)
        ]
    )

    # In a network channel, for everyone there to see; in the server's other channels and in
    # DMs, only to whoever asked. The same table, by global names: no server's nickname.
    # (The bot has seen Ann in her server, by her nickname there.)
    await tables.fake.run_command(ann, tables.generals[0], "dvonn profile")
    public = await leaderboard(tables, bob, tables.networks[1])
    assert not public.ephemeral and public.content == expected
    for user, channel in ((ann, tables.generals[0]), (dana, tables.fake.world.open_dm(dana.id))):
        private = await leaderboard(tables, user, channel)
        assert private.ephemeral and private.content == expected
    assert "of A" not in public.content and name_of(eve) not in public.content.split()
    assert "dana" not in public.content.split()

    # A server that stopped taking part: its network channel is one like any other.
    await network.stop(tables.guilds[2].id, tables.moderators[2].id)
    stopped = await leaderboard(tables, cat, tables.networks[2])
    assert stopped.ephemeral and stopped.content == expected


async def test_a_member_s_profile_shows_the_network_rating_and_nobody_else_s_changes(
    network_tables: NetworkTables, network_bot: DvonnBot
) -> None:
    tables, bot = network_tables, network_bot
    fake, network = tables.fake, bot.service.network
    ann, bob, cat = tables.players
    eve = tables.eve
    await take_part(bot, tables)

    async def profile(viewer: FakeUser, channel: FakeChannel, who: FakeUser) -> str:
        reply = await fake.run_command(viewer, channel, "dvonn profile", {"user": who})
        assert reply.ephemeral
        return reply.content

    # Eve, not in the network: her profile before she joins, the one she always had.
    before = await profile(ann, tables.generals[0], eve)
    assert before == "\n".join(
        [
            said(_("**{player}**", player="eve")),
            said(NO_GAMES_HERE),
            said(NO_PUZZLE, mentions=bot.mentions),
        ]
    )
    assert "network" not in before.lower()

    # Members: before a network game, that they have none; after, their network rating, to a
    # viewer of another server too, and nothing else of their network life.
    for player, guild in ((ann, 0), (bob, 1), (eve, 0)):
        await network.join(player.id, name_of(player), tables.guilds[guild].id)
    joined = await profile(ann, tables.generals[0], eve)
    assert joined == "\n".join(
        [
            said(_("**{player}**", player="eve")),
            said(NO_GAMES_HERE),
            said(NO_NETWORK_GAME),
            said(NO_PUZZLE, mentions=bot.mentions),
        ]
    )
    await network_game(bot, tables, ann, bob)
    await network_game(bot, tables, eve, bob)
    rating = await bot.service.ratings.network_rating(ann.id)
    assert rating is not None and rating.games == 1
    line = said(
        network_line(1),
        rating=rating_text(rating.rating, provisional=is_provisional(rating)),
        deviation=round(2 * rating.deviation),
    )
    seen_from_b = await profile(tables.moderators[1], tables.generals[1], ann)
    assert line in seen_from_b.splitlines()
    assert "Server" not in seen_from_b and "Bob" not in seen_from_b and "#" not in seen_from_b
    assert said(NO_GAMES_HERE) in seen_from_b  # no server's rating made of network games
    own = await profile(ann, tables.networks[0], ann)
    assert line in own.splitlines()

    # Cat never joined: nothing of the network in her profile, not even that she is not in it.
    cats = await profile(tables.moderators[2], tables.generals[2], cat)
    assert cats == "\n".join(
        [
            said(_("**{player}**", player="Cat of C")),
            said(NO_GAMES_HERE),
            said(NO_PUZZLE, mentions=bot.mentions),
        ]
    )

    # Eve leaves, her network rating kept (until forget): her profile is the one before she joined.
    assert await bot.service.ratings.network_rating(eve.id) is not None
    await network.leave(eve.id)
    assert await profile(ann, tables.generals[0], eve) == before
