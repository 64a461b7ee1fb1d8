"""Days-long play through the real bot: reminders and deadlines across a restart, bots, undo, seats changing hands,
logs and exports, spectators, stats and server settings. Time is moved by the test, never slept."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from bot.chooser import split
from bot.picker import offered
from bot.service import as_utc, choices
from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e


async def started(h: Harness, players: list[str], bots: int = 0) -> int:
    alice = h.users[players[0]]
    lobby, game_id = await h.open_lobby("druids", tuple(players))
    for _ in range(bots):
        await h.click(alice, lobby, f"lobby:bot:{game_id}")
    await h.click(alice, lobby, f"lobby:start:{game_id}")
    return game_id


async def move_by_command(h: Harness, game_id: int) -> None:
    """The player to act makes the built-in player's choice, typed as /play move."""
    table = await h.table(game_id)
    seat = table.to_act()[0]
    user = next(u for u in h.users.values() if int(u.id) == table.user_at(seat))
    actions = table.engine.legal_actions(table.state, seat)
    index = actions.index(table.engine.bot_action(table.state, seat, table.version))
    await h.slash(user, h.thread(table), "play move", {"action": f"{h.token(table, user)}:{index}"})


async def test_reminders_and_deadlines_survive_a_restart(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        game_id = await started(h, ["alice", "bob"])
        table = await h.table(game_id)
        thread = h.thread(table)
        shown = await h.slash(
            alice,
            thread,
            "play timers",
            {"remind_after": 6.0, "remind_every": 6.0, "remind_max": 2, "deadline": 30.0},
        )
        assert "reminder after 6 h, then every 6 h, at most 2; deadline: 30 h." in shown.message.text
        refused = await h.slash(bob, thread, "play timers", {"deadline": 1.0})
        assert "Only the host" in refused.message.text or "방장" in refused.message.text
        # A deadline of a moment handed a review's turns to the built-in player at once: 15 min is the least.
        for command, user in (("play timers", alice), ("settings", h.users["erin"])):
            tiny = await h.slash(user, thread, command, {"deadline": 0.0001})
            assert tiny.message.audience.kind == "ephemeral"
            assert "A deadline is at least 0.25 h (15 min); 0 means no deadline." in tiny.message.text
        assert (await h.table(game_id)).record.deadline_hours == 30.0
        # The board, edited, tells when the deadline falls (Discord shows it counting down, in each reader's words).
        falls = int((as_utc(table.record.waiting_since) + timedelta(hours=30)).timestamp())
        assert f"Alice — your move in Druids #1. ⌛ Deadline <t:{falls}:R>." in h.board_message(table).text

        h.clock.advance(5)
        await h.tick()
        assert not [m for m in h.sb.messages(thread) if "⏰" in m.text]
        h.clock.advance(1.5)
        await h.tick()
        reminders = [m for m in h.sb.messages(thread) if "⏰" in m.text]
        assert len(reminders) == 1 and reminders[0].pinged_ids == [alice.id]
        await h.tick()
        assert len([m for m in h.sb.messages(thread) if "⏰" in m.text]) == 1  # not again within 6 hours

        await h.restart_bot()  # the timers live in the database
        h.clock.advance(6)
        await h.tick()
        assert len([m for m in h.sb.messages(thread) if "⏰" in m.text]) == 2
        h.clock.advance(20)
        await h.tick()
        # Alice's whole turn is played for her at once, in several moves, and the board that hands the turn to
        # Bob tells it under one note (played a move a tick, a review's board repeated the note before every
        # move, and Bob's new board lost it).
        after = await h.table(game_id)
        assert after.to_act() == [1]
        moves = await h.service.moves(game_id)
        played = [m for m in moves if m.version > table.version]
        assert len(played) > 1 and {m.user_id for m in played} == {0}
        deadline = [m for m in h.sb.messages(thread) if "deadline passed" in m.text]
        assert deadline == [h.board_message(after)] and deadline[0].text.count("deadline passed") == 1
        assert "• ⌛ Alice's deadline passed" in deadline[0].text and f"<@{bob.id}>" in deadline[0].text
        # Alice hears it where her "your move" came: her DM, edited (no new alert).
        [dm] = h.sb.dms(alice)
        assert dm.text.startswith("⌛ Your deadline passed, so the built-in player moved for you: ")
        assert "Alice" in dm.text.split("\n")[0] and "Take my turn" not in str(dm.interactive())
        # A vacation pauses deadlines.
        away = h.users[["alice", "bob"][after.to_act()[0]]]
        await h.slash(away, thread, "play vacation", {"on": True})
        # the board says who is away, and no deadline; so does /play mine, to them
        board = h.board_message(after).text
        assert f"🏖️ On vacation, so no deadline or reminders until back: {after.names[1]}." in board
        assert "Deadline" not in board
        mine = (await h.slash(away, h.games, "play mine")).message.text
        assert mine.startswith("🏖️ 휴가 중입니다.") and "기한:" not in mine
        h.clock.advance(100)
        await h.tick()
        assert (await h.table(game_id)).version == after.version
        # Back, the wait starts again: not a deadline 100 h past, handing the turn at once to the built-in
        # player (a review's player was welcomed back and lost the turn 5 s later), and reminders anew.
        await h.slash(away, thread, "play vacation", {"on": False})
        falls = int((h.clock() + timedelta(hours=30)).timestamp())
        assert f"⌛ Deadline <t:{falls}:R>." in h.board_message(after).text
        assert "🏖️" not in h.board_message(after).text
        mine = (await h.slash(away, h.games, "play mine")).message.text
        assert f"⌛ 기한: <t:{falls}:R>." in mine and "🏖️" not in mine
        await h.tick()
        assert (await h.table(game_id)).version == after.version
        reminded = len([m for m in h.sb.messages(thread) if "⏰" in m.text])
        h.clock.advance(6.5)
        await h.tick()
        assert len([m for m in h.sb.messages(thread) if "⏰" in m.text]) == reminded + 1
        h.clock.advance(24)
        await h.tick()
        assert (await h.table(game_id)).version > after.version  # its 30 h ran out
        assert [(v.status, v.code) for v in h.sb.violations] == []


async def test_a_refused_undo_is_told_to_its_asker_with_a_ping(tmp_path):
    """A review's asker never learnt the answer: the refusal only edited the request (an edit notifies nobody)
    and their own answer still said "Asked to take back…"."""
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        game_id = await started(h, ["alice", "bob"])
        while (await h.table(game_id)).state["phase"] != "refill":
            await move_by_command(h, game_id)
        table = await h.table(game_id)
        thread = h.thread(table)
        draw = table.engine.legal_actions(table.state, 0).index({"type": "draw_gem"})
        await h.slash(alice, thread, "play move", {"action": f"{h.token(table, alice)}:{draw}"})
        await h.slash(alice, thread, "play undo")
        request = [m for m in h.sb.messages(thread) if "undo:no" in str(m.interactive())][-1]
        version = (await h.table(game_id)).version
        refused = await h.click(bob, request, f"undo:no:{game_id}:{version}")
        assert request.text == "↩️ Bob refused the undo; the move stands." and not request.interactive()
        told = refused.messages[-1]
        assert told.audience.kind == "public" and told.pinged_ids == [alice.id]
        assert told.text == f"↩️ <@{alice.id}>, Bob refused your undo: your move stands."
        assert (await h.table(game_id)).version == version  # nothing taken back
        assert h.sb.violations == []


async def test_bots_fill_seats_and_a_game_runs_to_the_end(tmp_path, database_url):
    """Played on every supported database."""
    async with harness(tmp_path, database_url) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        game_id = await started(h, ["alice"], bots=2)
        table = await h.table(game_id)
        assert [s.is_bot for s in table.seats] == [False, True, True]
        thread = h.thread(table)
        follow = await h.slash(dave, thread, "play follow")
        assert follow.message.audience.user_id == dave.id
        assert dave.id in thread.member_ids
        # Exporting waits for the end, and says so (a review was told there was no game, or none running).
        early = await h.slash(alice, thread, "play export")
        assert early.message.text.startswith("A game can be exported once it is over")
        early = await h.slash(alice, h.games, "play export", {"game": game_id})
        assert early.message.text.startswith("A game can be exported once it is over")
        steps = 0
        while (table := await h.table(game_id)).status == "active":
            assert table.to_act() == [0]  # the bots have already moved whenever Alice is to act
            await move_by_command(h, game_id)
            steps += 1
            assert steps < 400
        final = h.board_message(table)
        assert "🏆" in final.text and dave.id in final.pinged_ids and alice.id in final.pinged_ids

        log = await h.slash(alice, thread, "play log")
        assert log.message.audience.kind == "ephemeral" and "recent moves" in log.message.text
        exported = await h.slash(alice, thread, "play export")
        data = json.loads(exported.message.attachments[0].data)
        replayed = table.engine.new_game(3, table.engine.validate_options(data["options"]), data["seed"])
        for move in data["moves"]:
            replayed, _ = table.engine.apply(replayed, move["seat"], move["action"])
        assert replayed == table.state == data["final_state"]

        stats = await h.slash(alice, h.games, "play stats", {"game": "druids"})
        assert "alice" in stats.message.text.lower() and "1" in stats.message.text
        history = await h.slash(dave, h.games, "play history", {"user": alice.id})
        assert f"#{game_id}" in history.message.text
        assert [a.filename for a in history.message.attachments] == ["results.png"]
        assert h.sb.violations == []


def pings(h, user, table) -> int:
    """How many of the game's thread messages mention `user` (an edit keeps the mentions it was posted with)."""
    return sum(user.id in m.pinged_ids for m in h.sb.messages(h.thread(table)))


async def test_undo_takes_back_a_chained_choice_as_it_was_clicked(tmp_path):
    """A Druids turn's first choice in the move picker plays two cards at once (two moves in the log); /play undo
    takes both back, not only the second."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await started(h, ["alice", "bob", "dave"])
        table = await h.table(game_id)
        offers = offered(table, 0, choices(table, 0))
        both = next(a for a in offers if [p["type"] for p in split(a)] == ["play_card", "play_card"])
        await h.play_through_chooser(alice, game_id, both)
        assert (await h.table(game_id)).version == table.version + 2
        dms, pinged = {m.id for m in h.sb.dms(alice)}, pings(h, alice, table)
        undone = await h.slash(alice, h.thread(table), "play undo")
        assert (await h.table(game_id)).state == table.state
        # The answer and the board say what was taken back: both cards, from the public events.
        took_back = "Taken back: " + " ".join(["Alice plays a gem face down at Place"] * 2)
        assert took_back in re.sub(r" \d+ \(\w+\)\.", "", undone.message.text)
        note = undone.message.text.split("\n")[0]
        board = h.board_message(await h.table(game_id))
        assert note.split(": ", 1)[1] in board.text
        # The answer carries on with her choices again, so neither the board nor a DM tells her a second later.
        assert undone.message.selects() or undone.message.buttons()
        assert pings(h, alice, table) == pinged and "Alice — your move" in board.text
        assert not [m for m in h.sb.dms(alice) if m.id not in dms]


async def test_undo_leave_substitute_and_vote_out(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob, dave, erin = (h.users[n] for n in ("alice", "bob", "dave", "erin"))
        game_id = await started(h, ["alice", "bob", "dave"])
        table = await h.table(game_id)
        thread = h.thread(table)
        gem = next(c for c in table.state["hands"][0] if not c.startswith("f-"))
        index = table.engine.legal_actions(table.state, 0).index(
            {"type": "play_card", "card": gem, "place": 0}
        )
        await h.slash(alice, thread, "play move", {"action": f"{h.token(table, alice)}:{index}"})
        undone = await h.slash(alice, thread, "play undo")
        assert "Taken back: Alice plays" in undone.message.text
        assert (await h.table(game_id)).state == table.state

        # After a draw, the others must approve.
        while (await h.table(game_id)).state["phase"] != "refill":
            await move_by_command(h, game_id)
        table = await h.table(game_id)
        draw = table.engine.legal_actions(table.state, 0).index({"type": "draw_gem"})
        await h.slash(alice, thread, "play move", {"action": f"{h.token(table, alice)}:{draw}"})
        await h.slash(alice, thread, "play undo")
        request = [
            m for m in h.sb.messages(thread) if m.interactive() and "undo:yes" in str(m.interactive())
        ][-1]
        assert set(request.pinged_ids) == {bob.id, dave.id}
        assert request.text.startswith(
            "↩️ Asked to take back: Alice draws a gem. Every other player must approve"
        )
        version = (await h.table(game_id)).version
        await h.click(bob, request, f"undo:yes:{game_id}:{version}")
        # the request itself shows who approved and whom it still waits for (a review saw no approvals on it)
        assert (
            request.text.endswith(f"must approve: <@{dave.id}>.\n✅ Approved by Bob.")
            and request.interactive()
        )
        pings = sum(alice.id in m.pinged_ids for m in h.sb.messages(thread))
        done = await h.click(dave, request, f"undo:yes:{game_id}:{version}")
        assert not done.message.interactive()
        assert "Taken back: Alice draws a gem." in done.message.text  # not which one
        # Back to the refill, with the unseen gems shuffled (what she drew is not what comes next), and Alice, who
        # asked and may have stopped looking, is told it is her move again.
        back = await h.table(game_id)
        assert back.state["rng"] != table.state["rng"]
        assert all(back.view(seat) == table.view(seat) for seat in (None, 0, 1, 2))
        assert sum(alice.id in m.pinged_ids for m in h.sb.messages(thread)) == pings + 1
        assert alice.id in h.board_message(back).pinged_ids

        # Bob leaves: the built-in player holds his seat (and his cards); Erin takes it over.
        while not any(m.seat == 1 for m in await h.service.moves(game_id)):  # once he has moved
            await move_by_command(h, game_id)
        asked = await h.slash(bob, thread, "play leave")  # asked first: it cannot be taken back
        assert asked.message.audience.kind == "ephemeral" and (await h.table(game_id)).user_at(1) == int(
            bob.id
        )
        done = await h.click(bob, asked.message, f"table:leave:{game_id}")
        assert not done.message.interactive()
        assert (await h.table(game_id)).user_at(1) is None
        # No "your move" is left in his DMs to click into a seat that is no longer his; his DM says he left.
        assert not any(m.component(f"table:turn:{game_id}") for m in h.sb.dms(bob))
        assert f"#{game_id}" in h.sb.dms(bob)[-1].text and not h.sb.dms(bob)[-1].attachments
        await h.slash(erin, thread, "play sub")
        table = await h.table(game_id)
        assert table.user_at(1) == int(
            erin.id
        )  # the bot may have played the seat meanwhile; Erin holds it now
        assert any(m.attachments for m in h.sb.dms(erin))  # Bob's hidden cards went to Erin, privately
        # Bob's moves stay Bob's in the log and on the board; Erin's name goes only on what she does from now.
        log = await h.bot.host.move_log(table, "en", None, limit=100)
        bob_held = next(s for s in table.seats if s.seat == 1).holders[0]
        assert bob_held[1:] == ["Bob", True]
        left = bob_held[0]  # the last version his
        bobs = [m.version for m in await h.service.moves(game_id) if m.seat == 1 and m.version <= left]
        assert bobs
        for line in log.splitlines():
            if line.startswith("`") and int(line[1 : line.index("`", 1)]) in bobs:
                assert "Erin" not in line, line
            if (
                line.startswith("`") and "Bot 2" in line
            ):  # the built-in player's own seat then: not "for them"
                assert "moved for them" not in line, line
        assert "Bob" in log
        board = h.board_message(table).text.splitlines()
        over = next(i for i, line in enumerate(board) if "takes over" in line)
        assert any("Bot 2" in line for line in board[:over]) and not any(
            "Erin" in line for line in board[:over]
        )

        # Dave vanishes: Alice and Erin vote him out, once the game has waited on him for its first reminder's
        # time (a player who is merely slow, or not even to move, cannot be voted out).
        while 2 not in (await h.table(game_id)).to_act():
            await move_by_command(h, game_id)
        early = await h.slash(alice, thread, "play kick", {"player": dave.id})
        assert early.message.audience.kind == "ephemeral"
        assert early.message.text.startswith(
            "The game has waited for Dave for under a minute. A vote to replace them"
        )
        assert "once it has waited 24 h" in early.message.text
        h.clock.advance(24)
        first = await h.slash(alice, thread, "play kick", {"player": dave.id})
        assert first.message.audience.kind == "ephemeral"
        assert first.message.text.startswith("Your vote to replace Dave is counted (1/2)")
        # The vote is told in the thread, pinging Dave, who may still answer it by moving (a review's votes went
        # unseen until one passed).
        vote = h.sb.messages(thread)[-1]
        assert vote.audience.kind == "public" and vote.pinged_ids == [dave.id]
        assert vote.text.startswith(f"🗳️ Alice voted to hand <@{dave.id}>'s seat to the built-in player (1/2")
        told = len(h.sb.dms_sent(dave))
        await h.slash(erin, thread, "play kick", {"player": dave.id})
        assert (await h.table(game_id)).user_at(2) is None
        # Dave is told, by a new DM (a review's voted-out player was never told and kept a "your move" button).
        assert len(h.sb.dms_sent(dave)) == told + 1 and "voted you out" in h.sb.dms_sent(dave)[-1].text
        assert "/play sub" not in h.sb.dms_sent(dave)[-1].text  # which he may not use
        assert not any(m.component(f"table:turn:{game_id}") for m in h.sb.dms(dave))
        # Nor can he take the seat back at once (a review's voted-out player did, with /play sub).
        out = await h.table(game_id)
        refused = await h.slash(dave, thread, "play sub")
        assert refused.message.audience.kind == "ephemeral"
        assert (
            refused.message.text
            == "The other players voted you out of this game, so you can't take a seat in it again."
        )
        assert (await h.table(game_id)).version == out.version and out.user_at(2) is None
        assert h.sb.violations == []


async def test_settings_pings_and_refusals(tmp_path):
    async with harness(tmp_path) as h:
        alice, erin = h.users["alice"], h.users["erin"]
        saved = await h.slash(erin, h.games, "settings", {"locale": "ko", "deadline": 48.0})
        assert "Saved" in saved.message.text and "Deadline: 48 h" in saved.message.text
        assert "games already under way keep theirs" in saved.message.text
        game_id = await started(h, ["alice", "bob"])
        table = await h.table(game_id)
        assert table.record.locale == "ko"
        board = h.board_message(table)
        assert "차례" in board.text  # public posts in the server's language
        since = as_utc(table.record.waiting_since)
        assert f"⌛ 기한: <t:{int((since + timedelta(hours=48)).timestamp())}:R>." in board.text
        # The server's deadline changes: the boards of the games that follow it say so, on the clock's next look.
        await h.slash(erin, h.games, "settings", {"deadline": 24.0})
        h.clock.advance(0.01)
        await h.tick()
        assert f"⌛ 기한: <t:{int((since + timedelta(hours=24)).timestamp())}:R>." in board.text
        muted = await h.slash(alice, h.thread(table), "play pings", {"on": False})
        assert "No more pings or new DMs" in muted.message.text
        dms = len(h.sb.dms(alice))
        while (await h.table(game_id)).to_act() == [0]:
            await move_by_command(h, game_id)
        while (await h.table(game_id)).to_act() == [1]:
            await move_by_command(h, game_id)
        board = h.board_message(await h.table(game_id))
        assert alice.id not in board.pinged_ids and "Alice" in board.text
        # Her move again: told by her one DM, edited (which notifies nobody), not by a new one.
        assert len(h.sb.dms(alice)) == dms
        assert "Your move" in h.sb.dms(alice)[-1].text and h.sb.dms(alice)[-1].component(
            f"table:turn:{game_id}"
        )
        # Nor does its end ping her (a review's muted player was pinged by the board of a game abandoned).
        done = await h.abandon(erin, h.thread(table), game_id)  # a server manager
        assert (
            done.message.text == "This game was abandoned by Erin."
        )  # her answer in her words, not the server's
        ended = h.board_message(await h.table(game_id))
        assert "Erin님이" in ended.text  # the board, in the server's
        assert (await h.table(game_id)).status == "abandoned" and alice.id not in ended.pinged_ids
        # Only one channel allowed: a lobby elsewhere is refused.
        other = h.sb.add_channel(h.guild, "chat")
        await h.slash(erin, h.games, "settings", {"channel": h.games.id})
        refused = await h.slash(alice, other, "play new", {"game": "druids"})
        assert refused.message.audience.kind == "ephemeral" and str(h.games.id) in refused.message.text
        assert h.sb.violations == []


async def test_a_dm_without_a_picture_stops_saying_your_move_and_a_muted_game_never_notifies(tmp_path):
    """Roll Player has no private picture, so a DM is only "your move": a review found it still saying so, with
    its button, after the turn had passed, and muting the game (`/play pings`) broke the DM's edit altogether
    (publishing failed) and let a new "your move" DM notify."""
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        game_id = await h.start_game("roll_player", ("alice", "dave"))
        table = await h.table(game_id)
        had_dm = bool(h.sb.dms(alice))
        await h.slash(alice, h.thread(table), "play pings", {"on": False})
        seen = {0: False, 1: False}  # each seat seen acting and then not
        for _ in range(60):
            table = await h.table(game_id)
            assert table.record.shown_version == table.version  # every change published
            for seat, user in ((0, alice), (1, dave)):
                dms = h.sb.dms(user)
                if seat in table.to_act() or not dms:
                    continue
                last = dms[-1]
                assert "Your move" not in last.text and last.buttons() == [], last.text
                assert "nothing for you to do until your next move" in last.text
                seen[seat] = True
            if all(seen.values()) or table.status != "active":
                break
            await move_by_command(h, game_id)
        assert all(seen.values()), seen
        # the muted game's "your move" never set off a notification: sent silently, or her old DM edited
        assert all(m.silent for m in h.sb.dms(alice)[1 if had_dm else 0 :])
        assert h.sb.violations == []


async def test_housekeeping_and_server_policies(tmp_path):
    async with harness(tmp_path) as h:
        bob, erin = h.users["bob"], h.users["erin"]
        await h.slash(erin, h.games, "settings", {"threads": False, "archive_days": 2.0, "lobby_hours": 5.0})
        game_id = await started(h, ["alice", "bob"])
        table = await h.table(game_id)
        assert table.record.thread_id == int(h.games.id)  # no thread: the game plays in the channel
        assert any(m.attachments for m in h.sb.messages(h.games))
        lobby = (await h.slash(bob, h.games, "play new", {"game": "druids"})).message
        h.clock.advance(6)
        await h.tick()
        assert "expired" in lobby.text and not lobby.interactive()
        h.clock.advance(48)
        await h.tick()
        assert (await h.table(game_id)).status == "archived"
        assert any("archived" in m.text for m in h.sb.messages(h.games))
        assert not h.board_message(await h.table(game_id)).interactive()
        assert h.sb.violations == []


async def test_a_finished_game_s_board_can_be_asked_for(tmp_path):
    """`/play board` in a finished game's thread said "There's no running game here" and `game:` said it was
    not running (a review): a finished game's final board is shown, in its thread or by its number."""
    async with harness(tmp_path) as h:
        game_id = await started(h, ["alice", "bob"])
        for step in range(5_000):
            table = await h.table(game_id)
            if table.status != "active":
                break
            seat = table.to_act()[0]
            await h.service.act(
                game_id, table.user_at(seat), table.engine.bot_action(table.state, seat, step)
            )
        await h.bot.host.after_commit(game_id)
        await h.idle()
        table = await h.table(game_id)
        assert table.status == "finished"
        alice = h.users["alice"]
        for answer in (
            await h.slash(alice, h.thread(table), "play board"),
            await h.slash(alice, h.games, "play board", {"game": game_id}),
        ):
            assert answer.message.audience.kind == "ephemeral" and answer.message.attachments
            assert f"#{game_id}" in answer.message.text


async def test_settings_say_what_language_public_posts_use_when_none_is_chosen(tmp_path):
    """A review read "Language of public posts: any": with none chosen, public posts use the server's own
    Discord language, and the settings say that."""
    async with harness(tmp_path) as h:
        shown = await h.slash(h.users["erin"], h.games, "settings")
        assert "Language of public posts: the server's own Discord language" in shown.message.text
        # A language chosen is named in its own words, and hours are whole (a review read "ko" and "24.0시간").
        chosen = await h.slash(h.users["erin"], h.games, "settings", {"locale": "ko"})
        assert "Language of public posts: 한국어" in chosen.message.text
        assert "Reminders: after 24 h, every 24 h" in chosen.message.text and ".0" not in chosen.message.text


async def test_timers_set_in_a_lobby_leave_it_open(tmp_path):
    """A review's host set a deadline in the lobby, and the lobby said it had expired and lost its buttons."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        lobby, game_id = await h.open_lobby("druids")
        before = lobby.text
        shown = await h.slash(alice, h.games, "play timers", {"game": game_id, "deadline": 24.0})
        assert "deadline: 24 h" in shown.message.text
        await h.idle()
        assert lobby.text == before and f"lobby:start:{game_id}" in str(lobby.buttons())
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        assert (await h.table(game_id)).status == "active"
        assert h.sb.violations == []


async def test_a_move_behind_a_screen_taken_back_is_told_to_its_player_as_theirs(tmp_path):
    """A review's player was told "Frank took back their last move" of his own undo."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await h.start_game("roll_for_the_galaxy", ("alice", "bob"))
        thread = h.thread(await h.table(game_id))
        for user in (alice, h.users["bob"]):  # the starting tiles, which everyone sees
            table = await h.table(game_id)
            await h.slash(user, thread, "play move", {"action": f"{h.token(table, user)}:0"})
        table = await h.table(game_id)
        assert table.state["stage"] == "assign"  # behind the screens
        await h.slash(alice, thread, "play move", {"action": f"{h.token(table, alice)}:0"})
        assert (await h.table(game_id)).version == table.version + 1
        undone = await h.slash(alice, thread, "play undo")
        assert undone.message.text.startswith(
            "↩️ You took back your last move, which the others had not seen."
        ), undone.message.text
        assert (await h.table(game_id)).version == table.version + 2
        assert h.sb.violations == []
