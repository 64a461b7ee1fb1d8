"""Games that last days, through the real bot and the loopback server: private messages in each reader's own
language (remembered across a restart), a person's solo game, and bots-only demos that play themselves at a
watchable pace on the clock, survive a restart and can be stopped. Time is moved by the test, never slept."""

from __future__ import annotations

import pytest

from bot import drawing
from bot.games import presenter
from engines.base import visible_to
from sandbox.model import Message, User
from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e

DEMO_SECONDS = 5.0  # the default DEMO_MOVE_SECONDS


async def move_by_command(h: Harness, game_id: int) -> None:
    """Whoever is to act makes the built-in player's choice, typed as /play move."""
    table = await h.table(game_id)
    seat = table.to_act()[0]
    user = next(u for u in h.users.values() if int(u.id) == table.user_at(seat))
    actions = table.engine.legal_actions(table.state, seat)
    index = actions.index(table.engine.bot_action(table.state, seat, table.version))
    await h.slash(user, h.thread(table), "play move", {"action": f"{h.token(table, user)}:{index}"})


async def until_turn_dm(h: Harness, game_id: int, user: User) -> Message:
    """Play on until `user` is sent a DM saying it is their move; return it."""
    seen = {m.id for m in h.sb.dms_sent(user)}
    for _ in range(200):
        fresh = [m for m in h.sb.dms(user) if m.id not in seen and m.component(f"table:turn:{game_id}")]
        if fresh:
            return fresh[-1]
        await move_by_command(h, game_id)
    raise AssertionError(f"{user.name} was never told it is their move")


def labels(message: Message) -> list[str]:
    return [button.get("label", "") for button in message.buttons()]


async def test_private_messages_speak_each_readers_language(tmp_path, monkeypatch):
    drawn: list[str] = []  # the locales private pictures were drawn in
    real = drawing.draw

    async def draw(engine_name, seat, view, names, locale):
        if seat is not None:
            drawn.append(locale)
        return await real(engine_name, seat, view, names, locale)

    monkeypatch.setattr(drawing, "draw", draw)
    async with harness(tmp_path) as h:
        alice, bob, carol = h.users["alice"], h.users["bob"], h.users["carol"]
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(bob, lobby, f"lobby:join:{game_id}")  # Bob's Discord speaks Korean
        await h.click(carol, lobby, f"lobby:join:{game_id}")  # Carol's Spanish; her DMs are closed
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        table = await h.table(game_id)
        thread = h.thread(table)

        # The thread speaks the server's language ...
        assert "begins!" in h.sb.messages(thread)[0].text
        assert "your move in Druids" in h.board_message(table).text
        # ... each private hand its owner's, words and picture alike.
        # Alice acts first: one DM says so in English, with her picture and an English button.
        [alice_turn] = h.sb.dms(alice)
        assert (
            alice_turn.attachments
            and "Your move" in alice_turn.text
            and labels(alice_turn) == ["Take my turn"]
        )
        [bob_hand] = h.sb.dms(bob)
        assert (
            bob_hand.attachments and "나만 보는 정보" in bob_hand.text and "private view" not in bob_hand.text
        )
        assert sorted(drawn) == ["en", "es", "ko"]  # Carol's too: it was drawn for the DM that failed
        # Carol's DMs are closed: the thread tells her (in its language); her hand button answers in Spanish.
        assert not h.sb.dms(carol)
        assert any(carol.id in m.pinged_ids and "**My hand**" in m.text for m in h.sb.messages(thread))
        hand = await h.click(carol, h.board_message(table), f"table:hand:{game_id}")
        assert hand.message.audience.user_id == carol.id and "Tu vista privada" in hand.message.text

        bob_turn = await until_turn_dm(h, game_id, bob)
        assert "차례" in bob_turn.text and labels(bob_turn) == ["내 차례 진행"]

        # Bob ends his turn; after a restart only the others move until his next turn, so it is the stored
        # language that makes that DM Korean.
        while int(bob.id) in (await h.table(game_id)).users_to_act():
            await move_by_command(h, game_id)
        await h.restart_bot()
        bob_turn = await until_turn_dm(h, game_id, bob)
        assert "차례" in bob_turn.text and "Your move" not in bob_turn.text

        # Bob switches Discord to Spanish; his next interaction tells the bot, and his DMs follow.
        bob.locale = "es-ES"
        await h.slash(bob, thread, "play mine")
        bob_turn = await until_turn_dm(h, game_id, bob)
        assert "Te toca" in bob_turn.text and labels(bob_turn) == ["Jugar mi turno"]
        assert "your move in Druids" in h.board_message(await h.table(game_id)).text  # the thread: English
        assert [(v.status, v.code) for v in h.sb.violations] == [(403, 50007)]  # the one DM tried to Carol


