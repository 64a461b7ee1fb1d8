"""The in-memory world of the sandbox: guilds, channels, threads, users, messages and synced commands.

Nothing here knows about HTTP, WebSockets or tests. The server (REST + gateway), the Python test API and the
JSON control API all read and change the world through this module, so the browser sandbox and the tests see
the same state. Payload builders turn model objects into the JSON shapes discord.py 2.7 parses.
"""

from __future__ import annotations

import itertools
import re
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (Discord's documented values) used to build member and bot permissions.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
ADD_REACTIONS = 1 << 6
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
MENTION_EVERYONE = 1 << 17

MEMBER_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
MANAGER_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_CHANNELS | MANAGE_GUILD | MANAGE_MESSAGES | MANAGE_THREADS
BOT_PERMISSIONS = MANAGER_PERMISSIONS | MENTION_EVERYONE

# Message flags.
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

MENTION_RE = re.compile(r"<@!?(\d+)>")

AudienceKind = Literal["public", "ephemeral", "dm"]


class SnowflakeGenerator:
    """Discord-style ids from the wall clock, strictly increasing even within one millisecond."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> str:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(now, self._last + 1)
        return str(self._last)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)  # an entity: equal only to itself
class User:
    id: str
    name: str
    locale: str = "en-US"
    dms_open: bool = True
    manager: bool = False
    bot: bool = False

    @property
    def permissions(self) -> int:
        if self.bot:
            return BOT_PERMISSIONS
        return MANAGER_PERMISSIONS if self.manager else MEMBER_PERMISSIONS

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)  # an entity: equal only to itself
class Guild:
    id: str
    name: str
    owner_id: str
    member_ids: list[str] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)


@dataclass(eq=False)  # an entity: equal only to itself
class Channel:
    """A guild text channel, a thread (parent_id set) or a DM channel (recipient_id set)."""

    id: str
    type: int
    name: str = ""
    guild_id: str | None = None
    parent_id: str | None = None
    owner_id: str | None = None
    recipient_id: str | None = None
    position: int = 0
    member_ids: list[str] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso_now)
    archive_timestamp: str = field(default_factory=iso_now)
    message_count: int = 0
    last_message_id: str | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == DM


@dataclass(eq=False)  # an entity: equal only to itself
class Attachment:
    """An uploaded file. `data` is emptied (and `evicted` set) when the memory budget pushes it out."""

    id: str
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None
    size: int = -1
    evicted: bool = False

    def __post_init__(self) -> None:
        if self.size < 0:
            self.size = len(self.data)

    def payload(self, ephemeral: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.width is not None:
            out["width"] = self.width
            out["height"] = self.height
        if self.description is not None:
            out["description"] = self.description
        if ephemeral:
            out["ephemeral"] = True
        return out


@dataclass
class Audience:
    """Who can see a message: everyone who sees the channel, one user (ephemeral), or a DM recipient."""

    kind: AudienceKind
    user_id: str | None = None

    def includes(self, user_id: str) -> bool:
        return self.kind == "public" or self.user_id == user_id


@dataclass(eq=False)  # an entity: equal only to itself
class Message:
    id: str
    channel_id: str
    guild_id: str | None
    author_id: str
    audience: Audience
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    mention_ids: list[str] = field(default_factory=list)
    pinged_ids: list[str] = field(default_factory=list)
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    edit_count: int = 0
    # What the message looked like before each edit, oldest first: {"content", "embeds", "components",
    # "attachments" (filenames), "at" (when that version was replaced)}.
    history: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    webhook_id: str | None = None
    application_id: str | None = None
    interaction_id: str | None = None
    interaction_user_id: str | None = None
    interaction_type: int = 2
    interaction_name: str = ""  # "/play new", "click join", ... as a client labels the reply
    thread_id: str | None = None
    type: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def silent(self) -> bool:
        """Sent with @silent: it shows as unread but sets off no push notification or sound."""
        return bool(self.flags & FLAG_SUPPRESS_NOTIFICATIONS)

    def visible_to(self, user_id: str) -> bool:
        return not self.deleted and self.audience.includes(user_id)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component on the message, depth first (rows, containers, sections, accessories)."""
        return walk_components(self.components)

    def interactive(self) -> list[dict[str, Any]]:
        """Components a user can click or choose from (buttons with a custom_id and selects)."""
        return [
            c for c in self.iter_components() if c.get("custom_id") and c.get("type") in (2, 3, 5, 6, 7, 8)
        ]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.interactive() if c.get("custom_id") == custom_id), None)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.iter_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def text(self) -> str:
        """Content plus text displays and embed text, for assertions that should not care where text lives."""
        parts = [self.content]
        for comp in self.iter_components():
            if comp.get("type") == 10:
                parts.append(str(comp.get("content", "")))
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            for fld in embed.get("fields", []):
                parts.append(f"{fld.get('name', '')} {fld.get('value', '')}")
        return "\n".join(p for p in parts if p)


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from walk_components(comp["components"])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])
        if isinstance(comp.get("component"), dict):
            yield from walk_components([comp["component"]])


