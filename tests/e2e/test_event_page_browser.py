"""The public event page in a real phone-sized browser (contract §15): a player finds themself in two taps, sees
their next court and time, a call-up within 6 s and their result after the match, without a reload; the choice is
remembered on the phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, ViewportSize, expect

from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
SHOTS = Path(__file__).resolve().parents[2] / "docs"


def seed(server: ServerProcess) -> tuple[str, dict[str, Any]]:
    """Two courts: Ann Lee v Bo Chen playing on Court 1; Mia Wong v Cy Diaz queued on Court 2. The event page URL."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Open 2026", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})["data"]
    courts = [t["id"] for t in broadcast["tables"]]

    def match(table: str, a: str, b: str) -> dict[str, Any]:
        return dict(server.call("POST", "/operator/matches", {
            "tableID": table, "playerA": {"manualName": a}, "playerB": {"manualName": b}, "bestOf": 1,
            "eventName": "Open singles", "matchRound": "Round 1"})["data"])

    live = match(courts[0], "Ann Lee", "Bo Chen")
    server.call("POST", f"/operator/matches/{live['id']}/start")
    waiting = match(courts[1], "Mia Wong", "Cy Diaz")
    url = server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    return str(url), waiting


def test_a_player_finds_their_next_court_in_two_taps_and_follows_call_up_and_result(
        browser: Browser, live_server: ServerProcess) -> None:
    url, waiting = seed(live_server)
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    page.evaluate("window.__loaded = 'once'")
    expect(page.locator("#courts")).to_contain_text("Ann Lee")  # Now, from the state in the HTML
    expect(page.locator("#courts")).to_contain_text("Mia Wong v Cy Diaz")

    page.tap("nav button[data-tab=mine]")  # tap 1
    page.fill("#find", "mia")
    page.tap("#matches-list button >> text=Mia Wong")  # tap 2
    mine = page.locator("#my-matches")
    expect(mine).to_contain_text("Your next match")
    expect(mine).to_contain_text("Court 2")
    expect(mine).to_contain_text("Expected")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    live_server.call("POST", f"/operator/matches/{waiting['id']}/call")
    expect(mine.locator(".calledline")).to_have_text("Called to Court 2", timeout=3000)  # held poll: pushed

    live_server.call("POST", f"/operator/matches/{waiting['id']}/start")
    live_server.call("POST", f"/operator/matches/{waiting['id']}/complete", {"gameScores": [{"a": 11, "b": 8}]})
    expect(mine).to_contain_text("Your results", timeout=12000)
    expect(mine).to_contain_text("Games 11-8")
    assert page.evaluate("window.__loaded") == "once"

    page.reload()  # remembered on the phone: no search again
    page.tap("nav button[data-tab=mine]")
    expect(page.locator("#me")).to_contain_text("Mia Wong")
    expect(page.locator("#my-matches")).to_contain_text("Your results")


def test_a_closed_or_unknown_event_page_is_404_in_the_browser(browser: Browser, live_server: ServerProcess) -> None:
    url, _ = seed(live_server)
    page = browser.new_page(viewport=PHONE)
    unknown = page.goto(url.rsplit("/", 1)[0] + "/evt_" + "x" * 43)
    assert unknown is not None and unknown.status == 404
    live_server.call("POST", f"/operator/broadcasts/{live_server.call('GET', '/operator/broadcasts')['data'][0]['id']}"
                             "/event-page/disable")
    closed = page.goto(url)
    assert closed is not None and closed.status == 404


