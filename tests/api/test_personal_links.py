"""Contract §21: players' own links. One link per person of a broadcast (made on first read, rotated: the old one
404s at once, unknown keys 404 alike), the page with the person's state in its HTML, and the state feed with
ETag/304: called, current, next, results, nothing of anyone else."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from tests.conftest import Api


@dataclass
class Day:
    operator: Api
    client: Any
    broadcast: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.broadcast["id"])

    @property
    def tables(self) -> list[str]:
        return [t["id"] for t in self.broadcast["tables"]]

    def match(self, a: str, b: str, table: int = 0, **extra: Any) -> dict[str, Any]:
        body = {"tableID": self.tables[table], "playerA": {"manualName": a}, "playerB": {"manualName": b}} | extra
        response = self.operator.post("/operator/matches", json=body)
        assert response.status_code == 201, response.json
        return dict(response.json["data"])

    def person(self, name: str) -> str:
        response = self.operator.get(f"/operator/broadcasts/{self.id}/people")
        assert response.status_code == 200, response.json
        return next(str(p["personID"]) for p in response.json["data"] if p["name"] == name)

    def link(self, name: str) -> dict[str, Any]:
        response = self.operator.get(f"/operator/broadcasts/{self.id}/people/{self.person(name)}/link")
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def rotate(self, name: str) -> dict[str, Any]:
        response = self.operator.post(f"/operator/broadcasts/{self.id}/people/{self.person(name)}/link/rotate")
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    @staticmethod
    def path(url: str) -> str:
        return "/me/" + url.rsplit("/me/", 1)[1]

    def state(self, url: str, **headers: str) -> Any:
        return self.client.get(self.path(url) + "/state", headers=headers)

    def data(self, url: str) -> dict[str, Any]:
        response = self.state(url)
        assert response.status_code == 200, response.json
        return dict(response.json["data"])


@pytest.fixture
def day(operator: Api, app: Flask) -> Day:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Day", "tables": [{"label": "Court 1"}, {"label": "Court 3"}]})
    assert response.status_code == 201, response.json
    return Day(operator, app.test_client(), response.json["data"])


def test_a_person_gets_one_ply_link_made_on_first_read(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    link = day.link("Ann Lee")
    assert set(link) == {"personID", "url", "createdOn"}
    assert link["personID"] == day.person("Ann Lee")
    assert re.fullmatch(r"http://localhost/me/ply_[A-Za-z0-9_-]{43}", link["url"])
    assert day.link("Ann Lee") == link
    assert day.link("Bo Kim")["url"] != link["url"]
    assert day.state(link["url"]).status_code == 200


def test_rotating_kills_the_old_link_at_once_and_is_audited(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    old = day.link("Ann Lee")["url"]
    assert day.data(old)["person"]["name"] == "Ann Lee"
    new = day.rotate("Ann Lee")["url"]
    assert new != old and day.link("Ann Lee")["url"] == new
    for path in ("", "/state"):
        gone = day.client.get(day.path(old) + path)
        assert gone.status_code == 404
    assert day.client.post(day.path(old) + "/check-in", json={}).status_code == 404
    assert day.data(new)["person"]["name"] == "Ann Lee"
    entries = day.operator.get("/operator/audit", query_string={"targetType": "link"}).json["data"]
    rotated = [e for e in entries if e["action"] == "link.rotated"]
    assert len(rotated) == 1 and "ply_" not in str(rotated[0])


def test_unknown_keys_answer_404_alike(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    real = day.path(day.link("Ann Lee")["url"])
    forged = real[:-4] + ("AAAA" if not real.endswith("AAAA") else "BBBB")
    answers = []
    for path in (forged, "/me/ply_short", "/me/evt_" + "a" * 43, "/me/" + "x" * 300):
        page, feed = day.client.get(path), day.client.get(path + "/state")
        assert page.status_code == 404 and page.mimetype == "text/html"
        assert feed.status_code == 404
        answers.append((feed.json["error"]["code"], feed.json["error"]["message"]))
    assert len(set(answers)) == 1 and answers[0][0] == "not_found"


def test_an_unknown_person_or_broadcast_has_no_link(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    missing = day.operator.get(f"/operator/broadcasts/{day.id}/people/psn_00000000000000000000/link")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"
    other = day.operator.get(f"/operator/broadcasts/brd_nope/people/{day.person('Ann Lee')}/link")
    assert other.status_code == 404
    rotate = day.operator.post(f"/operator/broadcasts/{day.id}/people/psn_00000000000000000000/link/rotate")
    assert rotate.status_code == 404


def test_links_need_the_operator_key(day: Day, partner: Api) -> None:
    day.match("Ann Lee", "Bo Kim")
    answer = partner.get(f"/operator/broadcasts/{day.id}/people/{day.person('Ann Lee')}/link")
    assert answer.status_code in (401, 403)


def test_state_has_current_next_results_and_the_call(day: Day) -> None:
    first = day.match("Ann Lee", "Bo Kim", eventName="Singles")
    second = day.match("Cy Diaz", "Ann Lee", table=1)
    day.match("Di Evans", "Ed Fox")
    url = day.link("Ann Lee")["url"]
    state = day.data(url)
    assert set(state) >= {"version", "person", "called", "current", "next", "results", "reports", "selfCheckIn",
                          "selfReport"}
    assert state["person"] == {"name": "Ann Lee", "club": None, "checkedIn": False}
    assert state["called"] is None and state["current"] is None and state["results"] == []
    assert [c["matchID"] for c in state["next"]] == [first["id"], second["id"]]
    assert state["next"][1]["side"] == "b" and state["next"][1]["court"] == "Court 3"
    assert state["selfCheckIn"] is False and state["selfReport"] is False and state["reports"] == []

    assert day.operator.post(f"/operator/matches/{second['id']}/call").status_code == 200
    called = day.data(url)
    assert called["called"]["matchID"] == second["id"] and called["called"]["court"] == "Court 3"
    assert called["next"][0]["matchID"] == second["id"]  # the called match comes first

    assert day.operator.post(f"/operator/matches/{first['id']}/start", json={"force": True}).status_code == 200
    playing = day.data(url)
    assert playing["current"]["matchID"] == first["id"]
    done = day.operator.post(f"/operator/matches/{first['id']}/result",
                             json={"gameScores": [{"a": 11, "b": 5}, {"a": 11, "b": 7}, {"a": 11, "b": 2}]})
    assert done.status_code == 200, done.json
    finished = day.data(url)
    assert finished["current"] is None
    assert [c["matchID"] for c in finished["results"]] == [first["id"]]
    assert finished["results"][0]["winner"] == "a"
    text = str(finished)
    assert "Di Evans" not in text and "Ed Fox" not in text  # nothing of anyone else's matches


def test_state_feed_answers_304_while_unchanged(day: Day) -> None:
    made = day.match("Ann Lee", "Bo Kim")
    url = day.link("Ann Lee")["url"]
    first = day.state(url)
    etag = first.headers["ETag"]
    assert first.json["data"]["version"] == etag.strip('"')
    again = day.state(url, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    day.operator.post(f"/operator/matches/{made['id']}/call")
    changed = day.state(url, **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_the_pages_of_a_broadcast_share_one_view_built_once_per_change(day: Day, app: Flask) -> None:
    """After a write, the first page polled walks the broadcast (its people, every match and card); every other
    page of the broadcast picks its own from that view (read counts, not times: 300 open pages must not cost 300
    walks, bench/bench_personal_pages.py)."""
    names = [f"Player {chr(65 + n)}" for n in range(24)]
    made = [day.match(names[n], names[n + 1], table=n // 2 % 2) for n in range(0, 24, 2)]
    urls = [day.link(name)["url"] for name in names]
    store = app.services.store  # type: ignore[attr-defined]

    def reads(url: str) -> int:
        before = store.reads
        assert day.state(url).status_code == 200
        return int(store.reads - before)

    assert day.operator.post(f"/operator/matches/{made[3]['id']}/call").status_code == 200  # every state is new
    first = reads(urls[0])
    others = [reads(url) for url in urls[1:8]]
    # each of the others reads its own link and reports only; PostgreSQL's change notification of the call may
    # arrive after the first poll and move the stamp once more (one more walk)
    assert sum(1 for count in others if count * 4 < first) >= len(others) - 1, (first, others)
    assert day.data(urls[7])["called"]["court"] == "Court 3"  # Player H, called to Court 3
    assert [c["sides"][1]["names"] for c in day.data(urls[9])["next"]] == [["Player J"]]
    assert day.data(urls[9])["called"] is None


def test_the_page_has_its_state_in_the_html_with_a_strict_policy(day: Day) -> None:
    made = day.match("Ann Lee", "Bo Kim", table=1)
    day.operator.post(f"/operator/matches/{made['id']}/call")
    url = day.link("Bo Kim")["url"]
    page = day.client.get(day.path(url))
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Called to Court 3" in html and "Ann Lee" in html
    assert 'src="assets/me.js"' in html and "http" not in html.split("<body", 1)[1].split(">", 1)[1].split("<script")[0]
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert page.headers["Referrer-Policy"] == "no-referrer" and page.headers["Cache-Control"] == "no-store"
    script = day.client.get("/me/assets/me.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"


def test_patching_event_day_in_part_keeps_the_other_keys(day: Day) -> None:
    patched = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"eventDay": {"restMinutes": 15}})
    assert patched.status_code == 200, patched.json
    patched = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"eventDay": {"selfCheckIn": True}})
    assert patched.json["data"]["eventDay"] == {"requireCheckIn": False, "restMinutes": 15, "selfCheckIn": True,
                                                "selfReport": False, "selfReportConfirmMinutes": 10}
    bad = day.operator.patch(f"/operator/broadcasts/{day.id}", json={"eventDay": {"selfReportConfirmMinutes": 121}})
    assert bad.status_code == 400 or bad.status_code == 422


def test_player_cards_print_each_persons_link_as_a_qr(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    page = day.operator.get(f"/operator/broadcasts/{day.id}/print/player-cards")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    for name in ("Ann Lee", "Bo Kim"):
        assert day.link(name)["url"] in html  # the same link the operator reads (made on first print)
    assert html.index("Bo Kim") < html.index("Ann Lee")  # by surname: Kim, Lee
    assert html.count("<svg") == 2
    assert day.operator.get("/operator/broadcasts/brd_nope/print/player-cards").status_code == 404


def test_the_sign_in_sheet_carries_each_persons_link(day: Day) -> None:
    day.match("Ann Lee", "Bo Kim")
    page = day.operator.get(f"/operator/broadcasts/{day.id}/print/sign-in")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Own page" in html and html.count("<svg") == 2
    assert html.index("Bo Kim") < html.index("Ann Lee")
    link = day.link("Ann Lee")["url"]  # the link the QR was made of stays the person's link
    assert day.state(link).status_code == 200


def test_a_card_says_how_many_games_its_match_may_have(day: Day) -> None:
    """The page's report form has one row per game (or set) the match may have: a best of 5 needs 5."""
    day.match("Ann Lee", "Bo Kim", bestOf=5)
    day.match("Ann Lee", "Cy Day", bestOf=1, table=1)
    url = day.link("Ann Lee")["url"]
    assert sorted(card["bestOf"] for card in day.data(url)["next"]) == [1, 5]
