"""The OpenAPI document's platform rules, applied to every operation so that route modules need not repeat them.

An apispec plugin adds, per operation: the error responses the platform itself can give (400 for a bad
`Service-Request-ID`, 413/415 for bodies, 401/429 for authenticated routes, 403 where a scope is needed, 404 for
path parameters and for bodies that name another resource, 500 as `default`), each with the error envelope; the
`Service-Request-ID` request header; the response headers (`Service-Request-ID` everywhere, `RateLimit-*` on
authenticated routes, `Retry-After` on 429); a 207 beside the 200 of bulk operations; and the required scope
in the description. `install` also documents the OAuth scopes, the webhook payloads (`x-webhooks`: OpenAPI 3.0
has no `webhooks`, and the bundled Swagger UI does not render 3.1) and the document/UI routes themselves.

What marshmallow cannot express, a field or schema class states with a class attribute `OPENAPI` (a dict
merged into its JSON schema): `{"oneOf": [...]}` on a number-or-string field, `{"minProperties": 1}` on a
patch body that needs at least one property.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path
from typing import Any

from apispec import APISpec, BasePlugin
from flask_smorest import Api
from marshmallow import Schema, fields, validate
from werkzeug.routing import Map, Rule

from api.operation_ids import operation_id
from api.platform import PREFIX, REQUEST_ID_MAX, REQUEST_ID_MIN, REQUEST_ID_PATTERN, human_bytes, human_seconds
from api.schemas.common import ErrorEnvelope, Vocabulary
from api.schemas.matches import GameScoreRead, MatchMoveSchema, MatchRead
from api.schemas.scoring import COMPONENTS as SCORING_COMPONENTS
from domain.models import SCOPES, SUBSCRIBABLE_EVENTS, EventType
from domain.settings import Settings
from domain.webhooks import EVENT_ID_PATTERN
from domain.webhooks.samples import sample_payload

ENVELOPE_REF = "#/components/schemas/ErrorEnvelope"

#: Paths anyone may call without a bearer credential (contract §2 and §3).
PUBLIC_PATHS = frozenset({
    f"{PREFIX}/health", f"{PREFIX}/oauth/token", f"{PREFIX}/oauth/authorize",
    f"{PREFIX}/openapi.json", f"{PREFIX}/docs", f"{PREFIX}/docs/assets/{{filename}}",
})

#: Body members naming another resource: an unknown one is `404 not_found` (contract §4 and §6). Bulk items are
#: nested, so their unknown references stay per-item results in a 207.
REFERENCES = frozenset({
    "tableID", "playerListExternalID", "defaultPlayerListID", "managerConnectionID", "connectionID", "eventID",
    "clientID",
})

SCOPE_DESCRIPTIONS = {
    scope: f"{'Read' if scope.endswith('.read') else 'Change'} {scope.split('.')[0].replace('_', ' ')}"
    for scope in SCOPES
}

HEADERS: dict[str, dict[str, Any]] = {
    "ServiceRequestID": {
        "description": "Correlation ID of this request: the client's valid `Service-Request-ID`, else minted.",
        "required": True, "schema": {"type": "string", "minLength": REQUEST_ID_MIN, "maxLength": REQUEST_ID_MAX},
    },
    "RateLimitLimit": {
        "description": "Requests allowed per 60-second window for this connection.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimitRemaining": {
        "description": "Requests left in the current window.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimitReset": {
        "description": "Seconds until the current window resets.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "RetryAfter": {
        "description": "Seconds to wait before retrying.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "WWWAuthenticate": {
        "description": 'The challenge, e.g. `Bearer realm="courtside", error="invalid_token"`.',
        "required": True, "schema": {"type": "string"},
    },
    "Allow": {"description": "The methods the path accepts.", "required": True, "schema": {"type": "string"}},
}
RATE_HEADERS = {"RateLimit-Limit": "RateLimitLimit", "RateLimit-Remaining": "RateLimitRemaining",
                "RateLimit-Reset": "RateLimitReset"}

#: status -> (component name, description listing the `error.code` values of contract §2).
ERRORS: dict[str, tuple[str, str]] = {
    "400": ("BadRequest", "Bad request: `bad_request` (body is not JSON), `validation_failed` (details per "
            "location and field), `invalid_request_id`, `invalid_cursor`, or a rule of the operation "
            "(`invalid_event_id`, `idempotency_key_required`, `invalid_idempotency_key`, `duplicate_table`, "
            "`conflicting_patch`, `roster_type_immutable`, `unknown_player`, `webhook_url_not_allowed`; "
            "OAuth: `invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`)."),
    "401": ("Unauthorized", "No credential (`authentication_required`) or an unknown, expired, revoked or "
            "wrong-kind credential (`invalid_token`), with a `Bearer` challenge; `invalid_client` at the token "
            "endpoint, with a `Basic` challenge."),
    "403": ("Forbidden", "`insufficient_scope` (`details.requiredScope`) or `table_not_managed`."),
    "404": ("NotFound", "`not_found`: no such resource for this caller."),
    "405": ("MethodNotAllowed", "`method_not_allowed`; the `Allow` header lists the methods of the path."),
    "409": ("Conflict", "The resource's state forbids the change: `match_locked`, `match_undecided`, "
            "`match_not_pending`, `match_not_active`, `table_busy`, `webhook_not_configured`, "
            "`idempotency_key_reused`, `delivery_in_progress`; operator: `player_exists`, `stale_state` (the "
            "`scoreVersion` named is not current; `details.match` is the current match read), `match_decided`, "
            "`nothing_to_undo`; draws: `draw_exists`, `draw_started`, `draw_change_required` "
            "(`details.drawMatches`), `downstream_started` (`details.drawMatchIDs`), `match_in_pool`, "
            "`match_in_draw`."),
    "413": ("PayloadTooLarge", "`payload_too_large`: the body is larger than {max_body}."),
    "415": ("UnsupportedMediaType", "`unsupported_media_type`: send the body as application/json."),
    "429": ("TooManyRequests", "`rate_limited`: the window's quota is used up; see `Retry-After`."),
    "default": ("InternalError", "`internal_error`: a bug on our side (no internals are disclosed)."),
}
#: 409 codes an operation can give that its route does not state: operationId -> {code: when}.
CONFLICTS: dict[str, dict[str, str]] = {
    **{name: {"table_busy": "a court it would remove has a match in play (`details.tableID`); nothing changed"}
       for name in ("patchBroadcast", "deleteBroadcast", "operatorPatchBroadcast", "operatorDeleteBroadcast")},
    **{name: {"player_in_use": "it would remove a player whom a pending or active match of yours names "
                               "(`details.players`, `details.matchIDs`); nothing changed"}
       for name in ("syncPlayerList", "patchPlayerList")},
}


def add_conflicts(operation: dict[str, Any], conflicts: dict[str, str]) -> None:
    """List `conflicts` in the operation's 409 (made if absent; before `document_operation` adds the envelope)."""
    responses = operation.setdefault("responses", {})
    own = responses.pop(409, None) or responses.pop("409", None)
    own = dict(own) if isinstance(own, dict) and "$ref" not in own else {}
    stated = own.get("description", "")
    added = "; ".join(f"`{code}`: {why}" for code, why in conflicts.items() if code not in stated)
    own["description"] = f"{stated} Or {added}." if stated else f"{added[0].upper()}{added[1:]}."
    responses["409"] = own


