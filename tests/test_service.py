"""The one write path, against every supported database (SQLite always; PostgreSQL when TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import asyncio

import pytest

from bot.db import make_engine, make_sessionmaker, migrate
from bot.db.models import Move
from bot.service import ABANDONED, ACTIVE, FINISHED, GameService, ServiceError, choices, think_here
from engines.base import IllegalAction
from tests.lobbies import open_lobby, started_druids, statements


@pytest.fixture
async def service(database_url):
    await migrate(database_url)
    engine = make_engine(database_url)
    yield GameService(make_sessionmaker(engine), new_seed=lambda: 1234)
    await engine.dispose()


async def test_lobby_to_started_game(service):
    table = await started_druids(service)
    assert table.status == ACTIVE and table.version == 1
    assert table.names == ["Alice", "P1", "P2"]
    assert table.to_act() == [0]
    assert [t.id for t in await service.games_in_channel(10)] == [table.id]
    assert [t.id for t in await service.games_of_user(101)] == [table.id]


async def test_lobby_refusals(service):
    table = await open_lobby(service, host_name="A")
    for code, call in [
        ("already_joined", service.join(table.id, 100, "A")),
        ("host_cannot_leave", service.leave(table.id, 100)),
        ("not_in_lobby", service.leave(table.id, 555)),
        ("not_enough_players", service.start(table.id, 100)),
        ("game_not_found", service.join(9999, 1, "x")),
    ]:
        with pytest.raises(ServiceError) as refused:
            await call
        assert refused.value.code == code
    for user in range(101, 104):
        await service.join(table.id, user, "x")
    with pytest.raises(ServiceError) as refused:
        await service.join(table.id, 200, "late")
    assert refused.value.code == "lobby_full"
    with pytest.raises(ServiceError) as refused:
        await service.start(table.id, 101)
    assert refused.value.code == "only_host_starts"
    with pytest.raises(ServiceError) as refused:
        await open_lobby(service, "chess")
    assert refused.value.code == "unknown_game"
    with pytest.raises(IllegalAction) as refused:
        await open_lobby(service, raw_options={"speed": "fast"})
    assert refused.value.code == "unknown_option"


async def test_leaving_renumbers_seats(service):
    table = await open_lobby(service, host_name="A")
    await service.join(table.id, 101, "B")
    await service.join(table.id, 102, "C")
    table = await service.leave(table.id, 101)
    assert [(s.seat, s.display_name) for s in table.seats] == [(0, "A"), (1, "C")]


async def test_a_move_is_committed_with_its_log_entry(service):
    table = await started_druids(service)
    action = table.engine.legal_actions(table.state, 0)[0]
    result = await service.act(table.id, 100, action, expected_version=1)
    assert result.table.version == 2
    assert result.seat == 0 and result.events
    moves = await service.moves(table.id)
    assert [(m.version, m.seat, m.action) for m in moves] == [(2, 0, action)]
    assert moves[0].events == result.events
    reloaded = await service.get(table.id)
    assert reloaded.state == result.table.state


async def test_refused_moves_change_nothing(service):
    table = await started_druids(service)
    action = table.engine.legal_actions(table.state, 0)[0]
    attempts = [
        ("not_a_player", 999, action, None),
        ("not_your_turn", 101, action, None),
        ("stale", 100, action, 0),
        ("card_not_in_hand", 100, {"type": "play_card", "card": "ruby-99", "place": 0}, None),
    ]
    for code, user, attempt, version in attempts:
        with pytest.raises((ServiceError, IllegalAction)) as refused:
            await service.act(table.id, user, attempt, expected_version=version)
        assert refused.value.code == code
    after = await service.get(table.id)
    assert after.version == table.version and after.state == table.state
    assert await service.moves(table.id) == []


async def test_concurrent_moves_on_one_game_apply_once(service):
    table = await started_druids(service)
    action = table.engine.legal_actions(table.state, 0)[0]
    results = await asyncio.gather(
        *(service.act(table.id, 100, action, expected_version=1) for _ in range(3)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, ServiceError) and r.code == "stale" for r in results if isinstance(r, Exception))
    assert len(await service.moves(table.id)) == 1


async def test_a_move_on_the_game_as_read_is_stale_once_another_got_in_first(service):
    """A handler passes the game as it read it; a move committed since then makes its move stale, not lost."""
    table = await started_druids(service)
    action = table.engine.legal_actions(table.state, 0)[0]
    read_by_both = await service.get(table.id)
    first = await service.act(table.id, 100, action, expected_version=1, read=read_by_both)
    with pytest.raises(ServiceError) as refused:
        await service.act(table.id, 100, action, expected_version=1, read=read_by_both)
    assert refused.value.code == "stale"
    after = await service.get(table.id)
    assert after.version == first.table.version == 2 and after.state == first.table.state
    assert len(await service.moves(table.id)) == 1


async def test_a_game_read_is_the_game_stored(service):
    """The plain rows a game is read into carry what was stored: its columns, its seats in order."""
    table = await started_druids(service)
    await service.hand_to_bot(table.id, 1, "Bot 2")
    read = await service.get(table.id)
    assert [(s.seat, s.user_id, s.display_name, s.is_bot) for s in read.seats] == [
        (0, 100, "Alice", False),
        (1, None, "Bot 2", True),
        (2, 102, "P2", False),
    ]
    assert read.record.status == ACTIVE and read.record.channel_id == 10 and read.record.version == 2
    assert read.record.notes[-1] == {"key": "game.left", "params": {"name": "P1"}, "v": 2}  # JSON decoded
    assert [t.id for t in await service.games_of_user(102)] == [table.id]
    assert [t.seats for t in await service.games_in_channel(10)][0][1].is_bot


async def test_a_table_held_while_a_move_is_committed_from_it_still_stands_for_its_version(service):
    """Handlers share the recent game's table (a picker step, 'Take my turn'): a commit from it must not change it
    under another handler, whose move from it is then stale, not applied to an old state over the new version."""
    table = await started_druids(service, players=2)
    held = await service.recent_game(table.id)
    seat = held.to_act()[0]
    user = held.user_at(seat)
    first = choices(held, seat)[0]
    moved = await service.act(table.id, user, first, expected_version=held.version, read=held)
    assert (held.version, held.state) == (table.version, table.state)
    assert moved.table.version == table.version + 1 and moved.table.record is not held.record
    with pytest.raises(ServiceError) as refused:
        await service.act(table.id, user, first, expected_version=held.version, read=held)
    assert refused.value.code == "stale"
    assert (await service.get(table.id)).state == moved.table.state


async def test_shown_marks_the_outbox_done_only_when_nothing_newer_was_committed(service):
    table = await started_druids(service, players=2)
    seat = table.to_act()[0]
    first = (await service.act(table.id, table.user_at(seat), choices(table, seat)[0], table.version)).table
    seat = first.to_act()[0]
    await service.act(first.id, first.user_at(seat), choices(first, seat)[0], first.version)

    await service.shown(first)  # Discord caught up with the first move while the second was being committed
    row = (await service.get(first.id)).record
    assert row.shown_version == first.version and row.shown_acting == {
        str(s): m for s, m in first.acting.items()
    }
    assert row.publish_at is not None  # the second move still has to be shown
    assert (first.id in await service.to_publish(None)) and row.publish_attempts == 0

    newest = await service.get(first.id)
    await service.shown(newest)
    await service.shown(first)  # a late "shown" of an older version changes nothing
    row = (await service.get(first.id)).record
    assert row.shown_version == newest.version and row.publish_at is None
    assert first.id not in await service.to_publish(None)


async def test_two_services_on_one_database_never_both_apply(database_url):
    """Two bot processes share a database: the version check lets only one of two racing moves through."""
    await migrate(database_url)
    engines = [make_engine(database_url) for _ in range(2)]
    first, second = (GameService(make_sessionmaker(e), new_seed=lambda: 7) for e in engines)
    table = await started_druids(first)
    action = table.engine.legal_actions(table.state, 0)[0]
    stale_copy = await second.get(table.id)
    await first.act(table.id, 100, action, expected_version=1)
    with pytest.raises(ServiceError) as refused:
        await second._commit_move(stale_copy, 0, 100, action, [], stale_copy.state)
    assert refused.value.code == "stale"
    assert len(await first.moves(table.id)) == 1
    for e in engines:
        await e.dispose()


async def test_a_restarted_service_resumes_the_game(database_url):
    await migrate(database_url)
    engine = make_engine(database_url)
    table = await started_druids(GameService(make_sessionmaker(engine), new_seed=lambda: 5))
    await engine.dispose()
    engine = make_engine(database_url)
    again = GameService(make_sessionmaker(engine))
    resumed = await again.get(table.id)
    assert resumed.state == table.state and resumed.version == table.version
    await again.act(table.id, 100, resumed.engine.legal_actions(resumed.state, 0)[0], expected_version=1)
    await engine.dispose()


async def test_abandon_needs_the_host_or_a_manager(service):
    table = await started_druids(service)
    with pytest.raises(ServiceError) as refused:
        await service.abandon(table.id, 101, is_manager=False)
    assert refused.value.code == "only_host_abandons"
    table = await service.abandon(table.id, 101, is_manager=True)
    assert table.status == ABANDONED
    with pytest.raises(ServiceError) as refused:
        await service.act(table.id, 100, {"type": "draw_gem"})
    assert refused.value.code == "game_not_running"


async def test_a_finished_game_is_marked_finished(service):
    table = await started_druids(service, players=2)
    state = table.state
    engine = table.engine
    from engines.rng import Rng

    rng = Rng(3)
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        result = await service.act(table.id, 100 + seat, action)
        state = result.table.state
    assert result.table.status == FINISHED and result.table.record.finished_at is not None
    assert len(await service.moves(table.id)) == result.table.version - 1
    assert all(isinstance(m, Move) for m in await service.moves(table.id, limit=3))


async def test_migrations_build_exactly_the_models_schema(database_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bot.db.models import Base

    await migrate(database_url)
    await migrate(database_url)  # a second start finds nothing to do
    engine = make_engine(database_url)
    async with engine.connect() as connection:
        diff = await connection.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
        )
    await engine.dispose()
    assert diff == []


async def test_the_bot_never_loads_alembic_and_a_failed_migration_says_so(tmp_path):
    """Migrations run in a process of their own, so Alembic and what it imports stay out of the bot's memory; when
    that process fails, starting fails with a message, not with a bot over a database without tables."""
    import subprocess
    import sys

    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, bot.app; print(sorted(m for m in sys.modules if 'alembic' in m))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"
    with pytest.raises(RuntimeError, match="migrating the database failed"):
        await migrate(f"sqlite+aiosqlite:///{tmp_path}/no-such-folder/games.db")


async def test_a_database_at_the_first_schema_is_upgraded_in_place(database_url):
    from alembic import command
    from sqlalchemy import text

    from bot.db.upgrade import alembic_config

    await asyncio.to_thread(command.upgrade, alembic_config(database_url), "0001")
    engine = make_engine(database_url)
    async with engine.begin() as connection:
        insert = text("INSERT INTO user_prefs (user_id, vacation) VALUES (7, :on)")
        await connection.execute(insert, {"on": True})
    await migrate(database_url)
    service = GameService(make_sessionmaker(engine))
    assert await service.on_vacation([7]) == {7}  # what was there survives
    assert await service.user_locales([7]) == {}  # and no language is known until the user interacts
    await service.remember_locale(7, "ko")
    assert await service.user_locales([7]) == {7: "ko"}
    await engine.dispose()


async def test_a_users_last_language_is_remembered(service):
    assert await service.user_locales([1, 2]) == {}
    # Two first interactions at once: one creates the row, the other finds it.
    await asyncio.gather(service.remember_locale(1, "ko"), service.remember_locale(1, "ko"))
    await service.set_vacation(2, True)
    await service.remember_locale(2, "es")
    assert await service.user_locales([1, 2, 3]) == {1: "ko", 2: "es"}
    await service.remember_locale(1, "en")
    assert await service.user_locales([1]) == {1: "en"}
    assert await service.on_vacation([1, 2]) == {2}


async def test_known_languages_are_not_read_again(service):
    await service.remember_locale(1, "ko")
    with statements(service.sessions) as run:
        assert await service.user_locales([1]) == {1: "ko"}
    assert run == []
    other = GameService(service.sessions)  # another process: reads once, then knows
    with statements(service.sessions) as run:
        assert await other.user_locales([1, 2]) == {1: "ko"}
        assert await other.user_locales([1]) == {1: "ko"}
    assert len(run) == 1


async def test_a_demo_moves_at_its_own_pace_until_it_ends(database_url):
    from datetime import UTC, datetime, timedelta

    await migrate(database_url)
    engine = make_engine(database_url)
    now = [datetime(2026, 3, 1, 9, tzinfo=UTC)]
    service = GameService(make_sessionmaker(engine), clock=lambda: now[0], new_seed=lambda: 77)
    pace = timedelta(seconds=5)

    def create(bots: int):
        return service.create_demo(
            engine_name="druids",
            guild_id=1,
            channel_id=10,
            host_id=100,
            locale="en",
            bot_names=[f"Bot {n}" for n in range(1, bots + 1)],
            raw_options={},
            pace=pace,
        )

    with pytest.raises(IllegalAction) as refused:
        await create(1)
    assert refused.value.code == "bad_player_count" and refused.value.engine == "druids"
    table = await create(2)
    assert table.status == ACTIVE and table.version == 1 and all(s.is_bot for s in table.seats)
    assert await service.demos_due(now[0]) == []
    with pytest.raises(ServiceError):
        await service.act_for_demo(table.id, pace)  # not due yet
    with pytest.raises(ServiceError) as refused:
        await service.substitute(table.id, 101, "Eve", None)
    assert refused.value.code == "demo_no_seats"

    now[0] += pace
    assert await service.demos_due(now[0]) == [table.id]
    assert (await service.due(now[0])).bot_turns == []  # the ordinary clock leaves a demo to its own pace
    moved = await service.act_for_demo(table.id, pace)
    assert moved.table.version == 2 and moved.table.record.demo_move_at == now[0] + pace
    with pytest.raises(ServiceError):
        await service.act_for_demo(table.id, pace)  # one move per step of the pace
    assert await service.demos_due(now[0]) == []

    while (table := await service.get(table.id)).status == ACTIVE:
        now[0] += pace
        await service.act_for_demo(table.id, pace)
        assert table.version < 500
    assert table.status == FINISHED
    assert {m.user_id for m in await service.moves(table.id)} == {0}
    assert await service.demos_due(now[0] + pace) == []
    await engine.dispose()


async def test_built_in_players_think_at_their_seats_level(database_url):
    """An easy bot, a hard bot, and the server's level for missed deadlines: each move asks for its level."""
    engine = make_engine(database_url)
    await migrate(database_url)
    asked: list[tuple[int, str]] = []

    async def think(engine_name, state, seat, seed, level):
        asked.append((seat, level))
        return await think_here(engine_name, state, seat, seed, "easy")  # the move itself: quick

    service = GameService(make_sessionmaker(engine), new_seed=lambda: 1234, think=think)
    await service.update_settings(7, deadline_level="hard")
    lobby = await open_lobby(service, guild_id=7)
    await service.add_bot(lobby.id, 100, "Easy one")
    await service.add_bot(lobby.id, 100, "Hard one", "hard")
    with pytest.raises(ServiceError):
        await service.add_bot(lobby.id, 100, "Odd one", "legendary")
    table = await service.start(lobby.id, 100)
    assert [s.bot_level for s in table.seats] == ["easy", "easy", "hard"]
    for _ in range(60):  # the people pass on deadlines, the bots move at their own levels
        if table.status != "active":
            break
        seat = table.to_act()[0]
        if table.user_at(seat) is None:
            table = (await service.act_for_bot(table.id, seat)).table
        else:
            table = (await service.act_on_deadline(table.id, seat)).table
    assert {level for seat, level in asked if seat == 2} == {"hard"}
    assert {level for seat, level in asked if seat == 1} == {"easy"}
    assert {level for seat, level in asked if seat == 0} == {
        "hard"
    }  # the server's level for missed deadlines
    await engine.dispose()
