"""The gateway WebSocket: HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME with a replay buffer.

Sessions outlive their sockets so a dropped client can RESUME and receive what it missed, as on Discord.
Frames are sent as TEXT (discord.py only decompresses binary frames, so `compress=` can be ignored).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from sandbox.model import World

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HEARTBEAT_ACK = (
    10,
    1,
    2,
    6,
    7,
    8,
    9,
    11,
)
DISPATCH = 0
BUFFER_SIZE = 5000

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15


@dataclass
class Session:
    id: str
    shard: tuple[int, int]
    intents: int
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    valid: bool = True
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=BUFFER_SIZE))
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def owns_guild(self, guild_id: str | None) -> bool:
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (int(guild_id) >> 22) % count == shard_id


class Gateway:
    """Accepts bot connections and dispatches events to every live session that owns the event's guild."""

    def __init__(self, world: World, token: str, url: Callable[[], str]) -> None:
        self.world = world
        self.token = token
        self.url = url
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.resumes = 0
        self.invalid_sessions = 0
        self.changed = asyncio.Condition()
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def connected(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.ws is not None and s.valid]

    async def _notify(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def wait(self, predicate: Callable[[Gateway], bool], timeout: float) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: predicate(self)), timeout)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: Session | None = None
        try:
            await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": 41250}}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                op, data = payload.get("op"), payload.get("d")
                if op == HEARTBEAT:
                    await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
                elif op == IDENTIFY:
                    session = await self._identify(ws, data or {})
                elif op == RESUME:
                    session = await self._resume(ws, data or {})
                elif op == REQUEST_MEMBERS and session is not None:
                    await self._members_chunk(session, data or {})
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            await self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard_raw = data.get("shard") or [0, 1]
        shard = (int(shard_raw[0]), int(shard_raw[1]))
        # A fresh IDENTIFY for a shard replaces whatever session that shard had before.
        for old in [s for s in self.sessions.values() if s.shard == shard]:
            old.valid = False
            del self.sessions[old.id]
        session = Session(id=self.world.ids.next(), shard=shard, intents=int(data.get("intents") or 0), ws=ws)
        self.sessions[session.id] = session
        self.identifies += 1
        guilds = [g for g in self.world.guilds.values() if session.owns_guild(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.world.bot.payload(),
            "session_id": session.id,
            "resume_gateway_url": self.url(),
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds],
            "application": {"id": self.world.application_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if data.get("shard"):
            ready["shard"] = list(shard)
        await self._send(session, "READY", ready)
        for guild in guilds:
            await self._send(session, "GUILD_CREATE", self.world.guild_create_payload(guild))
        await self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token or session is None or not session.valid:
            self.invalid_sessions += 1
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        seq = int(data.get("seq") or 0)
        async with session.send_lock:
            session.ws = ws
            for s, frame in list(session.buffer):
                if s > seq:
                    await ws.send_str(frame)
        self.resumes += 1
        await self._send(session, "RESUMED", {})
        await self._notify()
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(str(data.get("guild_id")))
        if guild is None:
            return
        members = [self.world.member_payload(self.world.users[u], guild) for u in guild.member_ids]
        chunk: dict[str, Any] = {"guild_id": guild.id, "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, frame))
        async with session.send_lock:
            ws = session.ws
            if ws is not None and not ws.closed:
                try:
                    await ws.send_str(frame)
                except ConnectionError:
                    session.ws = None

    async def dispatch(
        self,
        event: str,
        data: dict[str, Any],
        guild_id: str | None,
        intent: int = 0,
        transform: Callable[[Session, dict[str, Any]], dict[str, Any]] | None = None,
    ) -> int:
        """Send an event to each valid session owning the guild (and subscribed to `intent`)."""
        sent = 0
        for session in list(self.sessions.values()):
            if not session.valid or not session.owns_guild(guild_id):
                continue
            if intent and not session.intents & intent:
                continue
            await self._send(session, event, transform(session, data) if transform else data)
            sent += 1
        return sent

    async def drop(self, code: int = 4000) -> int:
        """Close every bot socket with a resumable code; return how many were closed."""
        sockets = list(self._sockets)
        for session in self.sessions.values():
            session.ws = None
        for ws in sockets:
            await ws.close(code=code, message=b"sandbox: simulated drop")
        return len(sockets)

    async def request_reconnect(self) -> int:
        """Send op 7 RECONNECT to each connected session (the client closes and RESUMEs)."""
        live = [s for s in self.sessions.values() if s.ws is not None and not s.ws.closed]
        for session in live:
            async with session.send_lock:
                if session.ws is not None:
                    await session.ws.send_str(json.dumps({"op": RECONNECT, "d": None}))
        return len(live)

    def invalidate(self) -> None:
        """Forget all sessions so the next RESUME gets INVALID_SESSION and the client must IDENTIFY again."""
        for session in self.sessions.values():
            session.valid = False
        self.sessions.clear()

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"sandbox shutting down")
