"""Contract §9a print views (and §14's sign-in sheet): A4 pages of court schedules, results, the sign-in sheet and
the QR sheet, operator key only, black on white, no controls, and nothing on them but what the paper must show."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from api.routes.operator_print import qr_svg
from domain.clock import FixedClock
from tests.conftest import Api

KINDS = ("schedules", "results", "sign-in", "qr")
UTC = pytest.mark.parametrize("settings", [{"time_zone": "UTC"}], indirect=True)
BERLIN = pytest.mark.parametrize("settings", [{"time_zone": "Europe/Berlin"}], indirect=True)
CONTROLS = re.compile(r"<(script|button|input|form|select|textarea|a)\b", re.IGNORECASE)
SECRET_PREFIXES = ("scr_", "reg_", "evt_", "out_", "svc_", "psn_")


@dataclass
class Club:
    operator: Api
    clock: FixedClock
    broadcast: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.broadcast["id"])

    @property
    def courts(self) -> list[str]:
        return [t["id"] for t in self.broadcast["tables"]]

    def sheet(self, kind: str) -> Any:
        return self.operator.get(f"/operator/broadcasts/{self.id}/print/{kind}")

    def html(self, kind: str) -> str:
        response = self.sheet(kind)
        assert response.status_code == 200, response.data[:500]
        return str(response.get_data(as_text=True))

    def schedule(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        response = self.operator.post("/operator/matches/import", json={"broadcastID": self.id, "rows": rows})
        assert response.status_code == 200, response.json
        return [row["data"] for row in response.json["data"]["results"]]

    def post(self, path: str, body: Any = None) -> Any:
        response = self.operator.post(path, json=body)
        assert response.status_code == 200, response.json
        return response.json["data"]


@pytest.fixture
def club(operator: Api, clock: FixedClock) -> Club:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Open", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    assert response.status_code == 201, response.json
    return Club(operator, clock, response.json["data"])


def sections(page: str) -> list[str]:
    return page.split('<section class="sheet">')[1:]


def ids_in(club: Club, matches: list[dict[str, Any]]) -> list[str]:
    return [club.id, *club.courts, *(m["id"] for m in matches), *(m["externalID"] for m in matches)]


def assert_paper(response: Any) -> str:
    """An A4 portrait page, black on white, self-contained, without a single control."""
    assert response.status_code == 200
    assert response.mimetype == "text/html" and response.mimetype_params["charset"] == "utf-8"
    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    page = str(response.get_data(as_text=True))
    assert "@page { size: A4 portrait;" in page
    assert "html, body { background: #fff; color: #000; }" in page
    assert not CONTROLS.search(page), CONTROLS.search(page)
    assert "http" not in page.split("<body>")[0]  # nothing fetched: no CDN, no font, no stylesheet
    return page


# ------------------------------------------------------------------------------------------------ court schedules
@UTC
def test_court_schedules_print_one_page_per_court_with_not_before_estimates_and_players(club: Club) -> None:
    matches = club.schedule([
        {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim", "event": "Men's singles", "round": "R1",
         "scheduledOn": "2026-11-21T10:30:00Z"},
        {"court": "Court 1", "playerA": "Cy Day", "playerB": "Di Fox", "scheduledOn": "2026-11-21T11:00:00Z"},
        {"court": "Court 2", "playerA": "Ed Ng", "playerA2": "Flo Ray", "playerB": "Gus Poe", "playerB2": "Hal Bo",
         "bestOf": 3},
        {"court": "Court 2", "playerA": "Ivy Orr", "playerB": "Jo Pike"},
    ])
    club.post(f"/operator/matches/{matches[2]['id']}/start")
    club.post(f"/operator/matches/{matches[3]['id']}/call")

    response = club.sheet("schedules")
    page = assert_paper(response)
    first, second = sections(page)
    assert "Court 1" in first and "Court 2" not in first
    assert first.index("Ann Lee") < first.index("Bo Kim") < first.index("Cy Day")
    assert "Men&#39;s singles · R1" in first
    assert re.search(r'<td class="time">10:30</td>', first) and re.search(r'<td class="time">11:00</td>', first)
    assert "2 matches queued" in first
    assert "On court now: <b>Ed Ng / Flo Ray</b>" in second and "Gus Poe / Hal Bo" in second
    assert "started 10:00" in second and "expected end 10:30" in second  # table tennis: typically 30 min (§9, §20)
    assert "Ivy Orr" in second and "called 10:00" in second and "1 match queued" in second
    assert ".sheet { break-after: page; }" in page  # one sheet of paper per court
    for secret in (*ids_in(club, matches), *SECRET_PREFIXES):
        assert secret not in page, secret


@BERLIN
def test_times_are_printed_in_the_event_time_zone(club: Club) -> None:
    club.schedule([{"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim",
                    "scheduledOn": "2026-11-21T10:30:00Z"}])
    page = club.html("schedules")
    assert '<td class="time">11:30</td>' in page
    assert "Printed 11:00" in page and "Saturday 21 November 2026" in page
    assert "No match queued on Court 2" in sections(page)[1]


@UTC
def test_court_schedules_print_the_draws_matches_waiting_for_a_court_in_start_next_order(club: Club) -> None:
    """§9a with §13's court pool (QA walk-through: every court printed "No match queued" on a day run from draws):
    a last page "Waiting for a court" lists the pool in start-next's order with the pool's estimates and call-ups,
    and an empty court's page points to it."""
    made = club.operator.post("/operator/draws", json={
        "broadcastID": club.id, "name": "Open singles", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": name}], "seed": n + 1} for n, name in enumerate(
            ("Ann Lee", "Bo Kim", "Cy Day", "Di Fox", "Ed Ng", "Flo Ray", "Gus Poe", "Hal Bo"))]})
    assert made.status_code == 201, made.json
    club.post(f"/operator/tables/{club.courts[0]}/start-next")
    pool = club.operator.get(f"/operator/broadcasts/{club.id}/pool").json["data"]
    assert len(pool) == 3
    club.post(f"/operator/matches/{pool[2]['id']}/call")
    page = assert_paper(club.sheet("schedules"))
    first, second, waiting = sections(page)
    assert "On court now" in first
    assert "No match queued on Court 2: it takes the next match waiting for a court" in second
    assert "Waiting for a court" in waiting and "3 matches of the draws waiting" in waiting
    rows = waiting.split("<tr>")[2:]
    assert [(m["playerA"] in row and m["playerB"] in row) for m, row in zip(pool, rows, strict=True)] == [True] * 3
    for match, row in zip(pool, rows, strict=True):
        assert f'<td class="time">{match["estimatedStartOn"][11:16]}' in row
    assert "Open singles · Quarterfinal · best of 1" in rows[0] and "called 10:00" in rows[2]
    for secret in (*ids_in(club, pool), *SECRET_PREFIXES):
        assert secret not in page, secret


