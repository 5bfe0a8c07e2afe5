"""Liveness: no credential needed."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from marshmallow import Schema, fields

from api.blueprint import Blueprint
from api.schemas.common import envelope

blp = Blueprint("health", __name__, description="Service health")


class HealthSchema(Schema):
    status = fields.String(required=True)
    version = fields.String(required=True)


def _version() -> str:
    try:
        return version("courtside")
    except PackageNotFoundError:
        return "0.0.0"


@blp.route("/health", methods=["GET"])
@blp.response(200, envelope(HealthSchema))
def get_health() -> dict[str, object]:
    """Report that the service is up, and its version."""
    return {"data": {"status": "ok", "version": _version()}}
