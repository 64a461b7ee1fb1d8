"""The JSON control API under /_sandbox/: the Python API's user actions and observers for a separate process
(a load generator) or the browser sandbox page, plus a WebSocket feed of message and channel changes.

Users, channels and messages may be named by id (or, for users and channels, by name). Actions answer with
the interaction result: {"interaction_id", "name", "callback_type", "ack_latency", "complete", "messages",
"edited", "choices", "modal"} once the interaction is complete or `timeout` (default 5 s) passed
("wait": false answers at once); a client-side refusal answers 400 {"error": code, "detail"}.

    GET  /_sandbox/state                          guilds, channels, threads, users, DM channels, gateway stats
    GET  /_sandbox/commands?channel=C             the synced commands a user sees in C (for the "/" picker)
    GET  /_sandbox/messages?channel=C[&viewer=U]  messages in C (only those U can see when viewer is given)
    GET  /_sandbox/visible?user=U                 everything U can see; GET /_sandbox/dms?user=U their DMs
    GET  /_sandbox/violations                     every rejection so far
    POST /_sandbox/slash         {"user","channel","command","options"?,"wait"?,"timeout"?}
    POST /_sandbox/autocomplete  {"user","channel","command","options"?,"focused"}  -> {"choices"}
    POST /_sandbox/click         {"user","message","custom_id"}
    POST /_sandbox/select        {"user","message","custom_id","values"}
    POST /_sandbox/modal         {"user","interaction","values"}
    POST /_sandbox/say           {"user","channel","content"}
    POST /_sandbox/users         {"name","locale"?,"dms_open"?,"manager"?}
    POST /_sandbox/guilds        {"name"};  POST /_sandbox/channels {"guild","name"}
    POST /_sandbox/drop_gateway  close the bot's gateway socket (it resumes)
    WS   /_sandbox/events[?viewer=U]  {"type": "message_create"|"message_update"|"message_delete"|
                                  "thread_create"|"thread_update"|"channel_update"|"commands_synced"|..., ...}
    GET  /                       the browser client (sandbox/web/): act as any user, "/" commands, buttons
    GET  /fonts/NAME.ttf         the project's fonts (render/fonts), for Hangul where the system has none
"""

from __future__ import annotations

import asyncio
import functools
import json
import struct
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from sandbox.interactions import InteractionResult
from sandbox.model import Channel, Message, World
from sandbox.validate import ActionRejected

if TYPE_CHECKING:
    from sandbox.server import DiscordSandbox

WEB_DIR = Path(__file__).parent / "web"


def font_dir() -> Path | None:
    """The project's fonts (render/fonts: Hangul), so the page shows Korean where the system has no font."""
    try:
        import render
    except ImportError:
        return None
    folder = Path(render.__file__).parent / "fonts"
    return folder if folder.is_dir() else None


@functools.lru_cache(maxsize=4)
def web_font(path: Path) -> bytes:
    """The TrueType file without the tables browsers refuse (VTT hinting sources TSI0-TSI5: Chromium's font
    sanitizer rejects the whole font over an empty one). Table data is copied as is, 4-byte aligned."""
    data = path.read_bytes()
    version, count = struct.unpack(">IH", data[:6])
    tables = []
    for i in range(count):
        tag, checksum, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if not tag.startswith(b"TSI"):
            tables.append((tag, checksum, data[offset : offset + length]))
    entry = 1 << (len(tables).bit_length() - 1)
    header = struct.pack(
        ">IHHHH", version, len(tables), entry * 16, entry.bit_length() - 1, len(tables) * 16 - entry * 16
    )
    offset = 12 + 16 * len(tables)
    directory, body = [], []
    for tag, checksum, table in tables:
        directory.append(struct.pack(">4sIII", tag, checksum, offset, len(table)))
        padded = table + b"\0" * (-len(table) % 4)
        body.append(padded)
        offset += len(padded)
    return header + b"".join(directory) + b"".join(body)


def client_message(world: World, msg: Message) -> dict[str, Any]:
    """A message as a client shows it (author name, audience, attachment URLs), not Discord's wire shape."""
    author = world.users[msg.author_id]
    return {
        "id": msg.id,
        "channel_id": msg.channel_id,
        "author": {"id": author.id, "name": author.name, "bot": author.bot},
        "content": msg.content,
        "embeds": msg.embeds,
        "components": msg.components,
        "attachments": [
            {
                "id": a.id,
                "filename": a.filename,
                "url": a.url,
                "content_type": a.content_type,
                "size": a.size,
                "width": a.width,
                "height": a.height,
            }
            for a in msg.attachments
        ],
        "flags": msg.flags,
        "ephemeral": msg.ephemeral,
        "loading": msg.loading,
        "audience": {"kind": msg.audience.kind, "user_id": msg.audience.user_id},
        "created_at": msg.created_at,
        "edited_at": msg.edited_at,
        "mentions": msg.mention_ids,
        "pinged": msg.pinged_ids,
        "thread_id": msg.thread_id,
        "interaction_user_id": msg.interaction_user_id,
        "interaction_name": msg.interaction_name,
    }


