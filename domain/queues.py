"""Court queues as partners and operators read them: a match read, and a table with its queue.

A table's queue is its pending matches ordered by `queue_order`; `queuePosition` is the 1-based place in the
whole queue of the table (every connection's pending matches: the court plays them in that order).
Reads of many matches share one `Reader`, which loads each table's queue and each player list once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain import scoring
from domain.models import Match, PlayerList, Table
from domain.ports import UnitOfWork
from domain.settings import Settings

SIDES = ("playerA", "playerA2", "playerB", "playerB2")
DEFAULT_POINTS = Settings.points_per_game


def _display_name(reference: dict[str, str], players: dict[str, dict[str, Any]]) -> str | None:
    """The legacy display string of a side: the manual name, else "First Last" (initials where the player asks
    for them), else the externalID."""
    if reference.get("manualName"):
        return reference["manualName"]
    player = players.get(reference.get("externalID", ""))
    if player is None:
        return reference.get("externalID")
    parts = []
    for name_field, initial_field in (("firstName", "firstNameInitial"), ("lastName", "lastNameInitial")):
        part = player.get(name_field)
        if part:
            parts.append(f"{part[0]}." if player.get(initial_field) else part)
    return " ".join(parts) or player.get("externalID")


def score_of(game_scores: list[dict[str, int]], *, points: int = DEFAULT_POINTS) -> dict[str, int]:
    """Games won by each side (finished games only)."""
    return scoring.score(game_scores, points=points)


def _players_by_external_id(player_list: PlayerList | None) -> dict[str, dict[str, Any]]:
    """The list's players by externalID. A mapped player wins over a manual entry with the same ID (a partner's
    matches name the players it synced), else the first holder wins."""
    players: dict[str, dict[str, Any]] = {}
    listed = player_list.players if player_list else []
    for player in sorted(listed, key=lambda p: p.get("source") != "mapped"):  # stable: mapped first
        if player.get("externalID"):
            players.setdefault(player["externalID"], player)
    return players


def side_names(match: Match, player_list: PlayerList | None) -> dict[str, str]:
    """Each side's display name: as recorded at completion, else from the player list now."""
    if match.recorded_names is not None:
        return dict(match.recorded_names)
    players = _players_by_external_id(player_list)
    names = {side: _display_name(ref, players) for side, ref in match.participants.items() if ref}
    return {side: name for side, name in names.items() if name}


def present_match(
    match: Match, *, queue_position: int | None, player_list: PlayerList | None, points: int = DEFAULT_POINTS,
) -> dict[str, Any]:
    """The match read of the spec (required fields always, optional ones when set)."""
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
        "score": score_of(match.game_scores, points=points),
    }
    optional = {
        "eventName": match.event_name, "matchRound": match.match_round, "matchDetails": match.match_details,
        "startTime": match.start_time, "bestOf": match.best_of, "isDoubles": match.is_doubles,
        "startedOn": match.started_on, "completedOn": match.completed_on,
    }
    read.update({key: value for key, value in optional.items() if value is not None})
    names = side_names(match, player_list)
    read.update({side: names[side] for side in SIDES if side in names})
    return read


def player_list_of(uow: UnitOfWork, match: Match) -> PlayerList | None:
    found = uow.player_lists.find(external_id=match.player_list_external_id, connection_id=match.connection_id)
    return found[0] if found else None


def pending_queue(uow: UnitOfWork, table_id: str) -> list[Match]:
    """The table's pending matches (every connection's), in queue order."""
    return sorted(uow.matches.find(table_id=table_id, status="pending"), key=lambda m: (m.queue_order, m.seq))


def active_match(uow: UnitOfWork, table_id: str) -> Match | None:
    found = uow.matches.find(table_id=table_id, status="active")
    return found[0] if found else None


class Reader:
    """Presents many matches of one unit of work, loading each table queue and player list once."""

    def __init__(self, uow: UnitOfWork, *, points: int = DEFAULT_POINTS) -> None:
        self.uow = uow
        self.points = points
        self._positions: dict[str, dict[str, int]] = {}
        self._lists: dict[tuple[str, str], PlayerList | None] = {}

    def positions(self, table_id: str) -> dict[str, int]:
        if table_id not in self._positions:
            queue = pending_queue(self.uow, table_id)
            self._positions[table_id] = {m.id: i for i, m in enumerate(queue, start=1)}
        return self._positions[table_id]

    def player_list(self, match: Match) -> PlayerList | None:
        key = (match.connection_id, match.player_list_external_id)
        if key not in self._lists:
            self._lists[key] = player_list_of(self.uow, match)
        return self._lists[key]

    def read(self, match: Match) -> dict[str, Any]:
        position = self.positions(match.table_id).get(match.id) if match.status == "pending" else None
        return present_match(match, queue_position=position, player_list=self.player_list(match), points=self.points)

    def read_all(self, matches: Iterable[Match]) -> list[dict[str, Any]]:
        return [self.read(match) for match in matches]

    def table(self, table: Table, *, connection_id: str | None) -> dict[str, Any]:
        """Table read: `{id, label, broadcastID, playerListExternalID, activeMatch, queue}` (contract §5)."""
        active = active_match(self.uow, table.id)
        queue = pending_queue(self.uow, table.id)
        self._positions[table.id] = {m.id: i for i, m in enumerate(queue, start=1)}
        if connection_id is not None:
            queue = [m for m in queue if m.connection_id == connection_id]
            if active is not None and active.connection_id != connection_id:
                active = None
        return self._present(table, active, queue)

    def court(self, table: Table, *, active: Match | None, queue: list[Match]) -> dict[str, Any]:
        """The table read of a whole court (operator) whose active match and queue the caller already read."""
        self._positions[table.id] = {m.id: i for i, m in enumerate(queue, start=1)}
        return self._present(table, active, queue)

    def _present(self, table: Table, active: Match | None, queue: list[Match]) -> dict[str, Any]:
        return {
            "id": table.id,
            "label": table.label,
            "broadcastID": table.broadcast_id,
            "playerListExternalID": table.player_list_external_id,
            "activeMatch": None if active is None else self.read(active),
            "queue": self.read_all(queue),
        }
