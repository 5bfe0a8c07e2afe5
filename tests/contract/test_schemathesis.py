"""Schemathesis against a real `courtside serve` process: every operation, valid and invalid data.

Partner operations are called with a developer key, operator operations with the operator key; each audience
also gets a run that names seeded resources in paths and bodies most of the time, so that successful reads and
changes (and 409s of the match states) are checked as well as 404s.

Checks (schemathesis defaults, none excluded): no server errors, statuses, content types, headers and bodies
conform to /api/v1/openapi.json, schema-violating requests are rejected with 4xx, valid ones are accepted,
authentication is not ignored, unsupported methods get 405 with `Allow`; plus one of ours: every 4xx an
operation gives is documented by its own response, not only by `default`. Valid cases are made to obey the few
contract rules JSON Schema cannot state (well-formed cursors, no duplicate keys in a batch, no NUL or bidi
controls in any string, ...). Examples are
bounded and derandomized so that the run is fast and repeatable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NOT_SET
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.result import Ok

from api.schemas.common import list_tag
from domain import names, text
from domain.draws import standings
from domain.pagination import encode_cursor
from tests.server_process import ServerProcess, free_port

Operation = schemathesis.APIOperation[Any, Any, Any, Any]
AnyCase = schemathesis.Case[Any]

#: Generous quotas: this test is about conformance, the rate limiter has its own tests.
SERVER_ENV = {
    "COURTSIDE_RATE_LIMIT": "1000000",
    "COURTSIDE_DEV_KEY_RATE_LIMIT": "1000000",
    "COURTSIDE_TOKEN_RATE_LIMIT": "1000000",
}
EXAMPLES = 25
#: Both storage backends (issue 47: a fuzzed body once made PostgreSQL answer 500 where TinyDB did not).
BOTH_BACKENDS = True
#: Operations that revoke the very credential the run calls with; each has its own end-to-end test
#: (`tests/e2e/test_cli.py::test_a_lost_operator_key_is_reported_and_rotate_revokes_it`).
CREDENTIAL_ROTATING = {"/api/v1/operator/operator-key/rotate"}
SEEDED_PLAYERS = ("p1", "p2", "p3", "p4")
MAX_REPORT = 1500
#: The document marks opaque page cursors `format: cursor`; generate well-formed ones (any position).
schemathesis.openapi.format("cursor", st.integers(min_value=0, max_value=10**9).map(encode_cursor))


@dataclass
class Live:
    """The running server and the developer key the partner operations are called with."""

    server: ServerProcess
    key: str
    session: requests.Session

    def pending(self, table_id: str) -> list[Any]:
        """The IDs of a table's pending matches, in queue order (operator key only)."""
        response = self.session.get(f"{self.server.base}/operator/tables", params={"limit": 100}, timeout=30,
                                    headers={"Authorization": f"Bearer {self.server.operator_key}"})
        tables = {table["id"]: table for table in response.json()["data"]}
        return [match["id"] for match in tables.get(table_id, {}).get("queue", [])]

    def credential_for(self, method: str, path: str) -> str:
        """`DELETE /connection` revokes the key it is called with: give it a fresh one each time."""
        if method == "DELETE" and path == "/api/v1/connection":
            return self.server.developer_key()
        return self.key


@pytest.fixture
def live(server_factory: Callable[..., ServerProcess]) -> Live:
    server = server_factory(env=SERVER_ENV)
    return Live(server=server, key=server.developer_key(), session=requests.Session())


@pytest.fixture
def operator_live(server_factory: Callable[..., ServerProcess]) -> Live:
    server = server_factory(env=SERVER_ENV)
    return Live(server=server, key=server.operator_key, session=requests.Session())