ERROR_HEADERS: dict[str, dict[str, str]] = {
    "401": {"WWW-Authenticate": "WWWAuthenticate"},
    "405": {"Allow": "Allow"},
    "429": {"Retry-After": "RetryAfter", **RATE_HEADERS},
}


def _header_ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _error_component(status: str, settings: Settings | None = None) -> dict[str, Any]:
    name, description = ERRORS[status]
    if settings is not None:
        description = description.replace("{max_body}", human_bytes(settings.max_body_bytes))
    headers: dict[str, dict[str, Any]] = {"Service-Request-ID": _header_ref("ServiceRequestID")}
    if status not in ("401", "429"):  # present when the request was authenticated before it failed
        headers.update({header: {**HEADERS[ref], "required": False} for header, ref in RATE_HEADERS.items()})
    headers.update({header: _header_ref(ref) for header, ref in ERROR_HEADERS.get(status, {}).items()})
    return {"description": description, "headers": headers,
            "content": {"application/json": {"schema": {"$ref": ENVELOPE_REF}}}}


class PreviousResult(Schema):
    gameScores = fields.List(fields.Nested(GameScoreRead), required=True)
    score = fields.Nested(GameScoreRead, required=True)


class EventOrder(Schema):
    """What every delivery's `data` carries to put a match's events in order."""

    sequence = fields.Integer(required=True, metadata={
        "description": "The event's place among its match's events: strictly increasing per match (not gapless); "
                       "keep the highest you applied and drop an event with a lower one. 0 in test events."})
    occurredOn = fields.String(required=True, metadata={"format": "date-time",
                                                        "description": "When the change happened."})


