"""Screenshots of the public event page into docs/event/ (a real server, headless chromium): a phone at 360x740
(Now, My matches after finding yourself, Results) and a desktop; and a day run from a draw (§13's court pool:
Now's "Waiting for a court") on a phone and a desktop.

    .venv/bin/python -m bench.screenshot_event_page
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, ViewportSize

from bench.browser_support import headless_browser
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT, ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def main() -> None:
    out = ROOT / "docs" / "event"
    out.mkdir(parents=True, exist_ok=True)
    with running_server() as server, headless_browser() as browser:
        day = seed_day(server)
        s2 = day.matches["s2"]["id"]
        server.call("POST", f"/operator/matches/{s2}/complete",
                    {"gameScores": [{"a": 11, "b": 6}, {"a": 11, "b": 4}, {"a": 9, "b": 11}, {"a": 11, "b": 7}]})
        server.call("POST", f"/operator/matches/{day.matches['q3']['id']}/call")
        url = server.call("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/enable")["data"]["url"]
        phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        phone.goto(url)
        phone.screenshot(path=str(out / "phone-now.png"))
        phone.tap("nav button[data-tab=mine]")
        phone.fill("#find", "ito")
        phone.screenshot(path=str(out / "phone-find.png"))
        phone.tap("#matches-list button >> nth=0")
        phone.wait_for_selector("#my-matches .card")
        phone.screenshot(path=str(out / "phone-my-matches.png"))
        phone.tap("nav button[data-tab=results]")
        phone.screenshot(path=str(out / "phone-results.png"))
        desk = browser.new_page(viewport=DESKTOP)
        desk.goto(url)
        desk.screenshot(path=str(out / "desktop-now.png"), full_page=True)
        draw_day(server, browser, out)
        for png in sorted(out.glob("*.png")):
            print(png)


def draw_day(server: ServerProcess, browser: Browser, out: Path) -> None:
    """Three courts and a knockout of 32: two first-round matches on court, one called, the rest in the pool."""
    names = [f"{first} {last}" for first, last in zip(
        ("Ann", "Bo", "Cy", "Di", "Eve", "Flo", "Gus", "Ida", "Jo", "Kai", "Lu", "Mo", "Ned", "Ola", "Pia", "Quinn"),
        ("Lee", "Chen", "Diaz", "Evans", "Fox", "Gu", "Hart", "Jo", "Kim", "Lund", "Moreau", "Novak", "Ortiz",
         "Petersen-Lindqvist", "Quist", "Rossi"), strict=True)]
    names += [f"{n.split()[0]}a {n.split()[1]}" for n in names]
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Riverside Club Championship", "tables": [{"label": f"Court {n}"} for n in range(1, 4)]})["data"]
    server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open singles", "format": "single_elimination", "randomSeed": 3,
        "entries": [{"players": [{"manualName": name}], "seed": n + 1} for n, name in enumerate(names)]})
    for table in broadcast["tables"][:2]:
        server.call("POST", f"/operator/tables/{table['id']}/start-next")
    pool = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/pool")["data"]
    server.call("POST", f"/operator/matches/{pool[0]['id']}/call")
    url = server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    phone = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    phone.goto(url)
    phone.screenshot(path=str(out / "phone-now-pool.png"), full_page=True)
    desk = browser.new_page(viewport=DESKTOP)
    desk.goto(url)
    desk.screenshot(path=str(out / "desktop-now-pool.png"), full_page=True)


if __name__ == "__main__":
    main()
