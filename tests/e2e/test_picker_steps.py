"""The picker through the real bot: "Take my turn" and each step work from the game as this process last committed
or read it, with no database read; a move another process made meanwhile is caught by the move's own commit, so the
click that plays changes nothing and says the picker was out of date, and a copy that gives the clicker nothing to
choose is read again rather than refusing."""

from __future__ import annotations

import gc
import io
from collections import Counter

import discord
import pytest
from sqlalchemy.sql.elements import ClauseElement

from bot.chooser import narrow, path_to, picker_actions, split
from bot.drawing import PRIVATE_BYTES, Shelf
from bot.picker import offered
from bot.service import choices
from tests.e2e.harness import harness, picker_token
from tests.lobbies import statements

pytestmark = pytest.mark.e2e

REPLY, DEFERRED_REPLY, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7  # Discord's interaction callback types


def user_at(h, table, seat: int):
    return next(u for u in h.users.values() if int(u.id) == table.user_at(seat))


async def take_my_turn(h, user, table):
    """The picker "Take my turn" on the board opens for `user`."""
    return (await h.click(user, h.board_message(table), f"table:turn:{table.id}")).message


async def open_picker(h, game_id: int):
    table = await h.table(game_id)
    seat = table.to_act()[0]
    mover = user_at(h, table, seat)
    picker = await take_my_turn(h, mover, table)
    actions = offered(table, seat, choices(table, seat))
    return table, seat, mover, picker, actions


async def play_the_last_offer(h, mover, picker, table, actions) -> None:
    """Click through the picker to the last action it offers, as drawn for `table`."""
    full = path_to(actions, actions[-1])
    for depth in range(1, len(full) + 1):
        await h.choose(mover, picker, table, full[:depth])


def offers_choices_at(picker, game_id: int, token: int) -> bool:
    return any(f":{game_id}:{token}:" in c["custom_id"] for c in picker.buttons() + picker.selects())