# ------------------------------------------------------------------------------------------------ results
@UTC
def test_results_print_every_completed_match_with_games_and_the_winner_in_bold(club: Club) -> None:
    first, second, third = club.schedule([
        {"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim", "event": "Open", "round": "Final",
         "bestOf": 3},
        {"court": "Court 2", "playerA": "Cy Day", "playerB": "Di Fox", "bestOf": 1},
        {"court": "Court 2", "playerA": "Ed Ng", "playerB": "Gus Poe", "bestOf": 1},
    ])
    club.post(f"/operator/matches/{first['id']}/start")
    club.clock.advance(25 * 60)
    club.post(f"/operator/matches/{first['id']}/complete",
              {"gameScores": [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 5}]})
    club.clock.advance(60)
    club.post(f"/operator/matches/{second['id']}/walkover", {"winnerSide": "b", "reason": "no_show"})

    page = assert_paper(club.sheet("results"))
    assert "2 completed matches" in page
    assert page.index("Ann Lee") < page.index("Cy Day")  # the order they finished
    assert "<b>Ann Lee</b>" in page and "<b>Bo Kim</b>" not in page
    assert "11-7 9-11 11-5" in page and "2–1" in page and "Open · Final" in page
    assert "<b>Di Fox</b>" in page and "w/o" in page
    assert '<td class="time">10:25</td>' in page
    assert "Ed Ng" not in page  # still queued
    head = club.operator.get("/operator/audit/head").json["data"]  # §16: the paper anchors the audit log
    assert f'<span class="audit">{head["line"]}</span>' in page and head["seq"] > 0
    for secret in (*ids_in(club, [first, second, third]), *SECRET_PREFIXES):
        assert secret not in page, secret


