"""A whole Druids game through the real bot and the loopback Discord-compatible server."""

from __future__ import annotations

import pytest

from bot.chooser import ENDING, split
from bot.games import presenter
from bot.picker import offered
from bot.service import choices
from engines.base import Action
from tests.e2e.harness import Harness, harness

pytestmark = pytest.mark.e2e


def quick_policy(actions: list[Action], view: dict) -> Action:
    """Ends games fast: score whenever possible, play followers where cards lie, draw gems."""
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    if "request_scoring" in by_type:
        return by_type["request_scoring"][0]
    if "play_card" in by_type:
        crowded = sorted(
            by_type["play_card"],
            key=lambda a: -len(view["places"][a["place"]]["followers"]) - view["places"][a["place"]]["gems"],
        )
        followers = [a for a in crowded if a["card"].startswith("f-")]
        return (followers or crowded)[0]
    for kind in ("skip_discard", "draw_gem", "take_follower"):
        if kind in by_type:
            return by_type[kind][0]
    return actions[0]


async def open_lobby(h: Harness, players: list[str]) -> int:
    alice = h.users["alice"]
    created = await h.slash(alice, h.games, "play new", {"game": "druids"})
    lobby = created.message
    assert lobby is not None and lobby.audience.kind == "public"
    assert "Druids" in lobby.text and "Alice" in lobby.text
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    for name in players[1:]:
        await h.click(h.users[name], lobby, f"lobby:join:{game_id}")
    assert all(name.capitalize() in lobby.text for name in players)
    return game_id