async def test_a_picker_step_reads_no_game_from_the_database(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table, _seat, mover, picker, actions = await open_picker(h, game_id)
        token = picker_token(table, table.seat_of(int(mover.id)))
        with statements(h.bot.host.service.sessions) as run:  # type: ignore[union-attr]
            step = await h.choose(mover, picker, table, [0])
        assert not [statement for statement in run if "FROM games" in statement]
        assert step.callback_type == UPDATE_MESSAGE  # answered in the acknowledgement: one call to Discord
        assert asks_after_the_first_choice(picker, game_id, token, actions)
        assert (await h.table(game_id)).version == table.version  # narrowing commits nothing


async def test_a_picker_step_whose_offers_are_not_at_hand_is_acknowledged_first_and_answered(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table, _seat, mover, picker, actions = await open_picker(h, game_id)
        token = picker_token(table, table.seat_of(int(mover.id)))
        h.bot.host.picker._offers.clear()  # type: ignore[union-attr]  # as after a restart: worked out again

        step = await h.choose(mover, picker, table, [0])
        assert step.callback_type == DEFERRED_UPDATE
        assert asks_after_the_first_choice(picker, game_id, token, actions)


def asks_after_the_first_choice(picker, game_id: int, token: int, actions) -> bool:
    assert len(narrow(actions, [0]).values) > 1
    return any(s["custom_id"].startswith(f"mvs:{game_id}:{token}:0:") for s in picker.selects()) or any(
        b["custom_id"].startswith(f"mv:{game_id}:{token}:0.") for b in picker.buttons()
    )


async def play_through_an_opened_picker(h, game_id: int):
    """Open the mover's picker, then click through to its last offer; the game before, the mover's picker after,
    and the callback type of the click that played."""
    table, _seat, mover, picker, actions = await open_picker(h, game_id)
    full = path_to(actions, actions[-1])
    for depth in range(1, len(full)):
        await h.choose(mover, picker, table, full[:depth])
    played = await h.choose(mover, picker, table, full)
    return table, picker, played.callback_type


@pytest.mark.parametrize(
    ("within", "callback_type"),
    [(60.0, UPDATE_MESSAGE), (0.0, DEFERRED_UPDATE)],
    ids=["at-once", "acknowledged-first"],
)
async def test_a_move_is_answered_in_its_acknowledgement_when_its_answer_is_quick(
    tmp_path, monkeypatch, within, callback_type
):
    monkeypatch.setattr("bot.picker.ANSWER_AT_ONCE_WITHIN", within)
    async with harness(tmp_path) as h:
        game_id = await h.start_game("roll_player", ("alice", "dave"))
        table, picker, played = await play_through_an_opened_picker(h, game_id)

        assert played == callback_type
        moved = await h.table(game_id)
        assert moved.version > table.version  # committed (and the built-in players' replies, if any)
        assert "Done: " in picker.text  # the confirmation, written from the committed events
        assert h.sb.violations == []


async def test_a_move_another_process_made_meanwhile_is_refused_when_the_picker_plays(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table, seat, mover, picker, actions = await open_picker(h, game_id)

        await h.move_in_another_process(table, seat)

        await play_the_last_offer(h, mover, picker, table, actions)
        moved = await h.table(game_id)
        assert moved.version == table.version + 1  # only the other process's move
        assert "out of date" in picker.text
        assert h.sb.violations == []


async def test_take_my_turn_reads_no_game_from_the_database(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        seat = table.to_act()[0]
        with statements(h.bot.host.service.sessions) as run:  # type: ignore[union-attr]
            picker = await take_my_turn(h, user_at(h, table, seat), table)
        assert not [statement for statement in run if "FROM games" in statement]
        assert picker.buttons() or picker.selects()  # the choices, as from a fresh read
        assert offers_choices_at(picker, game_id, picker_token(table, seat))


async def take_my_turn_answered(h, mover, table, seat: int) -> int:
    """Click "Take my turn" and check the answer is the picker for the seat's current choices, with its hand
    attached; the callback type Discord was answered with."""
    answer = await h.click(mover, h.board_message(table), f"table:turn:{table.id}")
    assert offers_choices_at(answer.message, table.id, picker_token(table, seat))
    assert [a.filename for a in answer.message.attachments] == ["private.png"]
    return answer.callback_type


async def test_take_my_turn_is_answered_in_its_acknowledgement_once_nothing_waits_for_a_worker(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        seat = table.to_act()[0]
        mover = user_at(h, table, seat)
        await take_my_turn(h, mover, table)  # works out the offers and draws the hand, if not done yet

        # one call to Discord: the picker is the acknowledgement
        assert await take_my_turn_answered(h, mover, table, seat) == REPLY

        h.bot.host.pictures.shelves[False] = Shelf(PRIVATE_BYTES)  # type: ignore[union-attr]  # as after a restart
        h.bot.host.picker._offers.clear()  # type: ignore[union-attr]
        # acknowledged first, then answered
        assert await take_my_turn_answered(h, mover, table, seat) == DEFERRED_REPLY


async def test_a_picker_opened_from_a_copy_another_process_moved_on_starts_again_afresh(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        seat = table.to_act()[0]
        mover = user_at(h, table, seat)
        await h.move_in_another_process(table, seat)

        picker = await take_my_turn(h, mover, table)
        await play_the_last_offer(h, mover, picker, table, offered(table, seat, choices(table, seat)))
        moved = await h.table(game_id)
        assert moved.version == table.version + 1  # only the other process's move
        assert "out of date" in picker.text
        fresh = picker_token(moved, seat)  # the picker now offers what the game really asks of the mover
        stale = picker_token(table, seat)
        ids = [c["custom_id"] for c in picker.buttons() + picker.selects()]
        assert not any(f":{stale}:" in i for i in ids)
        assert all(f":{fresh}:" in i for i in ids if i.startswith(("mv:", "mvs:")))


async def test_take_my_turn_reads_the_game_when_the_copy_gives_nothing_to_choose(tmp_path):
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table = await h.table(game_id)
        seat = table.to_act()[0]
        moved = table
        while seat in moved.to_act():  # another process plays the turn; this one does not read the game
            moved = await h.move_in_another_process(moved, seat)
        next_seat = moved.to_act()[0]
        assert next_seat not in table.to_act()  # in this process's copy, not their turn

        picker = await take_my_turn(h, user_at(h, table, next_seat), table)
        assert (await h.table(game_id)).version == moved.version
        assert offers_choices_at(picker, game_id, picker_token(moved, next_seat))
        assert h.sb.violations == []


async def test_no_picker_is_kept_in_memory_once_sent_and_its_buttons_still_work(tmp_path):
    """Every component is found again by its custom_id, so discord.py keeps no sent view: an ephemeral one would
    otherwise stay 15 minutes, with a task waiting to expire it, for every picker step under load."""
    import asyncio

    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        table, _seat, mover, picker, actions = await open_picker(h, game_id)
        await play_the_last_offer(h, mover, picker, table, actions)
        assert (await h.table(game_id)).version > table.version  # the kept-nowhere buttons played the move
        store = h.bot._connection._view_store  # type: ignore[union-attr]
        assert not store._views and not store._synced_message_views
        expiring = [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
        assert not expiring


async def test_a_publish_racing_a_chain_of_moves_shows_none_of_its_middle_versions(tmp_path):
    """One click may commit a chain of the mover's moves ("Keep the roll → Move · Fields"). A publish still running
    for an earlier change that reads the game between two parts must not post that middle version's board: it
    would ping the mover for a question the click already answered."""
    from bot.chooser import split

    async with harness(tmp_path) as h:
        game_id = await h.start_game("talisman", ("alice", "dave"), seed=3)
        table = await h.table(game_id)
        seat = table.to_act()[0]
        mover = user_at(h, table, seat)
        await h.play_through_chooser(mover, game_id, {"type": "roll_move"})
        table, seat, mover, picker, actions = await open_picker(h, game_id)
        chain = next(a for a in actions if len(split(a)) > 1)
        # the roll kept is not shown as a part of its own, so nothing is said of chained choices
        assert "→" not in str(picker.interactive()) and "“→”" not in picker.text
        service, publisher = h.bot.host.service, h.bot.host.publisher  # type: ignore[union-attr]
        act, shown = service.act, []

        async def act_then_an_earlier_publish_reads(*args, **kwargs):
            result = await act(*args, **kwargs)
            shown.append(await publisher.publish(game_id) is not None)  # as a late publish would, mid-chain
            return result

        service.act = act_then_an_earlier_publish_reads
        full = path_to(actions, chain)
        for depth in range(1, len(full) + 1):
            await h.choose(mover, picker, table, full[:depth])
        service.act = act
        end = await h.table(game_id)
        assert end.version == table.version + len(split(chain))  # every part committed
        posts = h.sb.messages(h.thread(end))
        ever_shown = [text for m in posts for text in [*(old["content"] for old in m.history), m.content]]
        middle = [f"#{game_id}·v{v}" for v in range(table.version + 1, end.version)]
        assert not [text for text in ever_shown if any(text.endswith(mark) for mark in middle)]
        boards = [m.content for m in posts if "\n-# #" in m.content]
        assert boards[-1].endswith(f"#{game_id}·v{end.version}")  # the chain's own publish shows its end
        assert shown and not any(shown)


async def test_answered_clicks_leave_nothing_for_the_cycle_collector(tmp_path):
    """discord.py leaves each interaction in a reference cycle with its response, the view it rebuilds from each
    clicked message in one with its items, and each picture sent in one with its buffer; only Python's full
    collections, which walk every object the bot keeps while the event loop waits, freed them; so were some SQL
    statements built for one use. Answered, a click or a command now leaves none of them behind."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids", ("alice", "dave"))
        await h.idle()
        gc.collect()
        gc.disable()
        try:
            table, _seat, mover, picker, actions = await open_picker(h, game_id)
            await play_the_last_offer(h, mover, picker, table, actions)
            # the same by slash command: its autocomplete, a move, and a move refused
            moved = await h.table(game_id)
            mover = user_at(h, moved, moved.to_act()[0])
            thread = h.thread(moved)
            typed = await h.sb.autocomplete(mover, thread, "play move", {"action": ""}, focused="action")
            await h.slash(mover, thread, "play move", {"action": typed[0]["value"]})
            refused = await h.slash(mover, thread, "play move", {"action": "no such move"})
            assert refused.message.audience.kind == "ephemeral"
            assert (await h.table(game_id)).version > moved.version > table.version
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            kinds = (
                discord.Interaction,
                discord.InteractionResponse,
                discord.ui.View,
                discord.ui.Item,
                io.BytesIO,
                ClauseElement,  # SQL statements built for one use
            )
            left = Counter(type(thing).__name__ for thing in gc.garbage if isinstance(thing, kinds))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert left == Counter()


def _offers_changed_by_another(table) -> tuple[int, int, dict] | None:
    """A seat acting alongside another whose next move leaves the seat's choices as they are but its offers
    chained anew: (the seat, the other, the other's move)."""
    engine, state = table.engine, table.state
    acting = engine.to_act(state)
    for seat in acting:
        before = offered(table, seat, choices(table, seat))
        for other in (s for s in acting if s != seat):
            move = engine.bot_action(state, other, table.version)
            after, _ = engine.apply(state, other, move)
            same = engine.legal_actions(after, seat) == choices(table, seat)
            if same and picker_actions(engine, after, seat, choices(table, seat)) != before:
                return seat, other, move
    return None


async def test_a_picker_drawn_before_another_players_move_plays_what_its_button_says(tmp_path):
    """In a simultaneous phase another player's move may leave a seat's choices as they were and yet chain them
    anew (Roll for the Galaxy's managing). Read through the new offers, a click once played what its button did
    not say ("recruit, then end managing" played "recruit, then reclaim"); then every such picker was out of date,
    and a review's player was told so at one Manage step in two. A finished choice now plays exactly the moves
    its button showed (a step half-way: tests/bot/test_picker_offers_cache.py)."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("roll_for_the_galaxy", ("alice", "bob", "dave"), seed=3)
        for _ in range(400):  # the built-in player's moves for everyone, up to such a moment
            table = await h.table(game_id)
            found = _offers_changed_by_another(table)
            if found is not None:
                break
            seat = table.to_act()[0]
            move = table.engine.bot_action(table.state, seat, table.version)
            await h.service.act(game_id, table.user_at(seat), move, expected_version=table.version)
        assert found is not None
        seat, other, move = found
        user = user_at(h, table, seat)
        picker = await take_my_turn(h, user, table)
        drawn = offered(table, seat, choices(table, seat))
        assert offers_choices_at(picker, game_id, picker_token(table, seat))

        await h.service.act(game_id, table.user_at(other), move, expected_version=table.version)
        moved = await h.table(game_id)
        assert choices(moved, seat) == choices(table, seat)  # the same choices, offered anew
        now = offered(moved, seat, choices(moved, seat))
        # a button whose place in the new offers holds another move: read through them, it would play that
        button = next(a for i, a in enumerate(drawn) if len(path_to(drawn, a)) == 1 and now[i : i + 1] != [a])
        await h.choose(user, picker, table, path_to(drawn, button))
        assert "out of date" not in picker.text
        played = [m for m in await h.service.moves(game_id) if m.version > moved.version]
        assert [m.action for m in played] == split(button)


async def test_a_picker_whose_choices_make_the_next_one_too_says_so(tmp_path):
    """A review's new player read "From where?" over "the cup · Home die → Recruit · Home die", one click deciding
    the next phase's recruit too: a step whose choices are chained says what the arrow means."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("roll_for_the_galaxy", ("alice", "bob"), seed=5)
        said = 0
        for _ in range(40):
            table, _seat, mover, picker, _actions = await open_picker(h, game_id)
            chained = "→" in str(picker.interactive())
            assert chained == ("\n-# " in picker.text and "“→”" in picker.text.rsplit("\n-# ", 1)[1])
            said += chained
            if said >= 1:
                break
            await h.slash(mover, h.thread(table), "play move", {"action": f"{h.token(table, mover)}:0"})
        assert said
