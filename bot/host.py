"""The game host's Discord side: one object the cogs and buttons talk to, made of parts that each do one job.

- `lobby.Lobby`: opening, joining and starting games, demos;
- `picker.Picker`: the move picker and `/play move`;
- `publisher.Publisher`: brings Discord up to each game's newest committed version (the outbox);
- `private.PrivateMessages`: hands and "your move" by DM, readers' languages;
- `clock.Clock`: reminders, deadlines, reaction windows, housekeeping, demo moves.

Every handler answers its interaction quickly (a deferral before any slow work), commits through the service
before it sends anything, and answers every refusal with an ephemeral message in the clicking user's language.
Once a change is committed, `after_commit` publishes it and lets the built-in players move.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import discord

from bot import i18n
from bot.clock import Clock
from bot.drawing import Pictures
from bot.games import presenter
from bot.lobby import Lobby, Refusal, lobby_text
from bot.picker import Picker
from bot.private import PrivateMessages
from bot.publisher import MAX_CONTENT, Publisher, clip
from bot.service import ACTIVE, FINISHED, LOBBY, GameService, ServiceError, Table, choices
from bot.ui import confirm_view, png_file, reply, undo_view
from engines.base import IllegalAction, visible_to

log = logging.getLogger(__name__)

LOG_LINE_MAX = 600  # one move's line in /play log, so one long reveal cannot crowd out the others
BOT_MOVES_AT_ONCE = 200  # built-in moves in a row before the clock takes over (a bots-only stretch yields)


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
        self.pictures = Pictures()  # each distinct picture drawn once
        self.private = PrivateMessages(client, service, self.pictures)
        self.publisher = Publisher(client, service, self.private, self.pictures)
        self.lobby = Lobby(self)
        self.picker = Picker(self)
        self.clock = Clock(self)

    # --- answering ------------------------------------------------------------------------------------------------

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        """A refusal, whether or not the interaction was acknowledged already."""
        await reply(interaction, content=clip(text))

    def explain(self, error: Exception, locale: str, table: Table | None = None) -> str:
        """A refusal in the reader's words; a rules refusal in the words of the game it came from."""
        if isinstance(error, Refusal):
            return str(error)
        if isinstance(error, IllegalAction | ServiceError):
            # a wait is told in the reader's words
            params = {
                name: i18n.waited(value.total_seconds(), locale) if isinstance(value, timedelta) else value
                for name, value in error.params.items()
            }
            game = table.engine.name if table else getattr(error, "engine", None)
            if game:
                return presenter(game).error_text(error.code, params, locale)
            key = f"error.{error.code}"
            if i18n.has(key):
                return i18n.t(key, locale, **{"game": "", **params})
            return i18n.t("error.illegal_action", locale)
        return i18n.t("error.internal", locale)

    # --- after every commit ---------------------------------------------------------------------------------------

    async def after_commit(self, game_id: int) -> None:
        """Show the committed change, then let the built-in players take their moves."""
        await self.run_bots(game_id, await self.publisher.publish(game_id))

    async def run_bots(self, game_id: int, table: Table | None = None) -> None:
        """The built-in player moves for every seat it holds until a person must act or the game ends; each of
        its moves is published like anyone's. `table`: the game as the publisher just read it (a change
        committed since then runs the built-in players itself, after its own publishing)."""
        for _ in range(BOT_MOVES_AT_ONCE):
            # a person's chain of moves is being committed: its end runs them
            if self.publisher.held(game_id):
                return
            if table is None:
                table = await self.service.get(game_id)
            seats = (
                table.bots_to_act() if table.status == ACTIVE and table.record.demo_move_at is None else []
            )
            if not seats:
                return
            try:
                await self.service.act_for_bot(game_id, seats[0], read=table)
            except ServiceError:  # someone else moved this game meanwhile; their commit carries on
                return
            table = await self.publisher.publish(game_id)

    # --- delegated to the parts (what the cogs and buttons call) --------------------------------------------------

    async def new_lobby(
        self, interaction: discord.Interaction, engine_name: str, options: str | None
    ) -> None:
        await self.lobby.new_lobby(interaction, engine_name, options)

    async def start_demo(
        self, interaction, engine_name: str, players: int | None, options: str | None, level: str = "easy"
    ) -> None:
        await self.lobby.start_demo(interaction, engine_name, players, options, level)

    async def lobby_action(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        await self.lobby.lobby_action(interaction, action, game_id)

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.lobby.start(interaction, game_id)

    async def abandon(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.lobby.abandon(interaction, game_id)

    async def table_action(self, interaction: discord.Interaction, action: str, game_id: int) -> None:
        if action == "abandon":
            await self.lobby.abandon(interaction, game_id, confirmed=True)
            return
        if action == "leave":  # the confirmation of /play leave in a running game
            await self.leave_game(interaction, await self.service.get(game_id))
            return
        if action == "turn":
            kept = self.service.kept_game_to_choose(game_id, interaction.user.id)
            if kept is not None:  # no reading: the picker answers at once, or acknowledges first itself
                await self.picker.open(interaction, kept)
                return
        await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledge before any reading
        if action == "hand":
            await self.private.show_hand(interaction, await self.service.get(game_id))
        else:
            await self.picker.open(interaction, await self.service.get(game_id))

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        await self.private.show_hand(interaction, table)

    async def move_by_text(self, interaction: discord.Interaction, table: Table, value: str) -> None:
        await self.picker.move_by_text(interaction, table, value)

    def action_choices(self, table: Table, user_id: int, typed: str, locale: str) -> list[tuple[str, str]]:
        return self.picker.action_choices(table, user_id, typed, locale)

    async def remember_locale(self, interaction: discord.Interaction) -> None:
        await self.private.remember_locale(interaction)

    async def tick(self) -> None:
        await self.clock.tick()

    def lobby_text(self, table: Table) -> str:
        return lobby_text(table)

    # --- what the cogs read and set (so they never talk to the service themselves) ---------------------------------

    async def games_in_channel(
        self, channel_id: int, statuses: tuple[str, ...] = (LOBBY, ACTIVE)
    ) -> list[Table]:
        return await self.service.games_in_channel(channel_id, statuses)

    async def games_of_user(self, user_id: int, statuses: tuple[str, ...] = (LOBBY, ACTIVE)) -> list[Table]:
        return await self.service.games_of_user(user_id, statuses)

    async def recent_games_here(self, channel_id: int, user_id: int) -> list[Table]:
        """For autocomplete: the open games in this channel, or else the user's, from the games used lately."""
        here = await self.service.recent_games_in_channel(channel_id)
        return here or await self.service.recent_games_of_user(user_id)

    async def join(self, game_id: int, user: discord.abc.User) -> Table:
        return await self.service.join(game_id, user.id, user.display_name)

    async def leave_lobby(self, game_id: int, user_id: int) -> Table:
        return await self.service.leave(game_id, user_id)

    async def follow(self, game_id: int, user_id: int, on: bool) -> None:
        await self.service.follow(game_id, user_id, on)

    async def set_pings(self, game_id: int, user_id: int, on: bool) -> None:
        await self.service.set_pings(game_id, user_id, on)

    async def set_ping_preference(self, user_id: int, level: str) -> None:
        await self.service.set_ping_preference(user_id, level)

    async def set_vacation(self, user_id: int, on: bool) -> None:
        for game_id in await self.service.set_vacation(user_id, on):
            await self.publisher.publish(game_id)

    async def set_game_timers(self, game_id: int, **changes: Any) -> Table:
        table = await self.service.set_game_timers(game_id, **changes)
        await self.publisher.publish(game_id)
        return table

    async def settings_for(self, guild_id: int | None) -> Any:
        return await self.service.settings_for(guild_id)

    async def update_settings(self, guild_id: int, **values: Any) -> Any:
        return await self.service.update_settings(guild_id, **values)

    async def leaderboard(self, guild_id: int, engine_name: str) -> list[tuple[int, str, int, int, float]]:
        return await self.service.leaderboard(guild_id, engine_name)

    async def history(self, user_id: int, guild_id: int | None) -> list[Table]:
        return await self.service.history(user_id, guild_id)

    async def show_board(self, interaction: discord.Interaction, table: Table) -> None:
        """The current public board, just for the asker."""
        game = presenter(table.engine.name)
        locale = i18n.norm(str(interaction.locale))
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.pictures.get(table.engine.name, None, table.view(None), table.names, locale)
        status = game.status_text(table.view(None), table.names, locale)
        await interaction.followup.send(
            f"**{game.title(locale)} #{table.id}** {status}",
            file=png_file(png, "board.png"),
            ephemeral=True,
        )

    async def show_sheet(self, interaction: discord.Interaction, game_id: int, seat: int) -> None:
        """One player's whole sheet as everyone may see it, just for the asker."""
        await interaction.response.defer(ephemeral=True, thinking=True)  # acknowledge before any reading
        table = await self.service.get(game_id)
        if table.status not in (ACTIVE, FINISHED):  # a finished game's sheets say how each player scored
            raise ServiceError("game_not_running")
        game = presenter(table.engine.name)
        if not game.has_sheets or not 0 <= seat < len(table.names):
            raise ServiceError("no_such_player")
        locale = i18n.norm(str(interaction.locale))
        png = await self.pictures.sheet(table.engine.name, table.view(None), seat, table.names, locale)
        await interaction.followup.send(
            i18n.t("game.sheet_of", locale, name=table.names[seat], game=game.title(locale), id=table.id),
            file=png_file(png, "sheet.png"),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # --- seats changing hands -------------------------------------------------------------------------------------

    @staticmethod
    def leave_question(interaction: discord.Interaction, table: Table) -> dict[str, Any]:
        """/play leave in a running game asks first: handing one's seat to the built-in player is for good."""
        if table.seat_of(interaction.user.id) is None:
            raise ServiceError("not_a_player")
        mine = i18n.norm(str(interaction.locale))
        ask = i18n.t("game.leave_confirm", mine, game=table.title(mine), id=table.id)
        return {"content": ask, "view": confirm_view(table.id, "leave", mine)}

    async def leave_game(self, interaction: discord.Interaction, table: Table) -> None:
        """Hand one's seat in a running game to the built-in player, as confirmed."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE:
            raise ServiceError("game_not_running")
        mine = i18n.norm(str(interaction.locale))
        locale = table.record.locale
        name = table.names[seat]
        former = table.seat_row(seat)
        table = await self.service.hand_to_bot(table.id, seat, i18n.t("bot.name", locale, number=seat + 1))
        try:  # the confirmation says it is done and loses its button
            await interaction.response.edit_message(content=i18n.t("game.left", mine, name=name), view=None)
        finally:  # what is committed is shown even if this answer fails
            await self.after_commit(table.id)
            await self.private.seat_lost(table, former, voted_out=False)

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
            needed = voters // 2 + 1
            await reply(
                interaction,
                content=i18n.t("game.vote_recorded", locale, name=name, votes=votes, needed=needed),
            )
            await self._tell_vote(table, seat, interaction.user.id, votes, needed)
            return
        public = table.record.locale
        name_for_bot = i18n.t("bot.name", public, number=seat + 1)
        former = table.seat_row(seat)
        table = await self.service.hand_to_bot(table.id, seat, name_for_bot, voted_out=True)
        try:
            await reply(interaction, content=i18n.t("game.voted_out", locale, name=name))
        finally:  # what is committed is shown even if this answer fails
            await self.after_commit(table.id)
            await self.private.seat_lost(table, former, voted_out=True)

    async def _tell_vote(self, table: Table, seat: int, voter: int, votes: int, needed: int) -> None:
        """A vote to replace a player is told in the game's thread, so the others know it is open and the player
        it is about can answer it by moving: a review's votes went unseen until one passed. The player is pinged
        unless they want no pings or muted the game."""
        user = table.user_at(seat)
        assert user is not None
        wants = bool(await self.service.pingable(table, [user]))
        voter_seat = table.seat_of(voter)
        text = i18n.t(
            "game.vote_public",
            table.record.locale,
            voter=table.names[voter_seat] if voter_seat is not None else "",
            mention=f"<@{user}>" if wants else table.names[seat],
            name=table.names[seat],
            votes=votes,
            needed=needed,
        )
        channel = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        pinged = [discord.Object(user)] if wants else []
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=pinged))
        except discord.HTTPException as error:  # the vote stands; the voter was told
            log.info("game %s: vote not told in the thread: %s", table.id, error)

    async def substitute(self, interaction: discord.Interaction, table: Table) -> None:
        user = interaction.user
        old_names = table.names
        table = await self.service.substitute(table.id, user.id, user.display_name, None)
        seat = table.seat_of(user.id)
        assert seat is not None
        locale = i18n.norm(str(interaction.locale))
        text = i18n.t("game.substituted", locale, mention=user.mention, seat=seat + 1, old=old_names[seat])
        try:
            await reply(interaction, content=text)
        finally:  # the board says so and the seat's private view goes to the newcomer, whatever this answer does
            await self.after_commit(table.id)

    # --- undo -----------------------------------------------------------------------------------------------------

    async def request_undo(self, interaction: discord.Interaction, table: Table) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        table, outcome = await self.service.request_undo(table.id, interaction.user.id)
        seat = table.seat_of(interaction.user.id)
        assert seat is not None
        locale = table.record.locale
        if outcome == "undone":
            mine = i18n.norm(str(interaction.locale))
            try:  # what was taken back, and the player's choices again
                await interaction.edit_original_response(
                    **await self.picker.fresh(table, seat, mine, [self._undone_text(table, mine, own=True)])
                )

                async def shown_already(now: Table) -> bool:  # so no ping or DM says so again
                    return now.version == table.version

                self.publisher.carry_on(table.id, seat, shown_already)
            finally:  # what is committed is shown even if this answer fails
                await self.after_commit(table.id)
            return
        others = [s for s in table.seats if s.seat != seat and not s.is_bot]
        text = self._undo_asked_text(table, locale, ", ".join(f"<@{s.user_id}>" for s in others))
        channel = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        prefs = await self.service.ping_preferences([s.user_id for s in others])
        pinged = [discord.Object(s.user_id) for s in others if prefs[s.user_id] == "all"]
        await channel.send(
            text, view=undo_view(table, locale), allowed_mentions=discord.AllowedMentions(users=pinged)
        )
        mine = i18n.norm(str(interaction.locale))  # the asker's own answer, in their language
        asked = self._undo_asked_text(table, mine, ", ".join(s.display_name for s in others))
        await interaction.followup.send(
            asked, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    async def answer_undo(
        self, interaction: discord.Interaction, game_id: int, version: int, approve: bool
    ) -> None:
        table = await self.service.get(game_id)
        if table.version != version or not table.record.undo_request:
            raise ServiceError("stale_plain")
        asker = table.user_at(table.record.undo_request["seat"])
        table, outcome = await self.service.answer_undo(game_id, interaction.user.id, approve)
        locale = table.record.locale
        seat = table.seat_of(interaction.user.id)
        if outcome == "waiting":  # the request shows who approved and whom it still waits for
            request = table.record.undo_request or {}
            approved = request.get("approvals", [])
            missing = [
                s
                for s in table.seats
                if s.seat != request.get("seat") and not s.is_bot and s.seat not in approved
            ]
            text = self._undo_asked_text(table, locale, ", ".join(f"<@{s.user_id}>" for s in missing))
            names = [table.names[s] for s in approved]
            await interaction.response.edit_message(
                content=f"{text}\n{i18n.t('game.undo_approved_by', locale, names=names)}",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        if outcome == "refused":
            name = table.names[seat] if seat is not None else "?"
            await interaction.response.edit_message(
                content=i18n.t("game.undo_refused", locale, name=name), view=None
            )
            # The asker is told with a ping (an edit notifies nobody), unless they asked for none here or at all.
            if await self.service.pingable(table, [asker]):
                told = i18n.t("game.undo_refused_asker", locale, mention=f"<@{asker}>", name=name)
                await interaction.followup.send(told, allowed_mentions=discord.AllowedMentions(users=True))
            return
        try:
            await interaction.response.edit_message(content=self._undone_text(table, locale), view=None)
        finally:  # what is committed is shown even if this answer fails
            await self.after_commit(table.id)

    def _undo_asked_text(self, table: Table, locale: str, names: str) -> str:
        """The request for approval, saying what would be taken back (a review's players were asked to approve
        "their last move" and told what it was only once it was undone)."""
        request = table.record.undo_request
        seat = request["seat"]
        params = {"events": request["events"], "seat": seat, "name": table.names[seat], "names": names}
        return self.publisher.note_text(table, {"key": "game.undo_asked", "params": params}, locale)

    def _undone_text(self, table: Table, locale: str, own: bool = False) -> str:
        """What the undo just committed took back, in words: its note for the board, in `locale`; `own`: told
        to the player who took it back (a review's was told "Frank took back their last move")."""
        note = next(n for n in reversed(table.record.notes or []) if n["key"] == "game.undone_what")
        return self.publisher.note_text(table, {**note, "key": "game.undone_own"} if own else note, locale)

    # --- the record -----------------------------------------------------------------------------------------------

    async def move_log(self, table: Table, locale: str, viewer: int | None, limit: int = 15) -> str:
        """The recent moves in words, as `viewer` may see them."""
        game = presenter(table.engine.name)
        view_data = table.view(viewer) if table.state is not None else {}
        title = f"**{i18n.t('log.title', locale, game=game.title(locale), id=table.id)}**"
        lines: list[str] = []
        for move in await self.service.moves(table.id, limit=limit):
            seen = [e for e in move.events if visible_to(e, viewer)]
            # each seat's holder then, should it have changed hands since
            holders = table.holders_at(move.version)
            names = [name for name, _ in holders]
            texts = [game.event_text(e, names, view_data, locale) for e in game.condensed(seen)]
            if move.action.get("type") == "undo":
                texts = [i18n.t("game.undone", locale, name=names[move.seat])]
            texts = [t for t in texts if t]
            if texts:
                # A built-in player's move in a person's seat (a missed deadline); in its own seat it says nothing.
                for_them = move.user_id == 0 and holders[move.seat][1]
                by_host = f" {i18n.t('log.host_moved', locale)}" if for_them else ""
                told = i18n.clip(" ".join(texts), LOG_LINE_MAX - len(by_host))
                lines.append(f"`{move.version}` {told}{by_host}")
        if not lines:
            lines.append(i18n.t("log.empty", locale))
        # The newest moves matter most: when the message would run over, the oldest lines give way, whole.
        while len(lines) > 1 and len(title) + sum(len(line) + 1 for line in lines) > MAX_CONTENT:
            lines.pop(0)
        return "\n".join([title, *lines])

    async def export(self, table: Table, locale: str) -> tuple[str, bytes]:
        """A finished game's full record, with each move's stored state; the moves are replayed from the seed
        through today's rules and the record says whether that replay reaches the stored final state."""
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
            "replay_matches": (await self.service.replay(table))[0] == table.state,
        }
        summary = i18n.t(
            "export.summary",
            locale,
            game=table.title(locale),
            id=table.id,
            players=", ".join(f"{n} {sc}" for n, sc in zip(table.names, outcome.scores, strict=True)),
            winners=", ".join(table.names[w] for w in outcome.winners),
            moves=len(moves),
        )
        return summary, json.dumps(record, ensure_ascii=False, indent=1).encode()

    # --- finding games --------------------------------------------------------------------------------------------

    async def game_here(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        statuses=(LOBBY, ACTIVE),
        recent: bool = False,
        to_move: bool = False,
    ) -> Table:
        """The game a command names, or the one game here. `recent`: from the games this process used lately,
        without a database round trip where it can (autocomplete); it may be out of date, so a command never
        asks for it. `to_move`: of several games of the user here, the one where they have something to do."""
        service = self.service
        if game_id is not None:
            table = await (service.recent_game(game_id) if recent else service.get(game_id))
            if table.status not in statuses:
                raise ServiceError(_not_now(table.status, statuses))
            return table
        read = service.recent_games_in_channel if recent else service.games_in_channel
        tables = await read(interaction.channel_id or 0, statuses)
        in_thread = [t for t in tables if t.record.thread_id == interaction.channel_id]
        candidates = in_thread or tables
        if not candidates:
            raise ServiceError("no_game_here")
        if len(candidates) > 1:
            mine = [t for t in candidates if t.seat_of(interaction.user.id) is not None]
            if to_move and len(mine) > 1:
                user = interaction.user.id
                mine = [t for t in mine if (seat := t.seat_of(user)) is not None and choices(t, seat)] or mine
            if len(mine) == 1:
                return mine[0]
            raise ServiceError("several_games_here")
        return candidates[0]


def _not_now(status: str, wanted: tuple[str, ...]) -> str:
    """Why a command that needs a game in one of `wanted` cannot use one in `status`."""
    if status == LOBBY:
        return "game_not_started"
    if status == ACTIVE:
        return "lobby_closed" if LOBBY in wanted else "game_not_over"
    return "game_not_running"
