"""The move picker: an ephemeral message that narrows a seat's legal actions step by step, and `/play move`.

A picker is out of date only when what it offers has changed (its components carry a digest of its offers: the
`choice_token` of the seat's choices as chained and led by a suggestion), so in a simultaneous phase one player's step
leaves everyone else's picker working unless it changes what theirs offers. (A digest of the choices alone let a
click read its path through offers chained anew: "recruit, then end managing" played "recruit, then reclaim".)
Where such a step left the seat's own choices as they were, a choice finished on the earlier picker still plays the
moves it showed, read through the offers it was drawn from (`_clicked`).
A move is committed before anything is said; once committed, the mover is told it is done even if Discord fails
to show the table afterwards (the publisher catches up).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import drawing, i18n
from bot.chooser import (
    SUGGESTED,
    Chosen,
    PathError,
    Prompt,
    decode_path,
    joint_choice,
    narrow,
    offers_whole_turns,
    picker_actions,
    playable,
    split,
)
from bot.games import presenter
from bot.games.base import ARROW
from bot.service import ACTIVE, FINISHED, MoveResult, ServiceError, Table, choice_token, choices
from bot.ui import chooser_view, png_file
from engines.base import IllegalAction, visible_to

if TYPE_CHECKING:
    from bot.host import GameHost
    from bot.publisher import Window

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


def _content(lines: list[str]) -> str:
    return i18n.clip("\n".join(lines), MAX_CONTENT)


# A move whose answer is ready this soon is answered in its acknowledgement: one call to Discord instead of two,
# and the mover sees it a round trip sooner. Longer, and the acknowledgement goes first.
ANSWER_AT_ONCE_WITHIN = 0.1  # seconds

CHOICE_NAME_MAX = 100  # Discord: an autocomplete choice's name
NOTHING_TO_DO = "wait"  # the value of the one autocomplete choice offered while the player has nothing to do
MOVES_NAMED = 5  # the moves named when typed words fit several, or only part of one
PLAYED_FROM_KEPT = 2_000  # pickers remembered as played from, for telling a double click from a new one
REPEAT_WITHIN = 3.0  # seconds after a click in which the same click again is taken for a double click
MOVES_SINCE = 12  # a picker carried on past the built-in players' moves tells at most this many of them
SINCE_LENGTH = 700  # characters
OFFERS_KEPT = 50_000  # picker offers kept in all: a Druids turn offers up to some 1,500 of ~0.6 kB


def offered(table: Table, seat: int, actions: list[Any]) -> list[Any]:
    """What the picker offers: the seat's choices, chained with its own next moves and led by a suggestion where
    that saves clicks (bot/chooser.py); the same list for drawing a picker and for reading its clicks."""
    assert table.state is not None
    return picker_actions(table.engine, table.state, seat, actions)


@dataclass
class _Offers:
    """A seat's offers for one stored state, and the picker steps already narrowed from them (a Druids turn
    offers some 1,500 runs, narrowed again at every click)."""

    state: str | None
    version: int
    choices_token: int  # the choice_token of the seat's choices they were worked out from
    actions: list[Any]
    # The seat's offers before another player's move, where that left the seat's own choices as they were (a phase
    # played at once): their chains may end otherwise now, but a picker drawn from them still means what it said.
    previous: _Offers | None = None
    steps: dict[tuple[int, ...], Prompt | Chosen] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # what the picker's components carry: a click reads its path through these offers only
        self.token = choice_token(self.actions)

    @property
    def size(self) -> int:
        return len(self.actions) + (len(self.previous.actions) if self.previous else 0)

    def step(self, path: list[int]) -> Prompt | Chosen:
        """The picker's step after the choices in `path` (PathError if they do not fit), narrowed once."""
        key = tuple(path)
        if key not in self.steps:
            # a click narrows on from the step it was made on
            before = self.steps.get(key[:-1]) if key else None
            if isinstance(before, Prompt):
                self.steps[key] = narrow(self.actions, path[-1:], start=before)
            else:
                self.steps[key] = narrow(self.actions, path)
        return self.steps[key]


