"""A club sets up its day in the console alone (contract §9a, issue 30), in a real browser on a real console and
server that start from an EMPTY data dir: a broadcast with 4 courts, a roster for it, 24 players imported from a
CSV, self-registration turned on and one player signing up on the phone page, a schedule with start times, and the
first match started from the court board at its time, not before.

No fake clock reaches a server process, so the schedule's first time is the next whole minute at least 50 s away
(UTC on both sides: `COURTSIDE_TIME_ZONE=UTC` for the server, `TZ=UTC` for the console): the board must refuse it
until then and offer it from then on. `run_club_day` is also what `bench/screenshot_club_setup.py` runs to take the
README's pictures.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from bench.browser_support import ConsoleDidNotStart, ConsolePage, choose, running_console
from tests.eventually import eventually
from tests.server_process import ROOT, ServerProcess, free_port

PLAYERS = ROOT / "docs" / "sample-players.csv"
PHONE: ViewportSize = {"width": 390, "height": 844}
EVENT = "Club Open"
ROSTER = "Club Open entries"


def first_time(now: datetime) -> datetime:
    """The schedule's first start: the next whole minute at least 120 s from now (the import and the board's first
    look take up to a minute on a loaded machine, and the board must still be before that time then)."""
    return (now + timedelta(seconds=120 + 59)).replace(second=0, microsecond=0)


def today_first_time(now: datetime) -> datetime | None:
    """The schedule's first start when it falls on the same day as `now`, else None (just before midnight)."""
    first = first_time(now)
    return first if first.date() == now.date() else None


def schedule_sheet(path: Path, first: datetime) -> Path:
    """Five matches: Court 1 at `first` and 30 minutes later, the other courts later, one with the player who
    signed up and one doubles. The times are on `first`'s day (a time of day: one past midnight would read as this
    morning, already past): late in the evening the later ones are 23:59."""
    last = first.replace(hour=23, minute=59)
    later, latest = min(first + timedelta(minutes=30), last), min(first + timedelta(minutes=60), last)
    rows = [("Court 1", "Ann Lee", "Bo Chen", "", "", first), ("Court 2", "Cy Diaz", "Di Evans", "", "", later),
            ("Court 3", "Ed Fox", "Mima Ito", "", "", later), ("Court 1", "Flo Gu", "Gil Ho", "", "", later),
            ("Court 4", "Ida Ito", "Jo Kim", "Kat Lund", "Lev Marsh", latest)]
    path.write_text("court,playerA,playerB,playerA2,playerB2,round,time\n" + "".join(
        f"{court},{a},{b},{a2},{b2},R1,{at:%H:%M}\n" for court, a, b, a2, b2, at in rows))
    return path


def shoot(console: ConsolePage, shots: Path | None, name: str, *, page: Page | None = None) -> None:
    """A README picture of the step (only when `shots` names a folder)."""
    if shots is None:
        return
    if page is None:
        console.shoot(shots / name)
    else:
        page.wait_for_timeout(1000)
        page.screenshot(path=str(shots / name), full_page=True)
        print(shots / name)


