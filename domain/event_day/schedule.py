"""The operator's own matches (contract §9): create one on any court, or import the day's schedule.

They belong to the account's house connection, so every partner rule applies unchanged: a new match is pending
at the end of its court's queue, it locks once started, it is read like any match. Players come from the court's
player list (the list assigned to the table, else the broadcast's default list) or are typed as manual names.

Nothing is written until everything is checked: `Planner.plan` builds a match without storing it, `import_schedule`
plans every row and stores them only when no row failed and it is not a dry run (all or nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, time, tzinfo
from typing import Any

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.access.auth import house_connection
from domain.clock import iso
from domain.errors import Conflict, DomainError, Invalid, NotFound
from domain.ids import new_id
from domain.match import scoring
from domain.match.matches import MatchSync, Rules, managed_table
from domain.match.scoring import Scoring
from domain.models import Match, MatchStatus, PlayerList, Table
from domain.names import full_name, name_key, stored_name
from domain.partner.broadcasts import get_broadcast
from domain.partner.queues import SIDES
from domain.ports import UnitOfWork
from domain.views import match_view

MAX_ROWS = 1000
CLOCK_TIME = r"^([01]?[0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$"  # a sheet's time of day: 9:30, 14:00, 14:00:00


def on_day(clock_time: str, *, day: date, zone: tzinfo) -> str:
    """A sheet's time of day (`14:00`, `9:30`, `14:00:00`) on `day` in `zone`, as an API timestamp (UTC)."""
    parts = [int(part) for part in clock_time.split(":")]
    moment = datetime.combine(day, time(parts[0], parts[1], parts[2] if len(parts) > 2 else 0), tzinfo=zone)
    try:
        return iso(moment)
    except OverflowError as exc:  # 0001-01-01 00:30 east of UTC is before the year 1
        raise Invalid(f"{clock_time} on {day.isoformat()} is out of range.", details={"time": ["Out of range."]}
                      ) from exc


@dataclass(frozen=True)
class ScheduleRow:
    """One row of an imported schedule: a court label and player names as typed (or as a spreadsheet has them)."""

    court: str
    players: dict[str, str]  # side -> name cell ("playerA", "playerB", optionally "playerA2", "playerB2")
    match_round: str | None = None
    event_name: str | None = None
    best_of: int | None = None
    scoring: Scoring | None = None  # the row's `scoring` cell: a preset key (contract §18)
    start_time: str | None = None
    allow_duplicate: bool = False
    time: str | None = None  # "HH:MM" on the broadcast's day (contract §9a), instead of a full `start_time`


@dataclass(frozen=True)
class Planned:
    """A match ready to queue, with its list (for names) and the queue position it gets."""

    match: Match
    player_list: PlayerList | None
    queue_position: int

    def read(self) -> dict[str, Any]:
        return match_view(self.match, queue_position=self.queue_position, player_list=self.player_list)


def court_player_list(uow: UnitOfWork, table: Table) -> PlayerList | None:
    """The court's player list: the one assigned to the table (a list of its manager), else the broadcast's
    default list."""
    if table.player_list_external_id:
        found = uow.player_lists.find(external_id=table.player_list_external_id,
                                      connection_id=table.manager_connection_id)
        if found:
            return found[0]
    broadcast = uow.broadcasts.get(table.broadcast_id)
    if broadcast is not None and broadcast.default_player_list_id:
        return uow.player_lists.get(broadcast.default_player_list_id)
    return None


def name_index(player_list: PlayerList | None) -> dict[str, str]:
    """"first last" (whitespace collapsed, case-folded) -> externalID; of two players with one name, the first."""
    names: dict[str, str] = {}
    for player in player_list.players if player_list else []:
        if player.get("externalID") and full_name(player):
            names.setdefault(name_key(full_name(player)), player["externalID"])
    return names


def participant_for(cell: str, names: dict[str, str]) -> dict[str, str]:
    """A name cell as a participant: the list's player called "First Last" (any case and spacing), else a manual
    name as typed (spacing collapsed)."""
    found = names.get(name_key(cell))
    return {"externalID": found} if found is not None else {"manualName": stored_name(cell)}


