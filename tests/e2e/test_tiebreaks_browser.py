"""The event page's Draws tab in a phone-sized browser says under a group's standings which tie-break step decided
a place (contract §22: "2nd on head-to-head"), and the words follow a result without a reload."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, ViewportSize, expect

from tests.api.test_draw_tiebreaks import BWF_RESULTS, NAMES
from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}


def test_the_words_under_the_standings_show_the_step_that_decided_and_follow_the_last_result(
        browser: Browser, live_server: ServerProcess) -> None:
    broadcast = live_server.call("POST", "/operator/broadcasts", {"name": "Club Day",
                                                                  "tables": [{"label": "Court 1"}]})["data"]
    draw = live_server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Badminton juniors", "format": "round_robin", "scoring": "badminton",
        "tiebreak": "bwf", "randomSeed": 3, "entries": [{"players": [{"manualName": n}]} for n in NAMES]})["data"]
    names = {e["id"]: e["name"] for e in draw["entries"]}
    matches = [dm for rnd in draw["rounds"] for dm in rnd["drawMatches"]]
    last = next(dm for dm in matches if {names[s["entryID"]] for s in dm["slots"]} == {"Bea", "Cat"})

    def result(dm: dict[str, Any]) -> None:
        a, b = (names[s["entryID"]] for s in dm["slots"])
        games = BWF_RESULTS.get((a, b)) or [(y, x) for x, y in BWF_RESULTS[(b, a)]]
        live_server.call("POST", f"/operator/matches/{dm['matchID']}/result",
                         {"gameScores": [{"a": x, "b": y} for x, y in games]})

    for dm in matches:
        if dm is not last:
            result(dm)
    url = live_server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    page.tap("nav button[data-tab=draws]")
    notes = page.locator("#draws .tiebreaks")
    # Bea v Cat still to play: Ann and Cat level on two wins, and Cat beat Ann
    expect(notes).to_contain_text("Tie-breaks: BWF")
    expect(notes).to_contain_text("Cat 1st on head-to-head")
    result(last)  # now three level on two wins: game difference, then Bea's win over Cat
    expect(notes).to_contain_text("Ann 1st on game difference", timeout=12000)
    expect(notes).to_contain_text("Bea 2nd on head-to-head")
    assert notes.locator("div").all_text_contents() == [
        "Tie-breaks: BWF", "Ann 1st on game difference", "Bea 2nd on head-to-head"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
