"""The game host's Discord side: turns clicks and commands into service calls and shows the results.

Every handler answers its interaction quickly (a deferral before any slow work), commits through the service before
it sends anything, has images drawn in worker processes (bot/drawing.py), and answers every refusal with an ephemeral
message in the clicking user's language.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from datetime import timedelta
from typing import Any

import discord

from bot import i18n
from bot.chooser import Chosen, PathError, Prompt, decode_path, narrow
from bot.drawing import LatestOnly, Pictures
from bot.games import presenter
from bot.games.base import GamePresenter
from bot.service import (
    ACTIVE,
    ARCHIVED,
    EXPIRED,
    FINISHED,
    LOBBY,
    GameService,
    MoveResult,
    ServiceError,
    Table,
)
from bot.ui import board_view, chooser_view, dm_view, lobby_view
from engines.base import IllegalAction, visible_to

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
RECENT_MOVES = 6


def _file(png: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=name)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


class Refusal(Exception):
    """A request we turn down with a message to the user (already in words)."""


class GameHost:
    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        default_locale: str = "en",
        demo_move_seconds: float = 5.0,
    ) -> None:
        self.client = client
        self.service = service
        self.default_locale = default_locale
        self.demo_move_seconds = demo_move_seconds
        # Languages heard in interactions whose saving is still under way (see remember_locale).
        self._heard: dict[int, str] = {}
        self.pictures = Pictures()  # each distinct picture drawn once
        self.boards = LatestOnly()  # one board post at a time per game, only the newest

    # --- answering ------------------------------------------------------------------------------------------------

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer, whether or not the interaction was acknowledged already."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    def explain(self, error: Exception, locale: str, table: Table | None = None) -> str:
        """A refusal in the reader's words; a rules refusal in the words of the game it came from."""
        if isinstance(error, Refusal):
            return str(error)
        if isinstance(error, IllegalAction | ServiceError):
            game = table.engine.name if table else getattr(error, "engine", None)
            if game:
                return presenter(game).error_text(error.code, dict(error.params), locale)
            key = f"error.{error.code}"
            if i18n.has(key):
                return i18n.t(key, locale, **{"game": "", **error.params})
            return i18n.t("error.illegal_action", locale)
        return i18n.t("error.internal", locale)

    # --- the lobby ------------------------------------------------------------------------------------------------

    async def new_lobby(
        self, interaction: discord.Interaction, engine_name: str, options_text: str | None
    ) -> None:
        locale = i18n.norm(str(interaction.locale))
        settings = await self.service.settings_for(interaction.guild_id)
        if interaction.guild is not None:
            self._check_hosting_allowed(interaction, settings, locale)
        public_locale = await self.public_locale(interaction.guild_id, interaction.guild_locale, locale)
        options = parse_options(options_text, locale)
        table = await self.service.create_lobby(
            engine_name=engine_name,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            locale=public_locale,
            raw_options=options,
        )
        await interaction.response.send_message(
            self.lobby_text(table),
            view=lobby_view(table, public_locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        message = await interaction.original_response()
        await self.service.set_messages(table.id, lobby_message_id=message.id)

    async def start_demo(
        self, interaction: discord.Interaction, engine_name: str, players: int | None, options: str | None
    ) -> None:
        """A game the built-in player plays in every seat, in its own thread, one move every few seconds (see
        play_demos); anyone can follow it, and the host or a server manager stops it with /play abandon."""
        locale = i18n.norm(str(interaction.locale))
        settings = await self.service.settings_for(interaction.guild_id)
        if interaction.guild is not None:
            self._check_hosting_allowed(interaction, settings, locale)
        public_locale = await self.public_locale(interaction.guild_id, interaction.guild_locale, locale)
        count = players or presenter(engine_name).engine.min_players
        names = [i18n.t("bot.name", public_locale, number=n + 1) for n in range(count)]
        table = await self.service.create_demo(
            engine_name=engine_name,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=interaction.user.id,
            locale=public_locale,
            bot_names=names,
            raw_options=parse_options(options, locale),
            pace=timedelta(seconds=self.demo_move_seconds),
        )
        title = table.engine.title(public_locale)
        await interaction.response.send_message(
            i18n.t(
                "demo.started",
                public_locale,
                game=title,
                id=table.id,
                names=", ".join(names),
                seconds=f"{self.demo_move_seconds:g}",
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        thread_id = table.record.channel_id
        channel = self.client.get_channel(table.record.channel_id)
        if settings.use_threads and isinstance(channel, discord.TextChannel):
            message = await interaction.original_response()
            name = i18n.t("game.thread_name", public_locale, game=title, id=table.id)
            thread_id = (await message.create_thread(name=name)).id
        await self.service.set_messages(table.id, thread_id=thread_id)
        await self.post_board(await self.service.get(table.id), new_message=True)

    async def public_locale(self, guild_id: int | None, guild_locale: Any, fallback: str) -> str:
        """Public posts use the server's chosen language, else the server's Discord language."""
        settings = await self.service.settings_for(guild_id)
        if settings.locale:
            return settings.locale
        return i18n.norm(str(guild_locale)) if guild_locale else fallback

    @staticmethod
    def _check_hosting_allowed(interaction: discord.Interaction, settings: Any, locale: str) -> None:
        role_id = settings.host_role_id
        if role_id and not _is_manager(interaction):
            roles = {role.id for role in getattr(interaction.user, "roles", [])}
            if role_id not in roles:
                raise Refusal(i18n.t("error.host_role_needed", locale, role=f"<@&{role_id}>"))
        allowed = [int(c) for c in settings.game_channel_ids]
        if allowed and interaction.channel_id not in allowed:
            channels = ", ".join(f"<#{c}>" for c in allowed)
            raise Refusal(i18n.t("error.channel_not_allowed", locale, channels=channels))

    def lobby_text(self, table: Table) -> str:
        locale = table.record.locale
        engine = table.engine
        title = engine.title(locale)
        lines = [
            f"**{i18n.t('lobby.title', locale, game=title, id=table.id)}**",
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
        changed = {k: v for k, v in table.record.options.items() if v != _default(engine, k)}
        if changed:
            lines.append(
                i18n.t("lobby.options", locale, options=", ".join(f"{k}={v}" for k, v in changed.items()))
            )
        lines.append(i18n.t("lobby.hint", locale))
        return "\n".join(lines)

    async def lobby_action(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        user = interaction.user
        if action == "join":
            table = await self.service.join(game_id, user.id, user.display_name)
        elif action == "bot":
            current = await self.service.get(game_id)
            number = sum(1 for seat in current.seats if seat.is_bot) + 1
            name = i18n.t("bot.name", current.record.locale, number=number)
            table = await self.service.add_bot(game_id, user.id, name)
        elif action == "leave":
            table = await self.service.leave(game_id, user.id)
        elif action == "abandon":
            table = await self.service.abandon(game_id, user.id, is_manager=_is_manager(interaction))
            await interaction.response.edit_message(
                content=i18n.t(
                    "lobby.abandoned",
                    table.record.locale,
                    game=table.engine.title(table.record.locale),
                    id=table.id,
                    user=user.display_name,
                ),
                view=None,
            )
            return
        elif action == "start":
            await self.start(interaction, game_id)
            return
        else:
            raise ServiceError("unknown_action")
        await interaction.response.edit_message(
            content=self.lobby_text(table), view=lobby_view(table, table.record.locale)
        )

    async def table_action(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledge before any reading
        table = await self.service.get(game_id)
        if action == "hand":
            await self.show_hand(interaction, table)
        else:
            await self.open_chooser(interaction, table)

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """Deal the game, open its thread from the lobby message, show the board and send private views."""
        table = await self.service.start(game_id, interaction.user.id)
        from_button = interaction.type == discord.InteractionType.component
        await interaction.response.defer(thinking=not from_button)
        locale = table.record.locale
        title = table.engine.title(locale)
        channel = self.client.get_channel(table.record.channel_id)
        use_threads = (await self.service.settings_for(table.record.guild_id)).use_threads
        lobby = (
            channel.get_partial_message(table.record.lobby_message_id)
            if (use_threads and isinstance(channel, discord.TextChannel) and table.record.lobby_message_id)
            else None
        )
        if lobby is not None:
            thread = await lobby.create_thread(
                name=i18n.t("game.thread_name", locale, game=title, id=table.id)
            )
            thread_id = thread.id
            started = i18n.t("lobby.started", locale, game=title, id=table.id, thread=thread.mention)
        else:
            thread_id = table.record.channel_id
            started = i18n.t("lobby.started_here", locale, game=title, id=table.id)
        await self.service.set_messages(table.id, thread_id=thread_id)
        if table.record.lobby_message_id:
            await _quietly(
                self.client.get_partial_messageable(table.record.channel_id)
                .get_partial_message(table.record.lobby_message_id)
                .edit(content=f"{self.lobby_text(table)}\n\n{started}", view=None)
            )
        if not from_button:
            await interaction.followup.send(started)
        names = ", ".join(f"{i + 1}. {name}" for i, name in enumerate(table.names))
        await self.client.get_partial_messageable(thread_id).send(
            i18n.t("game.welcome", locale, game=title, id=table.id, names=names),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        table = await self.service.get(table.id)
        await self.post_board(table, new_message=True)
        humans = [s.seat for s in table.seats if not s.is_bot]
        await self.send_private_updates(table, seats=humans, turn_seats=set(table.to_act()) & set(humans))
        await self.run_bots(table)

    async def abandon(self, interaction: discord.Interaction, game_id: int) -> None:
        table = await self.service.abandon(game_id, interaction.user.id, is_manager=_is_manager(interaction))
        locale = table.record.locale
        text = i18n.t("game.abandoned", locale, user=interaction.user.display_name)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        if table.record.thread_id and table.record.thread_id != interaction.channel_id:
            await self.client.get_partial_messageable(table.record.thread_id).send(text)

    # --- the board ------------------------------------------------------------------------------------------------

    async def board_content(self, table: Table, game: GamePresenter) -> str:
        """Recent public happenings and what is going on now."""
        locale = table.record.locale
        lines: list[str] = []
        public_view = table.view(None)
        for move in await self.service.moves(table.id, limit=RECENT_MOVES):
            for event in move.events:
                if visible_to(event, None):
                    text = game.event_text(event, table.names, public_view, locale)
                    if text:
                        lines.append(f"• {text}")
        status = game.status_text(public_view, table.names, locale)
        header = f"**{game.title(locale)} #{table.id}**" + (f" — {status}" if status else "")
        body = "\n".join(lines[-12:])
        return _clip(f"{header}\n{body}" if body else header)

    async def post_board(self, table: Table, *, new_message: bool) -> None:
        """Show the public table in the game's thread: a new message when someone new must act, else an edit.
        Boards of one game go up one at a time; one that a newer board overtook while it waited is skipped."""
        await self.boards.show(table, new_message, self._post_board)

    async def _post_board(self, table: Table, new_message: bool, shown_in: int | None) -> int:
        """Post or edit the board; `shown_in` is the message this process last showed it in, if any (the table
        may have been read before that message was posted). Returns the message now showing it."""
        game = presenter(table.engine.name)
        locale = table.record.locale
        png = await self.board_png(table, locale)
        content = await self.board_content(table, game)
        channel = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        running = table.status == ACTIVE
        demo = table.record.demo_move_at is not None  # nobody to take a turn: a board to watch
        view = board_view(table, locale, game.has_private) if running and not demo else None
        quiet = {s.user_id for s in table.seats if not s.pings}
        # A chance to react in someone else's turn is offered privately (by DM), never announced.
        reacting = set(table.engine.reaction_seats(table.state)) if table.state is not None else set()
        users = [
            table.user_at(s) for s in table.to_act() if s not in reacting and table.user_at(s) not in quiet
        ]
        users = [u for u in users if u is not None]
        if table.status == FINISHED:
            users = [s.user_id for s in table.seats if s.user_id] + await self.service.spectators(table.id)
            mentions = " ".join(f"<@{u}>" for u in users)
            content = _clip(f"{content}\n\n{self.outcome_text(table)}\n{mentions}")
        elif table.to_act():
            waiting = " ".join(
                f"<@{u}>" if u in users else table.names[s]
                for s in table.to_act()
                if (u := table.user_at(s)) is not None and s not in reacting
            )
            if waiting:
                content = _clip(
                    f"{content}\n\n{i18n.t('game.to_act', locale, mentions=waiting, game=game.title(locale), id=table.id)}"
                )
        old = shown_in or table.record.board_message_id
        if new_message or old is None:
            message = await channel.send(
                content,
                file=_file(png, "board.png"),
                view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            )
            await self.service.set_messages(table.id, board_message_id=message.id)
            if old is not None:  # the previous board keeps its picture but loses its buttons
                await _quietly(channel.get_partial_message(old).edit(view=None))
            return message.id
        await channel.get_partial_message(old).edit(
            content=content, attachments=[_file(png, "board.png")], view=view
        )
        return old

    async def show_board(self, interaction: discord.Interaction, table: Table) -> None:
        """The current public board, just for the asker."""
        game = presenter(table.engine.name)
        locale = i18n.norm(str(interaction.locale))
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.board_png(table, locale)
        status = game.status_text(table.view(None), table.names, locale)
        await interaction.followup.send(
            f"**{game.title(locale)} #{table.id}** {status}", file=_file(png, "board.png"), ephemeral=True
        )

    def outcome_text(self, table: Table) -> str:
        locale = table.record.locale
        assert table.state is not None
        outcome = table.engine.outcome(table.state)
        assert outcome is not None
        winners = ", ".join(table.names[s] for s in outcome.winners)
        scores = ", ".join(f"{name} {score}" for name, score in zip(table.names, outcome.scores, strict=True))
        over = i18n.t("game.over", locale, winners=winners, game=table.engine.title(locale), id=table.id)
        return f"🏆 {over}\n{i18n.t('game.scores', locale, scores=scores)}"

    # --- private information --------------------------------------------------------------------------------------

    async def send_private_updates(self, table: Table, seats: Any, turn_seats: set[int]) -> None:
        """DM each listed seat its private view; seats in `turn_seats` are also told it is their move (unless the
        only thing they could do is let a chance to react pass)."""
        game = presenter(table.engine.name)
        if table.state is not None:
            turn_seats = {s for s in turn_seats if not self._only_passing(table, s)}
            seats = [s for s in seats if s in turn_seats or s not in table.engine.reaction_seats(table.state)]
        users = [user for seat in seats if (user := table.user_at(seat)) is not None]
        locales = await self.reader_locales(users, table.record.locale) if users else {}
        jobs = [self._dm_seat(table, game, seat, seat in turn_seats, locales) for seat in seats]
        await asyncio.gather(*jobs)

    async def _dm_seat(
        self, table: Table, game: GamePresenter, seat: int, their_turn: bool, locales: dict[int, str]
    ) -> None:
        """One seat's DM (and picture) in its holder's own language."""
        record = next(s for s in table.seats if s.seat == seat)
        if record.user_id is None or record.dms_closed:  # closed DMs were noted once in the thread
            return
        their_turn = their_turn and record.pings
        locale = locales[record.user_id]
        title = game.title(locale)
        link = f"https://discord.com/channels/{table.record.guild_id or '@me'}/{table.record.thread_id}"
        lines = []
        if their_turn:
            lines.append(i18n.t("game.dm_your_turn", locale, game=title, id=table.id, link=link))
        png = await self.private_png(table, seat, locale)
        if png is not None:
            lines.append(i18n.t("game.dm_hand", locale, game=title, id=table.id))
        if not lines:
            return
        try:
            dm = await self.client.create_dm(discord.Object(record.user_id))
            await dm.send(
                "\n".join(lines),
                file=_file(png, "private.png") if png else discord.utils.MISSING,
                view=dm_view(table, locale) if their_turn else discord.utils.MISSING,
            )
        except discord.Forbidden:
            if not record.dms_closed:
                await self.service.set_dms_closed(table.id, record.user_id, True)
                channel = self.client.get_partial_messageable(
                    table.record.thread_id or table.record.channel_id
                )
                await channel.send(
                    i18n.t("game.dm_closed", table.record.locale, mention=f"<@{record.user_id}>"),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(record.user_id)]),
                )

    async def remember_locale(self, interaction: discord.Interaction) -> None:
        """Discord tells us a user's language only when they interact: keep it for the DMs we send them later.
        This runs for every interaction as it arrives, alongside its handler; until the write is done,
        `_heard` lets the handler's own DMs (the starting host's, a substitute's) use it already."""
        if interaction.type == discord.InteractionType.autocomplete:  # keystrokes: the command will tell
            return
        user_id, locale = interaction.user.id, i18n.norm(str(interaction.locale))
        self._heard[user_id] = locale
        try:
            await self.service.remember_locale(user_id, locale)
        finally:
            if self._heard.get(user_id) == locale:
                del self._heard[user_id]

    async def reader_locales(self, user_ids: list[int], fallback: str) -> dict[int, str]:
        """Each user's language for private messages: that of their last interaction, else `fallback`."""
        known = await self.service.user_locales(user_ids)
        known.update((user, self._heard[user]) for user in user_ids if user in self._heard)
        return {user: known.get(user, fallback) for user in user_ids}

    @staticmethod
    def _only_passing(table: Table, seat: int) -> bool:
        assert table.state is not None
        if seat not in table.engine.reaction_seats(table.state):
            return False
        passing = table.engine.pass_action(table.state, seat)
        return table.engine.legal_actions(table.state, seat) == [passing]

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        game = presenter(table.engine.name)
        if not game.has_private or table.state is None:
            raise ServiceError("no_private_info")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.private_png(table, seat, locale)
        await interaction.followup.send(
            i18n.t("game.dm_hand", locale, game=game.title(locale), id=table.id),
            file=_file(png, "private.png") if png else discord.utils.MISSING,
            ephemeral=True,
        )

    # --- moves ----------------------------------------------------------------------------------------------------

    def chooser_message(
        self, table: Table, seat: int, path: list[int], locale: str, notes: list[str]
    ) -> tuple[str, discord.ui.View | None]:
        """The ephemeral move picker: what is chosen so far, what to choose next."""
        game = presenter(table.engine.name)
        view_data = table.view(seat)
        actions = _choices(table, seat)
        lines = list(notes)
        if not actions:
            lines.append(i18n.t("chooser.not_your_turn", locale))
            return _clip("\n".join(lines)), None
        step = narrow(actions, path)
        status = game.status_text(view_data, table.names, locale)
        if status:
            lines.append(f"*{status}*")
        if isinstance(step, Chosen):  # only one thing to do: one button that does it
            label = game.action_text(step.action, view_data, locale)
            return _clip("\n".join(lines)), chooser_view(table, path, [label], locale, direct=True)
        if step.chosen:
            chosen = ", ".join(
                game.value_label(k, v, step.chosen, view_data, locale) for k, v in step.chosen.items()
            )
            lines.append(i18n.t("chooser.your_choice", locale, chosen=chosen))
        lines.append(f"**{game.prompt_text(step.key, locale)}**")
        labels = [game.value_label(step.key, v, step.chosen, view_data, locale) for v in step.values]
        return _clip("\n".join(lines)), chooser_view(table, path, labels, locale)

    async def open_chooser(self, interaction: discord.Interaction, table: Table) -> None:
        """'Take my turn': an ephemeral picker with the player's private view attached."""
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE:
            raise ServiceError("game_not_running")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        content, view = self.chooser_message(table, seat, [], locale, [])
        png = await self.private_png(table, seat, locale)
        await interaction.followup.send(
            content,
            view=view or discord.utils.MISSING,
            file=_file(png, "private.png") if png else discord.utils.MISSING,
            ephemeral=True,
        )

    async def board_png(self, table: Table, locale: str) -> bytes:
        png = await self.pictures.get(table.engine.name, None, table.view(None), table.names, locale)
        assert png is not None
        return png

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        """One seat's private image; drawn again only when what the seat sees has changed."""
        game = presenter(table.engine.name)
        if not game.has_private or table.state is None:
            return None
        return await self.pictures.get(table.engine.name, seat, table.view(seat), table.names, locale)

    async def choose(
        self, interaction: discord.Interaction, game_id: int, version: int, path_text: str
    ) -> None:
        """A click in the move picker: narrow the choice, or, once it names one action, play it.
        Acknowledged before the game is read, so a busy moment delays the answer, not the acknowledgement."""
        locale = i18n.norm(str(interaction.locale))
        await interaction.response.defer()
        table = await self.service.get(game_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE or table.state is None:
            await interaction.edit_original_response(
                content=i18n.t("error.game_not_running", locale), view=None
            )
            return
        if version != table.version:
            await self._restart_chooser(interaction, table, seat, locale, i18n.t("error.stale", locale))
            return
        actions = _choices(table, seat)
        try:
            step = narrow(actions, decode_path(path_text)) if actions else None
        except PathError:
            step = None
        if step is None:
            await self._restart_chooser(interaction, table, seat, locale, i18n.t("error.stale", locale))
            return
        if isinstance(step, Prompt):
            content, view = self.chooser_message(table, seat, decode_path(path_text), locale, [])
            await interaction.edit_original_response(content=content, view=view)
            return
        await self.play(interaction, table, step, locale)

    async def _restart_chooser(
        self, interaction: discord.Interaction, table: Table, seat: int, locale: str, note: str
    ) -> None:
        content, view = self.chooser_message(table, seat, [], locale, [note])
        await interaction.edit_original_response(content=content, view=view)

    async def play(self, interaction: discord.Interaction, table: Table, step: Chosen, locale: str) -> None:
        """Apply the chosen action (the interaction is already deferred), then update the picker and the table."""
        try:
            result = await self.service.act(
                table.id, interaction.user.id, step.action, expected_version=table.version
            )
        except (IllegalAction, ServiceError) as error:
            fresh = await self.service.get(table.id)
            seat = fresh.seat_of(interaction.user.id)
            content, view = self.chooser_message(
                fresh, seat or 0, [], locale, [self.explain(error, locale, fresh)]
            )
            await interaction.edit_original_response(content=content, view=view)
            return
        await self.after_move(interaction, result, locale)

    async def after_move(self, interaction: discord.Interaction, result: MoveResult, locale: str) -> None:
        table = result.table
        game = presenter(table.engine.name)
        seat_view = table.view(result.seat)
        notes = [i18n.t("chooser.done", locale, action=game.action_text(result.action, seat_view, locale))]
        for event in result.events:
            if event.get("private") and visible_to(event, result.seat):
                text = game.event_text(event, table.names, seat_view, locale)
                if text:
                    notes.append(text)
        content, view = self.chooser_message(table, result.seat, [], locale, notes)
        png = await self.private_png(table, result.seat, locale) if table.status == ACTIVE else None
        edit: dict[str, Any] = {"content": content, "view": view}
        if png is not None:
            edit["attachments"] = [_file(png, "private.png")]
        await interaction.edit_original_response(**edit)
        await self.publish(result)

    async def publish(self, result: MoveResult) -> None:
        """Tell the table what happened: the board, pings for whoever must act now, their private views by DM."""
        table = result.table
        now_acting = set(table.to_act())
        newly_acting = now_acting - set(result.acted_before) if not result.turn_changed else now_acting
        await self.post_board(table, new_message=result.turn_changed or table.status == FINISHED)
        if table.status == ACTIVE and newly_acting:
            await self.send_private_updates(table, seats=sorted(newly_acting), turn_seats=newly_acting)
        await self.run_bots(table)

    async def run_bots(self, table: Table) -> None:
        """Let the built-in player move for every seat it holds until a person must act or the game ends."""
        while table.status == ACTIVE and (seats := table.bots_to_act()):
            try:
                result = await self.service.act_for_bot(table.id, seats[0])
            except ServiceError:  # someone else moved this game meanwhile; their publish carries on
                return
            table = result.table
            now_acting = set(table.to_act())
            newly = now_acting - set(result.acted_before) if not result.turn_changed else now_acting
            await self.post_board(table, new_message=result.turn_changed or table.status == FINISHED)
            humans = {s for s in newly if table.user_at(s) is not None}
            if table.status == ACTIVE and humans:
                await self.send_private_updates(table, seats=sorted(humans), turn_seats=humans)

    async def announce(self, table: Table, text: str, users: list[int] | None = None) -> None:
        """A line in the game's thread, pinging exactly `users`."""
        channel = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        await channel.send(
            _clip(text),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users or []]),
        )

    async def move_by_text(self, interaction: discord.Interaction, table: Table, value: str) -> None:
        """/play move (already deferred): the autocomplete value is '<version>:<index into the legal actions>'."""
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE or table.state is None:
            raise ServiceError("game_not_running")
        try:
            version_text, index_text = value.split(":", 1)
            version, index = int(version_text), int(index_text)
        except ValueError:
            raise ServiceError("malformed_action") from None
        if version != table.version:
            raise ServiceError("stale_plain")
        actions = _choices(table, seat)
        if not actions:
            raise IllegalAction("not_your_turn")
        if not 0 <= index < len(actions):
            raise ServiceError("malformed_action")
        try:
            result = await self.service.act(
                table.id, interaction.user.id, actions[index], expected_version=version
            )
        except (IllegalAction, ServiceError) as error:
            # Another move got in first: this reply has no picker to refresh, so just say so.
            if isinstance(error, ServiceError) and error.code == "stale":
                error = ServiceError("stale_plain")
            await interaction.followup.send(self.explain(error, locale, table), ephemeral=True)
            return
        await self.after_move(interaction, result, locale)

    def action_choices(self, table: Table, user_id: int, typed: str, locale: str) -> list[tuple[str, str]]:
        """Autocomplete for /play move: (label, value) pairs matching what the user typed."""
        seat = table.seat_of(user_id)
        if seat is None or table.state is None or table.status != ACTIVE:
            return []
        game = presenter(table.engine.name)
        view_data = table.view(seat)
        typed = typed.casefold().strip()
        out = []
        for index, action in enumerate(_choices(table, seat)):
            label = game.action_text(action, view_data, locale)[:100]
            if typed in label.casefold():
                out.append((label, f"{table.version}:{index}"))
            if len(out) == 25:
                break
        return out

    # --- seats changing hands -------------------------------------------------------------------------------------

    async def leave_game(self, interaction: discord.Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        locale = table.record.locale
        name = table.names[seat]
        table = await self.service.hand_to_bot(table.id, seat, i18n.t("bot.name", locale, number=seat + 1))
        await interaction.response.send_message(
            i18n.t("game.left", i18n.norm(str(interaction.locale)), name=name), ephemeral=True
        )
        await self.announce(table, i18n.t("game.left", locale, name=name))
        await self.post_board(table, new_message=True)
        await self.run_bots(table)

    async def vote_out(self, interaction: discord.Interaction, table: Table, target_user: int) -> None:
        seat = table.seat_of(target_user)
        if seat is None:
            raise ServiceError("no_such_player")
        name = table.names[seat]
        table, passed = await self.service.vote_out(table.id, interaction.user.id, seat)
        locale = i18n.norm(str(interaction.locale))
        if not passed:
            votes = len(next(s for s in table.seats if s.seat == seat).kick_votes)
            voters = sum(1 for s in table.seats if not s.is_bot and s.seat != seat)
            await interaction.response.send_message(
                i18n.t("game.vote_recorded", locale, name=name, votes=votes, needed=voters // 2 + 1),
                ephemeral=True,
            )
            return
        public = table.record.locale
        table = await self.service.hand_to_bot(table.id, seat, i18n.t("bot.name", public, number=seat + 1))
        await interaction.response.send_message(i18n.t("game.voted_out", public, name=name))
        await self.post_board(table, new_message=True)
        await self.run_bots(table)

    async def substitute(self, interaction: discord.Interaction, table: Table) -> None:
        user = interaction.user
        old_names = table.names
        table = await self.service.substitute(table.id, user.id, user.display_name, None)
        seat = table.seat_of(user.id)
        assert seat is not None
        text = i18n.t(
            "game.substituted", table.record.locale, mention=user.mention, seat=seat + 1, old=old_names[seat]
        )
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())
        # The seat's hidden information now belongs to the newcomer.
        await self.send_private_updates(table, seats=[seat], turn_seats=set(table.to_act()) & {seat})
        await self.post_board(table, new_message=True)

    # --- undo -----------------------------------------------------------------------------------------------------

    async def request_undo(self, interaction: discord.Interaction, table: Table) -> None:
        from bot.ui import undo_view

        await interaction.response.defer(ephemeral=True, thinking=True)
        table, outcome = await self.service.request_undo(table.id, interaction.user.id)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        locale = table.record.locale
        name = table.names[seat]
        if outcome == "undone":
            await interaction.followup.send(
                i18n.t("game.undone", i18n.norm(str(interaction.locale)), name=name), ephemeral=True
            )
            await self.announce(table, i18n.t("game.undone", locale, name=name))
            await self.post_board(table, new_message=True)
            await self.run_bots(table)
            return
        others = [s for s in table.seats if s.seat != seat and not s.is_bot]
        text = i18n.t(
            "game.undo_asked", locale, name=name, names=", ".join(f"<@{s.user_id}>" for s in others)
        )
        channel = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        await channel.send(
            text,
            view=undo_view(table, locale),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(s.user_id) for s in others]),
        )
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    async def answer_undo(
        self, interaction: discord.Interaction, game_id: int, version: int, approve: bool
    ) -> None:
        table = await self.service.get(game_id)
        if table.version != version or not table.record.undo_request:
            raise ServiceError("stale_plain")
        table, outcome = await self.service.answer_undo(game_id, interaction.user.id, approve)
        locale = table.record.locale
        seat = table.seat_of(interaction.user.id)
        if outcome == "waiting":
            request = table.record.undo_request or {}
            missing = [
                s.display_name
                for s in table.seats
                if s.seat != request.get("seat")
                and not s.is_bot
                and s.seat not in request.get("approvals", [])
            ]
            await interaction.response.send_message(
                i18n.t("game.undo_waiting", i18n.norm(str(interaction.locale)), names=", ".join(missing)),
                ephemeral=True,
            )
            return
        if outcome == "refused":
            text = i18n.t("game.undo_refused", locale, name=table.names[seat] if seat is not None else "?")
            await interaction.response.edit_message(content=text, view=None)
            return
        mover = next(m for m in reversed(await self.service.moves(game_id)))
        text = i18n.t("game.undone", locale, name=table.names[mover.seat])
        await interaction.response.edit_message(content=text, view=None)
        await self.post_board(table, new_message=True)
        await self.run_bots(table)

    # --- the record -----------------------------------------------------------------------------------------------

    async def move_log(self, table: Table, locale: str, viewer: int | None, limit: int = 15) -> str:
        """The recent moves in words, as `viewer` may see them."""
        game = presenter(table.engine.name)
        view_data = table.view(viewer) if table.state is not None else {}
        lines = [f"**{i18n.t('log.title', locale, game=game.title(locale), id=table.id)}**"]
        for move in await self.service.moves(table.id, limit=limit):
            texts = [
                game.event_text(e, table.names, view_data, locale)
                for e in move.events
                if visible_to(e, viewer)
            ]
            if move.action.get("type") == "undo":
                texts = [i18n.t("game.undone", locale, name=table.names[move.seat])]
            texts = [t for t in texts if t]
            if texts:
                by_host = f" {i18n.t('log.host_moved', locale)}" if move.user_id == 0 else ""
                lines.append(f"`{move.version}` " + " ".join(texts) + by_host)
        if len(lines) == 1:
            lines.append(i18n.t("log.empty", locale))
        return _clip("\n".join(lines))

    async def export(self, table: Table, locale: str) -> tuple[str, bytes]:
        """A finished game's full record: replaying its moves from the seed gives the same final state."""
        if table.status != FINISHED or table.state is None:
            raise ServiceError("export_unfinished")
        moves = await self.service.moves(table.id)
        outcome = table.engine.outcome(table.state)
        assert outcome is not None
        record = {
            "game": table.engine.name,
            "id": table.id,
            "players": table.names,
            "options": table.record.options,
            "seed": table.record.seed,
            "moves": [
                {"version": m.version, "seat": m.seat, "action": m.action, "events": m.events} for m in moves
            ],
            "scores": outcome.scores,
            "winners": outcome.winners,
            "final_state": table.state,
        }
        summary = i18n.t(
            "export.summary",
            locale,
            game=table.engine.title(locale),
            id=table.id,
            players=", ".join(f"{n} {sc}" for n, sc in zip(table.names, outcome.scores, strict=True)),
            winners=", ".join(table.names[w] for w in outcome.winners),
            moves=len(moves),
        )
        return summary, json.dumps(record, ensure_ascii=False, indent=1).encode()

    # --- the clock --------------------------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Everything the clock makes due: reminders, deadline moves, bot turns, archiving, expired lobbies, and
        demo moves (which also have a faster clock of their own)."""
        due = await self.service.due(self.service.clock())
        for table, seat in due.reminders:
            user = table.user_at(seat)
            hours = int(_hours_waiting(table, self.service.clock()))
            text = i18n.t(
                "game.reminder",
                table.record.locale,
                mentions=f"<@{user}>",
                game=table.engine.title(table.record.locale),
                id=table.id,
                hours=hours,
            )
            await self.service.note_reminder(table.id, seat)
            await _quietly(self.announce(table, text, [user] if user else []))
        for table, seat in due.deadlines:
            try:
                result = await self.service.act_on_deadline(table.id, seat)
            except (ServiceError, IllegalAction):
                continue
            game = presenter(table.engine.name)
            locale = table.record.locale
            action = game.action_text(result.action, result.table.view(None), locale)
            await _quietly(
                self.announce(
                    result.table, i18n.t("game.deadline", locale, name=table.names[seat], action=action)
                )
            )
            await self.publish(result)
        for table, _ in due.bot_turns:
            await self.run_bots(table)
        for table in due.idle_games:
            table = await self.service.close(table.id, ARCHIVED)
            await _quietly(self.announce(table, i18n.t("game.archived", table.record.locale)))
            if table.record.board_message_id:
                channel = self.client.get_partial_messageable(
                    table.record.thread_id or table.record.channel_id
                )
                await _quietly(channel.get_partial_message(table.record.board_message_id).edit(view=None))
        for table in due.expired_lobbies:
            table = await self.service.close(table.id, EXPIRED)
            if table.record.lobby_message_id:
                message = self.client.get_partial_messageable(table.record.channel_id).get_partial_message(
                    table.record.lobby_message_id
                )
                text = f"{self.lobby_text(table)}\n\n{i18n.t('game.lobby_expired', table.record.locale)}"
                await _quietly(message.edit(content=_clip(text), view=None))
        await self.play_demos()

    async def play_demos(self) -> None:
        """One move for each demo whose time has come, shown by editing its board; the final board is a new
        message, which pings the game's followers."""
        pace = timedelta(seconds=self.demo_move_seconds)
        for game_id in await self.service.demos_due(self.service.clock()):
            try:
                result = await self.service.act_for_demo(game_id, pace)
            except ServiceError:  # stopped or moved meanwhile
                continue
            await _quietly(self.post_board(result.table, new_message=result.table.status == FINISHED))

    # --- finding games --------------------------------------------------------------------------------------------

    async def game_here(
        self, interaction: discord.Interaction, game_id: int | None, statuses=(LOBBY, ACTIVE)
    ) -> Table:
        if game_id is not None:
            table = await self.service.get(game_id)
            if table.status not in statuses:
                raise ServiceError("game_not_running" if table.status != LOBBY else "lobby_closed")
            return table
        tables = await self.service.games_in_channel(interaction.channel_id or 0, statuses)
        in_thread = [t for t in tables if t.record.thread_id == interaction.channel_id]
        candidates = in_thread or tables
        if not candidates:
            raise ServiceError("no_game_here")
        if len(candidates) > 1:
            mine = [t for t in candidates if t.seat_of(interaction.user.id) is not None]
            if len(mine) == 1:
                return mine[0]
            raise ServiceError("several_games_here")
        return candidates[0]


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
            raise Refusal(i18n.t("error.malformed_options", locale, text=part.strip()[:50]))
        options[name.strip().lower()] = value.strip()
    return options


def _choices(table: Table, seat: int) -> list[Any]:
    """What `seat` may do now: its legal actions, or when it is not its move, its side actions (e.g. taking
    back a "ready")."""
    if table.state is None:
        return []
    return table.engine.legal_actions(table.state, seat) or table.engine.side_actions(table.state, seat)


def _hours_waiting(table: Table, now: Any) -> float:
    since = table.record.waiting_since
    if since is None:
        return 0.0
    if since.tzinfo is None:
        since = since.replace(tzinfo=now.tzinfo)
    return (now - since).total_seconds() / 3600


def _default(engine: Any, name: str) -> Any:
    return next((o.default for o in engine.options if o.name == name), None)


def _is_manager(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction, "permissions", None)
    return bool(permissions and permissions.manage_guild)


async def _quietly(coroutine: Any) -> None:
    try:
        await coroutine
    except discord.HTTPException as error:
        log.info("ignored %s", error)
