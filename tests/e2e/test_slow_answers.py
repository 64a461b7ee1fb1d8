"""A command whose answer waits on the database is acknowledged before Discord's 3 s run out and answered after:
a busy moment delays the answer, it never loses it. The database is held here until the test has seen the
acknowledgement, so what is checked does not depend on how fast the machine is."""

from __future__ import annotations

import asyncio

import pytest

from bot import i18n, ui
from tests.e2e.harness import harness

pytestmark = pytest.mark.e2e

DEFERRED_REPLY, DEFERRED_UPDATE = 5, 6  # Discord's interaction callback types


def held(monkeypatch, owner, name: str) -> asyncio.Event:
    """`owner.name` waits for the returned event before it runs."""
    release = asyncio.Event()
    method = getattr(owner, name)

    async def waiting(*args, **kwargs):
        await release.wait()
        return await method(*args, **kwargs)

    monkeypatch.setattr(owner, name, waiting)
    return release


async def test_a_slow_follow_is_acknowledged_first_then_answered_and_done(tmp_path, monkeypatch):
    monkeypatch.setattr(ui, "ANSWER_WITHIN", 0.05)
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        service = h.bot.host.service  # type: ignore[union-attr]
        release = held(monkeypatch, service, "follow")
        erin = h.users["erin"]

        asked = await h.sb.slash(erin, h.thread(table), "play follow", {}, wait=False)
        await asyncio.wait_for(asked.record.acked.wait(), 5)
        assert asked.callback_type == DEFERRED_REPLY and not asked.complete
        assert int(erin.id) not in await service.spectators(game_id)

        release.set()
        await asked.wait()
        assert asked.message.content == i18n.t("game.following", "en", game=table.title("en"), id=game_id)
        assert asked.message.ephemeral
        assert int(erin.id) in await service.spectators(game_id)


async def test_a_slow_new_lobby_is_acknowledged_first_then_posted_for_everyone_with_its_buttons(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(ui, "ANSWER_WITHIN", 0.05)
    async with harness(tmp_path) as h:
        service = h.bot.host.service  # type: ignore[union-attr]
        release = held(monkeypatch, service, "create_lobby")
        alice, dave = h.users["alice"], h.users["dave"]

        asked = await h.sb.slash(alice, h.games, "play new", {"game": "druids"}, wait=False)
        await asyncio.wait_for(asked.record.acked.wait(), 5)
        assert asked.callback_type == DEFERRED_REPLY and not asked.complete

        release.set()
        await asked.wait()
        await h.idle()
        lobby = asked.message
        assert not lobby.ephemeral
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        assert (await h.table(game_id)).record.lobby_message_id == int(lobby.id)

        # Its Join button, slow too: acknowledged first, then the lobby names the new player.
        release = held(monkeypatch, service, "join")
        joined = await h.sb.click(dave, lobby, f"lobby:join:{game_id}", wait=False)
        await asyncio.wait_for(joined.record.acked.wait(), 5)
        assert joined.callback_type == DEFERRED_UPDATE and not joined.complete
        assert dave.name not in h.sb.world.message(lobby.id).content

        release.set()
        await joined.wait()
        assert (await h.table(game_id)).seat_of(int(dave.id)) is not None
        assert dave.name in h.sb.world.message(lobby.id).content
