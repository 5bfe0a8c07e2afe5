"""Issue 42: an operation on a club's broadcast reads what that broadcast holds now, never the account's history nor
its other broadcasts. Each hot operation (start, start-next, complete, the court board's page, the people list, the
court pool, the event page's state) is done on a club's broadcast with nothing else in the account, and again after
the account grew around it (other broadcasts with courts, queues, matches in play, completed history recent and
old, draws with pools); the documents (TinyDB) or rows (PostgreSQL) the request read, counted by the store
(`Store.reads`, `PgStore.reads`), must be the same. Deterministic: counts, not times."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

from domain.clock import FixedClock
from storage.backend import AnyStore
from tests.conftest import Api

GAME = [{"a": 11, "b": 4}]
COURTS = 4
QUEUED = 3  # matches queued per court
DRAWN = 8  # entries of the club's knockout draw (its first round waits in the court pool)


@dataclass
class Club:
    """One broadcast as a club runs it: courts with queues, rest and check-in required, a draw, an event page."""

    operator: Api
    client: Any
    store: AnyStore
    broadcast_id: str
    tables: list[str]
    page: str = ""
    reads: dict[str, int] = field(default_factory=dict)

    def counted(self, name: str, call: Callable[[], Any], status: int = 200) -> Any:
        """Do the request and keep how many documents it read."""
        before = self.store.reads
        response = call()
        self.reads[name] = self.store.reads - before
        assert response.status_code == status, (name, response.status_code, response.get_data(as_text=True)[:300])
        return response

    def queue(self, court: int) -> list[dict[str, Any]]:
        listed = self.operator.get(f"/operator/matches?tableID={self.tables[court]}&status=pending&limit=100")
        assert listed.status_code == 200, listed.json
        return sorted(listed.json["data"], key=lambda m: m["queuePosition"])


def open_club(operator: Api, app: Flask, store: AnyStore, name: str, *, check_in: bool = True,
              clock: FixedClock | None = None, history: int = 0) -> Club:
    """The club's broadcast; with `history`, that many of its matches were played on its last court a day ago."""
    made = operator.post("/operator/broadcasts", json={
        "name": name, "tables": [{"label": f"Court {i + 1}"} for i in range(COURTS)]})
    assert made.status_code == 201, made.json
    club = Club(operator, app.test_client(), store, made.json["data"]["id"],
                [t["id"] for t in made.json["data"]["tables"]])
    settings = operator.patch(f"/operator/broadcasts/{club.broadcast_id}",
                              json={"eventDay": {"requireCheckIn": check_in, "restMinutes": 10}})
    assert settings.status_code == 200, settings.json
    for court, table_id in enumerate(club.tables):
        for place in range(QUEUED):
            body = {"tableID": table_id, "bestOf": 1, "playerA": {"manualName": f"Player {court}-{place}a"},
                    "playerB": {"manualName": f"Player {court}-{place}b"}}
            assert operator.post("/operator/matches", json=body).status_code == 201
    draw = operator.post("/operator/draws", json={
        "broadcastID": club.broadcast_id, "name": "Open", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": f"Drawn {i}"}], "seed": i + 1}
                                     for i in range(DRAWN)]})
    assert draw.status_code == 201, draw.json
    for number in range(history):
        body = {"tableID": club.tables[-1], "bestOf": 1, "playerA": {"manualName": f"Earlier {number}a"},
                "playerB": {"manualName": f"Earlier {number}b"}}
        assert operator.post("/operator/matches", json=body).status_code == 201
    if check_in:
        people = operator.get(f"/operator/broadcasts/{club.broadcast_id}/people?limit=100")
        assert people.status_code == 200 and people.json["nextCursor"] is None
        for row in people.json["data"]:
            done = operator.post(f"/operator/broadcasts/{club.broadcast_id}/people/{row['personID']}/check-in",
                                 json={"present": True})
            assert done.status_code == 200, done.json
    if history:
        assert clock is not None
        for _ in range(QUEUED + history):
            started = operator.post(f"/operator/tables/{club.tables[-1]}/start-next")
            assert started.status_code == 200, started.json
            done = operator.post(f"/operator/matches/{started.json['data']['id']}/complete", json={"gameScores": GAME})
            assert done.status_code == 200, done.json
            clock.advance(60)
        clock.advance(24 * 3600)
    enabled = operator.post(f"/operator/broadcasts/{club.broadcast_id}/event-page/enable")
    assert enabled.status_code == 200, enabled.json
    club.page = "/event/" + enabled.json["data"]["url"].rsplit("/event/", 1)[1]
    return club


