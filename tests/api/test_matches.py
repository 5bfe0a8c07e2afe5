"""Partner match routes: the scheduled-match state table of api-v1.md, contract §4 and §6."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from domain.clock import FixedClock
from domain.match import matches as svc
from storage.engine import Store
from storage.repository import unit_of_work
from tests.conftest import Api

PLAYERS: list[dict[str, Any]] = [
    {"externalID": "p1", "firstName": "Ada", "lastName": "Lovelace"},
    {"externalID": "p2", "firstName": "Grace", "lastName": "Hopper"},
    {"externalID": "p3", "firstName": "Alan"},
    {"externalID": "p4", "lastName": "Turing"},
    {"externalID": "p5", "firstName": "Edsger", "lastName": "Dijkstra", "firstNameInitial": True},
    {"externalID": "p6"},
]


def connection_id(api: Api) -> str:
    response = api.get("/connection")
    assert response.status_code == 200, response.json
    return str(response.json["data"]["connectionID"])


def make_tables(api: Api, labels: tuple[str, ...] = ("Court 1", "Court 2")) -> list[str]:
    """A broadcast created by `api`'s connection (so it manages the tables); its table IDs."""
    response = api.post("/broadcasts", json={"name": "Open", "tables": [{"label": label} for label in labels]})
    assert response.status_code == 201, response.json
    return [court["id"] for court in response.json["data"]["tables"]]


def make_player_list(api: Api, external_id: str = "pl-1", players: list[dict[str, Any]] | None = None) -> None:
    """The connection's player list `external_id` (players p1-p4 unless given)."""
    players = PLAYERS if players is None else players
    response = api.put("/player-lists", json={"externalID": external_id, "name": "Entrants", "players": players})
    assert response.status_code == 200, response.json


@dataclass
class Courts:
    """A partner with two managed tables and the player list `pl-1`."""

    api: Api
    tables: list[str]
    store: Store
    clock: FixedClock

    def body(self, external_id: str, table: int = 0, **extra: Any) -> dict[str, Any]:
        return {"externalID": external_id, "tableID": self.tables[table], "playerListExternalID": "pl-1"} | extra

    def sync(self, external_id: str, table: int = 0, **extra: Any) -> dict[str, Any]:
        response = self.api.put("/matches", json=self.body(external_id, table, **extra))
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def get(self, external_id: str) -> dict[str, Any]:
        response = self.api.get(f"/matches/{external_id}")
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def queue(self, table: int = 0) -> list[str]:
        """The externalIDs pending on a table, in queue order (checked to be numbered 1..n).

        The order is worked out here from the stored matches (not from the queue index under test)."""
        with unit_of_work(self.store) as uow:
            pending = uow.matches.find(table_id=self.tables[table], status="pending")
        queue = sorted(pending, key=lambda m: (m.queue_order, m.seq))
        reads = [self.get(m.external_id) for m in queue]
        assert [r["queuePosition"] for r in reads] == list(range(1, len(reads) + 1))
        return [r["externalID"] for r in reads]


@pytest.fixture
def courts_factory(new_partner: Callable[..., Api], store: Store, clock: FixedClock) -> Callable[..., Courts]:
    def make(**kwargs: Any) -> Courts:
        api = new_partner(**kwargs)
        tables = make_tables(api)
        make_player_list(api)
        return Courts(api, tables, store, clock)

    return make


@pytest.fixture
def courts(courts_factory: Callable[..., Courts]) -> Courts:
    return courts_factory()


def set_status(store: Store, match_id: str, status: str) -> None:
    """Put a match in a locked state the way the operator would (through the real services)."""
    rules = svc.Rules()
    with unit_of_work(store) as uow:
        account = uow.accounts.find()[0].id
        svc.start_match(uow, account_id=account, match_id=match_id, now=FixedClock().now(), rules=rules)
        if status == "completed":
            svc.complete_match(uow, account_id=account, match_id=match_id, now=FixedClock().now(), rules=rules,
                               game_scores=[{"a": 11, "b": 3}] * 3)