class MatchEventData(EventOrder):
    match = fields.Nested(MatchRead, required=True, metadata={"description": "As GET /matches/{externalID}."})
    test = fields.Boolean(metadata={"description": "true in a sample sent by POST /webhooks/test {type}; "
                                                   "absent in real events"})


class ResultUpdatedData(MatchEventData):
    previous = fields.Nested(PreviousResult, required=True, metadata={"description": "The result before."})


class ResetData(MatchEventData):
    previous = fields.Nested(MatchRead, required=True, metadata={"description": "The match read before the reset."})


class TestEventData(EventOrder):
    message = fields.String(required=True)


def _event_schema(name: str, event_types: list[EventType], data: type[Schema]) -> type[Schema]:
    return type(name, (Schema,), {
        "__doc__": "A webhook delivery body (also stored as the delivery's `payload`).",
        "id": fields.String(required=True, validate=validate.Regexp(EVENT_ID_PATTERN),
                            metadata={"description": "The eventID; also sent as `webhook-id`."}),
        "type": Vocabulary(event_types, required=True),
        "createdOn": fields.String(required=True, metadata={"format": "date-time"}),
        "connectionID": fields.String(required=True),
        "data": fields.Nested(data, required=True),
    })


RESULT_UPDATED, RESET = EventType.MATCH_RESULT_UPDATED, EventType.MATCH_RESET
MatchEvent = _event_schema("MatchEvent", [e for e in SUBSCRIBABLE_EVENTS if e not in (RESULT_UPDATED, RESET)],
                           MatchEventData)
ResultUpdatedEvent = _event_schema("ResultUpdatedEvent", [RESULT_UPDATED], ResultUpdatedData)
ResetEvent = _event_schema("ResetEvent", [RESET], ResetData)
TestEvent = _event_schema("TestEvent", [EventType.INTEGRATION_TEST], TestEventData)
#: Which body each event type's delivery carries (the `x-webhooks` of the document).
EVENT_SCHEMAS = {**{event: "MatchEvent" for event in SUBSCRIBABLE_EVENTS}, RESULT_UPDATED: "ResultUpdatedEvent",
                 RESET: "ResetEvent", EventType.INTEGRATION_TEST: "TestEvent"}

SIGNATURE_HEADERS = [
    {"name": "webhook-id", "in": "header", "required": True, "schema": {"type": "string"},
     "description": "The eventID."},
    {"name": "webhook-timestamp", "in": "header", "required": True, "schema": {"type": "string"},
     "description": "Unix seconds of this attempt."},
    {"name": "webhook-signature", "in": "header", "required": True, "schema": {"type": "string"},
     "description": "`v1,<base64 HMAC-SHA256 of \"{id}.{timestamp}.{body}\">` with the `whsec_` secret "
                    "(Standard Webhooks)."},
]


def _webhook(event_type: str, schema: str, settings: Settings) -> dict[str, Any]:
    schedule = ", ".join(human_seconds(delay) for delay in settings.webhook_retry_schedule)
    return {"post": {
        "summary": f"`{event_type}` delivery to the configured URL",
        "description": "Signed per Standard Webhooks; answer 2xx to acknowledge. Other answers are retried "
                       f"({schedule}); 410 stops retries.",
        "parameters": SIGNATURE_HEADERS,
        "requestBody": {"required": True,
                        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"},
                                                         "example": sample_payload(event_type)}}},
        "responses": {"2XX": {"description": "Delivered."}},
    }}


