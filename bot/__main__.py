"""`python -m bot` (what `make run` does): connect to Discord with DISCORD_TOKEN, or run the local sandbox."""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging

from bot.app import build
from bot.settings import Settings

try:  # libuv's event loop: the same asyncio API at a fifth less of the event loop's CPU per interaction under load
    from uvloop import run
except ImportError:  # not on Windows
    from asyncio import run

M_ARENA_MAX = -8  # glibc's mallopt parameter


def fewer_malloc_arenas() -> None:
    """glibc gives threads that allocate malloc arenas of their own (up to eight per core), and the SQLite driver
    runs a thread per connection: memory freed in those arenas stays with the process. Two arenas are plenty for
    threads that mostly wait (about 15 MB less under the load bench). Elsewhere than glibc this does nothing."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(M_ARENA_MAX, 2)


def collect_cycles_rarely() -> None:
    """Python's full collections walk every object the bot keeps (some 180,000 at 200 games), holding the event
    loop 150-230 ms each time. Under the load bench they came every second or two, yet found almost nothing: the
    reference cycles each interaction left are broken where they are made (bot.ui.let_go, bot.ui.Attachment,
    statements built once in bot/service.py). Everything made while starting (modules, game data, strings: some
    100,000 objects) lives as long as the process, so it is frozen out of their walk; and a full collection waits
    for 1,000 collections of the middle generation instead of 10 (every few minutes at 200 games rather than
    every second or two). At 200 games that cut the acknowledgement p99 from about 240 to 145 ms and the event
    loop's CPU per interaction by about a tenth; the cycles that remain are few (about 100 objects a full
    collection frees)."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


async def main() -> None:
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not settings.discord_token:
        from bot.sandbox_mode import run_sandbox

        await run_sandbox(settings)
        return
    bot = await build(settings)
    async with bot:
        await bot.login(settings.discord_token)  # its setup: commands, cogs, what to recover
        collect_cycles_rarely()
        await bot.connect()


if __name__ == "__main__":
    fewer_malloc_arenas()  # before any thread starts
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C (or SIGINT from a supervisor) is a normal stop
        run(main())
