"""Court queues as partners and operators read them: a match read, and a table with its queue.

A table's queue is its pending matches ordered by `queue_order`; `queuePosition` is the 1-based place in the
whole queue of the table (every connection's pending matches: the court plays them in that order). Storage keeps
each queue as an ordered index, so a match's position is found without reading its queue.
How matches and tables read is in `domain/views.py` (`Reader`, `match_view`).
"""

from __future__ import annotations

from typing import Any

from domain.models import Match, MatchStatus, PlayerList, PlayerSource
from domain.names import shown_name
from domain.ports import UnitOfWork

SIDES = ("playerA", "playerA2", "playerB", "playerB2")


def display_name(reference: dict[str, str], players: dict[str, dict[str, Any]]) -> str | None:
    """The one rule for a participant's display name (matches, queues, results, outputs): the manual name, else
    "First Last" from the player list (initials where the player asks for them); None when neither is known (each
    reader says what stands in: the externalID for the operator and partners, "TBD" on public pages)."""
    if reference.get("manualName"):
        return reference["manualName"]
    return shown_name(players.get(reference.get("externalID", "")) or {}) or None


def players_by_external_id(player_list: PlayerList | None, wanted: set[str] | None = None
                           ) -> dict[str, dict[str, Any]]:
    """The list's players by externalID (only the `wanted` ones, if given). A mapped player wins over a manual
    entry with the same ID (a partner's matches name the players it synced), else the first holder wins."""
    players: dict[str, dict[str, Any]] = {}
    for player in player_list.players if player_list and wanted != set() else []:
        external_id = player.get("externalID")
        if not external_id or (wanted is not None and external_id not in wanted):
            continue
        mapped = player.get("source") == PlayerSource.MAPPED
        if external_id not in players or (mapped and players[external_id].get("source") != PlayerSource.MAPPED):
            players[external_id] = player
    return players


def side_names(match: Match, player_list: PlayerList | None) -> dict[str, str]:
    """Each side's display name: as recorded at completion, else from the player list now."""
    if match.recorded_names is not None:
        return dict(match.recorded_names)
    players = players_by_external_id(
        player_list, {ref["externalID"] for ref in match.participants.values() if ref and ref.get("externalID")},
    )
    names = {side: display_name(ref, players) or ref.get("externalID") for side, ref in match.participants.items()
             if ref}
    return {side: name for side, name in names.items() if name}


def player_list_of(uow: UnitOfWork, match: Match) -> PlayerList | None:
    """The match's player list: the one the operator chose, else the connection's list with that externalID."""
    if match.player_list_id is not None:
        return uow.player_lists.get(match.player_list_id)
    if not match.player_list_external_id:
        return None
    found = uow.player_lists.find(external_id=match.player_list_external_id, connection_id=match.connection_id)
    return found[0] if found else None


def active_match(uow: UnitOfWork, table_id: str) -> Match | None:
    found = uow.matches.find(table_id=table_id, status=MatchStatus.ACTIVE)
    return found[0] if found else None


