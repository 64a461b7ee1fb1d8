"""Games that last days: timers, the built-in player, substitutes, undo, stats — with the clock under test control."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from bot.db import make_engine, make_sessionmaker, migrate
from bot.private import PrivateMessages
from bot.service import ACTIVE, ARCHIVED, EXPIRED, GameService, ServiceError, only_passing
from engines.base import IllegalAction
from tests.lobbies import open_lobby


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += timedelta(hours=hours)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def service(database_url, clock):
    await migrate(database_url)
    engine = make_engine(database_url)
    yield GameService(make_sessionmaker(engine), clock=clock, new_seed=lambda: 42)
    await engine.dispose()


async def druids(service, humans: int = 3, bots: int = 0):
    table = await open_lobby(service, guild_id=7, channel_id=70)
    for user in range(1, humans):
        await service.join(table.id, 100 + user, f"P{user}")
    for number in range(bots):
        await service.add_bot(table.id, 100, f"Bot {number + 1}")
    return await service.start(table.id, 100)


async def _to_first_refill(service, table):
    """Alice (seat 0, who plays first) plays her first turn as the built-in player would, up to its refill."""
    state = table
    while state.state["phase"] != "refill" or state.to_act() != [0]:
        state = (
            await service.act(table.id, 100, state.engine.bot_action(state.state, 0, state.version))
        ).table
    return state


async def test_reminders_follow_the_servers_policy(service, clock):
    await service.update_settings(7, remind_after_hours=12, remind_every_hours=6, remind_max=2)
    table = await druids(service)
    clock.advance(11)
    assert (await service.due(clock())).reminders == []
    clock.advance(1.5)
    due = await service.due(clock())
    assert [(t.id, seat) for t, seat in due.reminders] == [(table.id, 0)]
    await service.note_reminder(table.id, 0)
    assert (await service.due(clock())).reminders == []  # the next one is 6 hours later
    clock.advance(6)
    assert len((await service.due(clock())).reminders) == 1
    await service.note_reminder(table.id, 0)
    clock.advance(48)
    assert (await service.due(clock())).reminders == []  # at most two


async def test_a_move_restarts_the_wait(service, clock):
    await service.update_settings(7, remind_after_hours=1)
    table = await druids(service)
    clock.advance(5)
    action = table.engine.legal_actions(table.state, 0)[0]
    await service.act(table.id, 100, action)  # still seat 0's turn: same wait
    assert len((await service.due(clock())).reminders) == 1
    moved = await service.get(table.id)
    while moved.to_act() == [0]:
        result = await service.act(table.id, 100, moved.engine.bot_action(moved.state, 0, 1))
        moved = result.table
    assert (await service.due(clock())).reminders == []  # seat 1's wait just began
    clock.advance(1)
    assert [seat for _, seat in (await service.due(clock())).reminders] == [1]


async def test_deadline_moves_for_the_absent_player_unless_on_vacation(service, clock):
    table = await druids(service)
    await service.set_game_timers(table.id, deadline_hours=48)
    clock.advance(47)
    assert (await service.due(clock())).deadlines == []
    await service.set_vacation(100, True)
    clock.advance(2)
    assert (await service.due(clock())).deadlines == []
    await service.set_vacation(100, False)
    # back, the wait goes on from where it stood when they left: 1 h to go, not a deadline already past (a
    # review's player lost the turn 5 s after coming back), nor 48 h again (which put a deadline off for ever)
    assert (await service.due(clock())).deadlines == []
    clock.advance(0.5)
    await service.set_vacation(100, True)  # a moment away gains nothing
    await service.set_vacation(100, False)
    assert (await service.due(clock())).deadlines == []
    clock.advance(0.6)
    due = await service.due(clock())
    assert [(t.id, seat) for t, seat in due.deadlines] == [(table.id, 0)]
    result = await service.act_on_deadline(table.id, 0)
    # the whole turn, a move at a time, up to when the game waits on the next player; one note tells it all
    assert result.table.to_act() == [1]
    moves = [m for m in await service.moves(table.id) if m.version > table.version]
    assert len(moves) > 1 and {(m.user_id, m.seat) for m in moves} == {(0, 0)}
    assert moves[0].action in table.engine.legal_actions(table.state, 0)
    [note] = [n for n in result.table.record.notes if n["key"] == "game.deadline"]
    assert note["v"] == table.version + 1 and note["params"]["seat"] == 0
    assert note["params"]["events"] == [e for m in moves for e in m.events if "private" not in e]
    # the absent player's DM says it too, in their language (to themselves, without honouring themselves)
    name = result.table.names[0]
    english = PrivateMessages._missed_turn(result.table, 0, "en")
    korean = PrivateMessages._missed_turn(result.table, 0, "ko")
    assert (
        english.startswith("⌛ Your deadline passed, so the built-in player moved for you: ")
        and name in english
    )
    assert korean.startswith("⌛ 기한이 지나 봇이 대신 행동했습니다: ") and f"{name}님" not in korean
    assert PrivateMessages._missed_turn(result.table, 1, "en") == ""


async def test_bots_fill_seats_and_play_their_turns(service):
    table = await druids(service, humans=1, bots=2)
    assert [s.is_bot for s in table.seats] == [False, True, True]
    state = table
    while state.status == ACTIVE:
        seat = state.to_act()[0]
        if state.user_at(seat) is None:
            state = (await service.act_for_bot(table.id, seat)).table
        else:
            state = (
                await service.act(table.id, 100, state.engine.bot_action(state.state, seat, state.version))
            ).table
    assert state.status == "finished"
    board = await service.leaderboard(7, "druids")
    assert [(uid, games) for uid, _, games, _, _ in board] == [(100, 1)]


async def test_a_leaver_is_replaced_by_the_bot_and_a_substitute_takes_the_seat(service):
    table = await druids(service)
    hand_before = table.state["hands"][1]
    table = await service.hand_to_bot(table.id, 1, "P1 (bot)")
    assert table.user_at(1) is None and table.state["hands"][1] == hand_before
    with pytest.raises(ServiceError) as refused:
        await service.substitute(table.id, 101 + 1, "P2", None)  # already seated
    assert refused.value.code == "already_joined"
    table = await service.substitute(table.id, 555, "Newcomer", None)
    assert table.user_at(1) == 555 and table.names[1] == "Newcomer"
    assert table.state["hands"][1] == hand_before  # everything the seat owned stays with it


async def test_voting_a_player_out_needs_a_majority_of_the_others(service, clock):
    table = await druids(service, humans=4)  # seat 0 (user 100) plays first
    clock.advance(24)  # the first reminder's time (the server's default): the vote is open
    table, passed = await service.vote_out(table.id, 101, 0)
    assert not passed  # 1 of 3
    table, passed = await service.vote_out(table.id, 101, 0)
    assert not passed  # voting twice counts once
    table, passed = await service.vote_out(table.id, 102, 0)
    assert passed  # 2 of 3
    with pytest.raises(ServiceError) as refused:
        await service.vote_out(table.id, 101, 1)  # seat 1 is the voter itself
    assert refused.value.code == "use_leave"


async def test_only_a_player_the_game_has_long_waited_on_can_be_voted_out_and_a_move_ends_the_vote(
    service, clock
):
    table = await druids(service, humans=3)  # seat 0 (user 100) plays first
    with pytest.raises(ServiceError) as refused:
        await service.vote_out(table.id, 100, 2)  # seat 2 holds nothing up
    assert refused.value.code == "kick_not_waiting"
    clock.advance(23.5)
    with pytest.raises(ServiceError) as refused:
        await service.vote_out(table.id, 101, 0)  # waited on, but not for the first reminder's 24 h yet
    assert refused.value.code == "kick_too_soon"
    assert refused.value.params["waited"] == timedelta(hours=23.5)
    assert refused.value.params["opens"] == timedelta(hours=24)

    clock.advance(0.5)
    table, passed = await service.vote_out(table.id, 101, 0)
    assert not passed and table.seat_row(0).kick_votes == [1]
    # Seat 0 comes back and plays its turn: the vote lapses, so a later stall starts from no votes.
    while 0 in table.to_act():
        table = (
            await service.act(table.id, 100, table.engine.bot_action(table.state, 0, table.version))
        ).table
    assert table.seat_row(0).kick_votes == []
    assert (await service.get(table.id)).seat_row(0).kick_votes == []
    # and the board says so with the move that ended it (a review's thread still read "1/2 votes")
    lapsed = [n for n in table.record.notes if n["key"] == "game.vote_lapsed"]
    assert lapsed == [{"key": "game.vote_lapsed", "params": {"names": [table.names[0]]}, "v": table.version}]


async def test_undo_of_a_move_that_revealed_nothing_is_immediate(service):
    table = await druids(service)
    gem = next(c for c in table.state["hands"][0] if not c.startswith("f-"))
    played = await service.act(table.id, 100, {"type": "play_card", "card": gem, "place": 0})
    with pytest.raises(ServiceError) as refused:
        await service.request_undo(table.id, 101)
    assert refused.value.code == "undo_only_own_last_move"
    undone, outcome = await service.request_undo(table.id, 100)
    assert outcome == "undone"
    assert undone.state == table.state and undone.version == played.table.version + 1
    moves = await service.moves(table.id)
    assert [m.action["type"] for m in moves] == ["play_card", "undo"]  # the log keeps both


async def test_undo_restores_the_stored_state_even_after_the_games_data_changed(service, monkeypatch):
    """A fix to a game's data (here: a different deal from the same seed) must not change a running game's past:
    undo restores the state stored with the move log, and only the export's replay check notices the change."""
    table = await druids(service)
    state = table
    for _ in range(3):  # a few moves, then Alice's own move to take back
        seat = state.to_act()[0]
        state = (
            await service.act(table.id, 100 + seat, state.engine.bot_action(state.state, seat, state.version))
        ).table
    seat = state.to_act()[0]
    before = state.state
    played = await service.act(table.id, 100 + seat, state.engine.bot_action(before, seat, 1))
    engine = played.table.engine
    real_new_game = type(engine).new_game

    def another_deal(self, players, options, seed):
        return real_new_game(self, players, options, seed + 1)

    monkeypatch.setattr(type(engine), "new_game", another_deal)
    try:  # replaying the log through the changed data no longer reaches the same game (here it even breaks)
        replayed = (await service.replay(played.table))[0]
    except IllegalAction:
        replayed = None
    assert replayed != played.table.state
    undone, outcome = await service.request_undo(table.id, 100 + seat)
    assert outcome in ("undone", "asked")
    if outcome == "asked":
        for other in (s for s in range(3) if s != seat):
            undone, outcome = await service.answer_undo(table.id, 100 + other, True)
    assert outcome == "undone"
    assert undone.state in (
        before,
        engine.reseeded(before, 42),
    )  # taken back with fresh chances if it drew on any


