"""The session whose requests and answers are the OpenAPI document's examples (contract §23: "every request and
response body has an example that the server accepts or produces").

A partner's and an operator's day, run against a real app over real storage: each JSON request body sent and each
JSON 2xx answer received is kept as the example of its operation (the first of each status). Secrets in answers
(keys, tokens, link keys) are replaced by look-alikes. Regenerate `api/examples.json` after a change of a body:

    .venv/bin/python -m tests.contract.examples_session

`tests/contract/test_openapi.py` checks that every operation has its examples, that they validate against the
document's schemas, and that this session still runs from end to end.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from api.app import create_app
from api.bootstrap import bootstrap
from api.operation_ids import operation_id
from domain.access.auth import bootstrap as create_account
from domain.clock import FixedClock
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work
from tests.webhook_receiver import Receiver, running_receiver

OPERATOR_KEY = "svc_op_example-operator-key-0123456789abcdefghijk"
EXAMPLES = Path(__file__).resolve().parents[2] / "api" / "examples.json"
REDIRECT = "https://partner.example.com/oauth/callback"
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
CHALLENGE = base64.urlsafe_b64encode(hashlib.sha256(VERIFIER.encode()).digest()).decode().rstrip("=")
SECRET = re.compile(r"\b(svc_(?:test|token|refresh|op)_|whsec_|sco_|reg_|evt_|out_|ply_)[A-Za-z0-9_\-+/=]{16,}")
Json = dict[str, Any]


class Session:
    """Calls the app with a credential and keeps each operation's first request body and answer per status."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.examples: dict[str, Json] = {}

    def _operation(self, method: str, path: str) -> str:
        adapter = self.app.url_map.bind("localhost")
        try:
            rule, _ = adapter.match(path, method=method, return_rule=True)
        except HTTPException as exc:  # pragma: no cover - a step of the session names an unknown route
            raise AssertionError(f"{method} {path}: {exc}") from exc
        document_path = re.sub(r"<(?:[a-z]+:)?([A-Za-z_]+)>", r"{\1}", rule.rule)
        return operation_id(method, document_path)

    def call(self, method: str, path: str, token: str | None, body: Any = None, *, status: int | None = None,
             form: dict[str, str] | None = None, headers: dict[str, str] | None = None) -> Any:
        url = "/api/v1" + path
        headers = dict(headers or {}) | ({"Authorization": f"Bearer {token}"} if token else {})
        if form is not None:
            response = self.client.open(url, method=method, headers=headers, data=form)
        else:
            response = self.client.open(url, method=method, headers=headers, json=body)
        expected = status or (201 if response.status_code == 201 else 200)
        assert response.status_code == expected, (method, path, response.status_code, response.get_data(as_text=True))
        name = self._operation(method, url.split("?")[0])
        kept = self.examples.setdefault(name, {"responses": {}})
        if body is not None and "request" not in kept:
            kept["request"] = body
        if form is not None and "request" not in kept:
            kept["request"] = form
        if response.mimetype == "application/json" and str(response.status_code) not in kept["responses"]:
            kept["responses"][str(response.status_code)] = _masked(response.json)
        return response.json if response.mimetype == "application/json" else response.get_data(as_text=True)


def _short(value: Any) -> Any:
    """Long lists cut to their first three items: an example shows the shape, not the whole day."""
    if isinstance(value, list):
        return [_short(item) for item in value[:3]]
    if isinstance(value, dict):
        return {key: _short(item) for key, item in value.items()}
    return value


def _masked(value: Any) -> Any:
    """The answer with every secret replaced by a look-alike of the same kind (`svc_test_…`, `whsec_…`)."""
    text = json.dumps(_short(value))
    text = SECRET.sub(lambda m: m.group(1) + "EXAMPLE" + "x" * 25, text)
    return json.loads(text)


