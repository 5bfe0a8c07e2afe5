"""The console's Draws page in a real browser on a real console (contract §13 "Views"): a 16-entry knockout and a
2-group round robin are made from the console (typed entries, preview, save) and played to the end through
start-next on 4 courts (the page's "Start the free courts" button; results go in over the operator API, the scoring
page being tested elsewhere); from a player list of 32 to a running draw on 8 courts takes at most 10 clicks."""

from __future__ import annotations

import math
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from bench.browser_support import choose, run_finished
from tests.server_process import ServerProcess


def courts(server: ServerProcess, count: int) -> dict[str, Any]:
    return dict(server.call("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": f"Court {i + 1}"} for i in range(count)]})["data"])


def finish_active(server: ServerProcess) -> int:
    """Complete every active match, side A winning every game; how many."""
    active = server.call("GET", "/operator/matches?status=active&limit=100")["data"]
    for match in active:
        games = [{"a": 11, "b": 4}] * math.ceil(match["bestOf"] / 2)
        server.call("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": games})
    return len(active)


def new_draw(page: Page, name: str, lines: list[str], fmt: str | None = None, groups: int | None = None) -> None:
    """Fill the New draw form with typed entries, preview, check the preview, save."""
    if fmt:
        choose(page, "Format", fmt)
        expect(page.get_by_role("combobox", name="Format")).to_have_value(fmt)
    box = page.get_by_label("Name", exact=True)
    box.fill(name)
    box.press("Enter")
    expect(box).to_have_value(name)
    box = page.get_by_role("textbox", name="One entry a line")
    box.fill("\n".join(lines))
    box.press("Control+Enter")
    expect(page.get_by_text(f"{len(lines)} entries", exact=True)).to_be_visible()
    if groups:
        number = page.get_by_role("spinbutton", name="Groups")
        number.fill(str(groups))
        number.press("Enter")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Preview: nothing is saved yet.")).to_be_visible()
    page.get_by_role("button", name="Save the draw").click()
    expect(page.get_by_text(f"{name} is saved and running")).to_be_visible()


def test_a_knockout_and_a_round_robin_made_in_the_console_play_to_the_end_on_four_courts(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast = courts(server, 4)
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url + "/draws")
    new_draw(page, "Knockout", [f"Player {i}, {i}" for i in range(1, 17)])
    expect(page.locator(".cs-round-name", has_text="Round of 16").first).to_be_visible()
    page.get_by_text("New draw").click()
    new_draw(page, "Groups", [f"Member {i}; Club {'AB'[i % 2]}" for i in range(1, 9)],
             fmt="Round robin (groups)", groups=2)
    run_finished(page)  # the rerun after saving keeps the preview's tables on screen until it ends
    for group in ("Group A", "Group B"):  # the saved draw's tables; the preview's are gone with the closed form
        expect(page.get_by_role("heading", name=group)).to_have_count(1)
        expect(page.get_by_role("heading", name=group)).to_be_visible()

    draws = server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]
    assert [(d["name"], d["format"], len(d["entries"]), len(d["groups"])) for d in draws] == [
        ("Knockout", "single_elimination", 16, 0), ("Groups", "round_robin", 8, 2)]
    played = 0
    for _ in range(40):
        page.goto(url + "/draws")
        start = page.get_by_role("button", name="Start the free courts (4)")
        expect(start).to_be_enabled()
        start.click()
        expect(page.get_by_text("Started the next matches on the free courts.")).to_be_visible()
        active = server.call("GET", "/operator/matches?status=active&limit=100")["data"]
        assert 1 <= len(active) <= 4
        assert {m["drawID"] for m in active} <= {d["id"] for d in draws}
        played += finish_active(server)
        if all(d["status"] == "complete" for d in server.call(
                "GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]):
            break
    assert played == 15 + 2 * 6  # a 16-entry knockout: 15 matches; two groups of four: 6 each
    done = {d["name"]: d for d in server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]}
    assert done["Knockout"]["placings"][0]["place"] == 1 and len(done["Groups"]["placings"]) == 8
    assert server.call("GET", f"/operator/broadcasts/{broadcast['id']}/pool")["data"] == []

    page.goto(url + "/draws")
    expect(page.get_by_text("Complete", exact=True)).to_be_visible()
    winner = next(e["name"] for e in done["Groups"]["entries"]
                  if e["id"] == done["Groups"]["placings"][0]["entryID"])
    expect(page.locator(".cs-placings")).to_contain_text(f"1. {winner}")


class Clicks:
    """Every click of the operator goes through here, to be counted."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, target: Locator) -> None:
        self.count += 1
        target.click()


def test_from_a_player_list_of_32_to_a_running_draw_on_8_courts_takes_at_most_10_clicks(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast = courts(server, 8)
    club = server.call("POST", "/operator/player-lists", {"name": "Club"})["data"]
    rows = [{"firstName": f"Member{i:02d}", "lastName": "Smith"} for i in range(1, 33)]
    server.call("POST", f"/operator/player-lists/{club['id']}/players/import", {"rows": rows, "dryRun": False})
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url)
    click = Clicks()
    click(page.get_by_role("link", name="Draws"))
    click(page.get_by_text("From a player list", exact=True))
    expect(page.get_by_text("32 entries", exact=True)).to_be_visible()
    click(page.get_by_role("button", name="Preview"))
    expect(page.locator(".cs-round-name", has_text="Round of 32").first).to_be_visible()
    click(page.get_by_role("button", name="Save the draw"))
    expect(page.get_by_text("Singles is saved and running")).to_be_visible()
    click(page.get_by_role("button", name="Start the free courts (8)"))
    expect(page.get_by_text("Started the next matches on the free courts.")).to_be_visible()

    assert click.count <= 10
    assert click.count == 5
    active = server.call("GET", "/operator/matches?status=active&limit=100")["data"]
    assert sorted(m["tableID"] for m in active) == sorted(t["id"] for t in broadcast["tables"])
    draw = server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"][0]
    assert len(draw["entries"]) == 32 and {m["drawID"] for m in active} == {draw["id"]}