async def test_undo_after_a_draw_needs_everyone_elses_approval(service):
    table = await druids(service)
    state = await _to_first_refill(service, table)
    before = state.state
    drew = await service.act(table.id, 100, {"type": "draw_gem"})
    assert drew.table.to_act() == [0]
    _, outcome = await service.request_undo(table.id, 100)
    assert outcome == "asked"
    with pytest.raises(ServiceError) as refused:
        await service.answer_undo(table.id, 100, True)
    assert refused.value.code == "cannot_approve_own_undo"
    _, outcome = await service.answer_undo(table.id, 101, True)
    assert outcome == "waiting"
    after, outcome = await service.answer_undo(table.id, 102, True)
    # The game is back where it was, but for what nobody has seen: the gem Alice drew and took back is not the
    # one she draws next (a review saw an undone roll come up again), and the log replays to the same state.
    assert outcome == "undone" and after.state == table.engine.reseeded(before, 42)
    assert after.state["rng"] != before["rng"] and after.state["gem_deck"] != before["gem_deck"]
    assert table.engine.view(after.state, 0) == table.engine.view(before, 0)
    assert (await service.replay(after))[0] == after.state
    # Taking back a later move goes back to the fresh state, not to the one with the old chances.
    engine = table.engine
    quiet = next(
        a
        for a in engine.legal_actions(after.state, 0)
        if not engine.reveals(
            after.state, engine.apply(after.state, 0, a)[0], 0, engine.apply(after.state, 0, a)[1]
        )
    )
    await service.act(table.id, 100, quiet)
    undone, outcome = await service.request_undo(table.id, 100)
    assert outcome == "undone" and undone.state == after.state
    redrawn = await service.act(table.id, 100, {"type": "draw_gem"})
    assert redrawn.events != drew.events


