"""Autocomplete through the real bot: answered from the games this process used lately, with no database statement
once they are known, and brought up to date by every commit (a move, a new game, an ended one); after a restart the
first answer reads the database once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.harness import Harness, harness
from tests.lobbies import statements

pytestmark = pytest.mark.e2e


async def typed(h: Harness, user, channel, command: str, options: dict[str, Any], focused: str):
    """What the bot suggests, and the statements it ran to answer."""
    with statements(h.bot.host.service.sessions) as run:  # type: ignore[union-attr]
        offered = await h.sb.autocomplete(user, channel, command, options, focused=focused)
        await h.idle()
    return offered, run


async def test_autocomplete_answers_from_memory_and_follows_each_commit(tmp_path):
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        game_id = await h.start_game("roll_player", ("alice", "dave"))
        table = await h.table(game_id)
        thread = h.thread(table)
        mover = next(u for u in (alice, dave) if int(u.id) in table.users_to_act())

        # /play move: the first ask in the game's new thread is answered from memory too (the thread's games
        # were read as it opened), and so is the next one, with the current version's choices.
        first, run = await typed(h, mover, thread, "play move", {"action": ""}, "action")
        assert run == []
        again, run = await typed(h, mover, thread, "play move", {"action": ""}, "action")
        assert run == [] and again == first
        seat = table.seat_of(int(mover.id))
        assert first and all(c["value"].startswith(f"{table.choice_token(seat)}:") for c in first)

        # A committed move: the next ask shows the new version's choices, still without a statement.
        await h.slash(mover, thread, "play move", {"action": first[0]["value"]})
        after = {}
        for user in (alice, dave):
            after[user.id], run = await typed(h, user, thread, "play move", {"action": ""}, "action")
            assert run == []
        moved = await h.table(game_id)
        assert moved.version == table.version + 1
        for user in (alice, dave):
            expected = h.bot.host.action_choices(moved, int(user.id), "", "en")
            assert [(c["name"], c["value"]) for c in after[user.id]] == expected
        assert any(after.values())

        # The game: option lists the channel's games; a new lobby appears and an ended game goes, no statement.
        listed, _ = await typed(h, alice, h.games, "play board", {"game": ""}, "game")
        assert [c["value"] for c in listed] == [game_id]
        newer = (await h.slash(dave, h.games, "play new", {"game": "druids"})).message
        newer_id = int(newer.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        listed, run = await typed(h, alice, h.games, "play board", {"game": ""}, "game")
        assert run == [] and [c["value"] for c in listed] == [newer_id, game_id]
        await h.abandon(alice, h.games, game_id)
        listed, run = await typed(h, alice, h.games, "play board", {"game": ""}, "game")
        assert run == [] and [c["value"] for c in listed] == [newer_id]
        offered, run = await typed(h, mover, thread, "play move", {"action": ""}, "action")
        assert run == []  # nothing to move in an ended game, and the one line says so
        assert offered == [
            {
                "name": "There's no running game here. `/play mine` lists yours; `/play new` starts one.",
                "value": "wait",
            }
        ]

        # After a restart nothing is in memory: one read answers, and fills it.
        await h.restart_bot()
        listed, run = await typed(h, alice, h.games, "play board", {"game": ""}, "game")
        assert run and [c["value"] for c in listed] == [newer_id]
        listed, run = await typed(h, alice, h.games, "play board", {"game": ""}, "game")
        assert run == [] and [c["value"] for c in listed] == [newer_id]
        assert h.sb.violations == []


async def test_a_move_made_by_another_process_makes_a_suggestion_the_command_refuses_once(tmp_path):
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        thread = h.thread(table)
        seat = table.to_act()[0]
        mover = next(u for u in (alice, dave) if int(u.id) == table.user_at(seat))
        before, _ = await typed(h, mover, thread, "play move", {"action": ""}, "action")

        await h.move_in_another_process(table, seat)
        stale, run = await typed(h, mover, thread, "play move", {"action": ""}, "action")
        assert run == [] and stale == before  # a harmless suggestion from the version this process knows

        refused = await h.slash(mover, thread, "play move", {"action": stale[0]["value"]})
        assert "offered before the game moved on" in refused.message.text  # a typed move: no button
        moved = await h.table(game_id)
        assert moved.version == table.version + 1  # the suggestion changed nothing
        # The command's own read brought the recent games up to date.
        fresh, _ = await typed(h, mover, thread, "play move", {"action": ""}, "action")
        assert [(c["name"], c["value"]) for c in fresh] == h.bot.host.action_choices(
            moved, int(mover.id), "", "en"
        )
        assert fresh != before


async def test_play_move_takes_a_moves_whole_name_names_the_moves_part_of_one_fits_and_whom_the_game_waits_for(
    tmp_path,
):
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        thread = h.thread(table)
        seat = table.to_act()[0]
        mover = next(u for u in (alice, dave) if int(u.id) == table.user_at(seat))
        other = dave if mover is alice else alice

        # Not your turn: the answer names whom the game waits for, and nothing changes.
        early = await h.slash(other, thread, "play move", {"action": "anything"})
        assert early.message.audience.user_id == other.id
        assert f"waiting for {mover.name}" in early.message.text
        assert (await h.table(game_id)).version == table.version

        labels = [label for label, _ in h.bot.host.action_choices(table, int(mover.id), "", "en")]
        refused = await h.slash(mover, thread, "play move", {"action": "no such move at all"})
        assert "None of your moves" in refused.message.text and refused.message.audience.user_id == mover.id
        # Part of one move's name ("ready" of "Take back my ready") plays nothing: the answer names what it fits.
        part = labels[0][:-1]
        partly = await h.slash(mover, thread, "play move", {"action": part})
        assert (
            "is not the whole name of a move" in partly.message.text
            and f"• {labels[0]}" in partly.message.text
        )
        assert (await h.table(game_id)).version == table.version

        # A move's whole label, typed in other letter case, is that move.
        wanted = table.engine.legal_actions(table.state, seat)[0]
        typed_label = labels[0].upper()
        done = await h.slash(mover, thread, "play move", {"action": typed_label})
        moved = await h.table(game_id)
        assert moved.version == table.version + 1
        assert (await h.bot.host.service.moves(game_id))[-1].action == wanted
        assert done.message.text.startswith("Done")
        assert h.sb.violations == []


async def test_play_move_also_reads_the_boards_language(tmp_path):
    """A review's Korean player typed "Dwarf", a word off the English board, and was told no move fits: words in
    the game's public language are matched too, when none of the player's own fits."""
    async with harness(tmp_path) as h:
        bob = h.users["bob"]
        game_id = await h.start_game("roll_player", ("alice", "bob"))
        table = await h.table(game_id)
        assert table.record.locale == "en"
        assert table.seat_of(int(bob.id)) in table.to_act()  # choosing a race: everyone at once
        english = [label for label, _ in h.bot.host.action_choices(table, int(bob.id), "", "en")]
        word = next(w for w in english[0].split() if len(w) > 3)  # one word of a move's English name
        answer = await h.slash(bob, h.thread(table), "play move", {"action": word})
        assert f"• {english[0]}" in answer.message.text, answer.message.text
        assert (await h.table(game_id)).version == table.version  # a part of a name plays nothing


async def test_play_move_among_several_games_takes_the_one_that_waits_for_you(tmp_path):
    """Typed where several of your games run (the channel their lobbies were opened in), /play move and its list
    take the one game that waits for you; where that is none or more than one, the list says to name one, as the
    command does (a review's player in two games got an empty list, and learned why only by sending it)."""
    async with harness(tmp_path) as h:
        alice, dave = h.users["alice"], h.users["dave"]
        first = await h.start_game("roll_player", ("alice", "dave"))
        second = await h.start_game("roll_player", ("alice", "dave"))
        both = [await h.table(first), await h.table(second)]
        assert all(t.users_to_act() == [int(dave.id)] for t in both)  # Roll Player's set-up starts at seat 2

        several = {"name": "Several games run here — pick one with the `game` option.", "value": "wait"}
        for user in (alice, dave):  # waited for in both, or in neither
            offered, _ = await typed(h, user, h.games, "play move", {"action": ""}, "action")
            assert offered == [several]
        moves, _ = await typed(h, dave, h.games, "play move", {"action": "", "game": first}, "action")
        await h.slash(dave, h.games, "play move", {"action": moves[0]["value"], "game": first})
        moved = await h.table(first)
        assert moved.version == both[0].version + 1 and moved.users_to_act() == [int(alice.id)]

        for user, table in ((alice, moved), (dave, both[1])):
            offered, _ = await typed(h, user, h.games, "play move", {"action": ""}, "action")
            assert offered and [(c["name"], c["value"]) for c in offered] == h.bot.host.action_choices(
                table, int(user.id), "", "en"
            )
        offered, _ = await typed(h, alice, h.games, "play move", {"action": ""}, "action")
        await h.slash(alice, h.games, "play move", {"action": offered[0]["value"]})
        assert (await h.table(first)).version == moved.version + 1
        assert (await h.table(second)).version == both[1].version
        assert h.sb.violations == []