class Planner:
    """Plans operator matches in one unit of work: each court's list and queue end are read once."""

    def __init__(self, uow: UnitOfWork, *, account_id: str, now: datetime, rules: Rules) -> None:
        self.uow = uow
        self.account_id = account_id
        self.now = now
        self.rules = rules
        self.house = house_connection(uow, account_id=account_id, now=now)
        self._ends: dict[str, tuple[int, int]] = {}  # table -> (last queue_order, queue length)
        self._court_lists: dict[str, PlayerList | None] = {}
        self._names: dict[str, dict[str, str]] = {}
        self._known: dict[str, set[str]] = {}

    # ------------------------------------------------------------------ players
    def court_list(self, table: Table) -> PlayerList | None:
        if table.id not in self._court_lists:
            self._court_lists[table.id] = court_player_list(self.uow, table)
        return self._court_lists[table.id]

    def named_list(self, table: Table, reference: str) -> PlayerList:
        """A list of the account by externalID (the court manager's first, then the house's) or by `id`."""
        candidates = [pl for pl in self.uow.player_lists.find(account_id=self.account_id)
                      if reference in (pl.external_id, pl.id)]
        if not candidates:
            raise NotFound(f"No player list '{reference}'.")
        order = {table.manager_connection_id: 0, self.house.id: 1}
        return sorted(candidates, key=lambda pl: order.get(pl.connection_id, 2))[0]

    def player_by_name(self, player_list: PlayerList | None, cell: str) -> dict[str, str]:
        """A name cell as a participant of a match on a court with this list."""
        key = player_list.id if player_list else ""
        if key not in self._names:
            self._names[key] = name_index(player_list)
        return participant_for(cell, self._names[key])

    # ------------------------------------------------------------------ matches
    def _check_participants(self, sync: MatchSync, player_list: PlayerList | None) -> None:
        list_id = player_list.id if player_list else ""
        if list_id not in self._known:  # once per list: an import checks many rows against the same list
            self._known[list_id] = {p["externalID"] for p in (player_list.players if player_list else [])
                                    if p.get("externalID")}
        known = self._known[list_id]
        reason = ("Player '{}' is not in the court's player list." if player_list
                  else "The court has no player list, so '{}' is unknown: type a name (manualName).")
        unknown = {side: [reason.format(ref["externalID"])] for side, ref in sync.participants.items()
                   if ref.get("externalID") and ref["externalID"] not in known}
        if unknown:
            raise Invalid("A player is not in the match's player list.", code="unknown_player", details=unknown)
        seen: dict[tuple[str, str], str] = {}
        for side in SIDES:
            ref = sync.participants.get(side) or {}
            key = ("id", ref["externalID"]) if ref.get("externalID") else ("name", name_key(ref.get("manualName", "")))
            if key[1] and key in seen:
                raise Invalid(f"{side} is the same player as {seen[key]}.", code="duplicate_player",
                              details={side: [f"Same player as {seen[key]}."]})
            seen[key] = side

    def plan(self, sync: MatchSync, *, not_before: str | None = None) -> Planned:
        """A pending match for the end of its court's queue, checked but not stored."""
        table = managed_table(self.uow, account_id=self.account_id, table_id=sync.table_id, connection_id=None)
        player_list = (self.named_list(table, sync.player_list_external_id) if sync.player_list_external_id
                       else self.court_list(table))
        self._check_participants(sync, player_list)
        external_id = sync.external_id or new_id("op")
        if sync.external_id and self.uow.matches.find(external_id=external_id, connection_id=self.house.id):
            raise Conflict(f"A match with externalID '{external_id}' exists already.", code="match_exists")
        if table.id not in self._ends:
            end = self.uow.matches.queue_last(table.id)
            self._ends[table.id] = (end.queue_order if end else 0, self.uow.matches.queue_length(table.id))
        last, length = self._ends[table.id]
        self._ends[table.id] = (last + 1, length + 1)
        stamp = iso(self.now)
        match = Match(
            id=new_id("mat"), scheduled_match_id=new_id("sm"), account_id=self.account_id,
            connection_id=self.house.id, external_id=external_id, table_id=table.id,
            player_list_external_id=(player_list.external_id or player_list.id) if player_list else "",
            player_list_id=player_list.id if player_list else None, status=MatchStatus.PENDING, queue_order=last + 1,
            scheduled_on=stamp, created_on=stamp, updated_on=stamp,
            participants={side: dict(sync.participants[side]) for side in SIDES if side in sync.participants},
            event_name=sync.event_name, match_round=sync.match_round, match_details=sync.match_details,
            start_time=sync.start_time, best_of=sync.best_of, is_doubles=sync.is_doubles, not_before=not_before,
        )
        scoring.assign(match, scoring.scoring_for(self.uow, table_id=table.id, record=None, own=sync.scoring,
                                                  server=self.rules.scoring))
        scoring.check_best_of(match)
        return Planned(match=match, player_list=player_list, queue_position=length + 1)

    def queue(self, planned: Planned) -> Planned:
        """Store a planned match."""
        match = self.uow.matches.put(planned.match)
        audit.record(self.uow, account_id=self.account_id, action=AuditAction.MATCH_CREATED,
                     target=(TargetType.MATCH, match.id), after=match, now=self.now)
        return Planned(match, planned.player_list, planned.queue_position)


def create_match(uow: UnitOfWork, *, account_id: str, sync: MatchSync, now: datetime, rules: Rules) -> Planned:
    """`POST /operator/matches`: a house match at the end of any court's queue (`externalID` minted when "")."""
    planner = Planner(uow, account_id=account_id, now=now, rules=rules)
    return planner.queue(planner.plan(sync))


