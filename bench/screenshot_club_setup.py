"""Screenshots of a club's setup for the README (a real server on an empty data dir, a real console, headless
chromium): the steps of tests/e2e/test_club_setup_browser.py, one picture each (docs/club-*.png).

    .venv/bin/python -m bench.screenshot_club_setup

It waits, as the test does, for the schedule's first start time (the next whole minute at least 50 s away).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.browser_support import DESK, ConsolePage, headless_browser, running_console
from tests.e2e.test_club_setup_browser import run_club_day
from tests.server_process import ROOT, ServerProcess, free_port


def main() -> None:
    os.environ["TZ"] = "UTC"  # the console (a child process) shows the times the server places (UTC below)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "data", free_port(), dict(os.environ) | {"COURTSIDE_TIME_ZONE": "UTC"})
        server.start()
        try:
            with running_console(server.root, server.data_dir) as url, headless_browser() as browser:
                page = browser.new_page(viewport=DESK)
                page.set_default_timeout(60_000)
                run_club_day(ConsolePage(url, page), server, browser, Path(tmp), shots=ROOT / "docs")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
