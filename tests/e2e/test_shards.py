"""Two bot processes, each running one of two shards, against the loopback server and one PostgreSQL database."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.server import DiscordSandbox
from tests import pg

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def shard_of(guild_id: str, count: int = 2) -> int:
    return (int(guild_id) >> 22) % count


async def test_two_processes_split_the_guilds_and_never_apply_one_move_twice(tmp_path, postgres_server):
    sb = DiscordSandbox(token="shard-token")
    guilds = {}
    while len(guilds) < 2:  # one guild on each shard
        guild = sb.add_guild(f"Club {len(guilds) + 1}")
        guilds.setdefault(shard_of(guild.id), guild)
    channels = {shard: sb.add_channel(guild, "games") for shard, guild in guilds.items()}
    alice, bob = sb.add_user("Alice"), sb.add_user("Bob")
    await sb.start()
    processes: list[subprocess.Popen] = []
    async with pg.fresh_database(postgres_server) as url:
        try:
            for shard in (0, 1):
                env = {
                    **os.environ,
                    "DISCORD_TOKEN": sb.token,
                    "DATABASE_URL": url,
                    "DISCORD_API_BASE": sb.api_url,
                    "DISCORD_GATEWAY_URL": sb.gateway_url,
                    "SHARD_COUNT": "2",
                    "SHARD_IDS": str(shard),
                    "TICK_SECONDS": "0",
                    "LOG_LEVEL": "WARNING",
                }
                log = open(tmp_path / f"shard{shard}.log", "w")  # noqa: SIM115 — closed with the process
                processes.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
                    )
                )
            await sb.wait_until(lambda: len(sb.gateway.sessions) == 2, timeout=30)
            await sb.wait_for_commands("play", "rules", timeout=30)

            # Each process serves the guilds of its shard.
            games = {}
            for shard, channel in channels.items():
                lobby = (await sb.slash(alice, channel, "play new", {"game": "druids"})).message
                game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
                await sb.click(bob, lobby, f"lobby:join:{game_id}")
                await sb.click(alice, lobby, f"lobby:start:{game_id}")
                await sb.wait_until(
                    lambda c=channel: any(m.attachments for t in sb.threads(c) for m in sb.messages(t)),
                    timeout=15,
                )
                games[shard] = game_id
            assert games[0] != games[1]

            # Alice's DM (shard 0's process) and the game's thread (shard 1's) offer the same move at once.
            game_id = games[1]
            thread = sb.threads(channels[1])[0]
            board = next(m for m in reversed(sb.messages(thread)) if m.component(f"table:turn:{game_id}"))
            await sb.wait_until(
                lambda: any(m.component(f"table:turn:{game_id}") for m in sb.dms(alice)), timeout=15
            )
            dm_prompt = next(m for m in reversed(sb.dms(alice)) if m.component(f"table:turn:{game_id}"))
            pickers = []
            for message in (board, dm_prompt):
                opened = await sb.click(alice, message, f"table:turn:{game_id}")
                pickers.append(opened.message)
            # Follow the first button on each step until the pickers offer the button that completes a move.
            while True:
                buttons = [
                    [c["custom_id"] for c in p.buttons() if c["custom_id"].startswith("mv:")] for p in pickers
                ]
                assert buttons[0] and buttons[0] == buttons[1]
                first = buttons[0][0]
                results = await asyncio.gather(*(sb.click(alice, p, first) for p in pickers))
                if any("Done" in p.text or "out of date" in p.text for p in pickers):
                    break
                # Each step answered: at once from memory (7), or acknowledged and then the picker edited (6).
                assert all(r.callback_type in (6, 7) for r in results)
            done = [p for p in pickers if "Done" in p.text]
            stale = [p for p in pickers if "out of date" in p.text or "isn't allowed" in p.text]
            assert len(done) == 1 and len(stale) == 1, [p.text for p in pickers]
            # The database holds exactly the one run picked, from one picker.
            import asyncpg

            connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
            versions = await connection.fetch("SELECT version FROM moves WHERE game_id = $1", game_id)
            await connection.close()
            assert len(versions) == 2  # the first buttons pick a pair of plays: one picker's two moves
            assert [v for v in sb.violations if v.actor == "bot"] == []
        finally:
            for process in processes:
                process.send_signal(signal.SIGINT)
            for process in processes:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
            await sb.stop()
