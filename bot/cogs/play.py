"""/play: lobbies, moves, private hands and boards."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import i18n
from bot.games import presenter, presenters
from bot.lobby import Refusal, parse_options
from bot.picker import CHOICE_NAME_MAX, NOTHING_TO_DO
from bot.service import ACTIVE, BOT_LEVELS, FINISHED, LOBBY, PING_LEVELS, ServiceError, deadline_at
from bot.ui import answer_soon, turns_view


def _desc(key: str) -> _:
    return _(i18n.t(key, "en"), key=key)


def _game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=_(p.title("en"), key=f"{name}.title"), value=name)
        for name, p in sorted(presenters().items())
    ]


def _level_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_desc(f"bot_level.{level}"), value=level) for level in BOT_LEVELS]


def _most_players() -> int:
    return max(p.engine.max_players for p in presenters().values())


class PlayCog(commands.Cog):
    play = app_commands.Group(name="play", description=_desc("play.description"))

    def __init__(self, bot) -> None:
        self.bot = bot

    @property
    def host(self):
        return self.bot.host

    async def _game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        locale = i18n.norm(str(interaction.locale))
        tables = await self.host.recent_games_here(interaction.channel_id or 0, interaction.user.id)
        choices = []
        for table in tables[:25]:
            status = i18n.t("play.mine.lobby", locale) if table.status == LOBBY else ""
            label = f"{table.title(locale)} #{table.id}" + (f" ({status})" if status else "")
            if current.strip() in label:
                choices.append(app_commands.Choice(name=label[:100], value=table.id))
        return choices

    @play.command(name="new", description=_desc("play.new.description"))
    @app_commands.describe(game=_desc("option.game"), options=_desc("option.options"))
    @app_commands.choices(game=_game_choices())
    async def new(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], options: str | None = None
    ):
        self._check_options(interaction, game.value, options)
        await self.host.new_lobby(interaction, game.value, options)

    @play.command(name="demo", description=_desc("play.demo.description"))
    @app_commands.describe(
        game=_desc("option.game"),
        players=_desc("option.players"),
        options=_desc("option.options"),
        level=_desc("option.bot_level"),
    )
    @app_commands.choices(game=_game_choices(), level=_level_choices())
    async def demo(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        players: app_commands.Range[int, 1, _most_players()] | None = None,
        options: str | None = None,
        level: app_commands.Choice[str] | None = None,
    ):
        self._check_options(interaction, game.value, options)
        strength = level.value if level else "easy"
        await self.host.start_demo(interaction, game.value, players, options, strength)

    @staticmethod
    def _check_options(interaction: discord.Interaction, game: str, options: str | None) -> None:
        """An unknown option or value is refused with the game's real options, before anything is created."""
        presenter(game).check_options(parse_options(options, i18n.norm(str(interaction.locale))))

    @new.autocomplete("options")
    @demo.autocomplete("options")
    async def _options_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        if game not in presenters():
            return []
        locale = i18n.norm(str(interaction.locale))
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in presenter(game).option_suggestions(current, locale)
        ]

    @play.command(name="join", description=_desc("play.join.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def join(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._join(interaction, game))

    async def _join(self, interaction: discord.Interaction, game: int | None) -> dict:
        if game is None:  # the one open lobby here that the user is not in yet
            lobbies = await self.host.games_in_channel(interaction.channel_id or 0, (LOBBY,))
            open_to_me = [t for t in lobbies if t.seat_of(interaction.user.id) is None]
            if len(open_to_me) > 1:
                raise ServiceError("several_games_here")
            game = open_to_me[0].id if open_to_me else None
        table = await self.host.game_here(interaction, game, statuses=(LOBBY,))
        table = await self.host.join(table.id, interaction.user)
        await self._refresh_lobby(table)
        locale = i18n.norm(str(interaction.locale))
        return {"content": i18n.t("lobby.joined", locale, game=table.title(locale), id=table.id)}

    @play.command(name="leave", description=_desc("play.leave.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def leave(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._leave(interaction, game))

    async def _leave(self, interaction: discord.Interaction, game: int | None) -> dict:
        table = await self.host.game_here(interaction, game)
        if table.status == ACTIVE:
            return self.host.leave_question(interaction, table)
        table = await self.host.leave_lobby(table.id, interaction.user.id)
        await self._refresh_lobby(table)
        locale = i18n.norm(str(interaction.locale))
        return {"content": i18n.t("lobby.left", locale, game=table.title(locale), id=table.id)}

    async def _refresh_lobby(self, table) -> None:
        from bot.ui import lobby_view

        if table.record.lobby_message_id:
            message = self.bot.get_partial_messageable(table.record.channel_id).get_partial_message(
                table.record.lobby_message_id
            )
            await message.edit(
                content=self.host.lobby_text(table), view=lobby_view(table, table.record.locale)
            )

    @play.command(name="start", description=_desc("play.start.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def start(self, interaction: discord.Interaction, game: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)  # dealing waits for the database
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
        await interaction.response.defer(ephemeral=True, thinking=True)  # before reading: a busy moment waits
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,), to_move=True)
        await self.host.move_by_text(interaction, table, action)

    @move.autocomplete("action")
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str):
        game = getattr(interaction.namespace, "game", None)
        locale = i18n.norm(str(interaction.locale))
        try:
            table = await self.host.game_here(
                interaction, game, statuses=(ACTIVE,), recent=True, to_move=True
            )
        except ServiceError as error:  # an empty list would say nothing: say why there is nothing to choose
            text = i18n.clip(self.host.explain(error, locale), CHOICE_NAME_MAX)
            return [app_commands.Choice(name=text, value=NOTHING_TO_DO)]
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
        """The board of the game here, or of the one named; a finished game's final board too, named or asked
        for in its own thread."""
        if game is not None:
            table = await self.host.game_here(interaction, game, statuses=(ACTIVE, FINISHED))
        else:
            try:
                table = await self.host.game_here(interaction, None, statuses=(ACTIVE,))
            except ServiceError as error:
                ended = await self.host.service.games_in_channel(interaction.channel_id or 0, (FINISHED,))
                own = [t for t in ended if t.record.thread_id == interaction.channel_id]
                if error.code != "no_game_here" or len(own) != 1:
                    raise
                table = own[0]
        await self.host.show_board(interaction, table)

    @play.command(name="mine", description=_desc("play.mine.description"))
    async def mine(self, interaction: discord.Interaction):
        await answer_soon(interaction, self._mine(interaction))

    async def _mine(self, interaction: discord.Interaction) -> dict:
        locale = i18n.norm(str(interaction.locale))
        tables = await self.host.games_of_user(interaction.user.id)
        if interaction.guild_id is not None:
            tables = [t for t in tables if t.record.guild_id == interaction.guild_id]
        lines, waiting = [], []
        away = bool(await self.host.service.on_vacation([interaction.user.id]))
        for table in tables:
            seat = table.seat_of(interaction.user.id)
            if table.status == LOBBY:
                state = i18n.t("play.mine.lobby", locale)
            elif seat in table.to_act():
                state = "**" + i18n.t("play.mine.your_turn", locale) + "**"
                due = (
                    None if away else deadline_at(table, await self.host.settings_for(table.record.guild_id))
                )
                if due is not None:
                    state += " " + i18n.deadline(due, locale)
                waiting.append(table)
            else:
                state = i18n.t("play.mine.waiting", locale)
            where = f"<#{table.record.thread_id or table.record.channel_id}>"
            lines.append(
                i18n.t(
                    "play.mine.line",
                    locale,
                    game=table.title(locale),
                    id=table.id,
                    where=where,
                    state=state,
                )
            )
        text = "\n".join(lines) if lines else i18n.t("play.mine.none", locale)
        if away:
            text = i18n.t("play.mine.away", locale) + "\n" + text
        view = turns_view(waiting, locale)  # one click on from the list to the move
        return {"content": text[:2000], "view": view or discord.utils.MISSING}

    @play.command(name="undo", description=_desc("play.undo.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def undo(self, interaction: discord.Interaction, game: int | None = None):
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.request_undo(interaction, table)

    @play.command(name="log", description=_desc("play.log.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def log(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._log(interaction, game))

    async def _log(self, interaction: discord.Interaction, game: int | None) -> dict:
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE, FINISHED))
        locale = i18n.norm(str(interaction.locale))
        return {"content": await self.host.move_log(table, locale, table.seat_of(interaction.user.id))}

    @play.command(name="export", description=_desc("play.export.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def export(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._export(interaction, game))

    async def _export(self, interaction: discord.Interaction, game: int | None) -> dict:
        # a running game is found too, to be told why it cannot be exported yet
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE, FINISHED))
        summary, data = await self.host.export(table, i18n.norm(str(interaction.locale)))
        file = discord.File(io.BytesIO(data), filename=f"{table.engine.name}-{table.id}.json")
        return {"content": summary, "file": file}

    @play.command(name="follow", description=_desc("play.follow.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def follow(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._follow(interaction, game))

    async def _follow(self, interaction: discord.Interaction, game: int | None) -> dict:
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.follow(table.id, interaction.user.id, True)
        locale = i18n.norm(str(interaction.locale))
        if table.record.thread_id and table.record.thread_id != table.record.channel_id:
            thread = self.bot.get_channel(table.record.thread_id)
            if isinstance(thread, discord.Thread):
                await thread.add_user(interaction.user)
        return {"content": i18n.t("game.following", locale, game=table.title(locale), id=table.id)}

    @play.command(name="unfollow", description=_desc("play.unfollow.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def unfollow(self, interaction: discord.Interaction, game: int | None = None):
        await answer_soon(interaction, self._unfollow(interaction, game))

    async def _unfollow(self, interaction: discord.Interaction, game: int | None) -> dict:
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.follow(table.id, interaction.user.id, False)
        locale = i18n.norm(str(interaction.locale))
        return {"content": i18n.t("game.unfollowed", locale, game=table.title(locale), id=table.id)}

    @play.command(name="pings", description=_desc("play.pings.description"))
    @app_commands.describe(on=_desc("option.on"), game=_desc("option.game_id"))
    async def pings(self, interaction: discord.Interaction, on: bool, game: int | None = None):
        await answer_soon(interaction, self._pings(interaction, on, game))

    async def _pings(self, interaction: discord.Interaction, on: bool, game: int | None) -> dict:
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.set_pings(table.id, interaction.user.id, on)
        locale = i18n.norm(str(interaction.locale))
        key = "game.pings_on" if on else "game.pings_off"
        return {"content": i18n.t(key, locale, game=table.title(locale), id=table.id)}

    @play.command(name="notify", description=_desc("play.notify.description"))
    @app_commands.describe(level=_desc("option.level"))
    @app_commands.choices(
        level=[app_commands.Choice(name=_desc(f"notify.{level}"), value=level) for level in PING_LEVELS]
    )
    async def notify(self, interaction: discord.Interaction, level: app_commands.Choice[str]):
        """Which pings you want, in every game: all, only when it is your move, or none."""
        await answer_soon(interaction, self._notify(interaction, level.value))

    async def _notify(self, interaction: discord.Interaction, level: str) -> dict:
        await self.host.set_ping_preference(interaction.user.id, level)
        locale = i18n.norm(str(interaction.locale))
        key = "game.notify_set_none" if level == "none" else "game.notify_set"
        return {"content": i18n.t(key, locale, level=i18n.t(f"notify.{level}", locale))}

    @play.command(name="vacation", description=_desc("play.vacation.description"))
    @app_commands.describe(on=_desc("option.on"))
    async def vacation(self, interaction: discord.Interaction, on: bool):
        await answer_soon(interaction, self._vacation(interaction, on))

    async def _vacation(self, interaction: discord.Interaction, on: bool) -> dict:
        await self.host.set_vacation(interaction.user.id, on)
        locale = i18n.norm(str(interaction.locale))
        return {"content": i18n.t("game.vacation_on" if on else "game.vacation_off", locale)}

    @play.command(name="kick", description=_desc("play.kick.description"))
    @app_commands.describe(player=_desc("option.player"), game=_desc("option.game_id"))
    async def kick(self, interaction: discord.Interaction, player: discord.User, game: int | None = None):
        await interaction.response.defer(ephemeral=True, thinking=True)  # a vote waits for the database
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.vote_out(interaction, table, player.id)

    @play.command(name="sub", description=_desc("play.sub.description"))
    @app_commands.describe(game=_desc("option.game_id"))
    async def sub(self, interaction: discord.Interaction, game: int | None = None):
        await interaction.response.defer(
            ephemeral=True, thinking=True
        )  # taking a seat waits for the database
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE,))
        await self.host.substitute(interaction, table)

    @play.command(name="timers", description=_desc("play.timers.description"))
    @app_commands.describe(
        remind_after=_desc("option.remind_after"),
        remind_every=_desc("option.remind_every"),
        remind_max=_desc("option.remind_max"),
        deadline=_desc("option.deadline"),
        game=_desc("option.game_id"),
    )
    async def timers(
        self,
        interaction: discord.Interaction,
        remind_after: app_commands.Range[float, 0.25, 720.0] | None = None,
        remind_every: app_commands.Range[float, 0.25, 720.0] | None = None,
        remind_max: app_commands.Range[int, 0, 20] | None = None,
        deadline: app_commands.Range[float, 0.0, 2160.0] | None = None,
        game: int | None = None,
    ):
        changes = {
            k: v
            for k, v in {
                "remind_after_hours": remind_after,
                "remind_every_hours": remind_every,
                "remind_max": remind_max,
            }.items()
            if v is not None
        }
        if deadline is not None:
            changes["deadline_hours"] = deadline_hours(deadline, i18n.norm(str(interaction.locale)))
        await answer_soon(interaction, self._timers(interaction, game, changes))

    async def _timers(self, interaction: discord.Interaction, game: int | None, changes: dict) -> dict:
        table = await self.host.game_here(interaction, game, statuses=(ACTIVE, LOBBY))
        locale = i18n.norm(str(interaction.locale))
        if changes:
            if table.record.host_id != interaction.user.id:
                raise ServiceError("not_host")
            table = await self.host.set_game_timers(table.id, **changes)
        settings = await self.host.settings_for(table.record.guild_id)
        record = table.record

        def pick(own, default):
            return default if own is None else own

        limit = pick(record.deadline_hours, settings.deadline_hours)
        text = i18n.t(
            "game.timers",
            locale,
            game=table.title(locale),
            id=table.id,
            after=pick(record.remind_after_hours, settings.remind_after_hours),
            every=pick(record.remind_every_hours, settings.remind_every_hours),
            max=pick(record.remind_max, settings.remind_max),
            deadline=i18n.t("game.hours", locale, hours=limit)
            if limit
            else i18n.t("game.no_deadline", locale),
        )
        return {"content": text}

    @play.command(name="stats", description=_desc("play.stats.description"))
    @app_commands.describe(game=_desc("option.game"))
    @app_commands.choices(game=_game_choices())
    async def stats(self, interaction: discord.Interaction, game: app_commands.Choice[str]):
        await answer_soon(interaction, self._stats(interaction, game))

    async def _stats(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> dict:
        locale = i18n.norm(str(interaction.locale))
        title = presenters()[game.value].title(locale)
        rows = await self.host.leaderboard(interaction.guild_id or 0, game.value)
        if not rows:
            text = i18n.t("stats.none", locale, game=title)
        else:
            lines = [f"**{i18n.t('stats.title', locale, game=title)}**"]
            for rank, (_, name, games, wins, average) in enumerate(rows[:20], start=1):
                lines.append(
                    i18n.t(
                        "stats.line",
                        locale,
                        rank=rank,
                        name=name,
                        wins=wins,
                        games=games,
                        average=f"{average:.1f}",
                    )
                )
            text = "\n".join(lines)
        return {"content": text[:2000]}

    @play.command(name="history", description=_desc("play.history.description"))
    @app_commands.describe(user=_desc("option.user"))
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None):
        await answer_soon(interaction, self._history(interaction, user or interaction.user))

    async def _history(self, interaction: discord.Interaction, who: discord.abc.User) -> dict:
        locale = i18n.norm(str(interaction.locale))
        tables = await self.host.history(who.id, interaction.guild_id)
        if not tables:
            return {"content": i18n.t("history.none", locale)}
        lines = [f"**{i18n.t('history.title', locale, name=who.display_name)}**"]
        for table in tables:
            seat = next(s for s in table.seats if s.user_id == who.id)
            result = i18n.t("history.won" if seat.won else "history.lost", locale)
            score = "—" if seat.final_score is None else f"{seat.final_score:g}"  # 12, not 12.0
            lines.append(
                i18n.t(
                    "history.line", locale, game=table.title(locale), id=table.id, result=result, score=score
                )
            )
        # The newest game's results picture: scores by category and over the game.
        latest = await self.host.publisher.results_file(tables[0], locale)
        return {"content": "\n".join(lines)[:2000], "file": latest}

    join.autocomplete("game")(_game_autocomplete)
    leave.autocomplete("game")(_game_autocomplete)
    start.autocomplete("game")(_game_autocomplete)
    abandon.autocomplete("game")(_game_autocomplete)
    move.autocomplete("game")(_game_autocomplete)
    hand.autocomplete("game")(_game_autocomplete)
    board.autocomplete("game")(_game_autocomplete)
    undo.autocomplete("game")(_game_autocomplete)
    log.autocomplete("game")(_game_autocomplete)
    export.autocomplete("game")(_game_autocomplete)
    follow.autocomplete("game")(_game_autocomplete)
    unfollow.autocomplete("game")(_game_autocomplete)
    pings.autocomplete("game")(_game_autocomplete)
    kick.autocomplete("game")(_game_autocomplete)
    sub.autocomplete("game")(_game_autocomplete)
    timers.autocomplete("game")(_game_autocomplete)


# A deadline is no sooner than a first reminder may come (the reminders' least): a review's 0.0001 h handed
# turns to the built-in player at once.
MIN_DEADLINE_HOURS = 0.25


def deadline_hours(value: float, locale: str) -> float | None:
    """A deadline option's hours: 0 for none, else at least MIN_DEADLINE_HOURS."""
    if 0 < value < MIN_DEADLINE_HOURS:
        raise Refusal(i18n.t("error.deadline_too_short", locale, min=MIN_DEADLINE_HOURS))
    return value or None
