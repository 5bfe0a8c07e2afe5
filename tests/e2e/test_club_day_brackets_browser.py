"""Issue 38's "Done when" in a real browser on a real console (contract §22): a 16-entry consolation draw and a
16-entry playoff_all draw are made in the console (typed entries, format, preview, save) and played to the end
through start-next (the page's "Start the free courts" button; results go in over the operator API); then the
console and the public event page (360 px phone and desktop) show the consolation and every play-off sub-bracket
as brackets, and every placing, the consolation's winner marked as such."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from bench.browser_support import choose, run_finished
from console.draws import games_won, print_sheet
from tests.server_process import ServerProcess

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "club-day"
PHONE: ViewportSize = {"width": 360, "height": 780}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PLACES = ["Places 3-4", "Places 5-8", "Places 7-8", "Places 9-16", "Places 11-12", "Places 13-16", "Places 15-16"]


def finish_active(server: ServerProcess) -> int:
    """Complete every active match, side A winning every game; how many."""
    active = server.call("GET", "/operator/matches?status=active&limit=100")["data"]
    for match in active:
        games = [{"a": 11, "b": 6}] * math.ceil(match["bestOf"] / 2)
        server.call("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": games})
    return len(active)


def click(page: Page, target: Locator) -> None:
    """A click once the console's run has finished (a rerun may replace the element)."""
    run_finished(page)
    target.click()


def new_draw(page: Page, name: str, fmt: str, lines: list[str]) -> None:
    """The New draw form: format, name, typed entries, preview, save."""
    choose(page, "Format", fmt)
    expect(page.get_by_role("combobox", name="Format")).to_have_value(fmt)
    run_finished(page)
    box = page.get_by_label("Name", exact=True)
    box.fill(name)
    box.press("Enter")
    expect(box).to_have_value(name)
    run_finished(page)
    box = page.get_by_role("textbox", name="One entry a line")
    box.fill("\n".join(lines))
    box.press("Control+Enter")
    expect(page.get_by_text(f"{len(lines)} entries", exact=True)).to_be_visible()
    click(page, page.get_by_role("button", name="Preview"))
    expect(page.get_by_text("Preview: nothing is saved yet.")).to_be_visible()
    click(page, page.get_by_role("button", name="Save the draw"))
    expect(page.get_by_text(f"{name} is saved and running")).to_be_visible()
    run_finished(page)


def names_of(draw: dict[str, Any]) -> dict[str, str]:
    return {e["id"]: e["name"] for e in draw["entries"]}


def seeded(name: str) -> str:
    """The console's name of an entry: `(7) Junior 7` (every entry here is seeded by its number)."""
    return f"({name.split()[-1]}) {name}"


