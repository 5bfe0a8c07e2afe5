"""Routes of /webhooks (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("webhooks", __name__, description="webhooks")