class Picker:
    def __init__(self, host: GameHost) -> None:
        self.host = host
        self.service = host.service
        # Working out the offers plays each choice ahead and asks the built-in player for a suggestion: done once
        # per game state and seat, not at every click. Only a seat's newest state is kept (an older one's offers
        # can no longer be played), checked by its stored text, so an entry only ever serves the very state it
        # was worked out from.
        self._offers: OrderedDict[tuple[int, int], _Offers] = OrderedDict()
        self._offers_size = 0
        # Pickers a click played a move from: the picker as it saw it (its text and when it was last edited),
        # what it clicked, and when. The same click on the same picker soon after (a double click, sent before the
        # first one's answer replaced it) plays nothing and leaves that answer be; a click on the picker the
        # answer left is a click like any other, even where two moves in a row read alike.
        self._played_from: OrderedDict[int, tuple[tuple[Any, ...], float]] = OrderedDict()

    async def offered(self, table: Table, seat: int, actions: list[Any]) -> _Offers:
        """`offered`, worked out once per game state and seat; whole turns by a worker process, so the event
        loop never spends the half second a Druids turn may take."""
        key = (table.id, seat)
        kept = self._offers.pop(key, None)
        if kept is not None:
            self._offers_size -= kept.size
            if kept.state == table.record.state:
                self._keep(key, kept)
                return kept
        mine = choice_token(actions)
        if offers_whole_turns(table.engine):
            assert table.state is not None
            offers = await drawing.offers(table.engine.name, table.state, seat, actions)
        else:  # a few milliseconds at most: not worth a trip to the worker, which may be busy drawing
            offers = offered(table, seat, actions)
        same_choices = kept is not None and kept.version < table.version and kept.choices_token == mine
        previous = kept if same_choices else None
        if previous is not None:
            previous.previous = None  # one step back only
        entry = _Offers(table.record.state, table.version, mine, offers, previous)
        self._keep(key, entry)
        # The game has moved on: other seats' offers for an earlier version serve a click only where that seat
        # still acts with the same choices; kept otherwise, they would push live offers of other games out.
        acting = table.to_act()
        for other in range(len(table.seats)):
            earlier = self._offers.get((table.id, other))
            if earlier is not None and earlier.version < entry.version:
                if other not in acting or earlier.choices_token != choice_token(choices(table, other)):
                    self._offers_size -= self._offers.pop((table.id, other)).size
        return entry

    def _keep(self, key: tuple[int, int], entry: _Offers) -> None:
        replaced = self._offers.pop(key, None)  # another click may have worked them out meanwhile
        if replaced is not None:
            self._offers_size -= replaced.size
        self._offers[key] = entry
        self._offers_size += entry.size
        while self._offers_size > OFFERS_KEPT:
            self._offers_size -= self._offers.popitem(last=False)[1].size

    async def message(
        self, table: Table, seat: int, path: list[int], locale: str, notes: list[str]
    ) -> tuple[str, discord.ui.View | None]:
        """What is chosen so far and what to choose next; with nothing to choose, who the game waits for."""
        game = presenter(table.engine.name)
        view_data = table.view(seat)
        actions = choices(table, seat)
        lines = list(notes)
        if not actions:
            lines.append(await self.waiting_line(table, seat, locale))
            return _content(lines), None
        offers = await self.offered(table, seat, actions)
        token, step = offers.token, offers.step(path)
        status = game.status_text(view_data, table.names, locale)
        if status:
            lines.append(f"*{status}*")
        if seat not in table.to_act():  # only side actions, such as taking back a "ready"
            lines.append(i18n.t("chooser.meanwhile", locale))
        if isinstance(step, Chosen):  # only one thing to do: one button that does it
            lines += game.lone_choice_facts(step.action, view_data, locale)
            label = game.action_text(step.action, view_data, locale)
            return _content(lines), chooser_view(table, token, path, [label], locale, direct=True)
        # what the player chose so far, told as one move, each card beside its place ("Play Emerald 2 · Place 5 →
        # …"); before any click, a kind every choice shares is not their choice ("Your move so far: Place the die")
        if step.chosen and path:
            chosen = game.label_text(*joint_choice(step.chosen), {}, view_data, locale, True)
            lines.append(i18n.t("chooser.your_choice", locale, chosen=chosen))
        lines.append(f"**{game.prompt_text(step.key, locale, step.chosen, view_data)}**")
        lines += game.choice_facts(step.key, step.values, step.chosen, view_data, locale)
        lines += game.suggestion_facts(step.key, step.values, table.names, view_data, locale)
        labels = game.value_labels(step.key, step.values, step.chosen, view_data, locale)
        if any(ARROW in label for label in labels):  # the question asks only the first part of such a choice
            lines.append(f"-# {i18n.t('chooser.chained', locale)}")
        return _content(lines), chooser_view(table, token, path, labels, locale)

    def carry_on(self, interaction: discord.Interaction, table: Table, locale: str) -> None:
        """If `table` (as the clicker's answer shows it) waits for built-in players, or a reaction window, alone,
        that answer carries on to the clicker's next choice when the game comes back to them, saying what
        happened meanwhile, instead of a ping and a DM a second later (Publisher.carry_on)."""
        seat = table.seat_of(interaction.user.id)
        waiting = table.to_act()
        if seat is None or table.status != ACTIVE or table.state is None or not waiting or seat in waiting:
            return
        reacting = table.engine.reaction_seats(table.state)
        if table.people([s for s in waiting if s not in reacting]):
            return
        window: Window = ("people" if table.people(reacting) else "bots") if reacting else None
        since = table.version

        async def answer(now: Table) -> bool:
            moves = await self._since(now, since, locale)
            if now.state is not None and seat in now.to_act():
                # a chance to react in another's turn is not "your move"
                key = (
                    "chooser.back_to_react"
                    if seat in now.engine.reaction_seats(now.state)
                    else "chooser.back_to_you"
                )
                notes = [i18n.t(f"{key}_meanwhile" if moves else key, locale, moves=moves)]
            else:  # the game went on to someone else: what happened, and whom it waits for now
                notes = [i18n.t("chooser.moved_on", locale, moves=moves)] if moves else []
            try:
                await interaction.edit_original_response(**await self.fresh(now, seat, locale, notes))
            except discord.HTTPException as error:  # expired or refused: the player is pinged instead
                log.info("could not carry on the picker of game %s: %s", now.id, error)
                return False
            return True

        self.host.publisher.carry_on(table.id, seat, answer, window)

    async def _since(self, table: Table, version: int, locale: str) -> str:
        """What everyone saw happen after `version`, in brief."""
        game = presenter(table.engine.name)
        moves = await self.service.recent_events(table, min(table.version - version, MOVES_SINCE))
        events = [e for _, told in moves for e in told if visible_to(e, None)]
        view = table.view(None)
        texts = [game.event_text(e, table.names, view, locale) for e in game.condensed(events)]
        return i18n.clip(" ".join(t for t in texts if t), SINCE_LENGTH)

    async def waiting_line(self, table: Table, seat: int, locale: str) -> str:
        """Nothing to do: say who the game is waiting for, and how long a reaction window may last."""
        if table.status == FINISHED:  # the mover's own last move ended it
            return i18n.t("chooser.game_over", locale)
        if table.status != ACTIVE or table.state is None:
            return i18n.t("error.game_not_running", locale)
        reacting = [s for s in table.engine.reaction_seats(table.state) if s != seat]
        if reacting:
            names = [table.names[s] for s in reacting]
            if not table.people(reacting):  # built-in players answer at once
                return i18n.t("chooser.waiting_bot_reaction", locale, names=names)
            window = (await self.service.settings_for(table.record.guild_id)).reaction_window_minutes
            return i18n.t("chooser.waiting_reaction", locale, names=names, minutes=f"{window:g}")
        return _waiting_for(table, seat, locale)

    async def open(self, interaction: discord.Interaction, table: Table) -> None:
        """'Take my turn': an ephemeral picker with the player's private view attached. Answered in the
        acknowledgement when nothing in it waits for a worker; otherwise acknowledged first."""
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE:
            raise ServiceError("game_not_running")
        if not interaction.response.is_done() and not self._opens_at_once(table, seat, locale):
            await interaction.response.defer(ephemeral=True, thinking=True)
        content, view = await self.message(table, seat, [], locale, [])
        png = await self.host.private.private_png(table, seat, locale)
        send = (
            interaction.followup.send if interaction.response.is_done() else interaction.response.send_message
        )
        await send(
            content,
            view=view or discord.utils.MISSING,
            file=png_file(png, "private.png") if png else discord.utils.MISSING,
            ephemeral=True,
        )
        self.carry_on(interaction, table, locale)

    def _opens_at_once(self, table: Table, seat: int, locale: str) -> bool:
        """Whether a picker for `seat` needs no worker: neither for its offers nor for its private picture."""
        return self._offers_at_hand(table, seat) and self.host.private.png_at_hand(table, seat, locale)

    def _offers_at_hand(self, table: Table, seat: int) -> bool:
        """Whether the seat's offers need no worker: worked out already, or quick to work out here."""
        kept = self._offers.get((table.id, seat))
        worked_out = kept is not None and kept.state == table.record.state
        return worked_out or not offers_whole_turns(table.engine)

    async def choose(
        self, interaction: discord.Interaction, game_id: int, token: int, path_text: str
    ) -> None:
        """A click in the picker: narrow the choice, or, once it names one action, play it. A click this process
        can answer from memory needs no acknowledgement of its own: a step is answered at once, a move as soon as it
        is committed and its answer made, if that is quick. Anything else is acknowledged before the game is read,
        so a busy moment delays the answer, not the acknowledgement."""
        locale = i18n.norm(str(interaction.locale))
        if interaction.message is not None and interaction.message.flags.ephemeral:
            if self._repeated(interaction, interaction.message):
                # A double click's second, come while the first one's move is still being committed (a chain's
                # parts): the game has moved on from the picker, but the answer on its way says what was done.
                await _acknowledge(interaction)
                return
            at_hand = await self._step_at_hand(interaction.user.id, game_id, token, path_text)
            if at_hand is not None:
                table, seat, step = at_hand
                if isinstance(step, Chosen):
                    await self.play(interaction, table, step, locale)
                    return
                content, view = await self.message(table, seat, decode_path(path_text), locale, [])
                await interaction.response.edit_message(content=content, view=view)
                return
            await interaction.response.defer()
        else:  # a picker id on a message everyone sees (forged or stale): answer apart, never edit that message
            await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.service.get(game_id)  # so a refusal ("not your turn") comes from a fresh read
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE or table.state is None:
            await interaction.edit_original_response(
                content=i18n.t("error.game_not_running", locale), view=None
            )
            return
        actions = choices(table, seat)
        offers = await self.offered(table, seat, actions) if actions else None
        step = _clicked(table, seat, offers, token, path_text) if offers is not None else None
        if step is None:  # the current choice follows; with nothing to choose, whom the game waits for
            stale = i18n.t("error.stale" if actions else "error.stale_plain", locale)
            await self._restart(interaction, table, seat, locale, stale)
            return
        if isinstance(step, Prompt):
            content, view = await self.message(table, seat, decode_path(path_text), locale, [])
            await interaction.edit_original_response(content=content, view=view)
            return
        await self.play(interaction, table, step, locale)

    async def _step_at_hand(
        self, user_id: int, game_id: int, token: int, path_text: str
    ) -> tuple[Table, int, Prompt | Chosen] | None:
        """The click's step, when working it out needs neither the database nor a worker: the recent game's offers
        to the clicker are at hand and are the ones the picker was drawn from. None otherwise."""
        table = self.service.kept_game_to_choose(game_id, user_id)
        if table is None:
            return None
        seat = table.seat_of(user_id)
        if seat is None or not self._offers_at_hand(table, seat):
            return None
        offers = await self.offered(table, seat, choices(table, seat))
        step = _clicked(table, seat, offers, token, path_text)
        return None if step is None else (table, seat, step)

    async def _restart(
        self, interaction: discord.Interaction, table: Table, seat: int, locale: str, note: str
    ) -> None:
        await interaction.edit_original_response(**await self.fresh(table, seat, locale, [note]))

    async def fresh(self, table: Table, seat: int, locale: str, notes: list[str]) -> dict[str, Any]:
        """The seat's picker from its first step, after `notes`, with its private picture as it is now: a picker
        answered after the game moved on must not keep the picture of the moment it was opened."""
        content, view = await self.message(table, seat, [], locale, notes)
        edit: dict[str, Any] = {"content": content, "view": view}
        png = await self.host.private.private_png(table, seat, locale) if table.status == ACTIVE else None
        if png is not None:
            edit["attachments"] = [png_file(png, "private.png")]
        return edit

    async def play(self, interaction: discord.Interaction, table: Table, step: Chosen, locale: str) -> None:
        """Play the chosen action, answer the mover, then publish. An interaction not yet acknowledged is answered
        in its acknowledgement if the answer is ready within `ANSWER_AT_ONCE_WITHIN`, and acknowledged then
        otherwise; the move goes on either way. A repeat click on a picker already played from does nothing."""
        picker = interaction.message if interaction.message and interaction.message.flags.ephemeral else None
        if picker is not None:
            if self._repeated(interaction, picker):  # its first click came this far first
                if not interaction.response.is_done():
                    await _acknowledge(interaction)
                return
            self._played_from[picker.id] = (_click(interaction, picker), asyncio.get_running_loop().time())
            while len(self._played_from) > PLAYED_FROM_KEPT:
                self._played_from.popitem(last=False)
        answering = asyncio.ensure_future(self._play(table, interaction.user.id, step, locale))
        if not interaction.response.is_done():
            await asyncio.wait({answering}, timeout=ANSWER_AT_ONCE_WITHIN)
            if not answering.done():
                await _acknowledge(interaction)
        edit, committed = await answering
        delivered = await _answer(interaction, edit, table.id)
        if picker is not None and not (delivered and committed is not None):
            # Nothing played, or the picker still shows its choices: the same click again deserves its answer.
            self._played_from.pop(picker.id, None)
        if committed is not None:
            if delivered:
                self.carry_on(interaction, committed, locale)
            await self.host.after_commit(table.id)

    def _repeated(self, interaction: discord.Interaction, picker: discord.Message) -> bool:
        """Whether this is the same click as one that played a move from `picker` a moment ago."""
        earlier = self._played_from.get(picker.id)
        return (
            earlier is not None
            and earlier[0] == _click(interaction, picker)
            and asyncio.get_running_loop().time() - earlier[1] < REPEAT_WITHIN
        )

    async def _play(
        self, table: Table, user_id: int, step: Chosen, locale: str
    ) -> tuple[dict[str, Any], Table | None]:
        """Apply the chosen action — one move, or a chain of the mover's own moves picked at once. Each part is
        committed on its own, none of them shown before the last (Publisher.holding); if a later part is refused,
        what went before stands and the picker says why the rest did not. The mover's answer, and the game as
        the last committed part left it (None if nothing was committed)."""
        results: list[MoveResult] = []
        read = table
        try:
            with self.host.publisher.holding(table.id):
                for index, part in enumerate(split(step.action)):
                    result = await self.service.act(
                        table.id, user_id, part, expected_version=read.version, read=read, chained=index > 0
                    )
                    results.append(result)
                    read = result.table
        except (IllegalAction, ServiceError) as error:
            fresh = await self.service.get(table.id)
            seat = fresh.seat_of(user_id)
            notes = [self.host.explain(error, locale, fresh)]
            return await self.fresh(fresh, seat or 0, locale, notes), fresh if results else None
        return await self.confirmation(results, locale), read

    async def confirmation(self, results: list[MoveResult], locale: str) -> dict[str, Any]:
        """The mover's picker after a committed move: what was done, in the words of the committed events, and
        what they may do next."""
        result = results[-1]
        table = result.table
        game = presenter(table.engine.name)
        events = [event for done in results for event in done.events]
        actions = [done.action for done in results]
        notes = [
            game.confirmation(events, table.names, table.view(result.seat), locale, result.seat, actions)
        ]
        return await self.fresh(table, result.seat, locale, notes)

    async def move_by_text(self, interaction: discord.Interaction, table: Table, value: str) -> None:
        """/play move (already deferred): the autocomplete's value is '<choice token>:<index into the choices>';
        words typed without picking a suggestion are taken when they name exactly one of the player's moves."""
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if table.status != ACTIVE or table.state is None:
            raise ServiceError("game_not_running")
        actions = choices(table, seat)
        if not actions:  # say whom the game waits for, as the picker does
            await interaction.followup.send(await self.waiting_line(table, seat, locale), ephemeral=True)
            return
        index = self._index_of(table, seat, value, locale)
        try:
            result = await self.service.act(
                table.id, interaction.user.id, actions[index], expected_version=table.version, read=table
            )
        except (IllegalAction, ServiceError) as error:
            # Another move got in first: this reply has no picker to refresh, so just say so.
            if isinstance(error, ServiceError) and error.code == "stale":
                error = ServiceError("stale_move")
            await interaction.followup.send(self.host.explain(error, locale, table), ephemeral=True)
            return
        if await _answer(interaction, await self.confirmation([result], locale), table.id):
            self.carry_on(interaction, result.table, locale)
        await self.host.after_commit(table.id)

    def _index_of(self, table: Table, seat: int, value: str, locale: str) -> int:
        """Which of the seat's choices /play move names: a suggestion's value, or a move's whole name typed."""
        token_text, _, index_text = value.partition(":")
        if token_text.isdigit() and index_text.isdigit():
            if int(token_text) != table.choice_token(seat):
                raise ServiceError("stale_move")
            if int(index_text) < len(choices(table, seat)):
                return int(index_text)
            raise ServiceError("malformed_action")
        typed = value.casefold().strip()
        hits = self._labels(table, seat, locale).matching(typed, len(choices(table, seat))) if typed else []
        if typed and not hits and table.record.locale != locale:  # words read off the board, in its language
            hits = self._labels(table, seat, table.record.locale).matching(typed, len(choices(table, seat)))
        whole = [index for index, label in hits if label.casefold() == typed]
        if len(whole) == 1:
            return whole[0]
        kind = presenter(table.engine.name).move_kind_named(typed, locale)
        if kind is not None and kind not in {action.get("type") for action in choices(table, seat)}:
            # A move the game has, but not now ("Ready" when already ready): say so, and what can be done.
            labels = self._labels(table, seat, locale).matching("", MOVES_NAMED)
            moves = "\n".join(f"• {label}" for _, label in labels)
            raise ServiceError("move_not_now", typed=i18n.echo(value.strip()), moves=moves)
        # Words that only fit part of a move's name play nothing ("ready" fits "Take back my ready"): the
        # answer names the moves they fit, to be picked.
        if not hits:
            raise ServiceError("move_not_found", typed=i18n.echo(value.strip()))
        fits = "\n".join(f"• {label}" for _, label in hits[:MOVES_NAMED])
        more = len(hits) - MOVES_NAMED
        if more > 0:
            fits += "\n" + i18n.t("error.move_fits_more", locale, count=more)
        raise ServiceError("move_fits", typed=i18n.echo(value.strip()), moves=fits)

    @staticmethod
    def _labels(table: Table, seat: int, locale: str) -> _Labels:
        """The seat's choices in words, kept with the table (one game version) for the next keystrokes."""
        game = presenter(table.engine.name)
        return table.once(
            f"labels {locale}",
            seat,
            lambda: _Labels(
                game.action_text(a, table.view(seat), locale)[:100] for a in choices(table, seat)
            ),
        )

    @staticmethod
    def action_choices(table: Table, user_id: int, typed: str, locale: str) -> list[tuple[str, str]]:
        """Autocomplete for /play move: (label, value) pairs matching what the user typed."""
        seat = table.seat_of(user_id)
        if seat is None or table.state is None or table.status != ACTIVE:
            return []
        if not choices(table, seat):  # an empty list would say nothing: say whom the game waits for
            return [(i18n.clip(_waiting_for(table, seat, locale), CHOICE_NAME_MAX), NOTHING_TO_DO)]
        token = table.choice_token(seat)
        matching = Picker._labels(table, seat, locale).matching(typed.casefold().strip(), 25)
        return [(label, f"{token}:{index}") for index, label in matching]


