"""Routes of /matches (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("matches", __name__, description="matches")
