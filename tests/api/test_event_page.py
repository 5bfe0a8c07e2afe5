"""Contract §15: the public event page. One link per broadcast (enable, disable, rotate), the page with its state in
the HTML, the state and person feeds with ETag/304, one shared snapshot per change, nothing but display data;
and §14's call-up, which the page shows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from domain.clock import FixedClock
from storage.backend import AnyStore
from tests.conftest import Api
from tests.eventually import eventually

ID_PATTERN = re.compile(r"\b(?:brd|tbl|mat|op|pl|ply|ros|conn|app|outp|scr|out|reg)_[A-Za-z0-9_-]+")


@dataclass
class Event:
    operator: Api
    client: Any
    broadcast: dict[str, Any]

    @property
    def tables(self) -> list[str]:
        return [t["id"] for t in self.broadcast["tables"]]

    def link(self) -> dict[str, Any]:
        response = self.operator.get(f"/operator/broadcasts/{self.broadcast['id']}/event-page")
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def act(self, what: str) -> dict[str, Any]:
        response = self.operator.post(f"/operator/broadcasts/{self.broadcast['id']}/event-page/{what}")
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def path(self, url: str) -> str:
        return "/event/" + url.rsplit("/event/", 1)[1]

    def match(self, a: str, b: str, table: int = 0, **extra: Any) -> dict[str, Any]:
        body = {"tableID": self.tables[table], "playerA": {"manualName": a}, "playerB": {"manualName": b}} | extra
        response = self.operator.post("/operator/matches", json=body)
        assert response.status_code == 201, response.json
        return dict(response.json["data"])

    def state(self, url: str, **headers: str) -> Any:
        return self.client.get(self.path(url) + "/state", headers=headers)


@pytest.fixture
def event(operator: Api, app: Flask) -> Event:
    response = operator.post("/operator/broadcasts", json={
        "name": "Club Open 2026", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]})
    assert response.status_code == 201, response.json
    return Event(operator, app.test_client(), response.json["data"])


def open_page(event: Event) -> str:
    return str(event.act("enable")["url"])


def test_event_page_link_is_made_closed_with_an_evt_key(event: Event) -> None:
    link = event.link()
    assert set(link) == {"broadcastID", "enabled", "url", "createdOn"}
    assert link["enabled"] is False
    assert re.fullmatch(r"http://localhost/event/evt_[A-Za-z0-9_-]{43}", link["url"])
    assert event.client.get(event.path(link["url"])).status_code == 404
    assert event.state(link["url"]).status_code == 404


def test_enable_opens_the_same_link_and_disable_closes_it_at_once(event: Event) -> None:
    url = event.link()["url"]
    assert event.act("enable") | {"createdOn": None} == event.link() | {"createdOn": None}
    assert event.link()["enabled"] is True
    assert event.client.get(event.path(url)).status_code == 200
    assert event.act("disable")["url"] == url
    assert event.client.get(event.path(url)).status_code == 404
    assert event.state(url).status_code == 404
    again = event.act("enable")
    assert again["url"] == url and again["enabled"] is True
    assert event.state(url).status_code == 200


def test_rotate_kills_the_old_link_at_once(event: Event) -> None:
    old = open_page(event)
    assert event.state(old).status_code == 200
    new = event.act("rotate")
    assert new["url"] != old and new["enabled"] is True
    assert event.state(old).status_code == 404
    assert event.client.get(event.path(old)).status_code == 404
    assert event.state(new["url"]).status_code == 200


def test_unknown_keys_and_other_accounts_broadcasts_are_404(event: Event) -> None:
    open_page(event)
    for path in ("/event/evt_" + "x" * 43, "/event/nothing", "/event/evt_" + "x" * 43 + "/state",
                 "/event/evt_" + "x" * 43 + "/people/psn_0000"):
        response = event.client.get(path)
        assert response.status_code == 404, path
    missing = event.operator.get("/operator/broadcasts/brd_missing/event-page")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "not_found"


def test_event_page_routes_need_the_operator_key(event: Event, partner: Api) -> None:
    response = partner.get(f"/operator/broadcasts/{event.broadcast['id']}/event-page")
    assert response.status_code == 401
    assert response.json["error"]["code"] == "invalid_token"


def test_state_feed_shape_with_etag_and_304_while_unchanged(event: Event) -> None:
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen", eventName="Open singles", matchRound="Round 1")
    response = event.state(url)
    assert response.status_code == 200
    data = response.json["data"]
    assert list(data) == ["version", "event", "courts", "waiting", "draws", "results", "people"]
    assert data["waiting"] == {"matches": [], "more": 0}
    assert data["event"] == {"name": "Club Open 2026"}
    assert [c["label"] for c in data["courts"]] == ["Court 1", "Court 2"]
    assert response.headers["ETag"] == f'"{data["version"]}"'
    unchanged = event.state(url, **{"If-None-Match": response.headers["ETag"]})
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == response.headers["ETag"]
    assert unchanged.data == b""
    event.match("Cy Diaz", "Di Evans")
    changed = event.state(url, **{"If-None-Match": response.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != response.headers["ETag"]


def test_now_shows_each_courts_match_score_and_up_next_with_estimates(event: Event) -> None:
    url = open_page(event)
    live = event.match("Ann Lee", "Bo Chen")
    event.match("Cy Diaz", "Di Evans")
    assert event.operator.post(f"/operator/matches/{live['id']}/start").status_code == 200
    assert event.operator.post(f"/operator/matches/{live['id']}/score",
                               json={"gameScores": [{"a": 11, "b": 7}, {"a": 3, "b": 2}]}).status_code == 200
    court = event.state(url).json["data"]["courts"][0]
    assert court["match"]["status"] == "active"
    assert [s["names"] for s in court["match"]["sides"]] == [["Ann Lee"], ["Bo Chen"]]
    assert [s["games"] for s in court["match"]["sides"]] == [1, 0]
    assert court["match"]["currentGame"] == {"a": 3, "b": 2}
    assert [s["names"] for s in court["upNext"][0]["sides"]] == [["Cy Diaz"], ["Di Evans"]]
    assert court["upNext"][0]["estimatedStartOn"].endswith("Z")


def test_people_are_one_row_per_person_under_the_name_rule(event: Event) -> None:
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    event.match("ann  lee", "Cy Diaz", table=1)
    people = event.state(url).json["data"]["people"]
    assert [p["name"] for p in people] == ["Ann Lee", "Bo Chen", "Cy Diaz"]
    assert all(re.fullmatch(r"psn_[0-9a-f]{20}", p["personID"]) and set(p) == {"personID", "name", "club"}
               for p in people)


def test_person_feed_gives_next_match_court_estimate_call_up_and_results(event: Event) -> None:
    url = open_page(event)
    first = event.match("Ann Lee", "Bo Chen")
    second = event.match("Cy Diaz", "Ann Lee", table=1)
    ann = next(p for p in event.state(url).json["data"]["people"] if p["name"] == "Ann Lee")
    path = event.path(url) + f"/people/{ann['personID']}"
    mine = event.client.get(path)
    assert mine.status_code == 200 and mine.headers["ETag"]
    data = mine.json["data"]
    assert data["person"] == ann and data["current"] is None and data["finished"] == []
    assert data["next"]["court"] in ("Court 1", "Court 2") and data["next"]["estimatedStartOn"]
    assert len(data["upcoming"]) == 2
    assert event.client.get(path, headers={"If-None-Match": mine.headers["ETag"]}).status_code == 304

    called = event.operator.post(f"/operator/matches/{second['id']}/call")
    assert called.status_code == 200 and called.json["data"]["calledOn"].endswith("Z")
    data = event.client.get(path).json["data"]
    assert data["next"]["court"] == "Court 2" and data["next"]["calledOn"] == called.json["data"]["calledOn"]
    assert data["next"]["side"] == "b"
    assert event.state(url).json["data"]["courts"][1]["called"][0]["calledOn"] == data["next"]["calledOn"]

    assert event.operator.post(f"/operator/matches/{first['id']}/start").status_code == 200
    assert event.client.get(path).json["data"]["current"]["court"] == "Court 1"
    done = event.operator.post(f"/operator/matches/{first['id']}/complete",
                               json={"gameScores": [{"a": 11, "b": 5}] * 3})
    assert done.status_code == 200
    data = event.client.get(path).json["data"]
    assert data["current"] is None
    assert data["finished"][0]["winner"] == "a" and data["finished"][0]["side"] == "a"
    assert data["finished"][0]["games"] == [{"a": 11, "b": 5}] * 3
    results = event.state(url).json["data"]["results"]
    assert [[s["names"] for s in r["sides"]] for r in results] == [[["Ann Lee"], ["Bo Chen"]]]


def test_a_walkover_or_retirement_shows_its_recorded_winner_not_the_games_leader(event: Event) -> None:
    """A walkover has no games and a retirement may leave the retiring side ahead: the page names `winnerSide`."""
    url = open_page(event)
    no_show = event.match("Ann Lee", "Bo Chen")
    retired = event.match("Cy Diaz", "Di Evans", table=1)
    walkover = event.operator.post(f"/operator/matches/{no_show['id']}/walkover",
                                   json={"winnerSide": "b", "reason": "no_show"})
    assert walkover.status_code == 200, walkover.json
    assert event.operator.post(f"/operator/matches/{retired['id']}/start").status_code == 200
    scored = event.operator.post(f"/operator/matches/{retired['id']}/score", json={"gameScores": [{"a": 11, "b": 3}]})
    assert scored.status_code == 200, scored.json
    retirement = event.operator.post(f"/operator/matches/{retired['id']}/walkover",
                                     json={"winnerSide": "b", "reason": "retired"})
    assert retirement.status_code == 200 and retirement.json["data"]["resultType"] == "retired"
    results = event.state(url).json["data"]["results"]
    assert {r["sides"][1]["names"][0]: r["winner"] for r in results} == {"Bo Chen": "b", "Di Evans": "b"}
    assert {r["sides"][1]["names"][0]: r["result"] for r in results} == {"Bo Chen": "w/o", "Di Evans": "ret."}
    di = next(p for p in event.state(url).json["data"]["people"] if p["name"] == "Di Evans")
    finished = event.client.get(event.path(url) + f"/people/{di['personID']}").json["data"]["finished"]
    assert [(f["winner"], f["side"]) for f in finished] == [("b", "b")]


def test_unknown_person_is_404(event: Event) -> None:
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    response = event.client.get(event.path(url) + "/people/psn_00000000000000000000")
    assert response.status_code == 404 and response.json["error"]["code"] == "not_found"


def test_call_only_a_pending_match_and_calling_again_updates_called_on(event: Event, clock: FixedClock) -> None:
    match = event.match("Ann Lee", "Bo Chen")
    first = event.operator.post(f"/operator/matches/{match['id']}/call").json["data"]["calledOn"]
    clock.advance(seconds=60)
    second = event.operator.post(f"/operator/matches/{match['id']}/call").json["data"]["calledOn"]
    assert second > first
    assert event.operator.post(f"/operator/matches/{match['id']}/start").status_code == 200
    refused = event.operator.post(f"/operator/matches/{match['id']}/call")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "match_not_pending"
    assert "calledOn" not in event.operator.get(f"/operator/matches?tableID={event.tables[0]}").json["data"][0]
    assert event.operator.post("/operator/matches/mat_missing/call").status_code == 404


def test_unchanged_state_is_served_without_touching_storage(event: Event, store: AnyStore,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    assert event.state(url).status_code == 200
    opened: list[int] = []
    transaction = type(store).transaction

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(1)
        return transaction(self, *args, **kwargs)

    monkeypatch.setattr(type(store), "transaction", counted)

    def served_from_memory() -> bool:
        """One round of reads of the unchanged page: the state, its 304 and the HTML, none opening a transaction.
        (PostgreSQL learns of its own commits by notification, a moment later: until then a round may rebuild.)"""
        opened.clear()
        first = event.state(url)
        again = event.state(url)
        assert first.status_code == again.status_code == 200 and again.data == first.data
        assert event.state(url, **{"If-None-Match": first.headers["ETag"]}).status_code == 304
        assert event.client.get(event.path(url)).status_code == 200
        return not opened

    eventually(served_from_memory, timeout=10)


def test_page_carries_its_state_and_only_display_data(event: Event) -> None:
    url = open_page(event)
    event.match("Ann <b>Lee</b>", "Bo Chen", eventName="Open singles")
    page = event.client.get(event.path(url))
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Club Open 2026" in html and "Ann \\u003cb>Lee\\u003c/b>" in html and "<b>Lee" not in html
    assert 'id="state"' in html and "assets/event.js" in html
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert page.headers["Referrer-Policy"] == "no-referrer"
    feed = event.state(url).get_data(as_text=True)
    assert ID_PATTERN.search(feed) is None, ID_PATTERN.search(feed)
    assert "evt_" not in feed
    script = event.client.get("/event/assets/event.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert "innerHTML" not in script.get_data(as_text=True)


def test_a_held_etag_is_answered_304_with_the_feed_headers_and_a_closed_link_refuses_it_at_once(
        event: Event) -> None:
    """300 phones polling with the ETag they hold get their 304 from the kept snapshot (before the app routes
    the request), with the same headers as any feed answer; rotate and disable still end the link at once."""
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    first = event.state(url)
    ann = next(p for p in first.json["data"]["people"] if p["name"] == "Ann Lee")
    person = event.client.get(event.path(url) + f"/people/{ann['personID']}")
    assert person.status_code == 200
    for path, tag in ((event.path(url) + "/state", first.headers["ETag"]),
                      (event.path(url) + f"/people/{ann['personID']}", person.headers["ETag"])):
        unchanged = event.client.get(path, headers={"If-None-Match": tag})
        assert unchanged.status_code == 304 and unchanged.data == b""
        assert unchanged.headers["ETag"] == tag
        assert unchanged.headers["Cache-Control"] == "no-cache"
        assert unchanged.headers["X-Content-Type-Options"] == "nosniff"
        assert unchanged.headers["Service-Request-ID"]
    assert event.state(url, **{"If-None-Match": '"not-the-tag"'}).status_code == 200
    event.act("disable")
    assert event.state(url, **{"If-None-Match": first.headers["ETag"]}).status_code == 404
    event.act("enable")
    rotated = event.act("rotate")
    assert event.state(url, **{"If-None-Match": first.headers["ETag"]}).status_code == 404
    assert event.state(rotated["url"]).status_code == 200


def make_knockout(event: Event) -> dict[str, Any]:
    made = event.operator.post("/operator/draws", json={
        "broadcastID": event.broadcast["id"], "name": "Open singles", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": name}], "seed": n + 1}
                                     for n, name in enumerate(("Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"))]})
    assert made.status_code == 201, made.json
    return dict(made.json["data"])


def test_draws_are_on_the_page_as_brackets_with_results_and_no_ids(event: Event) -> None:
    """§15 Draws (§13 views): each draw of the broadcast as a bracket, rounds as columns, each match pointing at
    the one its winner goes to, names and games won only; a result moves the winner on at once."""
    url = open_page(event)
    draw = make_knockout(event)
    shown = event.state(url).json["data"]["draws"]
    assert [d["name"] for d in shown] == ["Open singles"]
    [bracket] = shown[0]["brackets"]
    assert [len(r["matches"]) for r in bracket["rounds"]] == [2, 1]
    assert [[s["name"] for s in m["sides"]] for m in bracket["rounds"][0]["matches"]] == [
        ["Ann Lee", "Di Evans"], ["Bo Chen", "Cy Diaz"]]
    assert [m["next"] for m in bracket["rounds"][0]["matches"]] == [[1, 0], [1, 0]]
    assert [s["name"] for s in bracket["rounds"][1]["matches"][0]["sides"]] == [None, None]
    etag = event.state(url).headers["ETag"]

    semi = draw["rounds"][0]["drawMatches"][0]["matchID"]
    assert event.operator.post(f"/operator/tables/{event.tables[0]}/start-next").status_code == 200
    done = event.operator.post(f"/operator/matches/{semi}/complete", json={"gameScores": [{"a": 11, "b": 6}]})
    assert done.status_code == 200, done.json
    after = event.state(url, **{"If-None-Match": etag})
    assert after.status_code == 200  # the draw changed: a new state, not a 304
    bracket = after.json["data"]["draws"][0]["brackets"][0]
    first = bracket["rounds"][0]["matches"][0]
    assert [(s["name"], s["winner"], s["games"]) for s in first["sides"]] == [
        ("Ann Lee", True, 1), ("Di Evans", False, 0)]
    assert bracket["rounds"][1]["matches"][0]["sides"][0]["name"] == "Ann Lee"
    assert not ID_PATTERN.search(after.get_data(as_text=True))


def test_a_draws_match_waiting_for_a_court_is_in_my_matches(event: Event) -> None:
    """§15 My matches with §13's court pool: a draw's match with no court yet is the player's next match,
    "waiting for a court" (no court named)."""
    url = open_page(event)
    make_knockout(event)
    people = {p["name"]: p["personID"] for p in event.state(url).json["data"]["people"]}
    assert set(people) >= {"Ann Lee", "Bo Chen", "Cy Diaz", "Di Evans"}
    mine = event.client.get(event.path(url) + f"/people/{people['Bo Chen']}")
    assert mine.status_code == 200, mine.json
    nxt = mine.json["data"]["next"]
    assert nxt["court"] is None and nxt["pool"] is True and nxt["status"] == "pending"
    assert nxt["estimatedStartOn"]  # both courts free: the pool's first two matches can start now
    assert [s["names"] for s in nxt["sides"]] == [["Bo Chen"], ["Cy Diaz"]]


def test_now_lists_the_draws_matches_waiting_for_a_court_with_estimates_and_call_up(event: Event) -> None:
    """§15 Now with §13's court pool (QA walk-through: a day run from draws showed nothing up next): the pool's
    matches in start-next's order, each with its estimate, "called" once called, display data only; a match leaves
    the list when a court takes it; past `WAITING` the page says how many more."""
    url = open_page(event)
    made = event.operator.post("/operator/draws", json={
        "broadcastID": event.broadcast["id"], "name": "Open singles", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": f"Player {n:02d}"}]} for n in range(32)]})
    assert made.status_code == 201, made.json
    pool = event.operator.get(f"/operator/broadcasts/{event.broadcast['id']}/pool").json["data"]
    assert len(pool) == 16
    data = event.state(url).json["data"]
    assert all(court["upNext"] == [] for court in data["courts"])
    waiting = data["waiting"]
    assert waiting["more"] == 4 and len(waiting["matches"]) == 12
    assert [[s["names"][0] for s in m["sides"]] for m in waiting["matches"]] == [
        [p["playerA"], p["playerB"]] for p in pool[:12]]
    assert all(m["estimatedStartOn"] and m["court"] is None and m["round"] == "Round of 32"
               for m in waiting["matches"])
    assert [m["estimatedStartOn"] for m in waiting["matches"]] == sorted(m["estimatedStartOn"]
                                                                      for m in waiting["matches"])
    assert event.operator.post(f"/operator/matches/{pool[1]['id']}/call").status_code == 200
    assert event.operator.post(f"/operator/tables/{event.tables[0]}/start-next").json["data"]["id"] == pool[0]["id"]
    after = event.state(url)
    waiting = after.json["data"]["waiting"]
    assert waiting["more"] == 3 and waiting["matches"][0]["calledOn"] is not None
    assert [m["sides"][0]["names"][0] for m in waiting["matches"]] == [p["playerA"] for p in pool[1:13]]
    assert not ID_PATTERN.search(after.get_data(as_text=True))


def test_a_kept_snapshot_is_served_with_the_body_and_headers_the_view_gave(event: Event) -> None:
    """§8a: after the first poll built the snapshot, every later poll (a phone holding an older state, or none) is
    answered from memory before the app routes it: byte for byte the view's body, with the view's headers."""
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    built = event.state(url)  # the view builds and keeps the snapshot
    ann = next(p for p in built.json["data"]["people"] if p["name"] == "Ann Lee")
    person_path = event.path(url) + f"/people/{ann['personID']}"
    person_built = event.client.get(person_path)
    for first, again in ((built, event.state(url, **{"If-None-Match": '"an-older-state"'})),
                         (person_built, event.client.get(person_path))):
        assert again.status_code == 200 and again.data == first.data
        assert sorted(again.headers.keys()) == sorted(first.headers.keys())
        for name in ("ETag", "Content-Type", "Content-Length", "Cache-Control", "X-Content-Type-Options"):
            assert again.headers[name] == first.headers[name], name
        assert again.headers["Service-Request-ID"] != first.headers["Service-Request-ID"]


@pytest.mark.parametrize("kept", [False, True], ids=["built", "kept"])
def test_a_poll_holding_the_state_weakly_or_as_star_is_304(event: Event, kept: bool) -> None:
    """RFC 9110: `If-None-Match` compares weakly (`W/"x"` holds `"x"`), and `*` holds any current state; the same
    whether the view builds the state or the kept snapshot answers."""
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    first = event.state(url)
    if not kept:
        event.match("Cy Diaz", "Di Evans")  # a change: the next poll is built by the view again
        first = event.state(url, **{"If-None-Match": '"an-older-state"'})
    etag = first.headers["ETag"]
    for held in (f"W/{etag}", "*", f'"other", W/{etag}'):
        again = event.state(url, **{"If-None-Match": held})
        assert again.status_code == 304, held
        assert again.headers["ETag"] == etag
    assert event.state(url, **{"If-None-Match": 'W/"other"'}).status_code == 200


def test_a_kept_feed_echoes_the_clients_request_id_and_refuses_a_bad_one(event: Event) -> None:
    """§2 on every response, also a poll answered from the kept snapshot: a valid `Service-Request-ID` is echoed
    (200 and 304), an invalid one is `400 invalid_request_id`."""
    url = open_page(event)
    event.match("Ann Lee", "Bo Chen")
    etag = event.state(url).headers["ETag"]  # the snapshot is kept from here
    fresh = event.state(url, **{"Service-Request-ID": "desk-poll-0001"})
    same = event.state(url, **{"Service-Request-ID": "desk-poll-0002", "If-None-Match": etag})
    assert (fresh.status_code, fresh.headers["Service-Request-ID"]) == (200, "desk-poll-0001")
    assert (same.status_code, same.headers["Service-Request-ID"]) == (304, "desk-poll-0002")
    bad = event.state(url, **{"Service-Request-ID": "short"})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "invalid_request_id"


def test_a_person_on_the_page_keeps_the_spelling_of_their_earliest_match(event: Event) -> None:
    """One person under §8a's name rule, shown as their first match spells them, also once it has started."""
    url = open_page(event)
    first = event.match("Ann Lee", "Bo Chen", table=1)
    event.match("ann  lee", "Cy Diaz")  # waiting on the court listed first
    assert event.operator.post(f"/operator/matches/{first['id']}/start").status_code == 200
    names = [p["name"] for p in event.state(url).json["data"]["people"]]
    assert [name for name in names if name.lower().split() == ["ann", "lee"]] == ["Ann Lee"]