async def test_undo_takes_back_a_choice_of_several_moves_whole(service):
    """The move picker's chained choice ("take follower 3 → draw a gem") is several moves in the log, committed
    one after the other; undo takes the whole choice back, as it was clicked (a review saw only the draw undone
    and the follower kept)."""
    table = await druids(service)
    state = await _to_first_refill(service, table)
    before = state.state
    follower = next(a for a in state.engine.legal_actions(before, 0) if a["type"] == "take_follower")
    took = await service.act(table.id, 100, follower)
    await service.act(table.id, 100, {"type": "draw_gem"}, chained=True)
    _, outcome = await service.request_undo(table.id, 100)
    assert outcome == "asked"  # the draw showed a card
    await service.answer_undo(table.id, 101, True)
    after, outcome = await service.answer_undo(table.id, 102, True)
    assert outcome == "undone" and after.state == table.engine.reseeded(before, 42)
    assert (await service.replay(after))[0] == after.state
    # The next undo takes back the choice before it, which was one move.
    undone, outcome = await service.request_undo(table.id, 100)
    if outcome == "asked":
        await service.answer_undo(table.id, 101, True)
        undone, outcome = await service.answer_undo(table.id, 102, True)
    undo = (await service.moves(table.id))[-1].action
    assert outcome == "undone" and undo["version"] == took.table.version - 1 and "moves" not in undo
    assert (await service.replay(undone))[0] == undone.state