class PlatformPlugin(BasePlugin):
    """Per-operation platform documentation (see the module docstring)."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        """A schema class documents what marshmallow cannot say with `OPENAPI`, e.g. `{"minProperties": 1}`."""
        schema = kwargs.get("schema")
        extra = getattr(schema if isinstance(schema, type) else type(schema), "OPENAPI", None)
        return dict(extra) if extra else None

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None,
                         **kwargs: Any) -> None:
        for method, operation in (operations or {}).items():
            if method in {"parameters", "summary", "description", "servers"}:
                continue
            name = operation_id(method, path or "")
            if name in CONFLICTS:
                add_conflicts(operation, CONFLICTS[name])
            document_operation(path or "", method, operation, body_members=self._body_members(operation))
            operation["operationId"] = name
            add_examples(operation, examples().get(operation["operationId"], {}))
            _plain_texts(operation)

    def _body_members(self, operation: dict[str, Any]) -> set[str]:
        """Top-level property names of the request body (of each alternative of an anyOf/oneOf body)."""
        members: set[str] = set()
        schemas = self.spec.components.schemas
        for media in operation.get("requestBody", {}).get("content", {}).values():
            pending = [media.get("schema", {})]
            while pending:
                schema = pending.pop()
                if "$ref" in schema:
                    schema = schemas.get(schema["$ref"].rsplit("/", 1)[-1], {})
                members |= set(schema.get("properties", {}))
                pending += [*schema.get("anyOf", []), *schema.get("oneOf", []), *schema.get("allOf", [])]
        return members


@functools.cache
def examples() -> dict[str, dict[str, Any]]:
    """Each operation's example request body and answers by status (`api/examples.json`, recorded from a real
    session by `tests/contract/examples_session.py`)."""
    loaded: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "examples.json").read_text())
    return loaded


def add_examples(operation: dict[str, Any], recorded: dict[str, Any]) -> None:
    """Put the recorded request body and 2xx answers beside their JSON schemas (deep copies: the document is
    served as JSON, and one example may be shown by two documents)."""
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None and "request" in recorded:
        body["example"] = copy.deepcopy(recorded["request"])
    for status, answer in recorded.get("responses", {}).items():
        response = operation.get("responses", {}).get(status)
        media = response.get("content", {}).get("application/json") if isinstance(response, dict) else None
        if media is not None:
            media["example"] = copy.deepcopy(answer)


def document_operation(path: str, method: str, operation: dict[str, Any], *,
                       body_members: set[str] | frozenset[str] = frozenset()) -> None:
    """Add the platform's parameters, responses and headers to one operation (in place)."""
    public = path in PUBLIC_PATHS
    security = operation.get("security")
    authenticated = bool(security) and not public
    if public:
        operation["security"] = []
    parameters = operation.setdefault("parameters", [])
    if not any(isinstance(p, dict) and p.get("name") == "Service-Request-ID" for p in parameters):
        parameters.append("ServiceRequestID")
    responses: dict[str, Any] = {str(status): value for status, value in operation.get("responses", {}).items()}
    operation["responses"] = responses
    needed = {"400", "default"}
    if "requestBody" in operation or method in {"post", "put", "patch"}:
        needed |= {"413", "415"}  # the platform checks any body sent with these methods
    scopes = [scope for requirement in security or [] for scope in requirement.get("oauth2", [])]
    if authenticated:
        needed |= {"401", "429"}
    if scopes:
        needed.add("403")
    if "{" in path or body_members & REFERENCES:
        needed.add("404")
    idempotent = any(isinstance(p, dict) and p.get("name") == "Idempotency-Key" for p in parameters)
    if idempotent:
        needed.add("409")  # `idempotency_key_reused` (contract §23)
    for status in needed:
        responses.setdefault(status, None)
    if path.endswith(("/bulk", "/bulk/cancel")) and "200" in responses and "207" not in responses:
        partial = copy.deepcopy(responses["200"])
        partial["description"] = "Some items failed: one result per item, in request order."
        responses["207"] = partial
    own_conflict = responses.get("409")
    if idempotent and isinstance(own_conflict, dict) and "$ref" not in own_conflict and \
            "idempotency_key_reused" not in own_conflict.get("description", "idempotency_key_reused"):
        own_conflict["description"] += " Or `idempotency_key_reused`: the Idempotency-Key was sent with another body."
    page = _is_html_page(responses)
    for status, response in list(responses.items()):
        if status in ERRORS:
            responses[status] = _error_response(status, response, authenticated, page)
        elif status.startswith("2") and isinstance(response, dict):
            response["headers"] = {**_success_headers(authenticated), **response.get("headers", {})}
            if page:
                response.setdefault("content", {"text/html": {"schema": {"type": "string"}}})
    if scopes and "Required scope" not in operation.get("description", ""):
        note = f"Required scope: `{'`, `'.join(scopes)}`."
        operation["description"] = f"{operation['description']}\n\n{note}" if operation.get("description") else note