def documented_operations(
    live: Live, *, operator: bool, config: schemathesis.Config | None = None
) -> list[Operation]:
    """The operations of the document the server serves: the operator routes, or all the others."""
    schema = schemathesis.openapi.from_url(f"{live.server.base}/openapi.json", config=config)

    @schema.auth(refresh_interval=None)
    class Credential:
        """Our bearer credential, except where a case deliberately leaves out or spoils the auth header."""

        def get(self, case: AnyCase, context: schemathesis.AuthContext) -> str:
            return live.credential_for(case.method, case.operation.path)

        def set(self, case: AnyCase, data: str, context: schemathesis.AuthContext) -> None:
            case.headers["Authorization"] = f"Bearer {data}"

    @schema.hook("map_case")
    def valid_means_valid(context: schemathesis.HookContext, case: AnyCase) -> AnyCase:
        if case.meta is not None and case.meta.generation.mode.is_positive:
            for part in ("body", "query", "path_parameters"):
                setattr(case, part, with_visible_names(without_forbidden_text(getattr(case, part))))
            if isinstance(case.query, dict) and isinstance(case.query.get("cursor"), str):
                # a cursor is this list's own (contract §23): bound to the path it pages, as nextCursor is
                case.query["cursor"] = f"{list_tag(unquote(case.formatted_path))}.{case.query['cursor']}"
        if case.meta is not None and case.meta.generation.mode.is_positive and isinstance(case.body, dict):
            label = f"{case.method.upper()} {case.operation.path}"
            path_parameters = {name: unquote(str(value)) for name, value in (case.path_parameters or {}).items()}
            obey_cross_field_rules(label, case.body, path_parameters)
            if label == "PUT /api/v1/operator/tables/{table_id}/queue":  # exactly the pending matches, reordered
                case.body["matchIDs"] = live.pending(path_parameters["table_id"])[::-1]
        return case

    results = list(schema.get_all_operations())
    assert [result for result in results if not isinstance(result, Ok)] == []
    operations = [result.ok() for result in results if isinstance(result, Ok)]
    return [op for op in operations if op.path.startswith("/api/v1/operator/") == operator
            and op.path not in CREDENTIAL_ROTATING]


def partner_operations(live: Live) -> list[Operation]:
    return documented_operations(live, operator=False)


def obey_cross_field_rules(label: str, body: dict[str, Any], path_parameters: dict[str, Any]) -> None:
    """Make a valid body obey the contract's rules that JSON Schema cannot state (in place).

    A full-body PATCH of a match names the match of its path, and a match names players of its list (400
    unknown_player; the seeded list has them); scores obey the game rule (11 points, win by 2) and a completed
    best-of-5 has a winner; a roster patch keeps the roster's type; a list or team patch
    does not both upsert and
    remove one externalID (contract §5: 400 conflicting_patch); a bulk body, a list's players and a patch's
    upserts name each externalID or tableID once (contract §2, §4: a duplicate makes the whole request 400).
    """
    if label == "PATCH /api/v1/matches/{external_id}" and "externalID" in body and path_parameters:
        body["externalID"] = path_parameters["external_id"]
    if label.startswith("POST /api/v1/operator/draws") and body.get("format") not in standings.RANKED_FORMATS:
        body.pop("tiebreak", None)  # §22: a tie-break rule only where standings rank (400 otherwise)
    if label.endswith(("/score", "/complete")) and "gameScores" in body:
        body["gameScores"] = [{"a": 11, "b": 7}] * (3 if label.endswith("/complete") else 1)  # best of 5
    for side, player in zip(("playerA", "playerA2", "playerB", "playerB2"), SEEDED_PLAYERS, strict=True):
        if isinstance(body.get(side), dict) and "externalID" in body[side]:
            body[side]["externalID"] = player
    if label == "PATCH /api/v1/rosters/{roster_id}" and len(body) > 1:
        body.pop("rosterType", None)  # accepted only when equal to the stored type (roster_type_immutable)
    upserted = {item.get("externalID") for item in body.get("upsert", []) if isinstance(item, dict)}
    if upserted and isinstance(body.get("removeExternalIDs"), list):
        body["removeExternalIDs"] = [i for i in body["removeExternalIDs"] if i not in upserted]
    for holder in [body, *(row for row in body.get("rows", []) if isinstance(row, dict))]:
        obey_format_rules(holder.get("scoring"))
    obey_plan_rules(body.get("plan"))
    for name, items in body.items():  # bulk items, a list's players, a patch's upserts, a roster's teams
        if isinstance(items, list) and all(isinstance(item, dict) for item in items):
            body[name] = unique_items(items)


def obey_plan_rules(plan: Any) -> None:
    """Plan settings (§20) obey the rules between their fields (in place): each day once, ending after it starts,
    on courts of the broadcast (the days' own courts are left out); match minutes per draw name draws of it."""
    if not isinstance(plan, dict):
        return
    for index, day in enumerate(d for d in plan.get("days", []) if isinstance(d, dict)):
        day.update({"date": f"2026-12-{index + 1:02d}", "start": "09:00", "end": "21:00"})
        day.pop("tableIDs", None)
    if isinstance(plan.get("matchMinutes"), dict):
        plan["matchMinutes"] = {k: v for k, v in plan["matchMinutes"].items() if k == "default"}
    for entry in (e for e in plan.get("notBefore", []) if isinstance(e, dict)):
        entry["time"] = "2026-12-01T10:00"


