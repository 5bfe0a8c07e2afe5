"""Screenshots of the console's Draws page for docs/draws.md (a real server and console, headless chromium).

    .venv/bin/python -m bench.screenshot_draws

A new 16-entry knockout typed in and previewed (docs/draws-create.png); the knockout running, its first round and a
quarterfinal played (docs/draws-bracket.png); a 2-group round robin half played, its tables with standings
(docs/draws-groups.png); the knockout's A4 print sheet (docs/draws-print.png).
"""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import expect

from bench.browser_support import console_page
from bench.outputs_support import running_server
from console.draws import print_sheet
from tests.server_process import ROOT, ServerProcess

PLAYERS = ["Ann Lee", "Bo Kim", "Cy Day", "Di Fox", "Ed Gu", "Flo Hart", "Gil Ho", "Hana Ito", "Ida Jones",
           "Jon Kahn", "Kim Lutz", "Lea Moss", "Max Nagel", "Nia Ortiz", "Olaf Pike", "Pia Quinn"]
CLUBS = ["TTC Nord", "SV Süd", "TV Ost", "TTC West"]
MEMBERS = ["Ava Berg", "Ben Cole", "Cleo Dunn", "Dan Eck", "Eva Falk", "Finn Graf", "Gus Hahn", "Hugo Ince"]


def play(server: ServerProcess, draw_id: str, rounds: int, courts: list[str], *, upsets: int = 3) -> None:
    """Start and finish the draw's ready matches through start-next, `rounds` times; some games close."""
    step = 0
    for _ in range(rounds):
        for court in courts:
            server.operator_call("POST", f"/operator/tables/{court}/start-next")
        for match in server.call("GET", "/operator/matches?status=active&limit=100")["data"]:
            if match.get("drawID") != draw_id:
                continue
            step += 1
            a_wins = step % upsets != 0
            games = [{"a": 11, "b": 6 + step % 4} if a_wins else {"a": 7 + step % 3, "b": 11}] * math.ceil(
                match["bestOf"] / 2)
            server.call("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": games})


def main() -> None:
    docs = ROOT / "docs"
    with running_server() as server, console_page(server, viewport={"width": 1440, "height": 1300}) as console:
        broadcast: dict[str, Any] = server.call("POST", "/operator/broadcasts", {
            "name": "Club Championship", "tables": [{"label": f"Court {i + 1}"} for i in range(4)]})["data"]
        courts = [t["id"] for t in broadcast["tables"]]
        page = console.open("/draws", ready="New draw")
        page.get_by_label("Name", exact=True).fill("Men's singles")
        page.get_by_label("Name", exact=True).press("Enter")
        box = page.get_by_role("textbox", name="One entry a line")
        box.fill("\n".join(f"{name}, {i + 1 if i < 4 else ''}, {CLUBS[i % 4]}".replace(", ,", ",")
                           for i, name in enumerate(PLAYERS)))
        box.press("Control+Enter")
        expect(page.get_by_text("16 entries", exact=True)).to_be_visible()
        page.get_by_role("button", name="Preview").click()
        expect(page.get_by_text("Preview: nothing is saved yet.")).to_be_visible()
        page.get_by_text("Preview: nothing is saved yet.").scroll_into_view_if_needed()
        page.mouse.wheel(0, 420)
        console.shoot(docs / "draws-create.png")
        page.get_by_role("button", name="Save the draw").click()
        expect(page.get_by_text("Men's singles is saved and running")).to_be_visible()
        knockout = server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"][0]
        play(server, knockout["id"], 3, courts)

        groups = server.call("POST", "/operator/draws", {
            "broadcastID": broadcast["id"], "name": "Juniors", "format": "round_robin", "groupCount": 2,
            "randomSeed": 5, "bestOf": 3,
            "entries": [{"players": [{"manualName": n}], "club": CLUBS[i % 2]} for i, n in enumerate(MEMBERS)]})["data"]
        play(server, groups["id"], 2, courts)
        for court in courts:  # something in play, something waiting
            server.operator_call("POST", f"/operator/tables/{court}/start-next")

        page = console.open("/draws", ready="Waiting for a court")
        page.get_by_role("combobox", name="Draw").click()
        page.get_by_role("option", name="Men's singles · Knockout").click()
        expect(page.locator(".cs-round-name", has_text="Round of 16").first).to_be_visible()
        page.locator(".cs-round-name").first.scroll_into_view_if_needed()
        page.mouse.wheel(0, -120)
        console.shoot(docs / "draws-bracket.png")

        page = console.open("/draws", ready="Waiting for a court")
        expect(page.get_by_role("heading", name="Group A")).to_be_visible()
        console.shoot(docs / "draws-groups.png")

        knockout = server.call("GET", f"/operator/draws/{knockout['id']}")["data"]
        sheet = console.page
        sheet.set_viewport_size({"width": 1123, "height": 794})  # A4 landscape at 96 dpi
        sheet.set_content(print_sheet(knockout, str(broadcast["name"])))
        sheet.wait_for_timeout(500)
        sheet.screenshot(path=str(docs / "draws-print.png"), full_page=True)
        print(docs / "draws-print.png")


if __name__ == "__main__":
    main()
