"""Where the bot's event loop spends its CPU under load: the load bench's steady phase (fewer games, shorter), with
the real bot process sampled by a CPU-time profiler, and the bot's own functions ranked by inclusive CPU.

The bot runs as `python -m bench.profile_load` with PROFILE_OUT set: the bot, plus a sampler on its main thread (the event loop).
SIGPROF comes every millisecond of the process's CPU time; the handler (run by the main thread) charges the main
thread's CPU used since the previous sample, read from that thread's own CPU clock, to the stack it is in. SQLAlchemy
runs its synchronous code in greenlets, so the coroutines waiting on a greenlet are put under its stack. Sampling
starts at SIGUSR1 and is written out at SIGUSR2; the profile costs the bot some CPU of its own (a few per cent).

    python -m bench.profile_load [--games 20] [--seconds 40] [--top 40] [--keep stacks.txt]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import runpy
import shutil
import signal
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

OUT = "PROFILE_OUT"


# Prefixes cut from a frame's file name; worked out once, as the sampler runs a thousand times a CPU second.
PATH_CUTS = ("site-packages/", "python3.11/", f"{Path.cwd()}/")


def _frames(frame: Any) -> list[str]:
    names: list[str] = []
    while frame is not None:
        code = frame.f_code
        path = code.co_filename
        for cut in PATH_CUTS:
            path = path.split(cut, 1)[-1]
        names.append(f"{code.co_qualname} ({path})")
        frame = frame.f_back
    return names[::-1]


def run_profiled_bot() -> None:
    import greenlet

    clock = time.pthread_getcpuclockid(threading.main_thread().ident or 0)
    stacks: Counter[str] = Counter()
    last = [0]

    def sample(_signum: int, frame: Any) -> None:
        now = time.clock_gettime_ns(clock)
        used, last[0] = now - last[0], now
        if used <= 0 or frame is None:
            return
        names = _frames(frame)
        current = greenlet.getcurrent()
        if current.parent is not None:  # SQLAlchemy's sync code: under the coroutines awaiting it
            names = _frames(current.parent.gr_frame) + names
        stacks[";".join(names)] += used // 1000

    def start(*_: Any) -> None:
        last[0] = time.clock_gettime_ns(clock)
        signal.signal(signal.SIGPROF, sample)
        signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)

    def stop(*_: Any) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        with open(os.environ[OUT] + ".part", "w") as out:  # whole, then renamed: the load bench waits for it
            out.writelines(f"{stack} {micros}\n" for stack, micros in stacks.items())
        os.replace(os.environ[OUT] + ".part", os.environ[OUT])

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


LAYERS = (
    ("ours", re.compile(r"\((bot|engines|render)/")),
    ("sqlalchemy", re.compile(r"\(sqlalchemy/")),
    ("db driver", re.compile(r"\((aiosqlite|asyncpg|sqlite3)/")),
    ("discord.py", re.compile(r"\(discord/")),
    ("aiohttp", re.compile(r"\((aiohttp|yarl|multidict)/")),
    ("asyncio", re.compile(r"\(asyncio/")),
    ("json", re.compile(r"\(json/")),
)


def by_layer(path: Path) -> Counter[str]:
    """Self CPU by the library of the innermost frame: what our code costs against what it asks of libraries."""
    layers: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, micros = line.rsplit(" ", 1)
        leaf = stack.rsplit(";", 1)[-1]
        layers[next((name for name, pattern in LAYERS if pattern.search(leaf)), "other")] += int(micros)
    return layers


def ranked(path: Path, interactions: int, top: int) -> list[str]:
    """Our functions (bot/, engines/, render/) and the database layer by inclusive CPU per interaction."""
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, micros = line.rsplit(" ", 1)
        total += int(micros)
        for name in set(stack.split(";")):
            inclusive[name] += int(micros)
    ours = re.compile(r"\((bot|engines|render)/(?!__main__)|greenlet_spawn")
    lines = [f"main-thread CPU sampled: {total / 1000 / interactions:.2f} ms per interaction"]
    layers = ", ".join(
        f"{layer} {micros / 1000 / interactions:.2f}" for layer, micros in by_layer(path).most_common()
    )
    lines.append(f"self CPU by layer, ms per interaction: {layers}")
    for name, micros in inclusive.most_common():
        if ours.search(name) and len(lines) <= top:
            lines.append(f"{micros / 1000 / interactions:7.2f} ms {100 * micros / total:5.1f}%  {name}")
    return lines


async def profile(games: int, seconds: float, top: int, keep: str | None) -> None:
    from bench import load_bench

    with tempfile.TemporaryDirectory(prefix="profile-load-") as name:
        folder = Path(name)
        os.environ[OUT] = str(folder / "stacks.txt")
        steady: list[Any] = []
        # The bot's calls to Discord's HTTP API in the steady phase, by route.
        api_calls: list[Counter[str]] = []
        wrapped = load_bench.BotProcess.__init__

        def profiled(self: Any, module: str, *args: Any, **kwargs: Any) -> None:
            wrapped(self, "bench.profile_load" if module == "bot" else module, *args, **kwargs)

        async def phases(plan: Any, sb: Any, bot: Any, drivers: list[Any]) -> list[Any]:
            drivers = drivers[: plan.games]
            opening = await load_bench.run_phase(sb, bot, drivers, "opening", plan.think, 30.0, 3.0, True)
            os.kill(bot.pid, signal.SIGUSR1)
            calls = sb.calls.copy()
            steady.append(await load_bench.run_phase(sb, bot, drivers, "steady", plan.think, plan.seconds))
            os.kill(bot.pid, signal.SIGUSR2)
            api_calls.append(sb.calls - calls)
            while not os.path.exists(os.environ[OUT]):
                await asyncio.sleep(0.5)
            return [opening, steady[0]]

        load_bench.BotProcess.__init__ = profiled  # type: ignore[method-assign]
        load_bench.Plan.run = phases  # type: ignore[method-assign, assignment]
        await load_bench.load_our_bot(folder, load_bench.Plan(games, 0.5, seconds))
        result = steady[0]
        done = len(result.rec.ok())
        main = result.bot["main"] * result.seconds / 100
        print(f"\n## Profile of the bot's event loop under load ({games} games, think 0.5 s, {seconds:g} s)")
        print(
            f"{done} interactions, {result.rec.moves} moves; CPU per interaction: event-loop thread "
            f"{main / done * 1000:.1f} ms, whole bot process {result.bot['cpu_s'] / done * 1000:.1f} ms, "
            f"picture workers {result.bot['helpers_cpu_s'] / done * 1000:.1f} ms "
            f"({result.bot['helpers_cpu_s'] / max(1, result.rec.moves) * 1000:.1f} ms per move)"
        )
        print(f"calls to Discord's HTTP API per interaction: {api_calls[0].total() / done:.2f}")
        for route, count in api_calls[0].most_common():
            print(f"  {count / done:5.2f}  {route}")
        print("\n".join(ranked(Path(os.environ[OUT]), done, top)))
        if keep:
            shutil.copy(os.environ[OUT], keep)


if __name__ == "__main__":
    if os.environ.get(OUT):  # the bot's process, started by the load bench below
        run_profiled_bot()
    else:
        parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--seconds", type=float, default=40.0)
        parser.add_argument("--top", type=int, default=40)
        parser.add_argument(
            "--keep", help="also write the sampled stacks (stack and microseconds a line) to this file"
        )
        args = parser.parse_args()
        asyncio.run(profile(args.games, args.seconds, args.top, args.keep))
