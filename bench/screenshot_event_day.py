"""Screenshots of an event day in the console for the README (a real server and console, headless chromium).

    .venv/bin/python -m bench.screenshot_event_day

Creates "Saturday Open" with four courts, imports docs/sample-schedule.csv on the Import schedule page (picture
of the preview: docs/console-import.png), queues it, starts the next match on Courts 1 and 2 from their cards
and takes the court board (docs/console-event-day.png): estimated times, a busy player's warning, free courts
highlighted.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.browser_support import console_page
from bench.outputs_support import running_server
from tests.server_process import ROOT


def main() -> None:
    docs = ROOT / "docs"
    with running_server() as server, console_page(server) as console:
        server.call("POST", "/operator/broadcasts", {
            "name": "Saturday Open", "tables": [{"label": f"Court {i}"} for i in range(1, 5)]})
        page = console.open("/import")
        page.locator("input[type=file]").set_input_files(str(docs / "sample-schedule.csv"))
        expect(page.get_by_text("12 matches ready to queue.")).to_be_visible()
        console.shoot(docs / "console-import.png")
        page.get_by_role("button", name="Queue 12 matches").click()
        expect(page.get_by_text("Queued 12 matches on Saturday Open.")).to_be_visible()
        page.set_viewport_size({"width": 1440, "height": 1800})  # the whole board, cut above "New match"
        console.open("/")
        for first in ("Ann Lee vs Bo Chan", "Cy Diaz vs Dee Evans"):
            page.get_by_role("button", name=re.compile(f"^Start next: {first}")).click()
            expect(page.get_by_text(re.compile(f"^Started {first}"))).to_be_visible()
        console.shoot(docs / "console-event-day.png", settle_ms=2500, above="New match")


if __name__ == "__main__":
    main()
