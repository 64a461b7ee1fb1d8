"""Run the real bot (discord.py, our database, our cogs) against the loopback Discord-compatible server."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.app import GameBot, build
from bot.chooser import Chosen, Prompt, narrow, path_to
from bot.picker import offered
from bot.service import Table, choice_token, choices
from bot.settings import Settings
from sandbox.model import Channel, Guild, Message, User
from sandbox.server import DiscordSandbox
from tests.lobbies import another_process

HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-", "publish-recovery")


class TestClock:
    """The bot's clock in tests: time moves only when a test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)


@dataclass
class Harness:
    sb: DiscordSandbox
    guild: Guild
    games: Channel
    users: dict[str, User]
    database_url: str
    bot: GameBot | None = None
    _task: asyncio.Task | None = None
    restarts: int = field(default=0)
    clock: TestClock = field(default_factory=lambda: TestClock())
    # Games are dealt from a fixed sequence of seeds, so a failure here is the same failure on every run.
    seeds: itertools.count = field(default_factory=lambda: itertools.count(20261128))

    def settings(self) -> Settings:
        return Settings(
            discord_token=self.sb.token,
            database_url=self.database_url,
            dev_guild_id=None,  # global commands, so every server in the test sees them
            discord_api_base=self.sb.api_url,
            discord_gateway_url=self.sb.gateway_url,
            tick_seconds=0,  # the tests drive the clock
            _env_file=None,
        )

    async def start_bot(self) -> GameBot:
        bot = await build(self.settings(), clock=self.clock, guild_ready_timeout=0.05)
        await bot.login(self.sb.token)
        self._task = asyncio.create_task(bot.connect(reconnect=True))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        await self.sb.wait_for_commands("play", "rules")
        bot.host.service.new_seed = self.seeds.__next__
        self.bot = bot
        return bot

    async def stop_bot(self) -> None:
        if self.bot is None:
            return
        await self.idle()
        await self.bot.close()
        await self.bot.db_engine.dispose()  # type: ignore[attr-defined]
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.bot = None

    async def restart_bot(self) -> GameBot:
        await self.stop_bot()
        self.restarts += 1
        return await self.start_bot()

    async def idle(self, timeout: float = 20) -> None:
        """Wait until the bot has finished handling every interaction (including what it posts afterwards)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            busy = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(HANDLER_TASKS)]
            if not busy:
                return
            await asyncio.sleep(0.01)
        raise TimeoutError("the bot is still busy")

    # --- game helpers -------------------------------------------------------------------------------------------

    @property
    def service(self):
        assert self.bot is not None
        return self.bot.host.service

    async def table(self, game_id: int) -> Table:
        return await self.service.get(game_id)

    def thread(self, table: Table) -> Channel:
        return self.sb.world.channel(str(table.record.thread_id))

    def board_message(self, table: Table) -> Message:
        return self.sb.world.message(str(table.record.board_message_id))

    @staticmethod
    def token(table: Table, user: User) -> int:
        """The token `/play move`'s suggestions for `user` carry now (0 for someone without a seat)."""
        seat = table.seat_of(int(user.id))
        return 0 if seat is None else table.choice_token(seat)

    async def click(self, user: User, message: Message, custom_id: str) -> Any:
        result = await self.sb.click(user, message, custom_id)
        await self.idle()
        return result

    async def slash(
        self, user: User, channel: Channel, command: str, options: dict[str, Any] | None = None
    ) -> Any:
        result = await self.sb.slash(user, channel, command, options or {})
        await self.idle()
        return result

    async def leave(self, user: User, channel: Channel, game_id: int | None = None) -> Any:
        """/play leave, confirmed where the bot asks first (a running game: the seat goes to the built-in player)."""
        return await self._confirmed(user, channel, "leave", game_id)

    async def abandon(self, user: User, channel: Channel, game_id: int | None = None) -> Any:
        """/play abandon, confirmed where the bot asks first (a running game other people play in)."""
        return await self._confirmed(user, channel, "abandon", game_id)

    async def _confirmed(self, user: User, channel: Channel, what: str, game_id: int | None) -> Any:
        asked = await self.slash(user, channel, f"play {what}", {"game": game_id} if game_id else {})
        confirm = next(
            (c["custom_id"] for c in asked.message.buttons() if c["custom_id"].startswith(f"table:{what}:")),
            None,
        )
        return asked if confirm is None else await self.click(user, asked.message, confirm)

    async def start_game(
        self, game: str, names: tuple[str, ...] = ("alice", "bob"), seed: int | None = None
    ) -> int:
        """A game opened in the games channel by the first of `names`, joined by the others and started."""
        if seed is not None:
            self.service.new_seed = lambda: seed
        lobby, game_id = await self.open_lobby(game, names)
        await self.click(self.users[names[0]], lobby, f"lobby:start:{game_id}")
        return game_id

    async def open_lobby(self, game: str, names: tuple[str, ...] = ("alice", "bob")) -> tuple[Message, int]:
        """A lobby opened in the games channel by the first of `names` and joined by the others."""
        lobby = (await self.slash(self.users[names[0]], self.games, "play new", {"game": game})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        for name in names[1:]:
            await self.click(self.users[name], lobby, f"lobby:join:{game_id}")
        return lobby, game_id

    async def move_in_another_process(self, table: Table, seat: int) -> Table:
        """`seat`'s first choice in `table`, made by another process (a shard sharing the database): this one has
        not read the game since. Returns the game as the other process left it."""
        async with another_process(self.database_url) as other:
            moved = await other.act(
                table.id, table.user_at(seat), choices(table, seat)[0], expected_version=table.version
            )
        return moved.table

    async def tick(self) -> None:
        assert self.bot is not None
        await self.bot.host.tick()
        await self.idle()

    async def play_through_chooser(self, user: User, game_id: int, action: dict[str, Any]) -> Message:
        """Click 'Take my turn' and then the buttons/selects that lead to `action`; return the picker message."""
        table = await self.table(game_id)
        board = self.board_message(table)
        opened = await self.click(user, board, f"table:turn:{game_id}")
        picker = opened.message
        assert picker is not None and picker.audience.kind == "ephemeral"
        seat = table.seat_of(int(user.id))
        actions = offered(table, seat, choices(table, seat))
        if action not in actions:
            # The picker offers this move only chained with the mover's next one: play it alone by command,
            # whose answer then says what was done.
            index = choices(table, seat).index(action)
            value = f"{table.choice_token(seat)}:{index}"
            return (await self.slash(user, self.thread(table), "play move", {"action": value})).message
        full = path_to(actions, action)
        if not full:  # the only thing to do: one button that does it
            assert isinstance(narrow(actions, []), Chosen)
            await self.click(user, picker, f"mv:{table.id}:{picker_token(table, seat)}:")
        for depth in range(1, len(full) + 1):
            assert isinstance(narrow(actions, full[: depth - 1]), Prompt)
            await self.choose(user, picker, table, full[:depth])
        return picker

    async def choose(self, user: User, picker: Message, table: Table, path: list[int]) -> Any:
        """The picker click or menu choice that leads to `path`; returns the interaction's result."""
        text = ".".join(map(str, path))
        token = picker_token(table, table.seat_of(int(user.id)))
        button = f"mv:{table.id}:{token}:{text}"
        if picker.component(button) is not None:
            return await self.click(user, picker, button)
        parent = ".".join(map(str, path[:-1]))
        for select in picker.selects():
            if select["custom_id"].startswith(f"mvs:{table.id}:{token}:{parent}:"):
                if any(o["value"] == str(path[-1]) for o in select["options"]):
                    result = await self.sb.select(user, picker, select["custom_id"], [str(path[-1])])
                    await self.idle()
                    return result
        raise AssertionError(f"no component leads to {text} on {picker.text}")


def picker_token(table: Table, seat: int) -> int:
    """The token a picker drawn for `seat` from `table` carries: the digest of what it offers."""
    actions = choices(table, seat)
    return choice_token(offered(table, seat, actions) if actions else [])


@contextlib.asynccontextmanager
async def harness(tmp_path: Path, database_url: str | None = None, **user_options: dict[str, Any]):
    sb = DiscordSandbox(token="e2e-token")
    guild = sb.add_guild("Board game club")
    games = sb.add_channel(guild, "games")
    people = {
        "alice": dict(locale="en-US", manager=False),
        "bob": dict(locale="ko"),
        "carol": dict(locale="es-ES", dms_open=False),
        "dave": dict(locale="en-US"),
        "erin": dict(locale="en-US", manager=True),
    }
    users = {
        name: sb.add_user(name.capitalize(), **{**opts, **user_options.get(name, {})})
        for name, opts in people.items()
    }
    await sb.start()
    undo = sb.patch_discord()
    h = Harness(sb, guild, games, users, database_url or f"sqlite+aiosqlite:///{tmp_path / 'e2e.db'}")
    try:
        await h.start_bot()
        yield h
    finally:
        await h.stop_bot()
        undo()
        await sb.stop()
