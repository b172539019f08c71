"""The fake gateway: a WebSocket server speaking Discord's gateway protocol (v10, JSON).

HELLO, heartbeats and their ACKs, IDENTIFY -> READY + GUILD_CREATE, RESUME with a replay of what
was missed (by sequence number) -> RESUMED, INVALID_SESSION for what cannot be resumed, and the
close codes Discord uses for bad tokens, disallowed intents and bad shards. Dispatches are queued
per session, so an event sent while the bot is disconnected reaches it after it resumes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.world import Intent, World

Json = dict[str, Any]


class Op:
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Close:
    """Gateway close codes."""

    UNKNOWN_ERROR = 4000
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    INVALID_API_VERSION = 4012
    INVALID_INTENTS = 4013
    DISALLOWED_INTENTS = 4014


# A client closing with these ends its session for good; any other close keeps it resumable.
SESSION_ENDING_CLOSES = frozenset({1000, 1001})


@dataclass(frozen=True, slots=True)
class Shard:
    id: int
    count: int

    def covers(self, guild_id: int | None) -> bool:
        """Discord's routing: ``(guild_id >> 22) % num_shards``; DMs go to shard 0."""
        if guild_id is None:
            return self.id == 0
        return (guild_id >> 22) % self.count == self.id


@dataclass(eq=False)
class Session:
    """A gateway session: survives a dropped connection until resumed or invalidated."""

    id: str
    shard: Shard
    intents: int
    number: int  # creation order; the newest session for a shard gets its events
    seq: int = 0
    backlog: deque[tuple[int, Json]] = field(default_factory=deque)
    connection: Connection | None = None
    resumable: bool = True
    ready: bool = False
    dispatched: int = 0

    def wants(self, intent: int | None) -> bool:
        return intent is None or bool(self.intents & intent)


@dataclass(frozen=True, slots=True)
class GatewayEvent:
    """A connection-level happening, recorded for tests: identify, resume, invalid session..."""

    kind: str
    session_id: str | None
    path: str
    detail: str = ""


class Connection:
    """One WebSocket: frames go out through a queue, in order, from a single writer task."""

    def __init__(self, ws: web.WebSocketResponse, request: web.Request, *, compress: bool) -> None:
        self.ws = ws
        self.request = request
        self.path = request.path
        self.session: Session | None = None
        self.dropped_by_server = False
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._compressor = zlib.compressobj() if compress else None
        self._writer = asyncio.create_task(self._write(), name=f"fake-gateway-writer-{id(self):x}")

    def send(self, frame: Json) -> None:
        self._outbox.put_nowait(json.dumps(frame, separators=(",", ":")))

    async def _write(self) -> None:
        while (text := await self._outbox.get()) is not None:
            try:
                if self._compressor is not None:
                    # zlib-stream: one shared context, each message ends with a sync flush.
                    data = self._compressor.compress(text.encode()) + self._compressor.flush(
                        zlib.Z_SYNC_FLUSH
                    )
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return  # the socket closed under us; the session's backlog keeps the events

    async def close(self, code: int | None) -> None:
        """Close with ``code``, or cut the TCP connection without a close frame (``None``)."""
        self._outbox.put_nowait(None)
        if code is None:
            transport = self.request.transport
            if transport is not None:
                transport.abort()
        else:
            await self.ws.close(code=code)
        await self.stop()

    async def stop(self) -> None:
        self._outbox.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