def obey_format_rules(scoring: Any) -> None:
    """A format object obeys §18's rules between its fields (in place): a cap above `pointsToWin` (else none), a
    tiebreak at `gamesToWin` (else none)."""
    if not isinstance(scoring, dict):
        return
    for rule in (scoring, scoring.get("decidingGame")):
        if isinstance(rule, dict) and isinstance(rule.get("cap"), int) and isinstance(rule.get("pointsToWin"), int) \
                and rule["cap"] <= rule["pointsToWin"]:
            rule["cap"] = None
    if isinstance(scoring.get("tiebreakAt"), int):
        scoring["tiebreakAt"] = scoring.get("gamesToWin", 6)


def with_visible_names(value: Any) -> Any:
    """The value with every string that the document's BMP-only `pattern` lets through but §8a's rule finds blank
    (only unassigned, private-use or format characters beyond the BMP, `domain.names.is_blank`) given a visible
    first character, its length kept: JSON Schema cannot state Unicode categories."""
    if isinstance(value, str):
        return "x" + value[1:] if value and names.is_blank(value) and re.search(names.VISIBLE, value) else value
    if isinstance(value, dict):
        return {key: with_visible_names(item) for key, item in value.items()}
    if isinstance(value, list):
        return [with_visible_names(item) for item in value]
    return value


def without_forbidden_text(value: Any) -> Any:
    """The value with NUL and the bidi controls taken out of every string and key: contract §8a refuses them
    in any string a client sends (400 `validation_failed`), a rule over all fields that the document states in
    prose, not per field (`tests/api/test_hostile_names.py` checks the refusal)."""
    if isinstance(value, str):
        return text.FORBIDDEN.sub("", value)
    if isinstance(value, dict):
        return {without_forbidden_text(key): without_forbidden_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_forbidden_text(item) for item in value]
    return value


def unique_items(items: list[Any]) -> list[Any]:
    """The items whose key (`externalID`, else `tableID`) no earlier item has."""
    seen: set[object] = set()
    kept = []
    for item in items:
        key = item.get("externalID", item.get("tableID"))
        if not isinstance(key, str):
            kept.append(item)
        elif key not in seen:
            kept.append(item)
            seen.add(key)
    return kept


def status_documented_explicitly(
    ctx: schemathesis.CheckContext, response: schemathesis.Response, case: AnyCase
) -> bool | None:
    """Every error an operation gives has its own documented response; `default` is only for 500."""
    documented = {str(code) for code in case.operation.responses.status_codes}
    status = str(response.status_code)
    if status.startswith("5") or status in documented or f"{status[0]}XX" in documented:
        return None
    raise AssertionError(f"{status} is documented only by `default` (documented: {', '.join(sorted(documented))})")


def only_leaves_out_an_optional_body(case: AnyCase) -> bool:
    """A case that sends no body where the body is optional, and nothing else invalid: a valid request.

    Schemathesis 4.32 sometimes labels such a case negative (its phase says "Positive test case", its body
    component negative because nothing was drawn for it; seen on `POST /webhooks/test`, whose body is optional,
    depending on how the run's timing shapes the draws) and then fails it with ST201 for being accepted.
    """
    meta = case.meta
    body_required = bool(case.operation.definition.raw.get("requestBody", {}).get("required", False))
    return (meta is not None and case.body is NOT_SET and not body_required
            and all(info.mode.is_positive for location, info in meta.components.items()
                    if location != ParameterLocation.BODY))


