"""The draws service (contract §13): create, read, list, delete a draw, withdraw an entry, read the court pool.

Feed-forward itself lives in `domain.draws.hooks`, called by `domain.match.matches` in the unit of work that completes a
draw's real match; this module is what the operator routes call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import house_connection
from domain.clock import iso
from domain.draws import engine, store
from domain.draws import pool as draw_pool
from domain.draws.cache import Held
from domain.draws.formats.base import DrawSpec, EntrySpec
from domain.draws.model import Draw, DrawFormat, DrawPlayer, Options
from domain.draws.reach import entries_in_play
from domain.draws.read import DrawRead, draw_json, draw_read
from domain.draws.real_matches import make_real_matches
from domain.draws.standings import check_format
from domain.errors import Conflict, Invalid, NotFound
from domain.event_day.availability import Availability
from domain.event_day.estimates import Estimator
from domain.ids import new_id
from domain.match import matches as match_svc
from domain.match.scoring import Scoring
from domain.models import DrawRecord, MatchStatus, ScoringSource
from domain.names import full_name, name_key, shown_name, stored_name
from domain.pagination import paginate
from domain.partner.broadcasts import get_broadcast
from domain.ports import UnitOfWork
from domain.views import Reader


@dataclass(frozen=True)
class EntryPlayer:
    """A player of a new entry: a typed `manual_name`, or a player of a list (`player_list_external_id` and
    `external_id`, the list named by its externalID or id)."""

    manual_name: str | None = None
    player_list_external_id: str = ""
    external_id: str = ""


@dataclass
class NewEntry:
    """An entry as the request gives it."""

    players: list[EntryPlayer]
    seed: int | None = None
    club: str | None = None
    name: str | None = None
    rating: float | None = None  # None: the player list's rating when every player was picked there


@dataclass
class NewDraw:
    broadcast_id: str
    name: str
    format: DrawFormat
    entries: list[NewEntry]
    group_count: int | None = None
    options: Options = field(default_factory=Options)
    scoring: Scoring | None = None  # the format of its matches (§18); None: the broadcast's


def _rating(value: object) -> float | None:
    """A player list's `rating` as a number: a JSON number, or a string that is one; else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        found = float(str(value).strip().replace(",", "."))
    except ValueError:
        return None
    return found if math.isfinite(found) else None


def _player(uow: UnitOfWork, account_id: str, ref: EntryPlayer, where: str) -> tuple[DrawPlayer, str, float | None]:
    """The entry's player as the draw keeps it (a list player by the name shown for them, initials where they ask),
    the key of the person's whole name, which two entries of one draw must not share, and the list's rating."""
    if ref.manual_name is not None:
        return DrawPlayer(name=stored_name(ref.manual_name)), name_key(ref.manual_name), None
    reference, external_id = ref.player_list_external_id, ref.external_id
    lists = [pl for pl in uow.player_lists.find(account_id=account_id) if reference in (pl.external_id, pl.id)]
    for player_list in lists:
        for player in player_list.players:
            if player.get("externalID") == external_id:
                return (DrawPlayer(name=shown_name(player) or stored_name(external_id),
                                   player_list_external_id=reference, external_id=external_id),
                        name_key(full_name(player) or external_id), _rating(player.get("rating")))
    if not lists:
        raise Invalid(f"No player list '{reference}'.", code="unknown_player",
                      details={"json": {where: [f"No player list '{reference}' in this account."]}})
    raise Invalid(f"Player '{external_id}' is not in list '{reference}'.", code="unknown_player",
                  details={"json": {where: [f"Player '{external_id}' is not in list '{reference}'."]}})


