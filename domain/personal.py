"""Players' own links (contract §21): one personal link per person of a broadcast, and what it shows and does.

The link is `{root}/me/{key}` (key `ply_` + 43 URL-safe characters, found by its SHA-256 and compared in constant
time, like every public link of `domain.links`). Its target is `{broadcastID}/{personID}`: a person is §14's
person (one per display name, `domain.people.person_id`), so the link follows the person whichever match names
them. Made on first read; rotating it kills the old URL at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from domain import links
from domain.broadcasts import get_broadcast
from domain.clock import iso
from domain.draws import hooks as draw_hooks
from domain.errors import Conflict, NotFound
from domain.estimates import Estimator
from domain.event_page import match_card
from domain.models import Broadcast, Link, Match, MatchStatus, Table
from domain.people import CheckIn, broadcast_people, check_in
from domain.people import person_id as person_id_of
from domain.ports import UnitOfWork
from domain.queues import active_match

KIND = "personal"
PREFIX = "ply"


def _target(broadcast_id: str, person_id: str) -> str:
    return f"{broadcast_id}/{person_id}"


def person_row(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, now: datetime) -> dict[str, Any]:
    """The person's §14 row; 404 for a person the broadcast does not have."""
    rows = broadcast_people(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id, now=now)
    found = next((row for row in rows if row["personID"] == person_id), None)
    if found is None:
        raise NotFound(f"No person '{person_id}' in this broadcast.")
    return found


def personal_link(uow: UnitOfWork, *, account_id: str, broadcast_id: str, person_id: str, now: datetime) -> Link:
    """The person's link, made on first read; 404 for an unknown broadcast or person."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    link = uow.links.get(f"{KIND}:{_target(broadcast_id, person_id)}")
    if link is None:
        person_row(uow, broadcast, person_id, now=now)
        link = links.ensure_link(uow, kind=KIND, prefix=PREFIX, account_id=account_id,
                                 target_id=_target(broadcast_id, person_id), now=now)
    return link


def rotate_personal_link(uow: UnitOfWork, *, account_id: str, broadcast_id: str, person_id: str,
                         now: datetime) -> Link:
    """A new key for the person's link; the old URL answers 404 at once."""
    link = personal_link(uow, account_id=account_id, broadcast_id=broadcast_id, person_id=person_id, now=now)
    return links.rotate_link(uow, link, prefix=PREFIX, now=now)


def link_person(link: Link) -> str:
    """The personID a personal link is for."""
    return link.target_id.split("/", 1)[1]


def personal_view(link: Link, *, root: str) -> dict[str, Any]:
    """Operator read of a personal link (§21): whose, its URL, when it was made."""
    return {"personID": link_person(link), "url": f"{root.rstrip('/')}/me/{link.key}", "createdOn": link.created_on}


def person_by_key(uow: UnitOfWork, *, key: str) -> tuple[Broadcast, str]:
    """The broadcast and personID a personal URL names: 404 alike for an unknown or rotated key, or a deleted
    broadcast."""
    link = links.link_by_key(uow, key=key, kind=KIND, prefix=PREFIX)
    broadcast = uow.broadcasts.get(link.target_id.split("/", 1)[0]) if link is not None else None
    if link is None or broadcast is None or broadcast.account_id != link.account_id:
        raise NotFound("No such page.")
    return broadcast, link_person(link)


# ------------------------------------------------------------------------------------------------ the page's state
def _matches(uow: UnitOfWork, broadcast: Broadcast, estimator: Estimator
             ) -> Iterator[tuple[Match, Table | None, str | None]]:
    """Every match of the broadcast with its court and estimated start: each court's match in play, queue and
    finished ones, then the draws' court pool and the matches decided there (as the event page walks them)."""
    for table in (t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None):
        active = active_match(uow, table.id)
        queue = uow.matches.queue(table.id)
        starts = estimator.court(table, active=active, queue=queue).starts
        if active is not None:
            yield active, table, None
        for match in queue:
            yield match, table, iso(starts[match.id]) if match.id in starts else None
        for match in uow.matches.find(table_id=table.id, status=MatchStatus.COMPLETED):
            yield match, table, None
    pool = draw_hooks.pool_matches(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    drawn = [d.id for d in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id)]
    decided = sorted(draw_hooks.pool_of_draws(uow, drawn, status=MatchStatus.COMPLETED), key=lambda m: m.seq)
    pool_starts = estimator.pool(broadcast.id, pool, draw_hooks.pool_courts(uow))
    for match in pool:
        yield match, None, pool_starts.get(match.id)
    for match in decided:
        yield match, None, None


def _side_of(broadcast: Broadcast, card: dict[str, Any], person_id: str) -> str | None:
    for index, side in enumerate(card["sides"]):
        if any(name and person_id_of(broadcast.id, name) == person_id for name in side["names"]):
            return "ab"[index]
    return None


def person_matches(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, estimator: Estimator
                   ) -> list[tuple[Match, dict[str, Any]]]:
    """The person's matches with their cards (§15's card plus `matchID`, `side` and `plannedOn`)."""
    found = []
    for match, table, estimate in _matches(uow, broadcast, estimator):
        card = match_card(uow, match, table, estimate=estimate)
        side = _side_of(broadcast, card, person_id)
        if side is not None:
            found.append((match, card | {"matchID": match.id, "side": side, "plannedOn": match.not_before}))
    return found


def personal_state(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, estimator: Estimator, now: datetime,
                   reports: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The personal page's state (§21, without `version`, which the caller adds): the person, the match they are
    called to, the one in play, the next ones and their results; the event's switches."""
    row = person_row(uow, broadcast, person_id, now=now)
    cards = [card for _, card in person_matches(uow, broadcast, person_id, estimator=estimator)]
    pending = sorted((c for c in cards if c["status"] == MatchStatus.PENDING),
                     key=lambda c: (c["calledOn"] is None, c["calledOn"] or "", c["estimatedStartOn"] or "~"))
    current = next((c for c in cards if c["status"] == MatchStatus.ACTIVE), None)
    results = sorted((c for c in cards if c["status"] == MatchStatus.COMPLETED),
                     key=lambda c: c["completedOn"] or "", reverse=True)
    called = next((c for c in pending if c["calledOn"]), None)
    return {
        "event": {"name": broadcast.name},
        "person": {"name": row["name"], "club": row["club"], "checkedIn": row["checkedIn"]},
        "called": None if called is None else {"matchID": called["matchID"], "court": called["court"],
                                               "calledOn": called["calledOn"]},
        "current": current, "next": pending, "results": results, "reports": reports or [],
        "selfCheckIn": broadcast.self_check_in, "selfReport": broadcast.self_report,
    }


# ------------------------------------------------------------------------------------------------ acting
def self_check_in(uow: UnitOfWork, broadcast: Broadcast, person_id: str, *, now: datetime) -> None:
    """Check the person in through their own link (§21): `409 self_check_in_off` unless the broadcast allows it.
    Audited as §14's check-in, by the unit of work's actor (the `player`)."""
    if not broadcast.self_check_in:
        raise Conflict("Self check-in is off for this event; check in at the desk.", code="self_check_in_off")
    check_in(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id, person=person_id,
             check=CheckIn(present=True), now=now)