async def test_a_whole_druids_game_with_refusals_dms_and_a_restart(tmp_path):
    async with harness(tmp_path) as h:
        sb = h.sb
        alice, bob, carol, dave = (h.users[n] for n in ("alice", "bob", "carol", "dave"))
        game_id = await open_lobby(h, ["alice", "bob", "carol"])
        lobby = sb.world.message(str((await h.table(game_id)).record.lobby_message_id))

        # Only the host starts; a second join is refused; all refusals are private to the clicker.
        refused = await h.click(dave, lobby, f"lobby:start:{game_id}")
        assert refused.message.audience.kind == "ephemeral" and refused.message.audience.user_id == dave.id
        assert "host" in refused.message.text
        again = await h.click(bob, lobby, f"lobby:join:{game_id}")
        assert "이미" in again.message.text  # Bob reads Korean
        await h.click(alice, lobby, f"lobby:start:{game_id}")

        table = await h.table(game_id)
        assert table.status == "active"
        thread = h.thread(table)
        assert thread.is_thread and thread.parent_id == h.games.id
        board = h.board_message(table)
        assert board.attachments and board.attachments[0].filename == "board.png"
        assert alice.id in board.pinged_ids and bob.id not in board.pinged_ids
        # Private hands by DM; Carol's DMs are closed, so the thread tells her where to look instead.
        assert any(m.attachments for m in sb.dms(alice)) and any(m.attachments for m in sb.dms(bob))
        assert not sb.dms(carol)
        assert any(carol.id in m.pinged_ids and "**My hand**" in m.text for m in sb.messages(thread))
        hand = await h.click(carol, board, f"table:hand:{game_id}")
        assert hand.message.audience.kind == "ephemeral" and hand.message.attachments

        # A non-player and a player out of turn are turned away privately.
        outsider = await h.click(dave, board, f"table:turn:{game_id}")
        assert outsider.message.audience.user_id == dave.id and "not playing" in outsider.message.text
        early = await h.click(bob, board, f"table:turn:{game_id}")
        assert early.message.audience.user_id == bob.id and "할 일이 없습니다" in early.message.text

        # Play to the end: moves through the picker, some by /play move, a restart half way through.
        stale_picker = None
        moves = 0
        while (table := await h.table(game_id)).status == "active":
            seat = table.to_act()[0]
            user = [alice, bob, carol][seat]
            view = table.view(seat)
            action = quick_policy(table.engine.legal_actions(table.state, seat), view)
            if moves % 5 == 4:
                choices = await sb.autocomplete(user, thread, "play move", {"action": ""}, focused="action")
                assert 0 < len(choices) <= 25
                index = table.engine.legal_actions(table.state, seat).index(action)
                result = await h.slash(
                    user, thread, "play move", {"action": f"{h.token(table, user)}:{index}"}
                )
                assert result.message.audience.kind == "ephemeral"
            else:
                picker = await h.play_through_chooser(user, game_id, action)
                stale_picker = stale_picker or (picker, table.version)
            moves += 1
            assert (await h.table(game_id)).version == table.version + 1
            if moves == 12:
                await h.restart_bot()
                # A board button from before the restart still works.
                table = await h.table(game_id)
                current = [alice, bob, carol][table.to_act()[0]]
                reopened = await h.click(current, h.board_message(table), f"table:turn:{game_id}")
                assert reopened.message.components
            if moves == 14:
                # A picker button from an earlier state is refused as stale, and nothing changes.
                picker, version = stale_picker
                before = (await h.table(game_id)).version
                old_buttons = [c["custom_id"] for c in picker.buttons() if c["custom_id"].startswith("mv:")]
                if old_buttons:
                    stale = await h.click(alice, picker, old_buttons[0])
                    assert (await h.table(game_id)).version == before
                    assert stale.message is picker
            assert moves < 600

        table = await h.table(game_id)
        assert table.status == "finished"
        outcome = table.engine.outcome(table.state)
        final = h.board_message(table)
        assert "🏆" in final.text and all(name in final.text for name in ("Alice", "Bob", "Carol"))
        assert not final.interactive()
        # The last board carries the results picture (scores by category, and over the game).
        assert [a.filename for a in final.attachments] == ["board.png", "results.png"]
        assert h.restarts == 1

        # Privacy: hands and drawn cards only ever reached their owner.
        for message in sb.messages(thread) + sb.messages(h.games):
            if message.audience.kind == "public":
                assert all(a.filename in ("board.png", "results.png") for a in message.attachments)
                assert "You drew" not in message.text and "뽑았습니다" not in message.text
        for user in (alice, bob):
            assert all(m.audience.user_id == user.id for m in sb.dms(user))
        assert outcome.winners
        # The one refusal: the first DM to Carol, whose DMs are closed; she was not tried again.
        assert [(v.status, v.code) for v in sb.violations] == [(403, 50007)]


async def test_rules_lookup_in_the_readers_language(tmp_path):
    async with harness(tmp_path) as h:
        bob, alice = h.users["bob"], h.users["alice"]
        choices = await h.sb.autocomplete(
            bob, h.games, "rules", {"game": "druids", "topic": "점수"}, focused="topic"
        )
        assert choices and all(len(c["name"]) <= 100 for c in choices)
        # /help, in the reader's language, naming the buttons as they read (a review found no help at all)
        helped = await h.slash(bob, h.games, "help")
        assert helped.message.audience.kind == "ephemeral" and "`/play new game:…`" in helped.message.text
        assert "**참가**" in helped.message.text and "**내 차례 진행**" in helped.message.text
        assert "`/play kick`" in helped.message.text and "`/play undo`" in helped.message.text
        answer = await h.slash(bob, h.games, "rules", {"game": "druids", "topic": "scoring"})
        assert answer.message.audience.kind == "ephemeral"
        assert "마지막 추종자" in answer.message.text
        missed = await h.slash(alice, h.games, "rules", {"game": "druids", "topic": "zzqx", "public": True})
        assert (
            missed.message.audience.kind == "ephemeral"
            and "Nothing in the Druids rules" in missed.message.text
        )
        public = await h.slash(alice, h.games, "rules", {"game": "druids", "topic": "end", "public": True})
        assert public.message.audience.kind == "public" and "highest mover" in public.message.text
        missing = await h.slash(alice, h.games, "rules", {"game": "druids", "topic": "chess openings"})
        assert "Nothing in the Druids rules" in missing.message.text
        asked = await h.slash(bob, h.games, "rules", {"game": "druids", "topic": "어떻게 이기나요"})
        assert "가장 가까운" in asked.message.text
        assert h.sb.violations == []