def test_a_consolation_and_a_playoff_all_draw_play_to_the_end_and_show_every_bracket_and_place(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": f"Court {i + 1}"} for i in range(4)]})["data"]
    event_url = str(server.call("POST", f"/operator/broadcasts/{broadcast['id']}/event-page/enable")["data"]["url"])
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url + "/draws")
    new_draw(page, "Juniors", "Knockout with a consolation draw", [f"Junior {i}, {i}" for i in range(1, 17)])
    expect(page.get_by_role("heading", name="Consolation draw")).to_be_visible()
    click(page, page.get_by_text("New draw"))
    new_draw(page, "Seniors", "Knockout, every place played off", [f"Senior {i}, {i}" for i in range(1, 17)])
    expect(page.get_by_role("heading", name="Play-offs for places")).to_be_visible()
    draws = server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]
    assert [(d["name"], d["format"], len(d["entries"])) for d in draws] == [
        ("Juniors", "consolation", 16), ("Seniors", "playoff_all", 16)]

    played = 0
    for _ in range(60):
        page.goto(url + "/draws")
        start = page.get_by_role("button", name="Start the free courts (4)")
        run_finished(page)
        expect(start).to_be_enabled()
        click(page, start)
        expect(page.get_by_text("Started the next matches on the free courts.")).to_be_visible()
        played += finish_active(server)
        if all(d["status"] == "complete" for d in server.call(
                "GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]):
            break
    assert played == (15 + 7) + 16 * 4 // 2  # knockout 15 and consolation 7; every place played off: 32
    done = {d["name"]: d for d in server.call("GET", f"/operator/draws?broadcastID={broadcast['id']}")["data"]}
    assert server.call("GET", f"/operator/broadcasts/{broadcast['id']}/pool")["data"] == []
    juniors, seniors = names_of(done["Juniors"]), names_of(done["Seniors"])
    consoled = next(juniors[p["entryID"]] for p in done["Juniors"]["placings"] if p.get("stage") == "consolation")
    places = [(p["place"], seniors[p["entryID"]]) for p in done["Seniors"]["placings"]]
    assert [place for place, _ in places] == list(range(1, 17))

    # the console: the consolation after the main bracket, each play-off sub-bracket under its places, every place
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(url + "/draws")
    run_finished(page)
    choose(page, "Draw", "Juniors · Knockout with a consolation draw")
    run_finished(page)
    expect(page.get_by_role("heading", name="Consolation draw")).to_be_visible()
    expect(page.locator(".cs-round-name", has_text="Consolation final")).to_be_visible()
    expect(page.locator(".cs-placings")).to_contain_text(f"Consolation winner: {seeded(consoled)}")
    page.locator(".cs-draw").last.screenshot(path=str(SHOTS / "console-consolation.png"))
    choose(page, "Draw", "Seniors · Knockout, every place played off")
    run_finished(page)
    expect(page.get_by_role("heading", name="Play-offs for places")).to_be_visible()
    expect(page.locator(".cs-playoff h4")).to_have_text(PLACES)
    items = page.locator(".cs-placings li")
    expect(items).to_have_text([f"{place}. {seeded(name)}" for place, name in places])
    page.locator(".cs-draw").last.screenshot(path=str(SHOTS / "console-playoffs.png"))
    # the A4 sheet of the play-offs (what "Print the draw" downloads), with the scores
    matches = server.call("GET", f"/operator/matches?drawID={done['Seniors']['id']}&limit=100")["data"]
    sheet = browser.new_page(viewport={"width": 1123, "height": 794})
    sheet.set_content(print_sheet(done["Seniors"], "Club day", games_won(matches)))
    expect(sheet.locator(".cs-playoff h4")).to_have_text(PLACES)
    expect(sheet.locator(".cs-placings li")).to_have_count(16)
    sheet.screenshot(path=str(SHOTS / "print-playoffs.png"), full_page=True)
    sheet.close()

    # the event page: both draws' brackets by title, every placing, names and scores only
    for viewport, shot in ((PHONE, "event-phone.png"), (DESKTOP, "event-desktop.png")):
        public = browser.new_page(viewport=viewport, is_mobile=viewport["width"] < 400,
                                  has_touch=viewport["width"] < 400)
        public.goto(event_url)
        public.click("nav button[data-tab=draws]")
        root = public.locator("#draws")
        expect(root.locator("h2")).to_have_text(["Juniors", "Seniors"])
        expect(root.locator(".bracket-title")).to_have_text(["Main draw", "Consolation", "Main draw", *PLACES])
        expect(root.locator(".bracket svg")).to_have_count(2 + 1 + len(PLACES))
        junior_places, senior_places = root.locator(".placings").nth(0), root.locator(".placings").nth(1)
        expect(junior_places.locator("div")).to_have_text([
            f"1. {juniors[done['Juniors']['placings'][0]['entryID']]}",
            f"2. {juniors[done['Juniors']['placings'][1]['entryID']]}", f"Consolation winner: {consoled}"])
        expect(senior_places.locator("div")).to_have_text([f"{place}. {name}" for place, name in places])
        text = root.inner_text()
        assert not re.search(r"\b(ent|drw|dm|mat|brd)_", text)
        # place 9 lost its first match, then won each round of the Places 9-16 bracket: its name in all three
        nine = root.locator(".bracket").nth(3 + PLACES.index("Places 9-16")).locator("text")
        expect(nine.filter(has_text=re.compile(rf"^{places[8][1]}$"))).to_have_count(3)
        public.screenshot(path=str(SHOTS / shot), full_page=True)
        public.close()
