"""Buttons and select menus. Every component is a DynamicItem whose custom_id carries what it acts on, so the
components of every message keep working after a restart, and a click on an outdated one is recognised as such."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot import i18n
from bot.chooser import encode_path

if TYPE_CHECKING:
    from bot.host import GameHost
    from bot.service import Table

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_BUTTONS = 20  # four rows of five; the fifth row is kept for "Back"
BUTTON_LABEL = 80  # the longest label Discord shows on a button (a menu option's: 100)
OPTIONS_PER_SELECT = 25
MAX_SELECTS = 4
# seconds since Discord sent an interaction: Discord forgets one not acknowledged within 3 s
ANSWER_WITHIN = 1.5


def _host(interaction: discord.Interaction) -> GameHost:
    return interaction.client.host  # type: ignore[attr-defined]


async def _run(item: discord.ui.Item[Any], interaction: discord.Interaction, work: Any) -> None:
    """Run a click handler; turn refusals into an ephemeral answer and anything else into an apology."""
    host = _host(interaction)
    try:
        await work
    except Exception as error:  # noqa: BLE001 — every failure must still answer the user
        locale = i18n.norm(str(interaction.locale))
        if not _is_expected(error):
            log.exception("component handler failed")
        try:
            await host.refuse(interaction, host.explain(error, locale))
        except discord.HTTPException:
            log.warning("could not tell the user about %r", error)
    finally:
        let_go(interaction, item)


async def reply(interaction: discord.Interaction, **message: Any) -> None:
    """An ephemeral answer, whether or not the interaction was acknowledged already."""
    if interaction.response.is_done():
        await interaction.followup.send(**message, ephemeral=True)
    else:
        await interaction.response.send_message(**message, ephemeral=True)


async def _in_time(interaction: discord.Interaction, making: Awaitable[T]) -> asyncio.Future[T]:
    """`making` under way, waited for until ANSWER_WITHIN after Discord sent the interaction (or until done)."""
    made = asyncio.ensure_future(making)
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    await asyncio.wait({made}, timeout=max(ANSWER_WITHIN - waited, 0))
    return made


async def update_soon(interaction: discord.Interaction, making: Awaitable[dict[str, Any]]) -> None:
    """A click's new look for the message it was made on, when making it waits on the database: as the
    acknowledgement when ready in time (see `_in_time`), else as an edit after acknowledging it."""
    update = await _in_time(interaction, making)
    if not update.done():
        await interaction.response.defer()
        await interaction.edit_original_response(**await update)
    else:
        await interaction.response.edit_message(**update.result())


async def answer_soon(
    interaction: discord.Interaction,
    making: Awaitable[T],
    public: bool = False,
    shown: Callable[[T], dict[str, Any]] | None = None,
) -> T:
    """An answer that waits on the database (or on Discord): sent as the acknowledgement when it is ready in time
    (see `_in_time`: one call to Discord), else after acknowledging it, so a busy moment delays the answer but
    never loses it. `making` gives the message's parts, or what `shown` makes them from (which is returned); a
    refusal it raises is answered by the caller's error handler, before or after the acknowledgement (publicly,
    after a public one)."""
    answer = await _in_time(interaction, making)
    send = interaction.response.send_message
    if not answer.done():
        await interaction.response.defer(ephemeral=not public, thinking=True)
        send = interaction.followup.send
    made = await answer
    await send(**(shown(made) if shown else made), ephemeral=not public)  # type: ignore[arg-type]
    return made


def let_go(interaction: discord.Interaction, item: discord.ui.Item[Any] | None = None) -> None:
    """Break the reference cycles discord.py leaves once an interaction is answered, so that it and everything it
    carries (member, message, components) is freed at once rather than by Python's full collections, which walk
    every object the bot keeps and hold the event loop meanwhile. An interaction and its response point at each
    other; a clicked component's view, which discord.py rebuilds from the clicked message, and its items too."""
    with contextlib.suppress(AttributeError):  # never asked for its response
        del interaction._cs_response
    if item is not None and item.view is not None:
        item.view.clear_items()


