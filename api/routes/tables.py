"""Routes of /tables (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("tables", __name__, description="tables")
