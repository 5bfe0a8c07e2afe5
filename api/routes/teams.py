"""Routes of /teams (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("teams", __name__, description="teams")
