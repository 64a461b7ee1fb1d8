"""Drive the sandbox page like a person: pick who you are, open channels, type `/` commands, click buttons.

Everything goes through the page (Playwright clicks, selects and typing); the sandbox and the bot are only
read, to know what to expect and to wait for the bot to finish what a click started.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sandbox.server import DiscordSandbox

TIMEOUT_MS = 10_000
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-dynamic-item-")
# The messages of the page's open channel as the sandbox has them now (id, last edit), and whether the page shows
# each of them at that edit: once it does, the feed's last events (what the bot just posted or edited) are in.
SANDBOX_NOW = """async () => {
    const [me, channel] = (document.body.dataset.view || ":").split(":");
    const path = channel === "dm" ? `dms?user=${me}` : `messages?channel=${channel}&viewer=${me}`;
    const now = await (await fetch(`/_sandbox/${path}`)).json();
    return now.map((m) => [m.id, m.edited_at || ""]);
}"""
SHOWN = """(wanted) => wanted.every(([id, edited]) => {
    const node = document.querySelector(`#messages .msg[data-id="${id}"]`);
    return node !== null && node.dataset.edited === edited;
})"""


async def bot_idle(timeout: float = 15.0) -> None:
    """Wait until the bot (in this event loop) has finished handling every interaction."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        busy = [t for t in asyncio.all_tasks() if not t.done() and t.get_name().startswith(HANDLER_TASKS)]
        if not busy:
            return
        await asyncio.sleep(0.02)
    raise TimeoutError("the bot is still busy")


class Ui:
    def __init__(self, page: Any, sb: DiscordSandbox) -> None:
        self.page = page
        self.sb = sb
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))

    @property
    def me(self) -> str:
        return self._me

    async def load(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.wait_for_selector("body[data-view]", timeout=TIMEOUT_MS)
        self._me = (await self.page.get_attribute("body", "data-view") or ":").split(":")[0]

    async def _view(self) -> tuple[str, str]:
        me, _, channel = (await self.page.get_attribute("body", "data-view") or ":").partition(":")
        return me, channel

    async def _wait_view(self, me: str, channel: str) -> None:
        await self.page.wait_for_selector(
            f'body[data-view="{me}:{channel}"]', state="attached", timeout=TIMEOUT_MS
        )

    async def act_as(self, name: str) -> None:
        """Pick the user in the "Acting as" switcher."""
        user = self.sb.world.user(name)
        _, channel = await self._view()
        await self.page.select_option("#user-switch", value=user.id)
        await self._wait_view(user.id, channel)
        self._me = user.id

    async def open(self, channel_id: str) -> None:
        """Click a channel or thread in the sidebar ("dm" for the direct messages)."""
        await self.page.click(f'#sidebar a[data-channel="{channel_id}"]', timeout=TIMEOUT_MS)
        await self._wait_view(self._me, channel_id)

    async def slash(self, path: str, **options: str | tuple[str, str]) -> None:
        """Type `/`, pick the command from the list, fill its options, and send. An option with autocomplete
        is typed and then its suggestion clicked: `value` (typed, and the suggestion that shows it) or
        `(typed, suggestion)`."""
        box = self.page.locator("#composer-input")
        await box.click()
        await box.fill("")
        await box.type("/" + path.split()[0])
        await self.page.locator("#command-popup .cmd", has_text=f"/{path}").first.click(timeout=TIMEOUT_MS)
        form = self.page.locator("#command-form")
        for name, value in options.items():
            typed, pick = value if isinstance(value, tuple) else (value, value)
            field = form.locator(f'[name="{name}"]')
            if await field.evaluate("node => node.tagName") == "SELECT":
                await field.select_option(label=pick)
                continue
            await field.fill(typed)
            suggestions = field.locator("xpath=..").locator(".suggest")
            if await suggestions.count():  # an autocomplete option: click what the bot suggests
                await suggestions.locator("div", has_text=pick).first.click(timeout=TIMEOUT_MS)
        await form.locator("button[type=submit]").click()
        await self.settle()

    def message(self, message_id: str) -> Any:
        return self.page.locator(f'#messages .msg[data-id="{message_id}"]')

    async def click(self, message_id: str, custom_id: str) -> None:
        """Click a button of a message shown in the page."""
        button = self.message(message_id).locator(f'button[data-custom-id="{custom_id}"]')
        await button.click(timeout=TIMEOUT_MS)
        await self.settle()

    async def select(self, message_id: str, custom_id: str, value: str) -> None:
        """Choose an option (by its value) in a select menu of a message shown in the page."""
        select = self.message(message_id).locator(f'select[data-custom-id="{custom_id}"]')
        await select.select_option(value=value, timeout=TIMEOUT_MS)
        await self.settle()

    async def settle(self, timeout: float = 15.0) -> None:
        """Wait until the page has no interaction in flight and the bot has finished its handlers."""
        await self.page.wait_for_function(
            "() => !document.querySelector('.busy')", timeout=int(timeout * 1000)
        )
        await bot_idle(timeout)
        wanted = await self.page.evaluate(SANDBOX_NOW)
        await self.page.wait_for_function(SHOWN, arg=wanted, timeout=int(timeout * 1000))

    async def shown_ids(self) -> list[str]:
        return await self.page.eval_on_selector_all("#messages .msg", "nodes => nodes.map(n => n.dataset.id)")

    async def screenshot(self, path: Any) -> None:
        await self.page.screenshot(path=str(path), full_page=False)
