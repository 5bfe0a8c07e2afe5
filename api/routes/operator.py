"""Operator routes (`/operator/...`, operator key only): what the CLI and the console call."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load

from api.blueprint import Blueprint
from api.context import caller, now, services, unit_of_work
from api.idempotency import idempotent_hiding
from api.schemas.common import Strict, envelope, list_envelope, name_field
from api.schemas.scoring import ScoringFormatRead
from api.security import requires
from domain.access import auth
from domain.access.oauth import SCOPE_PATTERN
from domain.match import formats
from domain.match.formats import GamesFormat
from domain.plan.settings import typical_minutes

blp = Blueprint("operator", __name__, description="Operator routes (operator key)")


class DeveloperKeyCreate(Strict):
    name = name_field(120)
    scope = fields.String(metadata={"description": "space-separated scopes; all scopes when absent",
                                    "pattern": SCOPE_PATTERN})  # unknown scopes: 400 invalid_scope

    @post_load
    def to_command(self, data: dict[str, Any], **_: Any) -> auth.NewDeveloperKey:
        return auth.NewDeveloperKey(name=data.get("name"), scope=data.get("scope"))


class DeveloperKeySchema(Strict):
    key = fields.String(required=True, allow_none=True, metadata={
        "description": "shown once: null in a replay of the create (`Idempotency-Key`), which keeps no secret"})
    connectionID = fields.String(required=True)
    scopes = fields.List(fields.String(), required=True)


@blp.route("/operator/keys", methods=["POST"])
@requires(operator=True)
@idempotent_hiding("key")
@blp.arguments(DeveloperKeyCreate)
@blp.response(201, envelope(DeveloperKeySchema))
def create_developer_key(new: auth.NewDeveloperKey) -> dict[str, object]:
    """Create a developer key (its own connection); the key is shown only in this response."""
    with unit_of_work() as uow:
        key, connection = auth.create_developer_key(
            uow, account_id=caller().account_id, name=new.name, scopes=auth.parse_scopes(new.scope), now=now(),
            ttl_seconds=services().settings.dev_key_ttl,
        )
    return {"data": {"key": key, "connectionID": connection.id, "scopes": connection.scopes}}


class OperatorKeyRotation(Strict):
    operatorKey = fields.String(required=True, metadata={"description": "the new operator key, shown once"})
    revoked = fields.Integer(required=True, metadata={"description": "operator keys that stopped working"})


@blp.route("/operator/operator-key/rotate", methods=["POST"])
@requires(operator=True)
@blp.response(200, envelope(OperatorKeyRotation))
def rotate_operator_key() -> dict[str, object]:
    """Replace the operator key: a new one (shown once); every older one, the caller's included, stops working."""
    with unit_of_work() as uow:
        key, revoked = auth.rotate_operator_key(uow, account_id=caller().account_id, now=now())
    return {"data": {"operatorKey": key, "revoked": revoked}}


class ScoringRulesSchema(Strict):
    pointsPerGame = fields.Integer(required=True, allow_none=True, metadata={
        "description": "points to win a game of the server's format (null for a sets format)"})
    defaultBestOf = fields.Integer(required=True, metadata={"description": "bestOf of the server's format"})
    scoring = fields.Dict(required=True, metadata={"description": "the server's format object (contract §18)"})
    scoringName = fields.String(required=True, allow_none=True, metadata={"description": "its preset key"})


@blp.route("/operator/rules", methods=["GET"])
@requires(operator=True)
@blp.response(200, envelope(ScoringRulesSchema))
def get_scoring_rules() -> dict[str, object]:
    """The server's scoring format (`COURTSIDE_SCORING`): the format of a match whose draw and broadcast set none."""
    default = services().rules.scoring
    points = default.format.game.points_to_win if isinstance(default.format, GamesFormat) else None
    return {"data": {"pointsPerGame": points, "defaultBestOf": default.format.best_of, "scoring": default.json(),
                     "scoringName": default.name}}


@blp.route("/operator/scoring-formats", methods=["GET"])
@requires(operator=True)
@blp.response(200, list_envelope(ScoringFormatRead))
def list_scoring_formats() -> dict[str, object]:
    """Every preset scoring format (contract §18) with its format object and a description in plain English."""
    return {"data": [{"name": name, "description": formats.describe(fmt), "scoring": formats.to_json(fmt),
                      "typicalMinutes": typical_minutes(fmt, name)} for name, fmt in formats.PRESETS.items()],
            "nextCursor": None}
