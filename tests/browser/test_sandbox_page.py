"""The local sandbox in a real browser: headless Chromium plays Druids by clicking in the page, and shows a
board in a phone-wide and a desktop-wide window.

The sandbox server and the real bot run in this event loop (bot/sandbox_mode.LocalSandbox, what `make run`
starts without a token); Playwright drives Debian's Chromium. Screenshots go to test-artifacts/sandbox-*.png,
the phone and desktop ones to the test's tmp_path.
"""

from __future__ import annotations

import pytest
from PIL import Image

from bot.sandbox_mode import LocalSandbox
from bot.settings import Settings
from tests.browser.druids import play_move, player_to_move
from tests.browser.ui import TIMEOUT_MS, Ui, bot_idle

pytestmark = pytest.mark.e2e

VIEWPORT = {"width": 1280, "height": 900}


def settings_for(tmp_path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", tick_seconds=0, _env_file=None
    )


async def image_loaded(ui: Ui, selector: str) -> None:
    await ui.page.wait_for_function(
        "sel => { const img = document.querySelector(sel); return img && img.complete && img.naturalWidth; }",
        arg=selector,
        timeout=TIMEOUT_MS,
    )


async def test_a_druids_game_by_clicking_in_the_page(tmp_path, browser, artifacts_dir):
    local = LocalSandbox(settings_for(tmp_path), port=0, folder=tmp_path / "world")
    await local.start()
    try:
        sb, service = local.sandbox, local.bot.host.service
        ui = Ui(await browser.new_page(viewport=VIEWPORT), sb)
        await ui.load(sb.base_url)
        assert sb.host == "127.0.0.1" and sb.base_url.startswith("http://127.0.0.1:")
        games = sb.world.channel("games")
        await ui.act_as("Alice")
        await ui.open(games.id)

        # Typing "/" lists the synced commands with their options.
        await ui.page.locator("#composer-input").fill("/")
        listed = await ui.page.locator("#command-popup .cmd").all_inner_texts()
        assert any(text.startswith("/play new") for text in listed), listed
        assert any(text.startswith("/rules") and "topic" in text for text in listed), listed

        # /rules with the topic picked from the bot's autocomplete: an ephemeral answer only Alice sees.
        await ui.slash("rules", game="Druids", topic="Scoring")
        answer = ui.page.locator("#messages .msg.ephemeral").last
        assert "Scoring a place" in await answer.inner_text()
        assert "Only you can see this" in await answer.inner_text()

        # Alice opens a lobby with /play new; Bob and Carol join through the switcher; Alice starts.
        await ui.slash("play new", game="Druids")
        lobby = next(
            m
            for m in reversed(sb.messages(games))
            if any(b["custom_id"].startswith("lobby:join:") for b in m.buttons())
        )
        game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
        assert (
            await ui.message(lobby.id).locator(f'button[data-custom-id="lobby:join:{game_id}"]').is_visible()
        )
        for name in ("Bob", "Carol"):
            await ui.act_as(name)
            await ui.click(lobby.id, f"lobby:join:{game_id}")
            assert name in await ui.message(lobby.id).inner_text()  # the lobby is edited in place
        await ui.act_as("Alice")
        await ui.click(lobby.id, f"lobby:start:{game_id}")
        table = await service.get(game_id)
        assert table.status == "active"
        thread = str(table.record.thread_id)

        # The game's thread appears in the sidebar, and Alice's DMs light up with her hand.
        await ui.page.wait_for_selector(f'#channels a[data-channel="{thread}"]', timeout=TIMEOUT_MS)
        await ui.page.wait_for_selector("#dm-link a.unread", timeout=TIMEOUT_MS)
        await ui.open(thread)
        await image_loaded(ui, f'.msg[data-id="{table.record.board_message_id}"] .attachments img')

        # A few moves, each by the player to move: "Take my turn", then the picker's buttons and menus.
        for move in range(4):
            mover = player_to_move(sb, await service.get(game_id))
            if ui.me != sb.world.user(mover).id:
                await ui.act_as(mover)
            table = await play_move(sb, service, game_id, ui.click, ui.select, detour=move == 0)
        board = str(table.record.board_message_id)
        await image_loaded(ui, f'.msg[data-id="{board}"] .attachments img')
        pickers = ui.page.locator("#messages .msg.ephemeral")
        assert await pickers.count() >= 1  # the move pickers stay, for their user only

        # DMs: each player sees their own, never someone else's.
        alice_dms = {m.id for m in sb.dms("Alice")}
        bob_dms = {m.id for m in sb.dms("Bob")}
        assert alice_dms and bob_dms
        await ui.act_as("Alice")
        await ui.open("dm")
        assert set(await ui.shown_ids()) == alice_dms
        await image_loaded(ui, "#messages .msg:last-child .attachments img")
        await ui.screenshot(artifacts_dir / "sandbox-dm-alice.png")
        await ui.act_as("Bob")
        shown = set(await ui.shown_ids())
        assert shown == bob_dms and not shown & alice_dms

        # The table as the player to move sees it.
        mover = player_to_move(sb, await service.get(game_id))
        await ui.act_as(mover)
        await ui.open(thread)
        await image_loaded(ui, f'.msg[data-id="{board}"] .attachments img')
        await ui.message(board).evaluate("node => node.scrollIntoView({block: 'start'})")
        await ui.screenshot(artifacts_dir / "sandbox-druids.png")

        assert not ui.errors, ui.errors
        assert not sb.bot_violations() and not [v for v in sb.violations if v.actor == "sandbox"]
    finally:
        await local.stop()


