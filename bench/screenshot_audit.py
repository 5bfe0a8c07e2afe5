"""Screenshots of the audit log in the console (contract §16): the Audit page and a corrected match's history on
the scoring page, where a winner-changing correction asked for its reason (a real server and console, headless
chromium).

    .venv/bin/python -m bench.screenshot_audit

Writes docs/console-audit.png and docs/console-history.png.
"""

from __future__ import annotations

from playwright.sync_api import expect

from bench.browser_support import console_page, run_finished
from bench.outputs_support import running_server, seed_court
from tests.server_process import ROOT


def main() -> None:
    docs = ROOT / "docs"
    with running_server() as server, console_page(server) as console:
        court = seed_court(server, bestOf=3)
        match_id = court.match["id"]
        server.call("POST", f"/operator/matches/{match_id}/start", {})
        for game in ([{"a": 5, "b": 3}], [{"a": 11, "b": 9}, {"a": 4, "b": 2}]):
            server.call("POST", f"/operator/matches/{match_id}/score", {"gameScores": game})
        server.call("POST", f"/operator/matches/{match_id}/complete",
                    {"gameScores": [{"a": 11, "b": 9}, {"a": 11, "b": 7}]})
        server.call("POST", f"/operator/tables/{court.table_id}/scorer/rotate", {})
        page = console.open("/scoring", ready="Correct a completed result")
        page.get_by_label("Corrected games (side A-side B, comma-separated)").fill("9-11, 7-11")
        page.get_by_label("Reason for the correction (kept in the audit log)").fill(
            "Umpire's sheet: the sides were swapped")
        page.get_by_role("button", name="Save corrected result").click()
        page.get_by_role("button", name="Yes, change the winner").click()
        expect(page.get_by_text("Result corrected:").first).to_be_visible()
        run_finished(page)
        page.get_by_text("History").last.click()
        run_finished(page)  # the page redraws after the click: scroll only once its run has ended
        expect(page.get_by_test_id("stDataFrame").last).to_be_visible()
        page.get_by_text("Correct a completed result").last.scroll_into_view_if_needed()
        console.shoot(docs / "console-history.png", settle_ms=2500)
        page = console.open("/audit", ready="Every change to matches")
        run_finished(page)
        console.shoot(docs / "console-audit.png", settle_ms=2500)


if __name__ == "__main__":
    main()