def run_operation(live: Live, operation: Operation, mode: GenerationMode) -> str | None:
    """Fuzz one operation in one mode; the first failure, described, or None."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
        phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck),
    )
    def fuzz(case: AnyCase) -> None:
        if only_leaves_out_an_optional_body(case):
            assume(mode is GenerationMode.POSITIVE)  # not a negative case whatever its label says
            case.body = {}  # the optional body's smallest valid value: a label gone negative stays true to the case
        case.call_and_validate(session=live.session, timeout=30, additional_checks=[status_documented_explicitly])

    try:
        fuzz()
    except (Exception, BaseExceptionGroup) as failure:  # noqa: BLE001 - all are reported, with reproductions
        text = str(failure)
        return f"{operation.label} [{mode.value}]: {text if len(text) < MAX_REPORT else text[:MAX_REPORT] + ' ...'}"
    return None


def fuzz_all(live: Live, operations: list[Operation]) -> list[str]:
    """Every operation in both modes; the failures."""
    return [
        failure
        for operation in operations
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        if (failure := run_operation(live, operation, mode)) is not None
    ]


def test_partner_api_conforms_to_its_openapi_document(live: Live) -> None:
    operations = partner_operations(live)
    assert len(operations) >= 30
    failures = fuzz_all(live, operations)
    assert not failures, "\n\n".join(failures)


def test_operator_api_conforms_to_its_openapi_document(operator_live: Live) -> None:
    operations = documented_operations(operator_live, operator=True)
    assert len(operations) >= 10
    failures = fuzz_all(operator_live, operations)
    assert not failures, "\n\n".join(failures)


#: Per path prefix: which parameters (path, or top-level body members) name which kind of seeded resource.
PINNED = {
    "/broadcasts/": {"path.broadcast_id": "broadcasts"},
    "/rosters/": {"path.roster_id": "rosters"},
    "/tables/": {"path.table_id": "tables", "body.playerListExternalID": "lists"},
    "/webhooks/": {"path.event_id": "events"},
    "/player-lists/": {"path.external_id": "lists"},
    "/teams/": {"path.external_id": "teams"},
    "/matches/": {"path.external_id": "matches", "body.tableID": "tables", "body.playerListExternalID": "lists"},
    "/operator/broadcasts/": {"path.broadcast_id": "broadcasts"},
    "/operator/player-lists/": {"path.list_id": "list_ids"},
    "/operator/matches/": {"path.match_id": "match_ids", "body.tableID": "tables"},
    "/operator/tables/": {"path.table_id": "tables"},
    "/operator/webhooks/": {"path.event_id": "events"},
}


def seed(live: Live) -> dict[str, list[str]]:
    """Broadcasts, tables, a roster, a player list, a team, three pending matches and a delivery: IDs by kind."""
    base, session = live.server.base, live.session
    headers = {"Authorization": f"Bearer {live.key}"}

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        response = session.request(method, base + path, json=body, headers=headers, timeout=30)
        assert response.status_code in (200, 201, 202), response.text
        return response.json()["data"]

    broadcast = call("POST", "/broadcasts", {"name": "Fuzzed", "tables": [{"label": "A"}]})
    courts = call("POST", "/broadcasts", {"name": "Courts", "tables": [{"label": "A"}, {"label": "B"}]})
    tables = [table["id"] for table in courts["tables"]]  # not in reach of DELETE /broadcasts/{id}
    roster = call("POST", "/rosters", {"name": "Seed", "rosterType": "individual"})
    players = [{"externalID": player, "firstName": player.upper(), "lastName": "Last"} for player in SEEDED_PLAYERS]
    call("PUT", "/player-lists", {"externalID": "pl-1", "name": "Seed", "players": players})
    call("PUT", "/teams", {"externalID": "team-1", "name": "Seed", "players": players})
    match_ids = [
        call("PUT", "/matches", {"externalID": match, "tableID": tables[0], "playerListExternalID": "pl-1"})["id"]
        for match in ("m-1", "m-2", "m-3")
    ]
    list_id = call("GET", "/player-lists/pl-1")["id"]
    call("PATCH", "/webhooks/configuration", {"url": f"http://127.0.0.1:{free_port()}/hook"})
    delivery = call("POST", "/webhooks/test")
    return {
        "broadcasts": [broadcast["id"]], "rosters": [roster["id"]], "tables": tables,
        "events": [delivery["eventID"]], "lists": ["pl-1"], "teams": ["team-1"], "matches": ["m-1", "m-2", "m-3"],
        "match_ids": match_ids, "list_ids": [list_id],
    }


def seeded_config(values: dict[str, list[str]]) -> schemathesis.Config:
    """Path parameters and body references name seeded resources 70% of the time."""
    return schemathesis.Config.from_dict({
        "dictionaries": {kind: {"values": found} for kind, found in values.items()},
        "operations": [
            {"include-path-regex": f"^/api/v1{prefix}",
             "parameters": {name: {"dictionary": kind, "probability": 0.7} for name, kind in pins.items()}}
            for prefix, pins in PINNED.items()
        ],
    })


def test_partner_api_conforms_on_existing_resources(live: Live) -> None:
    """Path parameters name seeded resources most of the time, so reads and changes succeed, not only 404."""
    config = seeded_config(seed(live))
    operations = [op for op in documented_operations(live, operator=False, config=config) if "{" in op.path]
    assert len(operations) >= 15
    failures = fuzz_all(live, operations)
    assert not failures, "\n\n".join(failures)


def test_operator_api_conforms_on_existing_resources(operator_live: Live) -> None:
    """The operator's changes (scoring included) on seeded matches, tables, lists and broadcasts."""
    partner = Live(server=operator_live.server, key=operator_live.server.developer_key(),
                   session=operator_live.session)
    config = seeded_config(seed(partner))
    operations = [op for op in documented_operations(operator_live, operator=True, config=config) if "{" in op.path]
    assert len(operations) >= 10
    failures = fuzz_all(operator_live, operations)
    assert not failures, "\n\n".join(failures)
