"""The real bot process (`python -m bot`) against a loopback sandbox, on one SQLite file, started and killed at
will: shared by the crash-recovery tests and `bench/crash_bench.py`."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from sandbox.server import DiscordSandbox

ROOT = Path(__file__).resolve().parents[2]
WAIT = 40  # seconds for a fresh bot process to connect and catch up (a busy 2-core machine)


class BotProcess:
    """`python -m bot` against the sandbox, on one SQLite file, started and killed at will."""

    def __init__(self, sb: DiscordSandbox, folder: Path) -> None:
        self.sb = sb
        self.folder = folder
        self.database = folder / "crash.db"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    async def start(self) -> None:
        env = {
            **os.environ,
            "DISCORD_TOKEN": self.sb.token,
            "DATABASE_URL": f"sqlite+aiosqlite:///{self.database}",
            "DISCORD_API_BASE": self.sb.api_url,
            "DISCORD_GATEWAY_URL": self.sb.gateway_url,
            "TICK_SECONDS": "0.3",
            "LOG_LEVEL": "WARNING",
        }
        self.starts += 1
        log = open(self.folder / f"bot{self.starts}.log", "w")  # noqa: SIM115 — closed with the process
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        known = set(self.sb.gateway.sessions)
        await self.sb.wait_until(lambda: bool(set(self.sb.gateway.sessions) - known), timeout=WAIT)
        await self.sb.wait_for_commands("play", "rules", timeout=WAIT)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def query(self, sql: str, *args) -> list[tuple]:
        with sqlite3.connect(self.database) as connection:
            return connection.execute(sql, args).fetchall()