async def test_bad_input_gets_a_clear_private_answer(tmp_path):
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        bad = await h.slash(alice, h.games, "play new", {"game": "druids", "options": "speed"})
        assert bad.message.audience.kind == "ephemeral" and "name=value" in bad.message.text
        unknown = await h.slash(alice, h.games, "play new", {"game": "druids", "options": "speed=fast"})
        assert "Unknown option" in unknown.message.text and "Druids has no options" in unknown.message.text
        banana = await h.slash(
            alice, h.games, "play new", {"game": "roll_player", "options": "variant=banana"}
        )
        assert "Unknown option" in banana.message.text and "short_game" in banana.message.text
        offered = await h.sb.autocomplete(
            alice, h.games, "play new", {"game": "roll_player", "options": "short"}, focused="options"
        )
        assert [c["value"] for c in offered] == ["short_game=true", "short_game=false"]
        assert ["default" in c["name"] for c in offered] == [False, True]  # the default value says so
        nothing = await h.slash(dave, h.games, "play move", {"action": "1:0"})
        assert "no running game" in nothing.message.text
        game_id = await open_lobby(h, ["alice", "bob"])
        early = await h.slash(
            dave, h.games, "play follow", {"game": game_id}
        )  # said "already started or closed"
        assert early.message.text == "This game hasn't started yet."
        await h.click(
            alice,
            h.sb.world.message(str((await h.table(game_id)).record.lobby_message_id)),
            f"lobby:start:{game_id}",
        )
        table = await h.table(game_id)
        thread = h.thread(table)
        late = await h.slash(dave, h.games, "play join", {"game": game_id})
        assert late.message.text == "This lobby has already started or closed."
        # A second game in this one's thread made every command there ask which game: it goes to the channel.
        second = await h.slash(dave, thread, "play new", {"game": "roll_player"})
        assert second.message.audience.kind == "ephemeral"
        assert second.message.text.startswith(
            f"This thread is Druids #{game_id}'s own. Start a new game in <#"
        )
        assert [t.id for t in await h.service.games_in_channel(int(thread.id))] == [game_id]
        garbled = await h.slash(alice, thread, "play move", {"action": "not-a-move"})
        assert "None of your moves reads “not-a-move”" in garbled.message.text
        outsider = await h.slash(dave, thread, "play move", {"action": f"{h.token(table, dave)}:0"})
        assert "not playing" in outsider.message.text
        stale = await h.slash(alice, thread, "play move", {"action": f"{table.version - 1}:0"})
        assert "offered before the game moved on" in stale.message.text and "/play move" in stale.message.text
        assert (await h.table(game_id)).version == table.version
        assert h.sb.violations == []


