"""Court queues as partners and operators read them: a match read, and a table with its queue."""

from __future__ import annotations

from typing import Any

from domain.models import Match, PlayerList, Table
from domain.ports import UnitOfWork

SIDES = ("playerA", "playerA2", "playerB", "playerB2")


def _display_name(reference: dict[str, str], players: dict[str, dict[str, Any]]) -> str | None:
    if reference.get("manualName"):
        return reference["manualName"]
    player = players.get(reference.get("externalID", ""))
    if player is None:
        return reference.get("externalID")
    name = " ".join(part for part in (player.get("firstName"), player.get("lastName")) if part)
    return name or player.get("externalID")


def score_of(game_scores: list[dict[str, int]]) -> dict[str, int]:
    """Games won by each side."""
    return {
        "a": sum(1 for game in game_scores if game["a"] > game["b"]),
        "b": sum(1 for game in game_scores if game["b"] > game["a"]),
    }


def present_match(match: Match, *, queue_position: int | None, player_list: PlayerList | None) -> dict[str, Any]:
    """The match read of the spec (required fields always, optional ones when set)."""
    players = {p["externalID"]: p for p in (player_list.players if player_list else []) if p.get("externalID")}
    read: dict[str, Any] = {
        "id": match.id,
        "externalID": match.external_id,
        "scheduledMatchID": match.scheduled_match_id,
        "tableID": match.table_id,
        "status": match.status,
        "participants": {side: dict(ref) for side, ref in match.participants.items()},
        "playerListExternalID": match.player_list_external_id,
        "isActive": match.status == "active",
        "isComplete": match.status == "completed",
        "queuePosition": queue_position,
        "scheduledOn": match.scheduled_on,
        "gameScores": [dict(game) for game in match.game_scores],
        "score": score_of(match.game_scores),
    }
    optional = {
        "eventName": match.event_name, "matchRound": match.match_round, "matchDetails": match.match_details,
        "startTime": match.start_time, "bestOf": match.best_of, "isDoubles": match.is_doubles,
        "completedOn": match.completed_on,
    }
    read.update({key: value for key, value in optional.items() if value is not None})
    for side, reference in match.participants.items():
        name = _display_name(reference, players)
        if name:
            read[side] = name
    return read


def player_list_of(uow: UnitOfWork, match: Match) -> PlayerList | None:
    found = uow.player_lists.find(connection_id=match.connection_id, external_id=match.player_list_external_id)
    return found[0] if found else None


def table_matches(uow: UnitOfWork, table_id: str, *, connection_id: str | None) -> tuple[Match | None, list[Match]]:
    """The active match and the pending queue (in order) of a table; one connection's only, unless None."""
    matches = uow.matches.find(table_id=table_id)
    if connection_id is not None:
        matches = [m for m in matches if m.connection_id == connection_id]
    active = next((m for m in matches if m.status == "active"), None)
    queue = sorted((m for m in matches if m.status == "pending"), key=lambda m: m.queue_order)
    return active, queue


def queue_position(uow: UnitOfWork, match: Match) -> int | None:
    """1-based position among the table's pending matches; None unless pending."""
    if match.status != "pending":
        return None
    _, queue = table_matches(uow, match.table_id, connection_id=None)
    return next(i for i, m in enumerate(queue, start=1) if m.id == match.id)


def read_match(uow: UnitOfWork, match: Match) -> dict[str, Any]:
    return present_match(match, queue_position=queue_position(uow, match), player_list=player_list_of(uow, match))


def present_table(uow: UnitOfWork, table: Table, *, connection_id: str | None) -> dict[str, Any]:
    """Table read: `{id, label, broadcastID, playerListExternalID, activeMatch, queue}` (contract §5)."""
    active, queue = table_matches(uow, table.id, connection_id=connection_id)
    _, full_queue = table_matches(uow, table.id, connection_id=None)
    positions = {m.id: i for i, m in enumerate(full_queue, start=1)}
    return {
        "id": table.id,
        "label": table.label,
        "broadcastID": table.broadcast_id,
        "playerListExternalID": table.player_list_external_id,
        "activeMatch": None if active is None else present_match(
            active, queue_position=None, player_list=player_list_of(uow, active)
        ),
        "queue": [
            present_match(m, queue_position=positions[m.id], player_list=player_list_of(uow, m)) for m in queue
        ],
    }
