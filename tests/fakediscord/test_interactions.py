"""Interactions end to end: the real discord.py client against the fake, over HTTP and WebSocket.

Each test drives the sample bot (a /dvonn group much like dvonn-bot's) the way a user would and
checks what Discord would have shown, and what it would have refused.
"""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import (
    InteractionFailed,
    InvalidInvocation,
    MessageFlag,
    ResponseType,
)
from tests.fakediscord.conftest import Scene, call
from tests.fakediscord.harness import png_bytes, running
from tests.fakediscord.interactions import InteractionRecord, InteractionType
from tests.fakediscord.messages import MessageType, walk_components
from tests.fakediscord.sample_bot import BOARD_PNG, SampleBot


async def test_commands_are_synced_to_the_guild(scene: Scene, sample_bot: SampleBot) -> None:
    (dvonn, admin) = sorted(scene.fake.commands(scene.guild), key=lambda c: c.name)
    assert dvonn.name == "dvonn"
    move = next(o for o in dvonn.options if o["name"] == "move")
    assert [(o["name"], o.get("autocomplete")) for o in move["options"]] == [
        ("from", True),
        ("to", True),
    ]
    assert admin.default_member_permissions == int(discord.Permissions(manage_threads=True).value)
    assert scene.fake.commands() == []  # nothing global
    assert scene.fake.command_syncs[-1].accepted


async def test_slash_command_round_trip(scene: Scene, sample_bot: SampleBot) -> None:
    result = await scene.fake.run_command(
        scene.alice, scene.games, "dvonn move", {"from": "E3", "to": "F4"}
    )
    assert result.response_type is ResponseType.CHANNEL_MESSAGE
    assert result.content == f"E3→F4 by {scene.alice.id}"
    assert not result.ephemeral
    message = result.message
    assert message is not None and message is scene.fake.last_message(scene.games)
    assert message.type is MessageType.CHAT_INPUT_COMMAND
    assert result.latency is not None and result.latency < scene.fake.config.interaction_deadline
    # discord.py 2.7 asks for the callback response body and reads it.
    callback = next(r for r in scene.fake.requests if r.path.endswith("/callback"))
    assert callback.query == {"with_response": "1"}
    assert callback.body == {
        "type": 4,
        "data": {"tts": False, "content": f"E3→F4 by {scene.alice.id}"},
    }


async def test_what_a_user_cannot_send_is_refused_before_the_bot_sees_it(
    scene: Scene, sample_bot: SampleBot
) -> None:
    fake = scene.fake
    with pytest.raises(InvalidInvocation, match="required option"):
        await fake.run_command(scene.alice, scene.games, "dvonn move", {"from": "E3"})
    with pytest.raises(InvalidInvocation, match="is not registered"):
        await fake.run_command(scene.alice, scene.games, "chess move")
    with pytest.raises(InvalidInvocation, match="hidden"):
        await fake.run_command(scene.alice, scene.games, "dvonnadmin")
    assert fake.interactions == []
    done = await fake.run_command(scene.moderator, scene.games, "dvonnadmin")
    assert done.ephemeral and done.content == "aborted"


async def test_autocomplete_offers_choices_that_depend_on_other_options(
    scene: Scene, sample_bot: SampleBot
) -> None:
    fake = scene.fake
    origins = await fake.autocomplete(
        scene.alice, scene.games, "dvonn move", {"from": "e"}, focused="from"
    )
    assert [c.value for c in origins] == ["E1", "E2", "E3", "E4", "E5"]
    targets = await fake.autocomplete(
        scene.alice, scene.games, "dvonn move", {"from": "E3", "to": "F"}, focused="to"
    )
    assert [(c.name, c.value) for c in targets] == [("E3→F3", "F3"), ("E3→F4", "F4")]
    record = fake.interactions[-1]
    assert record.latency is not None and record.latency < 0.5


@pytest.mark.slow
async def test_more_than_25_choices_are_refused_as_on_discord(
    scene: Scene, sample_bot: SampleBot
) -> None:
    with pytest.raises(InteractionFailed, match="50035"):
        await scene.fake.autocomplete(scene.alice, scene.games, "dvonn noisy", focused="cell")


