"""Lobbies: opening a game, joining, adding built-in players, starting, and demos that play themselves.

A lobby's own message is edited by the click that changed it; once a game starts, the publisher opens its thread
and shows the board, so a crash between the start and the thread loses nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.games import presenter
from bot.service import ACTIVE, ServiceError, Table
from bot.ui import answer_soon, confirm_view, lobby_view, reply, update_soon

if TYPE_CHECKING:
    from bot.host import GameHost


class Refusal(Exception):
    """A request we turn down with a message to the user (already in words)."""


class Lobby:
    def __init__(self, host: GameHost) -> None:
        self.host = host
        self.service = host.service

    async def new_lobby(
        self, interaction: discord.Interaction, engine_name: str, options_text: str | None
    ) -> None:
        locale = i18n.norm(str(interaction.locale))
        settings = await self.service.settings_for(interaction.guild_id)
        if interaction.guild is not None:
            check_hosting_allowed(interaction, settings, locale)
        await self._not_in_a_game_thread(interaction, locale)
        public_locale = await self.public_locale(interaction.guild_id, interaction.guild_locale, locale)
        table = await answer_soon(
            interaction,
            self.service.create_lobby(
                engine_name=engine_name,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                locale=public_locale,
                raw_options=parse_options(options_text, locale),
            ),
            public=True,
            shown=lambda table: {
                "content": lobby_text(table),
                "view": lobby_view(table, public_locale),
                "allowed_mentions": discord.AllowedMentions.none(),
            },
        )
        message = await interaction.original_response()
        await self.service.set_messages(table.id, lobby_message_id=message.id)

    async def start_demo(
        self,
        interaction: discord.Interaction,
        engine_name: str,
        players: int | None,
        options: str | None,
        level: str = "easy",
    ) -> None:
        """A game the built-in player plays in every seat, in its own thread (opened from this answer), one move
        every few seconds; anyone can follow it, and the host or a server manager stops it with /play abandon."""
        locale = i18n.norm(str(interaction.locale))
        settings = await self.service.settings_for(interaction.guild_id)
        if interaction.guild is not None:
            check_hosting_allowed(interaction, settings, locale)
        await self._not_in_a_game_thread(interaction, locale)
        public_locale = await self.public_locale(interaction.guild_id, interaction.guild_locale, locale)
        count = players or presenter(engine_name).engine.min_players
        names = [i18n.t(f"bot.name_{level}", public_locale, number=n + 1) for n in range(count)]
        seconds = self.host.demo_move_seconds
        raw_options = parse_options(options, locale)

        def announcement(table: Table) -> dict[str, Any]:
            text = i18n.t(
                "demo.started",
                public_locale,
                game=table.title(public_locale),
                id=table.id,
                names=", ".join(names),
                count=len(names),
                seconds=f"{seconds:g}",
            )
            return {"content": text, "allowed_mentions": discord.AllowedMentions.none()}

        created = self.service.create_demo(
            engine_name=engine_name,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            locale=public_locale,
            bot_names=names,
            raw_options=raw_options,
            pace=timedelta(seconds=seconds),
            level=level,
        )
        table = await answer_soon(interaction, created, public=True, shown=announcement)
        try:
            message = await interaction.original_response()
            await self.service.set_messages(table.id, lobby_message_id=message.id)
        finally:  # what is committed is shown even if this answer fails (and the clock retries what is not)
            await self.host.publisher.publish(table.id)

    async def _not_in_a_game_thread(self, interaction: discord.Interaction, locale: str) -> None:
        """A game's own thread keeps to that game: a second one there made every command in it ask which."""
        here = interaction.channel_id or 0
        for table in await self.service.games_in_channel(here):
            if table.record.thread_id == here != table.record.channel_id:
                title = table.title(locale)
                channel = f"<#{table.record.channel_id}>"
                raise Refusal(
                    i18n.t("error.new_in_game_thread", locale, game=title, id=table.id, channel=channel)
                )

    async def public_locale(self, guild_id: int | None, guild_locale: Any, fallback: str) -> str:
        """Public posts use the server's chosen language, else the server's Discord language."""
        settings = await self.service.settings_for(guild_id)
        if settings.locale:
            return settings.locale
        return i18n.norm(str(guild_locale)) if guild_locale else fallback

    async def lobby_action(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        if action == "start":
            await self.start(interaction, game_id)
        elif action == "abandon":
            # the publisher closes the lobby message and tells whoever had joined, even after a crash here
            await interaction.response.defer()
            table = await self.service.abandon(
                game_id,
                interaction.user.id,
                is_manager=is_manager(interaction),
                by=interaction.user.display_name,
            )
            await self.host.publisher.publish(table.id)
        else:
            await update_soon(interaction, self._changed_lobby(interaction, action, game_id))

    async def _changed_lobby(
        self, interaction: discord.Interaction, action: str, game_id: int
    ) -> dict[str, Any]:
        """The lobby message after a click on one of its buttons."""
        user = interaction.user
        if action == "join":
            table = await self.service.join(game_id, user.id, user.display_name)
        elif action in ("bot", "hardbot"):
            current = await self.service.get(game_id)
            number = sum(1 for seat in current.seats if seat.is_bot) + 1
            level = "hard" if action == "hardbot" else "easy"
            name = i18n.t(f"bot.name_{level}", current.record.locale, number=number)
            table = await self.service.add_bot(game_id, user.id, name, level)
        elif action == "leave":
            table = await self.service.leave(game_id, user.id)
        elif action == "nobot":
            table = await self.service.remove_bot(game_id, user.id)
        else:
            raise ServiceError("unknown_action")
        return {"content": lobby_text(table), "view": lobby_view(table, table.record.locale)}

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """Deal the game (committed), say so, and let the publisher open the thread and show the board. Dealing
        waits for the database, so the lobby's Start button is acknowledged first (as /play start is)."""
        on_lobby = interaction.type == discord.InteractionType.component  # the lobby's own Start button
        if on_lobby:
            await interaction.response.defer()
        table = await self.service.start(game_id, interaction.user.id)
        # the lobby everyone sees says it in the game's language; the host's own answer in theirs
        locale = table.record.locale if on_lobby else i18n.norm(str(interaction.locale))
        starting = i18n.t("lobby.starting", locale, game=table.title(locale), id=table.id)
        try:
            if on_lobby:
                await interaction.edit_original_response(
                    content=f"{lobby_text(table)}\n\n{starting}", view=None
                )
            else:
                await reply(interaction, content=starting)
        finally:  # what is committed is shown even if this answer fails
            await self.host.after_commit(table.id)

    async def abandon(self, interaction: discord.Interaction, game_id: int, confirmed: bool = False) -> None:
        """/play abandon: a running game that other people play in ends only once its host (or a manager)
        confirms, since it ends for all of them and cannot be taken back; the others are told on a new board."""
        user = interaction.user
        if not confirmed:
            table = await self.service.get(game_id)
            others = [seat.display_name for seat in table.seats if seat.user_id not in (None, user.id)]
            if table.status == ACTIVE and others:
                if table.record.host_id != user.id and not is_manager(interaction):
                    raise ServiceError("only_host_abandons")
                locale = i18n.norm(str(interaction.locale))
                ask = i18n.t(
                    "game.abandon_confirm",
                    locale,
                    game=table.title(locale),
                    id=table.id,
                    names=others,
                )
                await interaction.response.send_message(
                    ask, view=confirm_view(table.id, "abandon", locale), ephemeral=True
                )
                return
        table = await self.service.abandon(
            game_id, user.id, is_manager=is_manager(interaction), by=user.display_name
        )
        # the confirmation, the reader's own, in their words; a public answer in the game's
        locale = i18n.norm(str(interaction.locale)) if confirmed else table.record.locale
        text = i18n.t("game.abandoned", locale, user=user.display_name)
        try:
            # the confirmation says it is done and loses its button; the players are told by the game's last
            # board, a new message (a second one saying the same was one too many, a review found), or of a
            # lobby by its own message and a note to whoever had joined
            if confirmed:
                await interaction.response.edit_message(content=text, view=None)
            elif table.state is None:
                locale = i18n.norm(str(interaction.locale))
                done = i18n.t(
                    "lobby.abandoned", locale, game=table.title(locale), id=table.id, user=user.display_name
                )
                await interaction.response.send_message(done, ephemeral=True)
            else:
                await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        finally:  # what is committed is shown even if this answer fails
            await self.host.publisher.publish(table.id)


def lobby_text(table: Table) -> str:
    locale = table.record.locale
    engine = table.engine
    lines = [
        f"**{i18n.t('lobby.title', locale, game=table.title(locale), id=table.id)}**",
        i18n.t("lobby.host", locale, host=table.names[0] if table.names else "?"),
        i18n.t(
            "lobby.players",
            locale,
            count=len(table.seats),
            min=engine.min_players,
            max=engine.max_players,
            names=", ".join(table.names),
        ),
    ]
    chosen = presenter(engine.name).chosen_options(table.record.options, locale)
    if chosen:
        lines.append(i18n.t("lobby.options", locale, options="\n".join(f"• {line}" for line in chosen)))
    if table.status == "lobby":
        full = len(table.seats) >= engine.max_players
        lines.append(i18n.t("lobby.hint_full" if full else "lobby.hint", locale))
    return "\n".join(lines)


def closed_lobby_text(table: Table) -> str:
    """A lobby that will never start: who was in it, and why it closed (abandoned, and by whom, or expired)."""
    locale = table.record.locale
    abandoned = table.abandoned_by()
    if abandoned is not None:
        why = i18n.t("lobby.abandoned", locale, game=table.title(locale), id=table.id, user=abandoned["user"])
    else:
        why = i18n.t("game.lobby_expired", locale)
    return f"{lobby_text(table)}\n\n{why}"


def parse_options(text: str | None, locale: str) -> dict[str, str]:
    """'a=1, b=true' -> {'a': '1', 'b': 'true'}; engines validate the values."""
    if not text or not text.strip():
        return {}
    options = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise Refusal(i18n.t("error.malformed_options", locale, text=i18n.echo(part.strip())))
        options[name.strip().lower()] = value.strip()
    return options


def check_hosting_allowed(interaction: discord.Interaction, settings: Any, locale: str) -> None:
    role_id = settings.host_role_id
    if role_id and not is_manager(interaction):
        roles = {role.id for role in getattr(interaction.user, "roles", [])}
        if role_id not in roles:
            raise Refusal(i18n.t("error.host_role_needed", locale, role=f"<@&{role_id}>"))
    allowed = [int(c) for c in settings.game_channel_ids]
    if allowed and interaction.channel_id not in allowed:
        channels = ", ".join(f"<#{c}>" for c in allowed)
        raise Refusal(i18n.t("error.channel_not_allowed", locale, channels=channels))


def is_manager(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)
