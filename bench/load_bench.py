"""End to end under load: simulated players drive the real bot process through the loopback server.

This process runs the sandbox server and the load generator; the bot runs as `python -m bot` in its own
process (SQLite in a temporary folder), exactly as in production, and a bare discord.py bot
(bench/bare_bot.py: a pre-rendered PNG for every interaction) gets the same load afterwards, for comparison.

Each simulated game has two people (and sometimes a built-in bot seat): one opens it with `/play new`, the
other joins, the host starts it; then whoever the board mentions takes their turn through the move picker
(board button, then one random legal choice per step) or with `/play move` after asking the autocomplete,
thinking between actions. A finished game is replaced by a new one. Each bot goes through three phases:
opening every game, steady load with think time (the issue's budget), and saturation (no think time).
Figures are medians and p99s; nothing here asserts a timing. The bot's CPU and memory are given with and
without its descendant processes (the workers that draw its pictures, bot/drawing.py).

    python -m bench.load_bench [--quick] [--games N] [--think S] [--seconds S]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import machine, percentile
from sandbox.server import DiscordSandbox
from sandbox.validate import ActionRejected

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("druids", "roll_player", "roll_for_the_galaxy", "talisman")
FALLBACK = "druids"
DEADLINE = 3.0  # Discord's acknowledgement window
TIMEOUT = 10.0  # how long one simulated click waits for its answer before counting it as failed
BOARD_TIMEOUT = 8.0  # how long a player waits for the board after a move
MAX_PICKER_STEPS = 12
DONE = "Done: "  # how the picker confirms a move to the generator's players (en-US)
CLK_TCK = os.sysconf("SC_CLK_TCK")

EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|NotFound|Forbidden|Timeout)\b\S*: ")
BUDGET = {
    "ack_p99": 0.150,
    "completion_p99": 1.0,
    "board_p99": 2.0,
    "loop_ms": 4.0,
    "rss_mb": 300.0,
    "ratio": 0.5,
}


# --- measuring ----------------------------------------------------------------------------------------------


@dataclass
class Sample:
    op: str
    start: float
    done: float | None  # seconds to completion, None if it failed
    image: bool = False


@dataclass
class Recorder:
    """Everything one phase saw, from the load generator's side."""

    name: str
    samples: list[Sample] = field(default_factory=list)
    board: list[float] = field(default_factory=list)  # a move's click -> the new board image in the thread
    failures: Counter = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # what the first of each kind of failure saw
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    kinds: Counter = field(default_factory=Counter)  # moves played, by game kind
    notes: set[str] = field(default_factory=set)

    def ok(self) -> list[Sample]:
        return [s for s in self.samples if s.done is not None]


def proc_cpu_seconds(pid: int | str, thread: int | str | None = None) -> float:
    """CPU seconds of a process, or of one of its threads (the main thread's id is the process id)."""
    with open(f"/proc/{pid}/task/{thread}/stat" if thread else f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14 and 15)


def proc_rss_mb(pid: int | str, key: str = "VmRSS") -> float:
    with open(f"/proc/{pid}/status") as file:
        for line in file:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def descendants(pid: int | str) -> list[int]:
    """Child processes of `pid`, their children and so on (the bot's picture workers)."""
    found: list[int] = []
    queue = [str(pid)]
    while queue:
        parent = queue.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{parent}/task"):
                with open(f"/proc/{parent}/task/{task}/children") as file:
                    children = file.read().split()
                found += [int(c) for c in children]
                queue += children
    return found


