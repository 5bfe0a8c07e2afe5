"""The console in a real browser: `courtside console` against a real server, driven by Playwright + chromium.

An operator starts the queued match on the court board, scores it to completion on the scoring page, and finds
the `match.completed` delivery (sent to a receiver on 127.0.0.1) in the delivery monitor.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, expect

from bench.browser_support import choose, run_finished
from tests.conftest import ROOT
from tests.eventually import eventually
from tests.server_process import ServerProcess
from tests.webhook_receiver import Receiver, Reply, running_receiver


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def partner_call(server: ServerProcess, key: str, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = requests.request(method, server.base + path, json=body, timeout=30,
                                headers={"Authorization": f"Bearer {key}"})
    assert response.status_code in (200, 201), response.text
    return dict(response.json()["data"])


def seed(server: ServerProcess, webhook_url: str, *, more: int = 0) -> None:
    """A partner's court with one best-of-3 match queued (and `more` after it), and its webhook URL."""
    key = server.developer_key()
    broadcast = partner_call(server, key, "POST", "/broadcasts",
                             {"name": "Club Open", "tables": [{"label": "Court 1"}]})
    table_id = broadcast["tables"][0]["id"]
    partner_call(server, key, "PUT", "/player-lists", {"externalID": "club", "name": "Club", "players": [
        {"externalID": "p1", "firstName": "Ann", "lastName": "Lee"},
        {"externalID": "p2", "firstName": "Bo", "lastName": "Kim"}]})
    partner_call(server, key, "PUT", "/matches", {
        "externalID": "final", "tableID": table_id, "playerListExternalID": "club", "bestOf": 3,
        "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}})
    for number in range(1, more + 1):
        partner_call(server, key, "PUT", "/matches", {
            "externalID": f"next-{number}", "tableID": table_id, "playerListExternalID": "club",
            "playerA": {"externalID": "p2"}, "playerB": {"externalID": "p1"}})
    partner_call(server, key, "PATCH", "/webhooks/configuration", {"url": webhook_url})


def delivered(server: ServerProcess, event_id: str, bound: float = 30) -> bool:
    """Whether the delivery's record says `delivered` within the bound (the receiver may answer first)."""
    def record_says_delivered() -> bool:
        response = server.operator_call("GET", f"/operator/webhooks/{event_id}")
        return response.status_code == 200 and response.json()["data"]["status"] == "delivered"

    return eventually(record_says_delivered, timeout=bound, interval=0.1)


def test_operator_starts_scores_and_completes_a_match_then_finds_its_delivery(
    browser: Browser, console_url: tuple[str, ServerProcess], receiver: Receiver,
) -> None:
    url, server = console_url
    seed(server, receiver.url)
    page = browser.new_page(viewport={"width": 1366, "height": 768})  # a club's laptop
    page.set_default_timeout(30_000)

    # the board: "Start next" is on the court's own card, in view without scrolling (console-trial items 7, 8)
    page.goto(url)
    expect(page.get_by_text("Ann Lee vs Bo Kim · final").first).to_be_visible(timeout=15_000)  # first load
    start_next = page.get_by_role("button", name="Start next: Ann Lee vs Bo Kim · final")
    expect(start_next).to_be_in_viewport()
    start_next.click()
    expect(page.get_by_text("Started Ann Lee vs Bo Kim · final on Court 1.")).to_be_visible()
    expect(page.get_by_text("In play:").first).to_be_visible()
    expect(page.get_by_text("Games won: 0–0 · Game 1 points: 0–0")).to_be_visible()

    page.goto(url + "/scoring")
    match_id = server.operator_call("GET", "/operator/tables").json()["data"][0]["activeMatch"]["id"]
    # a change made elsewhere shows on the open page without touching it (item 4)
    server.operator_call("POST", f"/operator/matches/{match_id}/score", {"gameScores": [{"a": 3, "b": 1}]})
    expect(page.get_by_test_id("stMetricValue").nth(1)).to_have_text("3", timeout=8_000)
    expect(page.get_by_test_id("stMetricValue").nth(3)).to_have_text("1", timeout=8_000)
    server.operator_call("POST", f"/operator/matches/{match_id}/score", {"gameScores": []})
    expect(page.get_by_test_id("stMetricValue").nth(1)).to_have_text("0", timeout=8_000)
    point = page.get_by_role("button", name="+1 Ann Lee")
    for game in (1, 2):
        for points in range(1, 12):
            run_finished(page)  # a run still drawing the page shows the old buttons beside the new ones
            point.click()
            games_a, game_a = (game, 0) if points == 11 else (game - 1, points)
            expect(page.get_by_test_id("stMetricValue").first).to_have_text(str(games_a))
            expect(page.get_by_test_id("stMetricValue").nth(1)).to_have_text(str(game_a))
    expect(page.get_by_text("Ann Lee wins 2–0. Complete the match to record it.")).to_be_visible()
    expect(page.get_by_role("button", name="+1 Ann Lee")).to_have_count(0)  # decided: only "Complete" (item 5)
    page.get_by_role("button", name="Complete match").click()
    expect(page.get_by_text("Completed Ann Lee vs Bo Kim · final: 11-0, 11-0.")).to_be_visible()
    # the page stays on the court just completed: its result and "Start next" (item 3)
    expect(page.get_by_text("Last result on Court 1: Ann Lee won 11-0, 11-0")).to_be_visible()
    expect(page.get_by_role("button", name="Start next")).to_be_visible()
    expect(page.get_by_role("button", name="+1 Ann Lee")).to_have_count(0)

    completed = [r for r in receiver.wait_for(26) if r.json["type"] == "match.completed"]  # started, 24, completed
    assert len(completed) == 1
    event_id = completed[0].json["id"]
    assert delivered(server, event_id)
    page.goto(url + "/deliveries")
    choose(page, "Event type", "match.completed")
    picked = page.get_by_role("combobox", name="Delivery")
    expect(picked).to_have_value(f"match.completed · delivered · {event_id}")
    expect(page.get_by_text("match.completed: delivered, 1 attempt(s)")).to_be_visible()


def test_board_shows_a_court_freed_elsewhere_with_start_next_and_deliveries_show_failing(
    browser: Browser, console_url: tuple[str, ServerProcess],
) -> None:
    """Console-trial items 7 and 10 in a real browser: the board's "Start next" follows a court freed elsewhere
    without any control touched, and a receiver answering 500 shows as failing in the delivery monitor."""
    url, server = console_url
    failing = Receiver(Reply(500)).start()
    try:
        seed(server, failing.url, more=1)
        tables = server.operator_call("GET", "/operator/tables").json()["data"]
        first = tables[0]["queue"][0]["id"]
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        page.set_default_timeout(30_000)
        page.goto(url)
        expect(page.get_by_role("button", name="Start next: Ann Lee vs Bo Kim · final")).to_be_visible(
            timeout=15_000)  # the page's first load
        server.operator_call("POST", f"/operator/matches/{first}/start")  # another device starts it
        expect(page.get_by_role("button", name="Start next: Ann Lee vs Bo Kim · final")).to_have_count(
            0, timeout=8_000)
        server.operator_call("POST", f"/operator/matches/{first}/complete",
                             {"gameScores": [{"a": 11, "b": 1}, {"a": 11, "b": 2}]})
        # the court is free again: its card offers the next match, with no control touched (bound, not timing)
        expect(page.get_by_role("button", name="Start next: Bo Kim vs Ann Lee · next-1")).to_be_visible(
            timeout=8_000)
        failing.wait_for(2)
        page.goto(url + "/deliveries")
        expect(page.get_by_text("Failing (retrying)")).to_be_visible()
        choose(page, "Status", "failing")
        expect(page.get_by_role("combobox", name="Delivery")).to_have_value(re.compile(r"· failing · "))
    finally:
        failing.stop()


SAMPLE = ROOT / "docs" / "sample-schedule.csv"


def test_an_event_day_from_the_console_alone(
    browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path,
) -> None:
    """Contract §9 through the console only (no partner, no curl): create the courts, import the sample CSV,
    start the next match from its court's card, see a busy player's warning, score and complete the match,
    download the results."""
    url, server = console_url
    page = browser.new_page(viewport={"width": 1366, "height": 768}, accept_downloads=True)
    page.set_default_timeout(30_000)

    page.goto(url + "/broadcasts")
    page.get_by_label("Name").first.fill("Saturday Open")
    page.get_by_label("Courts (one label a line, 1 to 50)").fill("Court 1\nCourt 2\nCourt 3\nCourt 4")
    page.get_by_role("button", name="Create broadcast").click()
    expect(page.get_by_text("Broadcast Saturday Open created", exact=False)).to_be_visible()

    page.goto(url + "/import")
    page.locator("input[type=file]").set_input_files(str(SAMPLE))
    expect(page.get_by_text("12 matches ready to queue.")).to_be_visible()
    page.get_by_role("button", name="Queue 12 matches").click()
    expect(page.get_by_text("Queued 12 matches on Saturday Open.")).to_be_visible()

    page.goto(url)
    start_next = page.get_by_role("button", name=re.compile(r"^Start next: Ann Lee vs Bo Chan · R16"))
    expect(start_next).to_be_visible(timeout=15_000)  # the page's first load
    start_next.click()  # one click from the board to a match in play
    expect(page.get_by_text(re.compile(r"^Started Ann Lee vs Bo Chan · R16"))).to_be_visible()
    expect(page.get_by_text("Ann Lee is playing on Court 1; Bo Chan is playing on Court 1")).to_be_visible()
    expect(page.get_by_text(re.compile(r"Expected end: \d\d:\d\d"))).to_be_visible()
    overlay = page.get_by_role("link", name="classic").first  # Court 1's stream overlay, made with the courts
    expect(overlay).to_be_visible()
    scoreboard = browser.new_page(viewport={"width": 1920, "height": 1080})
    scoreboard.goto(overlay.get_attribute("href") or "")
    expect(scoreboard.get_by_text("Ann Lee")).to_be_visible()  # the match in play, on the public page
    scoreboard.close()

    # a change made elsewhere shows on the board while a New match form is being filled, which keeps its text
    round_field = page.get_by_label("Round")
    round_field.fill("Semi")
    court4 = next(t for t in server.operator_call("GET", "/operator/tables").json()["data"] if t["label"] == "Court 4")
    server.operator_call("POST", f"/operator/tables/{court4['id']}/start-next")
    expect(page.get_by_text("In play: Gus Hill / Kim Lau vs Ida Jones / Max Neal")).to_be_visible(timeout=8_000)
    expect(round_field).to_have_value("Semi")

    page.goto(url + "/scoring")
    point = page.get_by_role("button", name="+1 Ann Lee")
    for game in (1, 2):
        for points in range(1, 12):
            run_finished(page)  # a run still drawing the page shows the old buttons beside the new ones
            point.click()  # each point lands before the next click (games, then the points of the game)
            games_a, game_a = (game, 0) if points == 11 else (game - 1, points)
            expect(page.get_by_test_id("stMetricValue").first).to_have_text(str(games_a))
            expect(page.get_by_test_id("stMetricValue").nth(1)).to_have_text(str(game_a))
    page.get_by_role("button", name="Complete match").click()
    expect(page.get_by_text(re.compile(r"^Completed Ann Lee vs Bo Chan"))).to_be_visible()

    page.goto(url + "/results")
    expect(page.get_by_text("Download results of Saturday Open (CSV)")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name=re.compile("Download results of Saturday Open")).click()
    assert re.fullmatch(r"results-saturday-open-\d{4}-\d{2}-\d{2}\.csv", download.value.suggested_filename)
    saved = tmp_path / "results.csv"
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"\xef\xbb\xbf")  # the BOM: Excel on Windows reads UTF-8
    lines = saved.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].split(",") == ["court", "event", "round", "sideA", "sideB", "games", "gamesA", "gamesB", "winner",
                                   "winnerNames", "startedOn", "completedOn", "minutes", "format", "audit"]
    assert lines[1].startswith("Court 1,Open singles,R16,Ann Lee,Bo Chan,11-0 11-0,2,0,A,Ann Lee,")
    assert re.search(r",Audit \d+ · [0-9a-f]{12}…$", lines[1])  # §16: the file anchors the audit log
    assert len(lines) == 2