def test_the_draws_tab_shows_a_bracket_with_its_result_and_group_tables(
        browser: Browser, live_server: ServerProcess) -> None:
    """§15 Draws (§13 views) at 360 px and on a desktop: the knockout drawn as a bracket (rounds as columns), the
    semi-final's winner moved on, and the group table with standings; pictures in docs/."""
    broadcast = live_server.call("POST", "/operator/broadcasts", {
        "name": "Club Open 2026", "tables": [{"label": f"Court {n}"} for n in (1, 2)]})["data"]
    knockout = live_server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open singles", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": name}], "seed": n + 1} for n, name in enumerate(
            ("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans", "Eve Fox", "Flo Gray", "Gus Hall", "Hal Ives"))]})["data"]
    live_server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Veterans", "format": "round_robin", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": name}]} for name in ("Ida Jones", "Jo King", "Kim Lane")]})
    first = knockout["rounds"][0]["drawMatches"][0]["matchID"]
    court = broadcast["tables"][0]["id"]
    started = live_server.call("POST", f"/operator/tables/{court}/start-next")["data"]
    assert started["id"] == first
    live_server.call("POST", f"/operator/matches/{first}/complete", {"gameScores": [{"a": 11, "b": 7}]})
    url = live_server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]

    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    waiting = page.locator("#courts .card.waiting")  # Now: the pool, so the day run from draws shows what is next
    expect(waiting).to_contain_text("Waiting for a court")
    expect(waiting).to_contain_text("Veterans")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.tap("nav button[data-tab=draws]")
    draws = page.locator("#draws")
    expect(draws).to_contain_text("Open singles")
    expect(draws.locator(".bracket svg").first).to_contain_text("Quarter")
    expect(draws.locator(".bracket svg").first).to_contain_text("Ann Lee")
    expect(draws.locator("table.standings")).to_contain_text("Ida Jones")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # the bracket scrolls itself
    page.screenshot(path=str(SHOTS / "event-draws-phone.png"), full_page=True)
    desktop = browser.new_page(viewport={"width": 1280, "height": 900})
    desktop.goto(url)
    desktop.click("nav button[data-tab=draws]")
    expect(desktop.locator("#draws")).to_contain_text("Veterans")
    desktop.screenshot(path=str(SHOTS / "event-draws-desktop.png"), full_page=True)


def test_a_walkover_from_a_withdrawal_and_a_retirement_show_their_winner_and_mark(
        browser: Browser, live_server: ServerProcess, tmp_path: Path) -> None:
    """Issue 35: a walkover showed as a 0-0 result at "Court to be announced". Results and Draws say "w/o" beside
    the winner (also one a withdrawal made) and "ret." beside the side that retired."""
    broadcast = live_server.call("POST", "/operator/broadcasts", {
        "name": "Club Open 2026", "tables": [{"label": "Court 1"}]})["data"]
    draw = live_server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open singles", "format": "single_elimination", "bestOf": 3,
        "randomSeed": 7, "entries": [{"players": [{"manualName": name}], "seed": n + 1} for n, name in enumerate(
            ("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"))]})["data"]
    first, second = (dm for dm in draw["rounds"][0]["drawMatches"])
    by_name = {e["name"]: e["id"] for e in draw["entries"]}
    live_server.call("POST", f"/operator/draws/{draw['id']}/entries/{by_name['Di Evans']}/withdraw")  # Ann w/o
    retired = second["matchID"]
    live_server.call("POST", f"/operator/matches/{retired}/result", {
        "gameScores": [{"a": 11, "b": 4}, {"a": 2, "b": 5}], "resultType": "retired", "winnerSide": "b"})
    url = live_server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    page.tap("nav button[data-tab=results]")
    results = page.locator("#results")
    walkover = results.locator(".card", has_text="Ann Lee")
    expect(walkover).to_contain_text("Walkover")
    expect(walkover.locator(".side.win")).to_contain_text("Ann Lee")
    expect(walkover.locator(".side.win")).to_contain_text("w/o")
    expect(results).not_to_contain_text("Court to be announced")
    retirement = results.locator(".card", has_text="Bo Chen")
    expect(retirement.locator(".side:not(.win)")).to_contain_text("ret.")
    page.screenshot(path=str(SHOTS / "event" / "phone-walkover.png"), full_page=True)
    page.tap("nav button[data-tab=draws]")
    bracket = page.locator("#draws .bracket svg").first
    expect(bracket).to_contain_text("w/o")
    expect(bracket).to_contain_text("ret.")
    page.screenshot(path=str(tmp_path / "draws.png"), full_page=True)
    assert first["matchID"]
