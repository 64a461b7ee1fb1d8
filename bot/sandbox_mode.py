"""`make run` without a token: the real bot against the local Discord-compatible server, with its web page."""

from __future__ import annotations

import logging

from bot.app import build
from bot.settings import Settings

log = logging.getLogger("sandbox")

SANDBOX_USERS = (
    ("Alice", "en-US", True),
    ("Bob", "ko", False),
    ("Carol", "es-ES", False),
    ("Dave", "en-US", False),
    ("Erin", "ko", False),
    ("Frank", "en-US", False),
)


async def run_sandbox(settings: Settings) -> None:
    from sandbox.server import DiscordSandbox

    sandbox = DiscordSandbox(token="sandbox-token")
    guild = sandbox.add_guild("Sandbox")
    for name in ("general", "games"):
        sandbox.add_channel(guild, name)
    for name, locale, manager in SANDBOX_USERS:
        sandbox.add_user(name, locale=locale, manager=manager)
    await sandbox.start(settings.sandbox_port)
    settings = settings.model_copy(
        update={
            "discord_token": sandbox.token,
            "discord_api_base": sandbox.api_url,
            "discord_gateway_url": sandbox.gateway_url,
            "dev_guild_id": int(guild.id),
        }
    )
    bot = await build(settings)
    log.info("Sandbox ready: open %s in your browser (Ctrl+C to stop)", sandbox.base_url)
    print(f"\n  Sandbox: open {sandbox.base_url} in your browser. Ctrl+C stops it.\n", flush=True)
    try:
        async with bot:
            await bot.start(sandbox.token)
    finally:
        await sandbox.stop()
