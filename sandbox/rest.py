"""The REST routes discord.py 2.7 uses, under /api/v10, with Discord's status codes and error bodies."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from sandbox.model import GUILD_TEXT, PRIVATE_THREAD, PUBLIC_THREAD, Channel, Command, Message, iso_now
from sandbox.validate import DiscordError, FormErrors, form_error

if TYPE_CHECKING:
    from sandbox.server import DiscordSandbox, Files

API = "/api/v10"
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")


async def read_body(request: web.Request) -> tuple[dict[str, Any], Files]:
    """A JSON body, or discord.py's multipart form (payload_json plus files[n])."""
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: Files = {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files["):
                data = await part.read()  # type: ignore[union-attr]
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files[int(name[6:-1])] = (
                    getattr(part, "filename", None) or f"file{len(files)}",
                    bytes(data),
                    ctype,
                )
        return payload, files
    if not request.can_read_body:
        return {}, {}
    raw = await request.read()
    if not raw:
        return {}, {}
    try:
        body = json.loads(raw)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
    # Command sync sends a bare JSON array; it is handed on under "_list".
    return (body if isinstance(body, dict) else {"_list": body}), {}


def add_rest_routes(app: web.Application, sb: DiscordSandbox) -> None:
    from sandbox.server import json_response

    world = sb.world

    def bot(handler: Any) -> Any:
        async def wrapped(request: web.Request) -> web.StreamResponse:
            sb.check_bot_auth(request)
            return await handler(request)  # type: ignore[no-any-return]

        return wrapped

    def channel_or_404(request: web.Request, key: str = "channel_id") -> Channel:
        channel = world.channels.get(request.match_info[key])
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def channel_message(channel: Channel, message_id: str) -> Message:
        msg = world.messages.get(message_id)
        if msg is None or msg.channel_id != channel.id or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    def no_content() -> web.Response:
        return web.Response(status=204)

    # -- identity --------------------------------------------------------------------------------------------

    async def get_me(request: web.Request) -> web.Response:
        return json_response(dict(world.bot.payload(), verified=True, mfa_enabled=False, flags=0))

    async def get_user(request: web.Request) -> web.Response:
        user = world.users.get(request.match_info["user_id"])
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def app_info(request: web.Request) -> web.Response:
        return json_response(
            {
                "id": world.application_id,
                "name": world.bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": world.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": world.bot.payload(),
                "summary": "",
                "team": None,
                "approximate_guild_count": len(world.guilds),
            }
        )

    async def gateway_bot(request: web.Request) -> web.Response:
        return json_response(
            {
                "url": sb.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def gateway_plain(request: web.Request) -> web.Response:
        return json_response({"url": sb.gateway_url})

    # -- commands --------------------------------------------------------------------------------------------

    def check_commands(items: list[dict[str, Any]]) -> None:
        errs = FormErrors()
        if len(items) > 100:
            errs.add("_list", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        seen: set[tuple[str, int]] = set()
        for i, cmd in enumerate(items):
            ctype = int(cmd.get("type", 1))
            name = str(cmd.get("name", ""))
            if ctype == 1 and (not COMMAND_NAME_RE.match(name) or name != name.lower()):
                errs.add(f"{i}.name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            if (name, ctype) in seen:
                errs.add(
                    f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command name {name!r}"
                )
            seen.add((name, ctype))
            if ctype == 1:
                desc = str(cmd.get("description", ""))
                if not 1 <= len(desc) <= 100:
                    errs.add(
                        f"{i}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                check_options(errs, f"{i}.options", cmd.get("options") or [], depth=0)
        errs.raise_if_any()

    def check_options(errs: FormErrors, path: str, options: list[dict[str, Any]], depth: int) -> None:
        if len(options) > 25:
            errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        optional_seen = False
        for j, opt in enumerate(options):
            opath = f"{path}.{j}"
            name = str(opt.get("name", ""))
            if not COMMAND_NAME_RE.match(name) or name != name.lower():
                errs.add(f"{opath}.name", "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid")
            if not 1 <= len(str(opt.get("description", ""))) <= 100:
                errs.add(
                    f"{opath}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                )
            otype = int(opt.get("type", 0))
            if otype in (1, 2):
                if otype == 2 and depth > 0 or otype == 1 and depth > 1:
                    errs.add(
                        f"{opath}.type",
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Subcommands nest too deep",
                    )
                check_options(errs, f"{opath}.options", opt.get("options") or [], depth + 1)
                continue
            if opt.get("required"):
                if optional_seen:
                    errs.add(
                        f"{opath}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                errs.add(f"{opath}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if choices and opt.get("autocomplete"):
                errs.add(
                    f"{opath}.autocomplete",
                    "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
                    "Autocomplete cannot be used with choices",
                )

    def stored(cmds: dict[str, Command]) -> list[dict[str, Any]]:
        return [command_payload(c) for c in cmds.values()]

    def command_payload(cmd: Command) -> dict[str, Any]:
        out = dict(cmd.data, id=cmd.id, application_id=world.application_id, version=cmd.id)
        out.setdefault("type", 1)
        out.setdefault("description", "")
        out.setdefault("default_member_permissions", None)
        if cmd.guild_id:
            out["guild_id"] = cmd.guild_id
        return out

    def sync(
        table: dict[str, Command], items: list[dict[str, Any]], guild_id: str | None
    ) -> dict[str, Command]:
        check_commands(items)
        new: dict[str, Command] = {}
        for item in items:
            # Discord keeps a command's id across overwrites of the same name.
            old = table.get(item["name"])
            new[item["name"]] = Command(id=old.id if old else world.ids.next(), data=item, guild_id=guild_id)
        return new

    def check_app(request: web.Request) -> None:
        if request.match_info["app_id"] != world.application_id:
            raise DiscordError(404, 10002, "Unknown Application")

    async def get_global_commands(request: web.Request) -> web.Response:
        check_app(request)
        return json_response(stored(world.global_commands))

    async def put_global_commands(request: web.Request) -> web.Response:
        check_app(request)
        body, _ = await read_body(request)
        world.global_commands = sync(world.global_commands, body.get("_list", []), None)
        sb.notify_feed({"type": "commands_synced"})
        return json_response(stored(world.global_commands))

    def guild_table(request: web.Request) -> str:
        check_app(request)
        gid = request.match_info["guild_id"]
        if gid not in world.guilds:
            raise DiscordError(404, 10004, "Unknown Guild")
        return gid

    async def get_guild_commands(request: web.Request) -> web.Response:
        gid = guild_table(request)
        return json_response(stored(world.guild_commands.get(gid, {})))

    async def put_guild_commands(request: web.Request) -> web.Response:
        gid = guild_table(request)
        body, _ = await read_body(request)
        world.guild_commands[gid] = sync(world.guild_commands.get(gid, {}), body.get("_list", []), gid)
        sb.notify_feed({"type": "commands_synced"})
        return json_response(stored(world.guild_commands[gid]))

    # -- interactions and webhooks (token in the URL, no bot auth) -------------------------------------------

    async def interaction_callback(request: web.Request) -> web.Response:
        rec = sb.record_for(request.match_info["token"], request.match_info["interaction_id"])
        body, files = await read_body(request)
        result = await sb.acknowledge(rec, body, files)
        if request.query.get("with_response") in ("1", "true", "True"):
            return json_response(result)
        return no_content()

    async def webhook_execute(request: web.Request) -> web.Response:
        rec = sb.webhook_record(request.match_info["app_id"], request.match_info["token"])
        body, files = await read_body(request)
        msg = await sb.followup(rec, body, files)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(world.message_payload(msg))
        return no_content()

    async def webhook_get(request: web.Request) -> web.Response:
        rec = sb.webhook_record(request.match_info["app_id"], request.match_info["token"])
        return json_response(world.message_payload(sb.webhook_message(rec, request.match_info["message_id"])))

    async def webhook_patch(request: web.Request) -> web.Response:
        rec = sb.webhook_record(request.match_info["app_id"], request.match_info["token"])
        body, files = await read_body(request)
        msg = await sb.webhook_edit(rec, request.match_info["message_id"], body, files)
        return json_response(world.message_payload(msg))

    async def webhook_delete(request: web.Request) -> web.Response:
        rec = sb.webhook_record(request.match_info["app_id"], request.match_info["token"])
        await sb.delete_message(sb.webhook_message(rec, request.match_info["message_id"]))
        return no_content()

    # -- channels and messages -------------------------------------------------------------------------------

    async def send_message(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        body, files = await read_body(request)
        if channel.is_dm:
            recipient = world.users[channel.recipient_id or ""]
            if not recipient.dms_open or not any(recipient.id in g.member_ids for g in world.guilds.values()):
                raise DiscordError(403, 50007, "Cannot send messages to this user")
        if channel.is_thread and channel.locked:
            raise DiscordError(403, 50083, "Thread is locked")
        msg = await sb.create_message(channel, world.bot, body, files)
        return json_response(world.message_payload(msg))

    async def list_messages(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        limit = max(1, min(100, int(request.query.get("limit", 50))))
        msgs = [m for m in world.channel_history(channel) if not m.ephemeral]
        if "before" in request.query:
            msgs = [m for m in msgs if int(m.id) < int(request.query["before"])]
        if "after" in request.query:
            msgs = [m for m in msgs if int(m.id) > int(request.query["after"])]
            msgs = msgs[:limit]
        else:
            msgs = msgs[-limit:]
        return json_response([world.message_payload(m) for m in reversed(msgs)])

    async def get_message(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        return json_response(
            world.message_payload(channel_message(channel, request.match_info["message_id"]))
        )

    async def edit_message(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        msg = channel_message(channel, request.match_info["message_id"])
        if msg.author_id != world.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        body, files = await read_body(request)
        await sb.edit_message(msg, body, files)
        sb.note_bot_edit(msg)
        return json_response(world.message_payload(msg))

    async def delete_message(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        await sb.delete_message(channel_message(channel, request.match_info["message_id"]))
        return no_content()

    async def typing(request: web.Request) -> web.Response:
        channel_or_404(request)
        return no_content()

    async def get_channel(request: web.Request) -> web.Response:
        return json_response(world.channel_payload(channel_or_404(request)))

    async def patch_channel(request: web.Request) -> web.Response:
        channel = channel_or_404(request)
        if channel.is_dm:
            raise DiscordError(400, 50024, "Cannot execute action on a DM channel")
        body, _ = await read_body(request)
        errs = FormErrors()
        if "name" in body:
            name = str(body["name"] or "")
            if not 1 <= len(name) <= 100:
                errs.add("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        errs.raise_if_any()
        if "name" in body:
            channel.name = str(body["name"])
        if channel.is_thread:
            if (
                "archived" in body
                and body["archived"] is not None
                and bool(body["archived"]) != channel.archived
            ):
                channel.archived = bool(body["archived"])
                channel.archive_timestamp = iso_now()
            if "locked" in body and body["locked"] is not None:
                channel.locked = bool(body["locked"])
            if body.get("auto_archive_duration"):
                channel.auto_archive_duration = int(body["auto_archive_duration"])
            await sb.channel_event("THREAD_UPDATE", channel)
        else:
            if "position" in body and body["position"] is not None:
                channel.position = int(body["position"])
            await sb.channel_event("CHANNEL_UPDATE", channel)
        return json_response(world.channel_payload(channel))

    def thread_name(body: dict[str, Any]) -> str:
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            errs = FormErrors()
            errs.add("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            errs.raise_if_any()
        return name

    async def announce_thread(thread: Channel) -> web.Response:
        member = {"id": thread.id, "user_id": world.bot.id, "join_timestamp": thread.created_at, "flags": 0}
        await sb.channel_event("THREAD_CREATE", thread, {"newly_created": True, "member": member})
        return json_response(dict(world.channel_payload(thread), member=member))

    async def thread_from_message(request: web.Request) -> web.Response:
        parent = channel_or_404(request)
        if parent.type != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        msg = channel_message(parent, request.match_info["message_id"])
        if msg.thread_id:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body, _ = await read_body(request)
        # A thread started from a message takes the message's id, as on Discord.
        thread = world.add_thread(parent, thread_name(body), world.bot.id, thread_id=msg.id)
        if body.get("auto_archive_duration"):
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        msg.thread_id = thread.id
        response = await announce_thread(thread)
        await sb.message_changed(msg)
        return response

    async def thread_without_message(request: web.Request) -> web.Response:
        parent = channel_or_404(request)
        if parent.type != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await read_body(request)
        thread = world.add_thread(parent, thread_name(body), world.bot.id)
        thread.type = (
            PRIVATE_THREAD if int(body.get("type") or PUBLIC_THREAD) == PRIVATE_THREAD else PUBLIC_THREAD
        )
        if body.get("auto_archive_duration"):
            thread.auto_archive_duration = int(body["auto_archive_duration"])
        return await announce_thread(thread)

    def thread_and_user(request: web.Request) -> tuple[Channel, str]:
        thread = channel_or_404(request)
        if not thread.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        uid = request.match_info["user_id"]
        uid = world.bot.id if uid == "@me" else uid
        guild = world.guild_of(thread)
        if uid not in world.users:
            raise DiscordError(404, 10013, "Unknown User")
        if guild is None or uid not in guild.member_ids:
            raise DiscordError(404, 10007, "Unknown Member")
        return thread, uid

    async def add_thread_member(request: web.Request) -> web.Response:
        thread, uid = thread_and_user(request)
        if thread.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        if uid not in thread.member_ids:
            thread.member_ids.append(uid)
            sb.notify_feed({"type": "thread_members_update", "channel_id": thread.id})
        return no_content()

    async def remove_thread_member(request: web.Request) -> web.Response:
        thread, uid = thread_and_user(request)
        if thread.archived:
            raise DiscordError(400, 50083, "Thread is archived")
        if uid in thread.member_ids:
            thread.member_ids.remove(uid)
            sb.notify_feed({"type": "thread_members_update", "channel_id": thread.id})
        return no_content()

    async def thread_members(request: web.Request) -> web.Response:
        thread = channel_or_404(request)
        return json_response(
            [
                {"id": thread.id, "user_id": uid, "join_timestamp": thread.created_at, "flags": 0}
                for uid in thread.member_ids
            ]
        )

    async def open_dm(request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user = world.users.get(str(body.get("recipient_id")))
        if user is None or user.bot:
            raise form_error("recipient_id", "BASE_TYPE_REQUIRED", "Unknown recipient")
        return json_response(world.channel_payload(world.dm_channel(user)))

    # -- guilds ----------------------------------------------------------------------------------------------

    def guild_or_404(request: web.Request) -> Any:
        guild = world.guilds.get(request.match_info["guild_id"])
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(request: web.Request) -> web.Response:
        payload = world.guild_create_payload(guild_or_404(request))
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            payload.pop(key, None)
        return json_response(payload)

    async def guild_channels(request: web.Request) -> web.Response:
        guild = guild_or_404(request)
        return json_response([world.channel_payload(c) for c in world.text_channels(guild)])

    async def get_member(request: web.Request) -> web.Response:
        guild = guild_or_404(request)
        uid = request.match_info["user_id"]
        if uid not in world.users:
            raise DiscordError(404, 10013, "Unknown User")
        if uid not in guild.member_ids:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(world.member_payload(world.users[uid], guild))

    async def active_threads(request: web.Request) -> web.Response:
        guild = guild_or_404(request)
        threads = [
            c for c in world.channels.values() if c.guild_id == guild.id and c.is_thread and not c.archived
        ]
        return json_response({"threads": [world.channel_payload(t) for t in threads], "members": []})

    r = app.router
    r.add_get(f"{API}/users/@me", bot(get_me))
    r.add_post(f"{API}/users/@me/channels", bot(open_dm))
    r.add_get(f"{API}/users/{{user_id}}", bot(get_user))
    r.add_get(f"{API}/oauth2/applications/@me", bot(app_info))
    r.add_get(f"{API}/applications/@me", bot(app_info))
    r.add_get(f"{API}/gateway/bot", bot(gateway_bot))
    r.add_get(f"{API}/gateway", gateway_plain)
    r.add_get(f"{API}/applications/{{app_id}}/commands", bot(get_global_commands))
    r.add_put(f"{API}/applications/{{app_id}}/commands", bot(put_global_commands))
    r.add_get(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", bot(get_guild_commands))
    r.add_put(f"{API}/applications/{{app_id}}/guilds/{{guild_id}}/commands", bot(put_guild_commands))
    r.add_post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", interaction_callback)
    r.add_post(f"{API}/webhooks/{{app_id}}/{{token}}", webhook_execute)
    r.add_get(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", webhook_get)
    r.add_patch(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", webhook_patch)
    r.add_delete(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{message_id}}", webhook_delete)
    r.add_post(f"{API}/channels/{{channel_id}}/messages", bot(send_message))
    r.add_get(f"{API}/channels/{{channel_id}}/messages", bot(list_messages))
    r.add_get(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", bot(get_message))
    r.add_patch(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", bot(edit_message))
    r.add_delete(f"{API}/channels/{{channel_id}}/messages/{{message_id}}", bot(delete_message))
    r.add_post(f"{API}/channels/{{channel_id}}/messages/{{message_id}}/threads", bot(thread_from_message))
    r.add_post(f"{API}/channels/{{channel_id}}/threads", bot(thread_without_message))
    r.add_get(f"{API}/channels/{{channel_id}}/thread-members", bot(thread_members))
    r.add_put(f"{API}/channels/{{channel_id}}/thread-members/{{user_id}}", bot(add_thread_member))
    r.add_delete(f"{API}/channels/{{channel_id}}/thread-members/{{user_id}}", bot(remove_thread_member))
    r.add_post(f"{API}/channels/{{channel_id}}/typing", bot(typing))
    r.add_get(f"{API}/channels/{{channel_id}}", bot(get_channel))
    r.add_patch(f"{API}/channels/{{channel_id}}", bot(patch_channel))
    r.add_get(f"{API}/guilds/{{guild_id}}", bot(get_guild))
    r.add_get(f"{API}/guilds/{{guild_id}}/channels", bot(guild_channels))
    r.add_get(f"{API}/guilds/{{guild_id}}/threads/active", bot(active_threads))
    r.add_get(f"{API}/guilds/{{guild_id}}/members/{{user_id}}", bot(get_member))
