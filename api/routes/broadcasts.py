"""Routes of /broadcasts (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("broadcasts", __name__, description="broadcasts")
