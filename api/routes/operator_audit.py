"""The audit log (contract §16): who changed what, when, and why (operator key only)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from api.blueprint import Blueprint
from api.context import caller, unit_of_work
from api.schemas.common import PageQuery, envelope, list_envelope
from api.schemas.matches import Timestamp
from api.security import requires
from domain.access import audit

blp = Blueprint("operator_audit", __name__, description="Operator: the audit log")


class AuditQuerySchema(PageQuery):
    targetType = fields.String(validate=validate.Length(min=1, max=500),
                               metadata={"description": "e.g. `match`, `link`, `connection`, `key`, `app`"})
    targetID = fields.String(validate=validate.Length(min=1, max=500))
    actorKind = fields.String(validate=validate.OneOf([kind.value for kind in audit.ActorKind]))
    since = Timestamp(metadata={"description": "only entries at or after this moment"})


class ActorSchema(Schema):
    kind = fields.String(required=True, metadata={"enum": [kind.value for kind in audit.ActorKind]})
    id = fields.String(required=True, metadata={
        "description": "operator key ID, connection ID, the scorer link's table ID, the sign-up page's roster ID, "
                       "or the job"})


class TargetSchema(Schema):
    type = fields.String(required=True)
    id = fields.String(required=True)


class AuditEntrySchema(Schema):
    seq = fields.Integer(required=True, metadata={"description": "1, 2, ... without a gap per account"})
    at = fields.String(required=True)
    actor = fields.Nested(ActorSchema, required=True)
    requestID = fields.String(required=True, allow_none=True)
    action = fields.String(required=True, metadata={"description": "e.g. `match.corrected`"})
    target = fields.Nested(TargetSchema, required=True)
    before = fields.Raw(required=True, allow_none=True, metadata={"description": "the changed fields before"})
    after = fields.Raw(required=True, allow_none=True, metadata={"description": "the changed fields after"})
    reason = fields.String(required=True, allow_none=True)
    prevHash = fields.String(required=True)
    hash = fields.String(required=True, metadata={
        "description": "hex SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) of the entry without "
                       "`hash`"})


@blp.route("/operator/audit", methods=["GET"])
@requires(operator=True)
@blp.arguments(AuditQuerySchema, location="query")
@blp.response(200, list_envelope(AuditEntrySchema))
def list_audit(query: dict[str, Any]) -> dict[str, Any]:
    """The account's audit entries, newest first; filter by `targetType`, `targetID`, `actorKind`, `since`."""
    wanted = audit.AuditQuery(target_type=query.get("targetType"), target_id=query.get("targetID"),
                              actor_kind=query.get("actorKind"), since=query.get("since"))
    with unit_of_work() as uow:
        page, cursor = audit.list_entries(uow, account_id=caller().account_id, query=wanted,
                                          limit=query.get("limit"), cursor=query.get("cursor"))
    return {"data": [entry.view() for entry in page], "nextCursor": cursor}


class AuditHeadSchema(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the last entry's `seq` (0 before the first)"})
    hash = fields.String(required=True, metadata={"description": "the last entry's `hash` (64 zeros before the first)"})
    line = fields.String(required=True, metadata={"description": 'as paper copies carry it: "Audit 2035 · 3f2a9c…"'})


@blp.route("/operator/audit/head", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(AuditHeadSchema))
def audit_head() -> dict[str, Any]:
    """The head of the account's audit chain, kept apart from the entries (contract §16): `audit verify` checks
    that the chain ends there, so the newest entries cannot be removed unnoticed."""
    with unit_of_work() as uow:
        seq, digest = audit.kept_head(uow, caller().account_id)
    return {"data": {"seq": seq, "hash": digest, "line": audit.head_line((seq, digest))}}