async def test_several_games_in_one_channel_and_across_servers(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob, dave = h.users["alice"], h.users["bob"], h.users["dave"]
        other_guild = h.sb.add_guild("Second server")
        other_channel = h.sb.add_channel(other_guild, "tables")
        h.sb.add_member(other_guild, dave)
        h.sb.add_member(other_guild, bob)
        first = await open_lobby(h, ["alice", "bob"])
        second = (await h.slash(dave, h.games, "play new", {"game": "druids"})).message
        second_id = int(second.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        ambiguous = await h.slash(h.users["erin"], h.games, "play join")
        assert "Several games" in ambiguous.message.text
        joined = await h.slash(bob, h.games, "play join")  # the one open lobby here Bob is not in yet
        assert joined.message.audience.kind == "ephemeral" and f"#{second_id}" in joined.message.text
        third = (await h.slash(dave, other_channel, "play new", {"game": "druids"})).message
        third_id = int(third.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(bob, third, f"lobby:join:{third_id}")
        for game_id, host in ((first, alice), (second_id, dave), (third_id, dave)):
            table = await h.table(game_id)
            await h.click(
                host, h.sb.world.message(str(table.record.lobby_message_id)), f"lobby:start:{game_id}"
            )
        threads = {(await h.table(g)).record.thread_id for g in (first, second_id, third_id)}
        assert len(threads) == 3
        # In a game's thread, /play commands find that game without being told.
        table = await h.table(first)
        seat = table.to_act()[0]
        index = table.engine.legal_actions(table.state, seat).index(
            table.engine.bot_action(table.state, seat, 1)
        )
        await h.slash(alice, h.thread(table), "play move", {"action": f"{h.token(table, alice)}:{index}"})
        assert (await h.table(first)).version == table.version + 1
        assert (await h.table(second_id)).version == 1 and (await h.table(third_id)).version == 1
        mine = await h.slash(bob, h.games, "play mine")
        assert f"#{first}" in mine.message.text and f"#{second_id}" in mine.message.text
        assert f"#{third_id}" not in mine.message.text  # another server's game
        assert not mine.message.buttons()  # neither game waits for Bob
        # Once one does, its "Take my turn" button is right there, and it opens his picker.
        while (table := await h.table(first)).seat_of(int(bob.id)) not in table.to_act():
            seat = table.to_act()[0]
            action = table.engine.bot_action(table.state, seat, table.version)
            await h.service.act(first, table.user_at(seat), action)
        mine = await h.slash(bob, h.games, "play mine")
        assert [c["custom_id"] for c in mine.message.buttons()] == [f"table:turn:{first}"]
        opened = await h.click(bob, mine.message, f"table:turn:{first}")
        assert opened.message.audience.user_id == bob.id and opened.message.interactive()
        assert h.sb.violations == []


async def test_long_choices_become_select_menus(tmp_path, monkeypatch):
    import bot.ui

    monkeypatch.setattr(bot.ui, "MAX_BUTTONS", 2)  # every step with more than two options becomes a select
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await open_lobby(h, ["alice", "bob"])
        await h.click(
            alice,
            h.sb.world.message(str((await h.table(game_id)).record.lobby_message_id)),
            f"lobby:start:{game_id}",
        )
        table = await h.table(game_id)
        action = next(a for a in table.engine.legal_actions(table.state, 0) if a["type"] == "play_card")
        picker = await h.play_through_chooser(alice, game_id, action)
        assert (
            "Done" in picker.text and picker.selects()
        )  # done through select menus; the next step offers more
        assert (await h.table(game_id)).version == table.version + 1
        assert h.sb.violations == []


async def test_a_whole_turn_in_three_clicks_commits_what_its_moves_one_by_one_would(tmp_path):
    """Two plays, a discard or not and the refill, picked as one run through the picker, leave the game exactly
    as the same moves made one at a time, one committed version each; the mover is told what they did and drew
    from the committed events."""
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        game_id = await open_lobby(h, ["alice", "bob"])
        lobby = h.sb.world.message(str((await h.table(game_id)).record.lobby_message_id))
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        table = await h.table(game_id)
        seat = table.to_act()[0]
        user = next(u for u in (alice, bob) if table.seat_of(int(u.id)) == seat)
        run = next(a for a in offered(table, seat, choices(table, seat)) if ENDING in a)
        expected, events = table.state, []
        for part in split(run):
            expected, done = table.engine.apply(expected, seat, part)
            events += done

        picker = await h.play_through_chooser(user, game_id, run)

        after = await h.table(game_id)
        assert after.state == expected
        assert after.version == table.version + len(split(run))
        assert after.to_act() != [seat]
        game, locale = presenter("druids"), "en" if user is alice else "ko"
        for event in events:
            if event["type"] in ("OwnCardPlayed", "OwnGemDrawn"):
                assert game.card_name(event["card"], locale) in picker.text, picker.text
        assert h.sb.violations == []
