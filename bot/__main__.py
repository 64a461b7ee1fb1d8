"""`python -m bot` (what `make run` does): connect to Discord with DISCORD_TOKEN, or run the local sandbox."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.app import build
from bot.settings import Settings


async def main() -> None:
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not settings.discord_token:
        from bot.sandbox_mode import run_sandbox

        await run_sandbox(settings)
        return
    bot = await build(settings)
    async with bot:
        await bot.start(settings.discord_token)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C (or SIGINT from a supervisor) is a normal stop
        asyncio.run(main())
