"""The order of play in a real browser on a real console and server (contract §20, issue 39's "Done when"): the
reference event (a 32-entry knockout, four round-robin groups of 4, a 16-entry doubles knockout, 6 courts) is
planned from the console, a match is moved into a conflict and the conflict is named with its severity, the plan is
published, and a player finds their planned time on the event page's My matches."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from playwright.sync_api import Browser, expect

from bench.browser_support import choose, run_finished
from console.order_of_play import local
from domain.settings import Settings
from tests.server_process import ServerProcess

TOMORROW = (date.today() + timedelta(days=1)).isoformat()


def entries(prefix: str, count: int, *, doubles: bool = False) -> list[dict[str, Any]]:
    return [{"players": [{"manualName": f"{prefix} Player {i}"}]
             + ([{"manualName": f"{prefix} Partner {i}"}] if doubles else []), "seed": i}
            for i in range(1, count + 1)]


def reference_event(server: ServerProcess) -> dict[str, Any]:
    broadcast = dict(server.call("POST", "/operator/broadcasts", {
        "name": "Club Open", "tables": [{"label": f"Court {i}"} for i in range(1, 7)]})["data"])
    for body in ({"name": "Singles", "format": "single_elimination", "entries": entries("Singles", 32)},
                 {"name": "Groups", "format": "round_robin", "groupCount": 4, "entries": entries("Group", 16)},
                 {"name": "Doubles", "format": "single_elimination", "entries": entries("Doubles", 16, doubles=True)}):
        server.call("POST", "/operator/draws", {"broadcastID": broadcast["id"], "bestOf": 1, "randomSeed": 5} | body)
    server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"plan": {
        "days": [{"date": TOMORROW, "start": "09:00", "end": "21:00"}], "matchMinutes": {"default": 30}}})
    return broadcast


def test_plan_the_reference_event_move_into_a_conflict_publish_and_find_my_time(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast = reference_event(server)
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url + "/order-of-play")
    run_finished(page)
    page.get_by_role("button", name="Plan / re-plan").click()
    expect(page.get_by_text("70 matches placed.")).to_be_visible()
    run_finished(page)
    expect(page.get_by_text("No conflicts", exact=True)).to_be_visible()

    # the form's first match is Court 1's first: moved to Court 2 at the same time, where another match is planned
    grid = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/plan")["data"]
    first = grid["days"][0]["courts"][0]["slots"][0]
    at = local(first["plannedOn"], Settings.from_env().zone()).strftime("%H:%M")
    assert at == "09:00"
    choose(page, "Court", "Court 2")
    page.get_by_role("button", name="Move").click()
    expect(page.get_by_text("Error: Court 2 has two matches at 09:00")).to_be_visible()
    run_finished(page)

    event = server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"]
    page.get_by_role("button", name="Publish on the event page").click()
    expect(page.get_by_text("Published: the event page shows the order of play.")).to_be_visible()
    read = next(b for b in server.call("GET", "/operator/broadcasts")["data"] if b["id"] == broadcast["id"])
    assert read["plan"]["published"] is True

    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(event)
    player = first["names"][0]
    assert player.startswith("Singles Player ")  # the longest chain goes first: the 32-entry knockout's first round
    phone.tap("nav button[data-tab=mine]")
    phone.fill("#find", player)
    phone.tap(f'#matches-list button >> text="{player}"')
    mine = phone.locator("#my-matches")
    expect(mine).to_contain_text("Not before 09:00 · Court 2")
    phone.tap("nav button[data-tab=order]")
    expect(phone.locator("#order")).to_contain_text("Court 6")
