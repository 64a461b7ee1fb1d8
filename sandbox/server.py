"""A strict Discord-compatible server on loopback, for end-to-end tests and the local sandbox.

An unmodified discord.py 2.7 bot talks to it over real HTTP and a real gateway WebSocket on 127.0.0.1. Tests
act as human users through this Python API and check what each user can see.

Build a world, start, point discord.py at it::

    sb = DiscordSandbox(token="test-token", ack_deadline=3.0)
    guild = sb.add_guild("Test")
    games = sb.add_channel(guild, "games")
    alice = sb.add_user("Alice", locale="en-US", manager=True)      # joins every guild unless guilds=[...]
    carol = sb.add_user("Carol", dms_open=False)
    await sb.start()                    # free port on 127.0.0.1; sb.port, sb.api_url, sb.gateway_url
    undo = sb.patch_discord()           # sets discord.http.Route.BASE and DiscordWebSocket.DEFAULT_GATEWAY
    async with sb.connected(bot):       # login, connect in this loop, wait for on_ready; closes on exit
        await sb.wait_for_commands("play")  # after the bot's tree.sync()
    await sb.wait_for_bot()             # (a bot in another process: wait until its gateway session is up)

Build the world before the bot connects (GUILD_CREATE carries it); users may be added at any time.

Act as users (each returns an `InteractionResult`; by default it is already complete, `wait=False` returns at
once and `await result` / `await result.wait(timeout)` finishes it)::

    r = await sb.slash(alice, games, "play new", {"game": "druids"})   # subcommands/groups by path
    r.callback_type, r.ack_latency, r.messages, r.message, r.edited     # messages carry .audience
    choices = await sb.autocomplete(alice, games, "play new", {"game": "dr"}, focused="game")
    await sb.click(bob, message, "join:42"); await sb.select(bob, message, "pick", ["a"])
    await sb.submit_modal(alice, r, {"field_custom_id": "text"})       # r: the result that opened the modal
    await sb.say(alice, games, "hello <@123>")                          # a plain user message

"Complete" means acknowledged, and for a deferred reply (type 5) the original was edited or a followup came;
for a deferred update (type 6) the clicked message was edited or a followup came. The bot's handler may go on
after that (more messages, threads): use `wait_for` / `wait_until` for those.

Observe (model objects from sandbox.model; messages are live and change when edited: .content, .text,
.embeds, .components, .component(custom_id), .buttons(), .attachments[i].data/.url/.width, .audience.kind
("public", "ephemeral", "dm") and .audience.user_id, .mention_ids, .pinged_ids, .edit_count, .history)::

    sb.messages(games)                  # every message, incl. ephemerals
    sb.messages(games, viewer=bob)      # only what Bob can see there
    sb.visible_to(bob)                  # public messages + Bob's ephemerals + Bob's DMs
    sb.dms(carol); sb.threads(games); sb.latest_with_components(games, viewer=alice)
    await sb.wait_for(lambda m: "won" in m.text, timeout=5)   # a matching message, now or on create/edit
    await sb.wait_until(lambda: len(sb.threads(games)) == 2)   # any condition on the world, polled
    sb.violations                       # every rejection (Violation.actor "bot" or "client"); keep it empty
    sb.bot_violations()                 # only the bot's

Keep the world on disk (the local sandbox, so a restart brings back the same ids; see sandbox/persist.py)::

    if not sb.persist_to("boardgames.sandbox-world"):   # loads a saved world, if there is one...
        build_world(sb)                                 # ...else build one; it is saved from start() on
    await sb.start(8765)                                # (attachment URLs follow the new port)
    await sb.save()                                     # at once; stop() saves too

Faults and time:

    await sb.drop_gateway()             # close the bot's socket with 4000; the client RESUMEs
    await sb.wait_for_resume()          # ...and this returns once it has (sb.gateway.resumes counts them)
    await sb.gateway.request_reconnect()  # op 7 RECONNECT
    sb.gateway.invalidate()             # next RESUME gets INVALID_SESSION -> fresh IDENTIFY (discord.py
                                        # sleeps 5 s in before_identify_hook unless the bot overrides it)
    sb.inject_429("POST", "/channels/[0-9]+/messages$")  # next matching request: a proper 429 (Via, JSON)
    sb.ack_deadline = 0.1               # the 3 s acknowledgement window, shortened
    sb.advance_time(901)                # age every interaction (the 15-minute followup window)

Standalone: `python -m sandbox.server --port 8765 [--world DIR]` serves the same API as JSON under /_sandbox/
(see sandbox/control.py), a WebSocket event feed at /_sandbox/events and the browser client at /.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import mimetypes
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from sandbox.gateway import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_MESSAGE_CONTENT,
    Gateway,
    Session,
)
from sandbox.interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
    InteractionResult,
    build_command_options,
    check_command_access,
    find_command,
    split_path,
)
from sandbox.model import (
    BOT_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MENTION_RE,
    Attachment,
    Audience,
    Channel,
    Guild,
    Message,
    User,
    World,
    iso_now,
    png_size,
)
from sandbox.persist import load_world, read_world_file, rebase_urls, snapshot, write_world_files
from sandbox.validate import (
    ActionRejected,
    DiscordError,
    check_choices,
    check_message,
    check_modal,
    form_error,
)

if TYPE_CHECKING:
    import discord

log = logging.getLogger("sandbox")

DEFAULT_SIZE_LIMIT = 10 * 1024 * 1024
EDITABLE_FLAGS = 1 << 2 | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
SENDABLE_FLAGS = EDITABLE_FLAGS | FLAG_EPHEMERAL

Files = dict[int, tuple[str, bytes, str]]


@dataclass
class Violation:
    """A rejection: a request Discord would refuse (actor "bot"), a user action the Discord client would
    not allow ("client"), or a request the sandbox cannot serve (unimplemented route or bug: "sandbox").
    """

    actor: str
    method: str
    path: str
    status: int
    code: int | str
    message: str
    errors: dict[str, Any] | None = None


@dataclass
class Injected429:
    method: str
    path_pattern: re.Pattern[str]
    remaining: int
    retry_after: float
    is_global: bool
    hits: list[str] = field(default_factory=list)


@dataclass
class InjectedFault:
    """The next `remaining` matching requests fail with this status and Discord error code."""

    method: str
    path_pattern: re.Pattern[str]
    remaining: int
    status: int
    code: int
    message: str
    hits: list[str] = field(default_factory=list)


@dataclass
class Hold:
    """Matching requests wait for `release`: before the sandbox handles them ("before": nothing happens in the
    world yet) or after, with the answer held back ("after": done, but the bot has not heard). `arrived` is set
    when the first one gets there, so a test can kill the bot at exactly that point."""

    method: str
    path_pattern: re.Pattern[str]
    stage: str
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    hits: list[str] = field(default_factory=list)


def point_discord_at(base_url: str) -> Callable[[], None]:
    """Redirect discord.py to a sandbox at `base_url` (e.g. "http://127.0.0.1:8765"), in this process.

    Sets the REST base (`discord.http.Route.BASE`) and the default gateway, which discord.py also falls back
    to after INVALID_SESSION. Returns a function that restores both.
    """
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = base_url.rstrip("/") + "/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        base_url.replace("http", "ws", 1).rstrip("/") + "/gw"
    )

    def undo() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return undo


class DiscordSandbox:
    """The fake Discord: world, REST API, gateway, user actions and observers (see the module docstring)."""

    def __init__(
        self,
        token: str = "sandbox-token",
        *,
        bot_name: str = "sandbox-bot",
        ack_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        attachment_size_limit: int = DEFAULT_SIZE_LIMIT,
        dispatch_message_events: bool = True,
        attachment_memory: int = 512 * 1024 * 1024,
    ) -> None:
        self.token = token
        self.world = World(bot_name=bot_name)
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.attachment_size_limit = attachment_size_limit
        self.dispatch_message_events = dispatch_message_events
        # Long load runs upload a PNG per move: past this many bytes the oldest files are dropped (404).
        self.attachment_memory = attachment_memory
        self.attachments_evicted = 0
        self.max_interactions = 20_000
        self._kept: deque[Attachment] = deque()
        self._kept_bytes = 0
        self.violations: list[Violation] = []
        self.interactions: dict[str, InteractionRecord] = {}
        self.requests = 0
        # API requests by method and route ("POST /api/v10/users/@me/channels")
        self.calls: Counter[str] = Counter()
        self.host = "127.0.0.1"
        self.port = 0
        self.gateway = Gateway(self.world, token, lambda: self.gateway_url)
        self._by_token: dict[str, InteractionRecord] = {}
        self._time_offset = 0.0
        self._429s: list[Injected429] = []
        self._faults: list[InjectedFault] = []
        self._holds: list[Hold] = []
        self._waiters: list[tuple[Callable[[Message], bool], asyncio.Future[Message]]] = []
        self._feeds: set[asyncio.Queue[dict[str, Any]]] = set()
        self._runner: web.AppRunner | None = None
        # Saving the world to disk (persist_to): a change counter, and what the last save covered.
        self.changes = 0
        self.persist_folder: Path | None = None
        self.save_interval = 0.5
        self._saved_changes = -1
        self._saved_base = ""
        self._saver: asyncio.Task[None] | None = None
        self._save_lock = asyncio.Lock()
        self.app = self._build_app()

    # -- lifecycle -------------------------------------------------------------------------------------------

    def _build_app(self) -> web.Application:
        from sandbox.control import add_control_routes
        from sandbox.rest import add_rest_routes

        app = web.Application(client_max_size=256 * 1024 * 1024, middlewares=[self._middleware])
        add_rest_routes(app, self)
        add_control_routes(app, self)
        app.router.add_get("/gw", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        return app

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gw"

    async def start(self, port: int = 0) -> None:
        """Serve on 127.0.0.1 (a free port chosen by the OS unless one is given)."""
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, port).start()
        self.port = int(self._runner.addresses[0][1])
        if self.persist_folder is not None:
            if self._saved_base:
                rebase_urls(self.world, self._saved_base, self.base_url)
            self._saver = asyncio.create_task(self._save_loop(), name="sandbox-world-saver")

    async def stop(self) -> None:
        await self.gateway.close()
        for queue in list(self._feeds):
            queue.put_nowait({"type": "closed"})
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saver is not None:
            self._saver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._saver
            self._saver = None
            try:
                await self.save()
            except OSError:
                log.exception("could not save the sandbox world to %s", self.persist_folder)

    # -- keeping the world on disk ---------------------------------------------------------------------------

    def persist_to(self, folder: Path | str) -> bool:
        """Keep the world in `folder` (see sandbox/persist.py): load what was saved there, if anything, and
        from `start` on save every change (within `save_interval`) and once more at `stop`.

        Call before `start` and before building a world; returns True when a saved world was loaded (then do
        not build one). Raises `WorldFileError` if the saved world cannot be read.
        """
        self.persist_folder = Path(folder)
        data = read_world_file(self.persist_folder)
        if data is None:
            return False
        self._saved_base = load_world(self.world, data, self.persist_folder / "files")
        for msg in self.world.messages.values():
            for att in msg.attachments:
                if not att.evicted:
                    self._keep(att)
        self._saved_changes = self.changes
        return True

    def changed(self) -> None:
        """Note that the world changed (the saver writes it out soon)."""
        self.changes += 1

    async def save(self) -> None:
        """Write the world to the persist folder now (no-op without one, or when nothing changed)."""
        if self.persist_folder is None:
            return
        async with self._save_lock:
            mark = self.changes
            if mark == self._saved_changes and self._saved_base == self.base_url:
                return
            text, files = snapshot(self.world, self.base_url, self.persist_folder)
            await asyncio.to_thread(write_world_files, self.persist_folder, text, files)
            self._saved_changes, self._saved_base = mark, self.base_url

    async def _save_loop(self) -> None:
        while True:
            await asyncio.sleep(self.save_interval)
            try:
                await self.save()
            except Exception:  # noqa: BLE001 — a full disk must not take the sandbox down; try again later
                log.exception("could not save the sandbox world to %s", self.persist_folder)

    def patch_discord(self) -> Callable[[], None]:
        return point_discord_at(self.base_url)

    @contextlib.asynccontextmanager
    async def connected(self, client: discord.Client, timeout: float = 5.0) -> AsyncIterator[discord.Client]:
        """Log `client` in, run it in this loop until it is ready, and close it on exit."""
        await client.login(self.token)
        task = asyncio.create_task(client.connect(), name="sandbox-bot-connect")
        try:
            await asyncio.wait_for(client.wait_until_ready(), timeout)
            yield client
        finally:
            await client.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def clock(self) -> float:
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Age every interaction by `seconds` (deadline tests without sleeping)."""
        self._time_offset += seconds

    # -- world building --------------------------------------------------------------------------------------

    def add_guild(self, name: str) -> Guild:
        self.changed()
        return self.world.add_guild(name)

    def add_channel(self, guild: Guild, name: str) -> Channel:
        self.changed()
        return self.world.add_channel(guild, name)

    def add_user(
        self,
        name: str,
        locale: str = "en-US",
        dms_open: bool = True,
        manager: bool = False,
        guilds: list[Guild] | None = None,
    ) -> User:
        """Add a human user; they join `guilds` (default: every guild that exists now)."""
        self.changed()
        user = self.world.add_user(name, locale=locale, dms_open=dms_open, manager=manager)
        for guild in self.world.guilds.values() if guilds is None else guilds:
            self.world.add_member(guild, user)
        return user

    def add_member(self, guild: Guild, user: User) -> None:
        self.changed()
        self.world.add_member(guild, user)

    # -- faults and gateway observation ----------------------------------------------------------------------

    async def drop_gateway(self, code: int = 4000) -> int:
        return await self.gateway.drop(code)

    async def wait_for_bot(self, timeout: float = 5.0) -> None:
        """Wait until a bot session has identified and is connected."""
        await self.gateway.wait(lambda g: bool(g.connected), timeout)

    async def wait_for_resume(self, count: int = 1, timeout: float = 5.0) -> None:
        """Wait until the gateway has seen `count` RESUMEs in total and the bot is connected again."""
        await self.gateway.wait(lambda g: g.resumes >= count and bool(g.connected), timeout)

    async def wait_for_commands(self, *names: str, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            synced = set(self.world.global_commands)
            for cmds in self.world.guild_commands.values():
                synced |= set(cmds)
            if set(names) <= synced:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"commands {sorted(set(names) - synced)} were not synced within {timeout}s"
                )
            await asyncio.sleep(0.01)

    def inject_429(
        self, method: str, path: str, *, count: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> Injected429:
        """Answer the next `count` requests with this method whose API path matches the regex `path`."""
        rule = Injected429(method.upper(), re.compile(path), count, retry_after, is_global)
        self._429s.append(rule)
        return rule

    def inject_fault(
        self, method: str, path: str, status: int, *, code: int = 0, message: str = "", count: int = 1
    ) -> InjectedFault:
        """Answer the next `count` requests with this method whose API path matches the regex `path` with an
        error, as Discord would: 5xx for an outage, 403 with code 50013 for a missing permission, and so on."""
        text = message or {403: "Missing Permissions", 503: "Service Unavailable"}.get(status, "Error")
        fault = InjectedFault(method.upper(), re.compile(path), count, status, code, text)
        self._faults.append(fault)
        return fault

    def hold(self, method: str, path: str, stage: str = "before") -> Hold:
        """Hold matching requests until the returned Hold's `release` is set (see Hold)."""
        assert stage in ("before", "after")
        rule = Hold(method.upper(), re.compile(path), stage)
        self._holds.append(rule)
        return rule

    def bot_violations(self) -> list[Violation]:
        return [v for v in self.violations if v.actor == "bot"]

    # -- HTTP plumbing ---------------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        self.requests += 1
        api = request.path.startswith("/api/")
        if api:
            resource = request.match_info.route.resource  # None for a path no route matches
            self.calls[f"{request.method} {resource.canonical if resource else request.path}"] += 1
        if request.method != "GET":
            self.changed()  # anything but a read may change the world (opening a DM channel, ...)
        if api:
            rule = next(
                (
                    r
                    for r in self._429s
                    if r.remaining > 0 and r.method == request.method and r.path_pattern.search(request.path)
                ),
                None,
            )
            if rule is not None:
                rule.remaining -= 1
                rule.hits.append(request.path)
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": rule.retry_after,
                    "global": rule.is_global,
                }
                resp = json_response(body, status=429)
                resp.headers["Via"] = "1.1 google"
                resp.headers["Retry-After"] = str(rule.retry_after)
                self._ratelimit_headers(request, resp, remaining=0, reset_after=rule.retry_after)
                if rule.is_global:
                    resp.headers["X-RateLimit-Global"] = "true"
                return resp
            fault = next(
                (
                    f
                    for f in self._faults
                    if f.remaining > 0 and f.method == request.method and f.path_pattern.search(request.path)
                ),
                None,
            )
            if fault is not None:
                fault.remaining -= 1
                fault.hits.append(request.path)
                return json_response({"message": fault.message, "code": fault.code}, status=fault.status)
        hold = next(
            (
                h
                for h in self._holds
                if api
                and not h.release.is_set()
                and h.method == request.method
                and h.path_pattern.search(request.path)
            ),
            None,
        )
        if hold is not None:
            hold.hits.append(request.path)
            if hold.stage == "before":
                hold.arrived.set()
                await hold.release.wait()
        try:
            response: web.StreamResponse = await handler(request)
        except DiscordError as err:
            self.violations.append(
                Violation("bot", request.method, request.path, err.status, err.code, err.message, err.errors)
            )
            response = json_response(err.body(), status=err.status)
        except web.HTTPException as err:
            if not api or err.status < 400:
                raise
            # A route the sandbox does not implement: say so loudly instead of letting the bot guess.
            detail = f"{err.status}: route not implemented by the sandbox"
            self.violations.append(Violation("sandbox", request.method, request.path, err.status, 0, detail))
            response = json_response({"message": detail, "code": 0}, status=err.status)
        except Exception as err:
            if not api:
                raise
            # A sandbox bug must fail the bot's call at once: a 500 would make discord.py retry for seconds.
            log.exception("sandbox error on %s %s", request.method, request.path)
            detail = f"sandbox internal error: {err!r}"
            self.violations.append(Violation("sandbox", request.method, request.path, 400, 0, detail))
            response = json_response({"message": detail, "code": 0}, status=400)
        if api:
            self._ratelimit_headers(request, response)
        if hold is not None and hold.stage == "after":
            hold.arrived.set()
            await hold.release.wait()
        return response

    def _ratelimit_headers(
        self,
        request: web.Request,
        response: web.StreamResponse,
        remaining: int = 49,
        reset_after: float = 1.0,
    ) -> None:
        if response.prepared:
            return
        route = (
            request.match_info.route.resource.canonical if request.match_info.route.resource else request.path
        )
        bucket = hashlib.sha1(f"{request.method} {route}".encode()).hexdigest()[:16]
        response.headers["X-RateLimit-Limit"] = "50"
        response.headers["X-RateLimit-Remaining"] = str(remaining)
        response.headers["X-RateLimit-Reset"] = f"{time.time() + reset_after:.3f}"
        response.headers["X-RateLimit-Reset-After"] = f"{reset_after:.3f}"
        response.headers["X-RateLimit-Bucket"] = bucket

    def check_bot_auth(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        channel_id = request.match_info["channel_id"]
        attachment_id = request.match_info["attachment_id"]
        for mid in reversed(self.world.channel_messages.get(channel_id, [])):
            for att in self.world.messages[mid].attachments:
                if att.id == attachment_id and not att.evicted:
                    return web.Response(body=att.data, headers={"Content-Type": att.content_type})
        return web.Response(status=404, text="asset not found")

    # -- events ----------------------------------------------------------------------------------------------

    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._feeds.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self._feeds.discard(queue)

    def notify_feed(self, event: dict[str, Any]) -> None:
        self.changed()
        for queue in self._feeds:
            queue.put_nowait(event)

    async def _message_event(self, kind: str, msg: Message) -> None:
        """Tell waiters, the browser feed and the bot (MESSAGE_CREATE/UPDATE/DELETE) about a change."""
        if kind != "delete":
            for pred, fut in list(self._waiters):
                if not fut.done() and _safe(pred, msg):
                    fut.set_result(msg)
        self.notify_feed({"type": f"message_{kind}", "message_id": msg.id, "channel_id": msg.channel_id})
        if not self.dispatch_message_events or msg.ephemeral:
            return
        channel = self.world.channels[msg.channel_id]
        intent = INTENT_DIRECT_MESSAGES if channel.is_dm else INTENT_GUILD_MESSAGES
        if kind == "delete":
            data: dict[str, Any] = {"id": msg.id, "channel_id": msg.channel_id}
            if msg.guild_id:
                data["guild_id"] = msg.guild_id
            await self.gateway.dispatch("MESSAGE_DELETE", data, msg.guild_id, intent)
            return
        payload = self.world.message_payload(msg)
        if msg.guild_id:
            author = self.world.users[msg.author_id]
            guild = self.world.guilds[msg.guild_id]
            member = self.world.member_payload(author, guild)
            member.pop("user")
            payload["member"] = member

        def redact(session: Session, data: dict[str, Any]) -> dict[str, Any]:
            # Without the message content intent, Discord blanks others' messages unless they mention the bot.
            if session.intents & INTENT_MESSAGE_CONTENT or msg.author_id == self.world.bot.id:
                return data
            if channel.is_dm or self.world.bot.id in msg.mention_ids:
                return data
            return dict(data, content="", embeds=[], attachments=[], components=[])

        event = "MESSAGE_CREATE" if kind == "create" else "MESSAGE_UPDATE"
        await self.gateway.dispatch(event, payload, msg.guild_id, intent, redact)

    async def message_changed(self, msg: Message) -> None:
        await self._message_event("update", msg)

    async def channel_event(self, event: str, channel: Channel, extra: dict[str, Any] | None = None) -> None:
        payload = self.world.channel_payload(channel)
        if extra:
            payload.update(extra)
        self.notify_feed({"type": event.lower(), "channel_id": channel.id})
        await self.gateway.dispatch(event, payload, channel.guild_id)

    # -- messages (shared by REST routes and interactions) ---------------------------------------------------

    def _mentions(self, msg: Message, body: dict[str, Any]) -> None:
        texts = [msg.content] + [
            str(c.get("content", "")) for c in msg.iter_components() if c.get("type") == 10
        ]
        mentioned = [u for u in dict.fromkeys(MENTION_RE.findall("\n".join(texts))) if u in self.world.users]
        msg.mention_ids = mentioned
        allowed = body.get("allowed_mentions")
        if allowed is None:
            pinged = mentioned
        else:
            explicit = [str(u) for u in allowed.get("users") or []]
            parse = allowed.get("parse") or []
            pinged = [u for u in mentioned if "users" in parse or u in explicit]
        msg.pinged_ids = [] if msg.ephemeral else pinged

    def _attachments(
        self, channel: Channel, body: dict[str, Any], files: Files, keep: list[Attachment]
    ) -> list[Attachment]:
        """Resolve the body's attachment list: kept ones by snowflake, uploads by their files[n] index."""
        entries = body.get("attachments")
        if entries is None:
            entries = [{"id": i} for i in sorted(files)]
        by_id = {a.id: a for a in keep}
        out: list[Attachment] = []
        for entry in entries:
            raw_id = str(entry.get("id"))
            if raw_id in by_id:
                out.append(by_id[raw_id])
                continue
            if not raw_id.isdigit() or int(raw_id) not in files:
                raise form_error("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {raw_id}")
            name, data, ctype = files[int(raw_id)]
            filename = str(entry.get("filename") or name)
            att_id = self.world.ids.next()
            # discord.py uploads every file as application/octet-stream; Discord types it by its name.
            guessed = mimetypes.guess_type(filename)[0]
            content_type = guessed or ctype
            size = png_size(data)
            out.append(
                Attachment(
                    id=att_id,
                    filename=filename,
                    data=data,
                    content_type=content_type,
                    url=f"{self.base_url}/attachments/{channel.id}/{att_id}/{filename}",
                    description=entry.get("description"),
                    width=size[0] if size else None,
                    height=size[1] if size else None,
                )
            )
            self._keep(out[-1])
        return out

    def _keep(self, att: Attachment) -> None:
        self._kept.append(att)
        self._kept_bytes += att.size
        while self._kept_bytes > self.attachment_memory and len(self._kept) > 1:
            old = self._kept.popleft()
            self._kept_bytes -= old.size
            old.data, old.evicted = b"", True
            self.attachments_evicted += 1

    def _check_files(self, files: Files, limit: int | None = None) -> None:
        limit = limit or self.attachment_size_limit
        if any(len(data) > limit for _, data, _ in files.values()):
            raise DiscordError(413, 40005, "Request entity too large")

    async def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        files: Files,
        *,
        audience: Audience | None = None,
        record: InteractionRecord | None = None,
        loading: bool = False,
    ) -> Message:
        # A deferred reply's placeholder has no body yet; it is checked when it is filled in.
        check_message(body, new_files=len(files), is_edit=loading)
        self._check_files(files)
        flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
        if loading:
            flags |= FLAG_LOADING
        if not (flags & FLAG_EPHEMERAL and record is not None):
            flags &= ~FLAG_EPHEMERAL
        if audience is None:
            if flags & FLAG_EPHEMERAL and record is not None:
                audience = Audience("ephemeral", record.user_id)
            elif channel.is_dm:
                audience = Audience("dm", channel.recipient_id)
            else:
                audience = Audience("public")
        msg = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author.id,
            audience=audience,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
        )
        msg.attachments = self._attachments(channel, body, files, [])
        resolve_attachment_refs(msg)
        if record is not None:
            msg.webhook_id = self.world.application_id
            msg.application_id = self.world.application_id
            msg.interaction_id = record.id
            msg.interaction_user_id = record.user_id
            msg.interaction_type = record.type
            msg.interaction_name = f"/{record.name}" if record.type == APPLICATION_COMMAND else record.name
        self._mentions(msg, body)
        if channel.is_thread:
            await self._touch_thread(channel, msg.pinged_ids)
        self.world.add_message(msg)
        await self._message_event("create", msg)
        return msg

    async def edit_message(self, msg: Message, body: dict[str, Any], files: Files) -> Message:
        check_message(body, new_files=len(files), is_edit=True)
        self._check_files(files)
        was_loading = msg.loading
        channel = self.world.channels[msg.channel_id]
        before = {
            "content": msg.content,
            "embeds": msg.embeds,
            "components": msg.components,
            "attachments": [a.filename for a in msg.attachments],
        }
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = list(body["embeds"] or [])
        if "components" in body:
            msg.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            requested = int(body["flags"])
            if msg.flags & FLAG_COMPONENTS_V2 and not requested & FLAG_COMPONENTS_V2:
                raise form_error(
                    "flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG", "Cannot remove IS_COMPONENTS_V2"
                )
            msg.flags = (msg.flags & ~EDITABLE_FLAGS) | (requested & EDITABLE_FLAGS)
        if "attachments" in body or files:
            # With an attachments list, what it names is all that stays; without one, uploads are appended.
            new = self._attachments(channel, body, files, msg.attachments)
            msg.attachments = new if "attachments" in body else msg.attachments + new
        resolve_attachment_refs(msg)
        if not (msg.content or msg.embeds or msg.components or msg.attachments):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        if msg.flags & FLAG_COMPONENTS_V2 and (msg.content or msg.embeds):
            raise form_error(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "content and embeds cannot be used with IS_COMPONENTS_V2",
            )
        if was_loading:
            # Filling in a deferred "thinking" message is its real send: it pings now, and is not "edited".
            msg.flags &= ~FLAG_LOADING
            self._mentions(msg, body)
        else:
            msg.edited_at = iso_now()
            msg.edit_count += 1
            msg.history.append(dict(before, at=msg.edited_at))
            pinged = msg.pinged_ids
            self._mentions(msg, body)
            msg.pinged_ids = pinged
        await self._message_event("update", msg)
        return msg

    async def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        await self._message_event("delete", msg)

    async def _touch_thread(self, thread: Channel, pinged: list[str]) -> None:
        """Sending into a thread unarchives it and adds pinged users as members, as on Discord."""
        changed = False
        if thread.archived and not thread.locked:
            thread.archived = False
            thread.archive_timestamp = iso_now()
            changed = True
        for uid in pinged:
            if uid not in thread.member_ids:
                thread.member_ids.append(uid)
        if changed:
            await self.channel_event("THREAD_UPDATE", thread)

    # -- interactions: dispatch ------------------------------------------------------------------------------

    def _reject(self, code: str, detail: str, action: str) -> ActionRejected:
        self.violations.append(Violation("client", "ACTION", action, 0, code, detail))
        return ActionRejected(code, detail)

    def _interaction_payload(
        self,
        rec: InteractionRecord,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        message: Message | None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": rec.id,
            "application_id": self.world.application_id,
            "type": rec.type,
            "token": rec.token,
            "version": 1,
            "channel_id": channel.id,
            "channel": self.world.channel_payload(channel),
            "locale": user.locale,
            "app_permissions": str(BOT_PERMISSIONS),
            "attachment_size_limit": self.attachment_size_limit,
            "entitlements": [],
            "data": data,
        }
        guild = self.world.guild_of(channel)
        if guild is not None:
            payload["guild_id"] = guild.id
            payload["guild"] = {"id": guild.id, "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = self.world.member_payload(user, guild, with_permissions=True)
            payload["authorizing_integration_owners"] = {"0": guild.id}
            payload["context"] = 0
        else:
            payload["user"] = user.payload()
            payload["authorizing_integration_owners"] = {"0": self.world.application_id}
            payload["context"] = 1
        if message is not None:
            payload["message"] = self.world.message_payload(message)
        return payload

    async def _dispatch_interaction(
        self,
        itype: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        name: str,
        message: Message | None = None,
    ) -> InteractionResult:
        rec = InteractionRecord(
            id=self.world.ids.next(),
            token=f"aW50ZXJhY3Rpb246{secrets.token_urlsafe(48)}",
            type=itype,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            created=self.clock(),
            name=name,
            source_message_id=message.id if message else None,
        )
        self._prune_interactions()
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        payload = self._interaction_payload(rec, user, channel, data, message)
        rec.payload = payload
        await self.gateway.dispatch("INTERACTION_CREATE", payload, channel.guild_id)
        return InteractionResult(rec, self.world, self.clock)

    def _prune_interactions(self) -> None:
        """Forget expired interactions once there are many (long load runs), oldest first."""
        if len(self.interactions) < self.max_interactions:
            return
        now = self.clock()
        for rec in list(self.interactions.values()):
            if now - rec.created <= self.token_lifetime:
                break
            del self.interactions[rec.id]
            self._by_token.pop(rec.token, None)

    def _check_can_act(self, user: User, channel: Channel, action: str) -> None:
        if not self.world.can_view_channel(user, channel):
            raise self._reject("cannot_view_channel", f"{user.name} cannot see channel {channel.id}", action)
        if channel.is_thread and channel.locked and not user.manager:
            raise self._reject("thread_locked", f"thread {channel.name} is locked", action)

    async def _finish(self, result: InteractionResult, wait: bool, timeout: float) -> InteractionResult:
        return await result.wait(timeout) if wait else result

    # -- user actions ----------------------------------------------------------------------------------------

    async def slash(
        self,
        user: User | str,
        channel: Channel | str,
        path: str,
        options: dict[str, Any] | None = None,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Run `/path` (e.g. "play new") with options, as the Discord client would send it."""
        u, ch = self.world.user(user), self.world.channel(channel)
        action = f"/{path}"
        self._check_can_act(u, ch, action)
        try:
            command = find_command(self.world, ch, path)
            check_command_access(command, u, ch.is_dm)
            opts, resolved = build_command_options(self.world, command, path, options or {})
        except ActionRejected as err:
            raise self._reject(err.code, err.detail, action) from None
        data: dict[str, Any] = {"id": command.id, "name": command.name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if command.guild_id:
            data["guild_id"] = command.guild_id
        result = await self._dispatch_interaction(
            APPLICATION_COMMAND, u, ch, data, " ".join(split_path(path))
        )
        return await self._finish(result, wait, timeout)

    async def autocomplete(
        self,
        user: User | str,
        channel: Channel | str,
        path: str,
        options: dict[str, Any] | None,
        focused: str,
        *,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Type into the `focused` option and return the choices the bot offered ({"name", "value"} dicts)."""
        u, ch = self.world.user(user), self.world.channel(channel)
        action = f"/{path} autocomplete {focused}"
        self._check_can_act(u, ch, action)
        try:
            command = find_command(self.world, ch, path)
            check_command_access(command, u, ch.is_dm)
            opts, resolved = build_command_options(self.world, command, path, options or {}, focused=focused)
        except ActionRejected as err:
            raise self._reject(err.code, err.detail, action) from None
        data: dict[str, Any] = {"id": command.id, "name": command.name, "type": 1, "options": opts}
        if command.guild_id:
            data["guild_id"] = command.guild_id
        result = await self._dispatch_interaction(AUTOCOMPLETE, u, ch, data, action)
        await result.wait(timeout)
        return list(result.choices or [])

    def _component_target(
        self, user: User, message: Message | str, custom_id: str, kinds: tuple[int, ...], action: str
    ) -> tuple[Message, Channel, dict[str, Any]]:
        msg = self.world.message(message)
        msg = self.world.messages[msg.id]
        channel = self.world.channels[msg.channel_id]
        self._check_can_act(user, channel, action)
        if not msg.visible_to(user.id):
            raise self._reject("message_not_visible", f"{user.name} cannot see message {msg.id}", action)
        if msg.loading:
            raise self._reject("message_loading", f"message {msg.id} is still loading", action)
        comp = msg.component(custom_id)
        if comp is None:
            raise self._reject("unknown_component", f"no component {custom_id!r} on message {msg.id}", action)
        if comp.get("type") not in kinds:
            raise self._reject("wrong_component_type", f"{custom_id!r} has type {comp.get('type')}", action)
        if comp.get("disabled"):
            raise self._reject("component_disabled", f"{custom_id!r} is disabled", action)
        return msg, channel, comp

    async def click(
        self,
        user: User | str,
        message: Message | str,
        custom_id: str,
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Press a button on a message the user can see."""
        u = self.world.user(user)
        action = f"click {custom_id}"
        msg, channel, _ = self._component_target(u, message, custom_id, (2,), action)
        data = {"custom_id": custom_id, "component_type": 2}
        result = await self._dispatch_interaction(MESSAGE_COMPONENT, u, channel, data, action, msg)
        return await self._finish(result, wait, timeout)

    async def select(
        self,
        user: User | str,
        message: Message | str,
        custom_id: str,
        values: list[str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Choose `values` in a select menu (string selects check the values are among its options)."""
        u = self.world.user(user)
        action = f"select {custom_id}"
        msg, channel, comp = self._component_target(u, message, custom_id, (3, 5, 6, 7, 8), action)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not low <= len(values) <= high:
            raise self._reject("bad_value_count", f"{len(values)} values, allowed {low}..{high}", action)
        if comp.get("type") == 3:
            allowed = {o.get("value") for o in comp.get("options") or []}
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise self._reject("unknown_select_value", f"{unknown} not among the options", action)
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": [str(v) for v in values]}
        result = await self._dispatch_interaction(MESSAGE_COMPONENT, u, channel, data, action, msg)
        return await self._finish(result, wait, timeout)

    async def submit_modal(
        self,
        user: User | str,
        opened_by: InteractionResult,
        values: dict[str, str],
        *,
        wait: bool = True,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Submit the modal the bot opened in answer to `opened_by` (values keyed by text input custom_id)."""
        u = self.world.user(user)
        rec = opened_by.record
        modal = rec.modal
        action = "submit modal"
        if modal is None or rec.user_id != u.id:
            raise self._reject("no_modal", f"{u.name} has no modal open from interaction {rec.id}", action)
        if rec.modal_submitted:
            raise self._reject("modal_closed", "this modal was already submitted", action)
        components = self._modal_answers(modal, values, action)
        rec.modal_submitted = True
        channel = self.world.channels[rec.channel_id]
        source = self.world.messages.get(rec.source_message_id or "")
        data = {"custom_id": modal["custom_id"], "components": components}
        result = await self._dispatch_interaction(MODAL_SUBMIT, u, channel, data, action, source)
        return await self._finish(result, wait, timeout)

    def _modal_answers(
        self, modal: dict[str, Any], values: dict[str, str], action: str
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        known: set[str] = set()
        for comp in modal.get("components") or []:
            if comp.get("type") == 18:
                inputs = [comp.get("component") or {}]
            elif comp.get("type") == 1:
                inputs = comp.get("components") or []
            else:
                continue
            answers = []
            for item in inputs:
                cid = str(item.get("custom_id"))
                known.add(cid)
                if item.get("type") == 4:
                    value = str(values.get(cid, item.get("value") or ""))
                    if item.get("required", True) and not value:
                        raise self._reject("modal_field_required", f"{cid!r} is required", action)
                    if value and not int(item.get("min_length", 0)) <= len(value) <= int(
                        item.get("max_length", 4000)
                    ):
                        raise self._reject("modal_field_length", f"{cid!r} has a bad length", action)
                    answers.append({"type": 4, "custom_id": cid, "value": value})
                else:
                    chosen = values.get(cid, [])
                    answers.append(
                        {
                            "type": item.get("type"),
                            "custom_id": cid,
                            "values": list(chosen) if isinstance(chosen, list) else [chosen],
                        }
                    )
            if comp.get("type") == 18:
                out.append({"type": 18, "component": answers[0]})
            else:
                out.append({"type": 1, "components": answers})
        unknown = set(values) - known
        if unknown:
            raise self._reject("unknown_modal_field", f"no fields {sorted(unknown)} in the modal", action)
        return out

    async def say(self, user: User | str, channel: Channel | str, content: str) -> Message:
        """Post a plain message as a user (dispatched to the bot as MESSAGE_CREATE)."""
        u, ch = self.world.user(user), self.world.channel(channel)
        self._check_can_act(u, ch, "say")
        try:
            check_message({"content": content}, new_files=0, is_edit=False)
        except DiscordError as err:
            raise self._reject(str(err.code), err.message, "say") from None
        return await self.create_message(ch, u, {"content": content}, {})

    # -- observers -------------------------------------------------------------------------------------------

    def messages(self, channel: Channel | str, viewer: User | str | None = None) -> list[Message]:
        ch = self.world.channel(channel)
        if viewer is None:
            return self.world.channel_history(ch)
        return self.world.visible_to(self.world.user(viewer), ch)

    def visible_to(self, user: User | str, channel: Channel | str | None = None) -> list[Message]:
        ch = self.world.channel(channel) if channel is not None else None
        return self.world.visible_to(self.world.user(user), ch)

    def dms(self, user: User | str) -> list[Message]:
        return self.world.dms(self.world.user(user))

    def dms_sent(self, user: User | str) -> list[Message]:
        return self.world.dms_sent(self.world.user(user))

    def threads(self, channel: Channel | str) -> list[Channel]:
        return self.world.threads(self.world.channel(channel))

    def latest_with_components(
        self, channel: Channel | str, viewer: User | str | None = None
    ) -> Message | None:
        msgs = [m for m in self.messages(channel, viewer) if m.interactive()]
        return msgs[-1] if msgs else None

    async def wait_for(
        self, predicate: Callable[[Message], bool], timeout: float = 5.0, *, include_existing: bool = True
    ) -> Message:
        """The first message matching `predicate`: an existing one, or the next one created or edited."""
        if include_existing:
            for msg in self.world.messages.values():
                if not msg.deleted and _safe(predicate, msg):
                    return msg
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        entry = (predicate, fut)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            raise TimeoutError(f"no matching message within {timeout}s") from None
        finally:
            self._waiters.remove(entry)

    async def wait_until(
        self, condition: Callable[[], bool], timeout: float = 5.0, interval: float = 0.01
    ) -> None:
        """Poll any condition on the world (threads created, a thread renamed, ...) until it holds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition still false after {timeout}s")
            await asyncio.sleep(interval)

    # -- interactions: responses (called by the REST layer) --------------------------------------------------

    def record_for(self, token: str, interaction_id: str | None = None) -> InteractionRecord:
        rec = self._by_token.get(token)
        if rec is None or (interaction_id is not None and rec.id != interaction_id):
            raise DiscordError(404, 10062, "Unknown interaction")
        return rec

    def webhook_record(self, application_id: str, token: str) -> InteractionRecord:
        rec = self._by_token.get(token)
        if application_id != self.world.application_id or rec is None or rec.ack_type is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.clock() - rec.created > self.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return rec

    async def acknowledge(self, rec: InteractionRecord, body: dict[str, Any], files: Files) -> dict[str, Any]:
        """Handle POST /interactions/{id}/{token}/callback; returns the with_response=1 body."""
        if rec.ack_type is not None or rec.acking:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if self.clock() - rec.created > self.ack_deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        rec.acking = True
        try:
            return await self._acknowledge(rec, body, files)
        finally:
            rec.acking = False

    async def _acknowledge(
        self, rec: InteractionRecord, body: dict[str, Any], files: Files
    ) -> dict[str, Any]:
        ctype = body.get("type")
        if ctype not in ALLOWED_CALLBACKS[rec.type] or (ctype in (6, 7) and rec.source_message_id is None):
            raise form_error(
                "type", "INTERACTION_RESPONSE_TYPE_INVALID", "Interaction response type is invalid"
            )
        data = body.get("data") or {}
        user = self.world.users[rec.user_id]
        channel = self.world.channels[rec.channel_id]
        message: Message | None = None
        if ctype in (4, 5):
            if ctype == 5:
                message = await self.create_message(
                    channel, self.world.bot, {"flags": data.get("flags")}, {}, record=rec, loading=True
                )
            else:
                message = await self.create_message(channel, self.world.bot, data, files, record=rec)
            rec.original_message_id = message.id
            rec.message_ids.append(message.id)
        elif ctype in (6, 7):
            rec.original_message_id = rec.source_message_id
            if ctype == 7:
                message = await self.edit_message(
                    self.world.messages[rec.source_message_id or ""], data, files
                )
                rec.edited_ids.append(message.id)
        elif ctype == 8:
            check_choices(data.get("choices"))
            rec.choices = list(data["choices"])
        elif ctype == 9:
            check_modal(data)
            rec.modal = data
        rec.ack_type = ctype
        rec.ack_at = self.clock()
        rec.acked.set()
        if ctype in (4, 7, 8, 9):
            rec.complete()
        self.notify_feed(
            {"type": "interaction_ack", "interaction_id": rec.id, "user_id": user.id, "callback": ctype}
        )
        out: dict[str, Any] = {
            "interaction": {
                "id": rec.id,
                "type": rec.type,
                "response_message_id": rec.original_message_id,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            }
        }
        if message is not None:
            out["resource"] = {"type": ctype, "message": self.world.message_payload(message)}
        return out

    def _own_message(self, rec: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            if rec.original_message_id is None:
                raise DiscordError(404, 10008, "Unknown Message")
            message_id = rec.original_message_id
        if message_id not in rec.message_ids and message_id != rec.original_message_id:
            raise DiscordError(404, 10008, "Unknown Message")
        msg = self.world.messages[message_id]
        if msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    def webhook_message(self, rec: InteractionRecord, message_id: str) -> Message:
        return self._own_message(rec, message_id)

    async def webhook_edit(
        self, rec: InteractionRecord, message_id: str, body: dict[str, Any], files: Files
    ) -> Message:
        msg = self._own_message(rec, message_id)
        await self.edit_message(msg, body, files)
        if msg.id not in rec.message_ids:
            rec.edited_ids.append(msg.id)
        rec.complete()
        return msg

    async def followup(self, rec: InteractionRecord, body: dict[str, Any], files: Files) -> Message:
        original = self.world.messages.get(rec.original_message_id or "")
        if rec.ack_type == 5 and original is not None and original.loading:
            # Discord turns the first followup after a deferred reply into that reply (keeping its flags).
            check_message(body, new_files=len(files), is_edit=False)
            edit_body = {k: v for k, v in body.items() if k != "flags"}
            await self.edit_message(original, edit_body, files)
            rec.complete()
            return original
        channel = self.world.channels[rec.channel_id]
        msg = await self.create_message(channel, self.world.bot, body, files, record=rec)
        rec.message_ids.append(msg.id)
        rec.complete()
        return msg

    def note_bot_edit(self, msg: Message) -> None:
        """A bot-auth edit of a clicked message completes the deferred update (type 6) awaiting it."""
        for rec in self.interactions.values():
            if rec.source_message_id == msg.id and rec.ack_type == 6 and not rec.completed.is_set():
                rec.edited_ids.append(msg.id)
                rec.complete()


def resolve_attachment_refs(msg: Message) -> None:
    """Point `attachment://name` URLs in embeds and media components at the uploaded file, as Discord does."""
    urls = {a.filename: a.url for a in msg.attachments}

    def fix(holder: Any, key: str) -> None:
        if isinstance(holder, dict) and isinstance(holder.get(key), dict):
            url = holder[key].get("url")
            if isinstance(url, str) and url.startswith("attachment://") and url[13:] in urls:
                holder[key] = dict(holder[key], url=urls[url[13:]], proxy_url=urls[url[13:]])

    for embed in msg.embeds:
        for key in ("image", "thumbnail"):
            fix(embed, key)
    for comp in msg.iter_components():
        if comp.get("type") == 11:
            fix(comp, "media")
        elif comp.get("type") == 12:
            for item in comp.get("items") or []:
                fix(item, "media")
        elif comp.get("type") == 13:
            fix(comp, "file")


def _safe(predicate: Callable[[Message], bool], msg: Message) -> bool:
    try:
        return bool(predicate(msg))
    except Exception:
        return False


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses JSON when the Content-Type is exactly "application/json" (no charset).
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


def demo_world(sb: DiscordSandbox) -> None:
    """The default standalone world: one server, a #games channel, four players (Carol has DMs closed)."""
    guild = sb.add_guild("Sandbox")
    sb.add_channel(guild, "games")
    sb.add_channel(guild, "lobby")
    sb.add_user("Alice", manager=True)
    sb.add_user("Bob", locale="ko")
    sb.add_user("Carol", dms_open=False)
    sb.add_user("Dave", locale="es-ES")


async def serve_forever(
    port: int, token: str, empty: bool, ack_deadline: float, world: str | None = None
) -> None:
    sb = DiscordSandbox(token=token, ack_deadline=ack_deadline)
    restored = sb.persist_to(world) if world else False
    if not empty and not restored:
        demo_world(sb)
    await sb.start(port)
    print(f"sandbox on {sb.base_url}  api={sb.api_url}  gateway={sb.gateway_url}  token={token}", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await sb.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Discord-compatible sandbox server on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port (printed on stdout)")
    parser.add_argument("--token", default="sandbox-token")
    parser.add_argument("--empty", action="store_true", help="start without the demo guild and users")
    parser.add_argument("--ack-deadline", type=float, default=3.0)
    parser.add_argument("--world", help="keep the world in this folder (loaded at start, saved on changes)")
    args = parser.parse_args(argv)
    try:
        asyncio.run(serve_forever(args.port, args.token, args.empty, args.ack_deadline, args.world))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
