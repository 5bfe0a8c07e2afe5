"""The console in a real browser: `courtside console` against a real server, driven by Playwright + chromium.

An operator starts the queued match on the court board, scores it to completion on the scoring page, and finds
the `match.completed` delivery (sent to a receiver on 127.0.0.1) in the delivery monitor.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.conftest import ROOT, ServerProcess, free_port
from tests.webhook_receiver import Receiver, running_receiver

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


@pytest.fixture
def console_url(server_factory: Callable[..., ServerProcess], tmp_path: Path) -> Iterator[tuple[str, ServerProcess]]:
    """`courtside console` against a fresh server; its URL and the server."""
    server = server_factory()
    port = free_port()
    log = open(tmp_path / "console.log", "wb")  # noqa: SIM115
    console = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "console", "--api-url", f"http://127.0.0.1:{server.port}",
         "--port", str(port)],
        cwd=ROOT, env=dict(os.environ) | {"COURTSIDE_DATA_DIR": str(server.data_dir)},
        stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if requests.get(url + "/_stcore/health", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            time.sleep(0.2)
    yield url, server
    console.send_signal(signal.SIGTERM)
    try:
        console.wait(timeout=30)
    except subprocess.TimeoutExpired:
        console.kill()


def partner_call(server: ServerProcess, key: str, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = requests.request(method, server.base + path, json=body, timeout=30,
                                headers={"Authorization": f"Bearer {key}"})
    assert response.status_code in (200, 201), response.text
    return dict(response.json()["data"])


def seed(server: ServerProcess, webhook_url: str) -> None:
    """A partner's court with one best-of-3 match queued, and its webhook URL."""
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
    partner_call(server, key, "PATCH", "/webhooks/configuration", {"url": webhook_url})


def delivered(server: ServerProcess, event_id: str, bound: float = 30) -> bool:
    """Whether the delivery's record says `delivered` within the bound (the receiver may answer first)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        response = server.operator_call("GET", f"/operator/webhooks/{event_id}")
        if response.status_code == 200 and response.json()["data"]["status"] == "delivered":
            return True
        time.sleep(0.1)
    return False


def choose(page: Page, label: str, option: str) -> None:
    """Pick an option of a Streamlit selectbox by the box's label."""
    page.get_by_label(label).click()
    page.get_by_role("option", name=option, exact=True).click()


def test_operator_starts_scores_and_completes_a_match_then_finds_its_delivery(
    browser: Browser, console_url: tuple[str, ServerProcess], receiver: Receiver,
) -> None:
    url, server = console_url
    seed(server, receiver.url)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(30_000)

    page.goto(url)
    expect(page.get_by_text("Ann Lee vs Bo Kim · final")).to_be_visible()
    page.get_by_role("button", name="Start next match").click()
    expect(page.get_by_text("Started Ann Lee vs Bo Kim · final on Court 1.")).to_be_visible()
    expect(page.get_by_text("In play:")).to_be_visible()

    page.goto(url + "/scoring")
    point = page.get_by_role("button", name="+1 Ann Lee")
    for game in (1, 2):
        for points in range(1, 12):
            point.click()
            games_a, game_a = (game, 0) if points == 11 else (game - 1, points)
            expect(page.get_by_test_id("stMetricValue").first).to_have_text(str(games_a))
            expect(page.get_by_test_id("stMetricValue").nth(1)).to_have_text(str(game_a))
    expect(page.get_by_text("Ann Lee wins 2–0. Complete the match to record it.")).to_be_visible()
    page.get_by_role("button", name="Complete match").click()
    expect(page.get_by_text("Completed Ann Lee vs Bo Kim · final: 11-0, 11-0.")).to_be_visible()
    expect(page.get_by_text("No match in play. Start one on the court board.")).to_be_visible()

    completed = [r for r in receiver.wait_for(24) if r.json["type"] == "match.completed"]  # started, 22, completed
    assert len(completed) == 1
    event_id = completed[0].json["id"]
    assert delivered(server, event_id)
    page.goto(url + "/deliveries")
    choose(page, "Event type", "match.completed")
    picked = page.get_by_role("combobox", name="Delivery")
    expect(picked).to_have_value(f"match.completed · delivered · {event_id}")
    expect(page.get_by_text("match.completed: delivered, 1 attempt(s)")).to_be_visible()
