"""A player's own page in a real phone-sized browser (contract §21): the call-up shows within 6 s without a reload,
vibrates and raises a notification when allowed; self check-in from the page; looked at as a picture at 360 px."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, ViewportSize, expect

from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "personal"

# what the page asked of the phone: vibrations and notifications (recorded, since a headless browser has neither)
RECORDER = """
window.__buzz = []; window.__notes = [];
navigator.vibrate = function (pattern) { window.__buzz.push(pattern); return true; };
window.Notification = function (title, options) { window.__notes.push(title); };
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


def seed(server: ServerProcess) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """Court 1 and Court 3; Ann Lee v Bo Kim waiting on Court 3. The broadcast, the match, each one's link."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Day 2026", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})["data"]
    server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": {"selfCheckIn": True}})
    match = server.call("POST", "/operator/matches", {
        "tableID": broadcast["tables"][1]["id"], "playerA": {"manualName": "Ann Lee"},
        "playerB": {"manualName": "Bo Kim"}, "bestOf": 1, "eventName": "Open singles"})["data"]
    people = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people")["data"]
    links = {p["name"]: server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people/{p['personID']}/link")[
        "data"]["url"] for p in people}
    return broadcast, match, links


def test_a_call_up_reaches_the_open_page_within_6_s_with_a_buzz_and_a_notification(
        browser: Browser, live_server: ServerProcess) -> None:
    _, match, links = seed(live_server)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER)
    page = context.new_page()
    page.goto(links["Ann Lee"])
    page.evaluate("window.__loaded = 'once'")
    expect(page.locator("h1")).to_have_text("Ann Lee")  # the state in the HTML
    expect(page.locator("#next")).to_contain_text("Bo Kim")
    expect(page.locator("#banner")).to_be_hidden()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "me-waiting-360.png"), full_page=True)

    page.tap("#check-in")
    expect(page.locator("#checkin")).to_have_text("Checked in ✓")

    live_server.call("POST", f"/operator/matches/{match['id']}/call")
    expect(page.locator("#banner")).to_contain_text("Called to Court 3", timeout=6000)
    assert page.evaluate("window.__buzz.length") == 1
    assert page.evaluate("window.__notes") == ["Called to Court 3"]
    assert page.evaluate("window.__loaded") == "once"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "me-called-360.png"), full_page=True)
    context.close()


def test_an_unknown_personal_link_is_404_in_the_browser(browser: Browser, live_server: ServerProcess) -> None:
    _, _, links = seed(live_server)
    page = browser.new_page(viewport=PHONE)
    unknown = page.goto(links["Ann Lee"].rsplit("/", 1)[0] + "/ply_" + "x" * 43)
    assert unknown is not None and unknown.status == 404


def test_one_player_reports_the_other_confirms_and_the_result_shows(
        browser: Browser, live_server: ServerProcess) -> None:
    broadcast, match, links = seed(live_server)
    live_server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": {"selfReport": True}})
    live_server.call("POST", f"/operator/matches/{match['id']}/start")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER)
    ann, bo = context.new_page(), context.new_page()
    ann.goto(links["Ann Lee"])
    bo.goto(links["Bo Kim"])
    expect(ann.locator("#current")).to_contain_text("Bo Kim")
    ann.fill("#current input[name=a0]", "11")
    ann.fill("#current input[name=b0]", "6")
    ann.tap("#current button[type=submit]")
    expect(ann.locator("#current .report")).to_contain_text("Waiting for your opponent")
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SHOTS / "me-reported-360.png"), full_page=True)

    # who won, not just the games (issue 51, point 10: "Your opponent reported 6-4, 6-3" said nothing of it)
    expect(bo.locator("#current .report")).to_contain_text("Your opponent reported 11-6: Ann Lee won", timeout=6000)
    assert bo.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    bo.screenshot(path=str(SHOTS / "me-confirm-360.png"), full_page=True)
    bo.tap("#current button.confirm")
    expect(bo.locator("#results")).to_contain_text("Ann Lee")
    expect(ann.locator("#results .card")).to_have_count(1, timeout=6000)
    expect(ann.locator("#current")).to_contain_text("Not playing right now.")
    read = live_server.call("GET", f"/operator/broadcasts/{broadcast['id']}/reports")["data"]
    assert [r["status"] for r in read] == ["confirmed"]
    results = live_server.call("GET", f"/operator/results?broadcastID={broadcast['id']}")["data"]
    assert len(results) == 1 and "Ann Lee" in str(results[0]) and "11" in str(results[0])
    context.close()


def test_a_planned_match_shows_its_planned_court_and_time_on_the_24_hour_clock(
        browser: Browser, live_server: ServerProcess) -> None:
    """Issue 51, point 10: the page said "Court to be announced" for a draw match planned on a court, and wrote its
    time "05:00 PM"."""
    broadcast, match, _ = seed(live_server)
    live_server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "randomSeed": 1,
        "entries": [{"players": [{"manualName": "Cy Day"}]}, {"players": [{"manualName": "Di Eve"}]}]})
    day = (datetime.now(UTC) + timedelta(days=1)).date().isoformat()
    live_server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"plan": {
        "days": [{"date": day, "start": "17:00", "end": "21:00"}], "published": True}})
    live_server.call("POST", f"/operator/broadcasts/{broadcast['id']}/plan", {})
    grid = live_server.call("GET", f"/operator/broadcasts/{broadcast['id']}/plan")["data"]
    court, slot = next((c["label"], s) for d in grid["days"] for c in d["courts"] for s in c["slots"]
                       if "Cy Day" in s["names"])
    at = datetime.fromisoformat(slot["plannedOn"].replace("Z", "+00:00")).astimezone(UTC).strftime("%H:%M")
    people = live_server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people")["data"]
    cy = next(p["personID"] for p in people if p["name"] == "Cy Day")
    link = live_server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people/{cy}/link")["data"]["url"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, timezone_id="UTC",
                                  locale="en-US")  # en-US: where a phone's own clock would write "05:00 PM"
    page = context.new_page()
    page.goto(link)
    card = page.locator("#next .card")
    expect(card).to_contain_text(f"Not before {at} · {court}")
    expect(card.locator(".top")).to_contain_text(court)
    assert "Court to be announced" not in card.inner_text() and " PM" not in card.inner_text()
    page.screenshot(path=str(SHOTS / "me-planned-360.png"), full_page=True)
    context.close()
