"""Pictures drawn in worker processes, each distinct picture once."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.render_bench import mid_game
from bot import drawing
from bot.drawing import Pictures
from bot.games import presenter

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workers():
    yield
    drawing.shutdown()


async def test_pictures_are_drawn_in_another_process_exactly_as_in_this_one(workers):
    game = presenter("druids")
    state = mid_game(game.engine, 3, 7)
    names = ["Ann", "Bo", "Cy"]
    board = await drawing.draw("druids", None, game.engine.view(state, None), names, "en")
    private = await drawing.draw("druids", 1, game.engine.view(state, 1), names, "ko")
    assert board == game.render_table(game.engine.view(state, None), names, "en")
    assert private == game.render_private(game.engine.view(state, 1), "ko")
    worker = await asyncio.get_running_loop().run_in_executor(drawing._executor(), os.getpid)
    assert worker != os.getpid()


async def test_a_stopped_pool_starts_again_with_the_next_picture(workers):
    game = presenter("talisman")
    view = game.engine.view(mid_game(game.engine, 2, 3), None)
    first = await drawing.draw("talisman", None, view, ["A", "B"], "en")
    drawing.shutdown()
    assert await drawing.draw("talisman", None, view, ["A", "B"], "en") == first


def _until_exists(path: str) -> int:
    """A search that runs until the test lets it end (runs in the thinking worker)."""
    while not os.path.exists(path):
        time.sleep(0.01)
    return os.getpid()


async def test_a_hard_players_search_never_holds_up_a_picture(workers, tmp_path):
    release = tmp_path / "release"
    searching = asyncio.ensure_future(drawing._in_worker(_until_exists, str(release), pool=drawing.THINKING))
    game = presenter("druids")
    view = game.engine.view(mid_game(game.engine, 3, 7), None)
    try:
        board = await asyncio.wait_for(drawing.draw("druids", None, view, ["A", "B", "C"], "en"), timeout=60)
        assert board == game.render_table(view, ["A", "B", "C"], "en")
        assert not searching.done()  # the picture came while the search still ran
    finally:
        release.touch()
    assert await searching != await asyncio.get_running_loop().run_in_executor(drawing._executor(), os.getpid)


def _hand(n: int, turn: int = 1) -> dict:
    """A Druids seat's view: its hand (what its private picture draws) and a bit of the public table."""
    return {"viewer": 0, "hand": [f"onyx-{n}"], "followers_home": [], "places": [], "turn": turn, "n": n}


async def test_each_distinct_picture_is_drawn_once(monkeypatch):
    drawn: list[tuple] = []

    async def fake_draw(engine_name, seat, view, names, locale):
        drawn.append((seat, view["n"], locale))
        await asyncio.sleep(0.01)
        return f"{seat}:{view['n']}:{locale}".encode()

    monkeypatch.setattr(drawing, "draw", fake_draw)
    pictures = Pictures()
    ask = pictures.get
    # Asked for at once (the DM and the picker of one moment), then again for an unchanged view at a later
    # version: one drawing.
    same = await asyncio.gather(
        ask("druids", 0, _hand(1), ["A"], "en"), ask("druids", 0, _hand(1), ["A"], "en")
    )
    assert same == [b"0:1:en", b"0:1:en"]
    # Names are not in a private picture, nor the public table its seat's view also holds.
    assert await ask("druids", 0, _hand(1), ["A", "B"], "en") == b"0:1:en"
    assert await ask("druids", 0, _hand(1, turn=2), ["A"], "en") == b"0:1:en"
    assert drawn == [(0, 1, "en")]
    # What differs is drawn: the hand, the locale, public against private, the names on the board.
    await ask("druids", 0, _hand(2), ["A"], "en")
    await ask("druids", 0, _hand(1), ["A"], "ko")
    await ask("druids", None, _hand(1), ["A"], "en")
    await ask("druids", None, _hand(1), ["B"], "en")
    await ask("druids", None, _hand(1, turn=2), ["B"], "en")
    assert len(drawn) == 6


async def test_the_picture_cache_keeps_within_its_budget(monkeypatch):
    async def fake_draw(engine_name, seat, view, names, locale):
        return bytes(100)

    monkeypatch.setattr(drawing, "draw", fake_draw)
    pictures = Pictures(boards=250, privates=250)
    for n in range(5):
        await pictures.get("druids", None, {"n": n}, [], "en")
    assert pictures.shelves[True].size == 200


async def test_boards_do_not_push_private_pictures_out(monkeypatch):
    """A board is posted once; a private picture is asked for again by the DM, "Take my turn" and "My hand"."""
    drawn: list[tuple] = []

    async def fake_draw(engine_name, seat, view, names, locale):
        drawn.append((seat, view["n"]))
        return bytes(100)

    monkeypatch.setattr(drawing, "draw", fake_draw)
    pictures = Pictures(boards=250, privates=250)
    await pictures.get("druids", 0, _hand(1), ["A"], "en")
    for n in range(5):  # the boards of five moves
        await pictures.get("druids", None, {"n": n}, ["A"], "en")
    assert pictures.drawn("druids", 0, _hand(1), ["A"], "en")
    await pictures.get("druids", 0, _hand(1), ["A"], "en")
    assert drawn.count((0, 1)) == 1


def test_workers_end_with_a_bot_that_was_killed_outright(tmp_path):
    script = (
        "import asyncio, os, time\n"
        "from bot import drawing\n"
        "async def main():\n"
        "    return await asyncio.get_running_loop().run_in_executor(drawing._executor(), os.getpid)\n"
        "print(asyncio.run(main()), flush=True)\n"
        "time.sleep(60)\n"
    )
    bot = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        worker = int(bot.stdout.readline())
        assert _running(worker)
    finally:
        bot.kill()
        bot.wait()
    deadline = time.monotonic() + 10
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _running(worker)


def test_a_worker_whose_bot_died_before_it_started_ends_too():
    """The bot can be killed between starting a worker and the worker starting up: by then the worker's parent
    is someone else, so it must go by the bot's pid as the bot gave it, not by whoever its parent is then."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    script = f"import time\nfrom bot import drawing\ndrawing._start_worker({gone.pid}, 0)\ntime.sleep(60)\n"
    worker = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        assert worker.wait(timeout=30) == 0  # on its own, long before its 60 s are up
    finally:
        worker.kill()


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


def test_the_render_bench_counts_the_private_pictures_a_move_redraws():
    """Drawing CPU per move is a board plus the private pictures whose contents changed: at least the mover's in
    Druids (its hand changes at nearly every move), never more than one per person."""
    from bench.render_bench import _private_pictures_per_move

    druids = _private_pictures_per_move(presenter("druids"), moves=60)
    assert 0.5 < druids <= 3
