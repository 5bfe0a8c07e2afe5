"""Screenshots of an event day in the console for the README (a real server and console, headless chromium).

    .venv/bin/python -m bench.screenshot_event_day

Creates "Saturday Open" with four courts, imports docs/sample-schedule.csv on the Import schedule page (picture
of the preview: docs/console-import.png), queues it, starts the next match on Courts 1 and 2 from their cards
and takes the court board (docs/console-event-day.png): estimated times, a busy player's warning, free courts
highlighted.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from bench.bench_console import ROOT, Server, free_port, wait_for

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def main() -> None:
    docs = ROOT / "docs"
    with tempfile.TemporaryDirectory() as directory:
        server = Server(Path(directory) / "data")
        port = free_port()
        console = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "console", "--api-url", server.url, "--port", str(port)],
            cwd=ROOT, env=dict(os.environ) | {"COURTSIDE_DATA_DIR": str(server.data_dir)},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(f"http://127.0.0.1:{port}/_stcore/health", console)
            server.call(server.operator_key, "POST", "/operator/broadcasts", {
                "name": "Saturday Open", "tables": [{"label": f"Court {i}"} for i in range(1, 5)]})
            url = f"http://127.0.0.1:{port}"
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1440, "height": 1000})
                page.set_default_timeout(60_000)
                page.goto(url + "/import")
                page.locator("input[type=file]").set_input_files(str(docs / "sample-schedule.csv"))
                expect(page.get_by_text("12 matches ready to queue.")).to_be_visible()
                page.wait_for_timeout(1500)
                page.screenshot(path=str(docs / "console-import.png"))
                page.get_by_role("button", name="Queue 12 matches").click()
                expect(page.get_by_text("Queued 12 matches on Saturday Open.")).to_be_visible()
                page.goto(url)
                for first in ("Ann Lee vs Bo Chan", "Cy Diaz vs Dee Evans"):
                    page.get_by_role("button", name=re.compile(f"^Start next: {first}")).click()
                    expect(page.get_by_text(re.compile(f"^Started {first}"))).to_be_visible()
                page.wait_for_timeout(2500)
                page.screenshot(path=str(docs / "console-event-day.png"))
                browser.close()
        finally:
            console.send_signal(signal.SIGTERM)
            console.wait(timeout=30)
            server.stop()
    print(docs / "console-import.png", docs / "console-event-day.png")


if __name__ == "__main__":
    main()
