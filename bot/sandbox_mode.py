"""`make run` without a token: the real bot against the local Discord-compatible server, with its web page.

The sandbox keeps its world (server, channels, threads, users, messages, DMs) in a folder beside the database
(`boardgames.db` -> `boardgames.sandbox-world/`), and the bot keeps its games in the database as always, so
stopping and restarting `make run` resumes every game; an open page reconnects by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from pathlib import Path

from bot.app import GameBot, build
from bot.settings import Settings
from sandbox.persist import WorldFileError

log = logging.getLogger("sandbox")

SANDBOX_USERS = (
    ("Alice", "en-US", True),
    ("Bob", "ko", False),
    ("Carol", "es-ES", False),
    ("Dave", "en-US", False),
    ("Erin", "ko", False),
    ("Frank", "en-US", False),
)
SANDBOX_CHANNELS = ("general", "games")


def world_folder(database_url: str) -> Path:
    """Where the sandbox world is kept: beside a SQLite file (named after it), else ./sandbox-world/."""
    from sqlalchemy.engine import make_url

    try:
        url = make_url(database_url)
    except Exception:  # noqa: BLE001 — an odd URL is the database's problem, not the sandbox's
        return Path("sandbox-world")
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        db = Path(url.database)
        return db.with_name(f"{db.stem}.sandbox-world")
    return Path("sandbox-world")


class LocalSandbox:
    """The sandbox server (world kept in `folder`) and the real bot connected to it, in this event loop."""

    def __init__(
        self, settings: Settings, *, port: int | None = None, folder: Path | None = None, **client_options
    ) -> None:
        from sandbox.server import DiscordSandbox

        self.settings = settings
        self.port = settings.sandbox_port if port is None else port
        self.folder = folder if folder is not None else world_folder(settings.database_url)
        self.client_options = client_options
        self.sandbox = DiscordSandbox(token="sandbox-token")
        self.restored = False
        self.bot: GameBot | None = None
        self.bot_task: asyncio.Task[None] | None = None
        self._undo = None

    def _build_world(self) -> None:
        sb = self.sandbox
        self.restored = sb.persist_to(self.folder)
        guild = next(iter(sb.world.guilds.values()), None)
        if guild is None:
            guild = sb.add_guild("Sandbox")
            for name in SANDBOX_CHANNELS:
                sb.add_channel(guild, name)
        known = {u.name for u in sb.world.users.values()}
        for name, locale, manager in SANDBOX_USERS:
            if name not in known:
                sb.add_user(name, locale=locale, manager=manager)

    @property
    def guild_id(self) -> int:
        return int(next(iter(self.sandbox.world.guilds)))

    async def start(self, ready_timeout: float = 30.0) -> GameBot:
        """Serve the page and the API on 127.0.0.1, connect the bot, wait until its commands are synced."""
        self._build_world()
        sb = self.sandbox
        await sb.start(self.port)
        self._undo = sb.patch_discord()
        settings = self.settings.model_copy(
            update={
                "discord_token": sb.token,
                "discord_api_base": sb.api_url,
                "discord_gateway_url": sb.gateway_url,
                "dev_guild_id": self.guild_id,
            }
        )
        bot = await build(settings, **self.client_options)
        self.bot = bot
        self.bot_task = asyncio.create_task(bot.start(sb.token), name="sandbox-bot")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, self.bot_task}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self.bot_task in done:
                self.bot_task.result()  # the bot failed to start: raise its error
            raise TimeoutError(f"the bot did not connect to the sandbox within {ready_timeout}s")
        await sb.wait_for_commands("play", "rules", timeout=ready_timeout)
        return bot

    async def stop(self) -> None:
        """Close the bot, then the server (which saves the world one last time)."""
        if self.bot is not None:
            await self.bot.close()
            await self.bot.db_engine.dispose()  # type: ignore[attr-defined]
            self.bot = None
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.bot_task
            self.bot_task = None
        await self.sandbox.stop()
        if self._undo is not None:
            self._undo()
            self._undo = None


async def run_sandbox(settings: Settings) -> None:
    local = LocalSandbox(settings)
    # SIGTERM (a supervisor, `kill`) stops as cleanly as Ctrl+C: the world is saved on the way out.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    try:
        try:
            await local.start()
        except WorldFileError as err:
            raise SystemExit(
                f"{err}\nMove {local.folder} away (or delete it) to start with a fresh sandbox."
            ) from None
        except OSError as err:
            if local.sandbox.port:
                raise
            raise SystemExit(
                f"Cannot serve the sandbox on 127.0.0.1:{local.port} ({err.strerror or err}). "
                "Is `make run` already running? Set SANDBOX_PORT to use another port."
            ) from None
        url = local.sandbox.base_url
        kept = f"{'resumed from' if local.restored else 'kept in'} {local.folder}"
        log.info("Sandbox ready: open %s in your browser (world %s; Ctrl+C to stop)", url, kept)
        print(f"\n  Sandbox: open {url} in your browser. Ctrl+C stops it.\n  World {kept}.\n", flush=True)
        assert local.bot_task is not None
        stopped = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({local.bot_task, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        if local.bot_task.done():
            local.bot_task.result()  # the bot stopped by itself: say why
        else:
            log.info("SIGTERM: stopping the sandbox")
    finally:
        await local.stop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.remove_signal_handler(signal.SIGTERM)
