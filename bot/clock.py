"""The clock: reminders, deadline moves, reaction windows, bot turns, archiving, expired lobbies, demo moves and
publishing retries.

Every game stores the next moment the clock must look at it (`due_at`, set in the same commit as each change), so a
tick reads only the games that are due through an index: ten thousand games waiting for their players cost one
query.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot import i18n
from bot.service import ARCHIVED, EXPIRED, ServiceError, as_utc
from engines.base import IllegalAction

if TYPE_CHECKING:
    from bot.host import GameHost

log = logging.getLogger(__name__)


class Clock:
    def __init__(self, host: GameHost) -> None:
        self.host = host
        self.service = host.service

    async def tick(self) -> None:
        """Everything due now, game by game; each game's next due time is stored again afterwards."""
        await self.host.publisher.publish_due()
        now = self.service.clock()
        due = await self.service.due(now)
        for table, seat in due.reminders:
            await self.remind(table, seat)
        for table, seat in due.deadlines:
            try:
                await self.service.act_on_deadline(table.id, seat)
            except (ServiceError, IllegalAction):  # moved meanwhile
                continue
            await self.host.after_commit(table.id)
        for table, _ in due.bot_turns:
            await self.host.run_bots(table.id)
        for table in due.idle_games:
            await self.service.close(table.id, ARCHIVED)
            await self.host.publisher.publish(table.id)
        for table in due.expired_lobbies:
            await self.service.close(table.id, EXPIRED)
            await self.host.publisher.publish(table.id)
        pace = timedelta(seconds=self.host.demo_move_seconds)
        for table in due.demos:
            try:
                await self.service.act_for_demo(table.id, pace)
            except ServiceError:  # stopped or moved meanwhile
                continue
            await self.host.publisher.publish(table.id)
        for table in due.games:
            await self.service.refresh_due(table.id)

    async def remind(self, table, seat: int) -> None:
        """A nudge for a player who has kept the table waiting; counted before it is sent (at most once)."""
        await self.service.note_reminder(table.id, seat)
        user = table.user_at(seat)
        locale = table.record.locale
        level = (await self.service.ping_preferences([user]))[user] if user else "none"
        who = f"<@{user}>" if level != "none" else table.names[seat]
        since = as_utc(table.record.waiting_since or table.record.updated_at)
        waited = i18n.waited((self.service.clock() - since).total_seconds(), locale)
        text = i18n.t(
            "game.reminder", locale, mentions=who, game=table.title(locale), id=table.id, waited=waited
        )
        channel = self.host.client.get_partial_messageable(table.record.thread_id or table.record.channel_id)
        pinged = [discord.Object(user)] if user and level != "none" else []
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=pinged))
        except discord.HTTPException as error:
            log.info("game %s: reminder not sent: %s", table.id, error)
