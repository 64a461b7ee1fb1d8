"""Event-loop CPU of the bot's own work per interaction, and the SQL statements it sends: the real handlers,
service and publisher on SQLite, with Discord replaced by objects that accept every send and edit for free.

Games of every kind are played by two people each (and a built-in player in some), the way the load bench plays
them: "Take my turn", then one random choice per picker step until the move is played (which publishes the board
and the private messages and lets the built-in player move), or now and then `/play move` after its
autocomplete. Every interaction is handled one at a time and the main thread's CPU time (the event loop's) is
measured around its handler, and the whole process's (on SQLite a write runs in a thread of its own); pictures
are not drawn (they are drawn by worker processes, counted apart by `render_bench` and the load bench). What
discord.py itself spends (gateway, HTTP) is not in these figures.

    python -m bench.hotpath_bench [--interactions N]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import sqlalchemy

from bench.common import machine, percentile
from bot import drawing
from bot.db import engines, make_engine, make_sessionmaker, migrate
from bot.games import presenters
from bot.host import GameHost
from bot.service import ACTIVE, GameService

KINDS = ("druids", "roll_player", "roll_for_the_galaxy", "talisman")
WITH_BOT_SEAT = ("druids", "roll_for_the_galaxy")
MAX_STEPS = 12
_ids = itertools.count(10_000)


class _Message:
    def __init__(self, message_id: int | None = None) -> None:
        self.id = message_id or next(_ids)
        self.flags = SimpleNamespace(ephemeral=True)

    async def edit(self, **_: Any) -> _Message:
        return self

    async def delete(self) -> None:
        return None


class _Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id

    async def send(self, *_: Any, **__: Any) -> _Message:
        return _Message()

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(message_id)

    async def history(self, **_: Any):  # nothing was posted unseen
        return
        yield


class _Client:
    """Just enough of discord.Client for the publisher and the private messages."""

    user = SimpleNamespace(id=1)

    def is_closed(self) -> bool:
        return False

    def get_partial_messageable(self, channel_id: int, **_: Any) -> _Channel:
        return _Channel(channel_id)

    def get_channel(self, _: int) -> None:
        return None  # no thread can be opened: the game is played in its channel

    async def create_dm(self, user: Any) -> _Channel:
        return _Channel(user.id + 1)


class _Interaction:
    """A click or command from one person; keeps the last picker it was answered with."""

    def __init__(self, user_id: int, channel_id: int, kind: discord.InteractionType) -> None:
        self.user = SimpleNamespace(id=user_id, display_name=f"P{user_id}", mention=f"<@{user_id}>")
        self.locale = discord.Locale.american_english
        self.type = kind
        self.channel_id = channel_id
        self.guild_id = 1
        self.message = _Message()
        self.view: discord.ui.View | None = None
        done = [False]

        async def defer(**_: Any) -> None:
            done[0] = True

        async def send_message(*_: Any, view: Any = None, **__: Any) -> None:
            done[0] = True
            self.view = view

        async def edit_message(*, view: Any = None, **_: Any) -> None:
            done[0] = True
            self.view = view

        async def followup_send(*_: Any, view: Any = None, **__: Any) -> None:
            self.view = view

        self.response = SimpleNamespace(
            is_done=lambda: done[0], defer=defer, send_message=send_message, edit_message=edit_message
        )
        self.followup = SimpleNamespace(send=followup_send)

    async def edit_original_response(self, *, view: Any = None, **_: Any) -> None:
        self.view = view


def _deepest_choices(view: discord.ui.View | None, game_id: int) -> list[tuple[int, str]]:
    """The picker's next choices as (token, path), leaving out "Back" (the shallower path)."""
    found: list[tuple[int, str]] = []
    for child in view.children if view else []:
        custom_id = child.custom_id or ""
        parts = custom_id.split(":")
        if parts[0] == "mv" and parts[1] == str(game_id):
            found.append((int(parts[2]), parts[3]))
        elif parts[0] == "mvs" and parts[1] == str(game_id):
            for option in child.item.options:
                found.append((int(parts[2]), f"{parts[3]}.{option.value}" if parts[3] else option.value))
    depth = max((len(path.split(".")) if path else 0 for _, path in found), default=0)
    return [(token, path) for token, path in found if (len(path.split(".")) if path else 0) == depth]


