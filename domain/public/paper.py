"""What a club's paper shows (contract §9a print views, §14's sign-in sheet): pure reads over one unit of work.

Each function gathers one sheet of one broadcast; `api/routes/operator_print.py` lays it out as an A4 page.
- `court_schedules`: every court of the broadcast in its order, the match in play and the queue with each match's
  `notBefore`, estimated start, call-up and players (the court board's own read,
  `domain.event_day.board`); then the draws'
  matches waiting for a court (§13's pool, in start-next's order, with the pool read's estimates).
- `sign_in_sheet`: every person of the broadcast (§14's people), sorted by surname, with the counts.
- `link_sheet`: every court's scorer link, the sign-up link of each roster open to self-registration that feeds
  the broadcast (else every open roster of the account) and the event page's link when it is open.
- `results_sheet`: the broadcast's results as the export has them (`domain.match.results`), oldest first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from domain.access import audit
from domain.clock import iso
from domain.draws import service as draw_service
from domain.event_day import people, registration
from domain.event_day.board import Board
from domain.event_day.schedule import court_player_list
from domain.match import results as match_results
from domain.match import scorer
from domain.models import Broadcast, Roster, RosterType, Table
from domain.names import name_key, side_name
from domain.partner.broadcasts import get_broadcast
from domain.ports import UnitOfWork
from domain.public import event_page
from domain.settings import is_loopback


def _courts(uow: UnitOfWork, broadcast: Broadcast) -> list[Table]:
    """The broadcast's courts in the broadcast's order."""
    return [t for t in (uow.tables.get(table_id) for table_id in broadcast.table_ids) if t is not None]


def _side(read: dict[str, Any], first: str, second: str) -> str:
    """One side's names as printed: doubles partners joined as everywhere (`names.side_name`)."""
    return side_name(str(read[key]) for key in (first, second) if read.get(key))


def _line(read: dict[str, Any]) -> dict[str, Any]:
    """One match of a court sheet: who, what, and the times that matter at the desk."""
    return {
        "position": read.get("queuePosition"), "sideA": _side(read, "playerA", "playerA2"),
        "sideB": _side(read, "playerB", "playerB2"), "event": read.get("eventName"), "round": read.get("matchRound"),
        "bestOf": read.get("bestOf"), "notBefore": read.get("notBefore"),
        "estimatedStartOn": read.get("estimatedStartOn"), "calledOn": read.get("calledOn"),
        "startedOn": read.get("startedOn"), "expectedEndOn": read.get("expectedEndOn"),
    }


def court_schedules(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, default_minutes: float | None
                    ) -> dict[str, Any]:
    """Every court of the broadcast with its match in play and its queue in order (NotFound for another account's
    broadcast)."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    board = Board(uow, account_id=account_id, now=now, default_minutes=default_minutes)
    courts = []
    for table in _courts(uow, broadcast):
        read = board.court(table)
        active = read["activeMatch"]
        courts.append({"label": table.label, "playing": None if active is None else _line(active),
                       "queue": [_line(match) for match in read["queue"]]})
    waiting: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:  # the whole pool, page by page (its estimates are over the whole pool on every page)
        page, cursor = draw_service.broadcast_pool(uow, account_id=account_id, broadcast_id=broadcast.id, now=now,
                                                   default_minutes=default_minutes, cursor=cursor)
        waiting += [_line(match) for match in page]
        if cursor is None:
            break
    return {"event": broadcast.name, "printedOn": iso(now), "courts": courts, "waiting": waiting}


def results_sheet(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> dict[str, Any]:
    """Every completed match of the broadcast, as the results export has it (court, sides, games, winner)."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    rows = match_results.broadcast_results(uow, account_id=account_id, broadcast_id=broadcast_id)
    head = audit.head_line(audit.kept_head(uow, account_id))  # the paper anchors the audit log (§16)
    return {"event": broadcast.name, "printedOn": iso(now), "results": rows, "audit": head}


def surname_order(name: str) -> tuple[str, str]:
    """How a sign-in sheet is sorted: by the last word of the name (the surname), then the whole name, both
    compared as the one name rule compares them (case and accents folded as §8a says)."""
    key = name_key(name)
    words = key.split()
    return (words[-1] if words else "", key)


def sign_in_sheet(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> dict[str, Any]:
    """Every person of the broadcast sorted by surname, whether they are checked in, and the counts."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    rows = people.broadcast_people(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    rows.sort(key=lambda row: surname_order(str(row["name"])))
    present = sum(1 for row in rows if row["checkedIn"])
    return {"event": broadcast.name, "printedOn": iso(now), "requireCheckIn": broadcast.require_check_in,
            "expected": len(rows), "present": present,
            "people": [{"name": row["name"], "club": row["club"], "checkedIn": row["checkedIn"]} for row in rows]}


def _feeds(uow: UnitOfWork, broadcast: Broadcast, roster: Roster) -> bool:
    """Whether a roster's sign-ups land in a list the broadcast plays from (its default list or a court's)."""
    lists = {broadcast.default_player_list_id}
    lists |= {found.id for found in (court_player_list(uow, t) for t in _courts(uow, broadcast)) if found}
    return roster.player_list_id in lists


def link_sheet(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, root: str) -> dict[str, Any]:
    """Every link a club prints for the broadcast: scorer links per court (made on first read, as the operator
    read makes them; `url` null once revoked), the open sign-up links and the open event page."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    base = root.rstrip("/")
    scorers = []
    for table in _courts(uow, broadcast):
        link = scorer.scorer_link(uow, account_id=account_id, table_id=table.id, now=now)
        scorers.append({"label": table.label, "url": f"{base}/score/{link.key}" if link.key else None})
    open_rosters = [r for r in uow.rosters.find(account_id=account_id)
                    if r.self_registration_enabled and r.roster_type == RosterType.INDIVIDUAL]
    chosen = [r for r in open_rosters if _feeds(uow, broadcast, r)] or open_rosters
    sign_ups = []
    for roster in sorted(chosen, key=lambda r: r.seq):
        link = registration.registration_link(uow, account_id=account_id, roster_id=roster.id, now=now)
        if link.key:
            sign_ups.append({"name": roster.name, "url": f"{base}/register/{link.key}"})
    event = event_page.event_link(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)
    return {"event": broadcast.name, "printedOn": iso(now), "scorers": scorers, "signUps": sign_ups,
            "eventPage": f"{base}/event/{event.key}" if event.enabled and event.key else None,
            # the console's warning goes on the paper too: these links open on this computer only (issue 35)
            "loopbackOnly": is_loopback((urlsplit(base).hostname or "").lower())}