def client_channel(world: World, channel: Channel) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": channel.id,
        "type": channel.type,
        "name": channel.name,
        "guild_id": channel.guild_id,
        "parent_id": channel.parent_id,
        "archived": channel.archived,
        "locked": channel.locked,
        "member_ids": channel.member_ids,
    }
    if channel.is_dm:
        out["recipient_id"] = channel.recipient_id
    return out


def result_json(world: World, result: InteractionResult) -> dict[str, Any]:
    return {
        "interaction_id": result.id,
        "name": result.record.name,
        "callback_type": result.callback_type,
        "ack_latency": result.ack_latency,
        "complete": result.complete,
        "messages": [client_message(world, m) for m in result.messages],
        "edited": [client_message(world, m) for m in result.edited],
        "choices": result.choices,
        "modal": result.modal,
    }


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def add_control_routes(app: web.Application, sb: DiscordSandbox) -> None:
    world = sb.world

    async def body_of(request: web.Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            raise web.HTTPBadRequest(text="expected a JSON object") from None
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(text="expected a JSON object")
        return data

    def lookup(fn: Any, ref: Any) -> Any:
        try:
            return fn(ref)
        except KeyError as err:
            raise web.HTTPNotFound(text=str(err)) from None

    async def run_action(coro: Any) -> web.Response:
        try:
            result = await coro
        except ActionRejected as err:
            return _json({"error": err.code, "detail": err.detail}, status=400)
        if isinstance(result, InteractionResult):
            return _json(result_json(world, result))
        if isinstance(result, Message):
            return _json({"message": client_message(world, result)})
        return _json(result)

    async def finish(result: InteractionResult, data: dict[str, Any]) -> InteractionResult:
        if data.get("wait", True):
            try:
                await result.wait(float(data.get("timeout", 5.0)))
            except TimeoutError:
                return result
        return result

    async def slash(request: web.Request) -> web.Response:
        data = await body_of(request)
        user, channel = lookup(world.user, data.get("user")), lookup(world.channel, data.get("channel"))

        async def go() -> InteractionResult:
            result = await sb.slash(
                user, channel, str(data.get("command", "")), data.get("options") or {}, wait=False
            )
            return await finish(result, data)

        return await run_action(go())

    async def autocomplete(request: web.Request) -> web.Response:
        data = await body_of(request)
        user, channel = lookup(world.user, data.get("user")), lookup(world.channel, data.get("channel"))

        async def go() -> dict[str, Any]:
            try:
                choices = await sb.autocomplete(
                    user,
                    channel,
                    str(data.get("command", "")),
                    data.get("options") or {},
                    str(data.get("focused", "")),
                    timeout=float(data.get("timeout", 5.0)),
                )
            except TimeoutError:
                return {"choices": [], "error": "timeout"}
            return {"choices": choices}

        return await run_action(go())

    async def click(request: web.Request) -> web.Response:
        data = await body_of(request)
        user, msg = lookup(world.user, data.get("user")), lookup(world.message, data.get("message"))

        async def go() -> InteractionResult:
            return await finish(await sb.click(user, msg, str(data.get("custom_id")), wait=False), data)

        return await run_action(go())

    async def select(request: web.Request) -> web.Response:
        data = await body_of(request)
        user, msg = lookup(world.user, data.get("user")), lookup(world.message, data.get("message"))

        async def go() -> InteractionResult:
            values = [str(v) for v in data.get("values") or []]
            return await finish(
                await sb.select(user, msg, str(data.get("custom_id")), values, wait=False), data
            )

        return await run_action(go())

    async def modal(request: web.Request) -> web.Response:
        data = await body_of(request)
        user = lookup(world.user, data.get("user"))
        rec = sb.interactions.get(str(data.get("interaction")))
        if rec is None:
            raise web.HTTPNotFound(text="unknown interaction")
        opened_by = InteractionResult(rec, world, sb.clock)

        async def go() -> InteractionResult:
            return await finish(
                await sb.submit_modal(user, opened_by, dict(data.get("values") or {}), wait=False), data
            )

        return await run_action(go())

    async def say(request: web.Request) -> web.Response:
        data = await body_of(request)
        user, channel = lookup(world.user, data.get("user")), lookup(world.channel, data.get("channel"))
        return await run_action(sb.say(user, channel, str(data.get("content", ""))))

    async def state(request: web.Request) -> web.Response:
        guilds = []
        for guild in world.guilds.values():
            channels = []
            for ch in world.text_channels(guild):
                entry = client_channel(world, ch)
                entry["threads"] = [client_channel(world, t) for t in world.threads(ch)]
                channels.append(entry)
            guilds.append(
                {"id": guild.id, "name": guild.name, "member_ids": guild.member_ids, "channels": channels}
            )
        users = [
            {
                "id": u.id,
                "name": u.name,
                "locale": u.locale,
                "dms_open": u.dms_open,
                "manager": u.manager,
                "bot": u.bot,
            }
            for u in world.users.values()
        ]
        return _json(
            {
                "application_id": world.application_id,
                "bot": {"id": world.bot.id, "name": world.bot.name},
                "guilds": guilds,
                "users": users,
                "dm_channels": world.dm_channels,
                "gateway": {
                    "connected": len(sb.gateway.connected),
                    "identifies": sb.gateway.identifies,
                    "resumes": sb.gateway.resumes,
                },
                "requests": sb.requests,
                "interactions": len(sb.interactions),
            }
        )

    async def commands(request: web.Request) -> web.Response:
        channel = lookup(world.channel, request.query.get("channel"))
        return _json([dict(c.data, id=c.id) for c in world.commands_for(channel).values()])

    async def messages(request: web.Request) -> web.Response:
        channel = lookup(world.channel, request.query.get("channel"))
        if "viewer" in request.query:
            msgs = world.visible_to(lookup(world.user, request.query["viewer"]), channel)
        else:
            msgs = world.channel_history(channel)
        return _json([client_message(world, m) for m in msgs])

    async def visible(request: web.Request) -> web.Response:
        user = lookup(world.user, request.query.get("user"))
        return _json([client_message(world, m) for m in world.visible_to(user)])

    async def dms(request: web.Request) -> web.Response:
        user = lookup(world.user, request.query.get("user"))
        return _json([client_message(world, m) for m in world.dms(user)])

    async def violations(request: web.Request) -> web.Response:
        return _json([v.__dict__ for v in sb.violations])

    async def add_user(request: web.Request) -> web.Response:
        data = await body_of(request)
        user = sb.add_user(
            str(data["name"]),
            locale=str(data.get("locale", "en-US")),
            dms_open=bool(data.get("dms_open", True)),
            manager=bool(data.get("manager", False)),
        )
        return _json({"id": user.id, "name": user.name})

    async def add_guild(request: web.Request) -> web.Response:
        data = await body_of(request)
        guild = sb.add_guild(str(data["name"]))
        return _json({"id": guild.id, "name": guild.name})

    async def add_channel(request: web.Request) -> web.Response:
        data = await body_of(request)
        guild = world.guilds.get(str(data.get("guild"))) or next(iter(world.guilds.values()), None)
        if guild is None:
            raise web.HTTPNotFound(text="unknown guild")
        channel = sb.add_channel(guild, str(data["name"]))
        await sb.channel_event("CHANNEL_CREATE", channel)
        return _json(client_channel(world, channel))

    async def drop_gateway(request: web.Request) -> web.Response:
        return _json({"closed": await sb.drop_gateway()})

    async def events(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        viewer = world.users.get(request.query.get("viewer", ""))
        queue = sb.subscribe()

        async def pump() -> None:
            while True:
                event = await queue.get()
                if event.get("type") == "closed":
                    await ws.close()
                    return
                out = dict(event)
                if "message_id" in event and event["type"] != "message_delete":
                    msg = world.messages[event["message_id"]]
                    if viewer is not None and not msg.visible_to(viewer.id):
                        continue
                    out["message"] = client_message(world, msg)
                elif "channel_id" in event and event["channel_id"] in world.channels:
                    out["channel"] = client_channel(world, world.channels[event["channel_id"]])
                await ws.send_str(json.dumps(out))

        task = asyncio.create_task(pump())
        try:
            async for msg in ws:
                if msg.type == WSMsgType.ERROR:
                    break
        finally:
            task.cancel()
            sb.unsubscribe(queue)
        return ws

    async def index(request: web.Request) -> web.StreamResponse:
        page = WEB_DIR / "index.html"
        if not page.exists():
            return web.Response(text="sandbox server: see /_sandbox/state", content_type="text/plain")
        return web.FileResponse(page)

    async def font(request: web.Request) -> web.StreamResponse:
        folder, name = font_dir(), request.match_info["name"]
        if folder is None or not name.endswith(".ttf") or "/" in name or name.startswith("."):
            raise web.HTTPNotFound()
        path = folder / name
        if not path.is_file():
            raise web.HTTPNotFound()
        data = await asyncio.to_thread(web_font, path)
        return web.Response(body=data, headers={"Cache-Control": "max-age=86400", "Content-Type": "font/ttf"})

    r = app.router
    r.add_get("/", index)
    r.add_get("/fonts/{name}", font)
    if WEB_DIR.exists():
        r.add_static("/web/", WEB_DIR)
    r.add_get("/_sandbox/state", state)
    r.add_get("/_sandbox/commands", commands)
    r.add_get("/_sandbox/messages", messages)
    r.add_get("/_sandbox/visible", visible)
    r.add_get("/_sandbox/dms", dms)
    r.add_get("/_sandbox/violations", violations)
    r.add_get("/_sandbox/events", events)
    r.add_post("/_sandbox/slash", slash)
    r.add_post("/_sandbox/autocomplete", autocomplete)
    r.add_post("/_sandbox/click", click)
    r.add_post("/_sandbox/select", select)
    r.add_post("/_sandbox/modal", modal)
    r.add_post("/_sandbox/say", say)
    r.add_post("/_sandbox/users", add_user)
    r.add_post("/_sandbox/guilds", add_guild)
    r.add_post("/_sandbox/channels", add_channel)
    r.add_post("/_sandbox/drop_gateway", drop_gateway)
