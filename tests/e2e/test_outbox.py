"""What is committed reaches the table even when Discord fails: 5xx and 429 are retried, a missing permission is
explained in the channel, and the mover is told the truth about their move."""

from __future__ import annotations

import pytest

from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e


async def first_move(h: Harness, game_id: int):
    """The seat to act plays the first of its legal actions through the picker; returns (user, picker)."""
    table = await h.table(game_id)
    seat = table.to_act()[0]
    user = next(u for u in h.users.values() if int(u.id) == table.user_at(seat))
    action = table.engine.legal_actions(table.state, seat)[0]
    return user, await h.play_through_chooser(user, game_id, action)


async def play_until_turn_changes(h: Harness, game_id: int):
    """Moves until the seat to act changes; returns the last mover and their picker."""
    first = (await h.table(game_id)).to_act()
    while True:
        user, picker = await first_move(h, game_id)
        if (await h.table(game_id)).to_act() != first:
            return user, picker


def boards(h: Harness, table) -> list:
    """The board posts in the game's thread (not the pickers' private pictures)."""
    return [
        m
        for m in h.sb.messages(h.thread(table))
        if m.audience.kind == "public" and any(a.filename == "board.png" for a in m.attachments)
    ]


def thread_path(table) -> str:
    return rf"/channels/{table.record.thread_id}/messages$"


