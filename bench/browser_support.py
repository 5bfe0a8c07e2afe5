"""A real console in headless chromium, for the screenshot scripts, the console bench and the browser tests.

`headless_browser()` launches Debian's chromium through Playwright; `running_console(api_url, data_dir)` starts
`courtside console` against a running `courtside serve` and yields its URL, or raises `ConsoleDidNotStart` with
the console's own output; `console_page(server)` is both, with one page open on the console, ready for
`open(path)` and `shoot(png)`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import requests
from playwright.sync_api import Browser, FloatRect, Page, ViewportSize, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.server_process import ROOT, ServerProcess, free_port, stop_process

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
DESK: ViewportSize = {"width": 1440, "height": 1000}  # the console's pictures: a desk's screen


class ConsoleDidNotStart(RuntimeError):
    """`courtside console` exited, or did not answer its health check in time; the message says which, with
    the end of its output."""


def run_finished(page: Page, *, timeout_ms: float = 30_000) -> None:
    """Wait until the console's script run has finished. While Streamlit reruns a page it keeps the last run's
    elements on screen (stale) until the new run ends, so right after a click a heading can show twice: once
    from the old run, once from the new."""
    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning",
                                                           timeout=timeout_ms)


def choose(page: Page, label: str, option: str, *, tries: int = 4) -> None:
    """Pick an option of a Streamlit selectbox by the box's label, once the page's script run has finished: a run
    that ends while the dropdown is open redraws the box and closes it, so an option that does not show, or goes
    before it is clicked, is asked for again. Clicking the box can itself start that run (the text field typed in
    just before commits its value when it loses the focus)."""
    box = page.get_by_role("combobox", name=label)
    wanted = page.get_by_role("option", name=option, exact=True)
    for attempt in range(tries):
        run_finished(page)
        box.click()
        try:
            wanted.wait_for(timeout=5_000)
            wanted.click(timeout=5_000)
        except PlaywrightTimeout:
            if attempt == tries - 1:
                raise
            continue
        return


@contextmanager
def headless_browser() -> Iterator[Browser]:
    """Chromium through Playwright, closed on exit."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def running_console(api_url: str, data_dir: Path, *, log: Path | None = None, port: int | None = None,
                    bound: float = 60) -> Iterator[str]:
    """`courtside console` against the API at `api_url` (operator key from `data_dir`); yields its URL and stops
    it on exit. Its output goes to `log` (else nowhere); one that exits or is not up within `bound` seconds
    raises `ConsoleDidNotStart`."""
    port = port or free_port()
    out: IO[bytes] | int = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
    console = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "console", "--api-url", api_url, "--port", str(port)],
        cwd=ROOT, env=dict(os.environ) | {"COURTSIDE_DATA_DIR": str(data_dir)},
        stdout=out, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, console, bound, log)
        yield url
    finally:
        stop_process(console)
        if not isinstance(out, int):
            out.close()


def _wait_until_up(url: str, console: subprocess.Popen[bytes], bound: float, log: Path | None) -> None:
    deadline = time.monotonic() + bound
    while console.poll() is None and time.monotonic() < deadline:
        try:
            if requests.get(url + "/_stcore/health", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    why = f"exited with status {console.returncode}" if console.poll() is not None else f"not up within {bound:g} s"
    output = log.read_text(errors="replace")[-3000:] if log and log.exists() else "(output not kept)"
    raise ConsoleDidNotStart(f"`courtside console` did not start ({why}); its output:\n{output}")


@dataclass
class ConsolePage:
    """One browser page on a running console (`url` is the console's root)."""

    url: str
    page: Page

    def open(self, path: str = "/", *, ready: str | None = None, exact: bool = False) -> Page:
        """Go to a console page; with `ready`, wait until that text shows (the page has drawn)."""
        self.page.goto(self.url + path)
        if ready:
            self.page.get_by_text(ready, exact=exact).first.wait_for()
        return self.page

    def shoot(self, png: Path, *, settle_ms: int = 1500, above: str | None = None) -> Path:
        """Save what the page shows once fonts, icons and images have settled; with `above`, only what stands
        above that heading (the viewport must be tall enough to hold it)."""
        self.page.wait_for_timeout(settle_ms)
        clip: FloatRect | None = None
        if above:
            box = self.page.get_by_role("heading", name=above, exact=True).first.bounding_box()
            width = (self.page.viewport_size or DESK)["width"]
            clip = {"x": 0, "y": 0, "width": width, "height": box["y"] - 64} if box else None
        png.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(png), clip=clip)
        print(png)
        return png


@contextmanager
def console_page(server: ServerProcess, *, viewport: ViewportSize = DESK) -> Iterator[ConsolePage]:
    """A real console against `server`, with one page open in headless chromium (waits up to 60 s each)."""
    with running_console(server.root, server.data_dir) as url, headless_browser() as browser:
        page = browser.new_page(viewport=viewport)
        page.set_default_timeout(60_000)
        yield ConsolePage(url, page)
