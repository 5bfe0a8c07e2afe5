"""Contract §12: export TinyDB -> import PostgreSQL -> export gives the identical file, with every model field set.

An event built through the real app on a TinyDB data dir sets every field of every model somewhere (operator
matches with their list's `player_list_id`, completed results, scorer links with taps, sign-up links and a
self-registered player, outputs, teams, an OAuth family, webhook deliveries with manual attempts, secret
rotations); a field left unset would not show that PostgreSQL keeps it. The file then goes through PostgreSQL and
back to a new TinyDB data dir, byte for byte.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient

from storage.engine import Store
from storage.pg_schema import TABLES
from storage.postgres import PgStore
from storage.repository import StoreUnitOfWork, _Repo
from storage.transfer import export_to, import_from
from tests.api.resources_support import make_broadcast, player, sync_list
from tests.api.test_oauth import refresh, register, tokens
from tests.conftest import Api
from tests.pg_cluster import Cluster
from tests.responses import json_of
from tests.server_process import free_port
from tests.webhook_receiver import Receiver, running_receiver

MODELS: dict[str, type] = {value.table: value.model for value in vars(StoreUnitOfWork).values()
                           if isinstance(value, _Repo)}
# Fields no event sets on a TinyDB data dir, and why.
NEVER_SET = {
    ("deliveries", "claimed_by"),  # the claiming process, on PostgreSQL only (test_multiprocess covers it)
    ("mail", "claimed_by"),  # only while a message is being sent (tests/api/test_personal_mail.py covers it)
    ("draws", "state"),  # a draw stored whole before draws were stored in parts (tests/api/test_draws.py covers it)
}


def _unset(docs: dict[str, list[dict[str, Any]]]) -> set[tuple[str, str]]:
    """(table, field) of every model field that no exported document of its table has set."""
    missing: set[tuple[str, str]] = set()
    for table, model in MODELS.items():
        for name in (field.name for field in dataclasses.fields(model)):
            if not any(doc.get(name) not in (None, [], {}, "") for doc in docs.get(table, [])):
                missing.add((table, name))
    return missing


def _build_event(operator: Api, partner: Api, visitor: FlaskClient, receiver: Receiver) -> None:
    """One of everything, through the app's routes."""
    configured = partner.patch("/webhooks/configuration", json={
        "url": receiver.url, "events": ["match.started", "match.score_updated", "match.completed"]})
    assert configured.status_code == 200, configured.json
    assert partner.post("/webhooks/secret/rotate", headers={"Idempotency-Key": "rotate-1"}).status_code == 200
    players = [player("p1", clubName="Porto TT", country="PT"), player("p2"), player("p3", firstName="Zoë 李"),
               player("p4", lastName="Ñúñez \"🏓\"")]
    sync_list(partner, players=players, description="Seeded entrants")
    roster = partner.post("/rosters", json={"name": "Club Championship", "rosterType": "individual",
                                            "description": "Sign up at the desk", "selfRegistrationEnabled": True})
    assert roster.status_code == 201, roster.json
    broadcast = make_broadcast(partner, description="Finals day",
                               defaultPlayerListID=roster.json["data"]["source"]["playerListID"],
                               defaultScoreboardID="classic", scoreboardIDs=["classic", "lowerthird"],
                               tables=[{"label": "Court 1", "scoreboardIDs": ["court"]}, {"label": "Court 2"}])
    tables = [table["id"] for table in broadcast["tables"]]
    assert partner.patch(f"/tables/{tables[0]}", json={"playerListExternalID": "list-1"}).status_code == 200
    made = partner.put("/matches", json={
        "externalID": "final", "tableID": tables[0], "playerListExternalID": "list-1", "eventName": "Open",
        "matchRound": "Final", "matchDetails": "Centre court", "startTime": "2026-11-23T10:00:00Z", "bestOf": 3,
        "isDoubles": True, "playerA": {"externalID": "p1"}, "playerA2": {"externalID": "p2"},
        "playerB": {"externalID": "p3"}, "playerB2": {"externalID": "p4"}})
    assert made.status_code == 200, made.json
    match_id = made.json["data"]["id"]
    for action, body in (("start", None), ("score", {"gameScores": [{"a": 11, "b": 7}]}),
                         ("complete", {"gameScores": [{"a": 11, "b": 7}, {"a": 11, "b": 9}]})):
        assert operator.post(f"/operator/matches/{match_id}/{action}", json=body).status_code == 200
    receiver.reply(500)
    assert partner.post("/webhooks/test").status_code == 202  # failed: retrying, with its error
    event_id = partner.get("/webhooks?limit=2").json["data"][1]["eventID"]
    retried = partner.post("/webhooks/retry", json={"eventID": event_id})  # a manual attempt, delivered
    assert retried.status_code == 200 and retried.json["data"]["status"] == "delivered", retried.json

    house = operator.post("/operator/broadcasts", json={"name": "Club day", "tables": [{"label": "Court 1"}],
                                                        "scoring": "tennis"})  # a tap keeps the game in play
    assert house.status_code == 201, house.json
    court = house.json["data"]["tables"][0]["id"]
    queued = operator.post("/operator/matches", json={"tableID": court, "playerListExternalID": "list-1",
                                                      "playerA": {"externalID": "p1"},
                                                      "playerB": {"manualName": "Walk In"}})
    assert queued.status_code == 201, queued.json
    assert queued.json["data"]["playerListExternalID"] == "list-1"
    assert operator.get(f"/operator/broadcasts/{broadcast['id']}/outputs").status_code == 200

    scorer = operator.get(f"/operator/tables/{court}/scorer").json["data"]["url"]
    path = "/" + scorer.split("/", 3)[3]
    version = json_of(visitor.get(path + "/state"))["data"]["version"]
    started = visitor.post(f"{path}/start-next", json={"version": version})
    assert started.status_code == 200, started.json
    tapped = visitor.post(f"{path}/point", json={"version": json_of(started)["data"]["version"], "side": "a",
                                                 "opID": "round-trip-1"})
    assert tapped.status_code == 200, tapped.json
    waiting = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "Called Up"},
                                                       "playerB": {"manualName": "Walk In"}})
    assert operator.post(f"/operator/matches/{waiting.json['data']['id']}/call").status_code == 200
    house_id = house.json["data"]["id"]
    assert operator.patch(f"/operator/broadcasts/{house_id}", json={
        "eventDay": {"requireCheckIn": True, "restMinutes": 10, "selfCheckIn": True, "selfReport": True,
                     "selfReportConfirmMinutes": 0}}).status_code == 200
    called_up = next(p["personID"] for p in operator.get(f"/operator/broadcasts/{house_id}/people").json["data"]
                     if p["name"] == "Called Up")
    me = operator.get(f"/operator/broadcasts/{house_id}/people/{called_up}/link").json["data"]["url"]
    reported = visitor.post("/" + me.split("/", 3)[3] + f"/matches/{waiting.json['data']['id']}/report",
                            json={"gameScores": [{"a": 6, "b": 3}, {"a": 6, "b": 4}]})
    assert reported.status_code == 200, reported.json
    walk_in = next(p["personID"] for p in operator.get(f"/operator/broadcasts/{house_id}/people").json["data"]
                   if p["name"] == "Walk In")
    theirs = operator.get(f"/operator/broadcasts/{house_id}/people/{walk_in}/link").json["data"]["url"]
    report_id = json_of(reported)["data"]["reports"][0]["reportID"]
    disputed = visitor.post("/" + theirs.split("/", 3)[3] + f"/reports/{report_id}/dispute")
    assert disputed.status_code == 200, disputed.json
    walked = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "No Show"},
                                                      "playerB": {"manualName": "Walk In"}})
    assert operator.post(f"/operator/matches/{walked.json['data']['id']}/walkover",
                         json={"winnerSide": "b", "reason": "no_show"}).status_code == 200
    drawn = operator.post("/operator/draws", json={"broadcastID": house_id, "name": "Club cup", "format":
                                                    "single_elimination", "tableIDs": [court], "scoring": "badminton",
                                                    "entries": [
                                                        {"players": [{"manualName": "Cup One"}]},
                                                        {"players": [{"manualName": "Cup Two"}]}]})
    assert drawn.status_code == 201, drawn.json
    planned = operator.patch(f"/operator/broadcasts/{house_id}", json={"plan": {  # the order of play (§20)
        "days": [{"date": "2026-11-21", "start": "00:00", "end": "23:59"}], "published": True}})
    assert planned.status_code == 200, planned.json
    assert operator.post(f"/operator/broadcasts/{house_id}/plan", json={}).status_code == 200
    person = operator.get(f"/operator/broadcasts/{house_id}/people").json["data"][0]["personID"]
    assert operator.post(f"/operator/broadcasts/{house_id}/people/{person}/check-in",
                         json={"present": True}).status_code == 200
    assert operator.post("/operator/matches/import", json={"broadcastID": house_id, "dryRun": False, "rows": [
        {"court": "Court 1", "playerA": "Late Start", "playerB": "Walk In",
         "scheduledOn": "2026-11-23T15:00:00Z"}]}).status_code == 200

    sign_up = "/" + operator.get(f"/operator/rosters/{roster.json['data']['id']}/registration"
                                 ).json["data"]["url"].split("/", 3)[3]
    token = re.search(r'name="csrf" value="([^"]+)"', visitor.get(sign_up).get_data(as_text=True))
    assert token is not None
    joined = visitor.post(sign_up, data={"csrf": token.group(1), "firstName": "Ana", "lastName": "Silva",
                                         "clubName": "Porto TT", "country": "PT", "gender": "female"})
    assert joined.status_code == 201
    league = partner.post("/rosters", json={"name": "League", "rosterType": "team", "teamLogoURL":
                                            "https://example.org/logo.png", "teamJerseyColor": "#112233"})
    assert league.status_code == 201, league.json
    team = partner.put("/teams", json={"externalID": "t1", "name": "Porto", "logoURL": "https://example.org/p.png",
                                       "jerseyColor": "#aa0000", "players": [player("t1p1")]})
    assert team.status_code == 200, team.json

    app = register(operator, legacy=True)
    issued = tokens(operator, app)
    assert refresh(operator, app, issued["refresh_token"]).status_code == 200  # consumes the first refresh token
    key = operator.post("/operator/keys", json={"name": "old laptop"})
    assert key.status_code == 201
    revoked = operator.delete(f"/operator/connections/{key.json['data']['connectionID']}")
    assert revoked.status_code == 200, revoked.json


