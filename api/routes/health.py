"""Liveness: no credential needed."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.schemas.common import envelope
from api.version import package_version

blp = Blueprint("health", __name__, description="Service health")


class HealthSchema(Schema):
    status = fields.String(required=True)
    version = fields.String(required=True)


@blp.route("/health", methods=["GET"])
@blp.response(200, envelope(HealthSchema))
def get_health() -> dict[str, object]:
    """Report that the service is up, and its version."""
    return {"data": {"status": "ok", "version": package_version()}}