def play_the_day(club: Club) -> None:
    """start, complete and start-next on the club's first court, each counted."""
    first = club.queue(0)[0]
    club.counted("start", lambda: club.operator.post(f"/operator/matches/{first['id']}/start"))
    club.counted("complete", lambda: club.operator.post(f"/operator/matches/{first['id']}/complete",
                                                        json={"gameScores": GAME}))
    club.counted("start-next", lambda: club.operator.post(f"/operator/tables/{club.tables[0]}/start-next"))


def look(club: Club) -> dict[str, int]:
    """The reads: the board's first page (the club's first courts, the account's first; a page that has a next one,
    as the board always has once the account grew), its people, its pool, and its event page's state (built anew:
    every look follows a write)."""
    assert club.operator.post(f"/operator/broadcasts/{club.broadcast_id}/event-page/enable").status_code == 200
    club.counted("board", lambda: club.operator.get(f"/operator/tables?limit={COURTS - 1}"))
    club.counted("people", lambda: club.operator.get(f"/operator/broadcasts/{club.broadcast_id}/people?limit=100"))
    club.counted("pool", lambda: club.operator.get(f"/operator/broadcasts/{club.broadcast_id}/pool?limit=100"))
    club.counted("event page state", lambda: club.client.get(club.page + "/state"))
    return {name: club.reads[name] for name in ("board", "people", "pool", "event page state")}


def grow(operator: Api, clock: FixedClock, *, broadcasts: int, courts: int) -> None:
    """Other broadcasts of the account: courts with queues, a match in play on each, results of long ago and of the
    last minutes (within any rest), and a draw each with its pool."""
    for number in range(broadcasts):
        made = operator.post("/operator/broadcasts", json={
            "name": f"Other {number}", "tables": [{"label": f"Court {i + 1}"} for i in range(courts)]})
        assert made.status_code == 201, made.json
        tables = [t["id"] for t in made.json["data"]["tables"]]
        operator.patch(f"/operator/broadcasts/{made.json['data']['id']}", json={"eventDay": {"restMinutes": 240}})
        for court, table_id in enumerate(tables):
            for place in range(4):
                body = {"tableID": table_id, "bestOf": 1, "playerA": {"manualName": f"Player {court}-{place}a"},
                        "playerB": {"manualName": f"Player {court}-{place}b"}}
                assert operator.post("/operator/matches", json=body).status_code == 201
            for _ in range(2):  # two results: one long ago, one just now
                started = operator.post(f"/operator/tables/{table_id}/start-next")
                assert started.status_code == 200, started.json
                done = operator.post(f"/operator/matches/{started.json['data']['id']}/complete",
                                     json={"gameScores": GAME})
                assert done.status_code == 200, done.json
                clock.advance(6 * 3600)
            assert operator.post(f"/operator/tables/{table_id}/start-next").status_code == 200
        draw = operator.post("/operator/draws", json={
            "broadcastID": made.json["data"]["id"], "name": "Open", "format": "single_elimination", "bestOf": 1,
            "randomSeed": 3, "entries": [{"players": [{"manualName": f"Drawn {i}"}]} for i in range(16)]})
        assert draw.status_code == 201, draw.json


def test_hot_operations_read_the_same_after_the_account_grew(operator: Api, app: Flask, store: AnyStore,
                                                             clock: FixedClock) -> None:
    alone = open_club(operator, app, store, "Club alone")
    play_the_day(alone)
    then = clock.current
    looked_alone = look(alone)
    assert all(count > 0 for count in alone.reads.values()), alone.reads  # the counter counts

    grow(operator, clock, broadcasts=2, courts=COURTS)
    later = open_club(operator, app, store, "Club after growth")  # another broadcast too, for `alone`
    grow(operator, clock, broadcasts=1, courts=2 * COURTS)
    now = clock.current
    clock.current = then  # the same moment: the club's own result of a minute ago still rests its players
    assert look(alone) == looked_alone
    clock.current = now
    play_the_day(later)
    played = ("start", "complete", "start-next")
    assert {name: later.reads[name] for name in played} == {name: alone.reads[name] for name in played}