class Bench:
    def __init__(self, host: GameHost, seed: int) -> None:
        self.host = host
        self.rng = random.Random(seed)
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.process_cpu: list[float] = []  # the database's threads too: writes run in one of their own
        self.statements: dict[str, list[int]] = defaultdict(list)
        self.executed = 0  # SQL statements sent to the database so far
        self.moves = 0

    async def timed(self, op: str, interaction: _Interaction, work: Any) -> None:
        """One interaction: its handler and the language note every interaction triggers, on the main thread."""
        start, process_start, executed = time.thread_time(), time.process_time(), self.executed
        if interaction.type != discord.InteractionType.autocomplete:
            await self.host.remember_locale(interaction)
        try:
            await work
        except Exception as error:  # noqa: BLE001 — a refusal is answered like the real handlers do
            self.host.explain(error, "en")
        self.cpu[op].append(time.thread_time() - start)
        self.process_cpu.append(time.process_time() - process_start)
        self.statements[op].append(self.executed - executed)

    async def new_game(self, kind: str, channel_id: int, people: list[int]) -> int:
        service = self.host.service
        lobby = await service.create_lobby(
            engine_name=kind,
            guild_id=1,
            channel_id=channel_id,
            host_id=people[0],
            host_name=f"P{people[0]}",
            locale="en",
            raw_options={},
        )
        for user in people[1:]:
            await service.join(lobby.id, user, f"P{user}")
        if kind in WITH_BOT_SEAT:
            await service.add_bot(lobby.id, people[0], "Bot")
        table = await service.start(lobby.id, people[0])
        await self.host.after_commit(table.id)
        return table.id

    async def turn(self, game_id: int, channel_id: int) -> bool:
        """One person's move; False once the game is over."""
        table = await self.host.service.get(game_id)
        waiting = table.users_to_act()
        if table.status != ACTIVE or not waiting:
            return False
        user = self.rng.choice(waiting)
        if self.rng.random() < 0.2:
            await self.move_by_command(game_id, channel_id, user)
        else:
            await self.move_with_picker(game_id, channel_id, user)
        return True

    async def move_with_picker(self, game_id: int, channel_id: int, user: int) -> None:
        click = discord.InteractionType.component
        opened = _Interaction(user, channel_id, click)
        await self.timed("open picker", opened, self.host.table_action(opened, "turn", game_id))
        view = opened.view
        version = (await self.host.service.get(game_id)).version
        for _ in range(MAX_STEPS):
            options = _deepest_choices(view, game_id)
            if not options:
                return
            token, path = self.rng.choice(options)
            step = _Interaction(user, channel_id, click)
            await self.timed("picker step", step, self.host.picker.choose(step, game_id, token, path))
            if (await self.host.service.get(game_id)).version != version:
                self.cpu["move (picker)"].append(self.cpu["picker step"].pop())
                self.statements["move (picker)"].append(self.statements["picker step"].pop())
                self.moves += 1
                return
            view = step.view

    async def move_by_command(self, game_id: int, channel_id: int, user: int) -> None:
        typing = _Interaction(user, channel_id, discord.InteractionType.autocomplete)
        offered: list[tuple[str, str]] = []

        async def autocomplete() -> None:
            table = await self.host.game_here(typing, None, statuses=(ACTIVE,), recent=True)
            offered.extend(self.host.action_choices(table, user, "", "en"))

        await self.timed("autocomplete", typing, autocomplete())
        if not offered:
            return
        command = _Interaction(user, channel_id, discord.InteractionType.application_command)

        async def move() -> None:
            await command.response.defer(ephemeral=True, thinking=True)
            table = await self.host.game_here(command, None, statuses=(ACTIVE,))
            await self.host.move_by_text(command, table, self.rng.choice(offered)[1])

        before = (await self.host.service.get(game_id)).version
        await self.timed("/play move", command, move())
        self.moves += (await self.host.service.get(game_id)).version != before


async def _no_drawing(*_: Any) -> bytes:
    return b"png"


async def measure(interactions: int, seed: int = 1) -> Bench:
    drawing.draw = _no_drawing  # pictures are the workers' part, not the event loop's
    presenters()  # every game's code and strings loaded before anything is measured
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'hotpath.db'}"
        await migrate(url)
        engine = make_engine(url)
        service = GameService(make_sessionmaker(engine), new_seed=lambda: seed)
        host = GameHost(_Client(), service)  # type: ignore[arg-type]
        bench = Bench(host, seed)

        def count(*_: Any) -> None:
            bench.executed += 1

        for each in engines(service.sessions):
            sqlalchemy.event.listen(each, "before_cursor_execute", count)
        tables = []
        for number, kind in enumerate(KINDS):
            people = [1_000 + 10 * number, 1_001 + 10 * number]
            channel = 100 + number
            tables.append([kind, channel, people, await bench.new_game(kind, channel, people)])
        while sum(len(times) for times in bench.cpu.values()) < interactions:
            for entry in tables:
                kind, channel, people, game_id = entry
                if not await bench.turn(game_id, channel):
                    entry[3] = await bench.new_game(kind, channel, people)
        await engine.dispose()
    return bench


def run(interactions: int = 600) -> None:
    bench = asyncio.run(measure(interactions))
    every = [t for times in bench.cpu.values() for t in times]
    print(f"\n## The bot's own event-loop CPU per interaction, no Discord I/O ({machine()})")
    print(
        f"{len(every)} interactions ({bench.moves} moves) over 4 games on SQLite: "
        f"mean {statistics.mean(every) * 1000:.2f} ms, p50 {statistics.median(every) * 1000:.2f} ms, "
        f"p99 {percentile(every, 99) * 1000:.2f} ms (goal: 4 ms per interaction, discord.py included); "
        f"SQL statements per interaction {sum(map(sum, bench.statements.values())) / len(every):.2f}; "
        f"the whole process's CPU (the database's threads too) "
        f"mean {statistics.mean(bench.process_cpu) * 1000:.2f} ms"
    )
    for op, times in sorted(bench.cpu.items()):
        print(
            f"  {op:16} n={len(times):4}  mean {statistics.mean(times) * 1000:6.2f} ms  "
            f"p50 {statistics.median(times) * 1000:6.2f} ms  p99 {percentile(times, 99) * 1000:6.2f} ms  "
            f"SQL statements {statistics.mean(bench.statements[op]):5.2f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interactions", type=int, default=600)
    run(parser.parse_args().interactions)
