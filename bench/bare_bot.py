"""The comparison bot of the load benchmark: bare discord.py, no database, no game, no rendering.

It answers `/bare` with a pre-rendered PNG and one button, and every click of that button by editing the
message with the same PNG and a new button. The PNG is read from BARE_PNG (the load benchmark writes one of
our board images there), or generated once at start-up. Run as `python -m bench.bare_bot` with the same
environment as the real bot: DISCORD_TOKEN, DISCORD_API_BASE, DISCORD_GATEWAY_URL and DEV_GUILD_ID.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re

import discord
import yarl
from discord import app_commands


def fallback_png(width: int = 1200, height: int = 800) -> bytes:
    """A noisy picture (so it does not compress to nothing) when no board image is given."""
    from PIL import Image

    image = Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def load_png() -> bytes:
    path = os.environ.get("BARE_PNG", "")
    if path:
        with open(path, "rb") as file:
            return file.read()
    return fallback_png()


PNG = b""


def _view(count: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(BareButton(count))
    return view


class BareButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bare:(?P<count>\d+)"):
    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(label="Again", style=discord.ButtonStyle.primary, custom_id=f"bare:{count}")
        )
        self.count = count

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"click {self.count + 1}",
            attachments=[discord.File(io.BytesIO(PNG), filename="board.png")],
            view=_view(self.count + 1),
        )


class BareBot(discord.Client):
    def __init__(self, guild_id: int | None) -> None:
        super().__init__(intents=discord.Intents.none(), guild_ready_timeout=0.2)
        self.tree = app_commands.CommandTree(self)
        self.guild_id = guild_id
        guild = discord.Object(guild_id) if guild_id else None

        @self.tree.command(name="bare", description="A picture and a button", guild=guild)
        async def bare(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "click 0", file=discord.File(io.BytesIO(PNG), filename="board.png"), view=_view(0)
            )

    async def setup_hook(self) -> None:
        self.add_dynamic_items(BareButton)
        await self.tree.sync(guild=discord.Object(self.guild_id) if self.guild_id else None)


async def main() -> None:
    global PNG
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"))
    PNG = load_png()
    api, gateway = os.environ.get("DISCORD_API_BASE", ""), os.environ.get("DISCORD_GATEWAY_URL", "")
    if api:
        discord.http.Route.BASE = api.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    guild = os.environ.get("DEV_GUILD_ID", "")
    bot = BareBot(int(guild) if guild else None)
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
