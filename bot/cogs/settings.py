"""/settings: what server managers decide for their server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.cogs.play import _desc, deadline_hours
from bot.service import BOT_LEVELS
from bot.ui import answer_soon

LANGUAGE_NAMES = {"en": "English", "ko": "한국어", "es": "Español"}  # each in its own words


class SettingsCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description=_desc("settings.description"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @app_commands.describe(
        locale=_desc("option.locale"),
        threads=_desc("option.threads"),
        remind_after=_desc("option.remind_after"),
        remind_every=_desc("option.remind_every"),
        remind_max=_desc("option.remind_max"),
        deadline=_desc("option.deadline"),
        host_role=_desc("option.host_role"),
        channel=_desc("option.channel"),
        archive_days=_desc("option.archive_days"),
        lobby_hours=_desc("option.lobby_hours"),
        reaction_minutes=_desc("option.reaction_minutes"),
        deadline_level=_desc("option.deadline_level"),
    )
    @app_commands.choices(
        locale=[app_commands.Choice(name=n, value=v) for v, n in LANGUAGE_NAMES.items()],
        deadline_level=[
            app_commands.Choice(name=_desc(f"bot_level.{level}"), value=level) for level in BOT_LEVELS
        ],
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        locale: app_commands.Choice[str] | None = None,
        threads: bool | None = None,
        remind_after: app_commands.Range[float, 0.25, 720.0] | None = None,
        remind_every: app_commands.Range[float, 0.25, 720.0] | None = None,
        remind_max: app_commands.Range[int, 0, 20] | None = None,
        deadline: app_commands.Range[float, 0.0, 2160.0] | None = None,
        host_role: discord.Role | None = None,
        channel: discord.TextChannel | None = None,
        archive_days: app_commands.Range[float, 1.0, 365.0] | None = None,
        lobby_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
        reaction_minutes: app_commands.Range[float, 0.5, 1440.0] | None = None,
        deadline_level: app_commands.Choice[str] | None = None,
    ) -> None:
        reader = i18n.norm(str(interaction.locale))
        permissions = interaction.permissions
        if not permissions.manage_guild:
            await interaction.response.send_message(i18n.t("error.not_manager", reader), ephemeral=True)
            return
        changes: dict = {}
        if locale is not None:
            changes["locale"] = locale.value
        if threads is not None:
            changes["use_threads"] = threads
        for name, value in (
            ("remind_after_hours", remind_after),
            ("remind_every_hours", remind_every),
            ("remind_max", remind_max),
            ("idle_archive_days", archive_days),
            ("lobby_expiry_hours", lobby_hours),
            ("reaction_window_minutes", reaction_minutes),
        ):
            if value is not None:
                changes[name] = value
        if deadline is not None:
            changes["deadline_hours"] = deadline_hours(deadline, i18n.norm(str(interaction.locale)))
        if deadline_level is not None:
            changes["deadline_level"] = deadline_level.value
        if host_role is not None:
            changes["host_role_id"] = None if host_role.is_default() else host_role.id
        await answer_soon(interaction, self._settings(interaction, changes, channel))

    async def _settings(
        self, interaction: discord.Interaction, changes: dict, channel: discord.TextChannel | None
    ) -> dict:
        reader = i18n.norm(str(interaction.locale))
        host = self.bot.host
        guild_id = interaction.guild_id
        current = await host.settings_for(guild_id)
        if channel is not None:  # named again, a game channel is no longer one
            channels = [int(c) for c in current.game_channel_ids]
            channels = (
                [c for c in channels if c != channel.id]
                if channel.id in channels
                else [*channels, channel.id]
            )
            changes["game_channel_ids"] = channels
        if changes:
            current = await host.update_settings(guild_id, **changes)
        any_text = i18n.t("settings.any", reader)
        text = i18n.t(
            "settings.show",
            reader,
            language=LANGUAGE_NAMES.get(current.locale or "") or i18n.t("settings.server_language", reader),
            threads="✅" if current.use_threads else "❌",
            after=current.remind_after_hours,
            every=current.remind_every_hours,
            max=current.remind_max,
            deadline=i18n.t("game.hours", reader, hours=current.deadline_hours)
            if current.deadline_hours
            else i18n.t("game.no_deadline", reader),
            role=f"<@&{current.host_role_id}>" if current.host_role_id else any_text,
            channels=", ".join(f"<#{c}>" for c in current.game_channel_ids) or any_text,
            archive=current.idle_archive_days,
            expiry=current.lobby_expiry_hours,
        )
        more = i18n.t(
            "settings.more",
            reader,
            minutes=f"{current.reaction_window_minutes:g}",
            level=i18n.t(f"bot_level.{current.deadline_level}", reader),
        )
        header = i18n.t("settings.saved", reader) if changes else i18n.t("settings.title", reader)
        if "locale" in changes:  # a game's public posts keep the language it started in
            header += " " + i18n.t("settings.locale_from_now", reader)
        return {"content": f"**{header}**\n{text}\n{more}"}