@dataclass
class Command:
    """A synced application command as Discord stores it (the bot's dict plus ids)."""

    id: str
    data: dict[str, Any]
    guild_id: str | None = None

    @property
    def name(self) -> str:
        return str(self.data["name"])


def png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


class World:
    """All state of the fake Discord, plus the queries tests and clients make on it."""

    def __init__(self, bot_name: str = "sandbox-bot") -> None:
        self.ids = SnowflakeGenerator()
        self.application_id = self.ids.next()
        self.bot = User(id=self.application_id, name=bot_name, bot=True)
        self.owner = User(id=self.ids.next(), name="owner")
        self.users: dict[str, User] = {self.bot.id: self.bot}
        self.guilds: dict[str, Guild] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, Message] = {}
        # channel id -> message ids in creation order
        self.channel_messages: dict[str, list[str]] = {}
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id
        self.global_commands: dict[str, Command] = {}
        self.guild_commands: dict[str, dict[str, Command]] = {}
        self._positions = itertools.count()

    # -- building --------------------------------------------------------------------------------------------

    def add_guild(self, name: str) -> Guild:
        guild = Guild(id=self.ids.next(), name=name, owner_id=self.owner.id, member_ids=[self.bot.id])
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            id=self.ids.next(), type=GUILD_TEXT, name=name, guild_id=guild.id, position=next(self._positions)
        )
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        return channel

    def add_user(
        self, name: str, locale: str = "en-US", dms_open: bool = True, manager: bool = False
    ) -> User:
        user = User(id=self.ids.next(), name=name, locale=locale, dms_open=dms_open, manager=manager)
        self.users[user.id] = user
        return user

    def add_member(self, guild: Guild, user: User) -> None:
        if user.id not in guild.member_ids:
            guild.member_ids.append(user.id)

    def add_thread(self, parent: Channel, name: str, owner_id: str, thread_id: str | None = None) -> Channel:
        thread = Channel(
            id=thread_id or self.ids.next(),
            type=PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            member_ids=[owner_id],
        )
        self.channels[thread.id] = thread
        self.channel_messages[thread.id] = []
        return thread

    def dm_channel(self, user: User) -> Channel:
        existing = self.dm_channels.get(user.id)
        if existing:
            return self.channels[existing]
        channel = Channel(id=self.ids.next(), type=DM, recipient_id=user.id)
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        self.dm_channels[user.id] = channel.id
        return channel

    def add_message(self, message: Message) -> Message:
        self.messages[message.id] = message
        self.channel_messages.setdefault(message.channel_id, []).append(message.id)
        channel = self.channels.get(message.channel_id)
        if channel is not None and not message.ephemeral:
            channel.message_count += 1
            channel.last_message_id = message.id
        return message

    # -- lookups ---------------------------------------------------------------------------------------------

    def user(self, ref: User | str | int) -> User:
        key = ref.id if isinstance(ref, User) else str(ref)
        if key in self.users:
            return self.users[key]
        for user in self.users.values():
            if user.name == key:
                return user
        raise KeyError(f"unknown user {ref!r}")

    def channel(self, ref: Channel | str | int) -> Channel:
        key = ref.id if isinstance(ref, Channel) else str(ref)
        if key in self.channels:
            return self.channels[key]
        for channel in self.channels.values():
            if channel.name == key and not channel.is_dm:
                return channel
        raise KeyError(f"unknown channel {ref!r}")

    def message(self, ref: Message | str | int) -> Message:
        key = ref.id if isinstance(ref, Message) else str(ref)
        return self.messages[key]

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def text_channels(self, guild: Guild) -> list[Channel]:
        return [c for c in self.channels.values() if c.guild_id == guild.id and c.type == GUILD_TEXT]

    def threads(self, parent: Channel) -> list[Channel]:
        return [c for c in self.channels.values() if c.parent_id == parent.id]

    def commands_for(self, channel: Channel) -> dict[str, Command]:
        """Commands a client lists in this channel: guild commands override global ones of the same name."""
        merged = dict(self.global_commands)
        if channel.guild_id:
            merged.update(self.guild_commands.get(channel.guild_id, {}))
        return merged

    def can_view_channel(self, user: User, channel: Channel) -> bool:
        if channel.is_dm:
            return channel.recipient_id == user.id or user.bot
        guild = self.guild_of(channel)
        if guild is None or user.id not in guild.member_ids:
            return False
        if channel.type == PRIVATE_THREAD:
            return user.id in channel.member_ids or user.manager or user.bot
        return True

    # -- observers -------------------------------------------------------------------------------------------

    def channel_history(self, channel: Channel, viewer: User | None = None) -> list[Message]:
        """Messages in a channel: all, or only those the viewer can see (public plus their ephemerals)."""
        out = []
        for mid in self.channel_messages.get(channel.id, []):
            msg = self.messages[mid]
            if msg.deleted:
                continue
            if viewer is None or msg.visible_to(viewer.id):
                out.append(msg)
        return out

    def visible_to(self, user: User, channel: Channel | None = None) -> list[Message]:
        """What a user can see: public messages of channels they can view, their ephemerals, their DMs."""
        channels = [channel] if channel is not None else list(self.channels.values())
        out: list[Message] = []
        for ch in channels:
            if not self.can_view_channel(user, ch):
                continue
            out.extend(self.channel_history(ch, user))
        out.sort(key=lambda m: int(m.id))
        return out

    def dms(self, user: User) -> list[Message]:
        cid = self.dm_channels.get(user.id)
        return self.channel_history(self.channels[cid]) if cid else []

    def dms_sent(self, user: User) -> list[Message]:
        """Every DM the user was sent, those deleted since too (a count of what reached them)."""
        cid = self.dm_channels.get(user.id)
        return [self.messages[mid] for mid in self.channel_messages.get(cid, [])] if cid else []

    # -- payloads (what discord.py receives) -----------------------------------------------------------------

    def member_payload(self, user: User, guild: Guild, with_permissions: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "user": user.payload(),
            "roles": [],
            "flags": 0,
            "joined_at": guild.joined_at,
            "deaf": False,
            "mute": False,
            "nick": None,
        }
        if with_permissions:
            out["permissions"] = str(user.permissions)
        return out

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        if channel.is_dm:
            recipient = self.users[channel.recipient_id or ""]
            return {
                "id": channel.id,
                "type": DM,
                "recipients": [recipient.payload()],
                "last_message_id": channel.last_message_id,
            }
        out: dict[str, Any] = {
            "id": channel.id,
            "type": channel.type,
            "name": channel.name,
            "guild_id": channel.guild_id,
            "position": channel.position,
            "permission_overwrites": [],
            "last_message_id": channel.last_message_id,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if channel.is_thread:
            out.update(
                parent_id=channel.parent_id,
                owner_id=channel.owner_id,
                message_count=channel.message_count,
                total_message_sent=channel.message_count,
                member_count=len(channel.member_ids),
                thread_metadata={
                    "archived": channel.archived,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": channel.archive_timestamp,
                    "locked": channel.locked,
                    "create_timestamp": channel.created_at,
                },
            )
            del out["permission_overwrites"], out["position"]
        else:
            out["topic"] = None
            out["default_auto_archive_duration"] = 1440
        return out

    def guild_create_payload(self, guild: Guild) -> dict[str, Any]:
        channels = [self.channel_payload(c) for c in self.text_channels(guild)]
        threads = [
            self.channel_payload(c)
            for c in self.channels.values()
            if c.guild_id == guild.id and c.is_thread and not c.archived
        ]
        return {
            "id": guild.id,
            "name": guild.name,
            "owner_id": guild.owner_id,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
            "member_count": len(guild.member_ids),
            "large": False,
            "unavailable": False,
            "joined_at": guild.joined_at,
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": guild.id,
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": channels,
            "threads": threads,
            "members": [self.member_payload(self.bot, guild)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def message_payload(self, msg: Message) -> dict[str, Any]:
        author = self.users[msg.author_id]
        out: dict[str, Any] = {
            "id": msg.id,
            "channel_id": msg.channel_id,
            "type": msg.type,
            "content": msg.content,
            "author": author.payload(),
            "attachments": [a.payload(msg.ephemeral) for a in msg.attachments],
            "embeds": msg.embeds,
            "components": msg.components,
            "flags": msg.flags,
            "timestamp": msg.created_at,
            "edited_timestamp": msg.edited_at,
            "mentions": [self.users[u].payload() for u in msg.mention_ids if u in self.users],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
        }
        if msg.guild_id:
            out["guild_id"] = msg.guild_id
        if msg.webhook_id:
            out["webhook_id"] = msg.webhook_id
        if msg.application_id:
            out["application_id"] = msg.application_id
        if msg.interaction_id and msg.interaction_user_id:
            out["interaction_metadata"] = {
                "id": msg.interaction_id,
                "type": msg.interaction_type,
                "user": self.users[msg.interaction_user_id].payload(),
                "authorizing_integration_owners": {},
            }
        if msg.thread_id and msg.thread_id in self.channels:
            out["thread"] = self.channel_payload(self.channels[msg.thread_id])
        return out