def _clicked(table: Table, seat: int, offers: _Offers, token: int, path_text: str) -> Prompt | Chosen | None:
    """The step a click on a picker leads to, or None where the picker it was made on no longer fits. A picker
    drawn before another player's move that left this seat's choices as they were still plays a move it
    finished choosing, if the engine allows all of it now; a suggestion told what would follow, which may have
    changed, and a step half-way was drawn from offers since chained anew, so those are out of date."""
    try:
        if token == offers.token:
            return offers.step(decode_path(path_text))
        if offers.previous is None or token != offers.previous.token:
            return None
        step = offers.previous.step(decode_path(path_text))
    except PathError:
        return None
    assert table.state is not None
    if isinstance(step, Chosen) and SUGGESTED not in step.action:
        if playable(table.engine, table.state, seat, step.action):
            return step
    return None


def _waiting_for(table: Table, seat: int, locale: str) -> str:
    """Nothing to do for `seat`, and whom the game waits for (outside a reaction window)."""
    waiting = [table.names[s] for s in table.to_act() if s != seat]
    if waiting:
        return i18n.t("chooser.waiting_for", locale, names=waiting)
    return i18n.t("chooser.not_your_turn", locale)


def _click(interaction: discord.Interaction, picker: discord.Message) -> tuple[Any, ...]:
    """A click and the picker as it saw it (a double click's second sees it unedited by the first)."""
    data = interaction.data or {}
    return (picker.content, picker.edited_at, data.get("custom_id"), tuple(data.get("values", ())))


