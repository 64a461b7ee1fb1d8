"""The recent games autocomplete answers from (bot/recent.py): read once, then kept current by every commit of this
process without a database statement; out of date only in ways the command refuses, against every database."""

from __future__ import annotations

import pytest

from bot.db import make_engine, make_sessionmaker, migrate
from bot.service import ABANDONED, GameService, ServiceError, choices
from tests.lobbies import another_process, open_lobby, started_druids, statements


@pytest.fixture
async def engine(database_url):
    await migrate(database_url)
    engine = make_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def service(engine):
    return GameService(make_sessionmaker(engine), new_seed=lambda: 1234)


async def test_a_place_is_read_once_then_answered_from_memory(service):
    table = await started_druids(service, players=2)
    with statements(service.sessions) as first:
        assert [t.id for t in await service.recent_games_in_channel(10)] == [table.id]
        assert [t.id for t in await service.recent_games_of_user(101)] == [table.id]
    assert len(first) == 2  # one read each, which fills the recent games
    with statements(service.sessions) as again:
        assert [t.id for t in await service.recent_games_in_channel(10)] == [table.id]
        assert [t.id for t in await service.recent_games_of_user(101)] == [table.id]
        assert (await service.recent_game(table.id)).version == table.version  # start read it already
        assert await service.recent_games_in_channel(10, ("lobby",)) == []
    assert again == []


async def test_commits_keep_the_recent_games_current_without_a_statement(service):
    table = await started_druids(service, players=2)
    await service.recent_games_in_channel(10)
    await service.recent_games_of_user(102)  # nothing yet
    seat = table.to_act()[0]
    user = table.user_at(seat)
    assert user is not None
    moved = await service.act(table.id, user, choices(table, seat)[0], expected_version=table.version)
    lobby = await open_lobby(service, host_id=102, host_name="Carol")
    with statements(service.sessions) as run:
        kept = await service.recent_game(table.id)
        assert kept.version == table.version + 1 and kept.state == moved.table.state
        assert kept.choice_token(moved.table.to_act()[0]) == moved.table.choice_token(moved.table.to_act()[0])
        assert [t.id for t in await service.recent_games_in_channel(10)] == [lobby.id, table.id]
        assert [t.id for t in await service.recent_games_of_user(102)] == [lobby.id]
    assert run == []

    await service.join(lobby.id, 103, "Dave")
    await service.recent_games_of_user(103)
    await service.leave(lobby.id, 103)
    await service.abandon(table.id, 100, is_manager=False)
    with statements(service.sessions) as run:
        assert await service.recent_games_of_user(103) == []  # left the lobby
        assert [t.id for t in await service.recent_games_in_channel(10)] == [lobby.id]  # the other ended
        assert (await service.recent_game(table.id)).status == ABANDONED
    assert run == []


async def test_a_listing_read_while_a_game_opens_there_is_read_again(service):
    mark = service.recent.mark()  # a listing read begins, finds no game in the channel...
    new = await open_lobby(service)
    service.recent.listed(("channel", 10), [], mark)  # ...and ends after a new game there was committed
    with statements(service.sessions) as run:
        assert [t.id for t in await service.recent_games_in_channel(10)] == [new.id]
    assert len(run) == 1


async def test_a_listing_read_while_known_games_there_are_read_is_kept(service):
    table = await started_druids(service, players=2)
    mark = service.recent.mark()
    await service.get(table.id)  # e.g. a click on the game while the channel's games are being read
    service.recent.listed(("channel", 10), [table], mark)
    with statements(service.sessions) as run:
        assert [t.id for t in await service.recent_games_in_channel(10)] == [table.id]
    assert run == []


async def test_a_change_from_another_process_is_refused_by_the_command_then_seen(service, database_url):
    table = await started_druids(service, players=2)
    seat = table.to_act()[0]
    user = table.user_at(seat)
    assert user is not None
    async with another_process(database_url) as other:
        await other.act(table.id, user, choices(table, seat)[0], expected_version=table.version)
    stale = await service.recent_game(table.id)
    assert stale.version == table.version  # this process has not read the game since
    with pytest.raises(
        ServiceError
    ) as refused:  # what a command does with the suggestion: refused, unchanged
        await service.act(table.id, user, choices(stale, seat)[0], expected_version=stale.version, read=stale)
    assert refused.value.code == "stale"
    assert (await service.recent_game(table.id)).version == table.version + 1


async def _play(service: GameService, table, moves: int):
    for _ in range(moves):
        seat = table.to_act()[0]
        user = table.user_at(seat)
        assert user is not None
        table = (
            await service.act(table.id, user, choices(table, seat)[-1], expected_version=table.version)
        ).table
    return table


async def _from_the_log(database_url, table, limit):
    """What a process that committed none of these moves reads for the board."""
    async with another_process(database_url) as other:
        return await other.recent_events(table, limit)


async def test_the_boards_recent_moves_come_from_this_processs_own_commits(service, database_url):
    table = await started_druids(service, players=2)
    with statements(service.sessions) as first:
        assert await service.recent_events(table, 6) == []
    assert len(first) == 1  # a new game: read once, then followed
    played = 0
    for moves in (1, 3, 6):  # fewer moves than the board tells, then more
        table = await _play(service, table, moves)
        played += moves
        with statements(service.sessions) as run:
            kept = await service.recent_events(table, 6)
        assert run == []
        assert kept == await _from_the_log(database_url, table, 6)
        assert len(kept) == min(6, played)


async def test_moves_this_process_did_not_follow_are_read_from_the_log(service, database_url):
    table = await started_druids(service, players=2)
    table = await _play(service, table, 2)
    await service.recent_events(table, 6)
    async with another_process(database_url) as other:  # another process moves the game on
        moved = await _play(other, await service.get(table.id), 1)
    table = await service.get(table.id)
    assert table.version == moved.version
    with statements(service.sessions) as run:
        events = await service.recent_events(table, 6)
    assert len(run) == 1 and len(events) == 3
    assert events == await _from_the_log(database_url, table, 6)

    # A version that changed without a move (a seat handed to the built-in player) is read again too.
    table = await service.hand_to_bot(table.id, table.to_act()[0], "Bot")
    with statements(service.sessions) as run:
        assert await service.recent_events(table, 6) == events
    assert len(run) == 1


async def test_a_board_telling_a_long_stretch_reads_it_once_and_then_follows_it(service, database_url):
    """A board tells everything since the board before it: while that stretch grows past the few moves a tail
    keeps, its moves are read from the log once, and each further move extends what is kept."""
    table = await started_druids(service, players=2)
    await service.recent_events(table, 6)
    table = await _play(service, table, 12)
    with statements(service.sessions) as run:
        assert len(await service.recent_events(table, 12)) == 12
    assert len(run) == 1  # more than the tail kept: read once
    for _ in range(3):
        table = await _play(service, table, 1)
        asked = table.version - 1  # the stretch, one move longer
        with statements(service.sessions) as run:
            kept = await service.recent_events(table, asked)
        assert run == [] and kept == await _from_the_log(database_url, table, asked)
    await service.recent_events(table, 6)  # a new board asks for the last few again: the tail shrinks back
    table = await _play(service, table, 1)
    assert len(service.tails._tails[table.id].moves) == 8