def _is_html_page(responses: dict[str, Any]) -> bool:
    """A page route (the consent page): success responses described without any content."""
    successes = [r for status, r in responses.items() if status.startswith("2") and isinstance(r, dict)]
    return bool(successes) and all("content" not in r and "$ref" not in r for r in successes)


def _success_headers(authenticated: bool) -> dict[str, Any]:
    headers = {"Service-Request-ID": _header_ref("ServiceRequestID")}
    if authenticated:
        headers.update({header: _header_ref(ref) for header, ref in RATE_HEADERS.items()})
    return headers


def _error_response(status: str, response: Any, authenticated: bool, page: bool) -> Any:
    """The platform's error component, or the route's own description with the envelope and headers added.

    A page route's own errors are HTML pages; the platform's (request ID, body) stay JSON envelopes.
    """
    own = isinstance(response, dict) and "$ref" not in response and response.get("description")
    if not own or not isinstance(response, dict):
        return ERRORS[status][0]
    merged = dict(response)
    content: dict[str, Any] = {"text/html": {"schema": {"type": "string"}}} if page else {}
    content["application/json"] = {"schema": {"$ref": ENVELOPE_REF}}
    merged["content"] = {**content, **response.get("content", {})}
    platform = {"Service-Request-ID": _header_ref("ServiceRequestID")} if page else _error_component(status)["headers"]
    merged["headers"] = {**platform, **response.get("headers", {})}
    if authenticated and status in {"403", "404", "409"}:
        merged["headers"].update({header: _header_ref(ref) for header, ref in RATE_HEADERS.items()})
    return merged


def url_format(converter: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, str]:
    """A string validated as an absolute URL is documented as `format: uri` (marshmallow emits nothing)."""
    if isinstance(field, fields.Url) or any(isinstance(v, validate.URL) for v in field.validators):
        return {"format": "uri"}
    return {}


#: A citation of Courtside's own contract in a description (`(contract §18)`, `(§13)`, `; contract §14`), which a
#: partner reading the document cannot follow; RFC sections (`RFC 6749 §3.1`) stay.
_SECTIONS = r"§\s?\d+[a-z]?(?:\s?(?:,|and|-)\s?§\s?\d+[a-z]?)*"
_CITATIONS = (
    (re.compile(rf"\s*\((?:the )?(?:contract )?{_SECTIONS}\)"), ""),
    (re.compile(rf"[;,]\s*(?:the )?(?:contract )?{_SECTIONS}(?=\))"), ""),
    (re.compile(rf"\((?:the )?(?:contract )?{_SECTIONS}[:;,]\s*"), "("),
    (re.compile(rf",?\s*(?:as )?(?:the )?contract {_SECTIONS}(?: says)?"), ""),
    (re.compile(rf"(?<!RFC \d{{4}} ){_SECTIONS}'s "), "the "),
    (re.compile(rf"(?<![\dC] )(?<!RFC){_SECTIONS}:?\s?"), ""),
)


_NULL_OBJECT = {"type": "object", "nullable": True}


def nullable_reference(converter: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any
                       ) -> dict[str, Any]:
    """A nullable reference the OpenAPI 3.0 way a generator reads as "that schema or null": `allOf: [{$ref}]` with
    `nullable: true`, not apispec's `anyOf: [{type: object, nullable: true}, {$ref}]` (which a generator types as
    an anonymous object or the schema). Rewrites `ret` in place (apispec merges what this returns into it)."""
    alternatives = ret.get("anyOf")
    if not isinstance(alternatives, list) or _NULL_OBJECT not in alternatives:
        return {}
    rest = [alternative for alternative in alternatives if alternative != _NULL_OBJECT]
    if len(rest) != 1 or set(rest[0]) != {"$ref"}:
        return {}
    del ret["anyOf"]
    ret["allOf"] = rest
    return {"nullable": True}


def timestamp_format(converter: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any
                     ) -> dict[str, str]:
    """A string member named `...On` is a timestamp (contract §2): `format: date-time`, so that a generated client
    types it as a date-time rather than a plain string."""
    name = field.data_key or field.name or ""
    if name.endswith("On") and isinstance(field, fields.String) and "format" not in ret:
        return {"format": "date-time"}
    return {}


def plain(text: str) -> str:
    """A description without citations of the contract (docs never cite it: partners cannot read it)."""
    for pattern, replacement in _CITATIONS:
        text = pattern.sub(replacement, text)
    return text


