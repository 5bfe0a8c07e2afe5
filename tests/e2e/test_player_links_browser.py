"""Contract §21 in real browsers over a real server and console (issue 40's "Done when"): the desk's Players'
links page (switches, a person's link and QR code), and two players' own pages at phone size (360 px): the desk
calls them from the court board, the call-up shows on both within 6 s, one reports, the board lists the result to
check, the other confirms, and the console shows the result. Every page is looked at as a picture (docs/personal).

Streamlit reruns replace elements: every click waits for the console's run to finish first (`run_finished`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from bench.browser_support import run_finished
from tests.e2e.test_personal_page_browser import PHONE, RECORDER
from tests.server_process import ServerProcess

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "personal"
DESK: ViewportSize = {"width": 1280, "height": 1400}


def seed(server: ServerProcess, **event_day: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, str]]:
    """Court 1 and Court 3; Ann Lee v Bo Kim (one game) waiting on Court 3. The broadcast, the match, each link."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Day 2026", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})["data"]
    if event_day:
        server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": event_day})
    match = server.call("POST", "/operator/matches", {
        "tableID": broadcast["tables"][1]["id"], "playerA": {"manualName": "Ann Lee"},
        "playerB": {"manualName": "Bo Kim"}, "bestOf": 1})["data"]
    people = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people")["data"]
    links = {p["name"]: server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people/{p['personID']}/link")[
        "data"]["url"] for p in people}
    return broadcast, match, links


def click(page: Page, name: str) -> None:
    """Click the console's button of this name once the script run has finished (a run may replace it)."""
    run_finished(page)
    page.get_by_role("button", name=name, exact=True).click()


def fits_the_phone(page: Page, shot: str) -> None:
    """No sideways scrolling at 360 px; the picture kept."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / shot), full_page=True)


def test_the_desk_sets_the_switches_and_shows_a_players_link_and_qr(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast, _, links = seed(server, restMinutes=15)
    page = browser.new_page(viewport=DESK)
    page.set_default_timeout(20_000)
    page.goto(url + "/player-links")
    expect(page.get_by_role("heading", name="Players' links")).to_be_visible(timeout=30_000)
    run_finished(page)
    page.get_by_text("Players check themselves in").click()
    run_finished(page)
    page.get_by_text("Players report their results").click()
    click(page, "Save")
    expect(page.get_by_text("Club Day 2026: players' page rules saved.")).to_be_visible()
    day = server.call("GET", "/operator/broadcasts")["data"][0]["eventDay"]
    assert day == {"requireCheckIn": False, "restMinutes": 15, "selfCheckIn": True, "selfReport": True,
                   "selfReportConfirmMinutes": 10}
    expect(page.get_by_text(links["Ann Lee"])).to_be_visible()  # the first player's link, with its QR code
    expect(page.get_by_text("Ann Lee: scan for your page")).to_be_visible()
    expect(page.get_by_test_id("stImage").locator("img")).to_be_visible()
    assert page.get_by_test_id("stImage").locator("img").evaluate("img => img.naturalWidth") > 100
    SHOTS.mkdir(parents=True, exist_ok=True)
    run_finished(page)
    page.screenshot(path=str(SHOTS / "console-player-links.png"), full_page=True)
    assert broadcast["id"]


def phone(browser: Browser, url: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER)
    page = context.new_page()
    page.goto(url)
    return context, page


def test_two_players_are_called_one_reports_the_other_confirms_and_the_console_shows_the_result(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast, match, links = seed(server, selfReport=True, selfReportConfirmMinutes=0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    ann_context, ann = phone(browser, links["Ann Lee"])
    bo_context, bo = phone(browser, links["Bo Kim"])
    for page in (ann, bo):
        expect(page.locator("#next")).to_contain_text("Court 3")
        expect(page.locator("#banner")).to_be_hidden()
    fits_the_phone(ann, "done-ann-waiting-360.png")

    desk = browser.new_page(viewport=DESK)
    desk.set_default_timeout(20_000)
    desk.goto(url)
    expect(desk.get_by_role("button", name="Call Ann Lee vs Bo Kim")).to_be_visible(timeout=30_000)
    click(desk, "Call Ann Lee vs Bo Kim")
    expect(desk.get_by_text("Called Ann Lee vs Bo Kim to Court 3.")).to_be_visible()
    for page in (ann, bo):  # the pages poll: no reload
        expect(page.locator("#banner")).to_contain_text("Called to Court 3", timeout=6_000)
        assert page.evaluate("window.__buzz.length") == 1
        assert page.evaluate("window.__notes") == ["Called to Court 3"]
    fits_the_phone(ann, "done-ann-called-360.png")
    fits_the_phone(bo, "done-bo-called-360.png")

    click(desk, "Start next: Ann Lee vs Bo Kim")
    expect(desk.get_by_text("Started Ann Lee vs Bo Kim on Court 3.")).to_be_visible()
    expect(ann.locator("#current")).to_contain_text("Bo Kim", timeout=6_000)
    expect(ann.locator("#current form.score .game")).to_have_count(1)  # a best of one game: one row
    ann.fill("#current input[name=a0]", "11")
    ann.fill("#current input[name=b0]", "6")
    ann.tap("#current button[type=submit]")
    expect(ann.locator("#current .report")).to_contain_text("Waiting for your opponent")
    fits_the_phone(ann, "done-ann-reported-360.png")
    expect(desk.get_by_text("Results to check (1)")).to_be_visible(timeout=10_000)  # the board refreshes itself
    expect(desk.get_by_text("Court 3 · Ann Lee vs Bo Kim: 11-6 by Ann Lee · waiting for the opponent")
           ).to_be_visible()
    run_finished(desk)
    desk.screenshot(path=str(SHOTS / "done-board-results-to-check.png"), full_page=True)

    expect(bo.locator("#current .report")).to_contain_text("Your opponent reported 11-6", timeout=6_000)
    fits_the_phone(bo, "done-bo-confirm-360.png")
    bo.tap("#current button.confirm")
    expect(bo.locator("#results")).to_contain_text("Ann Lee")
    expect(ann.locator("#results .card")).to_have_count(1, timeout=6_000)
    fits_the_phone(bo, "done-bo-result-360.png")
    fits_the_phone(ann, "done-ann-result-360.png")

    expect(desk.get_by_text("Results to check (1)")).to_be_hidden(timeout=10_000)
    desk.goto(url + "/results")
    expect(desk.get_by_test_id("stSelectbox")).to_match_aria_snapshot(
        '- combobox "Match history": Ann Lee vs Bo Kim 11-6', timeout=30_000)  # the result, picked for its history
    run_finished(desk)
    desk.screenshot(path=str(SHOTS / "done-console-results.png"), full_page=True)
    read = server.call("GET", "/operator/matches?limit=100")["data"]
    assert [(m["id"], m["status"], m["gameScores"]) for m in read] == [
        (match["id"], "completed", [{"a": 11, "b": 6}])]
    ann_context.close()
    bo_context.close()
