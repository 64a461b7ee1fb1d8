"""/play: lobbies, moves, private hands and boards."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import i18n
from bot.games import presenters
from bot.service import ACTIVE, LOBBY, ServiceError


def _desc(key: str) -> _:
    return _(i18n.t(key, "en"), key=key)


def _game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_(p.engine.titles["en"], key=f"title.{name}"), value=name)
        for name, p in sorted(presenters().items())
    ]


class PlayCog(commands.Cog):
    play = app_commands.Group(name="play", description=_desc("play.description"))

    def __init__(self, bot) -> None:
        self.bot = bot

    @property
    def host(self):
        return self.bot.host

    async def _game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        locale = i18n.norm(str(interaction.locale))
        tables = await self.host.service.games_in_channel(interaction.channel_id or 0)
        if not tables:
            tables = await self.host.service.games_of_user(interaction.user.id)
        choices = []
        for table in tables[:25]:
            status = i18n.t("play.mine.lobby", locale) if table.status == LOBBY else ""
            label = f"{table.engine.title(locale)} #{table.id}" + (f" ({status})" if status else "")
            if current.strip() in label:
                choices.append(app_commands.Choice(name=label[:100], value=table.id))
        return choices

    @play.command(name="new", description=_desc("play.new.description"))
    @app_commands.describe(game=_desc("option.game"), options=_desc("option.options"))
    @app_commands.choices(game=_game_choices())
    async def new(self, interaction: discord.Interaction, game: app_commands.Choice[str], options: str | None = None):
        await self.host.new_lobby(interaction, game.value, options)

    @play.command(name="join", description=_desc("play.join.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def join(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(LOBBY,))
        table = await self.host.service.join(table.id, interaction.user.id, interaction.user.display_name)
        await self._refresh_lobby(table)
        locale = i18n.norm(str(interaction.locale))
        await interaction.response.send_message(
            i18n.t("lobby.joined", locale, game=table.engine.title(locale), id=table.id), ephemeral=True
        )

    @play.command(name="leave", description=_desc("play.leave.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def leave(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(LOBBY,))
        table = await self.host.service.leave(table.id, interaction.user.id)
        await self._refresh_lobby(table)
        locale = i18n.norm(str(interaction.locale))
        await interaction.response.send_message(
            i18n.t("lobby.left", locale, game=table.engine.title(locale), id=table.id), ephemeral=True
        )

    async def _refresh_lobby(self, table) -> None:
        from bot.ui import lobby_view

        if table.record.lobby_message_id:
            message = self.bot.get_partial_messageable(table.record.channel_id).get_partial_message(
                table.record.lobby_message_id
            )
            await message.edit(content=self.host.lobby_text(table), view=lobby_view(table, table.record.locale))

    @play.command(name="start", description=_desc("play.start.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def start(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(LOBBY,))
        await self.host.start(interaction, table.id)

    @play.command(name="abandon", description=_desc("play.abandon.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def abandon(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game)
        await self.host.abandon(interaction, table.id)

    @play.command(name="move", description=_desc("play.move.description"))
    @app_commands.describe(action=_desc("option.action"), game=_desc("option.game_id"))
    async def move(self, interaction: discord.Interaction, action: str, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.move_by_text(interaction, table, action)

    @move.autocomplete("action")
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        try:
            table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        except ServiceError:
            return []
        locale = i18n.norm(str(interaction.locale))
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in self.host.action_choices(table, interaction.user.id, current, locale)
        ]

    @play.command(name="hand", description=_desc("play.hand.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def hand(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.show_hand(interaction, table)

    @play.command(name="board", description=_desc("play.board.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def board(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.show_board(interaction, table)

    @play.command(name="mine", description=_desc("play.mine.description"))
    async def mine(self, interaction: discord.Interaction):
        locale = i18n.norm(str(interaction.locale))
        tables = await self.host.service.games_of_user(interaction.user.id)
        if interaction.guild_id is not None:
            tables = [t for t in tables if t.record.guild_id == interaction.guild_id]
        lines = []
        for table in tables:
            seat = table.seat_of(interaction.user.id)
            if table.status == LOBBY:
                state = i18n.t("play.mine.lobby", locale)
            elif seat in table.to_act():
                state = "**" + i18n.t("play.mine.your_turn", locale) + "**"
            else:
                state = i18n.t("play.mine.waiting", locale)
            where = f"<#{table.record.thread_id or table.record.channel_id}>"
            lines.append(i18n.t("play.mine.line", locale, game=table.engine.title(locale), id=table.id,
                                where=where, state=state))
        text = "\n".join(lines) if lines else i18n.t("play.mine.none", locale)
        await interaction.response.send_message(text[:2000], ephemeral=True)

    join.autocomplete("game")(_game_autocomplete)
    leave.autocomplete("game")(_game_autocomplete)
    start.autocomplete("game")(_game_autocomplete)
    abandon.autocomplete("game")(_game_autocomplete)
    move.autocomplete("game")(_game_autocomplete)
    hand.autocomplete("game")(_game_autocomplete)
    board.autocomplete("game")(_game_autocomplete)