def run_club_day(console: ConsolePage, server: ServerProcess, browser: Browser, workdir: Path, *,
                 shots: Path | None = None) -> None:
    """The club's whole setup, through the console and the public sign-up page (a phone of `browser`) only."""
    page = console.page
    assert server.operator_call("GET", "/operator/broadcasts").json()["data"] == []  # an empty data dir

    # 1. the broadcast and its 4 courts
    console.open("/broadcasts", ready="New broadcast")
    page.get_by_label("Name").first.fill(EVENT)
    page.get_by_label("Courts (one label a line, 1 to 50)").fill("Court 1\nCourt 2\nCourt 3\nCourt 4")
    shoot(console, shots, "club-1-broadcast.png")
    page.get_by_role("button", name="Create broadcast").click()
    expect(page.get_by_text(f"Broadcast {EVENT} created.")).to_be_visible()
    expect(page.get_by_text("Courts: player lists")).to_be_visible()

    # 2. a roster for it: its player list becomes the broadcast's list (every court's, unless a court picks one)
    console.open("/rosters", ready="New roster")
    page.get_by_text("New roster").click()
    page.get_by_label("Name").fill(ROSTER)
    choose(page, "For broadcast", EVENT)
    page.get_by_role("button", name="Create roster").click()
    expect(page.get_by_text(f"Roster {ROSTER} created.")).to_be_visible()

    # 3. 24 players from a CSV, previewed first
    console.open("/players", ready="Import a sheet")
    page.get_by_role("tab", name="Import a sheet").click()
    page.locator("input[type=file]").set_input_files(str(PLAYERS))
    expect(page.get_by_text("24 players ready to add.")).to_be_visible()
    shoot(console, shots, "club-2-players.png")
    page.get_by_role("button", name="Add 24 players").click()
    expect(page.get_by_text(f"Added 24 players to {ROSTER}.")).to_be_visible()

    # 4. self-registration on: the sign-up link and its QR code; one player signs up on a phone
    console.open("/rosters", ready="Self-registration: players sign up from their phone")
    page.get_by_text("Self-registration: players sign up from their phone").click()
    expect(page.get_by_text(f"Self-registration of {ROSTER} is on.")).to_be_visible()
    expect(page.get_by_text(f"Sign-ups: {ROSTER} (0)")).to_be_visible()
    link = page.locator("code").filter(has_text="/register/reg_").first.inner_text().strip()
    phone = browser.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(link)
    phone.fill("input[name=firstName]", "Mima")
    phone.fill("input[name=lastName]", "Ito")
    phone.fill("input[name=clubName]", "Harbour Club")
    phone.locator("button[type=submit]").tap()
    expect(phone.locator(".done")).to_contain_text("Mima Ito")
    shoot(console, shots, "club-4-sign-up.png", page=phone)
    phone.close()
    page.reload()
    expect(page.get_by_text(f"Sign-ups: {ROSTER} (1)")).to_be_visible()
    shoot(console, shots, "club-3-rosters.png")

    # 5. the schedule, with start times on today's date (past 23:57 the first time would fall on tomorrow, which
    # the page's "today" is not: wait for the new day first)
    first = eventually(lambda: today_first_time(datetime.now(UTC)), timeout=240, interval=1)
    console.open("/import", ready="Schedule (CSV or Excel)")
    page.locator("input[type=file]").set_input_files(str(schedule_sheet(workdir / "schedule.csv", first)))
    expect(page.get_by_text("5 matches ready to queue.")).to_be_visible()
    for part, value in (("year", first.year), ("month", first.month), ("day", first.day)):  # today, by default
        expect(page.get_by_role("spinbutton", name=f"{part}, Day of the event")).to_have_attribute(
            "aria-valuenow", str(value))
    shoot(console, shots, "club-5-schedule.png")
    page.get_by_role("button", name="Queue 5 matches").click()
    expect(page.get_by_text(f"Queued 5 matches on {EVENT}.")).to_be_visible()
    tables = {t["label"]: t for t in server.operator_call("GET", "/operator/tables").json()["data"]}
    opening = tables["Court 1"]["queue"][0]
    assert (opening["playerA"], opening["notBefore"]) == ("Ann Lee", first.strftime("%Y-%m-%dT%H:%M:00.000Z"))
    signed_up = tables["Court 3"]["queue"][0]["participants"]["playerB"]
    assert "externalID" in signed_up  # the player who signed up is the list's player, not a typed name

    # 6. the court board: nothing may start before its time; at its time, one click starts the first match
    console.open("/", ready="Court 1")
    expect(page.get_by_text(f"Not before {first:%H:%M}")).to_be_visible()
    expect(page.get_by_role("button", name="Start next: no waiting match may start now")).to_have_count(4)
    early = server.operator_call("POST", f"/operator/tables/{tables['Court 1']['id']}/start-next")
    assert early.status_code == 409 and early.json()["error"]["code"] == "nothing_startable"
    shoot(console, shots, "club-6-board-waiting.png")
    start = page.get_by_role("button", name="Start next: Ann Lee vs Bo Chen · R1")
    wait_ms = (first - datetime.now(UTC)).total_seconds() * 1000 + 15_000  # its time, plus a few refreshes
    expect(start).to_be_visible(timeout=wait_ms)
    start.click()
    expect(page.get_by_text("Started Ann Lee vs Bo Chen · R1 on Court 1.")).to_be_visible()
    active = server.operator_call("GET", "/operator/matches?status=active").json()["data"]
    assert [(m["playerA"], m["playerB"]) for m in active] == [("Ann Lee", "Bo Chen")]
    assert active[0]["startedOn"] >= active[0]["notBefore"]
    shoot(console, shots, "club-7-board-started.png")


@pytest.fixture
def club_console(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, ServerProcess]]:
    """A server on an empty data dir (times in UTC) and a console on it (clock times in UTC too)."""
    monkeypatch.setenv("TZ", "UTC")
    server = ServerProcess(tmp_path / "data", free_port(), dict(os.environ) | {"COURTSIDE_TIME_ZONE": "UTC"})
    assert not server.data_dir.exists()
    server.start()
    try:
        with running_console(server.root, server.data_dir, log=tmp_path / "console.log") as url:
            yield url, server
    except ConsoleDidNotStart as failure:
        pytest.fail(str(failure), pytrace=False)
    finally:
        server.stop()


def test_a_club_sets_up_its_day_in_the_console_alone_and_starts_the_first_match_at_its_time(
        browser: Browser, club_console: tuple[str, ServerProcess], tmp_path: Path) -> None:
    url, server = club_console
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    page.set_default_timeout(30_000)
    run_club_day(ConsolePage(url, page), server, browser, tmp_path)


def test_the_first_time_is_a_whole_minute_at_least_120_seconds_away() -> None:
    now = datetime(2026, 11, 21, 9, 58, 0, tzinfo=UTC)
    assert first_time(now) == datetime(2026, 11, 21, 10, 0, tzinfo=UTC)  # 120 s away
    assert first_time(now.replace(second=1)) == datetime(2026, 11, 21, 10, 1, tzinfo=UTC)  # 10:00 is 119 s away
    assert re.fullmatch(r"\d\d:\d\d", f"{first_time(now):%H:%M}")


def test_late_in_the_evening_every_time_of_the_sheet_stays_on_its_day(tmp_path: Path) -> None:
    """A time of day past midnight would read as this morning, already past: the later matches could start at once."""
    sheet = schedule_sheet(tmp_path / "late.csv", datetime(2026, 11, 21, 23, 14, tzinfo=UTC)).read_text()
    assert [line.rsplit(",", 1)[1] for line in sheet.splitlines()[1:]] == ["23:14", "23:44", "23:44", "23:44",
                                                                           "23:59"]