async def test_a_failed_board_post_is_retried_and_the_mover_is_told_it_is_done(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        bob = h.users["bob"]
        boards_before = boards(h, table)
        dms_before = len(h.sb.dms_sent(bob))
        fault = h.sb.inject_fault("POST", thread_path(table), 503, count=10)
        mover, picker = await play_until_turn_changes(h, game_id)
        assert fault.hits, "the board post was attempted"
        # The move is committed and the mover hears so, not "unchanged".
        assert "Done" in picker.text and "unchanged" not in picker.text
        after = await h.table(game_id)
        assert after.version > table.version and after.record.shown_version < after.version
        assert after.record.publish_at is not None
        assert boards(h, after) == boards_before
        # Discord recovers; the clock's retry shows the newest board, pings Bob once and DMs him once.
        fault.remaining = 0
        h.clock.advance(10 / 3600)
        await h.tick()
        after = await h.table(game_id)
        assert after.record.shown_version == after.version and after.record.publish_at is None
        posted = boards(h, after)
        assert len(posted) == len(boards_before) + 1
        assert posted[-1].pinged_ids == [bob.id] and f"v{after.version}" in posted[-1].text
        assert len(h.sb.dms_sent(bob)) == dms_before + 1
        await h.tick()  # nothing more to do: nothing more is sent
        assert len(boards(h, after)) == len(posted)


async def test_a_rate_limited_board_is_retried_at_once(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        limited = h.sb.inject_429("POST", thread_path(table), count=1, retry_after=0.05)
        await play_until_turn_changes(h, game_id)
        after = await h.table(game_id)
        assert limited.hits and after.record.shown_version == after.version
        assert f"v{after.version}" in h.board_message(after).text


async def test_without_thread_permission_the_game_is_played_in_the_channel_and_says_why(tmp_path):
    async with harness(tmp_path) as h:
        h.sb.inject_fault("POST", r"/messages/\d+/threads$", 403, code=50013, count=5)
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        assert str(table.record.thread_id) == h.games.id
        said = [m.text for m in h.sb.messages(h.games) if "Create Public Threads" in m.text]
        assert len(said) == 1
        board = h.board_message(table)
        assert board.channel_id == h.games.id and board.attachments
        assert h.users["alice"].id in board.pinged_ids


async def test_without_permission_to_post_the_channel_is_told_once_and_the_game_catches_up(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        denied = h.sb.inject_fault("POST", thread_path(table), 403, code=50013, count=100)
        mover, picker = await play_until_turn_changes(h, game_id)
        assert "Done" in picker.text
        explained = [m for m in h.sb.messages(h.games) if "Send Messages in Threads" in m.text]
        assert len(explained) == 1
        h.clock.advance(11 / 60)
        await h.tick()  # still refused: not said again
        assert len([m for m in h.sb.messages(h.games) if "Send Messages in Threads" in m.text]) == 1
        denied.remaining = 0  # the permission is granted
        h.clock.advance(11 / 60)
        await h.tick()
        after = await h.table(game_id)
        assert after.record.shown_version == after.version
        assert f"v{after.version}" in h.board_message(after).text


async def test_a_failed_dm_is_retried_without_posting_the_board_twice(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        bob = h.users["bob"]
        path = rf"/channels/{h.sb.world.dm_channel(bob).id}/messages$"
        boards_before = len(boards(h, table))
        dms_before = len(h.sb.dms_sent(bob))
        fault = h.sb.inject_fault("POST", path, 503, count=1)
        await play_until_turn_changes(h, game_id)
        assert fault.hits
        h.clock.advance(10 / 3600)
        await h.tick()
        after = await h.table(game_id)
        assert after.record.shown_version == after.version
        assert len(h.sb.dms_sent(bob)) == dms_before + 1
        assert len(boards(h, after)) == boards_before + 1


async def test_an_abandoned_game_keeps_its_board_without_buttons_and_a_huge_id_is_just_not_found(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        board = h.board_message(table)
        assert board.buttons() and "What only you may see comes by DM" in board.text
        # the first board says how to play here (a review's new players were never told)
        assert "**Take my turn** (on the board or in your DM) lets you choose it step by step" in board.text
        last_dms = {name: h.sb.dms(h.users[name])[-1] for name in ("alice", "bob")}
        assert last_dms["alice"].buttons()  # her move: "Take my turn"
        await h.abandon(h.users["alice"], h.thread(table), game_id)
        after = await h.table(game_id)
        assert after.status == "abandoned" and after.record.shown_version == after.version
        assert h.board_message(after).buttons() == []
        for name, dm in last_dms.items():  # edited, not followed by new DMs: nothing left to click
            assert h.sb.dms(h.users[name])[-1] is dm and dm.buttons() == [] and f"#{game_id}" in dm.text
            assert (
                "was abandoned by Alice" in dm.text or "Alice님이" in dm.text
            )  # not "is over", as if played out
        assert "abandoned by Alice" in h.board_message(after).text
        huge = await h.slash(h.users["alice"], h.games, "play board", {"game": 2**62})
        assert huge.message.audience.kind == "ephemeral" and f"There's no game #{2**62}." in huge.message.text


async def test_abandoning_a_running_game_is_confirmed_first_and_its_players_are_told(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        game_id = await h.start_game("druids")
        table = await h.table(game_id)
        thread = h.thread(table)

        await h.slash(
            bob, thread, "play notify", {"level": "turns"}
        )  # pinged for an abandoned game all the same
        refused = await h.slash(bob, thread, "play abandon")
        assert refused.message.audience.user_id == bob.id and "방장이나 서버 관리자만" in refused.message.text
        asked = await h.slash(alice, thread, "play abandon")
        assert asked.message.audience.user_id == alice.id
        assert f"Abandon Druids #{game_id}? It ends for everyone at the table (Bob)" in asked.message.text
        assert [b["label"] for b in asked.message.buttons()] == ["Abandon the game"]
        assert (await h.table(game_id)).version == table.version  # nothing happens before the confirmation

        confirm = asked.message.buttons()[0]["custom_id"]
        await h.click(alice, asked.message, confirm)
        ended = await h.table(game_id)
        assert ended.status == "abandoned" and asked.message.buttons() == []
        board = h.board_message(ended)
        assert board.id != h.board_message(table).id  # a new message, so that it notifies
        assert (
            "abandoned by Alice" in board.text
            and bob.id in board.pinged_ids
            and alice.id not in board.pinged_ids
        )
        assert board.text.splitlines()[0] == f"**Druids #{game_id}**"  # no one is waited for any more
        assert "abandoned by Alice" in asked.message.text  # the confirmation says it is done
        told = [
            m for m in h.sb.messages(thread) if m.audience.kind == "public" and "abandoned by Alice" in m.text
        ]
        assert told == [board]  # once, on the last board
        again = await h.slash(alice, thread, "play abandon", {"game": game_id})
        assert again.message.audience.user_id == alice.id and "not running" in again.message.text
        assert h.sb.violations == []


async def test_an_abandoned_lobby_closes_its_message_and_tells_whoever_had_joined(tmp_path):
    """By /play abandon or by the lobby's button: its message loses its buttons and says why; those who had joined
    are pinged once on a new message (an edit notifies nobody); the abandoner is not, nor is anyone when nobody
    else had joined."""
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]

        async def lobby(joined: bool):
            message = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
            game_id = int(message.buttons()[0]["custom_id"].rsplit(":", 1)[1])
            if joined:
                await h.click(bob, message, f"lobby:join:{game_id}")
            return message, game_id

        by_command, first = await lobby(joined=True)
        answer = await h.slash(alice, h.games, "play abandon", {"game": first})
        assert answer.message.audience.user_id == alice.id
        by_button, second = await lobby(joined=True)
        await h.click(alice, by_button, f"lobby:abandon:{second}")
        alone, third = await lobby(joined=False)
        await h.click(alice, alone, f"lobby:abandon:{third}")

        for message, game_id in ((by_command, first), (by_button, second), (alone, third)):
            assert (await h.table(game_id)).status == "abandoned"
            assert message.buttons() == []
            assert message.text.endswith(f"Druids #{game_id} was abandoned by Alice.")
        told = [m for m in h.sb.messages(h.games) if m.pinged_ids]
        assert [(m.pinged_ids, m.text.split(":")[0]) for m in told] == [
            ([bob.id], f"<@{bob.id}> Druids #{first} won't start"),
            ([bob.id], f"<@{bob.id}> Druids #{second} won't start"),
        ]
        assert h.sb.violations == []


async def test_a_failed_board_edit_and_lobby_edit_are_retried(tmp_path):
    """The other publishing paths: editing the board (a move within a turn) and the lobby message at the start."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(h.users["bob"], lobby, f"lobby:join:{game_id}")
        lobby_edit = h.sb.inject_fault("PATCH", rf"/messages/{lobby.id}$", 503, count=1)
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        assert lobby_edit.hits
        h.clock.advance(10 / 3600)
        await h.tick()
        table = await h.table(game_id)
        assert f"<#{table.record.thread_id}>" in lobby.text  # the lobby points to the game's thread after all
        board = h.board_message(table)
        edit = h.sb.inject_fault("PATCH", rf"/messages/{board.id}$", 503, count=1)
        await first_move(h, game_id)  # Alice's first play: her turn goes on, so the board is edited
        after = await h.table(game_id)
        assert after.to_act() == table.to_act() and edit.hits
        assert f"v{after.version}" not in board.text and after.record.publish_at is not None
        h.clock.advance(10 / 3600)
        await h.tick()
        assert f"v{after.version}" in board.text and (await h.table(game_id)).record.publish_at is None


async def test_the_log_says_when_the_built_in_player_moved_in_a_persons_seat(tmp_path):
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(alice, lobby, f"lobby:bot:{game_id}")
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        table = await h.table(game_id)
        if table.user_at(table.to_act()[0]) is None:  # the built-in player opens: it has moved by now
            table = await h.table(game_id)
        alice_seat = table.seat_of(int(alice.id))
        # Missed deadlines: the built-in player moves for Alice, turn after turn, until the log outgrows a message.
        while len(await h.service.moves(game_id)) < 40 and table.to_act() == [alice_seat]:
            await h.service.act_on_deadline(game_id, alice_seat)
            await h.bot.host.after_commit(game_id)
            await h.idle()
            table = await h.table(game_id)
        moves = await h.service.moves(game_id)
        assert {m.seat for m in moves} == {0, 1} and all(m.user_id == 0 for m in moves)
        text = await h.bot.host.move_log(table, "en", alice_seat, limit=len(moves))
        assert len(text) <= 2000
        lines = text.splitlines()[1:]
        told = {m.version: m.seat for m in moves}
        versions = [int(line.split("`")[1]) for line in lines]
        assert (
            versions == sorted(versions) and versions[-1] == moves[-1].version
        )  # the newest move is never cut
        for line, version in zip(lines, versions, strict=True):
            assert line.endswith("(the built-in player moved for them)") == (told[version] == alice_seat), (
                line
            )


async def test_a_full_lobby_offers_no_seat_to_join_or_fill(tmp_path):
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        for _ in range(2):
            await h.click(alice, lobby, f"lobby:bot:{game_id}")
        assert not any(b.get("disabled") for b in lobby.buttons())  # three of four seats taken
        await h.click(alice, lobby, f"lobby:hardbot:{game_id}")
        disabled = {b["custom_id"].split(":")[1] for b in lobby.buttons() if b.get("disabled")}
        assert disabled == {"join", "bot", "hardbot"}
        assert "Every seat is taken" in lobby.text and "Click **Join**" not in lobby.text

        # Not a dead end: a friend who wants in is told the host can make room, and the host can.
        dave = h.users["dave"]
        full = await h.slash(dave, h.games, "play join", {"game": game_id})  # the button is greyed out
        assert "its host can remove a built-in player to make room" in full.message.text
        refused = await h.click(dave, lobby, f"lobby:nobot:{game_id}")
        assert refused.message.text == "Only the host can remove bots."
        await h.click(alice, lobby, f"lobby:nobot:{game_id}")
        table = await h.table(game_id)
        assert [seat.display_name for seat in table.seats] == ["Alice", "Bot 1", "Bot 2"]  # the hard one went
        assert not any(b.get("disabled") for b in lobby.buttons())
        await h.click(dave, lobby, f"lobby:join:{game_id}")
        assert (await h.table(game_id)).seat_of(int(dave.id)) == 3
        for _ in range(2):
            await h.click(alice, lobby, f"lobby:nobot:{game_id}")
        assert [seat.display_name for seat in (await h.table(game_id)).seats] == ["Alice", "Dave"]
        assert "nobot" not in {b["custom_id"].split(":")[1] for b in lobby.buttons()}  # none left to remove
        assert h.sb.violations == []


async def test_an_ended_games_followers_are_pinged_unless_they_turned_every_ping_off(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob, dave = h.users["alice"], h.users["bob"], h.users["dave"]
        await h.slash(dave, h.games, "play demo", {"game": "druids", "players": 2})
        game_id = (await h.service.games_in_channel(int(h.games.id)))[0].id
        thread = h.thread(await h.table(game_id))
        for user in (alice, bob):
            await h.slash(user, thread, "play follow")
        await h.slash(bob, thread, "play notify", {"level": "none"})
        await h.abandon(dave, thread)
        board = h.board_message(await h.table(game_id))
        assert alice.id in board.pinged_ids and bob.id not in board.pinged_ids
        assert h.sb.violations == []
