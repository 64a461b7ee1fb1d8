"""The publisher: brings what Discord shows of a game up to its newest committed version.

Every commit records in the game's row that Discord is behind (`publish_at`, and `notes` of what happened); this
module catches Discord up — the thread, the board message, pings for whoever newly must act, private messages —
and then marks the version shown. It runs after each commit, at start-up for everything still pending, and on
the clock for retries, so a crash or a Discord error between any two steps loses nothing. Sending is idempotent:
a board or private message whose sending may have gone through unseen (a restart, a timeout) is looked for in the
channel's recent messages by its version mark before it is sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Set
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, Literal, NamedTuple

import aiohttp
import discord

from bot import i18n
from bot.drawing import draw_results
from bot.games import presenter
from bot.lobby import closed_lobby_text, lobby_text
from bot.private import PrivateMessages, version_mark
from bot.recent import MoveEvents
from bot.service import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    GameService,
    PrivateMessage,
    ServiceError,
    Table,
    deadline_at,
    stretch_of,
)
from bot.ui import board_view, png_file
from engines.base import Event, visible_to

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
ENDED = (FINISHED, ABANDONED)
RECENT_MOVES = 6  # a board tells at least the last few moves, for context
MOST_MOVES = 24  # and at most this many: everything since the board before it, unless more happened
# Notes told just before the move they were noted with, as its heading: the move the built-in player made on a
# missed deadline ("⌛ Alice's deadline passed, …:" over "• Alice draws a gem."), told once and apart from the
# player's own moves before it (after it, a review read one move twice; joined to hers, "Alice draws 2 gems").
HEADING_NOTES = {"game.deadline"}
OPENING_NOTES = {"game.welcome", "game.welcome_open"}  # told once, on the game's first board
TURN_LOOKBACK = 12  # and back to the start of the turn they begin in, up to this many moves more
MOST_HAPPENINGS = 20  # lines; earlier ones are left to /play log, and the board says how many
EARLIER_ROOM = 120  # characters kept for the line saying so
LOOK_BACK = 10  # recent messages searched for a post that may have gone through unseen
THREAD_LIMIT = 160006  # Discord: the server has as many active threads as it may
THREAD_EXISTS = 160004  # Discord: this message already has a thread
HANDLER_GRACE = timedelta(seconds=5)
# Publishing is the work no one waits on directly, so it takes turns: past capacity, the event loop goes to answering
# interactions first, and boards coalesce to each game's newest version while they wait (tuned by the load bench).
PUBLISHING_AT_ONCE = 8
SETTLED_KEPT = 2_000  # boards whose text is kept for settling them (at most about 4 kB each)
SHOW_WITHIN = 30  # seconds; a Discord call hung longer gives its turn up and is retried like any failure
# A picker can be edited for 15 minutes after its interaction; one left waiting longer is not carried on.
CARRY_ON_WITHIN = 10 * 60  # seconds
# A picker carried on after a person's reaction window that lasted longer than this also tells its player as anyone
# is told (a window may take minutes: they may have gone); a wait on built-in players is short.
QUIETLY_WITHIN = 60  # seconds
TRANSIENT = (discord.DiscordServerError, asyncio.TimeoutError, aiohttp.ClientError)


class Shown(NamedTuple):
    """A game's newest board message: its text once a newer board is up, and its picture's name."""

    message_id: int
    text: str
    picture: bytes


CarryOn = Callable[[Table], Awaitable[bool]]
Window = Literal["bots", "people"] | None  # whose reaction window a carried-on answer waits on


class Permanent(Exception):
    """Discord refused for a reason a retry cannot fix; `problem` names it for the players."""

    def __init__(self, problem: str, permission: str = "") -> None:
        super().__init__(problem)
        self.problem = problem
        self.permission = permission


class Carrying(NamedTuple):
    """A player's answer waiting to carry on: until when it may, until when it may do so without telling them
    as well, whether it waits on a reaction window (it said "then it goes on"), and how."""

    until: float
    quietly_until: float
    window: bool
    answer: CarryOn


def _unexpired(waiting: dict[int, Carrying], now: float) -> dict[int, Carrying]:
    return {seat: entry for seat, entry in waiting.items() if entry.until > now}


def clip(text: str) -> str:
    return i18n.clip(text, MAX_CONTENT)


class Publisher:
    def __init__(
        self, client: discord.Client, service: GameService, private: PrivateMessages, pictures
    ) -> None:
        self.client = client
        self.service = service
        self.private = private
        self.pictures = pictures
        self._locks: dict[int, asyncio.Lock] = {}
        self._lane = asyncio.Semaphore(PUBLISHING_AT_ONCE)
        # Games whose last post may have reached Discord without our knowing (a restart, a timeout).
        self.unsure: set[int] = set()
        # Games a chain of one player's moves is being committed to (see holding).
        self._held: set[int] = set()
        # Each game's board message, its text without the closing "your move" line (what the board turns into
        # once a newer one is up, so only the newest board says who must act) and its picture's name (an edit
        # that shows the same table keeps the picture it has). Kept in memory only; after a restart (or for a
        # game shown less lately than SETTLED_KEPT others) the old board just loses its buttons.
        self._settled: OrderedDict[int, Shown] = OrderedDict()
        # Players looking at an answer that says the game waits for built-in players or a reaction window only:
        # when it comes back to them, that answer carries on to their next choice instead of a ping and a DM.
        self._carrying: dict[int, dict[int, Carrying]] = {}  # by game, then seat

    # --- when it runs ---------------------------------------------------------------------------------------------

    def carry_on(self, game_id: int, seat: int, answer: CarryOn, window: Window = None) -> None:
        """The player at `seat` is looking at an answer that waits for built-in players, or for a reaction window
        (`window`: built-in players' or people's), alone. When the game next needs them, `answer(table)` is tried
        first: if it shows them their next choice (True), they are not pinged or sent a "your move" DM for that
        wait; if it cannot (False: the answer expired or Discord refused), they are told as anyone is, and so
        they are where people's window lasted past QUIETLY_WITHIN. Should another person have to act first
        outside a reaction window, the player may have gone by the time it comes back to them: the answer is
        dropped, and they are told as anyone is; one that waited on a window says what happened instead."""
        now = asyncio.get_running_loop().time()
        self._carrying = {
            game: kept for game, waiting in self._carrying.items() if (kept := _unexpired(waiting, now))
        }
        quietly = QUIETLY_WITHIN if window == "people" else CARRY_ON_WITHIN
        entry = Carrying(now + CARRY_ON_WITHIN, now + quietly, window is not None, answer)
        self._carrying.setdefault(game_id, {})[seat] = entry

    async def _carried_on(self, table: Table) -> tuple[set[int], set[int]]:
        """The seats the game needs again whose player's waiting answer moved on to their choice, and those whose
        answer could not, or came late, though their wait kept its mark through a reaction window (so they are
        told now, like the newly told)."""
        waiting = self._carrying.get(table.id)
        if not waiting:
            return set(), set()
        active = table.record.status == ACTIVE and table.state is not None
        newly = self._newly_told(table) if active else set()
        to_act = set(table.to_act()) if active else set()
        reacting = set(table.engine.reaction_seats(table.state)) if active else set()
        back = newly | (to_act & set(table.acting))  # needed again, told of it or not
        holding = set(table.people(list(to_act - reacting)))  # people the game waits on outside a window
        now = asyncio.get_running_loop().time()
        carried, again = set(), set()
        for seat, entry in list(waiting.items()):
            if seat in back:
                del waiting[seat]
                shown = entry.until > now and await entry.answer(table)
                if shown and now <= entry.quietly_until:
                    carried.add(seat)
                elif seat not in newly:
                    again.add(seat)
            elif holding - {seat} or not active:
                del waiting[seat]  # someone else holds the game up now: the wait the answer told is over
                if entry.window and entry.until > now:  # its "then it goes on" is over: it says what happened
                    await entry.answer(table)
        if not waiting:
            self._carrying.pop(table.id, None)
        return carried, again

    @contextmanager
    def holding(self, game_id: int) -> Iterator[None]:
        """While one click's chain of moves is committed part by part, none of its middle versions is shown: a
        publish still running for an earlier change would otherwise post a board (and ping the mover) for a
        question the click has already answered. The chain's own publish shows its end."""
        self._held.add(game_id)
        try:
            yield
        finally:
            self._held.discard(game_id)

    def held(self, game_id: int) -> bool:
        return game_id in self._held

    async def publish(self, game_id: int) -> Table | None:
        """Bring Discord up to this game's newest committed version; returns the game as read for it (None if
        it could not be read). Never raises: what fails is retried later or explained in the channel."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock, self._lane:
            try:
                table = await self.service.get(game_id)
            except ServiceError:
                return None
            if self.held(game_id):  # read in the middle of a chain (checked after the read, which may wait)
                return None
            if table.record.publish_at is None:
                return table  # shown already (a publish queued behind ours did the work)
            if self.client.is_closed():  # shutting down while this waited its turn: shown at the next start
                return table
            try:
                async with asyncio.timeout(SHOW_WITHIN):
                    await self._show(table)
            except Permanent as refusal:
                await self._explain(table, refusal)
            except TRANSIENT as error:
                self.unsure.add(game_id)
                when = await self.service.publish_later(game_id, table.record.publish_attempts)
                log.warning("game %s: Discord failed (%r); trying again at %s", game_id, error, when)
            except Exception:  # noqa: BLE001 — our own bug: log it, retry later, keep the other games going
                if self.client.is_closed():  # shut down mid-way: not a fault; recovered at the next start
                    return table
                log.exception("game %s: publishing failed", game_id)
                await self.service.publish_later(game_id, max(table.record.publish_attempts, 6))
            return table

    async def recover(self, pending: list[int]) -> None:
        """At start-up: whatever was committed but not yet shown, whenever its retry was due."""
        self.unsure.update(pending)
        for game_id in pending:
            await self.publish(game_id)

    async def publish_due(self) -> None:
        """The clock's part: retries whose time has come, and changes whose own publishing never ran (a handler
        that died). A change is left to its handler for a few seconds, so the clock never races its answer."""
        for game_id in await self.service.to_publish(self.service.clock() - HANDLER_GRACE):
            await self.publish(game_id)

    # --- showing one version --------------------------------------------------------------------------------------

    async def _show(self, table: Table) -> None:
        record = table.record
        sent: list[PrivateMessage] = []
        if table.state is None:  # a lobby: open, expired, or abandoned before it started
            await self._show_lobby(table)
        else:
            if record.thread_id is None:
                await self._open_thread(table)
            if record.lobby_message_id and record.shown_version < 1 and record.demo_move_at is None:
                await self._close_lobby(table)
            carried, again = await self._carried_on(table)
            told = self._newly_told(table) | again
            pinged = await self._show_board(table, told, carried)
            if record.status == ACTIVE and record.demo_move_at is None:
                sent = await self.private.update(
                    table,
                    told - carried,
                    unsure=table.id in self.unsure,
                    pinged=frozenset(pinged),
                )
            elif record.status != ACTIVE:
                sent = await self.private.close(table)
        await self.service.shown(table, sent)
        self.unsure.discard(table.id)

    async def _show_lobby(self, table: Table) -> None:
        """The lobby message says why a lobby closed; the people who had joined an abandoned one are told on a new
        message (an edit notifies nobody, and a review's joiners went on waiting for a game that would never
        start)."""
        record = table.record
        channel = self.client.get_partial_messageable(record.channel_id)
        if record.lobby_message_id:
            message = channel.get_partial_message(record.lobby_message_id)
            await _unless_gone(message.edit(content=clip(closed_lobby_text(table)), view=None))
        if record.status == ABANDONED and (pinged := await self._pinged(table, set())):
            text = i18n.t(
                "lobby.abandoned_told",
                record.locale,
                mentions=" ".join(f"<@{u}>" for u in pinged),
                game=table.title(record.locale),
                id=table.id,
                user=(table.abandoned_by() or {}).get("user", ""),
            )
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in pinged])
            await channel.send(clip(text), allowed_mentions=mentions)

    async def _open_thread(self, table: Table) -> None:
        """The game's own thread, from its lobby message; the channel itself when threads are off or not allowed."""
        record = table.record
        locale = record.locale
        channel = self.client.get_channel(record.channel_id)
        use_threads = (await self.service.settings_for(record.guild_id)).use_threads
        thread_id = record.channel_id
        if use_threads and isinstance(channel, discord.TextChannel) and record.lobby_message_id:
            name = i18n.t("game.thread_name", locale, game=table.title(locale), id=table.id)
            try:
                thread = await channel.get_partial_message(record.lobby_message_id).create_thread(name=name)
                thread_id = thread.id
            except discord.Forbidden:
                await self._say(table, i18n.t("publish.no_thread_permission", locale, **_names(table)))
            except discord.HTTPException as error:
                if error.code == THREAD_EXISTS:  # made before a crash: a message's thread takes its id
                    thread_id = record.lobby_message_id
                elif error.code == THREAD_LIMIT:
                    await self._say(table, i18n.t("publish.thread_limit", locale, **_names(table)))
                else:
                    raise
        await self.service.set_messages(table.id, thread_id=thread_id)
        record.thread_id = thread_id

    async def _close_lobby(self, table: Table) -> None:
        record = table.record
        locale = record.locale
        title = table.title(locale)
        if record.thread_id != record.channel_id:
            started = i18n.t(
                "lobby.started", locale, game=title, id=table.id, thread=f"<#{record.thread_id}>"
            )
        else:
            started = i18n.t("lobby.started_here", locale, game=title, id=table.id)
        message = self.client.get_partial_messageable(record.channel_id).get_partial_message(
            record.lobby_message_id
        )
        await _unless_gone(message.edit(content=clip(f"{lobby_text(table)}\n\n{started}"), view=None))

    def _newly_told(self, table: Table) -> set[int]:
        """Seats held by people who must act now and have not been told about this wait."""
        told = table.told
        return {
            seat
            for seat, mark in table.acting.items()
            if told.get(seat) != mark and table.user_at(seat) is not None
        }

    async def _show_board(self, table: Table, told: Set[int], carried: Set[int]) -> list[int]:
        """Post or edit the board; returns whom of those `told` of their wait it mentions (not those `carried` on
        by their answer)."""
        record = table.record
        game = presenter(table.engine.name)
        locale = record.locale
        channel = self.client.get_partial_messageable(record.thread_id or record.channel_id)
        reacting = set(table.engine.reaction_seats(table.state)) if table.state is not None else set()
        newly = set(told) - reacting  # a chance to react is offered by DM, never announced
        # A seat joining a stretch others were already told about (a later phase of the same round), or needed
        # again within it, is told by its DM and the edited board; only a new stretch of play earns a new board
        # message with pings.
        announced = {stretch_of(mark) for mark in table.told.values()}
        newly = {
            seat
            for seat in newly
            # told again, its wait kept through a reaction window (Publisher.carry_on), or a new stretch
            if table.told.get(seat) == table.acting[seat] or stretch_of(table.acting[seat]) not in announced
        }
        # a player whose own answer carried on to their choice gets a new board, but no mention
        pinged = await self._pinged(table, newly - carried)
        demo = record.demo_move_at is not None
        new_message = record.board_message_id is None or record.status in ENDED or (bool(newly) and not demo)
        if record.board_message_id is not None and record.shown_version >= record.version:
            new_message = False  # a retry of a version already posted: edit it
        # A board tells what happened since the board before it last showed, so no public happening is only ever
        # on a board that was edited past it before anyone looked (a long stretch of built-in players' moves). A
        # demo's one board is watched as it goes: it tells the last few moves.
        since = None if demo else record.shown_version if new_message else record.board_from
        content, settled = await self.board_content(table, game, pinged, reacting, since)
        picture = self.pictures.key(table.engine.name, None, table.view(None), table.names, locale)
        finished = record.status == FINISHED  # a finished board keeps its sheets: how each player scored
        shown = (finished and game.has_sheets) or (record.status == ACTIVE and not demo)
        view = board_view(table, locale, game.has_private, game.has_sheets, finished) if shown else None
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in pinged])
        old = record.board_message_id
        before = self._settled.get(table.id)
        if not new_message:
            # A move behind a screen leaves the table as it was: the board keeps its picture, uploaded once.
            same = before is not None and before.message_id == old and before.picture == picture
            png = None if same else await self._board_png(table, picture, locale)
            # a new picture is unknown until Discord answers, and its answer may be lost
            if png is not None and before is not None:
                self._settled[table.id] = before._replace(picture=b"")
            try:
                await channel.get_partial_message(old).edit(
                    content=content,
                    view=view,
                    allowed_mentions=mentions,
                    **({} if png is None else {"attachments": [png_file(png, "board.png")]}),
                )
                self._settle_later(table.id, Shown(old, settled, picture))
                return pinged
            except discord.NotFound:  # someone deleted the board: post it again
                pass
        found = await self._already_posted(channel, table) if table.id in self.unsure else None
        files = [png_file(await self._board_png(table, picture, locale), "board.png")]
        if record.status == FINISHED:  # the last board carries the results: scores by category, and over time
            files.append(await self.results_file(table, locale))
        try:
            message = found or await channel.send(
                content, files=files, view=view or discord.utils.MISSING, allowed_mentions=mentions
            )
        except discord.Forbidden:
            in_thread = record.thread_id not in (None, record.channel_id)
            needed = "Send Messages in Threads" if in_thread else "Send Messages"
            raise Permanent("no_post_permission", f"{needed}, Attach Files") from None
        old_from = record.board_from
        await self.service.set_messages(table.id, board_message_id=message.id, board_from=since)
        record.board_message_id, record.board_from = message.id, since
        if old is not None and old != message.id:  # the previous board keeps its picture and happenings
            text = {}
            if before and before.message_id == old:
                text = {"content": before.text}
                # A line it told half-way ("Bot 1 draws a gem" of a turn that drew two) would contradict this
                # board's: then it ends with its happenings as they ended, under its own header and version mark.
                told = [line for line in before.text.split("\n") if line.startswith("• ")]
                if told and told[-1] not in settled.split("\n"):
                    _, ended = await self.board_content(
                        table, game, [], reacting, old_from, record.shown_version
                    )
                    text = {"content": _restamped(ended, before.text)}
            await _unless_gone(channel.get_partial_message(old).edit(view=None, **text))
        if record.status in ENDED:  # never replaced
            self._settled.pop(table.id, None)
        else:
            self._settle_later(table.id, Shown(message.id, settled, picture))
        return pinged

    async def _board_png(self, table: Table, picture: bytes, locale: str) -> bytes | None:
        return await self.pictures.get(
            table.engine.name, None, table.view(None), table.names, locale, picture
        )

    def _settle_later(self, game_id: int, shown: Shown) -> None:
        self._settled[game_id] = shown
        self._settled.move_to_end(game_id)
        if len(self._settled) > SETTLED_KEPT:
            self._settled.popitem(last=False)

    async def results_file(self, table: Table, locale: str) -> discord.File:
        assert table.state is not None
        outcome = table.engine.outcome(table.state)
        assert outcome is not None
        states = await self.service.state_history(table)
        png = await draw_results(table.engine.name, states, table.names, outcome.winners, locale)
        return png_file(png, "results.png")

    async def _pinged(self, table: Table, newly: set[int]) -> list[int]:
        """Who the board mentions: people newly to act (unless they turned pings off), everyone at the end (a
        game abandoned too: a new board, so that its players learn that it is over) but those who muted it."""
        if table.status in ENDED:
            by = (table.abandoned_by() or {}).get("by_id")  # who abandoned it is not pinged
            players = [s.user_id for s in table.seats if s.user_id and s.user_id != by and s.pings]
            followers = [u for u in await self.service.spectators(table.id) if u not in players and u != by]
            prefs = await self.service.ping_preferences(players + followers)
            # A follower asked to be pinged at the end, unless they turned every ping off; so are the players of
            # an abandoned game (a review's players were left waiting for moves that would never come), and of
            # a finished one those who asked for every ping.
            told = ("all", "turns") if table.status == ABANDONED else ("all",)
            return [u for u in players if prefs[u] in told] + [u for u in followers if prefs[u] != "none"]
        return await self.service.pingable(table, dict.fromkeys(table.user_at(s) for s in newly))

    async def _already_posted(self, channel: Any, table: Table) -> discord.Message | None:
        """A board for this version that went up before a crash or a lost answer; stray boards lose buttons."""
        found = None
        mark = version_mark(table)
        async for message in channel.history(limit=LOOK_BACK):
            if message.author.id != self.client.user.id:
                continue
            if mark in message.content and found is None:
                found = message
            elif message.components and f"#{table.id}·v" in message.content:
                await _unless_gone(message.edit(view=None))
        return found

    async def board_content(
        self,
        table: Table,
        game: Any,
        pinged: list[int],
        reacting: set[int],
        since: int | None = None,
        notes_until: int | None = None,
    ) -> tuple[str, str]:
        """The public happenings since version `since` (at least the last few moves), the host's notes (up to
        version `notes_until`: a replaced board leaves later ones to the board after it), and who must act now;
        and the same without who must act, for when a newer board is up."""
        record = table.record
        locale = record.locale
        public_view = table.view(None) if table.state is not None else {}
        told_before = record.shown_version if since is None else since  # no `since`: the notes not yet shown
        until = table.version if notes_until is None else notes_until
        moves = RECENT_MOVES if since is None else min(max(RECENT_MOVES, table.version - since), MOST_MOVES)
        told = (
            _from_turn_start(await self.service.recent_events(table, moves + TURN_LOOKBACK), moves)
            if table.state is not None
            else []
        )
        # The moves told again for context keep the notes they came with (whose deadline made the built-in player
        # move, who left): a review's new board retold them bare, its notes left on the board it replaced. A
        # heading note goes with its own move; another with the change just before the first move told.
        context = told[0][0] if told else until + 1
        # each note with its version (a note from before notes had versions is new)
        versioned = [(note.get("v", table.version), note) for note in record.notes or []]

        def noted(version: int, key: str) -> bool:
            if version > until:
                return False
            heading = key in HEADING_NOTES
            return version > told_before or (
                key not in OPENING_NOTES and version >= context - (0 if heading else 1)
            )

        notes = sorted(
            (version - (0.5 if note["key"] in HEADING_NOTES else 0), self.note_text(table, note))
            for version, note in versioned
            if noted(version, note["key"])
        )
        # A board that a newer one replaces ends with the moves before the first note it leaves to the newer
        # one: told under its own note there, not joined to the note before (a review's read "⌛ Carol's
        # deadline passed…: Carol and Frank are ready").
        later = [version for version, _ in versioned if version > until]
        if notes_until is not None and later:
            told = [(version, events) for version, events in told if version < min(later)]
        # In the order it happened: each note after the moves up to its version (a deadline's note just before
        # the move it introduces), the public happenings between two notes condensed as the game tells them.
        # A seat changing hands is a note, so the happenings between two notes are all told under the names of
        # the seats' holders then (a review's board credited a leaver's moves to the newcomer).
        happened: list[str] = []
        noted: set[int] = set()  # the lines that are notes: no cut drops them
        public: list[Event] = []  # the happenings since the last note
        names = table.names
        for version, events in told:
            while notes and notes[0][0] < version:
                happened += self._happenings(game, table, public_view, public, names)
                public = []
                noted.add(len(happened))
                happened.append(f"• {notes.pop(0)[1]}")
            public += [event for event in events if visible_to(event, None)]
            names = table.names_at(version)
        happened += self._happenings(game, table, public_view, public, names)
        noted.update(range(len(happened), len(happened) + len(notes)))
        happened += [f"• {text}" for _, text in notes]
        # an abandoned game waits for nobody: its note says what became of it
        shown = table.state is not None and table.status != ABANDONED
        status = game.status_text(public_view, table.names, locale) if shown else ""
        header = f"**{game.title(locale)} #{table.id}**" + (f" — {status}" if status else "")
        ending: list[str] = []
        if table.status == FINISHED:
            ending = ["", outcome_text(table), " ".join(f"<@{u}>" for u in pinged)]
        elif table.status == ABANDONED and pinged:
            ending = ["", " ".join(f"<@{u}>" for u in pinged)]
        elif table.status == ACTIVE and table.to_act():
            ending = ["", await self.waiting_text(table, pinged, reacting)]
        mark = f"-# {version_mark(table)}"
        room = (
            MAX_CONTENT
            - len("\n".join([header, *(happened[i] for i in noted), *ending, mark]))
            - EARLIER_ROOM
        )
        kept, left_out = _newest(happened, room, MOST_HAPPENINGS, noted)
        if left_out:
            kept.insert(0, f"• {i18n.t('game.earlier', locale, count=left_out)}")
        return clip("\n".join([header, *kept, *ending, mark])), clip("\n".join([header, *kept, mark]))

    @staticmethod
    def _happenings(
        game: Any, table: Table, public_view: Any, events: list[Event], names: list[str]
    ) -> list[str]:
        locale = table.record.locale
        return [
            f"• {text}"
            for event in game.condensed(events)
            if (text := game.event_text(event, names, public_view, locale))
        ]

    async def waiting_text(self, table: Table, pinged: list[int], reacting: set[int]) -> str:
        """Who the game waits for: mentions for those pinged, names for the rest; a reaction window says how long
        it stays open (the same words whether or not the seat has anything to cast)."""
        locale = table.record.locale
        if reacting:
            names = [table.names[s] for s in sorted(reacting)]
            if not table.people(reacting):  # built-in players answer at once
                return i18n.t("game.waiting_bot_reaction", locale, names=names)
            window = (await self.service.settings_for(table.record.guild_id)).reaction_window_minutes
            return i18n.t("game.waiting_reaction", locale, names=names, minutes=f"{window:g}")
        acting = table.to_act()
        people = table.people(acting)
        if not people:  # "your move" is for people; built-in players move at once (or on a demo's clock)
            return i18n.t("game.waiting_for", locale, names=[table.names[s] for s in acting])
        mentions = ", ".join(
            f"<@{user}>" if (user := table.user_at(seat)) in pinged else table.names[seat] for seat in people
        )
        lines = [i18n.t("game.to_act", locale, mentions=mentions, **_names(table))]
        # With a deadline, when it falls, and who is on vacation, for whom it does not.
        due = deadline_at(table, await self.service.settings_for(table.record.guild_id))
        if due is not None:
            away = await self.service.on_vacation(table.users_to_act())
            if len(away) < len(people):
                lines.append(i18n.deadline(due, locale))
            if away:
                names = [table.names[seat] for seat in people if table.user_at(seat) in away]
                lines.append(i18n.t("game.away", locale, names=names))
        return " ".join(lines)

    def note_text(self, table: Table, note: dict[str, Any], locale: str | None = None) -> str:
        """A happening the service noted with the change (someone left, a deadline move, …), in words: in the
        game's language, or in `locale` for one person's answer."""
        locale = locale or table.record.locale
        key, params = note["key"], {**_names(table), **note.get("params", {})}
        if "events" in params and table.state is not None:  # a move told from its committed public events
            game = presenter(table.engine.name)
            events, seat = params.pop("events"), params["seat"]
            params["action"] = game.move_summary(events, table.names, table.view(None), locale, seat)
            if not params["action"]:  # the others saw nothing of it: the note names the seat instead
                key += "_unseen"
        return i18n.t(key, locale, **params)

    # --- when Discord says no -------------------------------------------------------------------------------------

    async def _say(self, table: Table, text: str) -> None:
        """Tell the game's channel about a problem; if even that is refused, its host by DM."""
        try:
            await self.client.get_partial_messageable(table.record.channel_id).send(
                clip(text), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.Forbidden:
            try:
                dm = await self.client.create_dm(discord.Object(table.record.host_id))
                await dm.send(clip(text))
            except discord.HTTPException:
                log.warning("game %s: nobody could be told: %s", table.id, text)

    async def _explain(self, table: Table, refusal: Permanent) -> None:
        if table.record.publish_problem != refusal.problem:
            text = i18n.t(
                f"publish.{refusal.problem}",
                table.record.locale,
                permission=refusal.permission,
                channel=f"<#{table.record.thread_id or table.record.channel_id}>",
                **_names(table),
            )
            await self._say(table, text)
        await self.service.publish_later(table.id, table.record.publish_attempts, refusal.problem)


def outcome_text(table: Table) -> str:
    locale = table.record.locale
    assert table.state is not None
    outcome = table.engine.outcome(table.state)
    assert outcome is not None
    winners = ", ".join(table.names[s] for s in outcome.winners)
    scores = ", ".join(f"{name} {score}" for name, score in zip(table.names, outcome.scores, strict=True))
    over = i18n.t("game.over", locale, winners=winners, game=table.title(locale), id=table.id)
    return f"🏆 {over}\n{i18n.t('game.scores', locale, scores=scores)}"


def _newest(lines: list[str], room: int, most: int, always: Set[int] = frozenset()) -> tuple[list[str], int]:
    """The newest of `lines` that fit in `room` characters, one per line, and at most `most` of them, with the
    lines numbered in `always` kept wherever they stand (their room is not in `room`); and how many were left
    out."""
    kept: list[str] = []
    counted = 0
    full = False
    for index in range(len(lines) - 1, -1, -1):
        if index not in always:
            room -= len(lines[index]) + 1
            full = full or counted == most or room < 0
            if full:
                continue
            counted += 1
        kept.append(lines[index])
    kept.reverse()
    return kept, len(lines) - len(kept)


def _names(table: Table) -> dict[str, Any]:
    return {"game": table.title(table.record.locale), "id": table.id}


def _restamped(text: str, like: str) -> str:
    """A board's `text` under the header and version mark of `like`: a board keeps the moment its picture shows
    (and its mark is how a board of that version is found again after a crash)."""
    lines, kept = text.split("\n"), like.split("\n")
    return clip("\n".join([kept[0], *lines[1:-1], kept[-1]]))


async def _unless_gone(edit: Any) -> None:
    """An edit of a message someone may have deleted, or that Discord refuses to change: not worth stopping for."""
    try:
        await edit
    except (discord.NotFound, discord.Forbidden) as error:
        log.info("edit skipped: %s", error)


def _from_turn_start(told: list[MoveEvents], moves: int) -> list[MoveEvents]:
    """The last `moves` moves, reaching back to the first move of the turn they begin in: cut inside a turn, a
    board would open with its tail ("Sam draws a gem" for three draws told as one line) and leave out what the
    turn did first (the scoring that the next player's board should show)."""
    start = max(0, len(told) - moves)
    if len({_mover(events) for _, events in told}) < 2:
        return told[start:]  # one player's moves only (a solo game): no turn to find the start of
    while start > 0 and _mover(told[start - 1][1]) == _mover(told[start][1]) is not None:
        start -= 1
    return told[start:]


def _mover(events: list[Event]) -> int | None:
    return next((event["seat"] for event in events if "seat" in event and visible_to(event, None)), None)
