"""The browser tests' fixtures: headless chromium, a real `courtside serve` for the phone and output pages, and a
real `courtside console` against a fresh server (a console that never starts fails here, with its output)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from bench.browser_support import ConsoleDidNotStart, headless_browser, running_console
from tests.server_process import ServerProcess, free_port


@pytest.fixture
def browser() -> Iterator[Browser]:
    """Debian's chromium, headless, through Playwright."""
    with headless_browser() as launched:
        yield launched


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A `courtside serve` (data dir in the test's temp dir) for `bench.outputs_support.seed_day` and co."""
    started = ServerProcess(tmp_path / "data", free_port()).start()
    yield started
    started.stop()


@pytest.fixture
def console_url(server_factory: Callable[..., ServerProcess], tmp_path: Path) -> Iterator[tuple[str, ServerProcess]]:
    """`courtside console` against a fresh server; its URL and the server."""
    server = server_factory()
    with ExitStack() as stack:
        try:
            url = stack.enter_context(running_console(
                f"http://127.0.0.1:{server.port}", server.data_dir, log=tmp_path / "console.log"))
        except ConsoleDidNotStart as failure:
            pytest.fail(str(failure), pytrace=False)
        yield url, server
