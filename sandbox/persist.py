"""Keep the sandbox world on disk, so stopping and restarting `make run` brings back the same Discord.

The bot's database refers to guild, channel, thread, message and user ids; the sandbox's world must come back
with the same ids for those games to go on. A world is saved as one folder:

    <folder>/world.json         guilds, channels, threads, DM channels, users, messages (components, embeds,
                                edit history), synced commands, the id generator's position
    <folder>/files/<id>         the bytes of every attachment a message still shows (replaced board images
                                are deleted at the next save)
    <folder>/.gitignore         "*", so a world kept inside a work tree never shows up in git

Interactions in flight are not kept (their tokens die with the bot that answered them); a deferred reply still
"thinking" when the sandbox stopped comes back as "The application did not respond", as on Discord.
Attachment URLs carry the server's address: a world loaded on another port is rebased when the server starts.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
from pathlib import Path
from typing import Any

from sandbox.model import (
    FLAG_LOADING,
    Attachment,
    Audience,
    Channel,
    Command,
    Guild,
    Message,
    User,
    World,
)

FORMAT = 1
WORLD_FILE = "world.json"
FILES_DIR = "files"
NO_RESPONSE = "The application did not respond"


class WorldFileError(RuntimeError):
    """The saved world cannot be read (corrupt, or written by an incompatible sandbox)."""


def dump_world(world: World, base_url: str) -> tuple[dict[str, Any], dict[str, Attachment]]:
    """The world as JSON-ready data, plus the attachments whose bytes must be on disk (by id)."""
    files: dict[str, Attachment] = {}
    messages = []
    for mid, msg in world.messages.items():
        if msg.deleted:
            continue
        data = {f.name: getattr(msg, f.name) for f in dataclasses.fields(Message) if f.name != "attachments"}
        data["audience"] = dataclasses.asdict(msg.audience)
        data["attachments"] = []
        for att in msg.attachments:
            entry = {f.name: getattr(att, f.name) for f in dataclasses.fields(Attachment) if f.name != "data"}
            data["attachments"].append(entry)
            if not att.evicted:
                files[att.id] = att
        data["id"] = mid
        messages.append(data)
    out = {
        "format": FORMAT,
        "base_url": base_url,
        "last_id": world.ids._last,
        "application_id": world.application_id,
        "bot": dataclasses.asdict(world.bot),
        "owner": dataclasses.asdict(world.owner),
        "users": [dataclasses.asdict(u) for u in world.users.values() if u is not world.bot],
        "guilds": [dataclasses.asdict(g) for g in world.guilds.values()],
        "channels": [dataclasses.asdict(c) for c in world.channels.values()],
        "messages": messages,
        "channel_messages": {
            cid: [m for m in ids if m in world.messages and not world.messages[m].deleted]
            for cid, ids in world.channel_messages.items()
        },
        "dm_channels": world.dm_channels,
        "global_commands": [dataclasses.asdict(c) for c in world.global_commands.values()],
        "guild_commands": {
            gid: [dataclasses.asdict(c) for c in cmds.values()] for gid, cmds in world.guild_commands.items()
        },
    }
    return out, files


def load_world(world: World, data: dict[str, Any], files: Path) -> str:
    """Replace `world`'s contents (in place: the server's routes hold on to the object) with saved data.

    Returns the base URL the world was saved under, so the caller can rebase attachment URLs.
    """
    if data.get("format") != FORMAT:
        raise WorldFileError(f"unsupported sandbox world format {data.get('format')!r}")
    fresh = World(bot_name=data["bot"]["name"])
    fresh.ids._last = int(data["last_id"])
    fresh.application_id = str(data["application_id"])
    fresh.bot = User(**data["bot"])
    fresh.owner = User(**data["owner"])
    fresh.users = {fresh.bot.id: fresh.bot}
    for raw in data["users"]:
        user = User(**raw)
        fresh.users[user.id] = user
    fresh.guilds = {g["id"]: Guild(**g) for g in data["guilds"]}
    fresh.channels = {c["id"]: Channel(**c) for c in data["channels"]}
    for raw in data["messages"]:
        raw = dict(raw)
        raw["audience"] = Audience(**raw["audience"])
        attachments = []
        for entry in raw.pop("attachments"):
            path = files / entry["id"]
            att = Attachment(data=b"", **entry)
            if not att.evicted:
                try:
                    att.data = path.read_bytes()
                except OSError:
                    att.evicted = True  # the file went missing: served as 404, like an evicted one
            attachments.append(att)
        msg = Message(attachments=attachments, **raw)
        if msg.loading:
            # The bot was still "thinking" when the sandbox stopped; Discord gives up on such replies.
            msg.flags &= ~FLAG_LOADING
            msg.content = msg.content or f"*{NO_RESPONSE}*"
        fresh.messages[msg.id] = msg
    fresh.channel_messages = {
        cid: [m for m in ids if m in fresh.messages] for cid, ids in data["channel_messages"].items()
    }
    for cid in fresh.channels:
        fresh.channel_messages.setdefault(cid, [])
    fresh.dm_channels = dict(data["dm_channels"])
    fresh.global_commands = {c["data"]["name"]: Command(**c) for c in data["global_commands"]}
    fresh.guild_commands = {
        gid: {c["data"]["name"]: Command(**c) for c in cmds} for gid, cmds in data["guild_commands"].items()
    }
    positions = [c.position for c in fresh.channels.values()]
    fresh._positions = itertools.count(max(positions, default=-1) + 1)
    world.__dict__.update(fresh.__dict__)
    return str(data.get("base_url") or "")


def rebase_urls(world: World, old: str, new: str) -> None:
    """Point every attachment URL (and embeds/components that copied one) at the server's new address."""
    if not old or old == new:
        return

    def fix(value: Any) -> Any:
        if isinstance(value, str):
            return new + value[len(old) :] if value.startswith(old + "/") else value
        if isinstance(value, list):
            return [fix(v) for v in value]
        if isinstance(value, dict):
            return {k: fix(v) for k, v in value.items()}
        return value

    for msg in world.messages.values():
        for att in msg.attachments:
            att.url = fix(att.url)
        msg.embeds = fix(msg.embeds)
        msg.components = fix(msg.components)


def read_world_file(folder: Path) -> dict[str, Any] | None:
    path = folder / WORLD_FILE
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise WorldFileError(f"cannot read {path}: {err}") from err


def write_world_files(folder: Path, text: str, files: dict[str, bytes]) -> None:
    """Write the attachment files that are new, world.json atomically, then delete files no longer shown.

    Runs in a worker thread: it touches only the arguments, never the live world.
    """
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# the local sandbox's saved world (sandbox/persist.py)\n*\n")
    store = folder / FILES_DIR
    store.mkdir(exist_ok=True)
    for att_id, data in files.items():
        path = store / att_id
        if not path.exists():
            tmp = store / f".{att_id}.tmp"
            tmp.write_bytes(data)
            os.replace(tmp, path)
    tmp = folder / f".{WORLD_FILE}.tmp"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, folder / WORLD_FILE)
    for path in store.iterdir():
        if path.name not in files and not path.name.startswith("."):
            path.unlink(missing_ok=True)


def snapshot(world: World, base_url: str, folder: Path) -> tuple[str, dict[str, bytes]]:
    """What `write_world_files` needs, taken from the live world in one go (no awaits in between)."""
    data, atts = dump_world(world, base_url)
    store = folder / FILES_DIR
    # Bytes only for files not yet on disk: the board images are written once each.
    files = {aid: (b"" if (store / aid).exists() else att.data) for aid, att in atts.items()}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")), files