# ------------------------------------------------------------------------------------------- none -> pending
def test_new_match_is_pending_at_the_end_of_its_table_queue(courts: Courts) -> None:
    first = courts.sync("m1", playerA={"externalID": "p1"}, playerB={"manualName": "Walk In"},
                        eventName="Open singles", matchRound="R16", bestOf="3", isDoubles=False,
                        startTime="2026-11-21T11:00:00+01:00")
    second = courts.sync("m2")
    assert first["status"] == "pending" and first["isActive"] is False and first["isComplete"] is False
    assert first["queuePosition"] == 1 and second["queuePosition"] == 2
    assert first["id"].startswith("mat_") and first["scheduledMatchID"].startswith("sm_")
    assert first["tableID"] == courts.tables[0] and first["playerListExternalID"] == "pl-1"
    assert first["participants"] == {"playerA": {"externalID": "p1"}, "playerB": {"manualName": "Walk In"}}
    assert first["playerA"] == "Ada Lovelace" and first["playerB"] == "Walk In"
    assert first["bestOf"] == 3 and first["startTime"] == "2026-11-21T10:00:00.000Z"
    assert first["gameScores"] == [] and first["score"] == {"a": 0, "b": 0}
    assert first["scheduledOn"] == "2026-11-21T10:00:00.000Z"
    assert "completedOn" not in first
    assert second["bestOf"] == 5  # the server default


def test_legacy_side_strings_are_display_names(courts: Courts) -> None:
    match = courts.sync("m1", isDoubles=True, playerA={"externalID": "p3"}, playerA2={"externalID": "p5"},
                        playerB={"externalID": "p6"}, playerB2={"externalID": "p4", "manualName": "Sub"})
    assert (match["playerA"], match["playerA2"], match["playerB"], match["playerB2"]) == (
        "Alan", "E. Dijkstra", "p6", "Sub")
    assert match["participants"]["playerB2"] == {"externalID": "p4", "manualName": "Sub"}


def test_post_matches_is_an_alias_of_put(courts: Courts) -> None:
    response = courts.api.post("/matches", json=courts.body("m1"))
    assert response.status_code == 200
    assert response.json["data"]["queuePosition"] == 1
    assert response.headers["Service-Request-ID"] and response.headers["RateLimit-Limit"]


# ------------------------------------------------------------------------------------------- pending -> pending
def test_resync_of_a_pending_match_replaces_it_in_place(courts: Courts) -> None:
    created = courts.sync("m1", eventName="Old", playerA={"externalID": "p1"})
    courts.sync("m2")
    replaced = courts.sync("m1", matchRound="QF")
    assert replaced["id"] == created["id"] and replaced["queuePosition"] == 1
    assert "eventName" not in replaced and replaced["matchRound"] == "QF" and replaced["participants"] == {}
    assert courts.queue() == ["m1", "m2"]
    listed = courts.api.get("/matches").json["data"]
    assert [m["externalID"] for m in listed] == ["m1", "m2"]  # no duplicate


def test_resync_with_a_new_table_moves_the_match_to_the_end_of_that_queue(courts: Courts) -> None:
    courts.sync("m1")
    courts.sync("m2")
    courts.sync("x1", table=1)
    moved = courts.sync("m1", table=1)
    assert moved["tableID"] == courts.tables[1] and moved["queuePosition"] == 2
    assert courts.queue(0) == ["m2"] and courts.queue(1) == ["x1", "m1"]


def test_patch_with_only_table_id_moves_to_the_end_of_the_destination(courts: Courts) -> None:
    for name in ("m1", "m2", "m3"):
        courts.sync(name)
    courts.sync("x1", table=1)
    response = courts.api.patch("/matches/m1", json={"tableID": courts.tables[1]})
    assert response.status_code == 200
    assert response.json["data"]["tableID"] == courts.tables[1] and response.json["data"]["queuePosition"] == 2
    assert courts.queue(0) == ["m2", "m3"] and courts.queue(1) == ["x1", "m1"]