def test_results_of_a_quiet_broadcast_say_so(club: Club) -> None:
    assert "No completed match yet." in club.html("results")


# ------------------------------------------------------------------------------------------------ sign-in sheet
@UTC
def test_sign_in_sheet_lists_everyone_by_surname_with_a_box_and_the_counts(club: Club) -> None:
    matches = club.schedule([
        {"court": "Court 1", "playerA": "Zoe Adams", "playerB": "amy zane"},
        {"court": "Court 2", "playerA": "Bo Kim", "playerB": "Al Kim"},
        {"court": "Court 2", "playerA": "Bo  KIM", "playerB": "Zoe Adams"},  # the same two people (§8a)
    ])
    people = club.operator.get(f"/operator/broadcasts/{club.id}/people").json["data"]
    adams = next(p for p in people if p["name"] == "Zoe Adams")
    club.post(f"/operator/broadcasts/{club.id}/people/{adams['personID']}/check-in", {"present": True})

    page = assert_paper(club.sheet("sign-in"))
    names = re.findall(r'<td class="name">([^<]*)</td>', page)
    assert names == ["Zoe Adams", "Al Kim", "Bo Kim", "amy zane"]
    assert "<b>4</b> expected" in page and "<b>1</b> checked in at 10:00" in page
    ticks = re.findall(r'<span class="tick">([^<]*)</span>', page)
    assert ticks == ["✓", "", "", ""]
    for secret in (*ids_in(club, matches), *SECRET_PREFIXES):
        assert secret not in page, secret


def test_sign_in_sheet_says_when_check_in_is_required(club: Club) -> None:
    club.schedule([{"court": "Court 1", "playerA": "Ann Lee", "playerB": "Bo Kim"}])
    assert "only checked-in players are started" not in club.html("sign-in")
    response = club.operator.patch(f"/operator/broadcasts/{club.id}", json={"eventDay": {"requireCheckIn": True}})
    assert response.status_code == 200
    assert "only checked-in players are started" in club.html("sign-in")


# ------------------------------------------------------------------------------------------------ QR sheet
def test_qr_sheet_shows_every_scorer_link_and_the_open_sign_up_and_event_links(club: Club) -> None:
    roster = club.operator.post("/operator/rosters", json={
        "broadcastID": club.id, "name": "Club members", "type": "individual", "selfRegistrationEnabled": True})
    assert roster.status_code == 201, roster.json
    closed = club.operator.post("/operator/rosters", json={"name": "Last year", "type": "individual"})
    assert closed.status_code == 201
    scorers = [club.operator.get(f"/operator/tables/{court}/scorer").json["data"]["url"] for court in club.courts]
    sign_up = club.operator.get(f"/operator/rosters/{roster.json['data']['id']}/registration").json["data"]["url"]
    event = club.post(f"/operator/broadcasts/{club.id}/event-page/enable")["url"]

    page = assert_paper(club.sheet("qr"))
    for url in (*scorers, sign_up, event):
        assert url in page and qr_svg(url) in page  # the QR code is of that very link
    assert page.index("Court 1") < page.index("Court 2")
    assert "Club members" in page and "Last year" not in page
    assert page.count("<svg") == 4
    assert "hand it to the court's umpire" in page


def test_qr_sheet_leaves_out_closed_pages_and_marks_a_revoked_court(club: Club) -> None:
    revoked = club.operator.get(f"/operator/tables/{club.courts[1]}/scorer").json["data"]["url"]
    assert club.operator.delete(f"/operator/tables/{club.courts[1]}/scorer").status_code == 200
    event = club.operator.get(f"/operator/broadcasts/{club.id}/event-page").json["data"]["url"]

    page = assert_paper(club.sheet("qr"))
    assert page.count("<svg") == 1
    assert revoked not in page and event not in page and "Sign up" not in page
    assert "Link revoked: make a new one on the Phones page." in page