class GatewayServer:
    """Serves the gateway WebSocket for :class:`~tests.fakediscord.world.World`."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.events: list[GatewayEvent] = []
        self.heartbeats = 0
        self.acknowledge_heartbeats = True
        self.ws_base = "ws://127.0.0.1"  # set once the server listens
        self.gateway_path = "/gateway"
        self.resume_path = "/gateway-resume"
        self._open = asyncio.Event()
        self._open.set()
        self._session_count = 0
        world.dispatcher = self

    @property
    def url(self) -> str:
        return f"{self.ws_base}{self.gateway_path}"

    @property
    def resume_url(self) -> str:
        return f"{self.ws_base}{self.resume_path}"

    # -- dispatching ------------------------------------------------------------------------------

    def dispatch(
        self, event: str, data: Json, *, guild_id: int | None, intent: int | None
    ) -> str | None:
        """Queue ``event`` for the newest session whose shard owns ``guild_id``; its id."""
        target = self._session_for(guild_id)
        if target is None or not target.ready or not target.wants(intent):
            return None
        self._send_dispatch(target, event, data)
        return target.id

    def _session_for(self, guild_id: int | None) -> Session | None:
        candidates = [s for s in self.sessions.values() if s.resumable and s.shard.covers(guild_id)]
        return max(candidates, key=lambda s: s.number, default=None)

    def _send_dispatch(self, session: Session, event: str, data: Json) -> None:
        session.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data}
        session.backlog.append((session.seq, frame))
        while len(session.backlog) > self.world.config.backlog:
            session.backlog.popleft()
        session.dispatched += 1
        if session.connection is not None:
            session.connection.send(frame)

    # -- controls for tests -----------------------------------------------------------------------

    def live_sessions(self) -> list[Session]:
        return [
            s
            for s in self.sessions.values()
            if s.resumable and s.connection is not None and s.ready
        ]

    async def drop(self, *, code: int | None = Close.UNKNOWN_ERROR) -> int:
        """Close every connection the way a network failure would; sessions stay resumable."""
        dropped = [c for c in self.connections if c.session is not None]
        for conn in dropped:
            conn.dropped_by_server = True
            self._detach(conn)
        for conn in dropped:
            await conn.close(code)
        self.world.changed()
        return len(dropped)

    def hold_connections(self) -> None:
        """New connections wait before HELLO until :meth:`release_connections` (an outage)."""
        self._open.clear()

    def release_connections(self) -> None:
        self._open.set()

    async def reconnect_request(self) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session to another server."""
        for conn in list(self.connections):
            if conn.session is not None:
                conn.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self) -> None:
        """Forget every session: the next RESUME gets INVALID_SESSION and must IDENTIFY."""
        for session in self.sessions.values():
            session.resumable = False
        self.world.changed()

    async def close(self) -> None:
        self.release_connections()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.close(1001)

    # -- the WebSocket ----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        query = request.query
        if query.get("v") != "10":
            await ws.close(code=Close.INVALID_API_VERSION, message=b"Invalid API version")
            return ws
        if query.get("encoding", "json") != "json":
            await ws.close(code=Close.DECODE_ERROR, message=b"Only JSON encoding in the fake")
            return ws
        compress = self.world.config.compress and query.get("compress") == "zlib-stream"
        await self._open.wait()  # an outage holds new connections here, before HELLO
        conn = Connection(ws, request, compress=compress)
        self.connections.add(conn)
        conn.send(
            {
                "op": Op.HELLO,
                "d": {
                    "heartbeat_interval": self.world.config.heartbeat_interval_ms,
                    "_trace": ["fake-discord"],
                },
                "s": None,
                "t": None,
            }
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    try:
                        frame = json.loads(msg.data)
                    except ValueError:
                        await self._close(conn, Close.DECODE_ERROR, "Error while decoding payload")
                        break
                    if not await self._handle_frame(conn, frame):
                        break
                elif msg.type is WSMsgType.BINARY:
                    await self._close(
                        conn, Close.DECODE_ERROR, "Binary frames are not supported by the fake"
                    )
                    break
        finally:
            self.connections.discard(conn)
            session = conn.session
            if session is not None and not conn.dropped_by_server:
                self._detach(conn)
                if ws.close_code in SESSION_ENDING_CLOSES:
                    session.resumable = False
            await conn.stop()
            self.world.changed()
        return ws

    def _detach(self, conn: Connection) -> None:
        if conn.session is not None and conn.session.connection is conn:
            conn.session.connection = None

    async def _close(self, conn: Connection, code: int, reason: str) -> None:
        self.events.append(
            GatewayEvent(
                "closed",
                None if conn.session is None else conn.session.id,
                conn.path,
                f"{code} {reason}",
            )
        )
        await conn.ws.close(code=code, message=reason.encode())

    async def _handle_frame(self, conn: Connection, frame: Json) -> bool:
        """Handle one client frame; ``False`` when the connection was closed."""
        op, data = frame.get("op"), frame.get("d")
        if op == Op.HEARTBEAT:
            self.heartbeats += 1
            if self.acknowledge_heartbeats:
                ack = {"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None}
                delay = self.world.config.heartbeat_ack_delay
                asyncio.get_running_loop().call_later(delay, conn.send, ack)
            return True
        if op == Op.IDENTIFY:
            return await self._identify(conn, data or {})
        if op == Op.RESUME:
            return await self._resume(conn, data or {})
        if conn.session is None:
            await self._close(conn, Close.NOT_AUTHENTICATED, "Not authenticated.")
            return False
        if op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE, Op.REQUEST_GUILD_MEMBERS):
            self.events.append(
                GatewayEvent(f"op {op}", conn.session.id, conn.path, json.dumps(data))
            )
            return True
        await self._close(conn, Close.UNKNOWN_OPCODE, f"Unknown opcode {op}")
        return False

    async def _identify(self, conn: Connection, data: Json) -> bool:
        if conn.session is not None:
            await self._close(conn, Close.ALREADY_AUTHENTICATED, "Already authenticated.")
            return False
        if data.get("token") != self.world.token:
            await self._close(conn, Close.AUTHENTICATION_FAILED, "Authentication failed.")
            return False
        intents = data.get("intents")
        if not isinstance(intents, int) or intents < 0:
            await self._close(conn, Close.INVALID_INTENTS, "Invalid intent(s).")
            return False
        if intents & Intent.PRIVILEGED & ~self.world.config.privileged_intents:
            await self._close(conn, Close.DISALLOWED_INTENTS, "Disallowed intent(s).")
            return False
        shard_data = data.get("shard") or [0, 1]
        shard = Shard(int(shard_data[0]), int(shard_data[1]))
        if not 0 <= shard.id < shard.count:
            await self._close(conn, Close.INVALID_SHARD, "Invalid shard.")
            return False
        self._session_count += 1
        session = Session(
            id=secrets.token_hex(16), shard=shard, intents=intents, number=self._session_count
        )
        self.sessions[session.id] = session
        session.connection, conn.session = conn, session
        self.events.append(
            GatewayEvent("identify", session.id, conn.path, f"shard {shard.id}/{shard.count}")
        )
        guilds = [g for g in self.world.guilds.values() if shard.covers(g.id)]
        ready: Json = {
            "v": 10,
            "user": self.world.current_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if data.get("shard") is not None:
            ready["shard"] = [shard.id, shard.count]
        self._send_dispatch(session, "READY", ready)
        for guild in guilds:
            if session.wants(Intent.GUILDS):
                self._send_dispatch(session, "GUILD_CREATE", self.world.guild_payload(guild))
        session.ready = True
        self.world.changed()
        return True

    async def _resume(self, conn: Connection, data: Json) -> bool:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        replay = (
            []
            if session is None
            else [frame for s, frame in session.backlog if seq is None or s > seq]
        )
        oldest_kept = session.backlog[0][0] if session and session.backlog else 0
        if (
            session is None
            or not session.resumable
            or data.get("token") != self.world.token
            or (seq is not None and seq + 1 < oldest_kept)
        ):
            self.events.append(
                GatewayEvent("invalid session", None if session is None else session.id, conn.path)
            )
            conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            return True
        if session.connection is not None and session.connection is not conn:
            old = session.connection
            old.dropped_by_server = True
            self._detach(old)
            await old.close(Close.UNKNOWN_ERROR)
        session.connection, conn.session = conn, session
        for frame in replay:
            conn.send(frame)
        self.events.append(
            GatewayEvent("resume", session.id, conn.path, f"replayed {len(replay)} after seq {seq}")
        )
        self._send_dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        self.world.changed()
        return True
