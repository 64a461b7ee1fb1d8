"""The host's pictures (and hard built-in players' thinking): done in worker processes, each distinct picture once.

Pillow's drawing is Python code that holds the GIL, so drawing in a thread of the bot's own process stalls its
event loop (acknowledgements came late under load). Renderers are pure functions of plain views, so a pool of
worker processes draws them; the pool starts with the first picture and stops when the bot's process exits.
A hard built-in player thinks for a second or two, so it has a worker of its own, started with the first hard
decision: a board never waits behind a search.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.games import presenter, presenters

# Recent pictures kept, by content, on two shelves. A board is posted once and asked for again only when the next
# version shows the same table (a move behind a screen) or by /play board; a private picture is asked for again by
# the turn's DM, "Take my turn" and "My hand". On one shelf the boards, four fifths of the bytes, pushed private
# pictures out within two seconds under load.
BOARD_BYTES = 3 * 1024 * 1024  # some 75 boards and sheets
PRIVATE_BYTES = 5 * 1024 * 1024  # some 500 private pictures

PICTURES, THINKING = "pictures", "thinking"  # the pools, by the kind of work they take
_pools: dict[str, ProcessPoolExecutor] = {}


# How much each pool's workers yield the CPU to the bot's event loop when the cores are busy (os.nice): an
# acknowledgement has a 3 s deadline and a click waits on its answer, while a board or a search can come later.
NICENESS = {PICTURES: 5, THINKING: 10}


def workers(pool: str = PICTURES) -> int:
    if pool == THINKING:
        return 1  # hard players take turns: a second worker would take memory for a rare burst
    return max(1, (os.cpu_count() or 1) - 1)  # the event loop keeps a core of its own


def _start_worker(bot_pid: int, niceness: int) -> None:
    # Ctrl+C reaches the whole process group; the bot stops its workers itself when it exits.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(niceness)
    threading.Thread(target=_follow_bot, args=(bot_pid,), daemon=True).start()
    presenters()  # every game's data loaded before the first picture is asked for


def _follow_bot(bot_pid: int) -> None:
    """A bot killed outright cannot stop its workers, and a worker waiting for work would never notice: end with
    it. The bot says who it is: a bot killed while its worker was starting is no longer the worker's parent by the
    time the worker could ask."""
    while os.getppid() == bot_pid:
        time.sleep(1)
    os._exit(0)


def _draw(engine_name: str, seat: int | None, view: Any, names: list[str], locale: str) -> bytes | None:
    game = presenter(engine_name)
    return game.render_table(view, names, locale) if seat is None else game.render_private(view, locale)


def _draw_sheet(engine_name: str, view: Any, seat: int, names: list[str], locale: str) -> bytes:
    return presenter(engine_name).render_sheet(view, seat, names, locale)


def _draw_results(
    engine_name: str, states: list[str], names: list[str], winners: list[int], locale: str
) -> bytes:
    from engines import get_engine
    from render.results import game_results, score_series

    engine = get_engine(engine_name)
    views = [engine.view(engine.load(text), None) for text in states]  # hundreds of states: decoded here
    title = presenter(engine_name).title(locale)
    return game_results(views[-1], score_series(views), names, winners, locale, title)


def _executor(pool: str = PICTURES) -> ProcessPoolExecutor:
    if pool not in _pools:
        # "spawn": the bot's process has threads (the database driver's), which a forked child must not inherit.
        context = multiprocessing.get_context("spawn")
        _pools[pool] = ProcessPoolExecutor(
            workers(pool),
            mp_context=context,
            initializer=_start_worker,
            initargs=(os.getpid(), NICENESS[pool]),
        )
    return _pools[pool]


def shutdown(*pools: str) -> None:
    """Stop the workers of these pools, or of all (later work starts new ones)."""
    for pool in pools or list(_pools):
        executor = _pools.pop(pool, None)
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


async def _in_worker(work: Callable[..., Any], *args: Any, pool: str = PICTURES) -> Any:
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_executor(pool), work, *args)
    except BrokenProcessPool:  # a worker was killed (out of memory, by hand): start afresh, once
        shutdown(pool)
        return await loop.run_in_executor(_executor(pool), work, *args)


async def draw(engine_name: str, seat: int | None, view: Any, names: list[str], locale: str) -> bytes | None:
    """The table (seat None) or one seat's private picture, drawn by a worker process."""
    return await _in_worker(_draw, engine_name, seat, view, names, locale)


async def draw_sheet(engine_name: str, view: Any, seat: int, names: list[str], locale: str) -> bytes:
    """One player's whole sheet, from the public view, drawn by a worker process."""
    return await _in_worker(_draw_sheet, engine_name, view, seat, names, locale)


