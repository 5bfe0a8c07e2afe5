"""The public sign-up page (contract §11, §8a) on a 360 px phone: a player with a 40-character name signs up, and
neither the form nor the confirmation runs wider than the screen (long names wrap)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, ViewportSize, expect

from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
FIRST, LAST = "Ann", "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters and no place to break
SHOTS = Path(__file__).resolve().parents[2] / "docs"


def test_a_long_name_signs_up_on_a_360_px_phone_without_running_off_the_screen(
        browser: Browser, live_server: ServerProcess) -> None:
    key = live_server.developer_key()
    roster = live_server.call("POST", "/rosters", {"name": "Club Championship 2026", "rosterType": "individual",
                                                   "selfRegistrationEnabled": True}, key=key)["data"]
    url = live_server.call("GET", f"/operator/rosters/{roster['id']}/registration")["data"]["url"]
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.fill("input[name=firstName]", FIRST)
    page.fill("input[name=lastName]", LAST)
    page.fill("input[name=clubName]", "Tischtennisgemeinschaft Oberwolkenstein")
    page.locator("button[type=submit]").tap()
    expect(page.locator(".done")).to_contain_text(f"{FIRST} {LAST}")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator(".done").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "sign-up-360.png"), full_page=True)
    listed = live_server.call("GET", f"/rosters/{roster['id']}", key=key)["data"]
    assert listed["source"]["playerCount"] == 1
