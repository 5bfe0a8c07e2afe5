"""The sport picked by name in the console (contract §18), in a real browser on a real console and server: a
broadcast made as badminton, then changed to a custom format set field by field with its plain-words preview, and
the Scoring page showing a match in its format."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from bench.browser_support import ConsolePage, choose, run_finished
from tests.server_process import ServerProcess


def test_a_club_picks_its_sport_by_name_and_sets_a_custom_one_with_a_preview(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    page.set_default_timeout(60_000)
    console = ConsolePage(url, page)
    console.open("/broadcasts", ready="New broadcast")
    run_finished(page)
    choose(page, "Sport (scoring)", "Badminton")
    expect(page.get_by_text("Best of 3 games to 21, win by 2, 30 wins")).to_be_visible()
    page.get_by_label("Name").first.fill("Shuttle Saturday")
    page.get_by_label("Courts (one label a line, 1 to 50)").fill("Court 1\nCourt 2")
    run_finished(page)
    page.get_by_role("button", name="Create broadcast").click()
    expect(page.get_by_text("Broadcast Shuttle Saturday created.")).to_be_visible()
    [made] = server.call("GET", "/operator/broadcasts")["data"]
    assert made["scoringName"] == "badminton"

    run_finished(page)
    choose(page, "Sport (scoring)", "Custom…")
    run_finished(page)
    page.get_by_text("Sets of games (tennis)").click()
    run_finished(page)
    page.get_by_text("Golden point at deuce").click()
    run_finished(page)
    expect(page.get_by_text("Best of 3 sets of 6 games, tiebreak to 7 at 6-6, golden point at deuce")).to_be_visible()
    page.get_by_role("button", name="Save broadcast").click()
    expect(page.get_by_text("Broadcast Shuttle Saturday saved.")).to_be_visible()
    [changed] = server.call("GET", "/operator/broadcasts")["data"]
    assert changed["scoring"]["kind"] == "sets" and changed["scoring"]["noAd"] is True

    court = changed["tables"][0]["id"]
    match = server.call("POST", "/operator/matches", {"tableID": court, "playerA": {"manualName": "Ann Lee"},
                                                      "playerB": {"manualName": "Bo Chen"}})["data"]
    match = server.call("POST", f"/operator/matches/{match['id']}/start")["data"]
    for _ in range(3):
        match = server.call("POST", f"/operator/matches/{match['id']}/point",
                            {"side": "a", "version": match["scoreVersion"]})["data"]
    console.open("/scoring", ready="Correct a completed result")
    run_finished(page)
    expect(page.get_by_text("golden point at deuce").first).to_be_visible()
    expect(page.get_by_text("Sets won").first).to_be_visible()
    expect(page.get_by_text("Set 1 games").first).to_be_visible()
    expect(page.get_by_test_id("stMetricValue").filter(has_text="40")).to_have_count(1)