async def test_a_person_hosts_a_solo_game(tmp_path):
    async with harness(tmp_path) as h:
        bob = h.users["bob"]
        lobby = (await h.slash(bob, h.games, "play new", {"game": "roll_player"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(bob, lobby, f"lobby:start:{game_id}")
        table = await h.table(game_id)
        assert table.status == "active" and table.names == ["Bob"] and table.state["solo"]
        board = h.board_message(table).text
        assert "Set-up: Bob chooses a character sheet" in board  # the server's language
        assert "Nothing in this game is secret" in board and "My hand" not in board  # no hands in Roll Player
        [dm] = h.sb.dms(bob)
        assert "차례" in dm.text and dm.component(f"table:turn:{game_id}")  # Bob's own language
        for _ in range(3):
            await move_by_command(h, game_id)
        after = await h.table(game_id)
        assert after.version == table.version + 3 and after.status == "active"
        assert h.sb.violations == []


async def step(h: Harness) -> None:
    """Let one demo pace go by."""
    h.clock.advance(DEMO_SECONDS / 3600)
    await h.tick()


async def start_demo(h: Harness, user: User, game: str, players: int | None = None) -> tuple[int, Message]:
    options = {"game": game} | ({"players": players} if players else {})
    intro = (await h.slash(user, h.games, "play demo", options)).message
    assert intro.audience.kind == "public" and "🤖" in intro.text
    game_id = (await h.service.games_in_channel(int(h.games.id)))[0].id  # the newest
    assert f"#{game_id}:" in intro.text
    return game_id, intro


async def test_a_demo_plays_itself_across_a_restart(tmp_path):
    async with harness(tmp_path) as h:
        dave, alice = h.users["dave"], h.users["alice"]
        game_id, intro = await start_demo(h, dave, "roll_player")  # the fewest players: the solo mode
        table = await h.table(game_id)
        assert [s.is_bot for s in table.seats] == [True] and table.state["solo"] and table.version == 1
        assert "Bot 1" in intro.text and "5 s" in intro.text
        thread = h.thread(table)
        assert thread.is_thread and thread.parent_id == h.games.id
        board = h.board_message(table)
        assert board.attachments and not board.interactive()  # nothing to click: it is there to watch
        await h.slash(alice, thread, "play follow")

        await h.tick()
        assert (await h.table(game_id)).version == 1  # no move before its time
        for expected in (2, 3, 4):
            await step(h)
            assert (await h.table(game_id)).version == expected
        assert h.board_message(await h.table(game_id)) is board and len(board.history) == 3  # edited in place

        await h.restart_bot()  # the state and the time of the next move are stored
        await h.tick()
        assert (await h.table(game_id)).version == 4
        await step(h)
        assert (await h.table(game_id)).version == 5

        for _ in range(
            4
        ):  # watched as it goes, the one board tells the last few moves, not all since it began
            await step(h)
        table = await h.table(game_id)
        game, view = presenter("roll_player"), table.view(None)
        first = [  # what the first two moves said
            text
            for move in (await h.service.moves(game_id))[:2]
            for event in move.events
            if visible_to(event, None) and (text := game.event_text(event, table.names, view, "en"))
        ]
        assert table.version == 9 and first and not any(text in board.text for text in first)

        steps = 0
        while (table := await h.table(game_id)).status == "active":
            await step(h)
            steps += 1
            assert steps < 200
        assert table.status == "finished" and table.version == 9 + steps
        final = h.board_message(table)
        assert final is not board and "🏆" in final.text and "Bot 1" in final.text
        assert final.pinged_ids == [alice.id]  # the follower hears that it ended
        assert [m for m in h.sb.messages(thread) if m.attachments] == [board, final]
        # The players' sheets stay on the final board, where how each scored is read; nothing else does.
        assert [c["custom_id"] for row in final.components for c in row["components"]] == [f"sheet:{game_id}"]
        answer = await h.sb.select(alice, final, f"sheet:{game_id}", ["0"])
        await h.idle()
        [sheet] = answer.message.attachments
        assert answer.message.audience.user_id == alice.id and table.names[0] in answer.message.text
        assert sheet.data == game.render_sheet(table.view(None), 0, table.names, "en")
        assert h.sb.violations == []


async def test_a_demo_is_stopped_by_its_host_or_a_manager(tmp_path):
    async with harness(tmp_path) as h:
        dave, bob, erin = h.users["dave"], h.users["bob"], h.users["erin"]
        refused = await h.slash(dave, h.games, "play demo", {"game": "druids", "players": 1})
        assert refused.message.audience.kind == "ephemeral"
        assert "Druids is for 2–4 players" in refused.message.text

        game_id, _ = await start_demo(h, dave, "druids", players=3)
        table = await h.table(game_id)
        assert table.names == ["Bot 1", "Bot 2", "Bot 3"]
        thread = h.thread(table)
        await step(h)
        seat = await h.slash(bob, thread, "play sub")
        assert seat.message.audience.user_id == bob.id and "데모" in seat.message.text  # in Bob's language
        stop = await h.slash(bob, thread, "play abandon")
        assert stop.message.audience.user_id == bob.id and (await h.table(game_id)).status == "active"
        stopped = await h.slash(erin, thread, "play abandon")
        assert stopped.message.audience.kind == "public" and "abandoned by Erin" in stopped.message.text
        version = (await h.table(game_id)).version
        await step(h)
        assert (await h.table(game_id)).version == version and (await h.table(game_id)).status == "abandoned"

        own, _ = await start_demo(h, dave, "druids")
        assert len((await h.table(own)).seats) == 2
        await h.slash(dave, h.thread(await h.table(own)), "play abandon")
        assert (await h.table(own)).status == "abandoned"
        assert h.sb.violations == []
