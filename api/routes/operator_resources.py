"""Operator routes of its issue (operator key only)."""

from api.blueprint import Blueprint

blp = Blueprint("operator_resources", __name__, description="Operator: resources")