async def draw_results(
    engine_name: str, states: list[str], names: list[str], winners: list[int], locale: str
) -> bytes:
    """A finished game's results, from its stored states as dealt and after each move: each player's score by
    category and a chart of the scores over the game."""
    return await _in_worker(_draw_results, engine_name, states, names, winners, locale)


def _think(engine_name: str, state: Any, seat: int, seed: int, level: str) -> Any:
    from engines import get_engine

    return get_engine(engine_name).bot_action(state, seat, seed, level=level)


async def think(engine_name: str, state: Any, seat: int, seed: int, level: str) -> Any:
    """The built-in player's move. A hard player searches for a second or two: that runs in a worker process, so
    the event loop never waits on it; an easy one answers in a millisecond, here."""
    if level == "easy":
        return _think(engine_name, state, seat, seed, level)
    return await _in_worker(_think, engine_name, state, seat, seed, level, pool=THINKING)


def _offers(engine_name: str, state: Any, seat: int, actions: list[Any]) -> list[Any]:
    from bot.chooser import picker_actions
    from engines import get_engine

    return picker_actions(get_engine(engine_name), state, seat, actions)


async def offers(engine_name: str, state: Any, seat: int, actions: list[Any]) -> list[Any]:
    """What the move picker offers one seat (bot/chooser.py), worked out by a worker process."""
    return await _in_worker(_offers, engine_name, state, seat, actions)


def _digest(*what_is_drawn: Any) -> bytes:
    """A picture's name in the cache. Equal views pickle alike (the same engine code builds them), so a digest of
    the pickle names the picture; a rare different pickle of an equal view only costs one more drawing."""
    return hashlib.blake2b(pickle.dumps(what_is_drawn, protocol=5), digest_size=16).digest()


class Shelf:
    """Pictures by name, the most recently used kept within a budget of bytes."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._images: OrderedDict[bytes, bytes | None] = OrderedDict()

    def __contains__(self, key: bytes) -> bool:
        return key in self._images

    def take(self, key: bytes) -> bytes | None:
        self._images.move_to_end(key)
        return self._images[key]

    def put(self, key: bytes, png: bytes | None) -> None:
        self._images[key] = png
        self.size += len(png or b"")
        while self.size > self.budget and len(self._images) > 1:
            _, old = self._images.popitem(last=False)
            self.size -= len(old or b"")


class Pictures:
    """Pictures by what they show: a view drawn once is reused whatever version or seat asks for it again (a
    private picture by the part of the seat's view it draws)."""

    def __init__(self, boards: int = BOARD_BYTES, privates: int = PRIVATE_BYTES) -> None:
        self.shelves = {True: Shelf(boards), False: Shelf(privates)}  # by whether the picture is public
        self._drawing: dict[bytes, asyncio.Future] = {}

    @staticmethod
    def key(engine_name: str, seat: int | None, view: Any, names: list[str], locale: str) -> bytes:
        public = seat is None
        shown = view if public else presenter(engine_name).private_shows(view)
        return _digest(engine_name, public, shown, names if public else None, locale)

    async def get(
        self,
        engine_name: str,
        seat: int | None,
        view: Any,
        names: list[str],
        locale: str,
        key: bytes | None = None,  # the picture's name, when the asker has it already
    ) -> bytes | None:
        key = key or self.key(engine_name, seat, view, names, locale)
        shelf = self.shelves[seat is None]
        return await self._once(shelf, key, lambda: draw(engine_name, seat, view, names, locale))

    def drawn(self, engine_name: str, seat: int | None, view: Any, names: list[str], locale: str) -> bool:
        """Whether `get` would answer from what is drawn already, without waiting for a worker."""
        return self.key(engine_name, seat, view, names, locale) in self.shelves[seat is None]

    async def sheet(self, engine_name: str, view: Any, seat: int, names: list[str], locale: str) -> bytes:
        """One player's whole sheet from the public view (the same for every asker)."""
        key = _digest(engine_name, "sheet", seat, view, names, locale)
        png = await self._once(
            self.shelves[True], key, lambda: draw_sheet(engine_name, view, seat, names, locale)
        )
        assert png is not None
        return png

    async def _once(
        self, shelf: Shelf, key: bytes, make: Callable[[], Awaitable[bytes | None]]
    ) -> bytes | None:
        if key in shelf:
            return shelf.take(key)
        drawing = self._drawing.get(key)
        if drawing is None:  # the same picture asked for twice at once is drawn once
            drawing = asyncio.ensure_future(make())
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda done: self._drawn(shelf, key, done))
        return await asyncio.shield(drawing)  # one asker giving up does not stop the drawing for the others

    def _drawn(self, shelf: Shelf, key: bytes, done: asyncio.Future) -> None:
        del self._drawing[key]
        if not done.cancelled() and done.exception() is None:
            shelf.put(key, done.result())