async def started(sb, game: str, guest: str) -> int:
    """A game Alice opens, `guest` joins and Alice starts, with the bot done posting it; its id."""
    lobby = (await sb.slash("Alice", "games", "play new", {"game": game})).message
    game_id = int(lobby.buttons()[0]["custom_id"].rsplit(":", 1)[1])
    await sb.click(guest, lobby, f"lobby:join:{game_id}")
    await sb.click("Alice", lobby, f"lobby:start:{game_id}")
    await bot_idle()
    return game_id


async def test_the_page_reconnects_after_a_restart_and_old_buttons_still_work(
    tmp_path, browser, artifacts_dir
):
    settings = settings_for(tmp_path)
    first = LocalSandbox(settings, port=0, folder=tmp_path / "world")
    await first.start()
    page = await browser.new_page(viewport=VIEWPORT)
    try:
        sb, service = first.sandbox, first.bot.host.service
        game_id = await started(sb, "druids", "Carol")
        before = await service.get(game_id)
        thread, board = str(before.record.thread_id), str(before.record.board_message_id)
        ui = Ui(page, sb)
        await ui.load(sb.base_url)
        await ui.act_as(player_to_move(sb, before))
        await ui.open(thread)
        await image_loaded(ui, f'.msg[data-id="{board}"] .attachments img')
        port = sb.port
    finally:
        await first.stop()

    # The page notices, says so, and keeps trying.
    await page.wait_for_selector("#offline", state="visible", timeout=TIMEOUT_MS)
    second = LocalSandbox(settings, port=port, folder=tmp_path / "world")
    await second.start()
    try:
        sb, service = second.sandbox, second.bot.host.service
        assert second.restored
        ui.sb = sb
        await page.wait_for_selector("#offline", state="hidden", timeout=TIMEOUT_MS)
        await page.wait_for_selector("#gateway-status.ok", timeout=TIMEOUT_MS)
        # Same thread, same board message, its picture served again, its button from before the restart works.
        assert (await service.get(game_id)).record.board_message_id == int(board)
        await image_loaded(ui, f'.msg[data-id="{board}"] .attachments img')
        after = await play_move(sb, service, game_id, ui.click, ui.select)
        assert after.version > before.version
        await ui.screenshot(artifacts_dir / "sandbox-after-restart.png")
        assert not ui.errors, ui.errors
        assert not sb.bot_violations()
    finally:
        await page.close()
        await second.stop()