def test_patch_move_onto_the_same_table_keeps_its_position(courts: Courts) -> None:
    courts.sync("m1")
    courts.sync("m2")
    response = courts.api.patch("/matches/m1", json={"tableID": courts.tables[0]})
    assert response.status_code == 200 and response.json["data"]["queuePosition"] == 1
    assert courts.queue() == ["m1", "m2"]


def test_patch_with_a_full_sync_body_replaces_the_match(courts: Courts) -> None:
    courts.sync("m1", eventName="Old")
    courts.sync("m2")
    body = courts.body("m1", matchDetails="Final") | {"playerB": {"externalID": "p2"}}
    response = courts.api.patch("/matches/m1", json=body)
    assert response.status_code == 200
    data = response.json["data"]
    assert data["matchDetails"] == "Final" and "eventName" not in data and data["playerB"] == "Grace Hopper"
    assert data["queuePosition"] == 1
    without_id = {k: v for k, v in body.items() if k != "externalID"}
    assert courts.api.patch("/matches/m1", json=without_id).status_code == 400  # the full sync shape


def test_patch_replacement_needs_the_sync_fields_and_the_same_external_id(courts: Courts) -> None:
    courts.sync("m1")
    missing = courts.api.patch("/matches/m1", json={"tableID": courts.tables[0], "eventName": "x"})
    assert missing.status_code == 400 and missing.json["error"]["code"] == "validation_failed"
    assert "playerListExternalID" in missing.json["error"]["details"]["json"]
    other = courts.api.patch("/matches/m1", json=courts.body("m9"))
    assert other.status_code == 400 and other.json["error"]["code"] == "validation_failed"
    empty = courts.api.patch("/matches/m1", json={})
    assert empty.status_code == 400
    unknown = courts.api.patch("/matches/nope", json={"tableID": courts.tables[0]})
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "not_found"
    extra = courts.api.patch("/matches/m1", json={"tableID": courts.tables[0], "colour": "red"})
    assert extra.status_code == 400 and extra.json["error"]["code"] == "validation_failed"


# ------------------------------------------------------------------------------------------- pending -> removed
def test_delete_cancels_a_pending_match_and_closes_the_gap(courts: Courts) -> None:
    for name in ("m1", "m2", "m3"):
        courts.sync(name)
    response = courts.api.delete("/matches/m2")
    assert response.status_code == 200
    assert response.json == {"data": {"externalID": "m2", "deleted": True}}
    assert courts.queue() == ["m1", "m3"]
    assert courts.api.get("/matches/m2").status_code == 404
    again = courts.api.delete("/matches/m2")
    assert again.status_code == 404 and again.json["error"]["code"] == "not_found"
    assert courts.api.patch("/matches/m2", json={"tableID": courts.tables[0]}).status_code == 404


# ------------------------------------------------------------------------------------------- locked
LOCKED_ATTEMPTS: dict[str, Callable[[Courts], Any]] = {
    "put": lambda c: c.api.put("/matches", json=c.body("m1", eventName="changed")),
    "post": lambda c: c.api.post("/matches", json=c.body("m1", eventName="changed")),
    "patch_move": lambda c: c.api.patch("/matches/m1", json={"tableID": c.tables[1]}),
    "patch_same_table": lambda c: c.api.patch("/matches/m1", json={"tableID": c.tables[0]}),
    "patch_replace": lambda c: c.api.patch("/matches/m1", json=c.body("m1", eventName="changed")),
    "delete": lambda c: c.api.delete("/matches/m1"),
}


@pytest.mark.parametrize("status", ["active", "completed"])
@pytest.mark.parametrize("attempt", sorted(LOCKED_ATTEMPTS))
def test_active_or_completed_match_rejects_every_change_with_409(courts: Courts, status: str, attempt: str) -> None:
    match = courts.sync("m1", eventName="Original")
    set_status(courts.store, match["id"], status)
    before = courts.get("m1")
    response = LOCKED_ATTEMPTS[attempt](courts)
    assert response.status_code == 409
    assert response.json["error"]["code"] == "match_locked"
    after = courts.get("m1")
    assert after == before and after["status"] == status and after["queuePosition"] is None


