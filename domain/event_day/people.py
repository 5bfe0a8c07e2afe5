"""The people of a broadcast (contract §14, §15): one person per name under the one name rule (§8a).

A person is whoever appears under one display name in the broadcast's matches (and draws): "Ann  Lee", "ann lee"
and a decomposed "Ann Lée" are one person. Their `personID` is derived from the broadcast and the name's
comparison key, so it is the same in every process and after a restart, and says nothing about anyone. Check-ins
are kept on the broadcast by that key, so they hold whichever match names the person.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from typing import TypedDict

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.draws import pool as draw_pool
from domain.draws import store as draw_store
from domain.errors import NotFound
from domain.event_day.availability import Availability, Person
from domain.models import Broadcast, Match, MatchStatus
from domain.names import name_key
from domain.pagination import paginate
from domain.partner.broadcasts import get_broadcast
from domain.ports import UnitOfWork


def person_id(broadcast_id: str, name: str) -> str:
    """The stable ID of the person written `name` in a broadcast (`psn_` + 20 hex characters)."""
    digest = hashlib.sha256(f"{broadcast_id}\x00{name_key(name)}".encode()).hexdigest()
    return f"psn_{digest[:20]}"


class PersonStatus(StrEnum):
    """Where a person is now, most pressing first: on court, called to one, resting, not here yet, free."""

    PLAYING = "playing"
    CALLED = "called"
    RESTING = "resting"
    ABSENT = "absent"
    FREE = "free"


NOT_IN_A_MATCH = 2**63  # the spelling rank of a draw entry that has no match yet: any match's spelling wins


@dataclass
class _Seen:
    person: Person
    spelled_by: int  # the `seq` of the match whose spelling `person` has (the earliest one)
    next_match: Match | None = None
    next_rank: tuple[int, str, int, int] | None = None


def _note(seen: dict[str, _Seen], person: Person, spelled_by: int) -> _Seen:
    """The person of this name key, spelled as their earliest match spells them: "Ann Lee" stays "Ann Lee"
    when her first match starts and a later one says "ann lee"."""
    entry = seen.get(name_key(person.name))
    if entry is None:
        entry = seen[name_key(person.name)] = _Seen(person, spelled_by)
    elif spelled_by < entry.spelled_by:
        entry.person, entry.spelled_by = replace(person, club=person.club or entry.person.club), spelled_by
    elif entry.person.club is None and person.club:  # a draw's entry knows the club its matches do not name
        entry.person = replace(entry.person, club=person.club)
    return entry


def _people(uow: UnitOfWork, broadcast: Broadcast, availability: Availability) -> dict[str, _Seen]:
    """Everyone in the broadcast's matches, by name key, with their first waiting match (called ones first)."""
    seen: dict[str, _Seen] = {}
    tables = [t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None]
    for court, table in enumerate(tables):
        queue = uow.matches.queue(table.id)
        rest = uow.matches.find(table_id=table.id, status=MatchStatus.ACTIVE) + uow.matches.find(
            table_id=table.id, status=MatchStatus.COMPLETED)
        for place, match in enumerate(queue):
            rank = (0 if match.called_on else 1, match.called_on or "", place, court)
            for person in availability.players.of(match):
                entry = _note(seen, person, match.seq)
                if entry.next_rank is None or rank < entry.next_rank:
                    entry.next_match, entry.next_rank = match, rank
        for match in rest:
            for person in availability.players.of(match):
                _note(seen, person, match.seq)
    # the draws' people (§13): their matches in the court pool come after every court's queue, and an entry
    # with no match yet (a later round) is a person of the broadcast too, so the desk can check them in
    pool = draw_pool.pool_matches(uow, account_id=broadcast.account_id, broadcast_id=broadcast.id)
    for place, match in enumerate(pool):
        rank = (0 if match.called_on else 1, match.called_on or "", len(tables) * 10_000 + place, 0)
        for person in availability.players.of(match):
            entry = _note(seen, person, match.seq)
            if entry.next_rank is None or rank < entry.next_rank:
                entry.next_match, entry.next_rank = match, rank
    for record in uow.draws.find(account_id=broadcast.account_id, broadcast_id=broadcast.id):
        for drawn in draw_store.entries(uow, record):
            for player in drawn.players:
                if player.name.strip():
                    _note(seen, availability.players.named(broadcast.id, player.name, club=drawn.club),
                          NOT_IN_A_MATCH)
    return seen


