"""The audit log (contract §16): one entry per change, in the change's transaction, as a hash chain; who made it
(operator key, partner connection, scorer link's table, sign-up page's roster), the request ID, before and after,
a correction's reason; `GET /operator/audit` and its filters. Every test runs on TinyDB and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.resources_support import make_broadcast, player, sync_list
from tests.api.test_oauth import code_for, exchange, register
from tests.api.test_self_registration import make_roster, sign_up_path, submit
from tests.conftest import Api
from tests.responses import json_of

WIN = [{"a": 11, "b": 7}, {"a": 11, "b": 9}, {"a": 11, "b": 5}]
OTHER_WINS = [{"a": 7, "b": 11}, {"a": 9, "b": 11}, {"a": 5, "b": 11}]
REQUEST_ID = "audit-test-0001"


def entries(operator: Api, query: str = "") -> list[dict[str, Any]]:
    """Every entry matching the query, newest first (through every page)."""
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        path = "/operator/audit?limit=100" + (f"&{query}" if query else "") + (f"&cursor={cursor}" if cursor else "")
        response = operator.get(path)
        assert response.status_code == 200, response.json
        found += response.json["data"]
        cursor = response.json["nextCursor"]
        if cursor is None:
            return found


def recompute(entry: dict[str, Any]) -> str:
    """The contract's hash, computed here with the standard library (not the service's code)."""
    body = {key: value for key, value in entry.items() if key != "hash"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                          .encode()).hexdigest()


def assert_chain(found_newest_first: list[dict[str, Any]]) -> None:
    chain = list(reversed(found_newest_first))
    assert [e["seq"] for e in chain] == list(range(1, len(chain) + 1))
    previous = "0" * 64
    for entry in chain:
        assert entry["prevHash"] == previous
        assert entry["hash"] == recompute(entry)
        previous = entry["hash"]


class Day:
    """A partner's broadcast (two courts, a player list, matches m1 and m2 on court 1), the operator, a phone."""

    def __init__(self, operator: Api, partner: Api, phone: FlaskClient) -> None:
        self.operator, self.partner, self.phone = operator, partner, phone
        broadcast = make_broadcast(partner, 2)
        self.broadcast_id = broadcast["id"]
        self.tables = [t["id"] for t in broadcast["tables"]]
        sync_list(partner, players=[player(f"p{i}") for i in range(1, 9)])
        self.partner_id = partner.get("/connection").json["data"]["connectionID"]

    def sync(self, external_id: str, table: int = 0, players: tuple[str, str] = ("p1", "p2")) -> dict[str, Any]:
        body = {"externalID": external_id, "tableID": self.tables[table], "playerListExternalID": "list-1",
                "bestOf": 5, "playerA": {"externalID": players[0]}, "playerB": {"externalID": players[1]}}
        response = self.partner.put("/matches", json=body)
        assert response.status_code == 200, response.json
        return dict(response.json["data"])

    def op(self, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.operator.request(method, path, json=body, headers={"Service-Request-ID": REQUEST_ID})
        assert response.status_code == status, response.json
        return response.json.get("data") if response.json else None

    def id_of(self, external_id: str) -> str:
        return str(self.partner.get(f"/matches/{external_id}").json["data"]["id"])

    def queue(self, table: int = 0) -> list[str]:
        """The IDs of the court's queued matches, in order (the operator's board)."""
        [court] = [c for c in self.op("GET", "/operator/tables") if c["id"] == self.tables[table]]
        return [m["id"] for m in court["queue"]]

    def scorer(self, table: int = 0) -> str:
        url = self.op("GET", f"/operator/tables/{self.tables[table]}/scorer")["url"]
        return "/" + str(url).split("/", 3)[3]

    def tap(self, path: str, action: str, **body: Any) -> None:
        version = json_of(self.phone.get(path + "/state"))["data"]["version"]
        response = self.phone.post(f"{path}/{action}", json={"version": version, **body})
        assert response.status_code == 200, response.get_data(as_text=True)


@pytest.fixture
def day(operator: Api, partner: Api, app: Flask) -> Day:
    return Day(operator, partner, app.test_client())


def one_new_entry(operator: Api, before: int) -> dict[str, Any]:
    """The change just made wrote exactly one entry: return it."""
    found = entries(operator)
    assert len(found) == before + 1, [e["action"] for e in found[: len(found) - before]]
    return found[0]


# ------------------------------------------------------------------------------------------- every kind
def test_every_kind_of_change_writes_exactly_one_entry_naming_its_actor(day: Day, operator: Api, app: Flask) -> None:
    m1 = day.sync("m1")
    m2 = day.sync("m2", players=("p3", "p4"))
    steps: list[tuple[str, Callable[[], Any], str, str, str]] = [
        # (action, change, target type, target id, actor kind)
        ("match.synced", lambda: day.sync("m3", players=("p5", "p6")), "match", "", "partner"),
        ("match.synced", lambda: day.sync("m3", players=("p5", "p7")), "match", "", "partner"),
        ("match.moved", lambda: day.partner.patch("/matches/m3", json={"tableID": day.tables[1]}), "match", "",
         "partner"),
        ("match.moved", lambda: day.op("POST", f"/operator/matches/{m2['id']}/move", {"tableID": day.tables[1]}),
         "match", m2["id"], "operator"),
        ("match.created", lambda: day.op("POST", "/operator/matches", {
            "tableID": day.tables[0], "playerA": {"manualName": "Ann Lee"}, "playerB": {"manualName": "Bo Ma"}},
            status=201), "match", "", "operator"),
        ("match.called", lambda: day.op("POST", f"/operator/matches/{day.queue()[0]}/call"), "match", "",
         "operator"),
        ("table.queue_reordered", lambda: day.op("PUT", f"/operator/tables/{day.tables[0]}/queue", {
            "matchIDs": list(reversed(day.queue()))}),
         "table", day.tables[0], "operator"),
        ("match.started", lambda: day.op("POST", f"/operator/matches/{m1['id']}/start", {}), "match", m1["id"],
         "operator"),
        ("match.scored", lambda: day.op("POST", f"/operator/matches/{m1['id']}/score",
                                        {"gameScores": [{"a": 3, "b": 1}]}), "match", m1["id"], "operator"),
        ("match.point", lambda: day.tap(day.scorer(), "point", side="a"), "match", m1["id"], "scorer"),
        ("match.point_undone", lambda: day.tap(day.scorer(), "undo"), "match", m1["id"], "scorer"),
        ("match.completed", lambda: day.op("POST", f"/operator/matches/{m1['id']}/complete", {"gameScores": WIN}),
         "match", m1["id"], "operator"),
        ("match.corrected", lambda: day.op("POST", f"/operator/matches/{m1['id']}/score",
                                           {"gameScores": OTHER_WINS, "reason": "Umpire swapped the sides"}),
         "match", m1["id"], "operator"),
        ("match.started", lambda: day.tap(day.scorer(1), "start-next"), "match", "", "scorer"),  # m3, first there
        ("match.completed", lambda: day.op("POST", "/operator/matches/{}/complete".format(
            day.partner.get("/matches/m3").json["data"]["id"]), {"gameScores": WIN}), "match", "", "operator"),
        ("match.cancelled", lambda: day.partner.delete("/matches/m2"), "match", m2["id"], "partner"),
        ("match.cancelled", lambda: day.op("POST", f"/operator/matches/{day.queue()[0]}/cancel"), "match", "",
         "operator"),
        ("link.rotated", lambda: day.op("POST", f"/operator/tables/{day.tables[0]}/scorer/rotate"), "link",
         f"scorer:{day.tables[0]}", "operator"),
        ("link.revoked", lambda: day.op("DELETE", f"/operator/tables/{day.tables[0]}/scorer"), "link",
         f"scorer:{day.tables[0]}", "operator"),
        ("key.created", lambda: day.op("POST", "/operator/keys", {"name": "second"}, status=201), "connection", "",
         "operator"),
        ("link.enabled", lambda: day.op("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/enable"),
         "link", f"event:{day.broadcast_id}", "operator"),
        ("link.rotated", lambda: day.op("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/rotate"),
         "link", f"event:{day.broadcast_id}", "operator"),
        ("link.disabled", lambda: day.op("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/disable"),
         "link", f"event:{day.broadcast_id}", "operator"),
        ("app.created", lambda: register(operator), "app", "", "operator"),
        ("match.synced", lambda: day.sync("m9", players=("p1", "p8")), "match", "", "partner"),
        ("match.walkover", lambda: day.op("POST", f"/operator/matches/{day.id_of('m9')}/walkover",
                                          {"winnerSide": "a", "reason": "no_show"}), "match", "", "operator"),
        ("match.synced", lambda: day.sync("m10", players=("p7", "p8")), "match", "", "partner"),
        ("match.started", lambda: day.op("POST", f"/operator/matches/{day.id_of('m10')}/start", {}), "match", "",
         "operator"),
        ("match.retired", lambda: day.op("POST", f"/operator/matches/{day.id_of('m10')}/walkover",
                                         {"winnerSide": "b", "reason": "injury"}), "match", "", "operator"),
        ("broadcast.event_settings_changed", lambda: day.op("PATCH", f"/operator/broadcasts/{day.broadcast_id}",
                                                            {"eventDay": {"restMinutes": 5}}),
         "broadcast", day.broadcast_id, "operator"),
        ("person.checked_in", lambda: day.op("POST", "/operator/broadcasts/{}/people/{}/check-in".format(
            day.broadcast_id, day.op("GET", f"/operator/broadcasts/{day.broadcast_id}/people")[0]["personID"]),
            {"present": True}), "person", "", "operator"),
    ]
    for action, change, target_type, target_id, actor_kind in steps:
        count = len(entries(operator))
        result = change()
        if hasattr(result, "status_code"):
            assert result.status_code in (200, 201), result.json
        entry = one_new_entry(operator, count)
        assert entry["action"] == action, (action, entry)
        assert entry["target"]["type"] == target_type
        if target_id:
            assert entry["target"]["id"] == target_id
        assert entry["actor"]["kind"] == actor_kind, entry
    found = entries(operator)
    assert_chain(found)
    by_action = {e["action"]: e for e in reversed(found)}  # the last of each
    assert by_action["match.point"]["actor"]["id"] == day.tables[0]  # the scorer link's table
    assert by_action["match.synced"]["actor"]["id"] == day.partner_id
    assert re.fullmatch(r"opk_[0-9a-f]{16}", by_action["match.scored"]["actor"]["id"])
    assert by_action["match.completed"]["requestID"] == REQUEST_ID
    assert by_action["match.walkover"]["reason"] == "no_show" and by_action["match.retired"]["reason"] == "injury"
    settings = by_action["broadcast.event_settings_changed"]
    assert (settings["before"], settings["after"]) == ({"restMinutes": 0}, {"restMinutes": 5})
    corrected = by_action["match.corrected"]
    assert corrected["reason"] == "Umpire swapped the sides"
    assert corrected["before"]["gameScores"] == WIN and corrected["after"]["gameScores"] == OTHER_WINS


def test_links_keys_apps_connections_and_sign_ups_each_write_one_entry(
    day: Day, operator: Api, partner: Api, app: Flask,
) -> None:
    roster = make_roster(partner)
    visitor = app.test_client()
    path = sign_up_path(operator, roster["id"])
    steps: list[tuple[str, Callable[[], Any], str]] = [
        ("roster.signed_up", lambda: submit(visitor, path, firstName="Ann", lastName="Lee"), "registration"),
        ("link.rotated", lambda: day.op("POST", f"/operator/rosters/{roster['id']}/registration/rotate"),
         "operator"),
        ("link.disabled", lambda: partner.patch(f"/rosters/{roster['id']}", json={"selfRegistrationEnabled": False}),
         "partner"),
        ("link.enabled", lambda: partner.patch(f"/rosters/{roster['id']}", json={"selfRegistrationEnabled": True}),
         "partner"),
        ("link.rotated", lambda: day.op("POST", "/operator/outputs/{}/rotate".format(
            day.op("GET", f"/operator/broadcasts/{day.broadcast_id}/outputs")[0]["id"])), "operator"),
        ("key.rotated", lambda: rotate_operator_key(operator), "operator"),
    ]
    for action, change, actor_kind in steps:
        count = len(entries(operator))
        result = change()
        if hasattr(result, "status_code"):
            assert result.status_code in (200, 201), result.get_data(as_text=True)
        entry = one_new_entry(operator, count)
        assert (entry["action"], entry["actor"]["kind"]) == (action, actor_kind)
    signed = entries(operator, "targetType=roster")[0]
    assert signed["actor"]["id"] == roster["id"] and signed["after"]["player"]["firstName"] == "Ann"

    oauth_app = register(operator)
    count = len(entries(operator))
    response = exchange(operator, oauth_app, code_for(operator, oauth_app))
    assert response.status_code == 200, response.json
    approved = one_new_entry(operator, count)
    connection_id = response.json["connection_id"]
    assert approved["action"] == "connection.approved"
    assert approved["target"] == {"type": "connection", "id": connection_id}
    assert approved["actor"]["kind"] == "operator"  # the operator who approved the code (issue 37, point 9)
    count += 1
    day.op("DELETE", f"/operator/connections/{connection_id}")
    revoked = one_new_entry(operator, count)
    assert (revoked["action"], revoked["actor"]["kind"]) == ("connection.revoked", "operator")
    assert approved["actor"] == revoked["actor"]  # the same operator key
    count += 1
    assert partner.delete("/connection").status_code == 200
    by_partner = one_new_entry(operator, count)
    assert (by_partner["action"], by_partner["actor"]) == ("connection.revoked",
                                                          {"kind": "partner", "id": day.partner_id})
    assert_chain(entries(operator))


def rotate_operator_key(operator: Api) -> Any:
    response = operator.post("/operator/operator-key/rotate")
    assert response.status_code == 200, response.json
    operator.token = response.json["data"]["operatorKey"]
    return response


# ------------------------------------------------------------------------------------------- no secrets
def test_no_secret_appears_in_any_entry(day: Day, operator: Api, app: Flask) -> None:
    key = day.op("POST", "/operator/keys", {"name": "k"}, status=201)["key"]
    oauth_app = register(operator)
    scorer = day.op("POST", f"/operator/tables/{day.tables[0]}/scorer/rotate")["url"]
    output = day.op("GET", f"/operator/broadcasts/{day.broadcast_id}/outputs")[0]
    rotated_output = day.op("POST", f"/operator/outputs/{output['id']}/rotate")["url"]
    new_operator_key = rotate_operator_key(operator).json["data"]["operatorKey"]
    text = json.dumps(entries(operator))
    for secret in (key, oauth_app["clientSecret"], scorer.rsplit("/", 1)[1], output["url"].rsplit("/", 1)[1],
                   rotated_output.rsplit("/", 1)[1], new_operator_key, hashlib.sha256(key.encode()).hexdigest()):
        assert secret not in text
    rotation = entries(operator, f"targetID=scorer:{day.tables[0]}")[0]
    assert rotation["before"]["key"] == rotation["after"]["key"] == "…"  # it changed, its value is in neither


# ------------------------------------------------------------------------------------------- what is not a change
def test_a_refused_change_writes_no_entry_and_a_bulk_writes_one_per_applied_item(day: Day, operator: Api) -> None:
    m1 = day.sync("m1")
    day.op("POST", f"/operator/matches/{m1['id']}/start", {})
    count = len(entries(operator))
    day.op("POST", f"/operator/matches/{m1['id']}/start", {}, status=409)
    day.op("POST", f"/operator/matches/{m1['id']}/score", {"gameScores": [{"a": 30, "b": 1}]}, status=400)
    assert day.partner.patch("/matches/m1", json={"tableID": day.tables[1]}).status_code == 409
    day.op("POST", f"/operator/matches/{m1['id']}/move", {"tableID": day.tables[0]}, status=409)
    assert len(entries(operator)) == count
    items = [{"externalID": f"b{n}", "tableID": day.tables[1], "playerListExternalID": "list-1"} for n in range(3)]
    items.append({"externalID": "m1", "tableID": day.tables[1], "playerListExternalID": "list-1"})  # locked
    response = day.partner.post("/matches/bulk", json={"matches": items})
    assert response.status_code == 207, response.json
    assert [e["target"]["id"] for e in entries(operator)[:3]] == [
        r["data"]["id"] for r in reversed(response.json["data"]["results"][:3])]
    assert len(entries(operator)) == count + 3


def test_a_correction_reason_is_at_most_500_characters(day: Day, operator: Api) -> None:
    m1 = day.sync("m1")
    day.op("POST", f"/operator/matches/{m1['id']}/start", {})
    day.op("POST", f"/operator/matches/{m1['id']}/complete", {"gameScores": WIN})
    count = len(entries(operator))
    response = operator.post(f"/operator/matches/{m1['id']}/score", json={"gameScores": OTHER_WINS,
                                                                          "reason": "x" * 501})
    assert response.status_code == 400 and response.json["error"]["code"] == "validation_failed"
    assert len(entries(operator)) == count
    assert day.partner.get("/matches/m1").json["data"]["gameScores"] == WIN
    day.op("POST", f"/operator/matches/{m1['id']}/score", {"gameScores": OTHER_WINS, "reason": "y" * 500})
    assert entries(operator)[0]["reason"] == "y" * 500


# ------------------------------------------------------------------------------------------- the list
def test_the_list_is_newest_first_with_filters_and_cursor(day: Day, operator: Api, clock: Any) -> None:
    m1 = day.sync("m1")
    clock.advance(60)
    day.op("POST", f"/operator/matches/{m1['id']}/start", {})
    day.op("POST", f"/operator/matches/{m1['id']}/score", {"gameScores": [{"a": 1, "b": 0}]})
    everything = entries(operator)
    assert [e["seq"] for e in everything] == sorted((e["seq"] for e in everything), reverse=True)
    history = entries(operator, f"targetType=match&targetID={m1['id']}")
    assert [e["action"] for e in history] == ["match.scored", "match.started", "match.synced"]
    assert [e["action"] for e in entries(operator, "actorKind=partner")][:1] == ["match.synced"]
    assert all(e["actor"]["kind"] == "operator" for e in entries(operator, "actorKind=operator"))
    later = entries(operator, "since=" + everything[0]["at"].replace("Z", "%2B00:00"))  # an offset is fine
    assert [e["action"] for e in later] == ["match.scored", "match.started"]  # a minute after the sync
    assert entries(operator, "since=2099-01-01T00:00:00Z") == []
    first = operator.get("/operator/audit?limit=2")
    assert first.status_code == 200 and len(first.json["data"]) == 2 and first.json["nextCursor"]
    second = operator.get(f"/operator/audit?limit=2&cursor={first.json['nextCursor']}")
    assert second.json["data"][0]["seq"] == first.json["data"][1]["seq"] - 1
    for bad, code in (("cursor=nope", "invalid_cursor"), ("actorKind=robot", "validation_failed"),
                      ("limit=0", "validation_failed"), ("since=yesterday", "validation_failed")):
        response = operator.get(f"/operator/audit?{bad}")
        assert response.status_code == 400 and response.json["error"]["code"] == code, (bad, response.json)
    assert day.partner.get("/operator/audit").status_code == 401
