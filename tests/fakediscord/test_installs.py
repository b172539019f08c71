"""User installs: the app installed to a user's account, used in DMs and group DMs between users.

The rules checked here are Discord's documented ones (application commands' ``contexts`` and
``integration_types``, the interaction's ``context`` and ``authorizing_integration_owners``): a
private channel is reached only through a user install, the bot is not in it, its replies and
followups land there for everyone in it, and any of its users may click the buttons.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import (
    BotNotConnected,
    ChannelType,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionRecord,
    InteractionType,
    InvalidInvocation,
    MessageFlag,
    Overwrite,
    OverwriteTarget,
    Permission,
)
from tests.fakediscord.commands import (
    IntegrationType,
    InteractionContext,
    RegisteredCommand,
    offering_installs,
)
from tests.fakediscord.conftest import Scene, call
from tests.fakediscord.harness import png_bytes, running
from tests.fakediscord.sample_bot import BOARD_PNG, SampleBot

Json = dict[str, Any]
PRIVATE_APP_PERMISSIONS = int(
    Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE
)


@pytest.fixture
async def pocket_bot(scene: Scene) -> AsyncIterator[SampleBot]:
    """The sample bot with its user-installable, global ``/pocket`` group synced."""
    async with running(SampleBot(guild_id=scene.guild.id, user_installs=True), scene.fake) as bot:
        yield bot


def private_interaction(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, *, owner: FakeUser | None = None
) -> InteractionRecord:
    """A command interaction in a private channel, as if ``user`` ran one installed by
    ``owner`` (themselves by default); no bot needs to be connected."""
    return fake.desk.start(
        kind=InteractionType.APPLICATION_COMMAND,
        user=user,
        channel=channel,
        data={"id": "1", "name": "pocket", "type": 1, "options": []},
        label="/pocket",
        owners={"1": str((owner or user).id)},
    )


def gateway_events(fake: FakeDiscord) -> list[Json]:
    """Every dispatch the fake sent any bot session."""
    return [frame for s in fake.gateway.sessions.values() for _, frame in s.backlog]


# --- the application, the users, the channels -----------------------------------------------------


async def test_the_application_is_installable_to_servers_and_users(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    assert not scene.alice.installed_app
    fake.install_app(scene.alice)
    assert scene.alice.installed_app
    for path in ("applications/@me", "oauth2/applications/@me"):
        status, app = await call(http, "GET", path)
        assert status == 200
        config = app["integration_types_config"]
        assert config["0"]["oauth2_install_params"]["scopes"] == ["applications.commands", "bot"]
        assert config["1"]["oauth2_install_params"] == {
            "scopes": ["applications.commands"],
            "permissions": "0",
        }
        assert app["approximate_user_install_count"] == 1
    fake.uninstall_app(scene.alice)
    assert not scene.alice.installed_app
    assert fake.add_user("carol", installed_app=True).installed_app


async def test_discord_py_reads_both_installation_contexts(
    scene: Scene, sample_bot: SampleBot
) -> None:
    info = await sample_bot.application_info()
    assert info.guild_integration_config is not None
    assert info.user_integration_config is not None
    params = info.user_integration_config.oauth2_install_params
    assert params is not None and params.scopes == ["applications.commands"]


def test_private_channels_are_between_users_without_the_bot(scene: Scene) -> None:
    fake = scene.fake
    carol = fake.add_user("carol")
    dm = fake.add_private_channel(scene.alice, scene.bob)
    group = fake.add_private_channel(scene.alice, scene.bob, carol, name="dvonn night")
    assert dm.type is ChannelType.DM and dm.is_private and not dm.is_bot_dm
    assert group.type is ChannelType.GROUP_DM and group.is_private
    assert dm.recipient_ids == (scene.alice.id, scene.bob.id)
    assert fake.bot.id not in group.recipient_ids
    payload = fake.world.channel_payload(group)
    assert payload["type"] == 3 and payload["name"] == "dvonn night"
    assert payload["owner_id"] == str(scene.alice.id)
    assert [u["id"] for u in payload["recipients"]] == [
        str(u.id) for u in (scene.alice, scene.bob, carol)
    ]
    assert "guild_id" not in payload
    assert fake.messages_in(dm) == [] and fake.messages_in(group) == []
    assert fake.dm_channel(scene.alice) is None  # not the bot's DM
    with pytest.raises(ValueError, match="between 2 users"):
        fake.add_private_channel(scene.alice)
    with pytest.raises(ValueError, match="between 2 users"):
        fake.add_private_channel(scene.alice, scene.alice)
    with pytest.raises(ValueError, match="never bots"):
        fake.add_private_channel(scene.alice, fake.bot)
    eleven = [fake.add_user(f"u{i}") for i in range(11)]
    with pytest.raises(ValueError, match="at most 10"):
        fake.add_private_channel(*eleven)


# --- which commands are offered where -------------------------------------------------------------


def global_commands(fake: FakeDiscord) -> None:
    """Global commands with every combination the rules distinguish."""
    fake.world.overwrite_commands(
        None,
        [
            # discord.py's unset fields: null, i.e. guild install, every context.
            {"name": "plain", "description": "d", "contexts": None, "integration_types": None},
            {"name": "both", "description": "d", "integration_types": [0, 1]},
            {"name": "mine", "description": "d", "integration_types": [1], "contexts": [0, 1, 2]},
            {"name": "nodms", "description": "d", "integration_types": [0, 1], "contexts": [0, 1]},
            {"name": "servers", "description": "d", "integration_types": [0, 1], "contexts": [0]},
        ],
    )


def offered(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, name: str) -> Json | None:
    """The interaction the fake would send for ``/name``, or ``None`` if it is not offered."""
    count = len(fake.interactions)
    try:
        fake.send_command(user, channel, name)
    except InvalidInvocation:
        assert len(fake.interactions) == count
        return None
    except BotNotConnected:  # offered, and dispatched to nobody
        pass
    return fake.interactions[-1].payload


@pytest.mark.parametrize(
    ("name", "where", "installed", "owners"),
    [
        ("plain", "guild", False, {"0": "guild"}),
        ("plain", "bot dm", False, {"0": "0"}),
        ("plain", "private", True, None),  # guild install only: never in private channels
        ("plain", "guild", True, {"0": "guild"}),  # not user-installable: no "1"
        ("both", "private", False, None),  # the user has not installed the app
        ("both", "private", True, {"1": "user"}),  # null contexts: every context
        ("both", "guild", True, {"0": "guild", "1": "user"}),
        ("both", "bot dm", True, {"0": "0", "1": "user"}),
        ("both", "guild", False, {"0": "guild"}),
        ("mine", "guild", False, None),  # user install only, and not installed
        ("mine", "guild", True, {"1": "user"}),
        ("mine", "private", True, {"1": "user"}),
        ("nodms", "private", True, None),
        ("nodms", "bot dm", True, {"0": "0", "1": "user"}),
        ("servers", "bot dm", True, None),
        ("servers", "private", True, None),
    ],
)
def test_commands_are_offered_by_contexts_and_integration_types(
    scene: Scene, name: str, where: str, installed: bool, owners: dict[str, str] | None
) -> None:
    fake = scene.fake
    global_commands(fake)
    if installed:
        fake.install_app(scene.alice)
    channel = {
        "guild": scene.games,
        "bot dm": fake.world.open_dm(scene.alice.id),
        "private": fake.add_private_channel(scene.alice, scene.bob),
    }[where]
    payload = offered(fake, scene.alice, channel, name)
    if owners is None:
        assert payload is None
        return
    assert payload is not None
    values = {"guild": str(scene.guild.id), "user": str(scene.alice.id)}
    expected = {k: values.get(v, v) for k, v in owners.items()}
    assert payload["authorizing_integration_owners"] == expected
    assert payload["context"] == {"guild": 0, "bot dm": 1, "private": 2}[where]


@pytest.mark.parametrize(
    ("types", "contexts", "context", "guild_install", "user_install", "expected"),
    [
        (None, None, InteractionContext.GUILD, True, True, {0}),
        (None, None, InteractionContext.PRIVATE_CHANNEL, True, True, set()),
        ([0, 1], None, InteractionContext.PRIVATE_CHANNEL, True, True, {1}),
        ([0, 1], None, InteractionContext.PRIVATE_CHANNEL, True, False, set()),
        ([0, 1], [0, 1], InteractionContext.PRIVATE_CHANNEL, True, True, set()),
        ([0, 1], None, InteractionContext.BOT_DM, True, True, {0, 1}),
        ([1], None, InteractionContext.GUILD, True, False, set()),
        ([1], None, InteractionContext.GUILD, False, True, {1}),
        ([0], None, InteractionContext.GUILD, False, True, set()),
    ],
)
def test_offering_installs(
    *,
    types: list[int] | None,
    contexts: list[int] | None,
    context: InteractionContext,
    guild_install: bool,
    user_install: bool,
    expected: set[int],
) -> None:
    command = RegisteredCommand(
        id=1,
        application_id=2,
        guild_id=None,
        version=3,
        definition={"name": "x", "integration_types": types, "contexts": contexts},
    )
    found, why_not = offering_installs(
        command, context, guild_install=guild_install, user_install=user_install
    )
    assert found == {IntegrationType(t) for t in expected}
    assert bool(why_not) is not bool(expected)


def test_guild_commands_never_reach_private_channels(scene: Scene) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    fake.world.overwrite_commands(
        scene.guild.id,
        [{"name": "local", "description": "d", "integration_types": [0, 1], "contexts": [0, 2]}],
    )
    assert offered(fake, scene.alice, scene.games, "local") is not None
    with pytest.raises(InvalidInvocation, match="not registered"):
        fake.send_command(scene.alice, fake.add_private_channel(scene.alice, scene.bob), "local")


def test_why_a_command_is_not_offered(scene: Scene) -> None:
    fake = scene.fake
    global_commands(fake)
    private = fake.add_private_channel(scene.alice, scene.bob)
    with pytest.raises(InvalidInvocation, match="has not installed the app"):
        fake.send_command(scene.alice, private, "both")
    fake.install_app(scene.alice)
    with pytest.raises(InvalidInvocation, match=r"not user-installable"):
        fake.send_command(scene.alice, private, "plain")
    with pytest.raises(InvalidInvocation, match=r"contexts are \[0, 1\], without PRIVATE"):
        fake.send_command(scene.alice, private, "nodms")
    outsider = fake.add_user("carol", installed_app=True)
    with pytest.raises(InvalidInvocation, match="is not in"):
        fake.send_command(outsider, private, "both")


def test_the_interaction_in_a_private_channel(scene: Scene) -> None:
    fake = scene.fake
    global_commands(fake)
    fake.install_app(scene.bob)
    carol = fake.add_user("carol")
    group = fake.add_private_channel(scene.alice, scene.bob, carol)
    payload = offered(fake, scene.bob, group, "both")
    assert payload is not None
    assert payload["context"] == 2
    assert payload["authorizing_integration_owners"] == {"1": str(scene.bob.id)}
    assert payload["channel_id"] == str(group.id)
    assert payload["channel"]["type"] == 3
    assert {u["id"] for u in payload["channel"]["recipients"]} == {
        str(u.id) for u in (scene.alice, scene.bob, carol)
    }
    assert payload["user"]["id"] == str(scene.bob.id)
    for absent in ("member", "guild_id", "guild", "guild_locale"):
        assert absent not in payload
    assert payload["app_permissions"] == str(PRIVATE_APP_PERMISSIONS)
    assert payload["entitlements"] == [] and payload["locale"] == "en-US"
    assert fake.interactions[-1].context == 2


# --- with discord.py: replies, followups, buttons -------------------------------------------------


async def test_discord_py_sees_a_user_install_in_a_private_channel(
    scene: Scene, pocket_bot: SampleBot
) -> None:
    fake = scene.fake
    (pocket,) = fake.commands()
    assert pocket.name == "pocket" and pocket.guild_id is None
    assert pocket.integration_types == [0, 1] and pocket.contexts == [0, 1, 2]
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    where = await fake.run_command(scene.alice, dm, "pocket where")
    assert where.ephemeral
    assert where.content == (
        "guild=False dm=False private=True user_install=True guild_install=False "
        f"channel=DMChannel app_permissions={PRIVATE_APP_PERMISSIONS}"
    )
    assert fake.visible_to(scene.alice, dm) == [where.message]
    assert fake.visible_to(scene.bob, dm) == [] and fake.messages_in(dm) == []
    group = fake.add_private_channel(scene.alice, scene.bob, fake.add_user("carol"))
    in_group = await fake.run_command(scene.alice, group, "pocket where")
    assert "private=True" in in_group.content and "channel=GroupChannel" in in_group.content
    in_guild = await fake.run_command(scene.bob, scene.games, "pocket where")  # not installed
    assert "guild=True" in in_guild.content and "guild_install=True" in in_guild.content
    assert "user_install=False" in in_guild.content
    with pytest.raises(InvalidInvocation, match="has not installed"):
        await fake.run_command(scene.bob, dm, "pocket where")
    with pytest.raises(InvalidInvocation, match="not registered globally"):
        await fake.run_command(scene.alice, dm, "dvonn board")


async def test_a_challenge_in_a_dm_any_recipient_may_answer(
    scene: Scene, pocket_bot: SampleBot
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    carol = fake.add_user("carol", scene.guild)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    challenge = await fake.run_command(scene.alice, dm, "pocket challenge", {"opponent": scene.bob})
    message = challenge.message
    assert message is not None and not message.ephemeral
    assert message.channel_id == dm.id and message.guild_id is None
    assert message.pinged_user_ids == {scene.bob.id}
    assert fake.messages_in(dm) == [message]
    assert fake.visible_to(scene.bob, dm) == [message] == fake.visible_to(scene.alice, dm)
    assert fake.visible_to(carol, dm) == []
    # The bot is not in the DM: no gateway event about its messages, only the interactions.
    heard = {e["t"] for e in gateway_events(fake) if e["d"].get("channel_id") == str(dm.id)}
    assert heard == {"INTERACTION_CREATE"}

    accepted = await fake.click(scene.bob, message, "pocket:accept")  # bob has no install
    assert accepted.content == f"accept by {scene.bob.id}; installer clicked: False"
    assert accepted.record.context == 2
    assert accepted.record.owners == {"1": str(scene.alice.id)}
    assert accepted.record.payload["message"]["id"] == str(message.id)
    assert accepted.message is not None and accepted.message.channel_id == dm.id
    # A message made by the click is authorized by the same install, so it can be clicked on.
    again = await fake.click(scene.alice, message, "pocket:accept")
    assert again.content.endswith("installer clicked: True")
    with pytest.raises(InvalidInvocation, match="is not in"):
        await fake.click(carol, message, "pocket:accept")


async def test_deferred_reply_and_followups_land_in_the_group_dm(
    scene: Scene, pocket_bot: SampleBot
) -> None:
    fake = scene.fake
    fake.install_app(scene.bob)
    group = fake.add_private_channel(scene.alice, scene.bob, fake.add_user("carol"))
    result = await fake.run_command(scene.bob, group, "pocket board")
    assert result.deferred and result.message is not None and not result.message.loading
    (note,) = await result.wait_for_followups()
    await fake.wait_until(lambda: note.edited_at is not None, what="the note's edit")
    assert fake.messages_in(group) == [result.message, note]
    (board,) = result.message.files
    assert board.data == BOARD_PNG and result.message.embed_image() is board
    assert note.content == f"{scene.bob.mention} to move (edited)"
    assert note.pinged_user_ids == {scene.bob.id}  # the followup pinged; its edit did not
    assert note.flags & MessageFlag.EPHEMERAL == 0


async def test_the_bot_cannot_post_in_a_private_channel_on_its_own(
    scene: Scene, pocket_bot: SampleBot
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    result = await fake.run_command(scene.alice, dm, "pocket post")
    assert result.content == "refused: 403 50001"
    assert fake.messages_in(dm) == []
    (post,) = [r for r in fake.requests if r.path == f"/api/v10/channels/{dm.id}/messages"]
    assert (post.method, post.status, post.error_code) == ("POST", 403, 50001)


async def test_the_bot_may_dm_users_who_installed_it(scene: Scene, pocket_bot: SampleBot) -> None:
    fake = scene.fake
    stranger = fake.add_user("stranger")  # shares no server with the bot
    user = await pocket_bot.fetch_user(stranger.id)
    with pytest.raises(discord.Forbidden) as refused:
        await user.send("hello")
    assert refused.value.code == 50007
    fake.install_app(stranger)
    await user.send("hello")
    (dm,) = fake.dms_to(stranger)
    assert dm.content == "hello"
    channel = fake.dm_channel(stranger)
    assert channel is not None and channel.type is ChannelType.DM and channel.is_bot_dm
    # A user install reaches the bot's DM whatever the user's DM settings for servers are.
    shy = fake.add_user("shy", scene.guild, accepts_dms=False, installed_app=True)
    private = fake.add_private_channel(shy, stranger)
    reminded = await fake.run_command(shy, private, "pocket remind")
    assert reminded.content == "Sent you a DM."
    assert [m.content for m in fake.dms_to(shy)] == ["Your move"]
    fake.uninstall_app(shy)
    assert (await fake.run_command(shy, scene.games, "pocket remind")).content == (
        "cannot DM you: 50007"
    )


# --- REST in private channels, with plain HTTP ----------------------------------------------------


async def test_only_the_interaction_webhook_reaches_a_private_channel(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    record = private_interaction(fake, scene.alice, dm)
    status, _ = await call(
        http,
        "POST",
        f"interactions/{record.id}/{record.token}/callback",
        {"type": 4, "data": {"content": "your move"}},
    )
    assert status == 204
    original = record.original_message_id
    denied = [
        ("GET", f"channels/{dm.id}", None),
        ("POST", f"channels/{dm.id}/messages", {"content": "hi"}),
        ("GET", f"channels/{dm.id}/messages", None),
        ("GET", f"channels/{dm.id}/messages/{original}", None),
        ("PATCH", f"channels/{dm.id}/messages/{original}", {"content": "x"}),
        ("DELETE", f"channels/{dm.id}/messages/{original}", None),
        ("POST", f"channels/{dm.id}/typing", None),
        ("PATCH", f"channels/{dm.id}", {"name": "x"}),
        ("POST", f"channels/{dm.id}/threads", {"name": "x"}),
    ]
    for method, path, body in denied:
        status, error = await call(http, method, path, body)
        assert (status, error) == (403, {"message": "Missing Access", "code": 50001}), path
    hook = f"webhooks/{fake.application_id}/{record.token}"
    status, edited = await call(http, "PATCH", f"{hook}/messages/@original", {"content": "E3"})
    assert status == 200 and edited["content"] == "E3" and "guild_id" not in edited
    status, followup = await call(http, "POST", hook, {"content": "and F4"})
    assert status == 200 and followup["channel_id"] == str(dm.id)
    meta = followup["interaction_metadata"]
    assert meta["authorizing_integration_owners"] == {"1": str(scene.alice.id)}
    status, _ = await call(http, "DELETE", f"{hook}/messages/{followup['id']}")
    assert status == 204
    assert [m.content for m in fake.messages_in(dm)] == ["E3"]
    fake.advance_time(15 * 60 + 1)
    for method, path, body in [
        ("POST", hook, {"content": "late"}),
        ("PATCH", f"{hook}/messages/@original", {"content": "late"}),
        ("DELETE", f"{hook}/messages/@original", None),
    ]:
        status, error = await call(http, method, path, body)
        assert (status, error["code"]) == (401, 50027), (method, path)
    assert [m.content for m in fake.messages_in(dm)] == ["E3"]


async def test_replies_in_private_channels_ping_as_allowed_and_only_who_is_there(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    carol = fake.add_user("carol", scene.guild)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    text = f"{scene.alice.mention} {scene.bob.mention} {carol.mention} @everyone"
    cases: list[tuple[Json | None, set[int]]] = [
        (None, {scene.alice.id, scene.bob.id}),  # carol is not in the DM
        ({"parse": []}, set()),
        ({"parse": [], "users": [str(scene.bob.id)]}, {scene.bob.id}),
    ]
    for allowed, pinged in cases:
        record = private_interaction(fake, scene.alice, dm)
        data: Json = {"content": text}
        if allowed is not None:
            data["allowed_mentions"] = allowed
        status, _ = await call(
            http,
            "POST",
            f"interactions/{record.id}/{record.token}/callback",
            {"type": 4, "data": data},
        )
        assert status == 204
        message = fake.message(record.original_message_id or 0)
        assert message.pinged_user_ids == pinged, allowed
        assert not message.pings.everyone


async def test_an_ephemeral_followup_is_seen_by_the_invoker_only(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.bob)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    record = private_interaction(fake, scene.bob, dm)
    await call(http, "POST", f"interactions/{record.id}/{record.token}/callback", {"type": 5})
    hook = f"webhooks/{fake.application_id}/{record.token}"
    status, _ = await call(http, "PATCH", f"{hook}/messages/@original", {"content": "board"})
    status, secret = await call(http, "POST", hook, {"content": "psst", "flags": 64})
    assert status == 200
    assert [m.content for m in fake.visible_to(scene.bob, dm)] == ["board", "psst"]
    assert [m.content for m in fake.visible_to(scene.alice, dm)] == ["board"]
    with pytest.raises(InvalidInvocation, match="cannot see the ephemeral"):
        await fake.click(scene.alice, int(secret["id"]), "x")


async def test_a_user_install_makes_at_most_five_followups(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    record = private_interaction(fake, scene.alice, dm)
    await call(
        http,
        "POST",
        f"interactions/{record.id}/{record.token}/callback",
        {"type": 4, "data": {"content": "game"}},
    )
    hook = f"webhooks/{fake.application_id}/{record.token}"
    for n in range(5):
        status, _ = await call(http, "POST", hook, {"content": f"move {n}"})
        assert status == 200
    fake.advance_time(2.0)  # past the token's bucket (5 per 2 s), as discord.py would wait
    status, error = await call(http, "POST", hook, {"content": "one too many"})
    assert (status, error["code"]) == (400, 40094)
    assert [r.code for r in record.rejected] == [40094]
    assert len(fake.messages_in(dm)) == 6
    # Installed in the server, the app is not limited.
    guild_record = fake.desk.start(
        kind=InteractionType.APPLICATION_COMMAND,
        user=scene.alice,
        channel=scene.games,
        data={"id": "1", "name": "dvonn", "type": 1, "options": []},
        label="/dvonn",
    )
    await call(
        http,
        "POST",
        f"interactions/{guild_record.id}/{guild_record.token}/callback",
        {"type": 4, "data": {"content": "game"}},
    )
    for n in range(7):
        if n == 5:
            fake.advance_time(2.0)  # the token's bucket again
        status, _ = await call(
            http, "POST", f"webhooks/{fake.application_id}/{guild_record.token}", {"content": "m"}
        )
        assert status == 200


async def test_files_reach_a_private_channel_through_the_webhook(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    record = private_interaction(fake, scene.alice, dm)
    await call(http, "POST", f"interactions/{record.id}/{record.token}/callback", {"type": 5})
    form = aiohttp.FormData()
    payload = {"embeds": [{"title": "Board", "image": {"url": "attachment://b.png"}}]}
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    form.add_field("files[0]", png_bytes(2, 2), filename="b.png", content_type="image/png")
    hook = f"webhooks/{fake.application_id}/{record.token}/messages/@original"
    async with http.patch(hook, data=form) as response:
        assert response.status == 200
    (message,) = fake.messages_in(dm)
    image = message.embed_image()
    assert image is not None and image.image_size() == (2, 2)


# --- a server the app is not installed in ---------------------------------------------------------


async def test_a_user_install_in_a_server_without_the_bot(
    scene: Scene, pocket_bot: SampleBot, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    cafe = fake.add_guild("cafe", bot_member=False)
    assert not cafe.has_bot and scene.guild.has_bot
    tables = cafe.add_text_channel("tables")
    alice, bob = fake.add_user("ann", cafe, installed_app=True), fake.add_user("ben", cafe)
    assert fake.world.guilds.keys() == {scene.guild.id}  # the bot does not know the cafe
    assert not [
        e for e in gateway_events(fake) if e["t"] == "GUILD_CREATE" and e["d"]["id"] == str(cafe.id)
    ]
    where = await fake.run_command(alice, tables, "pocket where")
    allowed = int(Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.USE_EXTERNAL_EMOJIS)
    assert where.content == (
        "guild=True dm=False private=False user_install=True guild_install=False "
        f"channel=TextChannel app_permissions={allowed}"
    )
    assert where.record.owners == {"1": str(alice.id)}
    assert where.record.payload["guild_id"] == str(cafe.id) and "member" in where.record.payload
    with pytest.raises(InvalidInvocation, match="has not installed"):
        await fake.run_command(bob, tables, "pocket where")

    challenge = await fake.run_command(alice, tables, "pocket challenge", {"opponent": bob})
    assert challenge.message is not None and not challenge.ephemeral
    assert challenge.message.pinged_user_ids == {bob.id}
    accepted = await fake.click(bob, challenge.message, "pocket:accept")
    assert accepted.record.owners == {"1": str(alice.id)}
    assert accepted.content.endswith("installer clicked: False")
    assert not [
        e
        for e in gateway_events(fake)
        if e["d"].get("channel_id") == str(tables.id) and e["t"] != "INTERACTION_CREATE"
    ]
    refused = await fake.run_command(alice, tables, "pocket post")
    assert refused.content == "refused: 403 50001"
    status, error = await call(http, "GET", f"channels/{tables.id}")
    assert (status, error["code"]) == (403, 50001)
    status, error = await call(
        http, "PUT", f"applications/{fake.application_id}/guilds/{cafe.id}/commands", []
    )
    assert (status, error["code"]) == (403, 50001)


async def test_without_use_external_apps_the_replies_are_ephemeral(
    scene: Scene, pocket_bot: SampleBot
) -> None:
    fake = scene.fake
    cafe = fake.add_guild("cafe", bot_member=False)
    quiet = cafe.add_text_channel(
        "quiet",
        overwrites=[Overwrite(cafe.id, OverwriteTarget.ROLE, deny=Permission.USE_EXTERNAL_APPS)],
    )
    alice, bob = fake.add_user("ann", cafe, installed_app=True), fake.add_user("ben", cafe)
    challenge = await fake.run_command(alice, quiet, "pocket challenge", {"opponent": bob})
    assert challenge.ephemeral and challenge.message is not None
    assert challenge.message.pinged_user_ids == frozenset()
    assert fake.messages_in(quiet) == [] and fake.visible_to(bob, quiet) == []
    # Where the app is installed, Use External Apps does not matter.
    lounge = scene.guild.add_text_channel(
        "lounge",
        overwrites=[
            Overwrite(scene.guild.id, OverwriteTarget.ROLE, deny=Permission.USE_EXTERNAL_APPS)
        ],
    )
    fake.install_app(scene.alice)
    public = await fake.run_command(
        scene.alice, lounge, "pocket challenge", {"opponent": scene.bob}
    )
    assert not public.ephemeral


def test_guild_install_commands_are_not_offered_where_the_app_is_not_installed(
    scene: Scene,
) -> None:
    fake = scene.fake
    global_commands(fake)
    cafe = fake.add_guild("cafe", bot_member=False)
    tables = cafe.add_text_channel("tables")
    ann = fake.add_user("ann", cafe, installed_app=True)
    assert offered(fake, ann, tables, "plain") is None
    payload = offered(fake, ann, tables, "both")
    assert payload is not None and payload["authorizing_integration_owners"] == {"1": str(ann.id)}


async def test_a_modal_submitted_in_a_private_channel_keeps_the_install(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    fake.install_app(scene.alice)
    dm = fake.add_private_channel(scene.alice, scene.bob)
    record = private_interaction(fake, scene.alice, dm)
    modal = {
        "custom_id": "name",
        "title": "Name your game",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "n", "label": "Name", "style": 1}]}
        ],
    }
    status, _ = await call(
        http,
        "POST",
        f"interactions/{record.id}/{record.token}/callback",
        {"type": 9, "data": modal},
    )
    assert status == 204
    shown = fake.result_for(record)
    with pytest.raises(InvalidInvocation, match="only the user who opened"):
        await fake.submit_modal(scene.bob, shown, {"n": "x"})
    with pytest.raises(BotNotConnected):
        await fake.submit_modal(scene.alice, shown, {"n": "Friday"})
    submitted = fake.interactions[-1]
    assert submitted.type is InteractionType.MODAL_SUBMIT
    assert submitted.context == 2 and submitted.owners == {"1": str(scene.alice.id)}