def test_another_seats_move_in_between_breaks_a_choice():
    """In a simultaneous phase another seat's move may be committed between the parts of a chained choice: undo
    then takes back only the part after it (the parts before lie under the other seat's move)."""
    a, x, b = (SimpleNamespace(seat=s, chained=c) for s, c in ((0, False), (1, False), (0, True)))
    assert GameService._last_choice([a, x, b]) == [b]
    assert GameService._last_choice([x, a, b]) == [a, b]


async def test_a_refused_undo_changes_nothing(service):
    table = await druids(service)
    await _to_first_refill(service, table)
    drew = await service.act(table.id, 100, {"type": "draw_gem"})
    await service.request_undo(table.id, 100)
    after, outcome = await service.answer_undo(table.id, 102, False)
    assert outcome == "refused" and after.state == drew.table.state and after.record.undo_request is None


async def test_idle_games_are_archived_and_old_lobbies_expire(service, clock):
    await service.update_settings(7, idle_archive_days=10, lobby_expiry_hours=24)
    table = await druids(service)
    lobby = await open_lobby(service, host_id=300, host_name="Late", guild_id=7, channel_id=70)
    clock.advance(25)
    due = await service.due(clock())
    assert [t.id for t in due.expired_lobbies] == [lobby.id] and due.idle_games == []
    assert (await service.close(lobby.id, EXPIRED)).status == EXPIRED
    clock.advance(24 * 10)
    due = await service.due(clock())
    assert [t.id for t in due.idle_games] == [table.id]
    assert (await service.close(table.id, ARCHIVED)).status == ARCHIVED


