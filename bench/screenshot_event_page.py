"""Screenshots of the public event page into docs/event/ (a real server, headless chromium): a phone at 360x740
(Now, My matches after finding yourself, Results) and a desktop.

    .venv/bin/python -m bench.screenshot_event_page
"""

from __future__ import annotations

from playwright.sync_api import ViewportSize

from bench.browser_support import headless_browser
from bench.outputs_support import running_server, seed_day
from tests.server_process import ROOT

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
        for png in sorted(out.glob("*.png")):
            print(png)


if __name__ == "__main__":
    main()