class ProcessWatch:
    """CPU time and resident memory of one process over a phase, and of it with its descendants (RSS sampled
    every 0.25 s for the peaks)."""

    def __init__(self, pid: int | str) -> None:
        self.pid = pid
        self.cpu0 = proc_cpu_seconds(pid)
        self.main0 = proc_cpu_seconds(pid, pid)
        self.wall0 = time.monotonic()
        self.peak = proc_rss_mb(pid)
        self.family_peak = self.peak
        self.helpers0 = self._helper_cpu()  # descendants that come later start from zero
        self._task = asyncio.get_running_loop().create_task(self._sample())

    def _helper_cpu(self) -> dict[int, float]:
        out = {}
        for child in descendants(self.pid):
            with contextlib.suppress(OSError, ValueError):
                out[child] = proc_cpu_seconds(child)
        return out

    def _helper_rss(self) -> float:
        total = 0.0
        for child in descendants(self.pid):
            with contextlib.suppress(OSError, ValueError):
                total += proc_rss_mb(child)
        return total

    async def _sample(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                rss = proc_rss_mb(self.pid)
                self.peak = max(self.peak, rss)
                self.family_peak = max(self.family_peak, rss + self._helper_rss())
                await asyncio.sleep(0.25)

    def stop(self) -> dict[str, float]:
        self._task.cancel()
        wall = time.monotonic() - self.wall0
        try:
            cpu = proc_cpu_seconds(self.pid) - self.cpu0
            main = proc_cpu_seconds(self.pid, self.pid) - self.main0
            rss = proc_rss_mb(self.pid)
            helpers = sum(c - self.helpers0.get(p, 0.0) for p, c in self._helper_cpu().items())
            family_rss = rss + self._helper_rss()
        except OSError:
            nan = float("nan")
            return {
                "cpu": nan,
                "main": nan,
                "main_s": nan,
                "cpu_s": nan,
                "rss": nan,
                "peak": self.peak,
                "helpers_cpu_s": nan,
                "family_peak": self.family_peak,
            }
        return {
            "cpu": 100 * cpu / wall,
            "main": 100 * main / wall,
            "main_s": main,
            "cpu_s": cpu,
            "rss": rss,
            "peak": max(self.peak, rss),
            "helpers_cpu_s": helpers,
            "helpers_cpu": 100 * helpers / wall,
            "family_peak": max(self.family_peak, family_rss),
        }


class LoopLag:
    """How late this process's event loop wakes up (the generator's own delay, part of its timings)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lags.append(time.perf_counter() - start - 0.05)

    def stop(self) -> list[float]:
        self._task.cancel()
        return self.lags


# --- the world and the bot processes ------------------------------------------------------------------------


class Boards:
    """The newest board image of every thread, followed through the sandbox's event feed."""

    def __init__(self, sb: DiscordSandbox) -> None:
        self.sb = sb
        self.latest: dict[str, Any] = {}
        self.stamp: dict[str, float] = {}
        self._events: dict[str, asyncio.Event] = {}
        self._queue = sb.subscribe()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            event = await self._queue.get()
            if event.get("type") == "closed":
                return
            if event.get("type") in ("message_create", "message_update"):
                self._see(event["message_id"], event["channel_id"])

    def _see(self, message_id: str, channel_id: str) -> None:
        msg = self.sb.world.messages.get(message_id)
        if msg is None or not any(a.filename == "board.png" for a in msg.attachments):
            return
        current = self.latest.get(channel_id)
        if current is not None and int(msg.id) < int(current.id):
            return  # an older board losing its buttons
        self.latest[channel_id] = msg
        self.stamp[channel_id] = time.perf_counter()
        event = self._events.pop(channel_id, None)
        if event is not None:
            event.set()

    async def after(self, channel_id: str, since: float, timeout: float) -> float | None:
        """Wait for a board image in the thread newer than `since` (perf_counter); its time, or None."""
        deadline = time.perf_counter() + timeout
        while self.stamp.get(channel_id, -1.0) <= since:
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            event = self._events.setdefault(channel_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), left)
        return self.stamp[channel_id]

    def close(self) -> None:
        self.sb.unsubscribe(self._queue)
        self._task.cancel()


class BotProcess:
    """A bot in its own process, pointed at the sandbox the way tests/e2e/test_shards.py does it."""

    def __init__(
        self, module: str, sb: DiscordSandbox, guild_id: str, log_path: Path, **extra_env: str
    ) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": sb.token,
            "DISCORD_API_BASE": sb.api_url,
            "DISCORD_GATEWAY_URL": sb.gateway_url,
            "DEV_GUILD_ID": guild_id,
            "TICK_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
            **extra_env,
        }
        self.log_path = log_path
        self._log = open(log_path, "w")  # noqa: SIM115 — closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", module], cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self.pid = self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._log.close()

    def log_errors(self) -> tuple[list[str], list[str], list[str]]:
        """The bot's logged ERROR lines (the log level is WARNING), the last lines of its tracebacks, and the
        first traceback whole (the log goes with the bench's folder, so what it says must be printed)."""
        with contextlib.suppress(OSError):
            lines = self.log_path.read_text(errors="replace").splitlines()
            errors = [line for line in lines if " ERROR " in line]
            raised = [line for line in lines if EXCEPTION_LINE.match(line)]
            start = next((i for i, line in enumerate(lines) if line.startswith("Traceback")), None)
            end = next((i for i, line in enumerate(lines) if EXCEPTION_LINE.match(line)), None)
            first = lines[start : end + 1] if start is not None and end is not None and end > start else []
            return errors, raised, first
        return [], [], []

    def log_tail(self, lines: int = 15) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""


