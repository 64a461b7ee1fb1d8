"""Headless Chromium for the browser tests: Debian's `chromium`, driven by Python Playwright's own driver.

Never `playwright install` (that downloads a browser build): the system Chromium is passed as the executable.
Where it is missing the fixture installs it with apt-get (CI runs as root; .ci/run does the same up front),
and skips with the reason only where no browser can be installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

CANDIDATES = ("/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromium-browser")
# Headless, nothing but the page: no GPU, no sandbox (root in CI), no calls home, no first-run chores.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-extensions",
    "--disable-sync",
    "--metrics-recording-only",
    "--no-first-run",
    "--no-pings",
    "--mute-audio",
]


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return next((path for path in CANDIDATES if Path(path).exists()), None)


def install_chromium() -> str:
    """apt-get install chromium where we may; the reason it could not be done otherwise."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "not root, so apt-get cannot install it (run: sudo apt-get install chromium)"
    if not shutil.which("apt-get"):
        return "there is no apt-get on this machine to install it with"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True, timeout=300, check=False)
        done = subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"apt-get install chromium failed: {err}"
    if done.returncode != 0:
        return f"apt-get install chromium failed: {(done.stderr or done.stdout).strip()[-300:]}"
    return ""


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        reason = install_chromium()
        path = find_chromium()
        if path is None:
            pytest.skip(f"no Chromium for the browser test: {reason or 'installed, but not found'}")
    return path


@pytest.fixture
async def browser(chromium_path: str) -> AsyncIterator[object]:
    async_api = pytest.importorskip(
        "playwright.async_api", reason="Python Playwright is not installed (it is in the dev extras)"
    )
    async with async_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            await browser.close()