class PersonRowFeed(TypedDict):
    """One row of a broadcast's people as the operator's list, check-in and the personal page serve it (§14)."""

    personID: str
    name: str
    club: str | None
    checkedIn: bool
    checkedInOn: str | None
    status: PersonStatus
    restingUntil: str | None
    tableLabel: str | None
    nextMatchID: str | None


@dataclass(frozen=True)
class PersonRow:
    """One person of a broadcast and where they are now: built once (`_row`), serialised by `row_json`."""

    person_id: str
    name: str
    club: str | None
    checked_in_on: str | None
    status: PersonStatus
    resting_until: str | None
    table_label: str | None
    next_match_id: str | None


def row_json(row: PersonRow) -> PersonRowFeed:
    """The one serialisation of a person's row."""
    return {"personID": row.person_id, "name": row.name, "club": row.club,
            "checkedIn": row.checked_in_on is not None, "checkedInOn": row.checked_in_on, "status": row.status,
            "restingUntil": row.resting_until, "tableLabel": row.table_label, "nextMatchID": row.next_match_id}


def _row(uow: UnitOfWork, broadcast: Broadcast, seen: _Seen, availability: Availability) -> PersonRow:
    person = seen.person
    checked_on = availability.checked_in_on(person, broadcast)
    playing = availability.playing_on(person)
    resting = availability.resting_until(person, broadcast)
    called = seen.next_match if seen.next_match is not None and seen.next_match.called_on else None
    if playing is not None:
        status, table_id = PersonStatus.PLAYING, playing
    elif called is not None:
        status, table_id = PersonStatus.CALLED, called.table_id
    elif resting is not None:
        status, table_id = PersonStatus.RESTING, None
    elif broadcast.require_check_in and checked_on is None:
        status, table_id = PersonStatus.ABSENT, None
    else:
        status, table_id = PersonStatus.FREE, None
    table = uow.tables.get(table_id) if table_id else None
    return PersonRow(person_id=person_id(broadcast.id, person.name), name=person.name, club=person.club,
                     checked_in_on=checked_on, status=status, resting_until=iso(resting) if resting else None,
                     table_label=table.label if table else None,
                     next_match_id=seen.next_match.id if seen.next_match else None)


def person_rows(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> list[PersonRow]:
    """One row per person of the broadcast (contract §14), in name order: the typed read."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    availability = Availability(uow, account_id=account_id, now=now)
    seen = _people(uow, broadcast, availability)
    return [_row(uow, broadcast, seen[key], availability) for key in sorted(seen)]


def broadcast_people(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime) -> list[PersonRowFeed]:
    """One row per person of the broadcast (contract §14), in name order, serialised."""
    return [row_json(row) for row in person_rows(uow, account_id=account_id, broadcast_id=broadcast_id, now=now)]


def people_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, limit: int | None,
                cursor: str | None) -> tuple[list[PersonRowFeed], str | None]:
    """A page of `broadcast_people` (the list envelope, contract §2): keyed by the name key the list is ordered by;
    only the page's rows are built."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    availability = Availability(uow, account_id=account_id, now=now)
    seen = _people(uow, broadcast, availability)
    keys, next_cursor = paginate(sorted(seen), seq=lambda key: key, limit=limit, cursor=cursor)
    return [row_json(_row(uow, broadcast, seen[key], availability)) for key in keys], next_cursor


@dataclass(frozen=True)
class CheckIn:
    """A validated check-in body: whether the person is present."""

    present: bool


def check_in(uow: UnitOfWork, *, account_id: str, broadcast_id: str, person: str, check: CheckIn,
             now: datetime) -> PersonRowFeed:
    """Mark a person of the broadcast present (or not); their row. 404 for a person the broadcast does not have."""
    present = check.present
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    availability = Availability(uow, account_id=account_id, now=now)
    seen = _people(uow, broadcast, availability)
    found = next((entry for entry in seen.values()
                  if person_id(broadcast.id, entry.person.name) == person), None)
    if found is None:
        raise NotFound(f"No person '{person}' in this broadcast.")
    key = name_key(found.person.name)
    if (key in broadcast.check_ins) != present:
        if present:
            broadcast.check_ins[key] = iso(now)
        else:
            broadcast.check_ins.pop(key)
        broadcast.updated_on = iso(now)
        broadcast = uow.broadcasts.put(broadcast)
        audit.record(uow, account_id=account_id,
                     action=AuditAction.PERSON_CHECKED_IN if present else AuditAction.PERSON_CHECKED_OUT,
                     target=(TargetType.PERSON, person), before={"checkedIn": not present, "name": found.person.name},
                     after={"checkedIn": present, "name": found.person.name}, now=now)
    return row_json(_row(uow, broadcast, found, availability))