async def test_deferred_reply_with_png_in_embed(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    result = await fake.run_command(scene.alice, scene.games, "dvonn board")
    assert result.response_type is ResponseType.DEFERRED_CHANNEL_MESSAGE
    message = result.message
    assert message is not None and not message.loading
    # Editing the deferred reply fills in the "thinking..." message: no second message.
    assert fake.messages_in(scene.games) == [message]
    assert result.followups == []
    assert message.revisions[0].flags & MessageFlag.LOADING
    assert message.edited_at is None
    assert message.content == f"<@{scene.alice.id}> to move"
    (board,) = message.files
    assert board.filename == "board.png"
    assert board.data == BOARD_PNG
    assert message.embed_image() is board
    assert board.image_size() == (8, 5)
    assert message.allowed_mentions == {
        "parse": [],
        "users": [scene.alice.id],
        "replied_user": True,
    }
    # Edits never notify, and filling in a deferred reply is an edit (discord-api-docs#5497).
    assert message.pinged_user_ids == frozenset()
    # The bot sees the attachment URL in the embed, and it serves the bytes.
    fetched = await sample_bot.get_channel(scene.games.id).fetch_message(message.id)  # type: ignore[union-attr]
    assert fetched.embeds[0].image.url == board.url
    assert await fetched.attachments[0].read() == BOARD_PNG


async def test_challenge_pings_only_the_opponent(scene: Scene, sample_bot: SampleBot) -> None:
    result = await scene.fake.run_command(
        scene.alice, scene.games, "dvonn challenge", {"opponent": scene.bob}
    )
    message = result.message
    assert message is not None
    assert scene.alice.mention in message.content and scene.bob.mention in message.content
    assert message.pinged_user_ids == {scene.bob.id}
    assert message.pinged(scene.bob) and not message.pinged(scene.alice)
    assert [b["custom_id"] for b in message.buttons()] == ["dvonn:42:accept"]


async def test_buttons_route_to_a_restarted_client(scene: Scene) -> None:
    fake, guild = scene.fake, scene.guild
    async with running(SampleBot(guild_id=guild.id, generation=1), fake):
        challenge = await fake.run_command(
            scene.alice, scene.games, "dvonn challenge", {"opponent": scene.bob}
        )
    # A new process: a new client object, same fake Discord, no command sync.
    async with running(SampleBot(guild_id=guild.id, generation=2, sync=False), fake):
        assert challenge.message is not None
        stranger = await fake.click(scene.alice, challenge.message, "dvonn:42:accept")
        assert stranger.ephemeral
        assert stranger.content == "This is not your game."
        assert fake.visible_to(scene.bob, scene.games) == [challenge.message]
        accepted = await fake.click(scene.bob, challenge.message, label="Accept")
        assert accepted.response_type is ResponseType.UPDATE_MESSAGE
        assert accepted.content == "game 42: accept (client 2)"
        assert challenge.message.buttons() == []
        with pytest.raises(InvalidInvocation, match="no component"):
            await fake.click(scene.bob, challenge.message, "dvonn:42:accept")
    kinds = [e.kind for e in fake.gateway_events]
    assert kinds.count("identify") == 2 and "resume" not in kinds
    assert len(fake.command_syncs) == 1


async def test_select_menu_and_modal(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    menu = await fake.run_command(scene.alice, scene.games, "dvonn colour")
    assert menu.message is not None
    picked = await fake.select(scene.alice, menu.message, "colour", ["Black"])
    assert picked.response_type is ResponseType.UPDATE_MESSAGE
    assert menu.content == "you play Black"

    shown = await fake.run_command(scene.alice, scene.games, "dvonn name")
    assert shown.response_type is ResponseType.MODAL and shown.modal is not None
    assert shown.modal["title"] == "Name your game"
    text_input = next(c for c in walk_components(shown.modal["components"]) if c.get("type") == 4)
    submitted = await fake.submit_modal(
        scene.alice, shown, {text_input["custom_id"]: "Friday game"}
    )
    assert submitted.ephemeral and submitted.content == "named Friday game"


async def test_thread_created_from_the_reply(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    result = await fake.run_command(scene.alice, scene.games, "dvonn thread")
    assert result.message is not None
    thread = (await fake.wait_until(lambda: fake.threads_in(scene.games), what="a thread"))[0]
    assert thread.id == result.message.id  # a thread started from a message has its id
    assert result.message.thread_id == thread.id
    welcome = await fake.wait_for_message(thread)
    assert welcome.content == f"Welcome {scene.alice.mention}"
    assert welcome.pinged_user_ids == {scene.alice.id}
    assert thread.member_ids == {fake.bot.id, scene.alice.id}
    # discord.py learned about the thread from THREAD_CREATE.
    assert sample_bot.get_channel(thread.id) is not None


async def test_no_thread_where_the_bot_may_not_create_one(
    scene: Scene, sample_bot: SampleBot
) -> None:
    fake = scene.fake
    assert (
        not scene.guild.permissions_for(fake.bot.id, scene.no_threads)
        & discord.Permissions(create_public_threads=True).value
    )
    result = await fake.run_command(scene.alice, scene.no_threads, "dvonn thread")
    (followup,) = await result.wait_for_followups()
    assert followup.ephemeral and followup.content == "I may not create threads here."
    refused = [r for r in fake.requests if r.path.endswith("/threads")]
    assert [(r.status, r.error_code) for r in refused] == [(403, 50013)]
    assert fake.threads_in(scene.no_threads) == []


@pytest.mark.slow
async def test_late_response_fails_with_unknown_interaction(
    scene: Scene, sample_bot: SampleBot
) -> None:
    fake = scene.fake
    fake.config.interaction_deadline = 0.2
    result = await fake.run_command(
        scene.alice, scene.games, "dvonn slow", {"seconds": 0.4}, allow_no_response=True
    )
    assert result.timed_out and not result.responded
    await fake.wait_until(lambda: result.rejected, what="the late callback")
    (late,) = result.rejected
    assert (late.status, late.code, late.message) == (404, 10062, "Unknown interaction")
    assert late.seconds_after_creation > 0.2
    await fake.wait_until(lambda: sample_bot.errors, what="the bot to see the error")
    assert isinstance(sample_bot.errors[0], app_commands.CommandInvokeError)
    assert isinstance(sample_bot.errors[0].original, discord.NotFound)
    with pytest.raises(InteractionFailed, match="did not respond"):
        result.require_response()


async def test_followups_stop_working_after_15_minutes(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    result = await fake.run_command(scene.alice, scene.games, "dvonn later", settle=False)
    assert result.deferred and result.message is not None and result.message.loading
    fake.advance_time(15 * 60 + 1)
    sample_bot.proceed.set()
    await fake.wait_until(lambda: sample_bot.errors, what="the bot to see the error")
    original = sample_bot.errors[0]
    assert isinstance(original, app_commands.CommandInvokeError)
    assert isinstance(original.original, discord.HTTPException)
    assert (original.original.status, original.original.code) == (401, 50027)
    assert result.message.loading  # the user is left with "thinking..."


async def test_direct_messages(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    sent = await fake.run_command(scene.alice, scene.games, "dvonn remind")
    assert sent.content == "Sent you a DM."
    (dm,) = fake.dms_to(scene.alice)
    assert dm.content == "Your move in game 42"
    assert dm.guild_id is None
    closed = fake.add_user("hermit", scene.guild, accepts_dms=False)
    refused = await fake.run_command(closed, scene.games, "dvonn remind")
    assert refused.content == "I cannot DM you."
    assert fake.dms_to(closed) == []


async def test_files_replaced_on_edit_only_with_attachments(
    scene: Scene, sample_bot: SampleBot
) -> None:
    channel = sample_bot.get_channel(scene.games.id)
    assert isinstance(channel, discord.TextChannel)
    first, second, third = png_bytes(1, 1), png_bytes(2, 2), png_bytes(3, 3)
    sent = await channel.send(
        "boards",
        files=[discord.File(io.BytesIO(first), "a.png"), discord.File(io.BytesIO(second), "b.png")],
    )
    recorded = scene.fake.message(sent.id)
    assert [(f.filename, f.data) for f in recorded.files] == [("a.png", first), ("b.png", second)]
    await sent.edit(
        content="only the new board", attachments=[discord.File(io.BytesIO(third), "c.png")]
    )
    assert [(f.filename, f.data) for f in recorded.files] == [("c.png", third)]
    assert recorded.revisions[0].content == "boards" and recorded.edited_at is not None
    await sent.edit(content="text only")
    assert [f.filename for f in recorded.files] == ["c.png"]


async def test_sync_failure_reaches_discord_py_readably(
    scene: Scene, sample_bot: SampleBot
) -> None:
    group = sample_bot.tree.get_command("dvonn", guild=discord.Object(scene.guild.id))
    assert isinstance(group, app_commands.Group)
    move = group.get_command("move")
    assert isinstance(move, app_commands.Command)
    move.description = "d" * 101  # past discord.py's own checks, as a hand-built payload could be
    with pytest.raises(app_commands.CommandSyncFailure) as failure:
        await sample_bot.tree.sync(guild=discord.Object(scene.guild.id))
    assert "In command 'dvonn move'" in str(failure.value)
    assert "Must be between 1 and 100 in length." in str(failure.value)
    assert not scene.fake.command_syncs[-1].accepted
    assert len(scene.fake.commands(scene.guild)) == 2  # the last good sync stays


async def test_raw_http_errors_are_discord_shaped(scene: Scene, sample_bot: SampleBot) -> None:
    fake = scene.fake
    bad = {"name": "Bad Name", "description": "x", "type": 1}
    with pytest.raises(discord.HTTPException) as caught:
        await sample_bot.http.bulk_upsert_guild_commands(
            fake.application_id, scene.guild.id, payload=[bad]
        )
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "Command name is invalid" in caught.value.text
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.api_base}/users/@me") as response:
            assert response.status == 401
            assert await response.json() == {"message": "401: Unauthorized", "code": 0}
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(
            f"{fake.api_base}/guilds/{scene.guild.id}/bans", headers=headers
        ) as response:
            assert response.status == 404
    assert [r.path for r in fake.unknown_routes] == [f"/api/v10/guilds/{scene.guild.id}/bans"]
    fake.world.unknown_routes.clear()  # expected here; the fixture fails a test on unknown routes


async def test_alt_text_and_select_options_past_discords_limits_are_refused(
    scene: Scene, sample_bot: SampleBot
) -> None:
    channel = sample_bot.get_channel(scene.games.id)
    assert isinstance(channel, discord.TextChannel)
    picture = discord.File(io.BytesIO(png_bytes(1, 1)), "a.png", description="d" * 1025)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("a board", file=picture)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "In attachments.0.description: Must be 1024 or fewer in length." in str(caught.value)

    view = discord.ui.View()
    view.add_item(
        discord.ui.Select(
            custom_id="pick",
            placeholder="p" * 151,
            options=[discord.SelectOption(label="l" * 101, value="E3", description="d" * 101)],
        )
    )
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("a picker", view=view)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    said = str(caught.value)
    assert "In components.0.components.0.placeholder: Must be 150 or fewer" in said, said
    assert "components.0.components.0.options.0.label: Must be between 1 and 100" in said
    assert "components.0.components.0.options.0.description: Must be 100 or fewer" in said
    assert scene.fake.messages_in(scene.games) == []  # nothing refused was posted


# --- finishing a deferred reply ------------------------------------------------------------------


def _command(scene: Scene) -> InteractionRecord:
    """A command interaction of alice's in the games channel (no bot needs to be connected)."""
    return scene.fake.desk.start(
        kind=InteractionType.APPLICATION_COMMAND,
        user=scene.alice,
        channel=scene.games,
        data={"id": "1", "name": "dvonn", "type": 1, "options": []},
        label="/dvonn",
    )


async def test_a_followup_filling_in_a_deferred_reply_is_public_and_noted_as_deprecated(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    record = _command(scene)
    await call(http, "POST", f"interactions/{record.id}/{record.token}/callback", {"type": 5})
    hook = f"webhooks/{fake.application_id}/{record.token}"
    status, _ = await call(http, "POST", hook, {"content": "psst", "flags": 64})
    assert status == 200
    # Discord fills in the "thinking…" message, as public as the defer made it.
    (reply,) = fake.messages_in(scene.games)
    assert reply.id == record.original_message_id and reply.content == "psst"
    assert not reply.ephemeral and not reply.loading and record.followup_ids == []
    assert [(c.method, c.path, c.label) for c in fake.deprecated_calls] == [
        ("POST", f"/api/v10/{hook}", "/dvonn")
    ]
    fake.world.deprecated.clear()  # expected here; the fixture fails a test on deprecated calls


async def test_a_deferred_reply_is_filled_in_by_editing_it_or_replaced_by_a_private_followup(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    edited, deleted = _command(scene), _command(scene)
    for record in (edited, deleted):
        await call(http, "POST", f"interactions/{record.id}/{record.token}/callback", {"type": 5})
    hook = f"webhooks/{fake.application_id}/{edited.token}"
    status, _ = await call(http, "PATCH", f"{hook}/messages/@original", {"content": "board"})
    assert status == 200
    assert fake.message(edited.original_message_id or 0).content == "board"
    # Once the public "thinking…" is deleted, a followup is a message of its own: private.
    hook = f"webhooks/{fake.application_id}/{deleted.token}"
    status, _ = await call(http, "DELETE", f"{hook}/messages/@original")
    assert status == 204
    status, body = await call(http, "POST", hook, {"content": "psst", "flags": 64})
    assert status == 200 and deleted.followup_ids == [int(body["id"])]
    assert [m.content for m in fake.visible_to(scene.alice, scene.games)] == ["board", "psst"]
    assert [m.content for m in fake.visible_to(scene.bob, scene.games)] == ["board"]
    assert fake.deprecated_calls == []
