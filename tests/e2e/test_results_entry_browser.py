"""Results entry in a real browser on a real console (contract §19): the desk types a round of 8 results from paper
with the keyboard alone, at most 8 typed lines and 8 Enters (the cursor moves to the next row by itself); a line
it cannot read, or one the server refuses, is said on its row and saves nothing; W/O asks for the winner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from bench.browser_support import choose, run_finished
from tests.server_process import ServerProcess

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHEETS = ["11-7 11-9", "11:5, 9:11, 11:3", "11-4 11-6", "7-11 11-9 11-8",
          "11-2 11-3", "11:9 11:9", "12-10 11-13 11-7", "11-6 11-8"]


def seed(server: ServerProcess) -> dict[str, Any]:
    """A 16-entry knockout (best of 3) on 4 courts: its first round, 8 matches, waits in the court pool."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club day", "tables": [{"label": f"Court {i + 1}"} for i in range(4)]})["data"]
    entries = [{"players": [{"manualName": f"Player {i + 1:02d}"}], "seed": i + 1} for i in range(16)]
    return dict(server.call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open singles", "format": "single_elimination", "entries": entries,
        "bestOf": 3, "randomSeed": 3})["data"])


def field_of(page: Page, sides: str) -> Any:
    return page.get_by_role("textbox", name=f"Result of {sides} (Court pool)")


def test_a_round_of_8_results_is_8_typed_lines_and_8_enters(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    draw = seed(server)
    first_round = draw["rounds"][0]
    assert first_round["name"] == "Round of 16" and len(first_round["drawMatches"]) == 8
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    page.set_default_timeout(30_000)
    page.goto(url + "/results-entry")
    expect(page.get_by_text("8 matches in play or waiting")).to_be_visible()
    choose(page, "Round", "Round of 16")
    run_finished(page)
    pool = server.call("GET", f"/operator/broadcasts/{draw['broadcastID']}/pool")["data"]
    order = [f"{m['playerA']} vs {m['playerB']}" for m in pool]
    field_of(page, order[0]).click()  # where the desk starts; from here on the keyboard alone
    typed_lines = enters = 0
    for index, line in enumerate(SHEETS):
        expect(field_of(page, order[index])).to_be_focused()
        page.keyboard.type(line)
        typed_lines += 1
        page.keyboard.press("Enter")
        enters += 1
        expect(page.get_by_text("Saved: ").first).to_be_visible()
        expect(field_of(page, order[index])).to_have_count(0)
        run_finished(page)
        if index == 2:  # the README's picture: three typed in, the cursor on the fourth
            page.screenshot(path=str(DOCS / "console-results-entry.png"))
    assert (typed_lines, enters) == (8, 8)
    expect(page.get_by_text("No match is in play or waiting here")).to_be_visible()
    completed = {m["drawMatchID"]: m for m in server.call(
        "GET", f"/operator/matches?status=completed&drawID={draw['id']}&limit=100")["data"]}
    assert len(completed) == 8 and all(m["resultType"] == "played" for m in completed.values())
    by_pair = {f"{m['playerA']} vs {m['playerB']}": m["gameScores"] for m in completed.values()}
    assert by_pair[order[1]] == [{"a": 11, "b": 5}, {"a": 9, "b": 11}, {"a": 11, "b": 3}]
    quarterfinals = [dm for dm in server.call("GET", f"/operator/draws/{draw['id']}")["data"]["rounds"][1][
        "drawMatches"] if dm["status"] == "ready"]
    assert len(quarterfinals) == 4


def test_a_problem_is_said_on_its_row_and_saves_nothing_and_wo_asks_for_the_winner(
        browser: Browser, console_url: tuple[str, ServerProcess]) -> None:
    url, server = console_url
    draw = seed(server)
    pool = server.call("GET", f"/operator/broadcasts/{draw['broadcastID']}/pool")["data"]
    first, second = (f"{m['playerA']} vs {m['playerB']}" for m in pool[:2])
    page = browser.new_page(viewport={"width": 1280, "height": 1600})
    page.set_default_timeout(30_000)
    page.goto(url + "/results-entry")
    expect(page.get_by_text("8 matches in play or waiting")).to_be_visible()
    run_finished(page)
    field = field_of(page, first)
    expect(field).to_be_focused()
    page.keyboard.type("11-7 eleven-9")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Not saved: Could not read 'eleven-9' after game 1")).to_be_visible()
    run_finished(page)
    expect(field).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("11-7")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Not saved: These games decide no winner: for a retirement press Ret. and pick who wins; "
                            "for a walkover W/O.")).to_be_visible()  # issue 51.10: kept for Ret., not sent
    assert server.call("GET", f"/operator/matches?status=completed&drawID={draw['id']}")["data"] == []
    run_finished(page)
    winner = pool[1]["playerB"]
    page.get_by_role("button", name="W/O").nth(1).click()
    page.get_by_role("button", name=f"{winner} wins").click()
    expect(page.get_by_text(f"Saved: {winner} beat {pool[1]['playerA']} w/o")).to_be_visible()
    expect(field_of(page, second)).to_have_count(0)  # its row goes with the rerun after the save: wait for it
    walked = server.call("GET", f"/operator/matches?status=completed&drawID={draw['id']}")["data"]
    assert [(m["resultType"], m["winnerSide"]) for m in walked] == [("walkover", "b")]
