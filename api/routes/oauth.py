"""Routes of /oauth (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("oauth", __name__, description="oauth")