def test_qr_sheet_falls_back_to_every_open_roster_when_none_feeds_the_broadcast(club: Club) -> None:
    roster = club.operator.post("/operator/rosters", json={"name": "Walk-ins", "type": "individual",
                                                           "selfRegistrationEnabled": True}).json["data"]
    url = club.operator.get(f"/operator/rosters/{roster['id']}/registration").json["data"]["url"]
    page = club.html("qr")
    assert "Walk-ins" in page and qr_svg(url) in page


# ------------------------------------------------------------------------------------------------ hostile names
@pytest.mark.parametrize("kind", KINDS)
def test_names_are_printed_as_text_never_as_markup(operator: Api, clock: FixedClock, kind: str) -> None:
    response = operator.post("/operator/broadcasts", json={
        "name": "<i>Open</i>", "tables": [{"label": "<b>Court</b>"}]})
    assert response.status_code == 201, response.json
    club = Club(operator, clock, response.json["data"])
    match = club.schedule([{"court": "<b>Court</b>", "playerA": "<script>alert(1)</script>",
                            "playerB": "Bo \"Kim\" & <img src=x>", "event": "<a href=x>Cup</a>"}])[0]
    club.post(f"/operator/matches/{match['id']}/start")
    club.post(f"/operator/matches/{match['id']}/complete", {"gameScores": [{"a": 11, "b": 3}] * 3})
    club.schedule([{"court": "<b>Court</b>", "playerA": "<script>alert(1)</script>", "playerB": "Di Fox"}])

    page = assert_paper(club.sheet(kind))  # no <script>, <a>, ... got through
    assert "&lt;i&gt;Open&lt;/i&gt;" in page and "<img" not in page and "<i>Open" not in page
    if kind != "sign-in":
        assert "&lt;b&gt;Court&lt;/b&gt;" in page
    if kind in ("schedules", "sign-in", "results"):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# ------------------------------------------------------------------------------------------------ who may print
@pytest.mark.parametrize("kind", KINDS)
def test_print_views_are_operator_only_and_404_for_an_unknown_broadcast(club: Club, partner: Api, kind: str) -> None:
    path = f"/operator/broadcasts/{club.id}/print/{kind}"
    anonymous = club.operator.get(path, token=None)
    assert anonymous.status_code == 401 and anonymous.json["error"]["code"] == "authentication_required"
    refused = partner.get(path)
    assert refused.status_code == 401 and refused.json["error"]["code"] == "invalid_token"
    missing = club.operator.get(f"/operator/broadcasts/brd_missing/print/{kind}")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"


def test_an_unknown_kind_of_print_view_is_404(club: Club) -> None:
    assert club.operator.get(f"/operator/broadcasts/{club.id}/print/poster").status_code == 404


LOOPBACK_WORDS = "Do not hand these out.</b> These links name this computer only (127.0.0.1)"


def test_a_qr_sheet_of_links_only_this_computer_opens_carries_the_warning_on_the_paper(club: Club) -> None:
    """Issue 35: the console warned about loopback-only links on screen, but the printed QR sheet went out silent."""
    url = club.operator.get(f"/operator/tables/{club.courts[0]}/scorer").json["data"]["url"]
    assert url.startswith("http://localhost/")
    page = assert_paper(club.sheet("qr"))
    assert LOOPBACK_WORDS in page and page.index(LOOPBACK_WORDS) < page.index("For umpires")


@pytest.mark.parametrize("settings", [{"public_url": "http://192.168.1.20:8000"}], indirect=True)
def test_a_qr_sheet_of_venue_network_links_has_no_such_warning(club: Club) -> None:
    page = assert_paper(club.sheet("qr"))
    assert "http://192.168.1.20:8000/score/" in page and LOOPBACK_WORDS not in page