# ------------------------------------------------------------------------------------------- references
def test_queuing_onto_a_table_the_caller_does_not_manage_is_403(courts_factory: Callable[..., Courts]) -> None:
    mine, theirs = courts_factory(), courts_factory()
    response = mine.api.put("/matches", json=mine.body("m1") | {"tableID": theirs.tables[0]})
    assert response.status_code == 403 and response.json["error"]["code"] == "table_not_managed"
    mine.sync("m2")
    move = mine.api.patch("/matches/m2", json={"tableID": theirs.tables[0]})
    assert move.status_code == 403 and move.json["error"]["code"] == "table_not_managed"
    assert mine.get("m2")["tableID"] == mine.tables[0]


def test_unknown_table_or_player_list_is_404_and_unknown_player_is_400(courts: Courts) -> None:
    table = courts.api.put("/matches", json=courts.body("m1") | {"tableID": "tbl_nope"})
    assert table.status_code == 404 and table.json["error"]["code"] == "not_found"
    listed = courts.api.put("/matches", json=courts.body("m1") | {"playerListExternalID": "pl-nope"})
    assert listed.status_code == 404 and listed.json["error"]["code"] == "not_found"
    player = courts.api.put("/matches", json=courts.body("m1", playerA={"externalID": "p1"},
                                                          playerB={"externalID": "ghost"}))
    assert player.status_code == 400 and player.json["error"]["code"] == "unknown_player"
    assert courts.api.get("/matches").json["data"] == []


@pytest.mark.parametrize("change", [
    {"unknown": 1},
    {"bestOf": 4}, {"bestOf": 0}, {"bestOf": -3}, {"bestOf": "five"}, {"bestOf": True}, {"bestOf": 3.0},
    {"bestOf": "3.5"},
    {"isDoubles": "true"}, {"isDoubles": 1},
    {"startTime": "tomorrow"}, {"startTime": 1700000000},
    {"externalID": ""}, {"externalID": 7}, {"eventName": "x" * 501}, {"matchDetails": "x" * 801},
    {"playerA": {"externalID": "p1", "nickname": "Ace"}}, {"playerA": "p1"},
    {"playerB": {"manualName": "x" * 121}},
])
def test_malformed_sync_body_is_400_validation_failed(courts: Courts, change: dict[str, Any]) -> None:
    response = courts.api.put("/matches", json=courts.body("m1") | change)
    assert response.status_code == 400, response.json
    assert response.json["error"]["code"] == "validation_failed"
    assert courts.api.get("/matches").json["data"] == []


@pytest.mark.parametrize("missing", ["externalID", "tableID", "playerListExternalID"])
def test_sync_body_without_a_required_field_is_400(courts: Courts, missing: str) -> None:
    body = {k: v for k, v in courts.body("m1").items() if k != missing}
    response = courts.api.put("/matches", json=body)
    assert response.status_code == 400
    assert response.json["error"]["details"]["json"][missing]


def test_best_of_accepts_a_number_or_a_string_of_digits(courts: Courts) -> None:
    assert courts.sync("m1", bestOf=7)["bestOf"] == 7
    assert courts.sync("m2", bestOf="1")["bestOf"] == 1


@pytest.mark.parametrize("moment", ["2026-11-21T18:30:00", "2026-11-21T18:30", "2026-11-21 18:30:00"])
def test_start_time_without_an_offset_is_refused_never_read_as_utc(courts: Courts, moment: str) -> None:
    response = courts.api.put("/matches", json=courts.body("m1", 0, startTime=moment))
    assert response.status_code == 400
    assert response.json["error"]["code"] == "validation_failed"
    message = response.json["error"]["details"]["json"]["startTime"][0]
    assert "offset" in message or "RFC 3339" in message  # no offset, or not RFC 3339 at all (no seconds, a space)
    assert courts.api.get("/matches/m1").status_code == 404  # nothing created