def build_world(
    sb: DiscordSandbox, games: int, people_per_game: int
) -> tuple[Any, list[Any], list[list[Any]]]:
    guild = sb.add_guild("Load test club")
    channels = [sb.add_channel(guild, f"games-{i}") for i in range(max(1, games // 20))]
    people = [
        [sb.add_user(f"P{g}-{p}", locale="en-US") for p in range(people_per_game)] for g in range(games)
    ]
    return guild, channels, people


async def wait_for_bot(
    sb: DiscordSandbox, bot: BotProcess, commands: tuple[str, ...], timeout: float = 60
) -> None:
    deadline = time.monotonic() + timeout
    while not sb.gateway.sessions or not _synced(sb, commands):
        if not bot.alive():
            raise RuntimeError(f"the bot process exited:\n{bot.log_tail()}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the bot did not connect within {timeout}s:\n{bot.log_tail()}")
        await asyncio.sleep(0.05)


def _synced(sb: DiscordSandbox, names: tuple[str, ...]) -> bool:
    synced = set(sb.world.global_commands)
    for cmds in sb.world.guild_commands.values():
        synced |= set(cmds)
    return set(names) <= synced


async def until_answering(
    sb: DiscordSandbox, user: Any, channel: Any, command: str, timeout: float = 30
) -> None:
    """discord.py routes interactions once the guild is ready: ask until it answers."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            await sb.slash(user, channel, command, {}, timeout=2)
            return
        except TimeoutError:
            if time.monotonic() > deadline:
                raise


def offered_games(sb: DiscordSandbox, channel: Any) -> set[str]:
    """The game kinds `/play new` offers (the choices the bot synced)."""
    command = sb.world.commands_for(channel).get("play")
    if command is None:
        return set()
    for sub in command.data.get("options") or []:
        if sub.get("name") == "new":
            for option in sub.get("options") or []:
                if option.get("name") == "game":
                    return {str(c["value"]) for c in option.get("choices") or []}
    return set()


# --- simulated players --------------------------------------------------------------------------------------


@dataclass
class Phase:
    rec: Recorder
    think: float
    end: float  # perf_counter time after which no new action starts
    setup: bool = False  # only open every game (lobby, join, start), then stop

    def over(self) -> bool:
        return time.perf_counter() >= self.end


class Actor:
    """Shared by both kinds of simulated game: one timed user action, with its failure counted."""

    def __init__(self, sb: DiscordSandbox, seed: int) -> None:
        self.sb = sb
        self.rng = random.Random(seed)

    async def think(self, phase: Phase) -> None:
        await asyncio.sleep(phase.think * self.rng.uniform(0.5, 1.5) if phase.think > 0 else 0)

    async def act(
        self, phase: Phase, op: str, call: Any, *args: Any, image: bool = False, **kwargs: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            result = await call(*args, timeout=TIMEOUT, **kwargs)
        except TimeoutError:
            phase.rec.samples.append(Sample(op, start, None, image))
            phase.rec.failures[f"{op}: no answer within {TIMEOUT:.0f}s"] += 1
            return None
        except ActionRejected as error:  # the simulated client tried something the client would not allow
            phase.rec.failures[f"{op}: client refused ({error.code})"] += 1
            return None
        phase.rec.samples.append(Sample(op, start, time.perf_counter() - start, image))
        return result


class GameDriver(Actor):
    """One table of the real bot, replaced by a new one when it finishes."""

    def __init__(
        self,
        sb: DiscordSandbox,
        boards: Boards,
        channel: Any,
        people: list[Any],
        kind: str,
        seed: int,
        offered: set[str],
        broken: set[str],
        with_bot_seat: bool,
        picker_share: float = 0.8,
    ) -> None:
        super().__init__(sb, seed)
        self.boards = boards
        self.channel = channel
        self.people = people
        self.kind = kind
        self.offered = offered
        self.broken = broken
        self.with_bot_seat = with_bot_seat
        self.picker_share = picker_share
        self.game_id: int | None = None
        self.thread_id: str | None = None
        self.refused_in_a_row = 0
        self.stuck = 0  # turns in a row where the bot answered but offered no way to move
        self.refused = False
        self.playing = kind

    def _kind(self, rec: Recorder) -> str:
        if self.kind in self.offered and self.kind not in self.broken:
            return self.kind
        rec.notes.add(
            f"{self.kind}: {'failed' if self.kind in self.broken else 'not offered by /play new'}, "
            f"played as {FALLBACK}"
        )
        return FALLBACK

    async def run(self, phase: Phase) -> None:
        while not phase.over():
            if self.thread_id is None:
                outcome = await self.new_game(phase)
                if outcome != "ok":
                    # Only a refusal counts against the kind; no answer in time is the bot being busy.
                    self.refused_in_a_row = self.refused_in_a_row + 1 if outcome == "refused" else 0
                    if self.refused_in_a_row >= 2:
                        self._give_up_on_kind()
                    await asyncio.sleep(min(1.0, max(0.0, phase.end - time.perf_counter())))
                    continue
                self.refused_in_a_row = 0
            if phase.setup:
                return
            await self.turn(phase)

    def _give_up_on_kind(self) -> None:
        if self.playing != FALLBACK:
            self.broken.add(self.playing)
        self.refused_in_a_row = self.stuck = 0
        self.thread_id = self.game_id = None

    async def new_game(self, phase: Phase) -> str:
        """Open, fill and start a table: "ok", "busy" (an answer did not come in time) or "refused"."""
        rec = phase.rec
        host, guest = self.people[0], self.people[1]
        kind = self.playing = self._kind(rec)
        await self.think(phase)
        created = await self.act(
            phase, "/play new", self.sb.slash, host, self.channel, "play new", {"game": kind}
        )
        if created is None:
            return "busy"
        lobby = created.message
        if lobby is None or lobby.audience.kind != "public" or not lobby.buttons():
            rec.failures[f"/play new {kind}: answered without a lobby"] += 1
            return "refused"
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await self.think(phase)
        joined = await self.act(phase, "join", self.sb.click, guest, lobby, f"lobby:join:{game_id}")
        if joined is None:
            return "busy"
        if self.with_bot_seat:
            await self.think(phase)
            await self.act(phase, "add bot", self.sb.click, host, lobby, f"lobby:bot:{game_id}")
        await self.think(phase)
        start = time.perf_counter()
        started = await self.act(phase, "start", self.sb.click, host, lobby, f"lobby:start:{game_id}")
        if started is None:
            return "busy"
        if started.callback_type == 4:  # an ephemeral refusal instead of the game
            rec.failures[f"start {kind}: refused"] += 1
            return "refused"
        if await self.boards.after(lobby.id, start, BOARD_TIMEOUT) is None:  # the thread takes the lobby's id
            rec.failures[f"start {kind}: no board within {BOARD_TIMEOUT:.0f}s"] += 1
            return "busy"
        self.game_id, self.thread_id = game_id, lobby.id
        rec.games_started += 1
        return "ok"

    async def turn(self, phase: Phase) -> None:
        assert self.thread_id is not None and self.game_id is not None
        board = self.boards.latest[self.thread_id]
        seen = self.boards.stamp[self.thread_id]
        if board.component(f"table:turn:{self.game_id}") is None:  # finished
            phase.rec.games_finished += 1
            self.thread_id = self.game_id = None
            return
        waiting = [p for p in self.people if p.id in board.mention_ids or _named_as_waiting(board, p.name)]
        if not waiting:  # the built-in player is moving: wait for its board
            if (
                await self.boards.after(
                    self.thread_id, seen, min(BOARD_TIMEOUT, phase.end - time.perf_counter())
                )
                is None
                and not phase.over()
            ):
                phase.rec.failures["no board while waiting for the built-in player"] += 1
            return
        player = self.rng.choice(waiting)
        self.refused = False  # set when the bot answers but offers no way forward
        if self.rng.random() < self.picker_share:
            moved_at = await self.move_with_picker(phase, player, board)
        else:
            moved_at = await self.move_with_command(phase, player)
        if moved_at is None:
            if self.refused:
                # The board may be behind the game (a turn already played): a newer one says who acts now.
                wait = min(BOARD_TIMEOUT, phase.end - time.perf_counter())
                newer = await self.boards.after(self.thread_id, seen, wait)
                self.stuck = 0 if newer is not None else self.stuck + 1
                if self.stuck >= 5:  # this kind does not play through the bot yet
                    phase.rec.failures[f"{self.playing}: no way to move five turns in a row"] += 1
                    self._give_up_on_kind()
            if not phase.over():
                await asyncio.sleep(0.2)
            return
        self.stuck = 0
        phase.rec.moves += 1
        phase.rec.kinds[self.playing] += 1
        shown = await self.boards.after(self.thread_id, moved_at, BOARD_TIMEOUT)
        if shown is None:  # the next turn reads whatever board is newest then
            phase.rec.failures[f"move: no new board within {BOARD_TIMEOUT:.0f}s"] += 1
            return
        phase.rec.board.append(shown - moved_at)

    async def move_with_picker(self, phase: Phase, player: Any, board: Any) -> float | None:
        """Take my turn, then one random choice per step; the time of the click that played the move."""
        await self.think(phase)
        opened = await self.act(
            phase, "open picker", self.sb.click, player, board, f"table:turn:{self.game_id}", image=True
        )
        picker = opened.message if opened is not None else None
        if picker is None:
            return None
        seen: list[str] = []  # what each step's answer said first, for a picker that never plays a move
        for _ in range(MAX_PICKER_STEPS):
            seen.append(picker.content.split("\n", 1)[0][:120])
            buttons = [
                c for c in picker.buttons() if str(c.get("custom_id", "")).startswith(f"mv:{self.game_id}:")
            ]
            selects = [
                s for s in picker.selects() if str(s.get("custom_id", "")).startswith(f"mvs:{self.game_id}:")
            ]
            # A choice goes one step deeper; "Back" goes up. With menus only the "Back" button is left, which
            # the generator once clicked half the time, wandering until it gave up ("picker: too many steps").
            depth = max(
                [len(_path(c["custom_id"])) for c in buttons]
                + [len(_path(s["custom_id"])) + 1 for s in selects],
                default=-1,
            )
            buttons = [c for c in buttons if len(_path(c["custom_id"])) == depth]
            if not buttons and not selects:
                self.refused = True  # not this player's turn after all, or the picker is empty
                return None
            await self.think(phase)
            before = _picker_version(picker)
            clicked = time.perf_counter()
            if selects and (not buttons or self.rng.random() < 0.5):
                select = self.rng.choice(selects)
                value = self.rng.choice(select["options"])["value"]
                result = await self.act(
                    phase, "picker step", self.sb.select, player, picker, select["custom_id"], [value]
                )
            else:
                result = await self.act(
                    phase, "picker step", self.sb.click, player, picker, self.rng.choice(buttons)["custom_id"]
                )
            if result is None:
                return None
            if result.callback_type not in (6, 7):  # a step answered at once (7), or deferred (6) then edited
                self.refused = True
                return None
            # The move itself: the picker confirms it, and shows the new hand (its choice token, though, may be the
            # old one: a Druids gem drawn leaves the same choices, so the token alone missed some moves).
            if _picker_version(picker) != before or picker.content.startswith(DONE):
                phase.rec.samples[-1].op = "move (picker)"
                phase.rec.samples[-1].image = True
                return clicked
        phase.rec.failures["picker: too many steps"] += 1
        phase.rec.examples.setdefault("picker: too many steps", " | ".join(seen[-4:]))
        return None

    async def move_with_command(self, phase: Phase, player: Any) -> float | None:
        """/play move, choosing among what the autocomplete offers."""
        thread = self.sb.world.channel(self.thread_id)
        await self.think(phase)
        choices = await self.act(
            phase, "autocomplete", self.sb.autocomplete, player, thread, "play move", {}, "action"
        )
        if not choices:
            self.refused = choices is not None
            return None
        await self.think(phase)
        clicked = time.perf_counter()
        done = await self.act(
            phase,
            "/play move",
            self.sb.slash,
            player,
            thread,
            "play move",
            {"action": self.rng.choice(choices)["value"]},
            image=True,
        )
        if done is not None and done.callback_type != 5:
            self.refused = True
        return clicked if done is not None and done.callback_type == 5 else None


def _named_as_waiting(board: Any, name: str) -> bool:
    """Whether the board's closing line (who must act) names this person: only those newly to act are
    mentioned, so a board edited within someone's turn names them without a ping."""
    closing = board.content.rsplit("\n\n", 1)[-1]
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", closing) is not None


def _picker_version(picker: Any) -> str | None:
    """The game version the picker's choices are for (`mv:<game>:<version>:<path>`); None once it offers none."""
    for component in picker.buttons() + picker.selects():
        parts = str(component.get("custom_id", "")).split(":")
        if parts[0] in ("mv", "mvs"):
            return parts[2]
    return None


def _path(custom_id: str) -> list[str]:
    path = custom_id.split(":")[3]
    return path.split(".") if path else []


class BareDriver(Actor):
    """The same rhythm against the bare bot: `/bare` once, then its button again and again."""

    def __init__(self, sb: DiscordSandbox, channel: Any, person: Any, seed: int) -> None:
        super().__init__(sb, seed)
        self.channel = channel
        self.person = person
        self.message: Any = None

    async def run(self, phase: Phase) -> None:
        while not phase.over():
            if self.message is None:
                await self.think(phase)
                result = await self.act(
                    phase, "/bare", self.sb.slash, self.person, self.channel, "bare", {}, image=True
                )
                self.message = result.message if result is not None else None
                if self.message is None:
                    await asyncio.sleep(0.2)
                if phase.setup and self.message is not None:
                    return
                continue
            buttons = self.message.buttons()
            if not buttons:
                self.message = None
                continue
            await self.think(phase)
            if (
                await self.act(
                    phase,
                    "click",
                    self.sb.click,
                    self.person,
                    self.message,
                    buttons[0]["custom_id"],
                    image=True,
                )
                is None
            ):
                self.message = None


# --- phases -------------------------------------------------------------------------------------------------


@dataclass
class PhaseResult:
    rec: Recorder
    seconds: float
    end: float
    games: int
    think: float
    acks: list[float]
    acks_by_third: list[list[float]]  # of the interactions sent in each third of the phase
    never_acked: int
    late: int
    bot: dict[str, float]
    generator: dict[str, float]
    loop_lag: list[float]
    bot_violations: list[Any]
    discord_calls: int  # requests the bot made to Discord's HTTP API during the phase

    @property
    def throughput(self) -> float:
        """Interactions completed within the phase, per second."""
        return sum(1 for s in self.rec.ok() if s.start + (s.done or 0) <= self.end) / self.seconds


async def run_phase(
    sb: DiscordSandbox,
    bot: BotProcess,
    drivers: list[Any],
    name: str,
    think: float,
    seconds: float,
    ramp: float = 0.0,
    setup: bool = False,
) -> PhaseResult:
    rec = Recorder(name)
    # The generator and the sandbox server share this process, whose heap (the sandbox's world) only grows: full
    # collections of it paused the loop for up to 250 ms, counted into the bots' latencies. Collected and frozen
    # between phases, it is left out of the collections during one.
    gc.collect()
    gc.freeze()
    violations_before = len(sb.bot_violations())
    interactions_before = set(sb.interactions)
    calls_before = sb.calls.total()
    watch, own, lag = ProcessWatch(bot.pid), ProcessWatch(os.getpid()), LoopLag()
    started = time.perf_counter()
    sandbox_started = sb.clock()  # the sandbox stamps interactions on its own clock
    phase = Phase(rec, think, started + seconds, setup)

    async def staggered(index: int, driver: Any) -> None:
        if ramp and len(drivers) > 1:
            await asyncio.sleep(ramp * index / len(drivers))
        await driver.run(phase)

    tasks = [asyncio.create_task(staggered(i, d)) for i, d in enumerate(drivers)]
    # Every action is bounded by TIMEOUT, so the stragglers end soon after the phase does.
    _, pending = await asyncio.wait(tasks, timeout=seconds + ramp + 4 * TIMEOUT + BOARD_TIMEOUT)
    for task in pending:
        task.cancel()
        rec.failures["a simulated game was still busy at the end of the phase (cancelled)"] += 1
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            rec.failures[f"load generator error: {task.exception()!r}"] += 1
    elapsed = min(seconds, time.perf_counter() - started)
    await asyncio.sleep(0.2)
    bot_use, own_use, lags = watch.stop(), own.stop(), lag.stop()
    records = [r for i, r in sb.interactions.items() if i not in interactions_before]
    acks = [r.ack_at - r.created for r in records if r.ack_at is not None]
    never = sum(1 for r in records if r.ack_at is None)
    return PhaseResult(
        rec,
        elapsed,
        started + elapsed,
        len(drivers),
        think,
        acks,
        acks_by_third(records, sandbox_started, seconds),
        never,
        sum(1 for a in acks if a > DEADLINE) + never,
        bot_use,
        own_use,
        lags,
        sb.bot_violations()[violations_before:],
        sb.calls.total() - calls_before,
    )


def acks_by_third(records: list[Any], start: float, seconds: float) -> list[list[float]]:
    """The acknowledgement times of the interactions sent in each third of a phase from `start` (sandbox clock)."""
    acked = ((r.created, r.ack_at - r.created) for r in records if r.ack_at is not None)
    return _by_third(acked, start, seconds)


def _by_third(timed: Iterable[tuple[float, float]], start: float, seconds: float) -> list[list[float]]:
    """Values of (when, value) pairs, put in the third of the phase from `start` that their `when` falls in."""
    thirds: list[list[float]] = [[], [], []]
    for when, value in timed:
        third = int(3 * (when - start) / seconds)
        if 0 <= third < 3:
            thirds[third].append(value)
    return thirds


def board_png() -> bytes:
    """One of our real board images (3-player Druids, mid-game), so the bare bot sends the same bytes."""
    from bench.render_bench import mid_game
    from bot.games import presenter

    game = presenter(FALLBACK)
    state = mid_game(game.engine, 3, 7)
    return game.render_table(game.engine.view(state, None), ["Player 1", "Player 2", "Player 3"], "en")


@dataclass
class Plan:
    """The phases each bot goes through: open every game (ramped), steady load with think time, saturation."""

    games: int
    think: float
    seconds: float
    sat_games: tuple[int, ...] = ()  # concurrency levels tried with no think time; the best one counts
    sat_seconds: float = 0.0
    setup_seconds: float = 60.0
    ramp: float = 0.0  # games open one after another over this many seconds

    async def run(self, sb: DiscordSandbox, bot: BotProcess, drivers: list[Any]) -> list[PhaseResult]:
        results = [
            await run_phase(
                sb,
                bot,
                drivers[: self.games],
                f"opening {self.games} games",
                self.think,
                self.setup_seconds,
                self.ramp,
                setup=True,
            )
        ]
        results.append(
            await run_phase(
                sb,
                bot,
                drivers[: self.games],
                f"{self.games} games, think {self.think:g} s",
                self.think,
                self.seconds,
            )
        )
        for level in self.sat_games if self.sat_seconds else ():
            results.append(
                await run_phase(
                    sb, bot, drivers[:level], f"saturation: {level} games, no think", 0.0, self.sat_seconds
                )
            )
        return results


async def load_our_bot(
    folder: Path, plan: Plan, database_url: str | None = None
) -> tuple[list[PhaseResult], list[str]]:
    count = max((plan.games, *plan.sat_games))
    sb = DiscordSandbox(token="load-token")
    sb.attachment_memory = 96 * 1024 * 1024  # keep this process small; old images are dropped (404)
    guild, channels, people = build_world(sb, count, 2)
    await sb.start()
    boards = Boards(sb)
    database_url = database_url or f"sqlite+aiosqlite:///{folder / 'load.db'}"
    bot = BotProcess("bot", sb, guild.id, folder / "bot.log", DATABASE_URL=database_url)
    notes: list[str] = []
    try:
        await wait_for_bot(sb, bot, ("play",))
        await until_answering(sb, people[0][0], channels[0], "play mine")
        offered = offered_games(sb, channels[0])
        broken: set[str] = set()
        drivers = [
            GameDriver(
                sb,
                boards,
                channels[i % len(channels)],
                people[i],
                KINDS[i % len(KINDS)],
                seed=i,
                offered=offered,
                broken=broken,
                with_bot_seat=i % 3 == 0,
            )
            for i in range(count)
        ]
        results = await plan.run(sb, bot, drivers)
        for result in results:
            notes += sorted(result.rec.notes)
        if broken:
            notes.append(f"kinds that failed and fell back to {FALLBACK}: {', '.join(sorted(broken))}")
        if sb.attachments_evicted:
            notes.append(f"the sandbox dropped {sb.attachments_evicted} old images to bound its memory")
    finally:
        boards.close()
        bot.stop()
        await sb.stop()
    errors, raised, first = bot.log_errors()
    kinds = Counter(line.split(" ERROR ", 1)[1][:90] for line in errors)
    notes += [f"bot log: {count} x ERROR {kind}" for kind, count in kinds.most_common(3)]
    notes += [f"bot log: {count} x raised {line[:110]}" for line, count in Counter(raised).most_common(4)]
    notes = sorted(set(notes))
    if first:
        notes.append("bot log, the first traceback:\n" + "\n".join(f"      {line}" for line in first[-24:]))
    return results, notes


async def load_bare_bot(folder: Path, png: bytes, plan: Plan) -> list[PhaseResult]:
    count = max((plan.games, *plan.sat_games))
    sb = DiscordSandbox(token="bare-token")
    sb.attachment_memory = 96 * 1024 * 1024
    guild, channels, people = build_world(sb, count, 1)
    (folder / "board.png").write_bytes(png)
    await sb.start()
    bot = BotProcess("bench.bare_bot", sb, guild.id, folder / "bare.log", BARE_PNG=str(folder / "board.png"))
    try:
        await wait_for_bot(sb, bot, ("bare",))
        await until_answering(sb, people[0][0], channels[0], "bare")
        drivers = [BareDriver(sb, channels[i % len(channels)], people[i][0], seed=i) for i in range(count)]
        # /bare is cheap: no need to spread the opening out as much as for the real games.
        return await dataclasses.replace(plan, ramp=min(plan.ramp, 5.0)).run(sb, bot, drivers)
    finally:
        bot.stop()
        await sb.stop()


# --- reporting ----------------------------------------------------------------------------------------------


def _ms(values: list[float]) -> str:
    if not values:
        return "—"
    return f"{statistics.median(values) * 1000:.0f} / {percentile(values, 99) * 1000:.0f} ms"


def _verdict(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def report(
    ours: list[PhaseResult],
    bare: list[PhaseResult],
    notes: list[str],
    png_bytes: int,
    database: str,
    bare_again: bool = False,
) -> None:
    print(f"\n## Load: end to end, real bot process on {database} vs bare discord.py bot ({machine()})")
    print(
        "Load generator and loopback server in one process, each bot in its own; "
        f"the bare bot sends a {png_bytes / 1024:.0f} kB board PNG with every answer"
        f"{' (its figures are those of the run above)' if bare_again else ''}. Latencies: median / p99."
    )
    for index, mine in enumerate(ours):
        other = bare[index] if index < len(bare) else None
        print(f"\n### {mine.rec.name} ({mine.seconds:.0f} s)")
        rows = [
            ("", "our bot", "bare bot"),
            ("interactions completed", len(mine.rec.ok()), len(other.rec.ok()) if other else "—"),
            (
                "throughput (interactions/s)",
                f"{mine.throughput:.1f}",
                f"{other.throughput:.1f}" if other else "—",
            ),
            ("moves played (moves/s)", f"{mine.rec.moves} ({mine.rec.moves / mine.seconds:.1f})", "—"),
            ("games started / finished", f"{mine.rec.games_started} / {mine.rec.games_finished}", "—"),
            ("acknowledgement (sent -> callback)", _ms(mine.acks), _ms(other.acks) if other else "—"),
            ("completion, every interaction", _ms(_done(mine)), _ms(_done(other)) if other else "—"),
            (
                "completion, answers with an image",
                _ms(_done(mine, True)),
                _ms(_done(other, True)) if other else "—",
            ),
            ("move -> new board image in thread", _ms(mine.rec.board), "—"),
            ("completion p99 by third of the phase", _thirds(mine), _thirds(other) if other else "—"),
            ("acknowledgement p99 by third", _ack_thirds(mine), _ack_thirds(other) if other else "—"),
            (
                "past the 3 s deadline / never acked",
                f"{mine.late} / {mine.never_acked}",
                f"{other.late} / {other.never_acked}" if other else "—",
            ),
            (
                "failed or refused actions",
                sum(mine.rec.failures.values()),
                sum(other.rec.failures.values()) if other else "—",
            ),
            (
                "bot violations (sandbox)",
                len(mine.bot_violations),
                len(other.bot_violations) if other else "—",
            ),
            ("Discord API calls per interaction", _calls_each(mine), _calls_each(other) if other else "—"),
            ("bot CPU % of a core (event-loop thread)", _cpu(mine), _cpu(other) if other else "—"),
            ("event-loop CPU per interaction", _loop_each(mine), _loop_each(other) if other else "—"),
            ("picture workers' CPU % of a core", _helpers(mine), _helpers(other) if other else "—"),
            ("CPU time per interaction (workers incl.)", _cpu_each(mine), _cpu_each(other) if other else "—"),
            (
                "bot RSS end / peak",
                f"{mine.bot['rss']:.0f} / {mine.bot['peak']:.0f} MB",
                f"{other.bot['rss']:.0f} / {other.bot['peak']:.0f} MB" if other else "—",
            ),
            (
                "RSS peak, bot and its workers",
                f"{mine.bot['family_peak']:.0f} MB",
                f"{other.bot['family_peak']:.0f} MB" if other else "—",
            ),
            ("generator+server CPU, loop lag p99", _gen(mine), _gen(other) if other else "—"),
        ]
        for label, a, b in rows:
            print(f"  {label:38} {a!s:>22} {b!s:>22}")
        by_op: dict[str, list[float]] = {}
        for sample in mine.rec.ok():
            by_op.setdefault(sample.op, []).append(sample.done or 0.0)
        parts = [f"{op} {_ms(times)} (n={len(times)})" for op, times in sorted(by_op.items())]
        print("  completion by action (ours): " + "; ".join(parts))
        if mine.rec.kinds:
            print("  moves by game (ours): " + ", ".join(f"{k} {n}" for k, n in mine.rec.kinds.most_common()))
        for which, result in (("ours", mine), ("bare", other)):
            if result is None:
                continue
            for reason, count in result.rec.failures.most_common(6):
                print(f"  ! {which}: {count} x {reason}")
                if reason in result.rec.examples:
                    print(f"      first seen: {result.rec.examples[reason]}")
            kinds = Counter(f"{v.method} {v.code} {v.message}" for v in result.bot_violations)
            for kind, count in kinds.most_common(4):
                print(f"  ! {which}: {count} x bot violation: {kind}")
        if index == 1:  # the budget is for the steady phase
            print(
                "  budget: "
                f"ack p99 < 150 ms {_verdict(_p99(mine.acks) < BUDGET['ack_p99'])}; "
                f"completion p99 < 1 s {_verdict(bool(_done(mine)) and percentile(_done(mine), 99) < 1.0)}"
                f"; move -> board p99 < 2 s {_verdict(_p99(mine.rec.board) < BUDGET['board_p99'])}; "
                f"event-loop CPU <= 4 ms per interaction {_verdict(_loop_ms(mine) <= BUDGET['loop_ms'])}; "
                f"0 past the deadline {_verdict(mine.late == 0)}; "
                f"RSS < 300 MB {_verdict(mine.bot['peak'] < BUDGET['rss_mb'])} "
                f"(with its picture workers {_verdict(mine.bot['family_peak'] < BUDGET['rss_mb'])})"
            )
    if len(ours) > 2 and len(bare) > 2:
        best = max(ours[2:], key=lambda r: r.throughput)
        other = max(bare[2:], key=lambda r: r.throughput)
        ratio = best.throughput / other.throughput if other.throughput else float("nan")
        print(
            f"\n  throughput at saturation (best level): ours {best.throughput:.1f}/s ({best.games} games), "
            f"bare {other.throughput:.1f}/s ({other.games} games), "
            f"ratio {ratio:.2f} ({_verdict(ratio >= BUDGET['ratio'])} target 0.5)"
        )
    for note in notes:
        print(f"  note: {note}")


def _thirds(result: PhaseResult) -> str:
    """Completion p99 of the interactions started in each third of the phase: past capacity, latency that stays
    level from third to third has flat-topped, one that keeps climbing grows without bound."""
    done = ((sample.start, sample.done or 0.0) for sample in result.rec.ok())
    thirds = _by_third(done, result.end - result.seconds, result.seconds)
    return " / ".join(f"{percentile(t, 99):.1f}" if t else "—" for t in thirds) + " s"


def _ack_thirds(result: PhaseResult) -> str:
    """Acknowledgement p99 of the interactions sent in each third of the phase (a burst at its start, when every
    simulated player acts at once, shows in the first)."""
    return " / ".join(f"{1000 * percentile(t, 99):.0f}" if t else "—" for t in result.acks_by_third) + " ms"


def _p99(values: list[float]) -> float:
    return percentile(values, 99) if values else float("inf")


def _done(result: PhaseResult | None, image: bool | None = None) -> list[float]:
    if result is None:
        return []
    return [s.done for s in result.rec.ok() if image is None or s.image == image]  # type: ignore[misc]


def _cpu(result: PhaseResult) -> str:
    return f"{result.bot['cpu']:.0f}% ({result.bot['main']:.0f}%)"


def _helpers(result: PhaseResult) -> str:
    return f"{result.bot['helpers_cpu']:.0f}%" if "helpers_cpu" in result.bot else "—"


def _loop_ms(result: PhaseResult) -> float:
    """The event-loop thread's CPU per completed interaction, in ms."""
    done = len(result.rec.ok())
    return result.bot["main_s"] / done * 1000 if done else float("nan")


def _loop_each(result: PhaseResult) -> str:
    return f"{_loop_ms(result):.2f} ms" if result.rec.ok() else "—"


def _cpu_each(result: PhaseResult) -> str:
    done = len(result.rec.ok())
    return f"{(result.bot['cpu_s'] + result.bot['helpers_cpu_s']) / done * 1000:.1f} ms" if done else "—"


def _calls_each(result: PhaseResult) -> str:
    done = len(result.rec.ok())
    return f"{result.discord_calls / done:.2f}" if done else "—"


def _gen(result: PhaseResult) -> str:
    return f"{result.generator['cpu']:.0f}%, {percentile(result.loop_lag, 99) * 1000:.0f} ms"


# --- entry points -------------------------------------------------------------------------------------------


async def main(plan: Plan) -> None:
    png = await asyncio.to_thread(board_png)
    with tempfile.TemporaryDirectory(prefix="load-bench-") as name:
        folder = Path(name)
        ours, notes = await load_our_bot(folder, plan)
        bare = await load_bare_bot(folder, png, plan)
        report(ours, bare, notes, len(png), "SQLite (WAL), the default")
        on_postgres = await load_our_bot_on_postgresql(folder, plan)
    if on_postgres:
        ours, notes = on_postgres
        report(ours, bare, notes, len(png), "PostgreSQL (a local server, fsync off)", bare_again=True)


async def load_our_bot_on_postgresql(folder: Path, plan: Plan) -> tuple[list[PhaseResult], list[str]] | None:
    """The same load on the production database, where different games' moves commit at once."""
    from tests import pg

    if not pg.available():
        print("\n(PostgreSQL is not installed here: its load run is skipped)")
        return None
    with pg.server() as admin:
        async with pg.fresh_database(admin) as url:  # the bot creates its tables as it starts
            return await load_our_bot(folder, plan, url)


QUICK = dict(
    games=20, think=0.5, seconds=15.0, sat_games=(8, 20), sat_seconds=8.0, setup_seconds=20.0, ramp=3.0
)
FULL = dict(
    games=200,
    think=0.5,
    seconds=45.0,
    sat_games=(16, 64, 200),
    sat_seconds=12.0,
    setup_seconds=60.0,
    ramp=30.0,
)


def run(quick: bool = False, **overrides: Any) -> None:
    """`make bench` (about 8 minutes; --quick about 3)."""
    settings = dict(QUICK if quick else FULL)
    settings.update({k: v for k, v in overrides.items() if v is not None})
    asyncio.run(main(Plan(**settings)))


async def smoke(folder: Path, games: int = 3, seconds: float = 3.0, think: float = 0.05) -> PhaseResult:
    """A few games for a few seconds against the real bot process (tests/bench/test_load_smoke.py): the phase
    after the games are open."""
    results, _ = await load_our_bot(folder, Plan(games, think, seconds, setup_seconds=15.0))
    return results[1]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int)
    parser.add_argument("--think", type=float)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--sat-games", type=int, nargs="+", help="concurrency levels, e.g. 16 64")
    parser.add_argument("--sat-seconds", type=float)
    args = parser.parse_args()
    run(
        args.quick,
        games=args.games,
        think=args.think,
        seconds=args.seconds,
        sat_games=tuple(args.sat_games) if args.sat_games else None,
        sat_seconds=args.sat_seconds,
    )
