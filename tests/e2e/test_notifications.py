"""The notification policy, counted through the real bot: a person is pinged when they newly must act, never on a
mere refresh; a step that leaves others still choosing edits the one board and tells nobody; Roll for the Galaxy
keeps within its budget of pings, DMs and thread messages per round."""

from __future__ import annotations

import pytest

from bench.notify_bench import GAMES, play
from bot.service import stretch_of
from tests.e2e.harness import harness

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("game", GAMES)
async def test_pings_dms_and_posts_follow_the_policy(tmp_path, game):
    async with harness(tmp_path) as h:
        run = await play(h, game, seed=3, moves=70 if game == "roll_for_the_galaxy" else 40)
    assert run.steps, "no move was played"
    # Whoever must act first is told: pinged on the board, or by DM when it is a chance to react.
    assert set(run.start.pings) <= set(run.start.acting_after) <= set(run.start.dms)
    assert set(run.start.dms.values()) == {1}  # one DM each
    # and one notification to each who must act (a pinged player's DM is silent); a DM with only a player's own
    # view (a review's: an empty Spell list) notifies nobody
    assert {seat for seat, count in run.start.alerts.items() if count} == set(run.start.acting_after)
    assert set(run.start.alerts.values()) <= {0, 1}
    for step in run.steps:
        newly = step.newly()
        assert set(step.pings) <= set(step.acting_after), step  # only those who must act are pinged
        assert all(count == 1 for count in step.pings.values()), step
        assert set(step.dms) <= set(step.acting_after), step  # new DMs only for a new wait (else an edit)
        # one notification a turn: a DM beside a ping on the board goes out silently
        assert all(count == 1 for count in step.alerts.values()), step
        assert set(step.alerts) == set(step.pings) | set(step.dms), step
        if not newly and not step.new_stretch:  # nobody new must act: the board is edited; nobody is told
            assert step.thread_posts == 0 and not step.pings and not step.dms, step
        assert step.thread_posts <= 1, step
    if game == "roll_for_the_galaxy":
        rounds = run.per_round()
        complete = sorted(rounds)[1:-1]  # the first and last rounds seen may be partial
        assert complete, rounds
        for number in complete:
            entry = rounds[number]
            assert max(entry["pings"].values(), default=0) <= 2, (number, entry)
            assert max(entry["dms"].values(), default=0) <= 4, (number, entry)
            assert entry["posts"] <= 3, (number, entry)
        readies = [s for s in run.steps if set(s.acting_after) < set(s.acting_before)]
        assert readies, "a simultaneous phase where one player finished before the others"
        # A player who finished a phase before the others and was told to wait for them is told, by one DM that
        # notifies (the board is edited, not posted again), when a later phase of the round needs them: a review's
        # player was never told and the game stalled on her.
        again = [
            (step, seat)
            for step in run.steps
            for seat in set(step.acting_after) - set(step.acting_before)
            if stretch_of(step.acting_after[seat]) in {stretch_of(m) for m in step.acting_before.values()}
        ]
        assert again
        for step, seat in again:
            assert step.dms[seat] == 1 and step.alerts[seat] == 1 and not step.pings[seat], (step, seat)


OPEN_DM = "POST /api/v10/users/@me/channels"


async def play_moves(h, game_id: int, moves: int) -> None:
    table = await h.table(game_id)
    for number in range(moves):
        seat = table.to_act()[0]
        action = table.engine.bot_action(table.state, seat, number)
        table = (await h.service.act(game_id, table.user_at(seat), action)).table
        await h.bot.host.after_commit(game_id)