def _court(courts: list[Table], cell: str) -> Table:
    """The court a `court` cell names (§8a): its exact label, else the one label equal under the name rule;
    none is `unknown_court`, several are `ambiguous_court`."""
    exact = [t for t in courts if t.label == cell]
    found = exact or [t for t in courts if name_key(t.label) == name_key(cell)]
    if len(found) == 1:
        return found[0]
    labels = ", ".join(t.label for t in (found or courts))
    if found:
        raise Invalid(f"'{cell}' matches more than one court ({labels}); write the label exactly.",
                      code="ambiguous_court", details={"court": [f"Matches {labels}."]})
    raise Invalid(f"No court '{cell}' in this broadcast.", code="unknown_court",
                  details={"court": [f"Not a court of this broadcast (courts: {labels})."]})


def _row_sync(planner: Planner, courts: list[Table], row: ScheduleRow) -> MatchSync:
    table = _court(courts, row.court)
    player_list = planner.court_list(table)
    participants = {side: planner.player_by_name(player_list, row.players[side])
                    for side in SIDES if (row.players.get(side) or "").strip()}
    return MatchSync(
        external_id="", table_id=table.id, player_list_external_id="", participants=participants,
        event_name=row.event_name, match_round=row.match_round, start_time=row.start_time, best_of=row.best_of,
        scoring=row.scoring, is_doubles=any(side in participants for side in ("playerA2", "playerB2")),
    )


def _sides(match: Match) -> frozenset[frozenset[str]]:
    """A match's two sides as who plays them (externalID, else the manual name under §8a's rule), in either order."""
    def who(side: str) -> str | None:
        participant = match.participants.get(side) or {}
        if participant.get("externalID"):
            return f"id:{participant['externalID']}"
        return f"name:{name_key(participant['manualName'])}" if participant.get("manualName") else None

    return frozenset(frozenset(w for w in (who(a), who(b)) if w) for a, b in (("playerA", "playerA2"),
                                                                                ("playerB", "playerB2")))


def _check_not_pending(uow: UnitOfWork, planned: Planned, pending: dict[str, set[frozenset[frozenset[str]]]]) -> None:
    """A row that would queue a match identical to a pending one of its court is `409 duplicate_match` (§9a)."""
    table_id = planned.match.table_id
    if table_id not in pending:
        pending[table_id] = {_sides(m) for m in uow.matches.queue(table_id)}
    if _sides(planned.match) in pending[table_id]:
        raise Conflict("This match is already queued on this court; set allowDuplicate to queue it again.",
                       code="duplicate_match", details={"court": ["Same court and sides as a pending match."]})


@dataclass(frozen=True)
class ScheduleImport:
    """A validated `POST /operator/matches/import` body: the rows for a broadcast's courts; `day` places a
    row's `time` (default: today in the event's time zone); `dry_run` only checks."""

    broadcast_id: str
    rows: Sequence[ScheduleRow]
    dry_run: bool = False
    day: date | None = None


def import_schedule(
    uow: UnitOfWork, *, account_id: str, schedule: ScheduleImport, now: datetime, rules: Rules, zone: tzinfo,
) -> tuple[list[Planned | DomainError], bool]:
    """Plan every row in order (per-row results); queue them all only when none failed and not `dry_run`.

    A row's `time` is placed on `day` (default: today in `zone`, the event's time zone) and kept, like a full
    `start_time`, as the match's start time and `notBefore` (contract §9a).

    Returns the outcomes and whether the matches were queued.
    """
    broadcast_id, rows, dry_run, day = schedule.broadcast_id, schedule.rows, schedule.dry_run, schedule.day
    if len(rows) > MAX_ROWS:
        raise Invalid(f"At most {MAX_ROWS} rows per import; this one has {len(rows)}.",
                      details={"json": {"rows": [f"Longer than maximum length {MAX_ROWS}."]}})
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    courts = [t for t in (uow.tables.get(tid) for tid in broadcast.table_ids) if t is not None]
    planner = Planner(uow, account_id=account_id, now=now, rules=rules)
    outcomes: list[Planned | DomainError] = []
    pending: dict[str, set[frozenset[frozenset[str]]]] = {}
    event_day = day or now.astimezone(zone).date()
    for row in rows:
        try:
            if row.time and not row.start_time:
                row = replace(row, start_time=on_day(row.time, day=event_day, zone=zone))
            planned = planner.plan(_row_sync(planner, courts, row), not_before=row.start_time)
            if not row.allow_duplicate:
                _check_not_pending(uow, planned, pending)
            outcomes.append(planned)
        except DomainError as error:
            outcomes.append(error)
    if dry_run or any(isinstance(outcome, DomainError) for outcome in outcomes):
        return outcomes, False
    return [planner.queue(outcome) for outcome in outcomes if isinstance(outcome, Planned)], True