def test_the_counts_hold_without_check_in(operator: Api, app: Flask, store: AnyStore, clock: FixedClock) -> None:
    """Without check-in (no first starts to read), the same: nothing of the rest of the account is read."""
    alone = open_club(operator, app, store, "Club alone", check_in=False)
    play_the_day(alone)
    then = clock.current
    looked_alone = look(alone)
    grow(operator, clock, broadcasts=2, courts=COURTS)
    later = open_club(operator, app, store, "Club after growth", check_in=False)
    now, clock.current = clock.current, then
    assert look(alone) == looked_alone
    clock.current = now
    play_the_day(later)
    assert {k: later.reads[k] for k in ("start", "complete", "start-next")} == {
        k: alone.reads[k] for k in ("start", "complete", "start-next")}


def test_playing_reads_the_same_after_the_club_itself_played_many_matches(operator: Api, app: Flask,
                                                                          store: AnyStore, clock: FixedClock) -> None:
    """Start, complete and start-next where everyone checked in at the desk: the broadcast's own results of a day
    ago are not read either (who rests looks back one rest, who has played is not asked of the checked in)."""
    fresh = open_club(operator, app, store, "Club, first day", clock=clock, history=0)
    play_the_day(fresh)
    seasoned = open_club(operator, app, store, "Club, a season on", clock=clock, history=30)
    play_the_day(seasoned)
    played = ("start", "complete", "start-next")
    assert {name: seasoned.reads[name] for name in played} == {name: fresh.reads[name] for name in played}


def test_a_pool_match_is_placed_in_its_own_broadcasts_pool(operator: Api, app: Flask, store: AnyStore) -> None:
    """A court-pool match has no table's queue: the pool read numbers it within its broadcast's pool (1, 2, ...),
    other reads give null; never a rank among every account's pool matches (what a PostgreSQL count over the
    platform's pool cost, issue 42)."""
    first = open_club(operator, app, store, "Earlier event", check_in=False)
    club = open_club(operator, app, store, "Club", check_in=False)
    for shown in (first, club):
        pool = operator.get(f"/operator/broadcasts/{shown.broadcast_id}/pool?limit=100")
        assert pool.status_code == 200
        assert [m["queuePosition"] for m in pool.json["data"]] == list(range(1, DRAWN // 2 + 1))
    draws = operator.get(f"/operator/draws?broadcastID={club.broadcast_id}")
    assert draws.status_code == 200, draws.json
    listed = operator.get(f"/operator/matches?drawID={draws.json['data'][0]['id']}&status=pending&limit=100")
    assert listed.status_code == 200 and len(listed.json["data"]) == DRAWN // 2
    assert {m["queuePosition"] for m in listed.json["data"]} == {None}


def test_an_unfiltered_audit_page_reads_its_own_entries_however_long_the_log(operator: Api, store: AnyStore) -> None:
    """The audit page (contract §16) of 20 reads the same after 20 more entries and after 300 more: its entries
    and the chain's head, never a batch of the log beyond the page (the TinyDB scan read 200 at a time)."""
    made = operator.post("/operator/broadcasts", json={"name": "Club", "tables": [{"label": "Court 1"}]})
    assert made.status_code == 201, made.json
    broadcast = made.json["data"]["id"]

    def audited(times: int) -> None:
        for number in range(times):
            renamed = operator.patch(f"/operator/broadcasts/{broadcast}", json={"name": f"Club {number}"})
            assert renamed.status_code == 200, renamed.json

    def page_reads() -> int:
        before = store.reads
        listed = operator.get("/operator/audit?limit=20")
        assert listed.status_code == 200 and len(listed.json["data"]) == 20, listed.json
        return store.reads - before

    audited(20)
    short = page_reads()
    audited(20)
    assert page_reads() == short
    audited(300)
    assert page_reads() == short
    assert short <= 25
