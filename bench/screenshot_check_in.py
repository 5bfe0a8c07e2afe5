"""Screenshots of check-in for the README (a real server and console, headless chromium).

    .venv/bin/python -m bench.screenshot_check_in

Seeds the day of tests/e2e/test_check_in_browser.py (check-in required, 30 minutes of rest), checks four players
in on the Check-in page (docs/console-check-in.png), then takes the court board, where start-next skips the match
of a player who has not checked in and the one of a player still resting, saying why (docs/console-blocked.png).
"""

from __future__ import annotations

from playwright.sync_api import expect

from bench.browser_support import console_page
from bench.outputs_support import running_server
from tests.e2e.test_check_in_browser import seed
from tests.server_process import ROOT


def main() -> None:
    docs = ROOT / "docs"
    with running_server() as server, console_page(server) as console:
        seed(server)
        page = console.open("/check-in", ready="Present")
        for typed, name in (("cy", "Cy Diaz"), ("ann", "Ann Lee"), ("flo", "Flo Gu")):
            box = page.get_by_role("combobox", name="Check in")
            expect(box).to_have_count(1)
            box.click()
            box.fill(typed)
            page.get_by_role("option", name=name, exact=True).click()
            expect(page.get_by_text(f"{name} is checked in.")).to_be_visible()
        box = page.get_by_role("combobox", name="Check in")
        expect(box).to_have_count(1)
        box.click()
        box.fill("gi")
        console.shoot(docs / "console-check-in.png")
        page.get_by_role("option", name="Gil Ho", exact=True).click()
        expect(page.get_by_text("Gil Ho is checked in.")).to_be_visible()
        page.set_viewport_size({"width": 1440, "height": 1400})
        console.open("/", ready="Not checked in")
        console.shoot(docs / "console-blocked.png", above="New match")


if __name__ == "__main__":
    main()
