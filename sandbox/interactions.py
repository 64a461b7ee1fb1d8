"""Interactions as the sandbox tracks them, the awaitable result handed to tests, and slash-option building.

`build_command_options` plays the Discord client: it turns `"play new", {"game": "druids"}` into the nested
option payload of the synced command and refuses what the client's command picker would never send.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sandbox.model import Command, Message, User, World
from sandbox.validate import ActionRejected

if TYPE_CHECKING:
    from sandbox.model import Channel

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types each interaction type may answer with.
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {4, 5, 9},
    MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    AUTOCOMPLETE: {8},
    MODAL_SUBMIT: {4, 5, 6, 7},
}

# Option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11


@dataclass
class InteractionRecord:
    """Server-side state of one interaction, from dispatch to completion."""

    id: str
    token: str
    type: int
    user_id: str
    channel_id: str
    guild_id: str | None
    created: float
    name: str = ""
    source_message_id: str | None = None
    ack_type: int | None = None
    acking: bool = False  # a callback is being processed: a concurrent second one is already "acknowledged"
    ack_at: float | None = None
    original_message_id: str | None = None
    message_ids: list[str] = field(default_factory=list)
    edited_ids: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    modal_submitted: bool = False
    payload: dict[str, Any] = field(default_factory=dict)  # the INTERACTION_CREATE data sent to the bot
    acked: asyncio.Event = field(default_factory=asyncio.Event)
    completed: asyncio.Event = field(default_factory=asyncio.Event)

    def complete(self) -> None:
        self.completed.set()


class InteractionResult:
    """What a user action produced. Await it (or call `wait`) to block until the interaction is complete.

    Complete means: acknowledged, and for a deferred reply (type 5) the original response was edited or a
    followup arrived; for a deferred update (type 6) the clicked message was edited or a followup arrived.
    """

    def __init__(self, record: InteractionRecord, world: World, clock: Callable[[], float]) -> None:
        self.record = record
        self._world = world
        self._clock = clock

    def __repr__(self) -> str:
        r = self.record
        return f"<InteractionResult id={r.id} name={r.name!r} callback={r.ack_type} complete={self.complete}>"

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def callback_type(self) -> int | None:
        return self.record.ack_type

    @property
    def acknowledged(self) -> bool:
        return self.record.ack_type is not None

    @property
    def complete(self) -> bool:
        return self.record.completed.is_set()

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatch to the callback, as Discord would measure against its 3 s deadline."""
        if self.record.ack_at is None:
            return None
        return self.record.ack_at - self.record.created

    @property
    def messages(self) -> list[Message]:
        """Messages this interaction created: the response message, then followups (with their audiences)."""
        return [
            self._world.messages[m] for m in self.record.message_ids if not self._world.messages[m].deleted
        ]

    @property
    def edited(self) -> list[Message]:
        """Existing messages this interaction edited (the clicked message for types 6/7)."""
        return [self._world.messages[m] for m in dict.fromkeys(self.record.edited_ids)]

    @property
    def message(self) -> Message | None:
        """The response message if one was created, else the edited message."""
        msgs = self.messages or self.edited
        return msgs[0] if msgs else None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    async def wait(self, timeout: float = 5.0) -> InteractionResult:
        try:
            await asyncio.wait_for(self.record.completed.wait(), timeout)
        except TimeoutError:
            state = (
                "not acknowledged"
                if self.record.ack_type is None
                else f"acknowledged with {self.record.ack_type}"
            )
            raise TimeoutError(
                f"interaction {self.record.name!r} incomplete after {timeout}s ({state})"
            ) from None
        return self

    def __await__(self) -> Generator[Any, None, InteractionResult]:
        return self.wait().__await__()


def split_path(path: str) -> list[str]:
    parts = path.strip().lstrip("/").split()
    if not parts:
        raise ActionRejected("unknown_command", "empty command")
    return parts


def find_command(world: World, channel: Channel, path: str) -> Command:
    name = split_path(path)[0]
    command = world.commands_for(channel).get(name)
    if command is None or command.data.get("type", 1) != 1:
        raise ActionRejected("unknown_command", f"/{name} is not synced for this channel")
    return command


def check_command_access(command: Command, user: User, in_dm: bool) -> None:
    data = command.data
    if in_dm:
        contexts = data.get("contexts")
        if data.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise ActionRejected("command_unavailable", f"/{command.name} is not available in DMs")
    elif data.get("contexts") is not None and 0 not in data["contexts"]:
        raise ActionRejected("command_unavailable", f"/{command.name} is not available in servers")
    required = data.get("default_member_permissions")
    if required not in (None, "0") and int(required) & ~user.permissions:
        raise ActionRejected("missing_permissions", f"/{command.name} needs permissions {required}")


