"""Private messages: each seat's hand and "your move", by DM, in the reader's own language.

One DM per wait a seat is told about ("your move", with its private picture and a button to play); when only the
seat's private view changes, that same message is edited (an edit notifies nobody), so the picture in the DMs is
always current and a turn costs one notification.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from typing import Any

import discord

from bot import i18n
from bot.drawing import Pictures
from bot.games import presenter
from bot.service import GameService, PrivateMessage, ServiceError, Table
from bot.ui import dm_view, png_file

log = logging.getLogger(__name__)

LOOK_BACK = 5
MISSED_TURN_ROOM = 1200  # characters of a DM for the moves made on a missed deadline (a message holds 2,000)


def version_mark(table: Table) -> str:
    """Ends every board and private message: which version it shows, so a resent post can be recognised."""
    return f"#{table.id}·v{table.version}"


def _has_private_picture(table: Table) -> bool:
    return presenter(table.engine.name).has_private and table.state is not None


class PrivateMessages:
    def __init__(self, client: discord.Client, service: GameService, pictures: Pictures) -> None:
        self.client = client
        self.service = service
        self.pictures = pictures
        # Languages heard in interactions whose saving is still under way (see remember_locale).
        self._heard: dict[int, str] = {}

    async def update(
        self, table: Table, told: set[int], unsure: bool = False, pinged: frozenset[int] = frozenset()
    ) -> list[PrivateMessage]:
        """A new "your move" DM for each seat in `told`; for every other person, their DM edited if their private
        view changed. `unsure`: a DM may have gone out before a crash, so look for it before sending again.
        `pinged`: users the board mentioned for this wait, whose new DM goes out silently (one alert a turn); a
        user who wants no pings at all gets theirs silently too.
        Returns where the messages sent or edited are, for the caller to note with the version it shows (if a
        seat's message failed, those that went out are noted here before the failure is raised)."""
        game = presenter(table.engine.name)
        seats = [s for s in table.seats if s.user_id is not None and not s.dms_closed]
        if not game.has_private:  # a DM is only "your move": sent when told, edited once it no longer is
            seats = [
                s
                for s in seats
                if s.seat in told or (s.dm_message_id and s.dm_view != self._digest(table, s))
            ]
        locales = await self.reader_locales([s.user_id for s in seats], table.record.locale) if seats else {}
        # A new DM notifies unless the board pinged them for it or they turned every ping off ("none").
        newly = [s.user_id for s in seats if s.seat in told and s.user_id not in pinged]
        quiet = pinged | {
            u for u, level in (await self.service.ping_preferences(newly)).items() if level == "none"
        }
        outcomes = await asyncio.gather(
            *(
                self._update_seat(table, s, s.seat in told, locales, unsure, s.user_id in quiet)
                for s in seats
            ),
            return_exceptions=True,
        )
        sent = [outcome for outcome in outcomes if isinstance(outcome, tuple)]
        failed = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        if failed:
            await self.service.remember_private_messages(table.id, sent)
            raise failed[0]
        return sent

    async def _update_seat(
        self, table: Table, row: Any, their_turn: bool, locales: dict[int, str], unsure: bool, silent: bool
    ) -> PrivateMessage | None:
        """Send or edit one seat's private message; returns where it now is and the digest of what it shows
        (seat, channel, message, digest), or None when nothing was sent."""
        game = presenter(table.engine.name)
        locale = locales[row.user_id]
        digest = self._digest(table, row)
        if not their_turn and digest == row.dm_view:
            return None  # nothing new for them: no picture is drawn either
        png = await self.private_png(table, row.seat, locale)
        title = game.title(locale)
        mark = f"\n-# {version_mark(table)}"
        missed = self._missed_turn(table, row.seat, locale)
        file = png_file(png, "private.png") if png else discord.utils.MISSING
        try:
            if row.dm_message_id and (not their_turn or not row.pings):
                # Still this seat's move (or a new one in a game they muted, told without a new DM, which would
                # notify): the DM says so, with its button; otherwise it is just their view.
                acting = row.seat in table.acting
                if acting:
                    text = self._your_move_text(table, row.seat, locale)
                else:
                    text = self._not_your_move_text(table, title, locale)
                message = self.client.get_partial_messageable(row.dm_channel_id).get_partial_message(
                    row.dm_message_id
                )
                try:
                    view = dm_view(table, row.seat, locale) if acting else None
                    await message.edit(
                        content=missed + text + mark, attachments=[file] if png else [], view=view
                    )
                    return row.seat, row.dm_channel_id, row.dm_message_id, digest
                except discord.NotFound:  # they deleted it: a new one below
                    pass
            if their_turn:
                text = self._your_move_text(table, row.seat, locale)
            else:
                text = self._not_your_move_text(table, title, locale)
            view = dm_view(table, row.seat, locale) if their_turn else discord.utils.MISSING
            # only a "your move" is worth a notification, and not in a game they muted; a DM of one's view alone
            # arrives silently
            quiet = silent or not their_turn or not row.pings
            channel, message = await self._send_dm(
                row, missed + text + mark, file, view, version_mark(table), unsure, quiet
            )
            if row.dm_message_id and row.dm_message_id != message.id:
                await self._retire(row, table)
            return row.seat, channel.id, message.id, digest
        except discord.Forbidden:  # DMs closed: said once in the thread; "My hand" still works
            await self.service.set_dms_closed(table.id, row.user_id, True)
            thread = self.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
            try:
                await thread.send(
                    i18n.t("game.dm_closed", table.record.locale, mention=f"<@{row.user_id}>"),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(row.user_id)]),
                )
            except discord.Forbidden:
                log.info("game %s: could not say that %s's DMs are closed", table.id, row.user_id)
            return None

    async def _send_dm(
        self, row: Any, text: str, file: Any, view: Any, mark: str, unsure: bool, silent: bool
    ) -> tuple[Any, discord.Message]:
        """A new DM to the seat's player, unless `unsure` and one marked `mark` went out already. It goes to the
        channel this game's DMs went to before, when there is one: opening it again costs a Discord call each
        time, as discord.py remembers only 128 DM channels (and none after a restart)."""
        if row.dm_channel_id is not None:
            known = self.client.get_partial_messageable(row.dm_channel_id, type=discord.ChannelType.private)
            try:
                found = await _already_sent(known, mark, self.client) if unsure else None
                return known, found or await known.send(text, file=file, view=view, silent=silent)
            except discord.NotFound:  # Discord no longer knows that channel: open it again
                pass
        channel = await self.client.create_dm(discord.Object(row.user_id))
        found = await _already_sent(channel, mark, self.client) if unsure else None
        return channel, found or await channel.send(text, file=file, view=view, silent=silent)

    async def _retire(self, row: Any, table: Table) -> None:
        """The seat's previous DM, now that a newer one went out, is deleted: it showed a turn that is gone, and a
        game of many turns would otherwise leave a long trail of them to scroll past."""
        message = self.client.get_partial_messageable(row.dm_channel_id).get_partial_message(
            row.dm_message_id
        )
        try:
            await message.delete()
        except discord.HTTPException:  # deleted already, or DMs closed since: the new DM is what counts
            log.info("game %s: could not delete seat %s's previous DM", table.id, row.seat)

    async def close(self, table: Table) -> list[PrivateMessage]:
        """The game is over: each seat's last DM loses its button and says so (an edit, which notifies nobody), so
        no "your move" is left to click into a game that has ended. Returns the seats' messages as forgotten."""
        seats = [s for s in table.seats if s.user_id is not None and s.dm_message_id]
        if not seats:
            return []
        locales = await self.reader_locales([s.user_id for s in seats], table.record.locale)
        game = presenter(table.engine.name)
        abandoned = table.abandoned_by()
        for row in seats:
            locale = locales[row.user_id]
            # an abandoned game says so and by whom: "is over" read like a game played to its end
            key, by = ("game.dm_abandoned", abandoned["user"]) if abandoned else ("game.dm_ended", "")
            text = i18n.t(key, locale, game=game.title(locale), id=table.id, link=self._link(table), user=by)
            message = self.client.get_partial_messageable(row.dm_channel_id).get_partial_message(
                row.dm_message_id
            )
            try:
                await message.edit(content=text, view=None)
            except (discord.NotFound, discord.Forbidden):  # deleted, or DMs closed since: nothing left to fix
                pass
        return [(row.seat, row.dm_channel_id, None, None) for row in seats]

    async def seat_lost(self, table: Table, former: Any, voted_out: bool) -> None:
        """`former` (the seat row as it was) no longer plays `table`: their DM loses its button and picture and
        says so, so no "your move" is left to click into a seat that is not theirs. One voted out by the others
        is told by a new DM, which notifies: nobody else would tell them."""
        if former.user_id is None:
            return
        game = presenter(table.engine.name)
        locale = (await self.reader_locales([former.user_id], table.record.locale))[former.user_id]
        key = "game.dm_voted_out" if voted_out else "game.dm_left"
        text = i18n.t(key, locale, game=game.title(locale), id=table.id, link=self._link(table))
        old = None
        if former.dm_message_id:
            dms = self.client.get_partial_messageable(former.dm_channel_id)
            old = dms.get_partial_message(former.dm_message_id)
        try:
            if voted_out:
                channel = await self.client.create_dm(discord.Object(former.user_id))
                await channel.send(text)
                if old:
                    await old.delete()
            elif old:
                await old.edit(content=text, attachments=[], view=None)
        except discord.HTTPException:  # DMs closed, or the message gone: the thread's note still says it
            log.info("game %s: could not tell seat %s's former player", table.id, former.seat)

    @staticmethod
    def _link(table: Table) -> str:
        return f"https://discord.com/channels/{table.record.guild_id or '@me'}/{table.record.thread_id}"

    def _digest(self, table: Table, row: Any) -> str:
        """What a seat's DM shows: its private picture, if the game has one, and whether it says "your move"."""
        picture = b""
        if _has_private_picture(table):
            picture = self.pictures.key(table.engine.name, row.seat, table.view(row.seat), [], "")
        return hashlib.blake2b(picture + bytes([row.seat in table.acting]), digest_size=16).hexdigest()

    @staticmethod
    def _missed_turn(table: Table, seat: int, locale: str) -> str:
        """A line for the seat's DM while the board tells that the built-in player moved for it on a missed
        deadline: the DM its "your move" came in is where its player looks first, and a review's absent player
        was never told (an edit notifies nobody, so this costs no alert)."""
        note = next(
            (
                n
                for n in reversed(table.record.notes or [])
                if n["key"] == "game.deadline"
                and n["params"]["seat"] == seat
                and n.get("v", 0) > (table.record.board_from or 0)
            ),
            None,
        )
        if note is None or table.state is None:
            return ""
        game = presenter(table.engine.name)
        summary = game.move_summary(note["params"]["events"], table.names, table.view(None), locale, seat)
        if i18n.norm(locale) == "ko":
            summary = i18n.korean_self(summary, table.names[seat])
        key = "game.dm_deadline" if summary else "game.dm_deadline_unseen"
        return i18n.t(key, locale, action=i18n.clip(summary, MISSED_TURN_ROOM)) + "\n"

    @staticmethod
    def _not_your_move_text(table: Table, title: str, locale: str) -> str:
        """A DM once it is not the seat's move: its private view, or, in a game without one, just that."""
        key = "game.dm_hand" if _has_private_picture(table) else "game.dm_waiting"
        return i18n.t(key, locale, game=title, id=table.id)

    def _your_move_text(self, table: Table, seat: int, locale: str) -> str:
        title = table.title(locale)
        link = self._link(table)
        assert table.state is not None
        if seat in table.engine.reaction_seats(table.state):
            return i18n.t("game.dm_react", locale, game=title, id=table.id, link=link)
        return i18n.t("game.dm_your_turn", locale, game=title, id=table.id, link=link)

    async def private_png(self, table: Table, seat: int, locale: str) -> bytes | None:
        """One seat's private image; drawn again only when what the seat sees has changed."""
        if not _has_private_picture(table):
            return None
        return await self.pictures.get(table.engine.name, seat, table.view(seat), table.names, locale)

    def png_at_hand(self, table: Table, seat: int, locale: str) -> bool:
        """Whether `private_png` would answer without drawing (drawn already, or there is nothing to draw)."""
        if not _has_private_picture(table):
            return True
        return self.pictures.drawn(table.engine.name, seat, table.view(seat), table.names, locale)

    async def show_hand(self, interaction: discord.Interaction, table: Table) -> None:
        """ "My hand" / `/play hand`: the asker's private picture, for their eyes only."""
        locale = i18n.norm(str(interaction.locale))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise ServiceError("not_a_player")
        if not _has_private_picture(table):
            raise ServiceError("no_private_info")
        game = presenter(table.engine.name)
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        png = await self.private_png(table, seat, locale)
        await interaction.followup.send(
            i18n.t("game.dm_hand", locale, game=game.title(locale), id=table.id),
            file=png_file(png, "private.png") if png else discord.utils.MISSING,
            ephemeral=True,
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


async def _already_sent(channel: Any, mark: str, client: discord.Client) -> discord.Message | None:
    async for message in channel.history(limit=LOOK_BACK):
        if message.author.id == client.user.id and mark in message.content:
            return message
    return None
