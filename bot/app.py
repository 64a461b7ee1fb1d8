"""The bot process: discord.py client, command tree, persistent components, database, and start-up."""

from __future__ import annotations

import asyncio
import logging

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import drawing, i18n
from bot.db import make_engine, make_sessionmaker, migrate
from bot.host import GameHost
from bot.service import GameService
from bot.settings import Settings
from bot.ui import DYNAMIC_ITEMS, let_go

log = logging.getLogger("bot")


class Translator(app_commands.Translator):
    """Command and option descriptions in Korean and Spanish, from the same catalogues as every other string."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        key = string.extras.get("key")
        short = str(locale.value)[:2]
        if not key or short == "en" or short not in i18n.LOCALES or not i18n.has(key):
            return None
        return i18n.t(key, short)


class CommandTree(app_commands.CommandTree):
    async def _call(self, interaction: discord.Interaction) -> None:
        # discord.py's one place that runs a command or its autocomplete; a failure is let go of once the user is
        # told (on_app_command_error), as that still needs the interaction's response.
        await super()._call(interaction)
        let_go(interaction)


class GameBot(commands.Bot):
    def __init__(self, settings: Settings, service: GameService, **client_options) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads, to open a thread under a lobby
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=CommandTree,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # nothing reads discord.py's message cache: every click carries its message
            **client_options,
        )
        self.settings = settings
        self.host = GameHost(self, service, settings.default_locale, settings.demo_move_seconds)
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        from bot.cogs.play import PlayCog
        from bot.cogs.rules import RulesCog
        from bot.cogs.settings import SettingsCog

        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(PlayCog(self))
        await self.add_cog(RulesCog(self))
        await self.add_cog(SettingsCog(self))
        await self.tree.set_translator(Translator())
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        # Read before the gateway connects, so only changes from before this start are recovered: a change committed
        # after it belongs to its own handler, which may still be posting the message its thread opens from.
        pending = await self.host.service.to_publish(None)
        self.loop.create_task(self._recover(pending), name="publish-recovery")
        if self.settings.tick_seconds > 0:
            self.loop.create_task(
                self._clock_loop(self.host.tick, self.settings.tick_seconds), name="game-clock"
            )

    async def _recover(self, pending: list[int]) -> None:
        """Whatever was committed before a restart but never shown goes up now."""
        await self.wait_until_ready()
        await self.host.publisher.recover(pending)

    async def _clock_loop(self, work, seconds: float) -> None:
        """Reminders, deadlines, housekeeping, demo moves, publishing retries: their times are stored, so a
        restart picks them up."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await work()
            except Exception:  # noqa: BLE001 — one bad game must not stop the clock for the others
                log.exception("clock tick failed")
            await asyncio.sleep(seconds)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction, as it arrives (its handler runs alongside): note the user's language for DMs."""
        await self.host.remember_locale(interaction)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ):
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        from bot.host import Refusal
        from bot.service import ServiceError
        from engines.base import IllegalAction

        if not isinstance(cause, IllegalAction | ServiceError | Refusal):
            log.error("command failed", exc_info=cause)
        locale = i18n.norm(str(interaction.locale))
        try:
            await self.host.refuse(interaction, self.host.explain(cause, locale))
        except discord.HTTPException:
            log.warning("could not report %r to the user", cause)
        finally:
            let_go(interaction)


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The same bot over several gateway shards (one process may run a range of them)."""


def point_discord_at(api_base: str, gateway_url: str) -> None:
    """Send discord.py to a Discord-compatible server instead of Discord (the tests and the local sandbox)."""
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def build(settings: Settings, clock=None, **client_options) -> GameBot:
    """Migrate the database and make a bot that is ready to `start`."""
    await migrate(settings.database_url)
    engine = make_engine(settings.database_url)
    service = GameService(
        make_sessionmaker(engine), think=drawing.think, **({"clock": clock} if clock else {})
    )
    if settings.discord_api_base:
        point_discord_at(settings.discord_api_base, settings.discord_gateway_url)
    if settings.shard_count:
        client_options.update(shard_count=settings.shard_count, shard_ids=settings.shard_list())
        bot: GameBot = ShardedGameBot(settings, service, **client_options)
    else:
        bot = GameBot(settings, service, **client_options)
    bot.db_engine = engine  # type: ignore[attr-defined]  # disposed on close
    return bot