def _mail(operator: Api, app: Flask) -> None:
    """Two call-up mails (§21): one failing (its server refused), one sent to a real SMTP server."""
    broadcast = operator.post("/operator/broadcasts", json={"name": "Mail Day", "tables": [{"label": "Court 3"}]})
    members = operator.post("/operator/player-lists", json={"name": "Members"}).json["data"]
    for first in ("Ann", "Bo"):
        assert operator.post(f"/operator/player-lists/{members['id']}/players", json={
            "firstName": first, "lastName": "Lee", "email": f"{first.lower()}@example.org"}).status_code == 201
    court = broadcast.json["data"]["tables"][0]["id"]
    assert operator.patch(f"/operator/tables/{court}", json={"playerListExternalID": members["id"]}).status_code == 200
    first_match = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "Ann Lee"},
                                                           "playerB": {"manualName": "Bo Lee"}}).json["data"]
    assert operator.post(f"/operator/matches/{first_match['id']}/call").status_code == 200
    dispatcher = app.services.dispatcher  # type: ignore[attr-defined]
    dispatcher.mailer.port = free_port()  # nobody listens there
    assert dispatcher.send_due_mail() == 0
    controller = Controller(_Inbox(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        dispatcher.mailer.port = controller.port
        second = operator.post("/operator/matches", json={"tableID": court, "playerA": {"manualName": "Bo Lee"},
                                                          "playerB": {"manualName": "Ann Lee"}}).json["data"]
        assert operator.post(f"/operator/matches/{second['id']}/call").status_code == 200
        assert dispatcher.send_due_mail() == 2  # the two new ones; the failing ones are not due again yet
    finally:
        controller.stop()
    statuses = [m["status"] for m in operator.get("/operator/mail").json["data"]]
    assert sorted(statuses) == ["failing", "failing", "sent", "sent"]


class _Inbox:
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        return "250 OK"


def _export(store: Store | PgStore) -> bytes:
    out = io.BytesIO()
    export_to(store, out)
    return out.getvalue()


@pytest.fixture
def visitor(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


@pytest.mark.parametrize("settings", [{"smtp_url": "smtp://127.0.0.1:9", "mail_from": "desk@club.example"}],
                         indirect=True)
def test_every_model_field_round_trips_tinydb_postgres_tinydb_byte_for_byte(
    operator: Api, partner: Api, visitor: FlaskClient, receiver: Receiver, store: Store, pg_cluster: Cluster,
    tmp_path: Path, app: Flask,
) -> None:
    _build_event(operator, partner, visitor, receiver)
    _mail(operator, app)
    first = _export(store)
    docs: dict[str, list[dict[str, Any]]] = {}
    for line in first.splitlines()[1:]:
        entry = orjson.loads(line)
        docs.setdefault(entry["table"], []).append(entry["doc"])
    assert set(docs) == set(TABLES)
    assert _unset(docs) == NEVER_SET
    assert any(doc.get("player_list_id") for doc in docs["matches"])
    assert {doc["kind"] for doc in docs["links"]} == {"scorer", "registration", "personal"}
    assert any(p.get("source") == "self" for doc in docs["player_lists"] for p in doc["players"])

    (tmp_path / "first.jsonl").write_bytes(first)
    database = PgStore(pg_cluster.new_database())
    try:
        assert import_from(database, tmp_path / "first.jsonl") == {table: len(docs[table]) for table in TABLES}
        second = _export(database)
    finally:
        database.close()
    assert second == first

    (tmp_path / "second.jsonl").write_bytes(second)
    back = Store(tmp_path / "back")
    try:
        import_from(back, tmp_path / "second.jsonl")
        assert _export(back) == first
    finally:
        back.close()