async def test_the_page_shows_every_kind_of_message_and_component(tmp_path, browser, artifacts_dir):
    """Selects, disabled buttons, embeds, edits that replace images, components v2, modals, deferred
    replies, ephemerals and DMs with buttons, from the sandbox suite's bot (tests/sandbox/bot_app.py)."""
    from sandbox.server import DiscordSandbox
    from tests.sandbox.bot_app import SandboxTestBot

    sb = DiscordSandbox(token="page-token")
    guild = sb.add_guild("Test")
    games = sb.add_channel(guild, "games")
    for name, locale in (("Alice", "en-US"), ("Bob", "ko")):
        sb.add_user(name, locale=locale)
    await sb.start()
    undo = sb.patch_discord()
    try:
        async with sb.connected(SandboxTestBot(int(guild.id))) as bot:
            await sb.wait_for_commands("play", "card", "layout", "name", "dm")
            ui = Ui(await browser.new_page(viewport=VIEWPORT), sb)
            await ui.load(sb.base_url)
            await ui.act_as("Alice")
            await ui.open(games.id)
            page, last = ui.page, ui.page.locator("#messages .msg").last

            # Autocomplete, a select menu answered privately, a button that gets disabled.
            await ui.slash("play new", game=("roll", "Roll Player"))
            lobby = sb.latest_with_components(games)
            assert lobby is not None and "New roll_player for 2" in lobby.text
            await ui.select(lobby.id, "colour", "green")
            await page.wait_for_selector(
                "#messages .msg.ephemeral >> text=You chose green", timeout=TIMEOUT_MS
            )
            await ui.click(lobby.id, "join")
            await ui.act_as("Bob")
            assert not await page.locator("#messages .msg.ephemeral").count()  # Alice's answer is hers only
            await ui.click(lobby.id, "join")
            join = ui.message(lobby.id).locator('button[data-custom-id="join"]')
            await page.wait_for_function(
                "b => b.disabled", arg=await join.element_handle(), timeout=TIMEOUT_MS
            )
            assert "Players: Alice, Bob" in await ui.message(lobby.id).inner_text()

            # An embed whose thumbnail is the uploaded file; an edit replaces the image.
            await ui.act_as("Alice")
            await ui.slash("card")
            card = sb.latest_with_components(games)
            await image_loaded(ui, f'.msg[data-id="{card.id}"] img.embed-thumb')
            await ui.click(card.id, "flip")
            await image_loaded(ui, f'.msg[data-id="{card.id}"] .attachments img[src$="back.png"]')
            assert "(edited)" in await ui.message(card.id).inner_text()

            # Components v2: a container with text, a gallery image and a button that edits it all.
            await ui.slash("layout")
            layout = sb.latest_with_components(games)
            await image_loaded(ui, f'.msg[data-id="{layout.id}"] .gallery img')
            await ui.click(layout.id, "v2_end")
            await page.wait_for_selector(f'.msg[data-id="{layout.id}"] >> text=Turn 2', timeout=TIMEOUT_MS)

            # A modal, and a deferred ("thinking") reply filled in with a picture.
            await ui.slash("name")
            await page.fill('#modal [name="name_field"]', "Zed")
            await page.click("#modal button[type=submit]")
            await page.wait_for_selector("#messages .msg >> text=Hello Zed", timeout=TIMEOUT_MS)
            await ui.slash("render")
            await image_loaded(ui, "#messages .msg:last-child .attachments img")

            # A DM with a picture and a button reaches Bob alone; he clicks it there.
            await ui.slash("dm", who="Bob")
            assert bot.dm_results == ["sent"]
            await ui.open("dm")
            assert await ui.shown_ids() == []
            await ui.act_as("Bob")
            dm = sb.dms("Bob")[-1]
            assert await ui.shown_ids() == [dm.id]
            await image_loaded(ui, f'.msg[data-id="{dm.id}"] .attachments img')
            await ui.click(dm.id, "dm_ok")
            await page.wait_for_selector(
                f'.msg[data-id="{dm.id}"] >> text=Read by Bob in dm', timeout=TIMEOUT_MS
            )

            await ui.act_as("Alice")
            await ui.open(games.id)
            await last.scroll_into_view_if_needed()
            await ui.screenshot(artifacts_dir / "sandbox-components.png")
            assert not bot.errors and not ui.errors, (bot.errors, ui.errors)
            assert not sb.bot_violations() and not [v for v in sb.violations if v.actor == "sandbox"]
    finally:
        undo()
        await sb.stop()


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Where the board's picture and components lie in the window, and how wide the page's content is.
LAYOUT = """board => {
    const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.right]; };
    const msg = document.querySelector(`#messages .msg[data-id="${board}"]`);
    const img = msg.querySelector(".attachments img");
    return {
        scroll: document.documentElement.scrollWidth,
        image: box(img),
        natural: img.naturalWidth,
        controls: [...msg.querySelectorAll("button, select")].map(box),
    };
}"""


@pytest.mark.parametrize(("screen", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
async def test_a_board_fits_a_phone_and_a_desktop_window(tmp_path, browser, screen, viewport):
    """A Roll Player board (picture, buttons and the players' sheet menu) in a window a phone's width and a
    desktop's: all of it within the window's width, nothing to scroll sideways. Screenshots in tmp_path."""
    local = LocalSandbox(settings_for(tmp_path), port=0, folder=tmp_path / "world")
    await local.start()
    try:
        sb, service = local.sandbox, local.bot.host.service
        game_id = await started(sb, "roll_player", "Bob")
        table = await service.get(game_id)
        board = str(table.record.board_message_id)
        ui = Ui(await browser.new_page(viewport=viewport), sb)
        await ui.load(sb.base_url)
        await ui.act_as("Alice")
        await ui.open(str(table.record.thread_id))
        await image_loaded(ui, f'.msg[data-id="{board}"] .attachments img')
        await ui.message(board).evaluate("node => node.scrollIntoView({block: 'start'})")
        shot = tmp_path / f"board-{screen}.png"
        await ui.screenshot(shot)

        layout = await ui.page.evaluate(LAYOUT, board)
        width = viewport["width"]
        assert layout["scroll"] <= width, layout  # nothing sticks out sideways
        left, right = layout["image"]
        assert 0 <= left < right <= width, layout
        assert layout["controls"] and all(0 <= a < b <= width for a, b in layout["controls"]), layout
        # A desktop shows the board as large as the page allows (520 px); a phone gives it nearly its whole
        # width (the sidebar moves above the channel).
        assert right - left >= (min(520, layout["natural"]) if screen == "desktop" else 0.8 * width), layout

        image = Image.open(shot).convert("RGB")
        assert image.size == (width, viewport["height"])
        drawn = image.crop((int(left), 0, int(right), image.height))
        assert len(drawn.getcolors(maxcolors=1 << 20)) > 200  # the board's picture, not a blank page
        assert not ui.errors, ui.errors
        assert not sb.bot_violations()
    finally:
        await local.stop()