def _entry_spec(uow: UnitOfWork, account_id: str, entry: NewEntry, prefix: str, seen: dict[str, str]) -> EntrySpec:
    """One entry of the body as the engine takes it; `seen` holds the persons of the draw so far (the same person
    twice is `400 validation_failed`). Its rating: the body's, else the mean of its players' list ratings when every
    player has one."""
    players = []
    ratings: list[float | None] = []
    for number, ref in enumerate(entry.players):
        where = f"{prefix}players.{number}"
        player, key, rating = _player(uow, account_id, ref, where)
        if key in seen:
            raise Invalid(f"'{player.name}' is in this draw twice.",
                          details={"json": {where: [f"The same person as {seen[key]}."]}})
        seen[key] = where
        players.append(player)
        ratings.append(rating)
    rating = entry.rating
    if rating is None and ratings and all(r is not None for r in ratings):
        rating = sum(r for r in ratings if r is not None) / len(ratings)
    return EntrySpec(players=players, seed=entry.seed, club=entry.club,
                     name=stored_name(entry.name) if entry.name else None, rating=rating)


def _entries(uow: UnitOfWork, account_id: str, new: NewDraw) -> list[EntrySpec]:
    seen: dict[str, str] = {}
    return [_entry_spec(uow, account_id, entry, f"entries.{index}.", seen) for index, entry in enumerate(new.entries)]


def _made(uow: UnitOfWork, *, account_id: str, new: NewDraw, now: datetime) -> Draw:
    """The draw the body asks for, checked as creating it checks, made by the engine and kept nowhere."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=new.broadcast_id)
    check_format(str(new.format), new.options.tiebreak)
    if any(name_key(d.name) == name_key(new.name)
           for d in uow.draws.find(account_id=account_id, broadcast_id=broadcast.id)):
        raise Conflict(f"This broadcast has a draw called '{new.name}' already.", code="draw_exists")
    if new.options.table_ids is not None:
        strangers = [t for t in new.options.table_ids if t not in broadcast.table_ids]
        if strangers or not new.options.table_ids:
            raise Invalid("tableIDs must be courts of the draw's broadcast.",
                          details={"json": {"tableIDs": [f"Not a court of this broadcast: {', '.join(strangers)}."
                                                         if strangers else "Name at least one court."]}})
    spec = DrawSpec(broadcast_id=broadcast.id, name=stored_name(new.name), format=new.format,
                           entries=_entries(uow, account_id, new), group_count=new.group_count, options=new.options)
    return engine.make_draw(spec, draw_id=new_id("drw"), created_on=iso(now), new_id=new_id)


def preview_draw(uow: UnitOfWork, *, account_id: str, new: NewDraw, now: datetime) -> dict[str, Any]:
    """The draw read that creating this body would give (the same checks, the same placement for the same
    `randomSeed`), with nothing stored: no draw, no match, no audit entry. Its IDs are never kept."""
    return draw_json(_read(_made(uow, account_id=account_id, new=new, now=now), new.scoring))


def create_draw(uow: UnitOfWork, *, account_id: str, new: NewDraw, now: datetime, server: Scoring) -> DrawRecord:
    """A running draw with a real match in the court pool for every draw match whose entries are known."""
    draw = _made(uow, account_id=account_id, new=new, now=now)
    record = DrawRecord(id=draw.id, account_id=account_id, broadcast_id=draw.broadcast_id, name=draw.name,
                        created_on=draw.created_on, updated_on=draw.created_on,
                        scoring=new.scoring.json() if new.scoring else None,
                        scoring_name=new.scoring.name if new.scoring else None)
    house = house_connection(uow, account_id=account_id, now=now)
    make_real_matches(uow, record, draw, house_id=house.id, now=now, server=server)
    record = store.save(uow, record, Held(draw=draw, marks={}), now)
    audit.record(uow, account_id=account_id, action=AuditAction.DRAW_CREATED, target=(TargetType.DRAW, record.id),
                 after={"name": record.name, "format": str(draw.format), "entries": len(draw.entries)}, now=now)
    return record


def get_draw(uow: UnitOfWork, *, account_id: str, draw_id: str) -> DrawRecord:
    record = uow.draws.get(draw_id)
    if record is None or record.account_id != account_id:
        raise NotFound(f"No draw '{draw_id}'.")
    return record


def list_draws(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> list[DrawRecord]:
    get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    return sorted(uow.draws.find(account_id=account_id, broadcast_id=broadcast_id), key=lambda d: d.seq)


def draws_page(uow: UnitOfWork, *, account_id: str, broadcast_id: str, limit: int | None,
               cursor: str | None) -> tuple[list[DrawRecord], str | None]:
    """A page of the broadcast's draws, oldest first (the list envelope, contract §2)."""
    return paginate(list_draws(uow, account_id=account_id, broadcast_id=broadcast_id), seq=lambda d: d.seq,
                    limit=limit, cursor=cursor)


