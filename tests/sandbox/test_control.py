"""The JSON control API and event feed (for a load generator or the browser page), and standalone mode."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp

from sandbox.server import point_discord_at
from tests.sandbox.bot_app import SandboxTestBot
from tests.sandbox.conftest import World

ROOT = Path(__file__).resolve().parents[2]


async def post(
    session: aiohttp.ClientSession, world: World, path: str, body: dict[str, Any]
) -> tuple[int, Any]:
    async with session.post(f"{world.sb.base_url}/_sandbox/{path}", json=body) as resp:
        return resp.status, await resp.json()


async def get(session: aiohttp.ClientSession, world: World, path: str) -> Any:
    async with session.get(f"{world.sb.base_url}/_sandbox/{path}") as resp:
        assert resp.status == 200
        return await resp.json()


async def test_actions_and_observers_over_http(world: World, bot: SandboxTestBot) -> None:
    async with aiohttp.ClientSession() as session:
        state = await get(session, world, "state")
        assert [u["name"] for u in state["users"] if not u["bot"]] == ["Alice", "Bob", "Carol"]
        assert state["gateway"]["connected"] == 1
        commands = await get(session, world, f"commands?channel={world.games.id}")
        assert {"play", "ping", "hand"} <= {c["name"] for c in commands}

        status, body = await post(
            session,
            world,
            "autocomplete",
            {
                "user": "Alice",
                "channel": "games",
                "command": "play new",
                "options": {"game": "dru"},
                "focused": "game",
            },
        )
        assert status == 200 and body["choices"] == [{"name": "Druids", "value": "druids"}]

        status, body = await post(
            session,
            world,
            "slash",
            {
                "user": "Alice",
                "channel": world.games.id,
                "command": "play new",
                "options": {"game": "druids"},
            },
        )
        assert status == 200 and body["callback_type"] == 4 and body["complete"]
        message = body["messages"][0]
        assert message["audience"]["kind"] == "public" and message["author"]["bot"]

        status, body = await post(
            session, world, "click", {"user": "Bob", "message": message["id"], "custom_id": "join"}
        )
        assert status == 200 and body["edited"][0]["content"] == "Players: Bob"

        status, body = await post(
            session,
            world,
            "select",
            {"user": "Bob", "message": message["id"], "custom_id": "colour", "values": ["red"]},
        )
        assert body["messages"][0]["ephemeral"] and body["messages"][0]["audience"]["user_id"] == world.bob.id

        status, body = await post(
            session, world, "click", {"user": "Bob", "message": message["id"], "custom_id": "missing"}
        )
        assert status == 400 and body["error"] == "unknown_component"

        status, opened = await post(
            session, world, "slash", {"user": "Bob", "channel": "games", "command": "name"}
        )
        assert opened["callback_type"] == 9 and opened["modal"]["title"] == "Your name"
        status, body = await post(
            session,
            world,
            "modal",
            {"user": "Bob", "interaction": opened["interaction_id"], "values": {"name_field": "B"}},
        )
        assert body["messages"][0]["content"] == "Hello B"

        alice_view = await get(session, world, f"messages?channel={world.games.id}&viewer={world.alice.id}")
        bob_view = await get(session, world, f"messages?channel={world.games.id}&viewer={world.bob.id}")
        assert "You chose red" in [m["content"] for m in bob_view]
        assert "You chose red" not in [m["content"] for m in alice_view]
        assert len(await get(session, world, "violations")) == 1  # the refused click


async def test_event_feed_filters_by_viewer(world: World, bot: SandboxTestBot) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{world.sb.base_url}/_sandbox/events?viewer={world.alice.id}"
        async with session.ws_connect(url) as ws:
            await world.sb.slash(world.bob, world.games, "hand")  # ephemeral for Bob: Alice must not get it
            await world.sb.slash(world.bob, world.games, "ping")
            events: list[dict[str, Any]] = []
            while not any(e.get("message", {}).get("content") == "pong" for e in events):
                events.append(json.loads((await asyncio.wait_for(ws.receive(), 5)).data))
            contents = [e["message"]["content"] for e in events if "message" in e]
            assert "pong" in contents and not any(c.startswith("Your hand") for c in contents)
            assert events[-1]["type"] == "message_create"


async def test_page_and_assets_are_served(world: World) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{world.sb.base_url}/") as resp:
            page = await resp.text()
            assert resp.status == 200 and "/web/app.js" in page and "/web/style.css" in page
        for asset in ("app.js", "style.css"):
            async with session.get(f"{world.sb.base_url}/web/{asset}") as resp:
                assert resp.status == 200 and len(await resp.read()) > 1000


async def test_standalone_server_with_a_bot_in_another_process() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sandbox.server", "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        banner = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 15)
        base = banner.split()[2]  # "sandbox on http://127.0.0.1:PORT ..."
        undo = point_discord_at(base)
        try:
            await _drive_standalone(base)
        finally:
            undo()
    finally:
        proc.terminate()
        proc.wait(5)


async def _drive_standalone(base: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/_sandbox/state") as resp:
            state = await resp.json()
        assert [u["name"] for u in state["users"] if not u["bot"]] == ["Alice", "Bob", "Carol", "Dave"]
        assert [c["name"] for c in state["guilds"][0]["channels"]] == ["games", "lobby"]
        bot = SandboxTestBot(int(state["guilds"][0]["id"]))
        await bot.login("sandbox-token")
        task = asyncio.create_task(bot.connect())
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 5)
            body = {"user": "Bob", "channel": "games", "command": "hand"}
            async with session.post(f"{base}/_sandbox/slash", json=body) as resp:
                result = await resp.json()
            assert result["messages"][0]["content"] == "Your hand, Bob (ko)"
            assert result["messages"][0]["audience"] == {"kind": "ephemeral", "user_id": _id(state, "Bob")}
        finally:
            await bot.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _id(state: dict[str, Any], name: str) -> str:
    return next(u["id"] for u in state["users"] if u["name"] == name)
