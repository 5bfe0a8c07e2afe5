"""Routes of /rosters (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("rosters", __name__, description="rosters")