def plain_description(converter: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any
                      ) -> dict[str, Any]:
    """A field's description as the document shows it (`plain`)."""
    return {"description": plain(ret["description"])} if isinstance(ret.get("description"), str) else {}


def _plain_texts(node: Any) -> None:
    """Every `description` and `summary` in an operation, `plain` (in place)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                node[key] = plain(value)
            else:
                _plain_texts(value)
    elif isinstance(node, list):
        for item in node:
            _plain_texts(item)


def own_schema(converter: Any, field: fields.Field[Any], **kwargs: Any) -> dict[str, Any]:
    """A custom field documents itself with a class attribute `OPENAPI` (e.g. `{"oneOf": [...]}`)."""
    return dict(getattr(field, "OPENAPI", {}))


def _register_components(spec: APISpec, settings: Settings) -> None:
    for name, header in HEADERS.items():
        spec.components.header(name, header)
    spec.components.parameter("ServiceRequestID", "header", {
        "name": "Service-Request-ID", "required": False,
        "description": f"Your own correlation ID, echoed in the response ({REQUEST_ID_MIN} to {REQUEST_ID_MAX} "
                       "characters).",
        "schema": {"type": "string", "minLength": REQUEST_ID_MIN, "maxLength": REQUEST_ID_MAX,
                   "pattern": REQUEST_ID_PATTERN},
    })
    if "ErrorEnvelope" not in spec.components.schemas:
        spec.components.schema("ErrorEnvelope", schema=ErrorEnvelope)
    for status, (name, _) in ERRORS.items():
        spec.components.response(name, _error_component(status, settings))
    for name, component in SCORING_COMPONENTS.items():
        if name not in spec.components.schemas:
            spec.components.schema(name, copy.deepcopy(component))
    spec.components.schema("MatchEvent", schema=MatchEvent)
    spec.components.schema("ResultUpdatedEvent", schema=ResultUpdatedEvent)
    spec.components.schema("ResetEvent", schema=ResetEvent)
    spec.components.schema("TestEvent", schema=TestEvent)
    if "MatchMove" not in spec.components.schemas:  # PATCH /matches/{externalID}'s anyOf names it
        spec.components.schema("MatchMove", schema=MatchMoveSchema)


def _rule(path: str) -> Rule:
    rule = Rule(path, defaults={})
    Map([rule])
    return rule


def _document_own_routes(spec: APISpec) -> None:
    """The document, the docs UI and its assets are routes too (public, no credential)."""
    spec.path(rule=_rule(f"{PREFIX}/openapi.json"), parameters=[], operations={"get": {
        "summary": "This OpenAPI document.", "tags": ["docs"],
        "parameters": [{"name": "audience", "in": "query", "required": False,
                        "description": "`partner`: the document without the operator routes (for a partner's "
                                       "client generator); `scope=partner` is the same.",
                        "schema": {"type": "string", "enum": list(AUDIENCES)}}],
        "responses": {"200": {"description": "The OpenAPI 3 document.",
                              "content": {"application/json": {"schema": {"type": "object"}}}}},
    }})
    spec.path(rule=_rule(f"{PREFIX}/docs"), parameters=[], operations={"get": {
        "summary": "Browsable API documentation (Swagger UI, served locally).", "tags": ["docs"],
        "responses": {"200": {"description": "HTML page.", "content": {"text/html": {"schema": {"type": "string"}}}}},
    }})
    spec.path(rule=_rule(f"{PREFIX}/docs/assets/<path:filename>"), parameters=[], operations={"get": {
        "summary": "Static asset of the docs UI.", "tags": ["docs"],
        "responses": {"200": {"description": "The file.", "content": {"*/*": {"schema": {"type": "string"}}}}},
    }})


DESCRIPTION = """Courtside partner and operator API, version 1.

**Authentication.** `Authorization: Bearer <credential>`: an OAuth access token (`svc_token_...`) or a developer
key (`svc_test_...`) on partner routes, the operator key (`svc_op_...`) on `/operator/...` routes. No credential
is `401 authentication_required`, a bad one `401 invalid_token`, a missing scope `403 insufficient_scope`.

