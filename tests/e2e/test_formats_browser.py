"""Scoring formats in a real browser (contract §18): a badminton match scored 21-19 30-29 on the scorer phone,
and a tennis match through deuce and advantage, a tiebreak and a match tiebreak, with the classic overlay and
the event page showing each step (the pictures in docs/sports/ are made by `python -m bench.screenshot_sports`)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}
OVERLAY: ViewportSize = {"width": 1280, "height": 400}


def club_court(server: ServerProcess, scoring: str, a: str, b: str) -> dict[str, Any]:
    """A house broadcast in `scoring` with one court (classic overlay) and one match queued on it."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Open", "scoring": scoring, "scoreboardIDs": ["classic"], "tables": [{"label": "Court 1"}]})
    data: dict[str, Any] = broadcast["data"]
    court = data["tables"][0]["id"]
    server.call("POST", "/operator/matches", {"tableID": court, "playerA": {"manualName": a},
                                              "playerB": {"manualName": b}, "eventName": "Open singles"})
    return data


def phone(browser: Browser, server: ServerProcess, court: str) -> Page:
    url = server.call("GET", f"/operator/tables/{court}/scorer")["data"]["url"]
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    return page


def taps(page: Page, sides: str) -> None:
    """Each tap waits until the server's answer is on the page (the point is counted) before the next."""
    for side in sides:
        before = page.evaluate("document.getElementById('pts-a').textContent + '|' + "
                               "document.getElementById('pts-b').textContent + '|' + "
                               "document.getElementById('games').textContent + "
                               "document.getElementById('won-a').textContent + document.getElementById('won-b')"
                               ".textContent")
        page.tap(f"#plus-{side}")
        page.wait_for_function(
            "([before]) => document.getElementById('pts-a').textContent + '|' + "
            "document.getElementById('pts-b').textContent + '|' + document.getElementById('games').textContent + "
            "document.getElementById('won-a').textContent + document.getElementById('won-b').textContent "
            "!== before", arg=[before])


def test_badminton_is_scored_21_19_30_29_on_the_scorer_phone(browser: Browser, live_server: ServerProcess) -> None:
    broadcast = club_court(live_server, "badminton", "Lee Zii Jia", "Viktor Axelsen")
    umpire = phone(browser, live_server, broadcast["tables"][0]["id"])
    umpire.click("#start")
    expect(umpire.locator("#who-a")).to_have_text("Lee Zii Jia")
    taps(umpire, "ab" * 19 + "aa")
    expect(umpire.locator("#games")).to_have_text("21-19")
    expect(umpire.locator("#won-a")).to_have_text("Games 1")
    taps(umpire, "ab" * 29)
    expect(umpire.locator("#pts-a")).to_have_text("29")
    expect(umpire.locator("#pts-b")).to_have_text("29")
    expect(umpire.locator("#complete")).to_be_disabled()
    taps(umpire, "a")  # 30 wins: no two-point lead at the cap
    expect(umpire.locator("#complete")).to_be_enabled()
    expect(umpire.locator("#plus-a")).to_be_disabled()
    expect(umpire.locator("#games")).to_contain_text("30-29")
    umpire.tap("#complete")
    expect(umpire.locator("#idle")).to_be_visible()
    [match] = [m for m in live_server.call("GET", "/operator/matches")["data"] if m["status"] == "completed"]
    assert match["gameScores"] == [{"a": 21, "b": 19}, {"a": 30, "b": 29}] and match["scoringName"] == "badminton"


def test_tennis_through_deuce_a_tiebreak_and_a_match_tiebreak_on_phone_overlay_and_event_page(
        browser: Browser, live_server: ServerProcess) -> None:
    broadcast = club_court(live_server, "tennis_match_tiebreak", "Iga Swiatek", "Coco Gauff")
    court = broadcast["tables"][0]["id"]
    overlay_url = next(o["url"] for o in live_server.call(
        "GET", f"/operator/broadcasts/{broadcast['id']}/outputs")["data"] if o.get("design") == "classic")
    event_url = live_server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    umpire = phone(browser, live_server, court)
    overlay = browser.new_page(viewport=OVERLAY)
    overlay.goto(overlay_url)
    event = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    event.goto(event_url)
    umpire.click("#start")
    expect(umpire.locator("#pts-a")).to_have_text("0")

    taps(umpire, "aaabbb")  # deuce
    expect(umpire.locator("#pts-a")).to_have_text("40")
    expect(umpire.locator("#pts-b")).to_have_text("40")
    taps(umpire, "b")  # advantage Gauff
    expect(umpire.locator("#pts-b")).to_have_text("AD")
    expect(overlay.locator(".row.b .points")).to_have_text("AD", timeout=3000)
    expect(event.locator("#courts")).to_contain_text("AD", timeout=12000)
    taps(umpire, "a")  # deuce again
    expect(umpire.locator("#pts-b")).to_have_text("40")
    taps(umpire, "bb")  # game Gauff
    expect(umpire.locator("#won-b")).to_have_text("Sets 0 · games 1")

    for game in range(11):  # to 6-6, each side winning alternately
        taps(umpire, "aaaa" if game % 2 == 0 else "bbbb")
    expect(umpire.locator("#won-a")).to_have_text("Sets 0 · games 6")
    expect(umpire.locator("#won-b")).to_have_text("Sets 0 · games 6")
    taps(umpire, "aaaaaab")  # a tiebreak is counted in digits
    expect(umpire.locator("#pts-a")).to_have_text("6")
    expect(umpire.locator("#pts-b")).to_have_text("1")
    expect(overlay.locator(".row.a .points")).to_have_text("6", timeout=3000)
    taps(umpire, "a")
    expect(umpire.locator("#games")).to_have_text("7-6(1)")
    expect(umpire.locator("#won-a")).to_have_text("Sets 1 · games 0")

    taps(umpire, "bbbb" * 6)  # second set to Gauff 6-0
    expect(umpire.locator("#games")).to_have_text("7-6(1)0-6")
    taps(umpire, "ab" * 8 + "a")  # the match tiebreak to 10, in digits
    expect(umpire.locator("#pts-a")).to_have_text("9")
    expect(umpire.locator("#pts-b")).to_have_text("8")
    expect(event.locator("#courts")).to_contain_text("9", timeout=12000)
    taps(umpire, "a")
    expect(umpire.locator("#complete")).to_be_enabled()
    expect(umpire.locator("#games")).to_have_text("7-6(1)0-6[10-8]")
    expect(overlay.locator(".row.a .games")).to_have_text("2", timeout=3000)
    umpire.tap("#complete")
    expect(umpire.locator("#idle")).to_be_visible()
    event.tap("nav button[data-tab=results]")
    expect(event.locator("body")).to_contain_text("7-6(1) 0-6 [10-8]", timeout=12000)
