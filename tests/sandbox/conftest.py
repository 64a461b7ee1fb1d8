from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from sandbox.model import Channel, Guild, User
from sandbox.server import DiscordSandbox
from tests.sandbox.bot_app import SandboxTestBot


@dataclass
class World:
    sb: DiscordSandbox
    guild: Guild
    games: Channel
    alice: User
    bob: User
    carol: User


@pytest.fixture
async def world() -> AsyncIterator[World]:
    sb = DiscordSandbox(token="test-token")
    guild = sb.add_guild("Test")
    games = sb.add_channel(guild, "games")
    alice = sb.add_user("Alice", manager=True)
    bob = sb.add_user("Bob", locale="ko")
    carol = sb.add_user("Carol", dms_open=False)
    await sb.start()
    undo = sb.patch_discord()
    try:
        yield World(sb, guild, games, alice, bob, carol)
    finally:
        undo()
        await sb.stop()


@pytest.fixture
async def bot(world: World) -> AsyncIterator[SandboxTestBot]:
    async with world.sb.connected(SandboxTestBot(int(world.guild.id))) as client:
        await world.sb.wait_for_commands("play", "ping")
        yield client