def delete_draw(uow: UnitOfWork, *, account_id: str, draw_id: str, now: datetime) -> DrawRecord:
    """Delete a draw none of whose matches has started (`409 draw_started`); its pending matches are cancelled."""
    record = get_draw(uow, account_id=account_id, draw_id=draw_id)
    matches = uow.matches.find(account_id=account_id, draw_id=record.id)
    started = [m.id for m in matches if m.status != MatchStatus.PENDING]
    if started:
        raise Conflict("A match of this draw has started: the draw stays.", code="draw_started",
                       details={"matchIDs": started})
    for match in matches:
        match_svc.cancel_draw_match(uow, match, now=now)
    store.delete(uow, record)
    audit.record(uow, account_id=account_id, action=AuditAction.DRAW_DELETED, target=(TargetType.DRAW, record.id),
                 before={"name": record.name}, now=now)
    return record


def withdraw_entry(uow: UnitOfWork, *, account_id: str, draw_id: str, entry_id: str, now: datetime,
                   rules: match_svc.Rules) -> DrawRecord:
    """The entry withdraws: its open matches are walkovers for the opponents, now or as they become ready.
    Withdrawing an entry already withdrawn changes nothing (no entry, the draw's version kept) and answers the
    draw."""
    record = get_draw(uow, account_id=account_id, draw_id=draw_id)
    held = store.load(uow, record)
    draw = held.draw
    entry = next((e for e in draw.entries if e.id == entry_id), None)
    if entry is None or entry.withdrawn:
        store.release(uow, record, held)
        if entry is None:
            raise NotFound(f"No entry '{entry_id}' in draw '{draw_id}'.")
        return record
    walked = engine.withdraw(draw, entry_id, new_id=new_id)
    house = house_connection(uow, account_id=account_id, now=now)
    make_real_matches(uow, record, draw, house_id=house.id, now=now, server=rules.scoring)
    record = store.save(uow, record, held, now)
    for dm in walked:  # their real matches end as walkovers (the draw already has the result)
        winner = "a" if dm.winner_entry_id == dm.slots[0].entry_id else "b"
        match_svc.record_walkover(uow, account_id=account_id, match_id=dm.match_id or "", winner_side=winner,
                                  reason=match_svc.WalkoverReason.WITHDRAWN, now=now, rules=rules)
    audit.record(uow, account_id=account_id, action=AuditAction.DRAW_WITHDRAWN, target=(TargetType.DRAW, record.id),
                 after={"entryID": entry_id}, now=now)
    return get_draw(uow, account_id=account_id, draw_id=draw_id)


