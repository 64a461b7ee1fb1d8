"""/rules: look up a game's rules, in the reader's language, answered only to them unless they ask otherwise;
/help: how playing here works, in short."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, rules
from bot.cogs.play import _desc, _game_choices


class RulesCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description=_desc("rules.description"))
    @app_commands.describe(
        game=_desc("option.game"), topic=_desc("option.topic"), public=_desc("option.public")
    )
    @app_commands.choices(game=_game_choices())
    async def rules_command(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        topic: str | None = None,
        public: bool = False,
    ) -> None:
        locale = i18n.norm(str(interaction.locale))
        text = rules.lookup(game.value, topic, locale)
        if text is None:  # a question nothing answers stays with its asker, even one asked in public
            text, public = rules.not_found(game.value, topic or "", locale), False
        await interaction.response.send_message(i18n.clip(text, 2000), ephemeral=not public)

    @app_commands.command(name="help", description=_desc("help.description"))
    async def help_command(self, interaction: discord.Interaction) -> None:
        """The commands in short, for someone new here, with the buttons named as they read."""
        locale = i18n.norm(str(interaction.locale))
        labels = {
            name: i18n.t(key, locale)
            for name, key in (
                ("join", "lobby.join"),
                ("add_bot", "lobby.add_bot"),
                ("start", "lobby.start"),
                ("take_turn", "game.take_turn"),
                ("my_hand", "game.my_hand"),
            )
        }
        await interaction.response.send_message(i18n.t("help.text", locale, **labels), ephemeral=True)

    @rules_command.autocomplete("topic")
    async def _topic_autocomplete(self, interaction: discord.Interaction, current: str):
        locale = i18n.norm(str(interaction.locale))
        game = getattr(interaction.namespace, "game", None)
        if not game:
            return []
        from bot.games import presenter

        found = rules.suggest(game, current, locale)
        found += presenter(game).suggest_cards(current, locale)
        return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in found[:25]]