def _is_expected(error: Exception) -> bool:
    from bot.host import Refusal
    from bot.service import ServiceError
    from engines.base import IllegalAction

    return isinstance(error, IllegalAction | ServiceError | Refusal)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"(?P<scope>lobby|table):(?P<action>[a-z]+):(?P<game>\d{1,9})",
):
    """A button about one game: in its lobby (join, leave, bot, hardbot, nobot, start, abandon) or at its table
    (turn, hand, and the confirmation of abandoning it)."""

    def __init__(
        self, scope: str, action: str, game_id: int, label: str = "", style=discord.ButtonStyle.secondary
    ):
        custom_id = f"{scope}:{action}:{game_id}"
        super().__init__(discord.ui.Button(label=label or action, style=style, custom_id=custom_id))
        self.scope, self.action, self.game_id = scope, action, game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(match["scope"], match["action"], int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        if self.scope == "lobby":
            await _run(self, interaction, host.lobby_action(interaction, self.action, self.game_id))
        else:
            await _run(self, interaction, host.table_action(interaction, self.action, self.game_id))


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mv:(?P<game>\d{1,9}):(?P<token>\d{1,10}):(?P<path>[\d.]{0,60})",
):
    """One option of the move picker; its custom_id holds the whole path of choices it completes."""

    def __init__(
        self, game_id: int, token: int, path: str, label: str = "", style=discord.ButtonStyle.primary
    ):
        super().__init__(
            discord.ui.Button(label=label or "·", style=style, custom_id=f"mv:{game_id}:{token}:{path}")
        )
        self.game_id, self.token, self.path = game_id, token, path

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["game"]), int(match["token"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _run(
            self,
            interaction,
            _host(interaction).picker.choose(interaction, self.game_id, self.token, self.path),
        )


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mvs:(?P<game>\d{1,9}):(?P<token>\d{1,10}):(?P<path>[\d.]{0,60}):(?P<offset>\d{1,4})",
):
    """The move picker's select menu, for steps with more options than buttons fit; values are option indexes."""

    def __init__(self, game_id: int, token: int, path: str, offset: int, options=None, placeholder: str = ""):
        select = discord.ui.Select(
            custom_id=f"mvs:{game_id}:{token}:{path}:{offset}",
            options=options or [discord.SelectOption(label="·", value="0")],
            placeholder=placeholder or None,
        )
        super().__init__(select)
        self.game_id, self.token, self.path = game_id, token, path

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["game"]), int(match["token"]), match["path"], int(match["offset"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # discord.py fills in what the user picked before calling back
        if not values or not values[0].isdigit():
            path = self.path
        else:
            path = f"{self.path}.{values[0]}" if self.path else values[0]
        await _run(
            self, interaction, _host(interaction).picker.choose(interaction, self.game_id, self.token, path)
        )


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"undo:(?P<answer>yes|no):(?P<game>\d{1,9}):(?P<version>\d{1,9})",
):
    """Approve or refuse another player's request to take back a move."""

    def __init__(self, answer: str, game_id: int, version: int, label: str = "") -> None:
        style = discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label or answer, style=style, custom_id=f"undo:{answer}:{game_id}:{version}"
            )
        )
        self.answer, self.game_id, self.version = answer, game_id, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(match["answer"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        host = _host(interaction)
        await _run(
            self, interaction, host.answer_undo(interaction, self.game_id, self.version, self.answer == "yes")
        )


class SheetSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"sheet:(?P<game>\d{1,9})",
):
    """On the board of a game whose table shows each player in brief: pick a player to see their whole sheet,
    privately. Values are seats."""

    def __init__(self, game_id: int, options=None, placeholder: str = ""):
        select = discord.ui.Select(
            custom_id=f"sheet:{game_id}",
            options=options or [discord.SelectOption(label="·", value="0")],
            placeholder=placeholder or None,
        )
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str], /):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        seat = int(values[0]) if values and values[0].isascii() and values[0].isdigit() else -1
        await _run(self, interaction, _host(interaction).show_sheet(interaction, self.game_id, seat))


