"""A real discord.py bot against the sandbox: what each user sees, and no violations."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from sandbox.model import FLAG_EPHEMERAL
from sandbox.validate import ActionRejected
from tests.sandbox.bot_app import SandboxTestBot
from tests.sandbox.conftest import World


async def test_login_ready_and_command_sync(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    assert set(sb.world.guild_commands[world.guild.id]) >= {"play", "hand", "render", "dm", "thread"}
    assert set(sb.world.global_commands) == {"ping"}
    play = sb.world.guild_commands[world.guild.id]["play"].data
    assert {o["name"] for o in play["options"]} == {"new", "admin"}
    assert bot.user is not None and str(bot.user.id) == sb.world.bot.id
    assert sb.gateway.identifies == 1
    assert sb.violations == []


async def test_global_command_in_guild_channel(world: World, bot: SandboxTestBot) -> None:
    result = await world.sb.slash(world.bob, world.games, "ping")
    assert result.callback_type == 4
    assert result.message is not None and result.message.content == "pong"
    assert world.sb.violations == []


async def test_autocomplete_then_subcommand_creates_public_message(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    choices = await sb.autocomplete(world.alice, world.games, "play new", {"game": "ro"}, focused="game")
    assert [c["value"] for c in choices] == ["roll_player", "roll_for_the_galaxy"]
    result = await sb.slash(world.alice, world.games, "play new", {"game": "druids", "seats": 3})
    assert (
        result.callback_type == 4
    )  # the sandbox refuses a callback past the deadline, so this one was in time
    msg = result.message
    assert msg is not None and msg.audience.kind == "public"
    assert msg.content == f"New druids for 3 by <@{world.alice.id}>"
    assert msg.pinged_ids == [world.alice.id]
    assert msg in sb.visible_to(world.bob) and msg in sb.visible_to(world.alice)
    assert {c["custom_id"] for c in msg.interactive()} == {
        "join",
        "colour",
        f"move:{int(result.id) % 100000}:1",
    }
    assert sb.latest_with_components(world.games) is msg
    assert sb.violations == []


async def test_slash_schema_is_enforced_like_the_client(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.alice, world.games, "play new", {"game": "druids", "seats": 9})
    assert err.value.code == "option_above_max"
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.alice, world.games, "play new", {})
    assert err.value.code == "missing_option"
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.alice, world.games, "play new", {"game": "druids", "colour": "red"})
    assert err.value.code == "unknown_option"
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.alice, world.games, "play old", {})
    assert err.value.code == "unknown_command"
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.alice, world.games, "play new", {"game": 3})
    assert err.value.code == "bad_option_type"
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.bob, world.games, "settings")
    assert err.value.code == "missing_permissions"
    assert all(v.actor == "client" for v in sb.violations) and len(sb.violations) == 6


async def test_subcommand_group_and_manager_permission(world: World, bot: SandboxTestBot) -> None:
    result = await world.sb.slash(world.alice, world.games, "play admin reset", {"confirm": True})
    msg = result.message
    assert msg is not None and msg.content == "reset confirm=True manager=True"
    assert msg.audience.kind == "ephemeral" and msg.audience.user_id == world.alice.id
    assert msg not in world.sb.visible_to(world.bob)
    bob = await world.sb.slash(world.bob, world.games, "play admin reset", {"confirm": False})
    assert bob.message is not None and bob.message.content == "reset confirm=False manager=False"
    settings = await world.sb.slash(world.alice, world.games, "settings")
    assert settings.message is not None and settings.message.content == "settings"
    assert world.sb.violations == []


async def test_persistent_dynamic_button_click_edits_message(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    msg = (await sb.slash(world.alice, world.games, "play new", {"game": "druids"})).message
    assert msg is not None
    move = next(c["custom_id"] for c in msg.interactive() if c["custom_id"].startswith("move:"))
    result = await sb.click(world.bob, msg, move)
    assert result.callback_type == 7 and result.edited == [msg]
    assert msg.content == "Bob made move 1" and msg.edit_count == 1
    # The edit replaced the view: the old button is gone, the next one is there.
    with pytest.raises(ActionRejected):
        await sb.click(world.bob, msg, move)
    game, _ = move[5:].split(":")
    await sb.click(world.alice, msg, f"move:{game}:2")
    assert msg.content == "Alice made move 2"
    assert len(sb.bot_violations()) == 0


async def test_view_button_disables_and_select_replies_ephemerally(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    msg = (await sb.slash(world.alice, world.games, "play new", {"game": "talisman"})).message
    assert msg is not None
    await sb.click(world.alice, msg, "join")
    await sb.click(world.bob, msg, "join")
    assert msg.content == "Players: Alice, Bob"
    assert msg.component("join") is not None and msg.component("join")["disabled"] is True
    with pytest.raises(ActionRejected) as err:
        await sb.click(world.carol, msg, "join")
    assert err.value.code == "component_disabled"
    result = await sb.select(world.bob, msg, "colour", ["green"])
    reply = result.message
    assert reply is not None and reply.content == "You chose green" and reply.flags & FLAG_EPHEMERAL
    assert reply in sb.visible_to(world.bob) and reply not in sb.visible_to(world.alice)
    with pytest.raises(ActionRejected) as err:
        await sb.select(world.bob, msg, "colour", ["purple"])
    assert err.value.code == "unknown_select_value"
    assert sb.bot_violations() == []


async def test_ephemeral_reply_is_seen_only_by_its_user(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.bob, world.games, "hand")
    msg = result.message
    assert msg is not None and msg.content == "Your hand, Bob (ko)"
    assert msg.audience.kind == "ephemeral" and msg.pinged_ids == []
    assert msg in sb.messages(world.games, viewer=world.bob)
    assert msg not in sb.messages(world.games, viewer=world.alice)
    assert sb.violations == []


async def test_deferred_reply_with_png_followup(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.alice, world.games, "render", {"size": 48})
    assert result.callback_type == 5
    msg = result.message
    assert msg is not None and not msg.loading and msg.content == "Board"
    # The first followup after a deferred reply becomes that reply (one message, not two).
    assert len(result.messages) == 1
    att = msg.attachments[0]
    assert (
        att.filename == "board.png"
        and att.content_type == "image/png"
        and (att.width, att.height) == (48, 48)
    )
    async with aiohttp.ClientSession() as session, session.get(att.url) as resp:
        assert resp.status == 200 and await resp.read() == att.data
    assert sb.violations == []


async def test_dm_to_open_and_closed_user(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    await sb.slash(world.alice, world.games, "dm", {"who": world.bob})
    await sb.slash(world.alice, world.games, "dm", {"who": world.carol})
    assert bot.dm_results == ["sent", "forbidden 50007"]
    dms = sb.dms(world.bob)
    assert len(dms) == 1 and dms[0].content == "Psst Bob" and dms[0].audience.kind == "dm"
    assert dms[0].attachments[0].data[:4] == b"\x89PNG"
    assert dms[0] in sb.visible_to(world.bob) and dms[0] not in sb.visible_to(world.alice)
    assert sb.dms(world.carol) == []
    assert [(v.status, v.code) for v in sb.violations] == [(403, 50007)]
    with pytest.raises(ActionRejected) as err:
        await sb.click(world.alice, dms[0], "dm_ok")
    assert err.value.code == "cannot_view_channel"
    result = await sb.click(world.bob, dms[0], "dm_ok")
    assert result.callback_type == 7 and dms[0].content == "Read by Bob in dm" and dms[0].components == []


async def test_threads_from_message_and_standalone(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.bob, world.games, "thread", {"title": "Druids #1"})
    starter = result.message
    assert starter is not None
    # The reply completes the interaction; the handler goes on creating threads after it.
    await sb.wait_until(lambda: any(t.archived for t in sb.threads(world.games)))
    threads = {t.id: t for t in sb.threads(world.games)}
    assert len(threads) == 2
    from_message = threads[starter.id]  # a thread started from a message shares its id
    assert from_message.name == "Druids #1 chat" and starter.thread_id == from_message.id
    standalone = next(t for t in threads.values() if t.id != starter.id)
    assert standalone.name == "Druids #1 (renamed)" and standalone.archived
    assert world.bob.id in standalone.member_ids
    welcome = sb.messages(standalone)
    assert [m.content for m in welcome] == [f"Welcome <@{world.bob.id}>"] and welcome[0].pinged_ids == [
        world.bob.id
    ]
    assert [m.content for m in sb.messages(from_message)] == ["Chat here"]
    await sb.wait_until(lambda: bot.get_channel(int(from_message.id)) is not None)  # THREAD_CREATE arrived
    # discord.py drops a thread from its cache when THREAD_UPDATE says it was archived.
    await sb.wait_until(lambda: bot.get_channel(int(standalone.id)) is None)
    assert sb.violations == []


async def test_message_edit_with_new_attachment(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.alice, world.games, "attach")
    assert result.message is not None and result.message.content == "edited"
    msg = next(m for m in sb.messages(world.games) if m.content == "v2")
    assert [a.filename for a in msg.attachments] == ["v2.png"]
    assert (msg.attachments[0].width, msg.edit_count) == (30, 1)
    assert [(h["content"], h["attachments"]) for h in msg.history] == [("v1", ["v1.png"])]
    assert msg.edited_at is not None
    assert sb.violations == []


async def test_reply_and_update_with_files(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.alice, world.games, "card")
    msg = result.message
    assert msg is not None and [a.filename for a in msg.attachments] == ["face.png"]
    assert msg.embeds[0]["thumbnail"]["url"] == msg.attachments[0].url  # attachment:// resolved
    await sb.click(world.bob, msg, "flip")
    assert msg.content == "Back" and [(a.filename, a.width) for a in msg.attachments] == [("back.png", 24)]
    # A deferred update (type 6) completes when the clicked message is edited through @original.
    slow = await sb.click(world.alice, msg, "slow_flip")
    assert slow.callback_type == 6 and slow.edited == [msg]
    assert msg.content == "Slow back" and msg.components == [] and msg.attachments[0].filename == "slow.png"
    note = await sb.wait_for(lambda m: m.content == "Only for you")
    assert note.audience.kind == "ephemeral" and note.audience.user_id == world.alice.id
    assert sb.violations == []


async def test_commands_inside_a_thread(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    await sb.slash(world.bob, world.games, "thread", {"title": "T"})
    await sb.wait_until(lambda: any(t.archived for t in sb.threads(world.games)))
    live = next(t for t in sb.threads(world.games) if not t.archived)
    result = await sb.slash(world.carol, live, "ping")
    assert result.message is not None and result.message.channel_id == live.id
    assert result.message in sb.visible_to(world.alice, live)
    assert sb.violations == []


async def test_components_v2_layout(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    msg = (await sb.slash(world.alice, world.games, "layout")).message
    assert msg is not None and msg.flags & (1 << 15) and msg.content == ""
    assert "Turn 1" in msg.text
    gallery = next(c for c in msg.iter_components() if c["type"] == 12)
    assert gallery["items"][0]["media"]["url"] == msg.attachments[0].url
    await sb.click(world.bob, msg, "v2_end")
    assert "Turn 2" in msg.text and msg.attachments[0].width == 36
    assert sb.violations == []


async def test_modal_round_trip(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    opened = await sb.slash(world.bob, world.games, "name")
    assert opened.callback_type == 9 and opened.modal is not None
    result = await sb.submit_modal(world.bob, opened, {"name_field": "Bobby"})
    assert result.message is not None and result.message.content == "Hello Bobby"
    with pytest.raises(ActionRejected):
        await sb.submit_modal(world.bob, opened, {"name_field": "again"})
    assert sb.bot_violations() == []


async def test_gateway_drop_resumes_and_events_are_replayed(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    assert await sb.drop_gateway() == 1
    # Dispatched while the bot is disconnected: it must arrive through the RESUME replay.
    pending = await sb.slash(world.alice, world.games, "ping", wait=False)
    await sb.wait_for_resume()
    await pending.wait()
    assert pending.message is not None and pending.message.content == "pong"
    assert sb.gateway.identifies == 1 and sb.gateway.resumes == 1
    assert sb.violations == []


async def test_reconnect_request_resumes(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    assert await sb.gateway.request_reconnect() == 1
    await sb.wait_for_resume()
    result = await sb.slash(world.bob, world.games, "ping")
    assert result.message is not None and sb.gateway.identifies == 1


async def test_invalidated_session_identifies_again(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    sb.gateway.invalidate()
    await sb.drop_gateway()
    await sb.gateway.wait(lambda g: g.identifies == 2 and bool(g.connected), 5)
    assert sb.gateway.invalid_sessions == 1
    result = await sb.slash(world.bob, world.games, "ping")
    assert result.message is not None and result.message.content == "pong"


async def test_injected_429_is_retried(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    rule = sb.inject_429("POST", r"/interactions/\d+/[^/]+/callback$", retry_after=0.01)
    result = await sb.slash(world.bob, world.games, "ping")
    assert rule.hits and rule.remaining == 0
    assert result.message is not None and result.message.content == "pong"
    assert sb.violations == []


async def test_wait_for_sees_later_edits(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    msg = (await sb.slash(world.alice, world.games, "play new", {"game": "druids"})).message
    assert msg is not None
    move = next(c["custom_id"] for c in msg.interactive() if c["custom_id"].startswith("move:"))
    await sb.click(world.bob, msg, move, wait=False)
    edited = await sb.wait_for(lambda m: m.content == "Bob made move 1", timeout=5)
    assert edited is msg


async def test_late_acknowledgement_from_the_bot_is_refused(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    sb.ack_deadline = 0.05
    result = await sb.slash(world.alice, world.games, "slow", {"delay": 0.15}, wait=False)
    await sb.wait_until(lambda: bool(sb.violations))
    assert [(v.status, v.code) for v in sb.violations] == [(404, 10062)]
    assert not result.acknowledged and sb.messages(world.games) == []
    await sb.wait_until(lambda: bool(bot.errors))
    assert isinstance(bot.errors[0].__cause__, discord.NotFound)


async def test_overlong_content_from_the_bot_is_refused(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    result = await sb.slash(world.alice, world.games, "long", {"length": 2001}, wait=False)
    await sb.wait_until(lambda: bool(bot.errors))
    assert [(v.status, v.code) for v in sb.violations] == [(400, 50035)]
    assert "content" in (sb.violations[0].errors or {})
    assert not result.acknowledged
    ok = await sb.slash(world.alice, world.games, "long", {"length": 2000})
    assert ok.message is not None and len(ok.message.content) == 2000


async def test_persistent_button_survives_a_bot_restart(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    msg = (await sb.slash(world.alice, world.games, "play new", {"game": "druids"})).message
    assert msg is not None
    move = next(c["custom_id"] for c in msg.interactive() if c["custom_id"].startswith("move:"))
    await bot.close()
    await sb.wait_until(lambda: not sb.gateway.connected)
    async with sb.connected(SandboxTestBot(int(world.guild.id))) as again:
        # The non-persistent Join view died with the old process: nobody answers its click.
        assert all(item.custom_id != "join" for view in again.persistent_views for item in view.children)
        lost = await sb.click(world.bob, msg, "join", wait=False)
        result = await sb.click(world.bob, msg, move)
        assert result.callback_type == 7 and msg.content == "Bob made move 1"
        await sb.wait_until(lambda: int(lost.id) in again.seen_interactions)
        assert not lost.acknowledged
        assert sb.gateway.identifies == 2
    assert sb.violations == []


async def test_global_command_in_a_dm(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    dm = sb.world.dm_channel(world.bob)
    result = await sb.slash(world.bob, dm, "ping")
    assert result.record.payload["context"] == 1 and "user" in result.record.payload
    assert result.message is not None and result.message.audience.kind == "dm"
    assert sb.dms(world.bob) == [result.message] and sb.dms(world.alice) == []
    with pytest.raises(ActionRejected) as err:
        await sb.slash(world.bob, dm, "hand")  # a guild command is not offered in DMs
    assert err.value.code == "unknown_command"


async def test_user_messages_reach_the_bot_without_content_intent(world: World, bot: SandboxTestBot) -> None:
    sb = world.sb
    await sb.say(world.alice, world.games, "hello everyone")
    await sb.say(world.alice, world.games, f"<@{sb.world.bot.id}> hello bot")
    await sb.wait_until(lambda: len(bot.seen_messages) == 2)
    # Without the privileged intent Discord blanks content unless the bot is mentioned.
    assert bot.seen_messages == ["", f"<@{sb.world.bot.id}> hello bot"]
    assert [m.content for m in sb.messages(world.games, viewer=world.bob)][-1].endswith("hello bot")