async def test_reaction_windows_pass_quietly_or_wait_for_a_choice(service, clock):
    """Talisman offers spells in other players' turns. A seat with nothing it could cast is passed after a short
    delay; a seat with something castable keeps the window open for the server's window length."""
    await service.update_settings(7, reaction_window_minutes=5)
    lobby = await open_lobby(service, "talisman", guild_id=7, channel_id=70)
    for user in (101, 102):
        await service.join(lobby.id, user, f"P{user}")
    table = await service.start(lobby.id, 100)
    seen: set[bool] = set()
    for _ in range(3000):
        if len(seen) == 2 or table.status != "active":
            break
        reacting = table.engine.reaction_seats(table.state)
        if not reacting:
            seat = table.to_act()[0]
            action = table.engine.bot_action(table.state, seat, table.version)
            table = (await service.act(table.id, 100 + seat, action)).table
            continue
        seat = reacting[0]
        passing_only = only_passing(table.engine, table.state, seat)
        if passing_only not in seen:
            seen.add(passing_only)
            soon, late = (3 / 3600, 21 / 3600) if passing_only else (4 / 60, 6 / 60)
            clock.advance(soon)
            assert (await service.due(clock())).deadlines == []
            clock.advance(late - soon)
            assert [(t.id, s) for t, s in (await service.due(clock())).deadlines] == [(table.id, seat)]
        result = await service.act_on_deadline(table.id, seat)
        assert result.action == table.engine.pass_action(table.state, seat)
        table = result.table
    assert seen == {True, False}


async def test_a_turn_with_nothing_to_do_but_end_it_is_ended_quietly(service, clock):
    """A Talisman review's player, holding Spells that fitted nothing, was pinged and sent a DM to click "End
    turn" for a turn the Storm made them miss. Whether a Spell fits is private, so the moment is still offered,
    but like a reaction with nothing castable: nobody is told, and the clock ends it after a short delay that
    says nothing, with no "missed the deadline" note."""
    lobby = await open_lobby(service, "talisman", guild_id=7, channel_id=70)
    for user in (101, 102):
        await service.join(lobby.id, user, f"P{user}")
    table = await service.start(lobby.id, 100)
    for _ in range(3000):
        assert table.status == "active"
        seat = table.to_act()[0]
        if seat not in table.engine.reaction_seats(table.state) and only_passing(
            table.engine, table.state, seat
        ):
            break
        action = table.engine.bot_action(table.state, seat, table.version)
        table = (await service.act(table.id, 100 + seat, action)).table
    assert table.state["chars"][seat]["spells"]  # offered because Spells are held
    assert seat not in table.acting  # so nobody pings them or sends them a "your move"
    clock.advance(3 / 3600)
    assert (await service.due(clock())).deadlines == []
    clock.advance(18 / 3600)
    assert [(t.id, s) for t, s in (await service.due(clock())).deadlines] == [(table.id, seat)]
    notes = len(table.record.notes or [])
    result = await service.act_on_deadline(table.id, seat)
    assert result.action == table.engine.pass_action(table.state, seat)
    assert len(result.table.record.notes or []) == notes


async def test_only_a_seat_a_person_left_can_be_taken_over(service):
    """A review's newcomer took the hard built-in player the host had seated on purpose: `/play sub` takes only a
    seat a person left or was voted out of, and says so for the host's own built-in players."""
    table = await druids(service, humans=2, bots=1)
    with pytest.raises(ServiceError) as refused:
        await service.substitute(table.id, 300, "Newcomer", None)
    assert refused.value.code == "hosts_bot_seat"
    await service.hand_to_bot(table.id, 1, "Bot 2")
    taken = await service.substitute(table.id, 300, "Newcomer", None)
    assert taken.user_at(1) == 300 and taken.user_at(2) is None
    # and the seat's moves before are told under the names of those who made them
    holders = next(s for s in taken.seats if s.seat == 1).holders
    assert [(name, person) for _, name, person in holders] == [("P1", True), ("Bot 2", False)]
    assert taken.names_at(holders[0][0])[1] == "P1" and taken.names_at(taken.version)[1] == "Newcomer"
    # A seat from before holders were kept (none noted) may have been left: it can be taken, as it could before.
    from sqlalchemy import update

    from bot.db.models import Seat

    async with service.sessions() as session, session.begin():
        await session.execute(
            update(Seat).where(Seat.game_id == table.id, Seat.seat == 2).values(holders=None)
        )
    assert (await service.substitute(table.id, 301, "Old hand", None)).user_at(2) == 301