def run(app: Flask, operator_key: str, receiver: Receiver) -> dict[str, Json]:  # noqa: PLR0915 - one story
    """The day, step by step (webhooks to `receiver`); returns the examples by operationId."""
    s = Session(app)
    op = operator_key
    s.call("GET", "/health", None)
    s.call("GET", "/operator/rules", op)
    s.call("GET", "/operator/scoreboards", op)
    s.call("GET", "/operator/scoring-formats", op)
    # --- a partner's developer key and an OAuth app
    key = s.call("POST", "/operator/keys", op, {"name": "Scores Live"}, status=201)["data"]["key"]
    app_ = s.call("POST", "/operator/apps", op, {"name": "Club App", "redirectURIs": [REDIRECT],
                                                 "scope": "matches.read tables.read"}, status=201)["data"]
    s.call("GET", "/operator/apps", op)
    code = s.call("POST", "/operator/oauth/approve", op, {"clientID": app_["clientID"], "redirectURI": REDIRECT,
                                                          "codeChallenge": CHALLENGE, "state": "af0ifjsldkj"})
    s.call("POST", "/oauth/token", None, {"grant_type": "authorization_code", "code": code["data"]["code"],
                                          "redirect_uri": REDIRECT, "code_verifier": VERIFIER,
                                          "client_id": app_["clientID"], "client_secret": app_["clientSecret"]})
    # --- the partner sets up
    s.call("GET", "/connection", key)
    secret = s.call("PATCH", "/webhooks/configuration", key, {"url": receiver.url,
                                                              "events": ["match.started", "match.completed",
                                                                         "match.cancelled"]})
    assert secret["data"]["webhook_secret"]
    s.call("GET", "/webhooks/configuration", key)
    broadcast = s.call("POST", "/broadcasts", key, {
        "name": "City Open 2026", "description": "Saturday, main hall",
        "tables": [{"label": "Court 1"}, {"label": "Court 2"}, {"label": "Court 3"}]}, status=201)["data"]
    tables = [t["id"] for t in broadcast["tables"]]
    s.call("GET", "/broadcasts", key)
    s.call("GET", f"/broadcasts/{broadcast['id']}", key)
    s.call("PATCH", f"/broadcasts/{broadcast['id']}", key, {"description": "Saturday and Sunday, main hall"})
    players = [{"externalID": "p-1001", "firstName": "Ann", "lastName": "Lee", "clubName": "Riverside TC",
                "country": "GB"},
               {"externalID": "p-1002", "firstName": "Bo", "lastName": "Kim", "clubName": "Hilltop"},
               {"externalID": "p-1003", "firstName": "Cy", "lastName": "Diaz", "ranking": 12},
               {"externalID": "p-1004", "firstName": "Di", "lastName": "Evans", "rating": "1840"}]
    s.call("PUT", "/player-lists", key, {"externalID": "club-open-2026", "name": "Open entrants",
                                         "description": "Confirmed on Friday", "players": players})
    s.call("GET", "/player-lists", key)
    s.call("GET", "/player-lists/club-open-2026", key)
    s.call("PATCH", "/player-lists/club-open-2026", key, {
        "upsert": [{"externalID": "p-1005", "firstName": "Ed", "lastName": "Fox"}], "removeExternalIDs": []})
    s.call("PUT", "/teams", key, {"externalID": "team-riverside", "name": "Riverside TC", "jerseyColor": "#1f6feb",
                                  "players": [{"externalID": "t-1", "firstName": "Gus", "lastName": "Hale"}]})
    s.call("GET", "/teams", key)
    s.call("GET", "/teams/team-riverside", key)
    s.call("PATCH", "/teams/team-riverside", key, {"name": "Riverside Tennis Club"})
    roster = s.call("POST", "/rosters", key, {"name": "Juniors", "rosterType": "individual",
                                              "description": "Under 15"}, status=201)["data"]
    s.call("GET", "/rosters", key)
    s.call("GET", f"/rosters/{roster['id']}", key)
    s.call("PATCH", f"/rosters/{roster['id']}", key, {"description": "Under 15, mixed"})
    s.call("PATCH", f"/tables/{tables[0]}", key, {"playerListExternalID": "club-open-2026"})
    s.call("PATCH", "/tables/bulk", key, {"tables": [{"tableID": tables[1], "playerListExternalID": "club-open-2026"},
                                                     {"tableID": tables[2], "playerListExternalID": "club-open-2026"}]})
    s.call("GET", "/tables", key)
    match = {"externalID": "ms-r16-1", "tableID": tables[0], "playerListExternalID": "club-open-2026",
             "eventName": "Men's Singles", "matchRound": "Round of 16", "startTime": "2026-11-28T10:30:00Z",
             "bestOf": 5, "isDoubles": False, "playerA": {"externalID": "p-1001"}, "playerB": {"externalID": "p-1002"}}
    s.call("PUT", "/matches", key, match)
    s.call("POST", "/matches", key, {**match, "externalID": "ms-r16-2", "playerA": {"externalID": "p-1003"},
                                     "playerB": {"externalID": "p-1004"}, "startTime": "2026-11-28T11:15:00+01:00"})
    s.call("POST", "/matches/bulk", key, {"matches": [
        {**match, "externalID": "ms-r16-3", "tableID": tables[1], "playerA": {"externalID": "p-1005"},
         "playerB": {"manualName": "Qualifier 1"}},
        {**match, "externalID": "ms-r16-4", "tableID": tables[1], "playerA": {"manualName": "Qualifier 2"},
         "playerB": {"manualName": "Qualifier 3"}}]})
    s.call("PATCH", "/matches/ms-r16-2", key, {**match, "externalID": "ms-r16-2", "matchDetails": "Show court",
                                               "playerA": {"externalID": "p-1003"},
                                               "playerB": {"externalID": "p-1004"}})
    s.call("PATCH", "/matches/bulk", key, {"matches": [{"externalID": "ms-r16-4", "tableID": tables[2]}]})
    s.call("GET", "/matches", key)
    missing_table = "tbl_0000000000000000"
    s.call("POST", "/matches/bulk", key, {"matches": [
        {**match, "externalID": "ms-r16-6", "tableID": tables[2]},
        {**match, "externalID": "ms-r16-7", "tableID": missing_table}]}, status=207)
    s.call("PATCH", "/matches/bulk", key, {"matches": [{"externalID": "ms-r16-6", "tableID": tables[1]},
                                                       {"externalID": "ms-r16-9", "tableID": tables[1]}]},
           status=207)
    s.call("POST", "/matches/bulk/cancel", key, {"externalIDs": ["ms-r16-6", "ms-r16-9"]}, status=207)
    s.call("PATCH", "/tables/bulk", key, {"tables": [
        {"tableID": tables[0], "playerListExternalID": "club-open-2026"},
        {"tableID": missing_table, "playerListExternalID": "club-open-2026"}]}, status=207)
    s.call("GET", "/matches/ms-r16-1", key)
    s.call("GET", f"/tables/{tables[0]}", key)
    # --- the operator plays the day
    s.call("GET", "/operator/broadcasts", op)
    s.call("GET", "/operator/tables", op)
    s.call("GET", "/operator/matches", op)
    m1 = s.call("GET", "/matches/ms-r16-1", key)["data"]["id"]
    m2 = s.call("GET", "/matches/ms-r16-2", key)["data"]["id"]
    m3 = s.call("GET", "/matches/ms-r16-3", key)["data"]["id"]
    s.call("POST", f"/operator/matches/{m1}/call", op)
    s.call("POST", f"/operator/matches/{m1}/start", op, {"force": True})
    state = s.call("POST", f"/operator/matches/{m1}/point", op, {"side": "a", "version": 1, "opID": "tap-0001"})
    state = s.call("POST", f"/operator/matches/{m1}/undo", op, {"version": state["data"]["scoreVersion"],
                                                               "opID": "undo-0001"})
    s.call("POST", f"/operator/matches/{m1}/score", op, {"gameScores": [{"a": 11, "b": 7}, {"a": 9, "b": 11}]})
    s.call("POST", f"/operator/matches/{m1}/complete", op, {"gameScores": [
        {"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 8}, {"a": 11, "b": 6}]})
    s.call("POST", f"/operator/tables/{tables[0]}/start-next", op)  # ms-r16-2, next on Court 1
    s.call("POST", f"/operator/matches/{m2}/walkover", op, {"winnerSide": "b", "reason": "retired"})
    sheet = s.call("POST", "/operator/matches", op, {"tableID": tables[0], "playerA": {"manualName": "Ann Lee"},
                                                     "playerB": {"manualName": "Bo Chen"}})["data"]["id"]
    s.call("POST", f"/operator/matches/{sheet}/result", op, {"gameScores": [  # from the umpire's sheet (§19)
        {"a": 11, "b": 6}, {"a": 11, "b": 9}, {"a": 8, "b": 11}, {"a": 11, "b": 4}], "reason": "umpire's sheet"})
    mistaken = s.call("POST", "/operator/matches", op, {"tableID": tables[0], "playerA": {"manualName": "Cy Day"},
                                                        "playerB": {"manualName": "Di Eve"}})["data"]["id"]
    s.call("POST", f"/operator/matches/{mistaken}/start", op, {"force": True})
    s.call("POST", f"/operator/matches/{mistaken}/stop", op)  # started by mistake: back to waiting
    s.call("POST", f"/operator/matches/{m3}/move", op, {"tableID": tables[2]})
    queue = [m["id"] for m in s.call("GET", f"/tables/{tables[2]}", key)["data"]["queue"]]
    s.call("PUT", f"/operator/tables/{tables[2]}/queue", op, {"matchIDs": list(reversed(queue))})
    s.call("POST", f"/operator/matches/{m3}/cancel", op)
    s.call("GET", f"/operator/results?broadcastID={broadcast['id']}", op)
    s.call("GET", "/webhooks", key)
    s.call("POST", "/webhooks/test", key, {"type": "match.completed"})
    receiver.reply(503)
    event_id = s.call("POST", "/webhooks/test", key, {"type": "match.started"}, status=202)["data"]["eventID"]
    s.call("GET", f"/webhooks/{event_id}", key)
    s.call("POST", "/webhooks/retry", key, {"eventID": event_id})
    s.call("GET", "/webhooks?status=failing", key)
    s.call("POST", "/webhooks/retry-failing", key)
    s.call("POST", "/webhooks/secret/rotate", key, headers={"Idempotency-Key": "rotate-2026-11-28"})
    s.call("GET", "/operator/webhooks", op)
    s.call("GET", f"/operator/webhooks/{event_id}", op)
    s.call("POST", f"/operator/webhooks/{event_id}/retry", op)
    connection = s.call("GET", "/connection", key)["data"]["connectionID"]
    s.call("POST", f"/operator/connections/{connection}/webhooks/retry-failing", op)
    s.call("PUT", "/matches", key, {**match, "externalID": "ms-r16-5", "tableID": tables[1]})
    s.call("POST", "/matches/bulk/cancel", key, {"externalIDs": ["ms-r16-5"]})
    # --- the operator's own club day
    desk = s.call("POST", "/operator/broadcasts", op, {"name": "Club day", "tables": [
        {"label": "Court A"}, {"label": "Court B"}]}, status=201)["data"]
    desk_tables = [t["id"] for t in desk["tables"]]
    s.call("PATCH", f"/operator/broadcasts/{desk['id']}", op, {"eventDay": {"requireCheckIn": False}})
    house = s.call("POST", "/operator/player-lists", op, {"name": "Club members"}, status=201)["data"]
    ann = s.call("POST", f"/operator/player-lists/{house['id']}/players", op, {
        "firstName": "Ann", "lastName": "Lee", "clubName": "Riverside TC"}, status=201)["data"]["players"][-1]
    s.call("POST", f"/operator/player-lists/{house['id']}/players/import", op, {"dryRun": False, "rows": [
        {"firstName": "Bo", "lastName": "Kim", "clubName": "Hilltop"},
        {"firstName": "Cy", "lastName": "Diaz", "country": "ES"}]})
    s.call("POST", f"/operator/player-lists/{house['id']}/players/import", op, {"dryRun": False, "rows": [
        {"firstName": "Di", "lastName": "Evans"}, {"firstName": "Cy", "lastName": "Diaz"}]},
        status=207)
    s.call("PATCH", f"/operator/player-lists/{house['id']}/players/{ann['id']}", op, {"clubName": "Riverside"})
    s.call("GET", "/operator/player-lists", op)
    s.call("PATCH", f"/operator/tables/{desk_tables[0]}", op, {"playerListExternalID": house["id"]})
    made = s.call("POST", "/operator/matches", op, {"tableID": desk_tables[0], "playerA": {"manualName": "Ann Lee"},
                                                   "playerB": {"manualName": "Bo Kim"}, "eventName": "Club singles"},
                  status=201)["data"]
    s.call("POST", "/operator/matches/import", op, {"broadcastID": desk["id"], "dryRun": False, "rows": [
        {"court": "Court B", "playerA": "Cy Diaz", "playerB": "Di Evans", "scheduledOn": "2026-11-28T14:00:00Z"},
        {"court": "Court B", "playerA": "Ed Fox", "playerB": "Flo Gray", "time": "14:45"}]})
    s.call("POST", "/operator/matches/import", op, {"broadcastID": desk["id"], "dryRun": True, "rows": [
        {"court": "Court B", "playerA": "Gus Hale", "playerB": "Ida Jones"},
        {"court": "Court Z", "playerA": "Jo King", "playerB": "Kai Lund"}]}, status=207)
    people = s.call("GET", f"/operator/broadcasts/{desk['id']}/people", op)["data"]
    s.call("POST", f"/operator/broadcasts/{desk['id']}/people/{people[0]['personID']}/check-in", op,
           {"present": True})
    s.call("POST", f"/operator/matches/{made['id']}/start", op, {"force": True})
    club = s.call("POST", "/operator/rosters", op, {"name": "Sign-up", "type": "individual",
                                                    "broadcastID": desk["id"]}, status=201)["data"]
    s.call("PATCH", f"/operator/rosters/{club['id']}", op, {"selfRegistrationEnabled": True})
    s.call("GET", "/operator/rosters", op)
    s.call("GET", f"/operator/rosters/{club['id']}/registration", op)
    s.call("POST", f"/operator/rosters/{club['id']}/registration/rotate", op)
    s.call("GET", f"/operator/tables/{desk_tables[0]}/scorer", op)
    s.call("POST", f"/operator/tables/{desk_tables[0]}/scorer/rotate", op)
    s.call("DELETE", f"/operator/tables/{desk_tables[0]}/scorer", op)
    outputs = s.call("GET", f"/operator/broadcasts/{desk['id']}/outputs", op)["data"]
    s.call("POST", f"/operator/outputs/{outputs[0]['id']}/rotate", op)
    s.call("GET", f"/operator/broadcasts/{desk['id']}/event-page", op)
    s.call("POST", f"/operator/broadcasts/{desk['id']}/event-page/enable", op)
    s.call("POST", f"/operator/broadcasts/{desk['id']}/event-page/rotate", op)
    s.call("POST", f"/operator/broadcasts/{desk['id']}/event-page/disable", op)
    s.call("GET", f"/operator/broadcasts/{desk['id']}/people/{people[0]['personID']}/link", op)
    s.call("POST", f"/operator/broadcasts/{desk['id']}/people/{people[0]['personID']}/link/rotate", op)
    s.call("PATCH", f"/operator/broadcasts/{desk['id']}", op, {"eventDay": {"selfReport": True}})
    ann_id = next(p["personID"] for p in people if p["name"] == "Ann Lee")
    ann_url = s.call("GET", f"/operator/broadcasts/{desk['id']}/people/{ann_id}/link", op)["data"]["url"]
    reported = s.client.post("/me/" + ann_url.rsplit("/me/", 1)[1] + f"/matches/{made['id']}/report",
                             json={"gameScores": [{"a": 11, "b": 5}, {"a": 11, "b": 7}, {"a": 11, "b": 9}]})
    assert reported.status_code == 200, reported.get_data(as_text=True)
    waiting = s.call("GET", f"/operator/broadcasts/{desk['id']}/reports?status=waiting", op)["data"]
    s.call("POST", f"/operator/reports/{waiting[0]['reportID']}/accept", op, {})
    s.call("GET", "/operator/mail", op)
    draw_body = {"broadcastID": desk["id"], "name": "Juniors round robin", "format": "round_robin", "bestOf": 3,
                 "tiebreak": "bwf",
                 "entries": [{"players": [{"manualName": name}], "seed": seed}
                             for seed, name in enumerate(["Gus Hale", "Ida Jones", "Jo King", "Kai Lund"], 1)]}
    s.call("POST", "/operator/draws/preview", op, draw_body)
    draw = s.call("POST", "/operator/draws", op, draw_body, status=201)["data"]
    s.call("GET", f"/operator/draws?broadcastID={desk['id']}", op)
    s.call("GET", f"/operator/draws/{draw['id']}", op)
    s.call("GET", f"/operator/broadcasts/{desk['id']}/pool", op)
    s.call("PATCH", f"/operator/broadcasts/{desk['id']}", op, {"plan": {
        "days": [{"date": "2026-11-28", "start": "10:00", "end": "20:00"}], "matchMinutes": {"default": 30},
        "dailyLimit": {"singles": 4}, "earlyMinutes": 10}})
    s.call("POST", f"/operator/broadcasts/{desk['id']}/plan", op, {"keepPlaced": True})
    planned = s.call("GET", f"/operator/broadcasts/{desk['id']}/plan", op)["data"]
    first_slot = planned["days"][0]["courts"][0]["slots"][0]
    later = draw["rounds"][-1]["drawMatches"][0]
    s.call("POST", f"/operator/draw-matches/{later['id']}/plan", op,
           {"tableID": planned["days"][0]["courts"][0]["tableID"], "plannedOn": first_slot["plannedOn"]})
    s.call("POST", f"/operator/matches/{draw['rounds'][0]['drawMatches'][0]['matchID']}/plan", op,
           {"tableID": planned["days"][0]["courts"][0]["tableID"], "plannedOn": "2026-11-28T16:00:00.000Z"})
    entry = draw["entries"][-1]["id"]
    s.call("POST", f"/operator/draws/{draw['id']}/entries/{entry}/withdraw", op)
    s.call("POST", f"/operator/draws/{draw['id']}/entries/{entry}/replace", op,
           {"players": [{"manualName": "Lea Moss"}], "club": "TTC Süd", "rating": 1480})
    spare_draw = s.call("POST", "/operator/draws", op, {**draw_body, "name": "Spare draw"}, status=201)["data"]
    s.call("DELETE", f"/operator/draws/{spare_draw['id']}", op)
    s.call("GET", "/operator/audit?limit=5", op)
    s.call("GET", "/operator/audit/head", op)
    s.call("GET", "/operator/connections", op)
    other = s.call("POST", "/operator/keys", op, {"name": "Old app"}, status=201)["data"]["connectionID"]
    s.call("POST", f"/operator/broadcasts/{desk['id']}/handover", op, {"connectionID": other})
    s.call("DELETE", f"/operator/connections/{other}", op)
    s.call("DELETE", f"/operator/player-lists/{house['id']}/players/{ann['id']}", op)
    # --- the partner tidies up
    s.call("DELETE", "/matches/ms-r16-4", key)
    s.call("DELETE", f"/rosters/{roster['id']}", key)
    spare = s.call("POST", "/broadcasts", key, {"name": "Spare", "tables": [{"label": "Court 9"}]}, status=201)
    s.call("DELETE", f"/broadcasts/{spare['data']['id']}", key)
    gone = s.call("POST", "/operator/broadcasts", op, {"name": "Warm-up hall", "tables": [{"label": "W1"}]},
                  status=201)["data"]["id"]
    s.call("DELETE", f"/operator/broadcasts/{gone}", op)
    s.call("DELETE", "/connection", key)
    s.call("POST", "/operator/operator-key/rotate", op)
    return s.examples


def record() -> dict[str, Json]:
    """Run the session on a fresh data dir (TinyDB) and return its examples."""
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder) / "data")
        store = open_store(settings)
        clock = FixedClock(datetime(2026, 11, 28, 9, 0, tzinfo=UTC))
        try:
            with unit_of_work(store) as uow:
                create_account(uow, operator_key=OPERATOR_KEY, now=clock.now())
            for receiver in running_receiver():
                return run(create_app(bootstrap(settings, store, clock=clock)), OPERATOR_KEY, receiver)
            raise AssertionError("no receiver")
        finally:
            store.close()


def main() -> None:
    EXAMPLES.write_text(json.dumps(record(), indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    sys.stdout.write(f"wrote {EXAMPLES}\n")


if __name__ == "__main__":
    main()