async def test_later_dms_go_to_the_known_channels_without_opening_them_again(tmp_path):
    """discord.py remembers 128 DM channels at most, and none after a restart: a game's later DMs go to the
    channel its earlier ones went to, so a bot with many players does not spend a Discord call on each."""
    async with harness(tmp_path) as h:
        users = [h.users["alice"], h.users["bob"]]
        game_id = await h.start_game("druids")
        assert all(h.sb.dms(user) for user in users)  # each has their hand by DM
        await h.restart_bot()
        opened = h.sb.calls[OPEN_DM]
        before = {user.id: h.sb.dms(user)[-1].id for user in users}
        await play_moves(h, game_id, 20)
        assert all(h.sb.dms(user)[-1].id != before[user.id] for user in users)  # each told of a new turn
        assert h.sb.calls[OPEN_DM] == opened


async def test_a_dm_channel_discord_no_longer_knows_is_opened_again(tmp_path):
    async with harness(tmp_path) as h:
        alice = h.users["alice"]
        game_id = await h.start_game("druids")
        channel = h.sb.dms(alice)[0].channel_id
        await h.restart_bot()  # nor does discord.py remember it
        h.sb.inject_fault(
            "POST", rf"/channels/{channel}/messages$", 404, code=10003, message="Unknown Channel"
        )
        opened = h.sb.calls[OPEN_DM]
        before = h.sb.dms(alice)[-1].id
        await play_moves(h, game_id, 20)
        assert h.sb.dms(alice)[-1].id != before  # told of her next turn all the same
        assert h.sb.calls[OPEN_DM] == opened + 1


async def test_only_the_newest_board_says_who_must_act_and_has_buttons(tmp_path):
    """A board a newer one replaced keeps its picture and happenings, and loses its buttons and its "your move"
    line: scrolling up, nobody is told to act on an old board."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("druids")
        await play_moves(h, game_id, 12)
        await h.idle()
        table = await h.table(game_id)
        boards = [m for m in h.sb.messages(h.thread(table)) if f"#{game_id}·v" in m.content]
        assert len(boards) >= 3, [m.content for m in boards]  # several turns, each on a new board
        waiting = "your move in"
        *older, newest = boards
        assert newest.id == str(table.record.board_message_id)
        assert waiting in newest.content and newest.buttons()
        for board in older:
            assert waiting not in board.content and not board.buttons(), board.content
            assert board.attachments and "•" in board.content  # its picture and what happened stay


async def test_a_new_your_move_dm_replaces_the_one_before(tmp_path):
    """Each turn's "your move" DM replaces the one before it, which is deleted: a player's DMs hold one message
    per game, the current one, and scrolling up nobody is sent into a turn that is gone."""
    async with harness(tmp_path) as h:
        game_id = await h.start_game("roll_player")
        await play_moves(h, game_id, 30)
        await h.idle()
        table = await h.table(game_id)
        for name in ("alice", "bob"):
            user = h.users[name]
            told = [m for m in h.sb.dms(user) if f"#{game_id}" in m.content]
            assert len(told) == 1, [m.content for m in told]
            assert str(told[0].id) == str(table.seat_row(table.seat_of(int(user.id))).dm_message_id)


async def test_a_player_who_wants_no_pings_gets_each_turn_s_dm_without_a_notification(tmp_path):
    """`/play notify level:none` stopped the board's pings, yet each new "your move" DM notified instead (a
    review): with no pings wanted, those DMs arrive silently; another player's are unchanged."""
    async with harness(tmp_path) as h:
        alice, bob = h.users["alice"], h.users["bob"]
        answer = await h.slash(alice, h.games, "play notify", {"level": "none"})
        assert "without a notification" in answer.message.text
        game_id = await h.start_game("roll_player")
        await play_moves(h, game_id, 30)
        await h.idle()
        boards = [m for m in h.sb.messages(h.thread(await h.table(game_id))) if f"#{game_id}·v" in m.content]
        assert not any(alice.id in m.pinged_ids for m in boards)
        assert any(bob.id in m.pinged_ids for m in boards)  # his turns are told by a ping, his DMs silent
        # (a Roll Player DM loses its button once the turn passes: each DM of the game counts)
        told = [m for m in h.sb.dms_sent(alice) if f"Roll Player #{game_id}" in m.text]
        assert len(told) >= 3 and all(m.silent for m in told)
