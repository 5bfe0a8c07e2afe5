"""Outputs in a real browser (contract §10): a court output and the venue display follow a point scored through
the operator API within 1 s without a reload, and recover by themselves after the server restarts."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from bench.outputs_support import Day, seed_day
from tests.server_process import ServerProcess


def open_page(browser: Browser, url: str) -> Page:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url)
    page.evaluate("window.__loaded = 'once'")  # gone if the page ever reloads
    return page


def score(server: ServerProcess, day: Day, games: list[dict[str, int]]) -> None:
    server.call("POST", f"/operator/matches/{day.matches['d1']['id']}/score", {"gameScores": games})


def test_court_output_and_venue_follow_a_point_within_1s_and_recover_after_a_restart(
        browser: Browser, live_server: ServerProcess) -> None:
    day = seed_day(live_server)
    court = open_page(browser, day.url("classic", "Court 1"))
    venue = open_page(browser, day.url("venue"))
    court_points = court.locator(".bug .row.a .points")
    venue_points = venue.locator(".card").first.locator(".now .p").first
    expect(court_points).to_have_text("7")
    expect(court.locator(".bug .row.a .pn")).to_have_count(2)  # doubles: both partners
    expect(venue_points).to_have_text("7")

    score(live_server, day, [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 8, "b": 5}])
    expect(court_points).to_have_text("8", timeout=1000)
    expect(venue_points).to_have_text("8", timeout=1000)

    live_server.stop()
    expect(court.locator("body")).to_have_class("bg-dark offline", timeout=3000)  # it notices, keeps the score
    expect(court_points).to_have_text("8")
    live_server.start()
    score(live_server, day, [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 9, "b": 5}])
    expect(court_points).to_have_text("9", timeout=3000)
    expect(venue_points).to_have_text("9", timeout=3000)
    expect(court.locator("body")).to_have_class("bg-dark", timeout=1000)
    for page in (court, venue):
        assert page.evaluate("window.__loaded") == "once"


def test_long_names_stay_inside_their_boxes(browser: Browser, live_server: ServerProcess) -> None:
    day = seed_day(live_server)
    for design in ("classic", "lowerthird", "court"):
        page = open_page(browser, day.url(design, "Court 1"))
        overflowing = page.evaluate("""() => Array.from(document.querySelectorAll('.name')).filter(
            el => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== 'ellipsis').length""")
        assert overflowing == 0
        text = page.locator(".pn").first.text_content() or ""
        assert text.startswith("M. Oberschleissheimer")  # shortened to an initial before the ellipsis
        box = page.locator(".pn").first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1920