def replace_entry(uow: UnitOfWork, *, account_id: str, draw_id: str, entry_id: str, entry: NewEntry,
                  now: datetime, rules: match_svc.Rules) -> DrawRecord:
    """A withdrawn entry's place is taken by a new entry (contract §22): its walkovers whose next match has not
    started are undone (back to ready with the new entry, a new real match in the pool; a pool match that went back
    to waiting is cancelled); `409 downstream_started` (nothing changed) when one has."""
    record = get_draw(uow, account_id=account_id, draw_id=draw_id)
    held = store.load(uow, record)
    draw = held.draw
    if not any(e.id == entry_id for e in draw.entries):
        store.release(uow, record, held)
        raise NotFound(f"No entry '{entry_id}' in draw '{draw_id}'.")
    seen: dict[str, str] = {}
    in_play = entries_in_play(draw)  # "no person twice" counts only entries still in play: a lucky loser (§22)
    for other in draw.entries:
        for player in other.players if other.id in in_play else []:
            seen.setdefault(name_key(player.name), f"entry {other.id}")
    try:
        spec = _entry_spec(uow, account_id, entry, "", seen)
        replaced = engine.replace(draw, entry_id, spec, new_id=new_id)
    except BaseException:
        store.release(uow, record, held)  # refused before any change (the engine checks first)
        raise
    for match_id in replaced.reopened_match_ids:
        match = uow.matches.get(match_id)
        if match is not None and match.status == MatchStatus.PENDING:
            match_svc.cancel_draw_match(uow, match, now=now)
    for match_id in replaced.undone_match_ids:  # an undone walkover is no result: it leaves results, print, CSV
        match = uow.matches.get(match_id)
        if match is not None:
            match_svc.remove_undone_walkover(uow, match, now=now)
    house = house_connection(uow, account_id=account_id, now=now)
    make_real_matches(uow, record, draw, house_id=house.id, now=now, server=rules.scoring)
    record = store.save(uow, record, held, now)
    audit.record(uow, account_id=account_id, action=AuditAction.DRAW_REPLACED, target=(TargetType.DRAW, record.id),
                 before={"entryID": entry_id}, after={"entryID": replaced.entry.id, "name": replaced.entry.name},
                 now=now)
    return record


# ------------------------------------------------------------------------------------------------------ reads
def read_draw(uow: UnitOfWork, record: DrawRecord) -> DrawRead:
    """The typed §13 draw read of a stored draw, in its own format."""
    scoring = Scoring.stored(record.scoring, record.scoring_name, ScoringSource.DRAW)
    broadcast = uow.broadcasts.get(record.broadcast_id)
    with store.reading(uow, record) as draw:
        return _read(draw, scoring, planned=broadcast.planned if broadcast is not None else None)


def draw_view(uow: UnitOfWork, record: DrawRecord) -> dict[str, Any]:
    """The §13 draw read as JSON."""
    return draw_json(read_draw(uow, record))


def _read(draw: Draw, scoring: Scoring | None, *, planned: dict[str, dict[str, Any]] | None = None) -> DrawRead:
    return draw_read(draw, scoring=None if scoring is None else scoring.json(),
                     scoring_name=None if scoring is None else scoring.name, planned=planned)


def broadcast_pool(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime,
                   default_minutes: float | None = None, limit: int | None = None,
                   cursor: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the broadcast's court pool in §13's order (keyed by that order, `draw_pool.pool_key`), each a match
    read with `blockedBy` when §14 holds it back and `estimatedStartOn` (the courts as they come free after their
    own queues, `Estimator.pool`, over the whole pool); the cursor of the next page or None."""
    get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    pool = draw_pool.pool_matches(uow, account_id=account_id, broadcast_id=broadcast_id)
    reader = Reader(uow)
    reader.pool_positions(pool)
    availability = Availability(uow, account_id=account_id, now=now)
    starts = Estimator(uow, now=now, default_minutes=default_minutes).pool(
        broadcast_id, pool, draw_pool.pool_courts(uow), draw_pool.held_back(uow, pool))
    key = draw_pool.pool_key(uow, account_id=account_id, broadcast_id=broadcast_id)
    page, next_cursor = paginate(pool, seq=key, limit=limit, cursor=cursor)
    reads = []
    for match in page:
        read = reader.read(match)
        if match.id in starts:
            read["estimatedStartOn"] = starts[match.id]
        blocks = availability.blocks(match)
        if blocks:
            read["blockedBy"] = blocks[0].view()
        read["blockedByAll"] = [block.view() for block in blocks]
        reads.append(read)
    return reads, next_cursor
