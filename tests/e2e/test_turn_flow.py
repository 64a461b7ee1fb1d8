"""Turns that flow: open pickers in a simultaneous phase stay usable when someone else moves, and a reaction window
closes as soon as the offered seat answers, with the player whose turn it is told what it waits for."""

from __future__ import annotations

import asyncio

import pytest

from bot import picker as picker_module
from bot.chooser import path_to, split
from bot.picker import offered
from bot.service import choices
from tests.e2e.harness import Harness, harness, picker_token

pytestmark = pytest.mark.e2e


async def click_first_choice(h: Harness, user, picker) -> None:
    buttons = [b["custom_id"] for b in picker.buttons() if b["custom_id"].startswith("mv:")]
    if buttons:
        await h.click(user, picker, buttons[0])
        return
    select = picker.selects()[0]
    await h.sb.select(user, picker, select["custom_id"], [select["options"][0]["value"]])
    await h.idle()


async def test_open_pickers_survive_another_players_step_in_a_simultaneous_phase(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        game_id = await h.start_game("roll_for_the_galaxy", ("alice", "bob", "dave"))
        table = await h.table(game_id)
        assert {0, 1} <= set(table.to_act())  # everyone chooses at once
        board = h.board_message(table)
        bob_picker = (await h.click(bob, board, f"table:turn:{game_id}")).message
        alice_picker = (await h.click(alice, board, f"table:turn:{game_id}")).message
        # Alice completes a step; Bob's picker, opened before it, still works.
        await h.play_through_chooser(alice, game_id, table.engine.legal_actions(table.state, 0)[0])
        assert (await h.table(game_id)).version == table.version + 1
        before = bob_picker.text
        await click_first_choice(h, bob, bob_picker)
        assert "out of date" not in bob_picker.text and bob_picker.text != before
        # Alice's own old picker (opened before her step) is out of date for her: her choices changed.
        await click_first_choice(h, alice, alice_picker)
        assert "out of date" in alice_picker.text


@pytest.mark.parametrize("looking", [False, True])
async def test_a_reaction_window_closes_when_the_offered_seat_answers(tmp_path, looking):
    """The window closes as soon as Bob answers. Alice, whose turn waited on it, is pinged for it; if she was
    looking at her picker ("then it goes on"), that picker goes on to her choices instead, with no ping (it had
    stayed on the wait, a dead end)."""
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        # Seed 0: before Alice's first turn, Bob may cast a Spell (he holds one he could use).
        game_id = await h.start_game("talisman", seed=0)
        table = await h.table(game_id)
        assert table.engine.reaction_seats(table.state) == [1] and table.to_act() == [1]
        board = h.board_message(table)
        assert "Waiting for Bob to react (up to 10 min)" in board.text
        assert board.pinged_ids == []  # a chance to react is never announced in public
        # its button says what it is for (a review's player was offered "내 차례 진행" in another's turn)
        assert any(
            "대응할 수 있습니다" in m.text and m.component(f"table:turn:{game_id}")["label"] == "대응하기"
            for m in h.sb.dms(bob)
        )
        assert not any("Your move" in m.text for m in h.sb.dms(alice))
        dms = [m.id for m in h.sb.dms(alice)]
        if looking:
            waiting = (await h.click(alice, board, f"table:turn:{game_id}")).message
            assert "Waiting for Bob to react (up to 10 min); then it goes on" in waiting.text
        # Bob declines at once: no window to sit out.
        await h.play_through_chooser(bob, game_id, {"type": "decline"})
        table = await h.table(game_id)
        assert table.to_act() == [0] and not table.engine.reaction_seats(table.state)
        newest = h.board_message(table)
        if looking:
            assert waiting.text.startswith("↪️ Your move again.") and waiting.buttons() + waiting.selects()
            assert newest.pinged_ids == [] and "Alice" in newest.text
            assert [m.id for m in h.sb.dms(alice)] == dms  # her DM is edited, which notifies nobody
        else:
            assert newest.pinged_ids == [alice.id]
            assert any(
                "Your move" in m.text and m.component(f"table:turn:{game_id}")["label"] == "Take my turn"
                for m in h.sb.dms(alice)
            )


async def test_a_hard_built_in_player_from_the_lobby_thinks_off_the_event_loop(tmp_path):
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(alice, lobby, f"lobby:hardbot:{game_id}")
        assert "Bot 1 (hard)" in lobby.text
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        table = await h.table(game_id)
        assert [s.bot_level for s in table.seats] == ["easy", "hard"]
        while table.status == "active" and table.to_act() == [0]:  # Alice plays her turn; then the bot plays
            await h.play_through_chooser(alice, game_id, table.engine.legal_actions(table.state, 0)[0])
            table = await h.table(game_id)
        moves = await h.service.moves(game_id)
        assert any(m.seat == 1 for m in moves)  # the hard bot moved (its search ran in a worker process)
        assert table.to_act() == [0] or table.status != "active"


@pytest.mark.parametrize("double", [True, False])
async def test_a_double_click_plays_once_and_leaves_its_answer_in_place(tmp_path, monkeypatch, double):
    """Two quick clicks on the same picker button, the second sent before the first one's answer replaced the
    picker: one move is played, and the mover keeps reading what it did, not an "out of date" notice. The same
    click later than a double click's moment is a click like any other (here: out of date, and told so)."""
    if not double:
        monkeypatch.setattr(picker_module, "REPEAT_WITHIN", 0.0)
    async with harness(tmp_path) as h:
        bob = h.users["bob"]
        game_id = await h.start_game("talisman", seed=0)  # Bob may cast a Spell before Alice's first turn
        table = await h.table(game_id)
        assert table.engine.reaction_seats(table.state) == [1]
        picker = (await h.click(bob, h.board_message(table), f"table:turn:{game_id}")).message
        path = path_to(offered(table, 1, choices(table, 1)), {"type": "decline"})
        button = f"mv:{game_id}:{picker_token(table, 1)}:{'.'.join(map(str, path))}"
        first = await h.sb.click(bob, picker, button, wait=False)
        second = await h.sb.click(bob, picker, button, wait=False)
        await first.wait(5)
        await h.idle()
        assert (await h.table(game_id)).version == table.version + 1
        if double:
            assert second.callback_type == 6  # acknowledged, changing nothing
            assert picker.text.startswith("완료: ") and "오래된 버튼" not in picker.text, (
                picker.text
            )  # Korean
        else:
            await second.wait(5)
            assert "오래된 버튼" in picker.text, picker.text


async def test_a_double_click_on_a_chained_choice_plays_once_and_leaves_its_answer(tmp_path, monkeypatch):
    """A review's double click on a Druids play with the turn's end riding along: the second click came while
    the chain's parts were being committed, so it met a game that had moved on and answered "out of date" with a
    fresh picker over the first one's "Done". It is taken for the double click it is, and changes nothing."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        seat = table.to_act()[0]
        mover = next(u for u in h.users.values() if int(u.id) == table.user_at(seat))
        picker = (await h.click(mover, h.board_message(table), f"table:turn:{game_id}")).message
        actions = offered(table, seat, choices(table, seat))
        chained = next(a for a in actions if len(split(a)) > 1)  # a play with the turn's end riding along
        path = path_to(actions, chained)
        for depth in range(1, len(path)):
            await h.choose(mover, picker, table, path[:depth])

        service = h.bot.host.service  # type: ignore[union-attr]
        held, release, act = asyncio.Event(), asyncio.Event(), service.act

        async def held_chain(*args, **kwargs):  # the chain's later parts wait until the second click is in
            if kwargs.get("chained"):
                held.set()
                await release.wait()
            return await act(*args, **kwargs)

        monkeypatch.setattr(service, "act", held_chain)
        token = picker_token(table, seat)
        button = f"mv:{game_id}:{token}:{'.'.join(map(str, path))}"
        parent = ".".join(map(str, path[:-1]))
        menus = [m for m in picker.selects() if m["custom_id"].startswith(f"mvs:{game_id}:{token}:{parent}:")]

        def click():  # on the picker as it was before the first click's answer
            if picker.component(button) is not None:
                return h.sb.click(mover, picker, button, wait=False)
            return h.sb.select(mover, picker, menus[0]["custom_id"], [str(path[-1])], wait=False)

        first = await click()
        await asyncio.wait_for(held.wait(), 5)  # its first part committed, the rest held
        second = await click()
        await asyncio.wait_for(second.record.acked.wait(), 5)
        release.set()
        await first.wait(5)
        await h.idle()
        mine = [m for m in await h.service.moves(game_id) if m.version > table.version and m.seat == seat]
        assert [m.action for m in mine] == split(chained)  # played once, every part
        assert second.callback_type == 6 and second.edited == []  # acknowledged, changing nothing
        assert picker.text.startswith("Done: ") and "out of date" not in picker.text, picker.text


async def test_a_picker_answered_after_the_game_moved_on_shows_the_picture_of_now(tmp_path):
    """A click on a picker opened before the mover's hand changed: the answer says the button is out of date and
    offers today's choices beside today's private picture, not the one the picker was opened with."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        seat = table.seat_of(int(alice.id))
        if table.to_act() != [seat]:
            table = (
                await h.service.act(game_id, table.user_at(table.to_act()[0]), choices(table, 1 - seat)[0])
            ).table
        picker = (await h.click(alice, h.board_message(table), f"table:turn:{game_id}")).message
        opened_with = picker.attachments[0].data
        table = (await h.service.act(game_id, int(alice.id), choices(table, seat)[0])).table  # by another way
        await h.bot.host.after_commit(game_id)
        await h.idle()
        now = await h.bot.host.private.private_png(table, seat, "en")
        assert now is not None and now != opened_with
        await click_first_choice(h, alice, picker)
        assert "out of date" in picker.text
        assert [a.filename for a in picker.attachments] == ["private.png"]
        assert picker.attachments[0].data == now


async def test_a_stale_click_with_nothing_left_to_choose_says_whom_the_game_waits_for(tmp_path):
    """A review's player clicked an old picker after their turn had ended and read "Here is the current choice."
    with no choice after it: with nothing to choose, the answer says whom the game waits for instead."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        assert table.to_act() == [0]
        old = (await h.click(alice, h.board_message(table), f"table:turn:{game_id}")).message
        while (await h.table(game_id)).to_act() == [0]:
            now = await h.table(game_id)
            await h.play_through_chooser(alice, game_id, choices(now, 0)[0])
        await click_first_choice(h, alice, old)
        assert "out of date" in old.text and "Here is the current choice" not in old.text, old.text
        assert "Bob" in old.text and old.buttons() == []