async def _acknowledge(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.defer()
    except discord.HTTPException as error:  # the move goes on; the table follows whatever the mover sees
        log.info("could not acknowledge a move: %s", error)


async def _answer(interaction: discord.Interaction, edit: dict[str, Any], game_id: int) -> bool:
    """The mover's picker after their move: in the acknowledgement, or as an edit after it. Whether it went."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**edit)
        else:
            await interaction.response.edit_message(**edit)
        return True
    except discord.HTTPException as error:  # the mover's own message failed; the table still follows
        log.info("could not answer the mover of game %s: %s", game_id, error)
        return False


class _Labels:
    """A seat's choices in words, made only as far as an answer needs them (a Roll Player turn may offer over two
    hundred) and kept for the next keystroke."""

    def __init__(self, texts: Iterator[str]) -> None:
        self._texts = texts
        self._made: list[tuple[str, str]] = []  # each label with its casefold

    def matching(self, typed: str, most: int) -> list[tuple[int, str]]:
        found: list[tuple[int, str]] = []
        index = 0
        while len(found) < most:
            if index == len(self._made):
                text = next(self._texts, None)
                if text is None:
                    break
                self._made.append((text, text.casefold()))
            label, folded = self._made[index]
            if typed in folded:
                found.append((index, label))
            index += 1
        return found
