"""What a volunteer met in the first hour of a club day (issue 35), in a real browser on a real console: a refused
correction names the started match and offers the way on (§19); the phone scorer's Start next takes from the court
pool, also after a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench.browser_support import choose, run_finished
from tests.server_process import ServerProcess

DOCS = Path(__file__).resolve().parents[2] / "docs"


def knockout_of_4(server: ServerProcess, courts: int = 1) -> dict[str, Any]:
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": f"Court {i + 1}"} for i in range(courts)]})["data"]
    return dict(server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 3, "entries": [{"players": [{"manualName": name}], "seed": n + 1}
                                     for n, name in enumerate(("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"))]})["data"])


def type_in(page: Page, label: str, value: str, *, tries: int = 3) -> None:
    """Fill a text field and commit it with Enter, again if a run that ended meanwhile redrew it empty (the Scoring
    page refreshes its score part every 2 s)."""
    box = page.get_by_label(label)
    for attempt in range(tries):
        run_finished(page)
        box.fill(value)
        box.press("Enter")
        run_finished(page)
        try:
            expect(box).to_have_value(value, timeout=3_000)
            return
        except AssertionError:
            if attempt == tries - 1:
                raise


def test_a_refused_correction_names_the_started_match_and_the_way_on_stops_it_then_corrects(
        browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path) -> None:
    url, server = console_url
    draw = knockout_of_4(server)
    semis = [dm["matchID"] for dm in draw["rounds"][0]["drawMatches"]]
    for match_id in semis:
        server.call("POST", f"/operator/matches/{match_id}/result", {"gameScores": [{"a": 11, "b": 4}]})
    court = server.call("GET", "/operator/tables")["data"][0]["id"]
    final = server.call("POST", f"/operator/tables/{court}/start-next")["data"]
    semi = next(m for m in server.call("GET", f"/operator/matches?drawID={draw['id']}")["data"]
                if m["id"] == semis[0])
    page = browser.new_page(viewport={"width": 1280, "height": 1800})
    page.set_default_timeout(30_000)
    page.goto(url + "/scoring")
    expect(page.get_by_text("Correct a completed result")).to_be_visible()
    choose(page, "Completed match (newest first)", f"{semi['playerA']} vs {semi['playerB']} · Semifinal · Open 11-4")
    run_finished(page)
    type_in(page, "Corrected games (side A-side B, comma-separated)", "4-11")
    type_in(page, "Reason for the correction (kept in the audit log)", "Sides swapped on the sheet")
    page.get_by_role("button", name="Save corrected result").click()
    final_sides = f"{final['playerA']} vs {final['playerB']}"
    expect(page.get_by_text(f"Not changed: {final_sides} (Final), which this result leads to, has already started "
                            "on Court 1.")).to_be_visible()
    expect(page.get_by_text("Yes, change the winner")).to_have_count(0)  # no question the server would refuse
    page.screenshot(path=str(DOCS / "console-refused-correction.png"), full_page=True)
    page.get_by_role("button", name=f"Stop {final_sides} and put it back to waiting").click()
    expect(page.get_by_text(f"Stopped {final_sides}: it waits for a court again.")).to_be_visible()
    run_finished(page)
    assert server.call("GET", f"/operator/matches?drawID={draw['id']}&status=active")["data"] == []
    page.get_by_role("button", name="Save corrected result").click()
    warning = page.get_by_text(f"This correction changes the winner from {semi['playerA']} to {semi['playerB']}. "
                               f"The draw Open follows the new result ({semi['playerB']} goes on in a knockout, "
                               "standings change in a group).")
    expect(warning).to_be_visible()
    page.get_by_role("button", name="Yes, change the winner").click()
    expect(page.get_by_text("Result corrected:")).to_be_visible()
    after = server.call("GET", f"/operator/draws/{draw['id']}")["data"]
    names = {e["id"]: e["name"] for e in after["entries"]}
    assert semi["playerB"] in [names.get(s["entryID"] or "") for s in after["rounds"][1]["drawMatches"][0]["slots"]]


def test_the_phone_scorers_start_next_takes_from_the_court_pool_also_after_a_reload(
        browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path) -> None:
    _, server = console_url
    draw = knockout_of_4(server)
    court = server.call("GET", "/operator/tables")["data"][0]["id"]
    link = server.call("GET", f"/operator/tables/{court}/scorer")["data"]["url"]
    pool = server.call("GET", f"/operator/broadcasts/{draw['broadcastID']}/pool")["data"]
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    expect(phone.locator("#next")).to_have_text(f"Up next: {pool[0]['playerA']} vs {pool[0]['playerB']}")
    start = phone.locator("#start")
    expect(start).to_be_enabled()
    start.tap()
    expect(phone.get_by_text(pool[0]["playerA"]).first).to_be_visible()
    active = server.call("GET", "/operator/matches?status=active")["data"]
    assert [m["id"] for m in active] == [pool[0]["id"]]
    server.call("POST", f"/operator/matches/{pool[0]['id']}/complete", {"gameScores": [{"a": 11, "b": 5}]})
    phone.reload()
    expect(phone.locator("#next")).to_have_text(f"Up next: {pool[1]['playerA']} vs {pool[1]['playerB']}")
    expect(phone.locator("#start")).to_be_enabled()
    phone.screenshot(path=str(tmp_path / "phone-pool.png"), full_page=True)


def test_the_draws_page_names_doubles_partners_and_every_reason_a_waiting_match_is_held_back(
        browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path) -> None:
    """Issue 35 points 4 and 5: "Waiting for a court" showed one name a side and only the first reason."""
    url, server = console_url
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})["data"]
    court = broadcast["tables"][0]["id"]
    busy = server.call("POST", "/operator/matches", {"tableID": court, "playerA": {"manualName": "Ethan Nguyen"},
                                                     "playerB": {"manualName": "Zoe Park"}, "bestOf": 1})["data"]
    server.call("POST", f"/operator/matches/{busy['id']}/start")
    pairs = [("Ethan Nguyen", "Ann Lee"), ("Emily Chen", "Bo Kim")]
    draw = server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Mixed doubles", "format": "round_robin", "bestOf": 1,
        "tableIDs": [broadcast["tables"][1]["id"]],
        "entries": [{"players": [{"manualName": a}, {"manualName": b}]} for a, b in pairs]})["data"]
    server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": {"requireCheckIn": True}})
    for person in server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people")["data"]:
        if person["name"] != "Emily Chen":
            server.call("POST", f"/operator/broadcasts/{broadcast['id']}/people/{person['personID']}/check-in",
                        {"present": True})
    pool = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/pool")["data"]
    assert [b["reason"] for b in pool[0]["blockedByAll"]] == ["player_busy", "not_checked_in"]
    page = browser.new_page(viewport={"width": 1440, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url + "/draws")
    expect(page.get_by_text("Waiting for a court (1)")).to_be_visible()
    run_finished(page)
    table = page.get_by_test_id("stDataFrame").last
    sides = [f"{pool[0][f'player{x}']} / {pool[0][f'player{x}2']}" for x in "AB"]
    assert sorted(sides) == ["Emily Chen / Bo Kim", "Ethan Nguyen / Ann Lee"]
    expect(table).to_contain_text(" v ".join(sides))
    expect(table).to_contain_text("Ethan Nguyen playing on another court · Not checked in: Emily Chen")
    page.screenshot(path=str(tmp_path / "draws-waiting.png"), full_page=True)
    assert draw["format"] == "round_robin"


def test_draw_entries_from_a_player_list_with_seeds_and_doubles_pairs_picked_there(
        browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path) -> None:
    """Issue 35 point 7: seeds and doubles partners are picked from the list, no name typed as text."""
    url, server = console_url
    server.call("POST", "/operator/broadcasts", {"name": "Club day", "tables": [{"label": "Court 1"}]})
    club = server.call("POST", "/operator/player-lists", {"name": "Club"})["data"]
    rows = [{"firstName": first, "lastName": last} for first, last in
            (("Ann", "Lee"), ("Bo", "Kim"), ("Cy", "Day"), ("Di", "Fox"))]
    server.call("POST", f"/operator/player-lists/{club['id']}/players/import", {"rows": rows, "dryRun": False})
    page = browser.new_page(viewport={"width": 1440, "height": 1600})
    page.set_default_timeout(30_000)
    page.goto(url + "/draws")
    page.get_by_text("From a player list", exact=True).click()
    expect(page.get_by_text("4 entries", exact=True)).to_be_visible()
    run_finished(page)
    page.get_by_text("Doubles: pick each player's partner").click()
    expect(page.get_by_text("Pick a partner for Ann Lee.")).to_be_visible()
    choose(page, "Partner of Ann Lee", "Cy Day")
    expect(page.get_by_text("Cy Day: plays with Ann Lee")).to_be_visible()
    choose(page, "Partner of Bo Kim", "Di Fox")
    expect(page.get_by_text("2 entries", exact=True)).to_be_visible()
    choose(page, "Seed of Bo Kim", "seed 1")
    run_finished(page)
    page.screenshot(path=str(DOCS / "draws-from-list.png"), full_page=True)
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("Preview: nothing is saved yet.")).to_be_visible()
    page.get_by_role("button", name="Save the draw").click()
    expect(page.get_by_text("Singles is saved and running")).to_be_visible()
    draw = server.call("GET", "/operator/draws?broadcastID=" + server.call(
        "GET", "/operator/broadcasts")["data"][0]["id"])["data"][0]
    assert sorted((e["name"], e["seed"]) for e in draw["entries"]) == [
        ("Ann Lee / Cy Day", None), ("Bo Kim / Di Fox", 1)]


def test_audit_reason_in_full_withdraw_list_and_long_doubles_names_on_the_point_buttons(
        browser: Browser, console_url: tuple[str, ServerProcess], tmp_path: Path) -> None:
    """Issue 35 point 9: a correction's reason in full in the Audit entry's detail; the withdraw list offers only
    entries still in the draw; "+1" buttons with long doubles names wrap instead of cutting the partner off."""
    url, server = console_url
    draw = knockout_of_4(server)
    semi = draw["rounds"][0]["drawMatches"][0]
    server.call("POST", f"/operator/matches/{semi['matchID']}/result", {"gameScores": [{"a": 11, "b": 4}]})
    court = server.call("GET", "/operator/tables")["data"][0]["id"]
    long_a, long_b = "Maximilian Oberhauser-Lindqvist", "Anastasia Vasquez-Kowalczyk"
    doubles = server.call("POST", "/operator/matches", {
        "tableID": court, "playerA": {"manualName": long_a}, "playerA2": {"manualName": long_b},
        "playerB": {"manualName": "Bo Chen"}, "playerB2": {"manualName": "Cy Diaz"}, "bestOf": 1,
        "isDoubles": True})["data"]
    server.call("POST", f"/operator/matches/{doubles['id']}/start", {"force": True})
    reason = ("The umpire's sheet of the semifinal on Court 1 has the sides the other way round: the referee "
              "checked it with both players at the desk at 10:40 and they agree that side B won 11-4.")
    server.call("POST", f"/operator/matches/{semi['matchID']}/score", {
        "gameScores": [{"a": 11, "b": 6}], "reason": reason})

    page = browser.new_page(viewport={"width": 1024, "height": 1400})
    page.set_default_timeout(30_000)
    page.goto(url + "/audit")
    run_finished(page)  # a loaded machine draws the page's entries late: wait for its run, not 5 s
    expect(page.get_by_text(f"Reason: {reason}")).to_be_visible(timeout=30_000)

    page.goto(url + "/draws")
    run_finished(page)
    page.get_by_text("Withdraw an entry").click()
    run_finished(page)
    names = {e["id"]: e["name"] for e in draw["entries"]}
    loser = names[semi["slots"][1]["entryID"]]
    options = page.get_by_role("option")
    for _ in range(3):  # a run that ends while the list is open closes it: open it again
        run_finished(page)
        page.get_by_role("combobox", name="Entry", exact=True).click()
        try:
            options.first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            continue
    offered = [text.split(") ", 1)[-1] for text in options.all_inner_texts()]  # "(1) Ann Lee": seed first
    assert sorted(offered) == sorted(name for name in names.values() if name != loser)
    page.keyboard.press("Escape")

    page.goto(url + "/scoring")
    button = page.locator(".st-key-point_a button")
    expect(button).to_contain_text(f"+1 {long_a} / {long_b}")
    label = button.locator("p")
    assert label.evaluate("p => p.scrollWidth <= p.clientWidth")  # nothing cut off to the side
    box = button.bounding_box()
    assert box is not None and box["height"] > 80  # two lines of the big label: it wrapped
    page.screenshot(path=str(tmp_path / "scoring-doubles.png"), full_page=True)
