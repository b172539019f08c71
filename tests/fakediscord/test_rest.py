"""The REST API's refusals, with plain HTTP (no discord.py): what Discord answers to mistakes a
bot can make that discord.py itself would not let a test provoke."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import (
    InteractionRecord,
    InteractionType,
    Permission,
    ResponseType,
)
from tests.fakediscord.conftest import Scene, call
from tests.fakediscord.harness import png_bytes
from tests.fakediscord.messages import NONCE_WINDOW

Json = dict[str, Any]


def command(
    scene: Scene, kind: InteractionType = InteractionType.APPLICATION_COMMAND
) -> InteractionRecord:
    """An interaction as if a user ran a command (no bot needs to be connected)."""
    return scene.fake.desk.start(
        kind=kind,
        user=scene.alice,
        channel=scene.games,
        data={"id": "1", "name": "dvonn", "type": 1, "options": []},
        label="/dvonn",
    )


def callback_path(record: InteractionRecord) -> str:
    return f"interactions/{record.id}/{record.token}/callback?with_response=true"


async def test_an_interaction_is_answered_once(scene: Scene, http: aiohttp.ClientSession) -> None:
    record = command(scene)
    status, body = await call(
        http, "POST", callback_path(record), {"type": 4, "data": {"content": "hi"}}
    )
    assert status == 200
    assert body["interaction"]["response_message_ephemeral"] is False
    assert body["resource"]["message"]["content"] == "hi"
    status, body = await call(
        http, "POST", callback_path(record), {"type": 4, "data": {"content": "again"}}
    )
    assert (status, body["code"]) == (400, 40060)
    assert [r.code for r in record.rejected] == [40060]


async def test_without_with_response_the_callback_is_204(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    record = command(scene)
    status, body = await call(
        http, "POST", f"interactions/{record.id}/{record.token}/callback", {"type": 5}
    )
    assert (status, body) == (204, None)


@pytest.mark.parametrize(
    ("kind", "response", "path"),
    [
        (InteractionType.APPLICATION_COMMAND, {"type": 8, "data": {"choices": []}}, "type"),
        (InteractionType.APPLICATION_COMMAND, {"type": 7, "data": {"content": "x"}}, "type"),
        (
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            {"type": 4, "data": {"content": "x"}},
            "type",
        ),
        (InteractionType.APPLICATION_COMMAND, {"type": 5, "data": {"flags": 4}}, "data.flags"),
        (
            InteractionType.APPLICATION_COMMAND,
            {"type": 9, "data": {"custom_id": "m", "title": "t" * 46, "components": [{}]}},
            "data.title",
        ),
        (
            InteractionType.APPLICATION_COMMAND,
            {"type": 4, "data": {"content": "x" * 2001}},
            "content",
        ),
        (
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}},
            "data.choices.0.value",
        ),
    ],
)
async def test_invalid_responses_are_400s_and_leave_the_interaction_open(
    scene: Scene, http: aiohttp.ClientSession, kind: InteractionType, response: Json, path: str
) -> None:
    record = command(scene, kind)
    status, body = await call(http, "POST", callback_path(record), response)
    assert (status, body["code"]) == (400, 50035)
    tree = body["errors"]
    for key in path.split("."):
        tree = tree[key]
    assert "_errors" in tree
    assert record.response_type is None


async def test_an_empty_reply_is_refused(scene: Scene, http: aiohttp.ClientSession) -> None:
    record = command(scene)
    status, body = await call(
        http, "POST", callback_path(record), {"type": 4, "data": {"content": ""}}
    )
    assert (status, body["code"]) == (400, 50006)


async def test_followups_need_an_answered_interaction_and_a_live_token(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake = scene.fake
    record = command(scene)
    webhook = f"webhooks/{fake.application_id}/{record.token}"
    status, body = await call(http, "POST", webhook, {"content": "too early"})
    assert (status, body["code"]) == (404, 10015)
    await call(http, "POST", callback_path(record), {"type": 5, "data": {"flags": 64}})
    # Editing the deferred reply fills it in, ephemeral as the defer was.
    status, body = await call(http, "PATCH", f"{webhook}/messages/@original", {"content": "result"})
    assert status == 200 and body["flags"] == 64 and body["id"] == str(record.original_message_id)
    status, body = await call(http, "POST", webhook, {"content": "more", "flags": 64})
    assert status == 200 and body["id"] != str(record.original_message_id)
    status, body = await call(http, "GET", f"{webhook}/messages/{body['id']}")
    assert (status, body["content"]) == (200, "more")
    status, body = await call(http, "GET", f"{webhook}/messages/123")
    assert (status, body["code"]) == (404, 10008)
    status, body = await call(
        http, "POST", f"webhooks/{fake.application_id + 1}/{record.token}", {"content": "x"}
    )
    assert (status, body["code"]) == (404, 10015)
    fake.advance_time(15 * 60 + 1)
    status, body = await call(http, "PATCH", f"{webhook}/messages/@original", {"content": "late"})
    assert (status, body["code"]) == (401, 50027)


async def test_unknown_interactions_and_tokens(scene: Scene, http: aiohttp.ClientSession) -> None:
    record = command(scene)
    status, body = await call(http, "POST", f"interactions/{record.id}/wrong/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062)
    status, body = await call(
        http, "POST", f"webhooks/{scene.fake.application_id}/wrong", {"content": "x"}
    )
    assert (status, body["code"]) == (401, 50027)


async def test_channel_messages_follow_permissions(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    fake, guild = scene.fake, scene.guild
    silent = guild.add_text_channel("announcements", deny_bot=Permission.SEND_MESSAGES)
    hidden = guild.add_text_channel("staff", deny_bot=Permission.VIEW_CHANNEL)
    assert (await call(http, "POST", f"channels/{silent.id}/messages", {"content": "x"}))[1][
        "code"
    ] == 50013
    assert (await call(http, "POST", f"channels/{hidden.id}/messages", {"content": "x"}))[1][
        "code"
    ] == 50001
    assert (await call(http, "POST", "channels/1/messages", {"content": "x"}))[1]["code"] == 10003
    status, body = await call(
        http, "POST", f"channels/{scene.games.id}/messages", {"content": "ok"}
    )
    assert status == 200 and fake.message(int(body["id"])).content == "ok"
    # An edit may not leave the message empty.
    edit = f"channels/{scene.games.id}/messages/{body['id']}"
    assert (await call(http, "PATCH", edit, {"content": ""}))[1]["code"] == 50006
    # A public thread without a message: Discord notes it in the channel.
    thread = {"name": "t", "type": 11}
    assert (await call(http, "POST", f"channels/{scene.games.id}/threads", thread))[0] == 201
    assert fake.messages_in(scene.games)[-1].type == 18  # THREAD_CREATED


async def test_files_over_the_upload_limit_are_refused(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    scene.fake.config.upload_limit = 100
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json",
        json.dumps({"content": "big", "attachments": [{"id": 0, "filename": "big.png"}]}),
    )
    form.add_field("files[0]", png_bytes(50, 50), filename="big.png", content_type="image/png")
    async with http.post(f"channels/{scene.games.id}/messages", data=form) as response:
        assert response.status == 413
        assert (await response.json())["code"] == 40005


async def test_a_thread_per_message_and_thread_names(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    _, posted = await call(http, "POST", f"channels/{scene.games.id}/messages", {"content": "game"})
    threads = f"channels/{scene.games.id}/messages/{posted['id']}/threads"
    status, body = await call(http, "POST", threads, {"name": "", "auto_archive_duration": 1440})
    assert (status, body["code"]) == (400, 50035)
    status, body = await call(
        http, "POST", threads, {"name": "game", "auto_archive_duration": 1440}
    )
    assert status == 201 and body["id"] == posted["id"] and body["type"] == 11
    status, body = await call(
        http, "POST", threads, {"name": "again", "auto_archive_duration": 1440}
    )
    assert (status, body["code"]) == (400, 160004)
    status, body = await call(http, "POST", f"channels/{posted['id']}/threads", {"name": "nested"})
    assert (status, body["code"]) == (400, 50024)
    status, body = await call(http, "PATCH", f"channels/{posted['id']}", {"archived": True})
    assert status == 200 and body["thread_metadata"]["archived"] is True
    status, body = await call(http, "PUT", f"channels/{posted['id']}/thread-members/{scene.bob.id}")
    assert (status, body["code"]) == (400, 50083)


async def test_the_callback_answer_for_each_response_type(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    deferred = command(scene)
    _, body = await call(http, "POST", callback_path(deferred), {"type": 5})
    assert body["interaction"]["response_message_loading"] is True
    assert "resource" not in body  # documented: a message resource only for types 4 and 7
    assert deferred.response_type is ResponseType.DEFERRED_CHANNEL_MESSAGE
    autocomplete = command(scene, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE)
    _, body = await call(
        http,
        "POST",
        callback_path(autocomplete),
        {"type": 8, "data": {"choices": [{"name": "A1", "value": "A1"}]}},
    )
    assert body == {"interaction": {"id": str(autocomplete.id), "type": 4}}
    assert autocomplete.choices is not None and autocomplete.choices[0].value == "A1"


async def test_command_creates_are_limited_per_day(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    scene.fake.config.daily_command_creates = 2
    path = f"applications/{scene.fake.application_id}/guilds/{scene.guild.id}/commands"
    first = [{"name": "dvonn", "description": "Play"}, {"name": "rules", "description": "Read"}]
    status, body = await call(http, "PUT", path, first)
    assert status == 200 and [c["name"] for c in body] == ["dvonn", "rules"]
    # Updating commands that exist creates nothing; ids stay the same.
    again = [dict(c, description="Changed") for c in first]
    status, updated = await call(http, "PUT", path, again)
    assert status == 200 and [c["id"] for c in updated] == [c["id"] for c in body]
    status, body = await call(http, "PUT", path, [*first, {"name": "help", "description": "?"}])
    assert (status, body["code"]) == (429, 30034)
    assert [c.name for c in scene.fake.commands(scene.guild)] == ["dvonn", "rules"]


async def test_a_rate_limit_answers_429_as_discord_does(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    world = scene.fake.world
    world.rate_limit("POST", rf"/channels/{scene.games.id}/messages$", retry_after=0.5)
    path = f"channels/{scene.games.id}/messages"
    async with http.post(path, json={"content": "hi"}) as refused:
        assert refused.status == 429
        assert refused.headers["Via"] and refused.headers["X-RateLimit-Remaining"] == "0"
        assert refused.headers["X-RateLimit-Scope"] == "shared"
        assert await refused.json() == {
            "message": "The resource is being rate limited.",
            "retry_after": 0.5,
            "global": False,
        }
    assert not any(m.content == "hi" for m in scene.fake.messages_in(scene.games))
    status, _ = await call(http, "POST", path, {"content": "hi"})  # the limit was used up
    assert status == 200
    assert [r.status for r in world.requests if r.path.endswith(path)] == [429, 200]


# --- message nonces ------------------------------------------------------------------------------


async def test_the_same_nonce_returns_the_message_already_made(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    path = f"channels/{scene.games.id}/messages"
    body = {"content": "the board", "nonce": "dvonn-7", "enforce_nonce": True}
    status, first = await call(http, "POST", path, body)
    assert status == 200 and first["nonce"] == "dvonn-7"
    status, again = await call(http, "POST", path, body | {"content": "a second try"})
    assert status == 200 and again["id"] == first["id"] and again["content"] == "the board"
    assert len(scene.fake.messages_in(scene.games)) == 1 and scene.fake.world.nonce_hits == 1
    # Without enforce_nonce, or with another nonce, a new message is made.
    assert (await call(http, "POST", path, body | {"enforce_nonce": False}))[1]["id"] != first["id"]
    assert (await call(http, "POST", path, body | {"nonce": "dvonn-8"}))[1]["id"] != first["id"]


async def test_a_nonce_is_remembered_for_a_few_minutes_only(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    path = f"channels/{scene.games.id}/messages"
    body = {"content": "x", "nonce": 12345, "enforce_nonce": True}
    first = (await call(http, "POST", path, body))[1]
    scene.fake.advance_time(NONCE_WINDOW.total_seconds() + 1)
    later = (await call(http, "POST", path, body))[1]
    assert later["id"] != first["id"]


async def test_a_nonce_of_a_deleted_message_is_unknown_message(
    scene: Scene, http: aiohttp.ClientSession
) -> None:
    path = f"channels/{scene.games.id}/messages"
    body = {"content": "x", "nonce": "dvonn-9", "enforce_nonce": True}
    first = (await call(http, "POST", path, body))[1]
    assert (await call(http, "DELETE", f"{path}/{first['id']}"))[0] == 204
    status, error = await call(http, "POST", path, body)
    assert (status, error["code"]) == (404, 10008)


async def test_a_nonce_is_at_most_25_characters(scene: Scene, http: aiohttp.ClientSession) -> None:
    path = f"channels/{scene.games.id}/messages"
    status, error = await call(http, "POST", path, {"content": "x", "nonce": "n" * 26})
    assert (status, error["code"]) == (400, 50035)
