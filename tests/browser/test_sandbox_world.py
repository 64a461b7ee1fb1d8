"""The local sandbox keeps its world on disk: restarting `make run` brings back the same Discord, same ids."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import aiohttp
import pytest

from bot.sandbox_mode import LocalSandbox, world_folder
from bot.settings import Settings
from sandbox.model import FLAG_LOADING, Audience
from sandbox.persist import NO_RESPONSE, WorldFileError
from sandbox.server import DiscordSandbox
from tests.browser.druids import play_move, player_to_move
from tests.browser.ui import bot_idle

pytestmark = pytest.mark.e2e


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\x80\x40\x20" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    )


def test_the_world_lives_beside_the_database():
    assert world_folder("sqlite+aiosqlite:///./boardgames.db") == Path("boardgames.sandbox-world")
    assert world_folder("sqlite+aiosqlite:////srv/bot/games.db") == Path("/srv/bot/games.sandbox-world")
    assert world_folder("sqlite+aiosqlite:///:memory:") == Path("sandbox-world")
    assert world_folder("postgresql+asyncpg://u:p@localhost/games") == Path("sandbox-world")


async def test_a_saved_world_comes_back_with_the_same_ids_files_and_history(tmp_path):
    folder = tmp_path / "world"
    sb = DiscordSandbox()
    assert not sb.persist_to(folder)
    guild = sb.add_guild("Sandbox")
    games = sb.add_channel(guild, "games")
    alice = sb.add_user("Alice", manager=True)
    bob = sb.add_user("Bob", locale="ko", dms_open=False)
    await sb.start()
    bot = sb.world.bot
    board = await sb.create_message(
        games,
        bot,
        {"content": f"<@{alice.id}> your move", "components": [_row("table:turn:1")]},
        {0: ("board.png", png(4, 3), "application/octet-stream")},
    )
    thread = sb.world.add_thread(games, "Druids #1", bot.id, thread_id=board.id)
    board.thread_id = thread.id
    dm = await sb.create_message(
        sb.world.dm_channel(alice), bot, {"content": "your hand"}, {0: ("hand.png", png(2, 2), "image/png")}
    )
    secret = await sb.create_message(
        thread, bot, {"content": "only Bob", "flags": 64}, {}, audience=Audience("ephemeral", bob.id)
    )
    thinking = await sb.create_message(thread, bot, {}, {}, loading=True)
    first_board_file = board.attachments[0].id
    await sb.edit_message(
        board, {"content": "edited", "attachments": [{"id": 0}]}, {0: ("board.png", png(5, 5), "")}
    )
    await sb.stop()  # saves

    saved = json.loads((folder / "world.json").read_text())
    assert saved["format"] == 1
    assert (folder / ".gitignore").read_text().strip().endswith("*")
    files = {p.name for p in (folder / "files").iterdir()}
    assert files == {board.attachments[0].id, dm.attachments[0].id}  # the replaced board image is gone

    again = DiscordSandbox()
    assert again.persist_to(folder)
    w = again.world
    assert (w.application_id, w.bot.id) == (sb.world.application_id, bot.id)
    assert [u.name for u in w.users.values()] == [u.name for u in sb.world.users.values()]
    assert w.user("Bob").locale == "ko" and not w.user("Bob").dms_open and w.user("Alice").manager
    assert (
        w.channel(thread.id).parent_id == games.id and w.threads(w.channel(games.id))[0].name == "Druids #1"
    )
    assert w.dm_channels == {alice.id: dm.channel_id}
    restored = w.message(board.id)
    assert restored.content == "edited" and restored.edit_count == 1 and restored.thread_id == thread.id
    assert restored.component("table:turn:1") is not None and restored.pinged_ids == [alice.id]
    assert restored.attachments[0].data == png(5, 5) and restored.attachments[0].width == 5
    assert restored.history[0]["attachments"] == ["board.png"] and first_board_file not in files
    assert [m.id for m in again.visible_to(bob, thread.id)] == [secret.id, thinking.id]
    assert [m.id for m in again.visible_to(alice, thread.id)] == [thinking.id]
    assert not w.message(thinking.id).flags & FLAG_LOADING and NO_RESPONSE in w.message(thinking.id).content
    assert int(w.ids.next()) > int(thinking.id)  # new ids never collide with saved ones

    # On another port the attachment URLs follow, and the files are served from what was saved.
    await again.start()
    try:
        url = w.message(dm.id).attachments[0].url
        assert url.startswith(again.base_url + "/attachments/")
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            assert resp.status == 200 and await resp.read() == png(2, 2)
    finally:
        await again.stop()


def test_an_unreadable_world_is_reported(tmp_path):
    (tmp_path / "world.json").write_text("{not json")
    with pytest.raises(WorldFileError):
        DiscordSandbox().persist_to(tmp_path)


async def test_stopping_and_restarting_make_run_resumes_the_game(tmp_path):
    """The sandbox and the bot stop; both start again from the same files; an old button still works."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", tick_seconds=0, _env_file=None
    )
    first = LocalSandbox(settings, port=0, folder=tmp_path / "world")
    await first.start()
    try:
        sb, service = first.sandbox, first.bot.host.service
        assert not first.restored and {"Alice", "Bob", "Carol"} <= {u.name for u in sb.world.users.values()}
        lobby = (await sb.slash("Alice", "games", "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await sb.click("Bob", lobby, f"lobby:join:{game_id}")
        await sb.click("Alice", lobby, f"lobby:start:{game_id}")
        await bot_idle()
        table = await play_move(
            sb, service, game_id, *_api(sb, player_to_move(sb, await service.get(game_id)))
        )
        ids = (str(table.record.thread_id), str(table.record.board_message_id), sb.world.application_id)
        port = sb.port
    finally:
        await first.stop()

    second = LocalSandbox(settings, port=port, folder=tmp_path / "world")
    await second.start()
    try:
        sb, service = second.sandbox, second.bot.host.service
        assert second.restored and len(sb.world.guilds) == 1
        thread, board_id, app_id = ids
        assert sb.world.application_id == app_id and sb.world.channel(thread).is_thread
        board = sb.world.message(board_id)
        assert board.component(f"table:turn:{game_id}") is not None  # a button from before the restart
        mover = player_to_move(sb, await service.get(game_id))
        after = await play_move(sb, service, game_id, *_api(sb, mover))
        assert after.version > table.version
        assert not sb.bot_violations()
    finally:
        await second.stop()


def _api(sb: DiscordSandbox, user: str):
    async def click(message_id: str, custom_id: str) -> None:
        await sb.click(user, message_id, custom_id)
        await bot_idle()

    async def select(message_id: str, custom_id: str, value: str) -> None:
        await sb.select(user, message_id, custom_id, [value])
        await bot_idle()

    return click, select


def _row(custom_id: str) -> dict:
    return {
        "type": 1,
        "components": [{"type": 2, "style": 1, "label": "Take my turn", "custom_id": custom_id}],
    }
