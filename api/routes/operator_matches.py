"""Operator routes of its issue (operator key only)."""

from api.blueprint import Blueprint

blp = Blueprint("operator_matches", __name__, description="Operator: matches")