**Envelopes.** A resource is `{"data": {...}}`; a list `{"data": [...], "nextCursor": "..." | null}` (pass
`nextCursor` back as `cursor`; `limit` 1 to 100, default 50); a bulk result `{"data": {"results": [...],
"succeeded", "failed"}}` with 200 when nothing failed, else 207. The token endpoint answers RFC 6749 JSON,
not wrapped. Every error is `{"error": {"code", "message", "details"?}}`, including unknown routes (404
`not_found`) and wrong methods (405 `method_not_allowed` with `Allow`).

**Headers.** Every response carries `Service-Request-ID` (yours, if you sent a valid one, else minted).
Authenticated responses carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; 429 adds
`Retry-After`.

**Bodies.** JSON only (`415` otherwise; form bodies only at `/oauth/token` and the consent form), at most
{max_body} (`413`), strict:
an unknown property is `400 validation_failed`, except at the OAuth endpoints, which ignore unrecognized
parameters (RFC 6749 §3.1, §3.2).

**Text.** No string a client sends (path, query, JSON body and its keys, form) may contain U+0000 or the
bidirectional controls U+202A-U+202E and U+2066-U+2069: `400 validation_failed` naming the field.

**Webhooks.** The signed deliveries your URL receives are described under `x-webhooks`."""


def install(api: Api, *, settings: Settings) -> None:
    """Hook the platform documentation into `api` (call before registering blueprints); the limits and the retry
    schedule it states are the `settings` the app enforces."""
    spec = api.spec
    plugin = PlatformPlugin()
    plugin.init_spec(spec)
    spec.plugins.append(plugin)
    api.ma_plugin.converter.add_attribute_function(url_format)
    api.ma_plugin.converter.add_attribute_function(own_schema)
    api.ma_plugin.converter.add_attribute_function(plain_description)
    api.ma_plugin.converter.add_attribute_function(timestamp_format)
    api.ma_plugin.converter.add_attribute_function(nullable_reference)
    _register_components(spec, settings)
    schemes = spec.options.setdefault("components", {}).setdefault("securitySchemes", {})
    if "oauth2" in schemes:
        schemes["oauth2"]["flows"]["authorizationCode"]["scopes"] = SCOPE_DESCRIPTIONS
    spec.options["x-webhooks"] = {event.value: _webhook(event, schema, settings)
                                  for event, schema in EVENT_SCHEMAS.items()}
    spec.options.setdefault("info", {})["description"] = DESCRIPTION.replace(
        "{max_body}", human_bytes(settings.max_body_bytes))
    _document_own_routes(spec)


#: `?audience=partner` (contract §23; `?scope=partner` as issue 50 words it): the document without operator routes.
AUDIENCES = ("partner",)


def partner_document(document: dict[str, Any]) -> dict[str, Any]:
    """The document a partner's generator reads: without the operator routes (those secured by the operator key),
    the operator key's security scheme, and every component and tag only they used (a copy)."""
    partner = copy.deepcopy(document)
    paths: dict[str, Any] = {}
    for path, item in partner["paths"].items():
        kept = {method: operation for method, operation in item.items()
                if not (isinstance(operation, dict) and any("operatorKey" in requirement
                                                            for requirement in operation.get("security") or []))}
        if any(isinstance(operation, dict) and "responses" in operation for operation in kept.values()):
            paths[path] = kept
    partner["paths"] = paths
    components = partner.get("components", {})
    components.get("securitySchemes", {}).pop("operatorKey", None)
    used = _references({key: value for key, value in partner.items() if key != "components"}, components)
    for kind in ("schemas", "responses", "parameters", "headers"):
        if kind in components:
            components[kind] = {name: value for name, value in components[kind].items() if (kind, name) in used}
    tags = {tag for item in paths.values() for operation in item.values() if isinstance(operation, dict)
            for tag in operation.get("tags", [])}
    if "tags" in partner:
        partner["tags"] = [tag for tag in partner["tags"] if tag["name"] in tags]
    return partner


def _references(root: Any, components: dict[str, Any]) -> set[tuple[str, str]]:
    """(kind, name) of every component `root` refers to, directly or through other components."""
    found: set[tuple[str, str]] = set()
    pending = [root]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/"):
                kind, name = ref.removeprefix("#/components/").split("/", 1)
                if (kind, name) not in found:
                    found.add((kind, name))
                    pending.append(components.get(kind, {}).get(name, {}))
            pending.extend(value for key, value in node.items() if key != "$ref")
        elif isinstance(node, str) and node in components.get("responses", {}):
            found.add(("responses", node))  # apispec's name of a shared response, before it is made a $ref
    return found
