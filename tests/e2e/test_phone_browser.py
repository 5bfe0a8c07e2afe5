"""The scorer page in a real phone-sized browser (contract §11): an umpire starts the court's next match, scores
a game point by point, undoes one, and completes the match, while a second phone on the same link sees each
point within 1 s without a reload; the partner reads the completed result."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, ViewportSize, expect

from bench.outputs_support import seed_court
from tests.server_process import ServerProcess

PHONE: ViewportSize = {"width": 360, "height": 740}


def best_of_one(server: ServerProcess) -> tuple[str, str]:
    """One court with one best-of-1 match queued; the partner key and the court's scorer URL."""
    court = seed_court(server, bestOf=1)
    return court.key, str(server.call("GET", f"/operator/tables/{court.table_id}/scorer")["data"]["url"])


def phone(browser: Browser, url: str) -> Page:
    page = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.goto(url)
    page.evaluate("window.__loaded = 'once'")  # gone if the page ever reloads
    return page


def test_an_umpire_scores_a_match_on_a_phone_while_a_second_phone_follows_each_point(
        browser: Browser, live_server: ServerProcess) -> None:
    key, url = best_of_one(live_server)
    umpire, watcher = phone(browser, url), phone(browser, url)
    expect(umpire.locator("#next")).to_have_text("Up next: Mima Ito vs Timo Boll")
    umpire.click("#start")
    expect(umpire.locator("#who-a")).to_have_text("Mima Ito")
    expect(watcher.locator("#who-b")).to_have_text("Timo Boll", timeout=1000)

    for point in range(1, 11):
        umpire.tap("#plus-a")
        expect(umpire.locator("#pts-a")).to_have_text(str(point))
        expect(watcher.locator("#pts-a")).to_have_text(str(point), timeout=1000)
    umpire.tap("#plus-b")
    expect(watcher.locator("#pts-b")).to_have_text("1", timeout=1000)
    umpire.tap("#undo")
    expect(umpire.locator("#pts-b")).to_have_text("0")
    expect(watcher.locator("#pts-b")).to_have_text("0", timeout=1000)
    expect(umpire.locator("#complete")).to_be_disabled()
    umpire.tap("#plus-a")
    expect(umpire.locator("#complete")).to_be_enabled()
    expect(umpire.locator("#plus-a")).to_be_disabled()
    expect(watcher.locator("#pts-a")).to_have_text("✓", timeout=1000)
    umpire.tap("#complete")
    expect(umpire.locator("#idle")).to_be_visible()
    expect(umpire.locator("#next")).to_have_text("Nothing waiting in the queue.")
    expect(watcher.locator("#idle")).to_be_visible(timeout=1000)
    [match] = live_server.call("GET", "/matches", key=key)["data"]
    assert match["status"] == "completed" and match["gameScores"] == [{"a": 11, "b": 0}]
    for page in (umpire, watcher):
        assert page.evaluate("window.__loaded") == "once"


def test_a_stale_phone_shows_the_current_score_and_counts_nothing_twice(
        browser: Browser, live_server: ServerProcess) -> None:
    _key, url = best_of_one(live_server)
    first, second = phone(browser, url), phone(browser, url)
    second.route("**/state", lambda route: route.abort())  # the second phone is offline: it keeps its old state
    first.click("#start")
    first.tap("#plus-a")
    expect(first.locator("#pts-a")).to_have_text("1")
    expect(second.locator("#idle")).to_be_visible()
    second.tap("#start")  # based on the old state: refused
    expect(second.locator("#note")).to_contain_text("another device", timeout=2000)
    second.unroute("**/state")  # back online: the page shows the current state
    expect(second.locator("#pts-a")).to_have_text("1", timeout=2000)
    expect(first.locator("#pts-a")).to_have_text("1")
    [match] = live_server.call("GET", "/operator/matches")["data"]
    assert match["gameScores"] == [{"a": 1, "b": 0}]
