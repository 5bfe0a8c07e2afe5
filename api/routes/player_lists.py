"""Routes of /player_lists (filled in by its issue)."""

from api.blueprint import Blueprint

blp = Blueprint("player_lists", __name__, description="player_lists")
