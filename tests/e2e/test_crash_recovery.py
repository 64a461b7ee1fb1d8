"""The real bot process (`python -m bot`) killed with SIGKILL between committing a change and showing it: after a
restart the thread, the board, the pings and the DMs appear for the committed version, once."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.service import choice_token
from engines import get_engine
from sandbox.server import DiscordSandbox
from tests.e2e.botprocess import WAIT, BotProcess

pytestmark = pytest.mark.e2e
ENDING = ("skip_discard", "draw_gem", "take_follower", "request_scoring")  # Druids steps that move a turn on


@asynccontextmanager
async def world(tmp_path: Path):
    sb = DiscordSandbox(token="crash-token")
    guild = sb.add_guild("Crash club")
    channel = sb.add_channel(guild, "games")
    users = {name: sb.add_user(name.capitalize()) for name in ("alice", "bob")}
    await sb.start()
    bot = BotProcess(sb, tmp_path)
    try:
        await bot.start()
        yield sb, channel, users, bot
    finally:
        bot.stop()
        await sb.stop()


async def open_and_join(sb, channel, users) -> tuple[int, object]:
    lobby = (await sb.slash(users["alice"], channel, "play new", {"game": "druids"})).message
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    await sb.click(users["bob"], lobby, f"lobby:join:{game_id}")
    return game_id, lobby


def boards(sb, thread) -> list:
    return [m for m in sb.messages(thread) if any(a.filename == "board.png" for a in m.attachments)]


async def kill_at(bot: BotProcess, hold, action) -> None:
    """Run `action` (a click), kill the bot the moment it reaches the held request, then let the request go."""
    task = asyncio.ensure_future(action)
    await asyncio.wait_for(hold.arrived.wait(), WAIT)
    bot.kill()
    hold.release.set()
    await asyncio.wait([task], timeout=10)


async def started_game(sb, channel, users, bot) -> tuple[int, object]:
    game_id, lobby = await open_and_join(sb, channel, users)
    await sb.click(users["alice"], lobby, f"lobby:start:{game_id}")
    await sb.wait_until(lambda: bool(sb.threads(channel)) and bool(boards(sb, sb.threads(channel)[0])), WAIT)
    return game_id, sb.threads(channel)[0]


@pytest.mark.parametrize("stage", ["before", "after"])
async def test_a_start_killed_before_its_thread_or_board_is_shown(tmp_path, stage):
    async with world(tmp_path) as (sb, channel, users, bot):
        game_id, lobby = await open_and_join(sb, channel, users)
        # "before": killed while opening the thread; "after": the board went up but the bot never heard.
        path = r"/messages/\d+/threads$" if stage == "before" else r"/channels/\d+/messages$"
        hold = sb.hold("POST", path, stage)
        await kill_at(bot, hold, sb.click(users["alice"], lobby, f"lobby:start:{game_id}"))
        assert bot.query("SELECT status FROM games WHERE id = ?", game_id) == [("active",)]
        await bot.start()
        await sb.wait_until(
            lambda: bool(sb.threads(channel)) and bool(boards(sb, sb.threads(channel)[0])), WAIT
        )
        thread = sb.threads(channel)[0]
        await sb.wait_until(lambda: bot.query("SELECT publish_at FROM games") == [(None,)], WAIT)
        assert len(sb.threads(channel)) == 1 and len(boards(sb, thread)) == 1
        assert users["alice"].id in boards(sb, thread)[0].pinged_ids
        assert len(sb.dms(users["alice"])) == 1 and len(sb.dms(users["bob"])) == 1  # each hand, once
        assert "Click" not in lobby.text and f"<#{thread.id}>" in lobby.text


async def test_a_turn_ending_move_killed_before_its_board(tmp_path):
    async with world(tmp_path) as (sb, channel, users, bot):
        game_id, thread = await started_game(sb, channel, users, bot)
        await sb.wait_until(lambda: bot.query("SELECT publish_at FROM games") == [(None,)], WAIT)
        bob_dms = len(sb.dms_sent(users["bob"]))
        hold = sb.hold("POST", rf"/channels/{thread.id}/messages$", "before")
        version = bot.query("SELECT version FROM games")[0][0]
        while not hold.arrived.is_set():  # Alice moves until her turn ends and the new board is on its way
            table_state = bot.query("SELECT state FROM games")[0][0]
            engine = get_engine("druids")
            state = engine.load(table_state)
            actions = engine.legal_actions(state, 0)
            index = next((n for n, a in enumerate(actions) if a["type"] in ENDING), 0)
            value = f"{choice_token(actions)}:{index}"
            move = asyncio.ensure_future(sb.slash(users["alice"], thread, "play move", {"action": value}))
            arrived = asyncio.ensure_future(hold.arrived.wait())
            await asyncio.wait([move, arrived], return_when=asyncio.FIRST_COMPLETED, timeout=WAIT)
            arrived.cancel()
        bot.kill()
        hold.release.set()
        committed = bot.query("SELECT version, shown_version FROM games")[0]
        assert committed[0] > version and committed[1] < committed[0]
        await bot.start()
        await sb.wait_until(lambda: bot.query("SELECT publish_at FROM games") == [(None,)], WAIT)
        newest = boards(sb, thread)[-1]
        assert f"v{committed[0]}" in newest.text
        assert newest.pinged_ids == [users["bob"].id]
        assert len(sb.dms_sent(users["bob"])) == bob_dms + 1  # one "your move", not two


async def test_a_deadline_move_killed_before_its_board(tmp_path):
    async with world(tmp_path) as (sb, channel, users, bot):
        game_id, thread = await started_game(sb, channel, users, bot)
        await sb.wait_until(lambda: bot.query("SELECT publish_at FROM games") == [(None,)], WAIT)
        hold = sb.hold("POST", rf"/channels/{thread.id}/messages$", "before")
        version = bot.query("SELECT version FROM games")[0][0]
        # Alice lets her deadline pass (a tiny one, written straight into the game's row).
        bot.query("UPDATE games SET deadline_hours = 0.0001, due_at = updated_at")
        await asyncio.wait_for(hold.arrived.wait(), WAIT)
        bot.kill()
        hold.release.set()
        assert bot.query("SELECT version FROM games")[0][0] > version
        bot.query("UPDATE games SET deadline_hours = NULL")  # one missed deadline is enough for the test
        await bot.start()
        await sb.wait_until(lambda: bot.query("SELECT publish_at FROM games") == [(None,)], WAIT)
        newest = boards(sb, thread)[-1]
        # whose deadline made the built-in player move, once, over the whole turn it played for her
        lines = newest.text.split("\n")
        note = lines.index("• ⌛ Alice's deadline passed, so the built-in player moved for them:")
        assert lines[note + 1].startswith("• Alice ") and newest.text.count("deadline passed") == 1
        assert newest.pinged_ids == [users["bob"].id]  # the turn passed to Bob, who is told on the new board
