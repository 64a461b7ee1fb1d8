"""Each Discord limit the sandbox enforces, over raw HTTP (no bot): status, error code, violation."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from sandbox.server import DiscordSandbox
from sandbox.validate import ActionRejected
from tests.sandbox.conftest import World


class Api:
    """A bare HTTP client speaking to the sandbox the way discord.py does."""

    def __init__(self, sb: DiscordSandbox, session: aiohttp.ClientSession) -> None:
        self.sb = sb
        self.session = session

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        auth: bool = True,
        files: dict[str, bytes] | None = None,
        params: dict[str, str] | None = None,
    ) -> tuple[int, Any, aiohttp.typedefs.LooseHeaders]:
        headers = {"Authorization": f"Bot {self.sb.token}"} if auth else {}
        data: Any = None
        if files:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body))
            for i, (name, content) in enumerate(files.items()):
                form.add_field(
                    f"files[{i}]", io.BytesIO(content), filename=name, content_type="application/octet-stream"
                )
            data = form
        elif body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        async with self.session.request(
            method, self.sb.api_url + path, data=data, headers=headers, params=params
        ) as resp:
            raw = await resp.read()
            parsed = json.loads(raw) if resp.headers.get("Content-Type") == "application/json" else raw
            return resp.status, parsed, resp.headers

    async def sync(self, commands: list[dict[str, Any]], guild_id: str) -> tuple[int, Any]:
        status, body, _ = await self.call(
            "PUT", f"/applications/{self.sb.world.application_id}/guilds/{guild_id}/commands", commands
        )
        return status, body

    async def ack(
        self, interaction_id: str, token: str, body: dict[str, Any], files: dict[str, bytes] | None = None
    ) -> tuple[int, Any]:
        status, data, _ = await self.call(
            "POST",
            f"/interactions/{interaction_id}/{token}/callback",
            body,
            auth=False,
            files=files,
            params={"with_response": "1"},
        )
        return status, data

    async def followup(self, token: str, body: dict[str, Any]) -> tuple[int, Any]:
        status, data, _ = await self.call(
            "POST",
            f"/webhooks/{self.sb.world.application_id}/{token}",
            body,
            auth=False,
            params={"wait": "1"},
        )
        return status, data


COMMANDS = [
    {
        "name": "go",
        "description": "Go",
        "type": 1,
        "options": [
            {"type": 3, "name": "game", "description": "Game", "required": True, "autocomplete": True},
            {"type": 4, "name": "seats", "description": "Seats", "min_value": 2, "max_value": 5},
            {
                "type": 3,
                "name": "speed",
                "description": "Speed",
                "choices": [{"name": "Fast", "value": "fast"}, {"name": "Slow", "value": "slow"}],
            },
        ],
    },
]


@pytest.fixture
async def api(world: World) -> AsyncIterator[Api]:
    async with aiohttp.ClientSession() as session:
        client = Api(world.sb, session)
        status, _ = await client.sync(COMMANDS, world.guild.id)
        assert status == 200
        yield client


def error_paths(errors: dict[str, Any], prefix: str = "") -> set[str]:
    out: set[str] = set()
    for key, value in errors.items():
        if key == "_errors":
            out.add(prefix.rstrip("."))
        elif isinstance(value, dict):
            out |= error_paths(value, f"{prefix}{key}.")
    return out


async def send(api: Api, world: World, body: dict[str, Any]) -> tuple[int, Any]:
    status, data, _ = await api.call("POST", f"/channels/{world.games.id}/messages", body)
    return status, data


def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


async def test_json_content_type_ratelimit_headers_and_string_snowflakes(world: World, api: Api) -> None:
    status, first, headers = await api.call("POST", f"/channels/{world.games.id}/messages", {"content": "a"})
    assert status == 200 and headers["Content-Type"] == "application/json"
    for name in (
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "X-RateLimit-Reset-After",
        "X-RateLimit-Bucket",
    ):
        assert name in headers
    _, second, _ = await api.call("POST", f"/channels/{world.games.id}/messages", {"content": "b"})
    assert isinstance(first["id"], str) and int(second["id"]) > int(first["id"])
    assert world.sb.violations == []


async def test_bot_routes_need_the_token_but_interaction_routes_do_not(world: World, api: Api) -> None:
    status, body, _ = await api.call(
        "POST", f"/channels/{world.games.id}/messages", {"content": "x"}, auth=False
    )
    assert (status, body["code"]) == (401, 0)
    result = await world.sb.slash(world.alice, world.games, "go", {"game": "druids"}, wait=False)
    status, _ = await api.ack(result.id, result.record.token, {"type": 4, "data": {"content": "hi"}})
    assert status == 200 and result.complete
    assert [v.status for v in world.sb.violations] == [401]


async def test_content_over_2000_is_rejected(world: World, api: Api) -> None:
    status, body = await send(api, world, {"content": "x" * 2001})
    assert (status, body["code"]) == (400, 50035) and "content" in error_paths(body["errors"])
    status, _ = await send(api, world, {"content": "x" * 2000})
    assert status == 200
    assert len(world.sb.violations) == 1 and world.sb.violations[0].code == 50035


async def test_empty_message_and_too_many_embeds(world: World, api: Api) -> None:
    status, body = await send(api, world, {"content": ""})
    assert (status, body["code"]) == (400, 50006)
    status, body = await send(api, world, {"embeds": [{"title": str(i)} for i in range(11)]})
    assert (status, body["code"]) == (400, 50035) and "embeds" in error_paths(body["errors"])
    status, body = await send(api, world, {"embeds": [{"title": "t" * 257}]})
    assert "embeds.0.title" in error_paths(body["errors"])


async def test_component_limits(world: World, api: Api) -> None:
    rows = [{"type": 1, "components": [button(f"b{i}")]} for i in range(6)]
    status, body = await send(api, world, {"content": "x", "components": rows})
    assert status == 400 and "components" in error_paths(body["errors"])
    wide = [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]
    _, body = await send(api, world, {"content": "x", "components": wide})
    assert "components.0.components" in error_paths(body["errors"])
    long_id = [{"type": 1, "components": [button("c" * 101)]}]
    _, body = await send(api, world, {"content": "x", "components": long_id})
    assert "components.0.components.0.custom_id" in error_paths(body["errors"])
    long_label = [{"type": 1, "components": [button("ok", "l" * 81)]}]
    _, body = await send(api, world, {"content": "x", "components": long_label})
    assert "components.0.components.0.label" in error_paths(body["errors"])
    duplicate = [{"type": 1, "components": [button("same"), button("same")]}]
    _, body = await send(api, world, {"content": "x", "components": duplicate})
    assert "components.0.components.1.custom_id" in error_paths(body["errors"])
    fine = [{"type": 1, "components": [button(f"r{r}b{i}") for i in range(5)]} for r in range(5)]
    status, _ = await send(api, world, {"content": "x", "components": fine})
    assert status == 200
    assert len(world.sb.violations) == 5


def select(n: int, **extra: Any) -> list[dict[str, Any]]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return [{"type": 1, "components": [dict({"type": 3, "custom_id": "s", "options": options}, **extra)]}]


async def test_select_limits(world: World, api: Api) -> None:
    _, body = await send(api, world, {"content": "x", "components": select(26)})
    assert "components.0.components.0.options" in error_paths(body["errors"])
    _, body = await send(api, world, {"content": "x", "components": select(5, min_values=3, max_values=2)})
    assert "components.0.components.0.min_values" in error_paths(body["errors"])
    _, body = await send(api, world, {"content": "x", "components": select(3, max_values=4)})
    assert "components.0.components.0.max_values" in error_paths(body["errors"])
    mixed = select(3)
    mixed[0]["components"].append(button("b"))
    _, body = await send(api, world, {"content": "x", "components": mixed})
    assert "components.0.components" in error_paths(body["errors"])
    status, _ = await send(api, world, {"content": "x", "components": select(25, max_values=25)})
    assert status == 200


async def test_client_refuses_bad_select_values_and_unknown_custom_ids(world: World, api: Api) -> None:
    _, data = await send(api, world, {"content": "x", "components": select(3, min_values=1, max_values=2)})
    msg = world.sb.world.messages[data["id"]]
    with pytest.raises(ActionRejected, match="bad_value_count"):
        await world.sb.select(world.bob, msg, "s", ["v0", "v1", "v2"], wait=False)
    with pytest.raises(ActionRejected, match="unknown_component"):
        await world.sb.click(world.bob, msg, "nope", wait=False)
    with pytest.raises(ActionRejected, match="wrong_component_type"):
        await world.sb.click(world.bob, msg, "s", wait=False)
    result = await world.sb.select(world.bob, msg, "s", ["v0", "v2"], wait=False)
    assert result.record.type == 3
    assert [v.actor for v in world.sb.violations] == ["client"] * 3


async def test_file_over_the_attachment_size_limit(world: World, api: Api) -> None:
    world.sb.attachment_size_limit = 1000
    status, body, _ = await api.call(
        "POST",
        f"/channels/{world.games.id}/messages",
        {"content": "f", "attachments": [{"id": 0, "filename": "big.bin"}]},
        files={"big.bin": b"x" * 1001},
    )
    assert (status, body["code"]) == (413, 40005)
    status, body, _ = await api.call(
        "POST",
        f"/channels/{world.games.id}/messages",
        {"content": "f", "attachments": [{"id": 0, "filename": "ok.bin"}]},
        files={"ok.bin": b"x" * 1000},
    )
    assert status == 200 and body["attachments"][0]["size"] == 1000


async def test_slash_options_outside_schema_are_refused(world: World, api: Api) -> None:
    sb = world.sb
    for options, code in (
        ({"game": "d", "seats": 1}, "option_below_min"),
        ({"game": "d", "seats": 6}, "option_above_max"),
        ({"game": "d", "seats": True}, "bad_option_type"),
        ({"game": "d", "speed": "warp"}, "not_a_choice"),
        ({"seats": 3}, "missing_option"),
    ):
        with pytest.raises(ActionRejected) as err:
            await sb.slash(world.alice, world.games, "go", options, wait=False)
        assert err.value.code == code
    result = await sb.slash(
        world.alice, world.games, "go", {"game": "d", "seats": 5, "speed": "fast"}, wait=False
    )
    assert [o["value"] for o in result.record.payload["data"]["options"]] == ["d", 5, "fast"]


async def test_second_acknowledgement_is_40060(world: World, api: Api) -> None:
    result = await world.sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False)
    status, _ = await api.ack(result.id, result.record.token, {"type": 5})
    assert status == 200 and result.callback_type == 5 and not result.complete
    status, body = await api.ack(result.id, result.record.token, {"type": 4, "data": {"content": "again"}})
    assert (status, body["code"]) == (400, 40060)


async def test_late_acknowledgement_is_10062(world: World, api: Api) -> None:
    result = await world.sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False)
    world.sb.advance_time(3.01)
    status, body = await api.ack(result.id, result.record.token, {"type": 4, "data": {"content": "late"}})
    assert (status, body["code"]) == (404, 10062)
    assert not result.acknowledged and world.sb.messages(world.games) == []


async def test_followups_expire_after_15_minutes(world: World, api: Api) -> None:
    result = await world.sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False)
    status, _ = await api.followup(result.record.token, {"content": "too early"})
    assert status == 404  # no followup before the interaction is acknowledged
    await api.ack(result.id, result.record.token, {"type": 5, "data": {"flags": 64}})
    world.sb.advance_time(14 * 60)
    status, reply = await api.followup(result.record.token, {"content": "filled"})
    assert status == 200 and reply["flags"] & 64  # the deferred reply's ephemerality wins
    status, extra = await api.followup(result.record.token, {"content": "public extra"})
    assert status == 200 and extra["flags"] == 0 and len(result.messages) == 2
    world.sb.advance_time(2 * 60)
    status, body = await api.followup(result.record.token, {"content": "too late"})
    assert (status, body["code"]) == (401, 50027)


async def test_autocomplete_choice_limits(world: World, api: Api) -> None:
    sb = world.sb
    too_many = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    for choices, path in (
        (too_many, "data.choices"),
        ([{"name": "n" * 101, "value": "v"}], "data.choices.0.name"),
        ([{"name": "n", "value": "v" * 101}], "data.choices.0.value"),
    ):
        result = await sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False)
        rec = sb.interactions[result.id]
        rec.type = 4  # reuse the envelope: an autocomplete may only be answered with type 8
        status, body = await api.ack(result.id, rec.token, {"type": 8, "data": {"choices": choices}})
        assert status == 400 and path in error_paths(body["errors"])


async def test_autocomplete_round_trip_and_wrong_callback_type(world: World, api: Api) -> None:
    sb = world.sb
    task = asyncio.create_task(
        sb.autocomplete(world.alice, world.games, "go", {"game": "dr"}, focused="game")
    )
    await sb.wait_until(lambda: any(r.type == 4 for r in sb.interactions.values()))
    rec = next(r for r in sb.interactions.values() if r.type == 4)
    status, body = await api.ack(rec.id, rec.token, {"type": 4, "data": {"content": "no"}})
    assert status == 400 and "type" in error_paths(body["errors"])
    status, _ = await api.ack(
        rec.id, rec.token, {"type": 8, "data": {"choices": [{"name": "Druids", "value": "d"}]}}
    )
    assert status == 200 and await task == [{"name": "Druids", "value": "d"}]


async def test_dm_to_closed_user_is_50007_and_to_open_user_works(world: World, api: Api) -> None:
    status, channel, _ = await api.call("POST", "/users/@me/channels", {"recipient_id": world.carol.id})
    assert status == 200 and channel["type"] == 1
    status, body, _ = await api.call("POST", f"/channels/{channel['id']}/messages", {"content": "hi"})
    assert (status, body["code"]) == (403, 50007)
    _, channel, _ = await api.call("POST", "/users/@me/channels", {"recipient_id": world.bob.id})
    status, _, _ = await api.call("POST", f"/channels/{channel['id']}/messages", {"content": "hi"})
    assert status == 200 and [m.content for m in world.sb.dms(world.bob)] == ["hi"]


async def test_injected_429_has_via_header_and_json_body(world: World, api: Api) -> None:
    world.sb.inject_429("POST", "/messages$", retry_after=0.25)
    status, body, headers = await api.call("POST", f"/channels/{world.games.id}/messages", {"content": "x"})
    assert (
        status == 429
        and headers["Via"]
        and body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
    )
    status, _, _ = await api.call("POST", f"/channels/{world.games.id}/messages", {"content": "x"})
    assert status == 200


async def test_command_sync_is_validated(world: World, api: Api) -> None:
    status, body = await api.sync([{"name": "Bad Name", "description": "x"}], world.guild.id)
    assert status == 400 and "0.name" in error_paths(body["errors"])
    options = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b", "required": True},
    ]
    status, body = await api.sync([{"name": "ok", "description": "x", "options": options}], world.guild.id)
    assert status == 400 and "0.options.1.required" in error_paths(body["errors"])
    status, body = await api.sync(COMMANDS, world.guild.id)
    assert status == 200 and body[0]["guild_id"] == world.guild.id and body[0]["id"]


async def test_mentions_honour_allowed_mentions(world: World, api: Api) -> None:
    content = f"<@{world.alice.id}> <@{world.bob.id}>"
    _, data = await send(
        api, world, {"content": content, "allowed_mentions": {"parse": [], "users": [world.bob.id]}}
    )
    msg = world.sb.world.messages[data["id"]]
    assert msg.mention_ids == [world.alice.id, world.bob.id] and msg.pinged_ids == [world.bob.id]
    _, data = await send(api, world, {"content": content})
    assert world.sb.world.messages[data["id"]].pinged_ids == [world.alice.id, world.bob.id]


async def test_unknown_message_and_channel(world: World, api: Api) -> None:
    status, body, _ = await api.call("GET", f"/channels/{world.games.id}/messages/123")
    assert (status, body["code"]) == (404, 10008)
    status, body, _ = await api.call("GET", "/channels/123")
    assert (status, body["code"]) == (404, 10003)
    status, body, _ = await api.call("GET", f"/guilds/{world.guild.id}/members/{world.alice.id}")
    assert status == 200 and body["user"]["id"] == world.alice.id


async def test_threads_members_and_channel_edits_over_rest(world: World, api: Api) -> None:
    status, thread, _ = await api.call(
        "POST",
        f"/channels/{world.games.id}/threads",
        {"name": "Roll #7", "type": 11, "auto_archive_duration": 60},
    )
    assert status == 200 and thread["type"] == 11 and thread["parent_id"] == world.games.id
    tid = thread["id"]
    status, _, _ = await api.call("PUT", f"/channels/{tid}/thread-members/{world.bob.id}")
    assert status == 204 and world.bob.id in world.sb.world.channels[tid].member_ids
    status, _, _ = await api.call("DELETE", f"/channels/{tid}/thread-members/{world.bob.id}")
    assert status == 204 and world.bob.id not in world.sb.world.channels[tid].member_ids
    status, body, _ = await api.call(
        "PATCH", f"/channels/{tid}", {"name": "Roll #7 (done)", "archived": True}
    )
    assert status == 200 and body["thread_metadata"]["archived"] and body["name"] == "Roll #7 (done)"
    status, body, _ = await api.call("PUT", f"/channels/{tid}/thread-members/{world.bob.id}")
    assert (status, body["code"]) == (400, 50083)
    # Posting into an archived (unlocked) thread unarchives it, as on Discord.
    status, _, _ = await api.call("POST", f"/channels/{tid}/messages", {"content": "back"})
    assert status == 200 and not world.sb.world.channels[tid].archived
    status, body, _ = await api.call("PATCH", f"/channels/{world.games.id}", {"name": "games-2"})
    assert status == 200 and body["name"] == "games-2"
    status, body, _ = await api.call("GET", f"/users/{world.carol.id}")
    assert status == 200 and body["global_name"] == "Carol"
    status, body, _ = await api.call("POST", f"/channels/{tid}/threads", {"name": "nested", "type": 11})
    assert (status, body["code"]) == (400, 50024)


async def test_unimplemented_routes_are_reported(world: World, api: Api) -> None:
    status, body, _ = await api.call("GET", f"/channels/{world.games.id}/pins")
    assert status == 404 and "not implemented" in body["message"]
    assert [(v.actor, v.status) for v in world.sb.violations] == [("sandbox", 404)]


async def test_old_attachment_bytes_are_evicted_past_the_memory_budget(world: World, api: Api) -> None:
    world.sb.attachment_memory = 2500
    urls = []
    for i in range(3):
        _, body, _ = await api.call(
            "POST",
            f"/channels/{world.games.id}/messages",
            {"content": str(i), "attachments": [{"id": 0, "filename": f"f{i}.bin"}]},
            files={f"f{i}.bin": bytes([i]) * 1000},
        )
        urls.append(body["attachments"][0]["url"])
    assert world.sb.attachments_evicted == 1
    async with aiohttp.ClientSession() as session:
        statuses = []
        for url in urls:
            async with session.get(url) as resp:
                statuses.append(resp.status)
    assert statuses == [404, 200, 200]
    assert world.sb.messages(world.games)[0].attachments[0].size == 1000


async def test_expired_interactions_are_pruned_when_there_are_many(world: World, api: Api) -> None:
    sb = world.sb
    sb.max_interactions = 3
    old = [await sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False) for _ in range(3)]
    sb.advance_time(sb.token_lifetime + 1)
    fresh = await sb.slash(world.alice, world.games, "go", {"game": "d"}, wait=False)
    assert list(sb.interactions) == [fresh.id] and all(r.id not in sb.interactions for r in old)