DYNAMIC_ITEMS = (GameButton, ChoiceButton, ChoiceSelect, UndoButton, SheetSelect)


class Components(discord.ui.View):
    """A message's components. Every one is a DynamicItem, found again by its custom_id among DYNAMIC_ITEMS when
    clicked, so discord.py need not keep the view once it is sent; told nothing, it keeps each ephemeral one for 15
    minutes with a task waiting to expire it (some 1,600 views, 20,000 buttons and 1,600 tasks at 200 games)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:  # what discord.py asks before keeping a view it sends
        return True

    def add_item(self, item: discord.ui.Item[Any]) -> Components:
        # An item points back at its view, a cycle only Python's full collections free. Nothing asks a sent
        # item for its view (a click makes a new item from the custom_id), so the item forgets it.
        super().add_item(item)
        item._update_view(None)
        return self


def undo_view(table: Table, locale: str) -> discord.ui.View:
    view = Components()
    view.add_item(UndoButton("yes", table.id, table.version, i18n.t("game.undo_approve", locale)))
    view.add_item(UndoButton("no", table.id, table.version, i18n.t("game.undo_refuse", locale)))
    return view


def lobby_view(table: Table, locale: str) -> discord.ui.View:
    view = Components()
    full = len(table.seats) >= table.engine.max_players  # no seat left to join or to give a built-in player
    seating = [
        GameButton("lobby", "join", table.id, i18n.t("lobby.join", locale), discord.ButtonStyle.success),
        GameButton("lobby", "leave", table.id, i18n.t("lobby.leave", locale)),
        GameButton("lobby", "bot", table.id, i18n.t("lobby.add_bot", locale)),
        GameButton("lobby", "hardbot", table.id, i18n.t("lobby.add_hard_bot", locale)),
    ]
    for button in seating:
        button.item.disabled = full and button.action != "leave"
        view.add_item(button)
    if any(seat.is_bot for seat in table.seats):  # the host may take back a built-in player seated too many
        view.add_item(GameButton("lobby", "nobot", table.id, i18n.t("lobby.remove_bot", locale)))
    view.add_item(
        GameButton("lobby", "start", table.id, i18n.t("lobby.start", locale), discord.ButtonStyle.primary)
    )
    view.add_item(
        GameButton("lobby", "abandon", table.id, i18n.t("lobby.abandon", locale), discord.ButtonStyle.danger)
    )
    return view


def confirm_view(game_id: int, action: str, locale: str) -> discord.ui.View:
    """The one button that confirms what cannot be taken back: "abandon" (the game, for everyone at its table)
    or "leave" (one's seat, to the built-in player)."""
    view = Components()
    label = i18n.t(f"game.{action}_button", locale)
    view.add_item(GameButton("table", action, game_id, label, discord.ButtonStyle.danger))
    return view


def board_view(
    table: Table, locale: str, has_private: bool, has_sheets: bool = False, finished: bool = False
) -> discord.ui.View:
    """The board's components: a turn and a hand while the game runs; the players' sheets while it runs and
    once it is over (how each scored is read on them)."""
    view = Components()
    if not finished:
        view.add_item(turn_button(table.id, i18n.t("game.take_turn", locale)))
        if has_private:
            view.add_item(GameButton("table", "hand", table.id, i18n.t("game.my_hand", locale)))
    if has_sheets:
        players = [
            discord.SelectOption(label=i18n.clip(name, 100), value=str(seat))
            for seat, name in enumerate(table.names)
        ]
        sheets = SheetSelect(table.id, players, i18n.t("game.see_sheet", locale))
        sheets.row = 1
        view.add_item(sheets)
    return view


def dm_view(table: Table, seat: int, locale: str) -> discord.ui.View:
    """A "your move" DM's button: it opens the picker, for a turn or for a chance to react in another's."""
    assert table.state is not None
    reacting = seat in table.engine.reaction_seats(table.state)
    view = Components()
    view.add_item(turn_button(table.id, i18n.t("game.react" if reacting else "game.take_turn", locale)))
    return view


def turns_view(tables: list[Table], locale: str) -> discord.ui.View | None:
    """`/play mine`: a "Take my turn" button for each game that waits for the asker (as many as fit)."""
    if not tables:
        return None
    view = Components()
    for table in tables[:MAX_BUTTONS]:
        label = f"{i18n.t('game.take_turn', locale)} · {table.title(locale)} #{table.id}"
        view.add_item(turn_button(table.id, i18n.clip(label, BUTTON_LABEL)))
    return view


def turn_button(game_id: int, label: str) -> GameButton:
    """The "Take my turn" button, on the board, in a DM or in a list: it opens the move picker for the game."""
    return GameButton("table", "turn", game_id, label, discord.ButtonStyle.primary)


def chooser_view(
    table: Table, token: int, path: list[int], labels: list[str], locale: str, direct: bool = False
) -> discord.ui.View:
    """Options as buttons when they fit, otherwise as select menus of 25; a Back button once something is chosen.
    `token` is the digest of the offers the picker was drawn from (bot.service.choice_token). `direct`: the path
    already names one action, and the single button does it."""
    view = Components()
    prefix = encode_path(path)
    if direct:
        view.add_item(ChoiceButton(table.id, token, prefix, i18n.clip(labels[0], BUTTON_LABEL)))
    elif len(labels) <= MAX_BUTTONS and all(len(label) <= BUTTON_LABEL for label in labels):
        # (a button's label is shorter than a menu option's: options cut short on a button go in a menu, where
        # "… · Al…", "… · Mu…" would have been told apart by their last letters only)
        for index, label in enumerate(labels):
            item = ChoiceButton(table.id, token, encode_path([*path, index]), i18n.clip(label, BUTTON_LABEL))
            item.row = index // 5
            view.add_item(item)
    else:
        for number, start in enumerate(
            range(0, min(len(labels), OPTIONS_PER_SELECT * MAX_SELECTS), OPTIONS_PER_SELECT)
        ):
            chunk = labels[start : start + OPTIONS_PER_SELECT]
            options = [
                discord.SelectOption(label=i18n.clip(label, 100), value=str(start + i))
                for i, label in enumerate(chunk)
            ]
            placeholder = i18n.t("chooser.choose", locale)
            if len(labels) > OPTIONS_PER_SELECT:
                placeholder = i18n.t("chooser.more", locale, start=start + 1, end=start + len(chunk))
            select = ChoiceSelect(table.id, token, prefix, start, options, placeholder)
            select.row = number
            view.add_item(select)
    if path and not direct:
        back = ChoiceButton(
            table.id,
            token,
            encode_path(path[:-1]),
            i18n.t("chooser.back", locale),
            discord.ButtonStyle.secondary,
        )
        back.row = 4
        view.add_item(back)
    return view


class Attachment(discord.File):
    """A file to send from bytes in memory. discord.py's `close` (after every request) sets the buffer's own
    `close` back on it as an attribute, a bound method of the buffer: a cycle only Python's full collections
    free, holding the whole picture until then (some 4,000 of them at a time at 200 games)."""

    __slots__ = ()

    def __init__(self, data: bytes, filename: str) -> None:
        super().__init__(io.BytesIO(data), filename=filename)

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)


def png_file(png: bytes, name: str) -> discord.File:
    """A picture to attach: board.png, private.png, results.png."""
    return Attachment(png, name)
