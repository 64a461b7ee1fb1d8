"""What the thread tells: every public happening stays on some board. A board message is edited while nobody new
must act, and replaced when someone does; it tells what happened since the board before it last showed (at least
the last few moves), so a person's fight followed by a built-in player's long turn is not edited off the thread
before anyone could read it. Built-in players are waited for, never told "your move"."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.games import presenter
from bot.picker import offered
from bot.service import ACTIVE, choices
from engines.base import visible_to
from tests.e2e.harness import harness

pytestmark = pytest.mark.e2e

PERSON_MOVES = 24


async def test_every_public_happening_is_told_by_a_board_that_stays(tmp_path):
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        h.service.new_seed = lambda: 11
        lobby = (await h.slash(alice, h.games, "play new", {"game": "talisman"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(bob, lobby, f"lobby:join:{game_id}")
        await h.click(alice, lobby, f"lobby:bot:{game_id}")
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        people = {int(alice.id): alice, int(bob.id): bob}
        pick = random.Random(3)
        for _ in range(PERSON_MOVES):
            table = await h.table(game_id)
            seats = [s for s in table.to_act() if table.user_at(s) is not None]
            if table.status != ACTIVE or not seats:
                break
            seat = seats[0]
            action = pick.choice(offered(table, seat, choices(table, seat)))
            await h.play_through_chooser(people[table.user_at(seat)], game_id, action)

        table = await h.table(game_id)
        boards = [m.text for m in h.sb.messages(h.thread(table)) if m.audience.kind == "public"]
        game, view = presenter("talisman"), table.view(None)
        moves = await h.service.moves(game_id)
        public = [event for move in moves for event in move.events if visible_to(event, None)]
        told = [
            text
            for event in game.condensed(public)
            if (text := game.event_text(event, table.names, view, "en"))
        ]
        # The scenario has stretches longer than the last few moves a board always tells, and no board was cut.
        assert len(moves) > 3 * len(boards) and not any("earlier happening" in text for text in boards)
        assert [text for text in told if not any(text in board for board in boards)] == []


async def test_built_in_players_are_waited_for_without_a_window_or_a_your_move(tmp_path):
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        h.service.new_seed = lambda: 6  # the bot may cast a Spell before Alice's first turn
        lobby = (await h.slash(alice, h.games, "play new", {"game": "talisman"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(alice, lobby, f"lobby:bot:{game_id}")
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        pick = random.Random(5)
        answers = []
        for _ in range(PERSON_MOVES):
            table = await h.table(game_id)
            if table.status != ACTIVE or table.to_act() != [0]:
                break
            action = pick.choice(offered(table, 0, choices(table, 0)))
            answers.append(await h.play_through_chooser(alice, game_id, action))

        table = await h.table(game_id)
        posted = [m for m in h.sb.messages(h.thread(table)) if m.audience.kind == "public"]
        # each board as it read while it was the newest: a newer board's arrival edits its waiting line away
        boards = [m.history[-1]["content"] for m in posted[:-1]] + [posted[-1].text]
        assert not any(m.content.splitlines()[-2].startswith("Waiting") for m in posted[:-1])
        waits = [board.splitlines()[-2] for board in boards]  # the line before the version mark
        assert waits[0] == "Waiting for Bot 1 to react."  # no window: a built-in player answers at once
        assert "Waiting for Bot 1." in waits  # a board edited last during the bot's turn
        assert not any("Bot 1 — your move" in board or "Bot 1 to react (up" in board for board in boards)
        # Alice's own picker says so too, and goes on once the bot has answered (it had stayed on the wait)
        waited = [
            m for m in answers if any("Bot 1 to react; then it goes on." in h["content"] for h in m.history)
        ]
        assert waited and all(m.text.startswith("↪️ Your move again.") for m in waited), [
            m.text for m in waited
        ]
        assert not any("up to" in h["content"] for m in answers for h in [*m.history, {"content": m.text}])


async def test_a_note_stays_on_the_board_that_told_it_while_that_board_is_edited(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "bob", "dave"))
        table = await h.table(game_id)
        mover = table.to_act()[0]
        people = {int(u.id): u for u in h.users.values()}
        leaver = next(seat for seat in range(3) if seat != mover)
        await h.leave(people[table.user_at(leaver)], h.thread(table), game_id)
        told = h.board_message(await h.table(game_id))
        assert "left the game" in told.text
        pick = random.Random(2)
        while (table := await h.table(game_id)).to_act() == [mover]:  # the mover's turn edits that board
            action = pick.choice(offered(table, mover, choices(table, mover)))
            await h.play_through_chooser(people[table.user_at(mover)], game_id, action)
        assert told.history, "the board that told the note was edited afterwards"
        assert "left the game" in told.text  # and still tells it
        assert "left the game" not in h.board_message(table).text  # the next board tells what came after


async def test_a_replaced_board_tells_its_last_turn_as_the_next_board_does(tmp_path):
    """A board edited during a built-in player's turn and then replaced once a person must act kept that turn
    as it stood at the edit ("Bot 1 takes a follower and draws a gem", where the turn drew two and the next
    board said so: a review counted 4 such contradictions in 4 of the bot's turns). A replaced board now ends
    with the turn as it ended, under its own header and version mark."""
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        h.service.new_seed = lambda: 4
        lobby = (await h.slash(alice, h.games, "play new", {"game": "druids"})).message
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        await h.click(alice, lobby, f"lobby:bot:{game_id}")
        await h.click(alice, lobby, f"lobby:start:{game_id}")
        pick = random.Random(7)
        for _ in range(PERSON_MOVES):
            table = await h.table(game_id)
            if table.status != ACTIVE or table.to_act() != [0]:
                break
            await h.play_through_chooser(alice, game_id, pick.choice(offered(table, 0, choices(table, 0))))

        table = await h.table(game_id)
        boards = [m for m in h.sb.messages(h.thread(table)) if m.audience.kind == "public"]
        assert len(boards) > 4
        for old, new in itertools.pairwise(boards):
            last = [line for line in old.text.splitlines() if line.startswith("• ")][-1]
            assert last in new.text.splitlines()
            before = old.history[-1]["content"].splitlines()  # as it read while it was the newest
            assert (
                old.text.splitlines()[0] == before[0] and old.text.splitlines()[-1] == before[-1]
            )  # header, mark