def build_command_options(
    world: World,
    command: Command,
    path: str,
    options: dict[str, Any],
    focused: str | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return (options payload, resolved) for the command path, validated against the synced schema."""
    parts = split_path(path)
    schema: list[dict[str, Any]] = command.data.get("options") or []
    wrappers: list[dict[str, Any]] = []
    for part in parts[1:]:
        sub = next(
            (
                o
                for o in schema
                if o.get("name") == part and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise ActionRejected("unknown_command", f"/{' '.join(parts)}: no subcommand {part!r}")
        wrappers.append({"type": sub["type"], "name": part})
        schema = sub.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise ActionRejected("unknown_command", f"/{' '.join(parts)} needs a subcommand")
    resolved: dict[str, Any] = {}
    values: list[dict[str, Any]] = []
    by_name = {o["name"]: o for o in schema}
    for name in options:
        if name not in by_name:
            raise ActionRejected("unknown_option", f"/{' '.join(parts)} has no option {name!r}")
    if focused is not None and focused not in by_name:
        raise ActionRejected("unknown_option", f"cannot focus unknown option {focused!r}")
    if focused is not None and not by_name[focused].get("autocomplete"):
        raise ActionRejected("not_autocomplete", f"option {focused!r} has no autocomplete")
    for opt in schema:
        name = opt["name"]
        if name not in options or options[name] is None:
            if name == focused:
                values.append({"type": opt["type"], "name": name, "value": "", "focused": True})
            elif opt.get("required") and focused is None:
                raise ActionRejected("missing_option", f"option {name!r} is required")
            continue
        raw = options[name]
        if name == focused:
            values.append({"type": opt["type"], "name": name, "value": str(raw), "focused": True})
            continue
        value = _coerce_option(world, opt, raw, resolved, partial=focused is not None)
        values.append({"type": opt["type"], "name": name, "value": value})
    tree: list[dict[str, Any]] = values
    for wrapper in reversed(wrappers):
        tree = [dict(wrapper, options=tree)]
    return tree, resolved


def _coerce_option(
    world: World, opt: dict[str, Any], raw: Any, resolved: dict[str, Any], partial: bool
) -> Any:
    name, otype = opt["name"], opt["type"]
    if otype == STRING:
        if not isinstance(raw, str):
            raise ActionRejected("bad_option_type", f"{name!r} must be a string")
        if not partial and len(raw) < int(opt.get("min_length", 0)):
            raise ActionRejected("option_too_short", f"{name!r} shorter than {opt['min_length']}")
        if len(raw) > int(opt.get("max_length", 6000)):
            raise ActionRejected("option_too_long", f"{name!r} longer than {opt.get('max_length', 6000)}")
        value: Any = raw
    elif otype == INTEGER:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ActionRejected("bad_option_type", f"{name!r} must be an integer")
        value = raw
    elif otype == NUMBER:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise ActionRejected("bad_option_type", f"{name!r} must be a number")
        value = raw
    elif otype == BOOLEAN:
        if not isinstance(raw, bool):
            raise ActionRejected("bad_option_type", f"{name!r} must be a boolean")
        value = raw
    elif otype in (USER, MENTIONABLE):
        try:
            user = world.user(raw)
        except KeyError:
            raise ActionRejected("bad_option_type", f"{name!r} must be a known user") from None
        value = user.id
        resolved.setdefault("users", {})[user.id] = user.payload()
        member = next((g for g in world.guilds.values() if user.id in g.member_ids), None)
        if member is not None:
            payload = world.member_payload(user, member, with_permissions=True)
            payload.pop("user")
            resolved.setdefault("members", {})[user.id] = payload
    elif otype == CHANNEL:
        try:
            channel = world.channel(raw)
        except KeyError:
            raise ActionRejected("bad_option_type", f"{name!r} must be a known channel") from None
        value = channel.id
        payload = world.channel_payload(channel)
        payload["permissions"] = str(0)
        resolved.setdefault("channels", {})[channel.id] = payload
    else:
        raise ActionRejected("bad_option_type", f"option type {otype} is not supported by the sandbox")
    if otype in (INTEGER, NUMBER):
        if "min_value" in opt and value < opt["min_value"]:
            raise ActionRejected("option_below_min", f"{name!r}={value} < {opt['min_value']}")
        if "max_value" in opt and value > opt["max_value"]:
            raise ActionRejected("option_above_max", f"{name!r}={value} > {opt['max_value']}")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ActionRejected("not_a_choice", f"{name!r}={value!r} is not one of the choices")
    return value
