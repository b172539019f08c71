"""The fake's REST API (v10): routes, request parsing and Discord-shaped responses.

Each handler parses its request and calls one :class:`~tests.fakediscord.world.World` method.
A middleware checks the bot token, turns :class:`DiscordError` into Discord's JSON error body,
records every call, and answers routes the fake does not know with a loud 404 that is recorded
in ``world.unknown_routes``, so a missing piece shows up in the tests instead of being guessed.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakediscord import errors
from tests.fakediscord.errors import DiscordError
from tests.fakediscord.ratelimits import Call, Refusal, Scope, refusal_headers
from tests.fakediscord.responses import InteractionDesk
from tests.fakediscord.world import RateLimit, RecordedRequest, Upload, World

API_PREFIX = "/api/v10"
Json = dict[str, Any]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_FILE_FIELD = re.compile(r"files\[(\d+)\]")
# Interaction callbacks and webhooks are authorised by their token in the URL, not a bot token.
_TOKEN_AUTHORISED = (f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")


@dataclass(frozen=True, slots=True)
class Body:
    """A request body: the JSON payload (``payload_json`` for multipart) and uploaded files."""

    json: Any
    uploads: list[Upload]

    @property
    def obj(self) -> Json:
        return self.json if isinstance(self.json, dict) else {}


async def read_body(request: web.Request) -> Body:
    """Parse JSON, or multipart/form-data with ``payload_json`` and ``files[n]`` parts."""
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue  # nested multipart: Discord does not use it
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif (match := _FILE_FIELD.fullmatch(name)) is not None:
                data = bytes(await part.read(decode=False))
                content_type = part.headers.get("Content-Type")
                uploads.append(
                    Upload(int(match[1]), part.filename or f"file{match[1]}", content_type, data)
                )
            else:
                raise errors.field_error(name, "UNKNOWN_FIELD", f"Unexpected form field {name!r}")
        body = Body(payload, uploads)
    else:
        raw = await request.read()
        body = Body(json.loads(raw) if raw else None, [])
    request[PARSED_BODY] = body
    return body


PARSED_BODY = web.RequestKey("parsed_body", Body)


def rate_limited(refusal: Refusal) -> web.Response:
    """Discord's 429: the body says how long to wait; ``Via`` tells discord.py it came from
    Discord and not from Cloudflare (which it treats as a ban, and does not retry)."""
    response = json_response(refusal.body(), status=429)
    response.headers.update(refusal.headers)
    return response


def injected_refusal(limit: RateLimit) -> Refusal:
    """The 429 a test asked for (:meth:`World.rate_limit`): shared, or global."""
    scope: Scope = "global" if limit.is_global else "shared"
    route = {
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": f"{limit.retry_after:.3f}",
        "X-RateLimit-Bucket": "fake-bucket",
    }
    headers = refusal_headers(scope, limit.retry_after, {} if limit.is_global else route)
    return Refusal(scope, limit.retry_after, headers)


CLOUDFLARE_BAN_PAGE = """<!DOCTYPE html>
<html lang="en-US">
<head><title>Access denied | discord.com used Cloudflare to restrict access</title></head>
<body>
<h1>Error 1015</h1>
<h2>You are being rate limited</h2>
<p>The owner of this website (discord.com) has banned you temporarily from accessing this
website.</p>
</body>
</html>
"""


def cloudflare_ban() -> web.Response:
    """What a banned IP gets from Cloudflare, in front of Discord: a 429 with an HTML page
    (error 1015), no JSON, no ``Via``, no rate limit headers."""
    return web.Response(
        text=CLOUDFLARE_BAN_PAGE,
        status=429,
        content_type="text/html",
        headers={"Server": "cloudflare", "CF-RAY": f"{secrets.token_hex(8)}-FRA"},
    )


def classify(request: web.Request) -> Call | None:
    """The call's route (``METHOD /template``) and top-level resource; ``None`` off the API."""
    if not request.path.startswith(API_PREFIX):
        return None
    info = request.match_info
    resource = info.route.resource
    template = resource.canonical if resource is not None else request.path
    route = f"{request.method} {template.removeprefix(API_PREFIX)}"
    for key in ("channel_id", "guild_id"):
        if key in info:
            return Call(route, info[key])
    if "token" in info:
        owner = info.get("app_id") or info.get("interaction_id") or ""
        return Call(route, f"{owner}+{info['token']}")
    return Call(route, "")


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json", no charset: discord.py only parses JSON with that header.
    body = json.dumps(data, separators=(",", ":")).encode()
    return web.Response(body=body, status=status, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    return web.Response(status=204)


def snowflake(request: web.Request, key: str) -> int:
    value = request.match_info[key]
    if not value.isdigit():
        raise errors.field_error(key, "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
    return int(value)


class RestApi:
    """Route table and handlers."""

    def __init__(
        self,
        world: World,
        desk: InteractionDesk,
        *,
        gateway_url: Callable[[], str],
        shard_count: Callable[[], int],
    ) -> None:
        self.world = world
        self.desk = desk
        self._gateway_url = gateway_url
        self._shard_count = shard_count

    def routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        return [
            web.get(f"{p}/users/@me", self.get_me),
            web.get(f"{p}/users/{{user_id}}", self.get_user),
            web.post(f"{p}/users/@me/channels", self.create_dm),
            web.get(f"{p}/oauth2/applications/@me", self.get_application),
            web.get(f"{p}/applications/@me", self.get_application),
            web.get(f"{p}/gateway", self.get_gateway),
            web.get(f"{p}/gateway/bot", self.get_gateway_bot),
            # Application commands, global and per guild.
            web.get(f"{p}/applications/{{app_id}}/commands", self.list_commands),
            web.put(f"{p}/applications/{{app_id}}/commands", self.overwrite_commands),
            web.post(f"{p}/applications/{{app_id}}/commands", self.upsert_command),
            web.get(f"{p}/applications/{{app_id}}/commands/{{command_id}}", self.get_command),
            web.delete(f"{p}/applications/{{app_id}}/commands/{{command_id}}", self.delete_command),
            web.get(
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.list_commands
            ),
            web.put(
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.overwrite_commands
            ),
            web.post(
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands", self.upsert_command
            ),
            web.get(
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands/{{command_id}}",
                self.get_command,
            ),
            web.delete(
                f"{p}/applications/{{app_id}}/guilds/{{guild_id}}/commands/{{command_id}}",
                self.delete_command,
            ),
            # Interactions.
            web.post(
                f"{p}/interactions/{{interaction_id}}/{{token}}/callback", self.interaction_callback
            ),
            web.post(f"{p}/webhooks/{{app_id}}/{{token}}", self.followup),
            web.get(
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.get_webhook_message,
            ),
            web.patch(
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.edit_webhook_message,
            ),
            web.delete(
                f"{p}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}",
                self.delete_webhook_message,
            ),
            # Guilds and channels.
            web.get(f"{p}/guilds/{{guild_id}}", self.get_guild),
            web.get(f"{p}/guilds/{{guild_id}}/channels", self.get_guild_channels),
            web.get(f"{p}/guilds/{{guild_id}}/members/{{user_id}}", self.get_member),
            web.get(f"{p}/channels/{{channel_id}}", self.get_channel),
            web.patch(f"{p}/channels/{{channel_id}}", self.modify_channel),
            web.post(f"{p}/channels/{{channel_id}}/typing", self.typing),
            web.get(f"{p}/channels/{{channel_id}}/messages", self.list_messages),
            web.post(f"{p}/channels/{{channel_id}}/messages", self.create_message),
            web.get(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self.get_message),
            web.patch(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self.edit_message),
            web.delete(f"{p}/channels/{{channel_id}}/messages/{{message_id}}", self.delete_message),
            web.post(
                f"{p}/channels/{{channel_id}}/messages/{{message_id}}/threads",
                self.thread_from_message,
            ),
            web.post(f"{p}/channels/{{channel_id}}/threads", self.thread_without_message),
            web.put(
                f"{p}/channels/{{channel_id}}/thread-members/{{user_id}}", self.add_thread_member
            ),
            web.delete(
                f"{p}/channels/{{channel_id}}/thread-members/{{user_id}}", self.remove_thread_member
            ),
            web.get(
                f"{p}/channels/{{channel_id}}/thread-members/{{user_id}}", self.get_thread_member
            ),
            # Where attachment URLs point, so Attachment.read() works.
            web.get("/attachments/{channel_id}/{file_id}/{filename}", self.get_attachment),
        ]

    # -- middleware -------------------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/gateway"):
            return await handler(request)
        status, code, scope = 500, None, None
        arrived = self.world.clock.now()
        call = classify(request)
        limiter = self.world.limiter
        headers: Mapping[str, str] = {}
        try:
            if call is not None:
                limiter.count(call)
                if limiter.banned():  # Cloudflare answers; Discord never sees the call
                    status, scope = 429, "ban"
                    self.world.traffic.banned += 1
                    return cloudflare_ban()
            needs_token = request.path.startswith(API_PREFIX) and not request.path.startswith(
                _TOKEN_AUTHORISED
            )
            if needs_token and request.headers.get("Authorization") != f"Bot {self.world.token}":
                raise errors.unauthorized()
            limit = self.world.take_rate_limit(request.method, request.path)
            if limit is not None:
                refusal = injected_refusal(limit)
                route = call.route if call is not None else f"{request.method} {request.path}"
                self.world.traffic.refused(refusal.scope, route)
                status, scope = 429, refusal.scope
                return rate_limited(refusal)
            if call is not None:
                admission = limiter.admit(call)
                if admission.refusal is not None:
                    status, scope = 429, admission.refusal.scope
                    return rate_limited(admission.refusal)
                headers = admission.headers
            hold = self.world.take_hold(request.method, request.path)
            response = await handler(request)
            response.headers.update(headers)
            status = response.status
            if hold is not None:  # done, but the caller hears of it only once released
                hold.entered.set()
                self.world.changed()
                await hold.released.wait()
            return response
        except DiscordError as error:
            status, code = error.status, error.code
            response = json_response(error.body(), status=error.status)
            response.headers.update(headers)
            return response
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            # The router has no such route: Discord might, the fake does not (yet).
            status, code = 404, 0
            self.world.unknown_routes.append(self._record(request, 404, 0, arrived))
            return json_response(errors.not_found().body(), status=404)
        finally:
            if call is not None:
                limiter.answered(status, scope)
            self.world.requests.append(self._record(request, status, code, arrived, scope))
            self.world.changed()

    def _record(
        self,
        request: web.Request,
        status: int,
        code: int | None,
        arrived: float,
        scope: str | None = None,
    ) -> RecordedRequest:
        body = request.get(PARSED_BODY)
        return RecordedRequest(
            method=request.method,
            path=request.path,
            query=dict(request.query),
            body=None if body is None else body.json,
            file_names=() if body is None else tuple(u.filename for u in body.uploads),
            status=status,
            error_code=code,
            at=arrived,
            scope=scope,
        )

    # -- users, application, gateway --------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(self.world.current_user_payload())

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self.world.user(snowflake(request, "user_id")).to_payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.world.application_payload())

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self._gateway_url()})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self._gateway_url(),
                "shards": self._shard_count(),
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    async def create_dm(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        recipient = body.obj.get("recipient_id")
        if recipient is None or not str(recipient).isdigit():
            raise errors.invalid_recipients()
        return json_response(self.world.channel_payload(self.world.open_dm(int(recipient))))

    # -- commands ---------------------------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        guild = snowflake(request, "guild_id") if "guild_id" in request.match_info else None
        return self.world.command_scope(snowflake(request, "app_id"), guild)

    async def list_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        return json_response([c.to_payload() for c in self.world.registry.commands(scope)])

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = await read_body(request)
        commands = self.world.overwrite_commands(scope, body.json)
        return json_response([c.to_payload() for c in commands])

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = await read_body(request)
        return json_response(self.world.upsert_command(scope, body.json).to_payload(), status=201)

    async def get_command(self, request: web.Request) -> web.Response:
        command = self.world.registry.get(self._scope(request), snowflake(request, "command_id"))
        if command is None:
            raise errors.unknown_command()
        return json_response(command.to_payload())

    async def delete_command(self, request: web.Request) -> web.Response:
        if not self.world.registry.delete(self._scope(request), snowflake(request, "command_id")):
            raise errors.unknown_command()
        return no_content()

    # -- interactions -----------------------------------------------------------------------------

    async def interaction_callback(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        record, message = self.desk.callback(
            snowflake(request, "interaction_id"),
            request.match_info["token"],
            body.obj,
            body.uploads,
            path=request.path,
        )
        if request.query.get("with_response", "").lower() in ("1", "true"):
            return json_response(self.desk.callback_response(record, message))
        return no_content()

    async def followup(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        app_id, token = snowflake(request, "app_id"), request.match_info["token"]
        message = self.desk.followup(app_id, token, body.obj, body.uploads, path=request.path)
        return json_response(self.world.message_payload(message))

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        app_id, token = snowflake(request, "app_id"), request.match_info["token"]
        ref = request.match_info["message_id"]
        _, message = self.desk.webhook_message(app_id, token, ref, method="GET", path=request.path)
        return json_response(self.world.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        app_id, token = snowflake(request, "app_id"), request.match_info["token"]
        ref = request.match_info["message_id"]
        message = self.desk.edit_webhook_message(
            app_id, token, ref, body.obj, body.uploads, path=request.path
        )
        return json_response(self.world.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        app_id, token = snowflake(request, "app_id"), request.match_info["token"]
        ref = request.match_info["message_id"]
        self.desk.delete_webhook_message(app_id, token, ref, path=request.path)
        return no_content()

    # -- guilds and channels ----------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise errors.unknown_guild()
        payload = self.world.guild_payload(guild)
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "joined_at",
            "large",
            "member_count",
        ):
            payload.pop(key, None)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise errors.unknown_guild()
        return json_response([self.world.channel_payload(c) for c in guild.channels])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.world.guilds.get(snowflake(request, "guild_id"))
        if guild is None:
            raise errors.unknown_guild()
        member = guild.member(snowflake(request, "user_id"))
        if member is None:
            raise errors.unknown_member()
        return json_response(member.to_payload())

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.world.bot_channel(snowflake(request, "channel_id"))
        if not channel.is_bot_dm and not self.world.bot_permissions(channel):
            raise errors.missing_access()
        return json_response(self.world.channel_payload(channel))

    async def modify_channel(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        channel = self.world.modify_channel(snowflake(request, "channel_id"), body.obj)
        return json_response(self.world.channel_payload(channel))

    async def typing(self, request: web.Request) -> web.Response:
        self.world.bot_channel(snowflake(request, "channel_id"))
        return no_content()

    async def list_messages(self, request: web.Request) -> web.Response:
        def opt(key: str) -> int | None:
            value = request.query.get(key)
            return int(value) if value and value.isdigit() else None

        found = self.world.history(
            snowflake(request, "channel_id"),
            limit=opt("limit") or 50,
            before=opt("before"),
            after=opt("after"),
        )
        return json_response([self.world.message_payload(m) for m in found])

    async def create_message(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        message = self.world.post_channel_message(
            snowflake(request, "channel_id"), body.obj, body.uploads
        )
        return json_response(self.world.message_payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        message = self.world.channel_message(
            snowflake(request, "channel_id"), snowflake(request, "message_id")
        )
        return json_response(self.world.message_payload(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        message = self.world.edit_channel_message(
            snowflake(request, "channel_id"),
            snowflake(request, "message_id"),
            body.obj,
            body.uploads,
        )
        return json_response(self.world.message_payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        self.world.delete_channel_message(
            snowflake(request, "channel_id"), snowflake(request, "message_id")
        )
        return no_content()

    async def thread_from_message(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        thread = self.world.start_thread(
            snowflake(request, "channel_id"),
            body.obj,
            from_message=snowflake(request, "message_id"),
        )
        return json_response(self.world.channel_payload(thread), status=201)

    async def thread_without_message(self, request: web.Request) -> web.Response:
        body = await read_body(request)
        if "message" in body.obj:
            raise errors.wrong_channel_type()  # forum posts are not modelled
        thread = self.world.start_thread(
            snowflake(request, "channel_id"), body.obj, from_message=None
        )
        return json_response(self.world.channel_payload(thread), status=201)

    def _thread_member_id(self, request: web.Request) -> int:
        value = request.match_info["user_id"]
        return self.world.bot.id if value == "@me" else snowflake(request, "user_id")

    async def add_thread_member(self, request: web.Request) -> web.Response:
        self.world.add_thread_member(
            snowflake(request, "channel_id"), self._thread_member_id(request)
        )
        return no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        self.world.remove_thread_member(
            snowflake(request, "channel_id"), self._thread_member_id(request)
        )
        return no_content()

    async def get_thread_member(self, request: web.Request) -> web.Response:
        return json_response(
            self.world.thread_member(
                snowflake(request, "channel_id"), self._thread_member_id(request)
            )
        )

    async def get_attachment(self, request: web.Request) -> web.Response:
        recorded = self.world.files.get(snowflake(request, "file_id"))
        if recorded is None or recorded.filename != request.match_info["filename"]:
            raise errors.not_found()
        return web.Response(
            body=recorded.data, content_type=recorded.content_type or "application/octet-stream"
        )
