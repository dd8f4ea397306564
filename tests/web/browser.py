"""Headless Chromium for the web tests: Debian's `chromium` driven by Playwright through
executable_path (no browser download; `make test` installs the package when it is missing), and
the steps a person takes in the web client."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, Page, expect, sync_playwright

from services.web.site import CLIENT_DIR

CHROMIUM = os.environ.get("SIZZLE_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
PLAY_SECONDS = 240  # the longest a whole match may take through the page


@contextmanager
def chromium() -> Iterator[Browser]:
    if not (CLIENT_DIR / "index.html").is_file():
        raise RuntimeError(f"the web client is not built at {CLIENT_DIR}: `make test` builds it (make web)")
    if not os.path.exists(CHROMIUM):
        raise RuntimeError(f"these tests need Chromium at {CHROMIUM} (`make test` installs Debian's chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def sign_in(page: Page, url: str, name: str, route: str = "#/") -> None:
    page.goto(f"{url}/?pace=0{route}")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_test_id("player-name")).to_have_text(name)


def start_match(page: Page, game_id: str, bots: int | None = None, friends: int = 0) -> str:
    """Starts a match of `game_id` from the home page; returns its id."""
    page.locator(f"[data-game={game_id}]").click()
    if bots is not None:
        page.get_by_label("Bots").fill(str(bots))
    page.get_by_label("Friends (join link)").fill(str(friends))
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"#/match/"))
    return page.url.split("#/match/")[1]


def play_to_the_end(page: Page, seconds: float = PLAY_SECONDS) -> int:
    """Takes the first legal action the page offers until the outcome shows; returns the moves made."""
    deadline = time.monotonic() + seconds
    moves = 0
    outcome = page.get_by_test_id("outcome")
    first = page.locator("[data-testid=legal-actions] button:not([disabled])").first
    while time.monotonic() < deadline:
        if outcome.count():
            return moves
        try:
            first.click(timeout=1000)
            moves += 1
        except Exception:  # not our turn right now, or the list changed under the pointer
            pass
    raise AssertionError(f"the match did not end within {seconds:.0f}s ({moves} moves made)")
