"""Check-in at the desk and start-next on the board, in a real browser on a real console (contract §14): players are
checked in by typing a few letters and picking the name; start-next then skips the match of a player who has not
checked in and the one of a player still resting, and the board says why for each."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from bench.browser_support import run_finished
from tests.server_process import ServerProcess


def seed(server: ServerProcess) -> dict[str, Any]:
    """Court 1 queue: Cy Diaz v Di Evans (Di never checks in), Ann Lee v Ed Fox (Ann just played), Flo Gu v Gil Ho.
    Court 2: Ann Lee beat Bo Chen a moment ago. Check-in required, 30 minutes of rest."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Open", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})["data"]
    courts = [t["id"] for t in broadcast["tables"]]
    server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}",
                {"eventDay": {"requireCheckIn": True, "restMinutes": 30}})

    def match(court: str, a: str, b: str) -> dict[str, Any]:
        return dict(server.call("POST", "/operator/matches", {
            "tableID": court, "playerA": {"manualName": a}, "playerB": {"manualName": b}, "bestOf": 1})["data"])

    played = match(courts[1], "Ann Lee", "Bo Chen")
    server.call("POST", f"/operator/matches/{played['id']}/start", {"force": True})
    server.call("POST", f"/operator/matches/{played['id']}/complete", {"gameScores": [{"a": 11, "b": 3}]})
    for a, b in (("Cy Diaz", "Di Evans"), ("Ann Lee", "Ed Fox"), ("Flo Gu", "Gil Ho")):
        match(courts[0], a, b)
    return dict(broadcast)


def check_in(page: Page, typed: str, name: str, *, tries: int = 3) -> None:
    """Type a few letters in the desk's box and tap the name, once the page's script run has finished: a run that
    ends meanwhile redraws the box (a new one per check-in), so the steps are taken again on the new box."""
    for attempt in range(tries):
        run_finished(page)
        box = page.get_by_role("combobox", name="Check in")
        try:
            box.click(timeout=5_000)
            box.fill(typed, timeout=5_000)
            page.get_by_role("option", name=name, exact=True).click(timeout=5_000)  # the one tap after typing
            return
        except PlaywrightError:
            if attempt == tries - 1:
                raise


def test_desk_checks_players_in_and_start_next_skips_the_unchecked_and_the_resting(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    seed(server)
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    page.set_default_timeout(20_000)
    page.goto(url + "/check-in")
    # Ann Lee and Bo Chen have played on Court 2: a person who has started a match counts as checked in
    expect(page.get_by_text("2 / 7")).to_be_visible(timeout=30_000)
    for typed, name in (("cy", "Cy Diaz"), ("ed f", "Ed Fox"), ("flo", "Flo Gu"), ("gil", "Gil Ho")):
        check_in(page, typed, name)
        expect(page.get_by_text(f"{name} is checked in.")).to_be_visible()
    expect(page.get_by_text("6 / 7")).to_be_visible()

    page.goto(url)
    expect(page.get_by_text("Not checked in: Di Evans")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Ann Lee resting until")).to_be_visible()
    start = page.get_by_role("button", name="Start next: Flo Gu vs Gil Ho")
    start.click()
    expect(page.get_by_text("Started Flo Gu vs Gil Ho on Court 1.")).to_be_visible()
    active = server.call("GET", "/operator/matches?status=active")["data"]
    assert [(m["playerA"], m["playerB"]) for m in active] == [("Flo Gu", "Gil Ho")]