def test_start_time_with_an_offset_is_kept_in_utc(courts: Courts) -> None:
    assert courts.sync("m1", startTime="2026-11-21T18:30:00+01:00")["startTime"] == "2026-11-21T17:30:00.000Z"
    # a moment that cannot be shifted to UTC keeps its offset rather than being refused
    assert courts.sync("m2", startTime="0001-01-01T00:00:00+01:00")["startTime"] == "0001-01-01T00:00:00.000+01:00"


# ------------------------------------------------------------------------------------------- reads and scopes
def test_matches_list_is_paginated_oldest_first(courts: Courts) -> None:
    for index in range(5):
        courts.sync(f"m{index}", table=index % 2)
    first = courts.api.get("/matches?limit=2")
    assert first.status_code == 200
    assert [m["externalID"] for m in first.json["data"]] == ["m0", "m1"]
    second = courts.api.get(f"/matches?limit=2&cursor={first.json['nextCursor']}")
    third = courts.api.get(f"/matches?limit=2&cursor={second.json['nextCursor']}")
    assert [m["externalID"] for m in second.json["data"]] == ["m2", "m3"]
    assert [m["externalID"] for m in third.json["data"]] == ["m4"] and third.json["nextCursor"] is None
    assert [m["queuePosition"] for m in first.json["data"] + second.json["data"]] == [1, 1, 2, 2]
    assert courts.api.get("/matches?cursor=%%%").json["error"]["code"] == "invalid_cursor"
    assert courts.api.get("/matches?limit=101").status_code == 400


def test_two_connections_never_see_each_others_matches(courts_factory: Callable[..., Courts]) -> None:
    one, two = courts_factory(), courts_factory()
    mine = one.sync("shared-id")
    theirs = two.sync("shared-id")  # same externalID, another connection: no collision
    assert mine["id"] != theirs["id"]
    assert [m["id"] for m in one.api.get("/matches").json["data"]] == [mine["id"]]
    assert [m["id"] for m in two.api.get("/matches").json["data"]] == [theirs["id"]]
    one.sync("only-mine")
    assert two.api.get("/matches/only-mine").status_code == 404
    assert two.api.delete("/matches/only-mine").status_code == 404
    assert two.api.patch("/matches/only-mine", json={"tableID": two.tables[0]}).status_code == 404
    assert one.get("only-mine")["status"] == "pending"
    make_player_list(one.api, "pl-one")
    foreign_list = two.api.put("/matches", json=two.body("m9") | {"playerListExternalID": "pl-one"})
    assert foreign_list.status_code == 404


def test_scopes_guard_reads_and_writes(courts: Courts, new_partner: Callable[..., Api]) -> None:
    courts.sync("m1")
    reader = new_partner(scope="matches.read")
    write = reader.put("/matches", json=courts.body("m1"))
    assert write.status_code == 403 and write.json["error"]["code"] == "insufficient_scope"
    assert write.json["error"]["details"] == {"requiredScope": "matches.write"}
    writer = new_partner(scope="matches.write")
    read = writer.get("/matches")
    assert read.status_code == 403 and read.json["error"]["details"] == {"requiredScope": "matches.read"}
    assert courts.api.get("/matches", token=None).status_code == 401


def test_a_move_to_another_table_resets_scheduled_on(courts: Courts) -> None:
    first = courts.sync("m1")
    courts.clock.advance(90)
    moved = courts.api.patch("/matches/m1", json={"tableID": courts.tables[1]}).json["data"]
    assert moved["scheduledOn"] > first["scheduledOn"]
    courts.clock.advance(90)
    same = courts.api.patch("/matches/m1", json={"tableID": courts.tables[1]}).json["data"]
    assert same["scheduledOn"] == moved["scheduledOn"]


@pytest.mark.parametrize(("best_of", "status"), [(999, 200), ("999", 200), (1001, 400), ("1001", 400)])
def test_best_of_is_capped_at_999(courts: Courts, best_of: Any, status: int) -> None:
    response = courts.api.put("/matches", json=courts.body("m1", bestOf=best_of))
    assert response.status_code == status
    if status == 400:
        assert response.json["error"]["code"] == "validation_failed"
    else:
        assert response.json["data"]["bestOf"] == 999
