"""Screenshots of the tie-break rules (contract §22) for docs/draws.md (a real server and console, headless chromium).

    .venv/bin/python -m bench.screenshot_tiebreaks

docs/draws.md's BWF example (badminton) and ITTF example (table tennis) as two round robins of four, every result
typed in: the event page's Draws tab on a phone, the words under each group's standings
(docs/draws-tiebreaks-event.png), and the console's Draws page with the BWF group (docs/draws-tiebreaks-console.png).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import ViewportSize, expect

from bench.browser_support import console_page, headless_browser
from bench.outputs_support import running_server
from tests.api.test_draw_tiebreaks import BWF_RESULTS, ITTF_RESULTS, NAMES, Games
from tests.server_process import ROOT, ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
FULL = {"Ann": "Ann Lee", "Bea": "Bea Moss", "Cat": "Cat Diaz", "Dot": "Dot Fox"}


def group(server: ServerProcess, broadcast_id: str, name: str, tiebreak: str, scoring: str,
          results: dict[tuple[str, str], Games]) -> None:
    """A round robin of the four, with `tiebreak`, every match's result typed in (§19)."""
    draw: dict[str, Any] = server.call("POST", "/operator/draws", {
        "broadcastID": broadcast_id, "name": name, "format": "round_robin", "scoring": scoring, "tiebreak": tiebreak,
        "randomSeed": 3, "entries": [{"players": [{"manualName": FULL[n]}]} for n in NAMES]})["data"]
    first = {e["id"]: e["name"].split()[0] for e in draw["entries"]}
    for dm in (dm for rnd in draw["rounds"] for dm in rnd["drawMatches"]):
        a, b = (first[s["entryID"]] for s in dm["slots"])
        games = results.get((a, b)) or [(y, x) for x, y in results[(b, a)]]
        server.call("POST", f"/operator/matches/{dm['matchID']}/result",
                    {"gameScores": [{"a": x, "b": y} for x, y in games]})


def main() -> None:
    docs = ROOT / "docs"
    with running_server() as server:
        broadcast: dict[str, Any] = server.call("POST", "/operator/broadcasts", {
            "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})["data"]
        group(server, broadcast["id"], "Badminton juniors", "bwf", "badminton", BWF_RESULTS)
        group(server, broadcast["id"], "Table tennis juniors", "ittf", "table_tennis", ITTF_RESULTS)
        url = server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
        with headless_browser() as browser:
            phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            phone.goto(url)
            phone.locator("[data-tab=draws]").click()
            expect(phone.get_by_text("Bea Moss 2nd on head-to-head")).to_be_visible()
            phone.screenshot(path=str(docs / "draws-tiebreaks-event.png"), full_page=True)
            print(docs / "draws-tiebreaks-event.png")
        with console_page(server, viewport={"width": 1280, "height": 900}) as console:
            page = console.open("/draws", ready="Matches decided")
            page.get_by_role("combobox", name="Draw").click()
            page.get_by_role("option", name="Badminton juniors · Round robin (groups)").click()
            expect(page.get_by_text("Bea Moss 2nd on head-to-head")).to_be_visible()
            page.get_by_text("Bea Moss 2nd on head-to-head").scroll_into_view_if_needed()
            page.mouse.wheel(0, 200)
            console.shoot(docs / "draws-tiebreaks-console.png")


if __name__ == "__main__":
    main()
