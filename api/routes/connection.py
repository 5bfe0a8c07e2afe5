"""The calling connection: who am I, and disconnect."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.context import caller, now, unit_of_work
from api.schemas.common import envelope
from api.security import requires
from domain.access import auth

blp = Blueprint("connection", __name__, description="The active connection")


class ConnectionSchema(Schema):
    appID = fields.String(required=True)
    appName = fields.String()
    approvedOn = fields.String()
    connectionID = fields.String(required=True)
    scopes = fields.List(fields.String(), required=True)
    tokenExpiresOn = fields.String(required=True, allow_none=True)


class RevokedSchema(Schema):
    """A revoked connection, in the contract's delete shape."""

    id = fields.String(required=True, metadata={"description": "the connection ID"})
    deleted = fields.Boolean(required=True)


@blp.route("/connection", methods=["GET"])
@requires()
@blp.response(200, envelope(ConnectionSchema))
def get_connection() -> dict[str, object]:
    """Identity, scopes and token expiry of the active connection."""
    with unit_of_work() as uow:
        return {"data": auth.connection_info(uow, principal=caller())}


@blp.route("/connection", methods=["DELETE"])
@requires()
@blp.response(200, envelope(RevokedSchema))
def delete_connection() -> dict[str, object]:
    """Disconnect: revoke the connection and all of its tokens."""
    principal = caller()
    with unit_of_work() as uow:
        connection = auth.revoke_connection(
            uow, connection_id=principal.connection_id or "", account_id=principal.account_id, now=now()
        )
    return {"data": {"id": connection.id, "deleted": True}}
