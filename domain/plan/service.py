"""The order of play of a broadcast (contract §20): plan it, read its grid, move one match by hand, publish it.

The plan lives on the broadcast (`Broadcast.planned`: a planned court and start per match, keyed by its draw
match's ID for a draw's match, so that it holds before and after the real match exists, else by the match's ID).
What a planning needs is read here (`build`) into the pure planner's terms (`domain.plan.model`); the planner
(`scheduler`) places, the independent checker (`checker`) tells conflicts; nothing is refused for a conflict.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any, Protocol

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso, parse_iso
from domain.draws import store as draw_store
from domain.draws.cache import DecodedDraws
from domain.draws.labels import round_names_by_match, slot_label
from domain.draws.model import Draw, DrawMatch, DrawMatchStatus
from domain.draws.service import list_draws
from domain.errors import Conflict, Invalid, NotFound
from domain.event_day.availability import Players
from domain.event_day.people import person_id
from domain.match import scoring as match_scoring
from domain.match.scoring import Scoring
from domain.models import Broadcast, Match, MatchStatus, ScoringSource
from domain.names import name_key, side_name
from domain.partner.broadcasts import get_broadcast
from domain.plan import checker, scheduler
from domain.plan.draw_items import DrawItems, draw_items
from domain.plan.model import Conflict as PlanConflict
from domain.plan.model import Day, Item, Kind, Limits, Plan, Problem, Slot, from_minute, next_minute, to_minute
from domain.plan.reads import (
    ConflictRead,
    MoveRead,
    NeededRead,
    NotPlacedRead,
    PlanCourtRead,
    PlanGridDayRead,
    PlanGridRead,
    PlanResultRead,
    PlanSlotRead,
    Shown,
    UnplacedRead,
)
from domain.plan.settings import day_bounds, match_minutes, note_published
from domain.ports import UnitOfWork

SHOWN_KINDS = {Kind.DOUBLE_BOOKED, Kind.BEFORE_FEEDER, Kind.PERSON_TWICE, Kind.REST, Kind.DAILY_LIMIT,
               Kind.NOT_BEFORE, Kind.OUTSIDE_DAY}
UNDECIDED = "To be decided"


@dataclass
class Built:
    """A broadcast's matches to plan, in the planner's terms, with what the API shows of each."""

    problem: Problem
    match_ids: dict[str, str | None] = field(default_factory=dict)  # key -> its real match, if any
    draw_match_ids: dict[str, str | None] = field(default_factory=dict)  # key -> its draw match, if any
    shown: dict[str, Shown] = field(default_factory=dict)  # key -> names, event, round
    keys: dict[str, str] = field(default_factory=dict)  # a match's or draw match's ID -> its key

    def ids(self, keys: tuple[str, ...]) -> tuple[list[str], list[str]]:
        matches = [m for k in keys if (m := self.match_ids.get(k))]
        draws = [d for k in keys if not self.match_ids.get(k) and (d := self.draw_match_ids.get(k))]
        return matches, draws


def _fmt_minutes(settings: dict[str, Any], scoring: Scoring, draw_id: str | None) -> int:
    return match_minutes(settings, scoring.format, scoring.name, draw_id)


def _sides(draw: Draw, dm: DrawMatch) -> list[str]:
    """Each slot's entry, or where it comes from ("Winner of R16-1", "1st of group A")."""
    return [slot_label(draw, s) for s in dm.slots]


Made = tuple[DrawItems, dict[str, Shown]]


def _draw_items(cache: DecodedDraws | None, draw: Draw, version: str, *, minutes: int, order: int,
                courts: tuple[str, ...] | None) -> Made:
    """A draw's items and what the grid shows of each. Kept per stored version of the draw (a new one at every
    write, `DrawRecord.version`) beside the app's decoded draws (`UnitOfWork.draw_cache`, owned by `Services`): a
    hand move or a grid read of a broadcast whose draws did not change does not make them again (items are frozen
    values). Without the app's cache (jobs, tools) they are made each time."""
    key = ("plan_items", draw.id, version, minutes, order, courts)
    kept: Made | None = cache.derived(key) if cache is not None and version else None
    if kept is not None:
        return kept
    sides: dict[str, list[str]] = {}
    round_names = round_names_by_match(draw)

    def label(_: Draw, dm: DrawMatch) -> str:
        sides[dm.id] = _sides(draw, dm)
        return f"{draw.name}, {round_names[dm.id]}: {' v '.join(sides[dm.id])}"

    made = draw_items(draw, minutes=minutes, order=order, courts=courts, label=label)
    if cache is not None:
        cache.note_draw_of([item.key for item in made.items], draw.id)
    shown = {item.key: Shown(names=sides[item.key], event=draw.name, round=round_names[item.key])
             for item in made.items}
    if cache is not None and version:
        cache.keep_derived(key, (made, shown))
    return made, shown


class _Reader:
    """Reads the broadcast's draws and matches once into items."""

    def __init__(self, uow: UnitOfWork, broadcast: Broadcast, *, now: datetime, server: Scoring,
                 zone: tzinfo, called: bool) -> None:
        self.uow, self.broadcast, self.now, self.zone, self.called = uow, broadcast, now, zone, called
        self.settings: dict[str, Any] = broadcast.plan or {"days": []}
        self.own = match_scoring.of_broadcast_record(broadcast) or server
        self.server = server
        self.players = Players(uow)
        self.items: list[Item] = []
        self.fixed: dict[str, Slot] = {}
        self.names: dict[str, str] = {}
        self.built = Built(problem=Problem(items=(), days=(), now=0))

    def _fixed(self, key: str, match: Match | None, minutes: int) -> None:
        """Called and started matches stay where they are."""
        if match is None or match.status not in (MatchStatus.ACTIVE, MatchStatus.PENDING):
            return
        now = to_minute(self.now)
        if match.status == MatchStatus.ACTIVE and match.started_on:
            start = to_minute(parse_iso(match.started_on))
            self.fixed[key] = Slot(match.table_id, start, max(start + minutes, now))
        elif match.status == MatchStatus.PENDING and match.called_on and self.called:
            planned = self.broadcast.planned.get(key)
            if planned is not None:
                start = to_minute(parse_iso(planned["planned_on"]))
                self.fixed[key] = Slot(planned["table_id"], start, start + minutes)
            elif match.table_id:
                self.fixed[key] = Slot(match.table_id, now, now + minutes)

    def _draw(self, index: int, draw: Draw, version: str, minutes: int, courts: tuple[str, ...] | None) -> None:
        made, shown = _draw_items(self.uow.draw_cache, draw, version, minutes=minutes, order=index * 100_000,
                                  courts=courts)
        self.names.update(made.names)
        # called matches are read only to plan (they stay where they are); started ones always (their real slot)
        statuses = (MatchStatus.PENDING, MatchStatus.ACTIVE) if self.called else (MatchStatus.ACTIVE,)
        live = {m.id: m for status in statuses for m in self.uow.matches.find(draw_id=draw.id, status=status)}
        for item in made.items:
            dm = draw.matches[item.key]
            match = live.get(dm.match_id) if dm.match_id else None
            self.items.append(item)
            self.built.match_ids[item.key] = dm.match_id
            self.built.draw_match_ids[item.key] = dm.id
            self.built.keys[dm.id] = item.key
            if dm.match_id:
                self.built.keys[dm.match_id] = item.key
            self.built.shown[item.key] = shown[item.key]
            self._fixed(item.key, match, minutes)

    def _match(self, match: Match, order: int) -> None:
        scoring = match_scoring.resolve(own=Scoring.stored(match.scoring, match.scoring_name,
                                                           match.scoring_source or ScoringSource.MATCH),
                                        draw=None, broadcast=self.own, server=self.server)
        minutes = _fmt_minutes(self.settings, scoring, None)
        people = self.players.of(match)
        persons = frozenset(name_key(p.name) for p in people)
        for p in people:
            self.names.setdefault(name_key(p.name), p.name)
        by_side: dict[str, list[str]] = defaultdict(list)
        for p in people:
            by_side[p.side.rstrip("2")].append(p.name)  # playerA, playerA2 -> playerA
        sides = [side_name(by_side.get(s, [])) or UNDECIDED for s in ("playerA", "playerB")]
        self.items.append(Item(key=match.id, minutes=minutes, persons=persons, known=persons,
                               doubles=bool(match.is_doubles), courts=(match.table_id,), order=order,
                               label=f"{match.event_name or 'Match'}: {' v '.join(sides)}"))
        self.built.match_ids[match.id] = match.id
        self.built.draw_match_ids[match.id] = None
        self.built.keys[match.id] = match.id
        self.built.shown[match.id] = Shown(names=sides, event=match.event_name, round=match.match_round)
        self._fixed(match.id, match, minutes)

    def read(self) -> Built:
        broadcast = self.broadcast
        for index, record in enumerate(list_draws(self.uow, account_id=broadcast.account_id,
                                                  broadcast_id=broadcast.id)):
            draw_scoring = Scoring.stored(record.scoring, record.scoring_name, ScoringSource.DRAW)
            minutes = _fmt_minutes(self.settings, draw_scoring or self.own, record.id)
            with draw_store.reading(self.uow, record) as draw:
                self._draw(index, draw, record.version, minutes,
                           tuple(record.table_ids) if record.table_ids else None)
        order = 10_000_000
        rest = broadcast.rest_minutes
        free_from: dict[str, int] = {}
        for table_id in broadcast.table_ids:
            own = [m for m in self.uow.matches.find(table_id=table_id, status=MatchStatus.ACTIVE) if not m.draw_id]
            for match in [*own, *(m for m in self.uow.matches.queue(table_id) if not m.draw_id)]:
                order += 1
                self._match(match, order)
            if rest:
                since = iso(self.now - timedelta(minutes=rest))
                for done in self.uow.matches.completed(table_id=table_id, since=since):
                    if done.completed_on:
                        until = to_minute(parse_iso(done.completed_on)) + rest
                        for player in self.players.of(done):
                            key = name_key(player.name)
                            free_from[key] = max(free_from.get(key, until), until)
        wanted = self.settings.get("not_before", [])
        ids = {person_id(broadcast.id, name): key for key, name in self.names.items()} if wanted else {}
        not_before: dict[str, int] = {}
        for entry in wanted:
            who = ids.get(entry["person_id"])
            if who is not None:
                when = datetime.fromisoformat(entry["time"]).replace(tzinfo=self.zone)
                not_before[who] = max(not_before.get(who, 0), to_minute(when))
        days = []
        for day in self.settings.get("days", []):
            start, end = day_bounds(day, self.zone)
            days.append(Day(date=day["date"], start=to_minute(start), end=to_minute(end),
                            courts=tuple(day.get("table_ids") or broadcast.table_ids)))
        limit = self.settings.get("daily_limit", {})
        labels = {}
        for table_id in broadcast.table_ids:
            table = self.uow.tables.get(table_id)
            labels[table_id] = table.label if table else table_id
        self.built.problem = Problem(
            items=tuple(self.items), days=tuple(sorted(days, key=lambda d: d.start)), now=next_minute(self.now),
            rest=rest, limits=Limits(limit.get("singles"), limit.get("doubles"), limit.get("total")),
            not_before=not_before, free_from=free_from, fixed=self.fixed, court_labels=labels,
            person_labels=self.names, zone=self.zone)
        return self.built


def build(uow: UnitOfWork, broadcast: Broadcast, *, now: datetime, server: Scoring, zone: tzinfo,
          called: bool = False) -> Built:
    """Everything a planning of this broadcast needs, read once. `called`: also read which waiting matches were
    called, to keep them where they are (planning); the grid, a move and the pages show them where the plan has
    them, and a called match with no planned time is not in the plan (docs/decisions.md)."""
    return _Reader(uow, broadcast, now=now, server=server, zone=zone, called=called).read()


def stored_plan(built: Built, broadcast: Broadcast) -> Plan:
    """The plan as stored (fixed matches where they are), in the planner's terms."""
    minutes = {item.key: item.minutes for item in built.problem.items}
    slots = dict(built.problem.fixed)
    for key, where in broadcast.planned.items():
        if key in minutes and key not in slots:
            start = to_minute(parse_iso(where["planned_on"]))
            slots[key] = Slot(where["table_id"], start, start + minutes[key])
    return Plan(slots=slots, unplaced={k: "not planned" for k in minutes if k not in slots})


def conflicts_of(built: Built, plan: Plan) -> list[ConflictRead]:
    """The plan's conflicts as §20 shows them (the checker's own kinds left out: docs/decisions.md)."""
    problem = Problem(**{**built.problem.__dict__, "now": 0})
    found: list[PlanConflict] = [c for c in checker.check(problem, plan) if c.kind in SHOWN_KINDS]
    shown: list[ConflictRead] = []
    for c in found:
        matches, draws = built.ids(c.keys)
        shown.append({"severity": str(c.severity), "kind": str(c.kind), "matchIDs": matches,
                      "drawMatchIDs": draws, "message": c.message})
    return shown


class TellMoved(Protocol):
    """How players are told that a published planned time moved (`domain.public.mail.queue_time_moved`, with the
    event's mail set-up bound): a dependency, so the plan knows nothing of mail."""

    def __call__(self, uow: UnitOfWork, *, match_id: str, old: datetime, new: datetime, now: datetime,
                 court: str | None = None) -> int: ...


def _tell_moves(uow: UnitOfWork, built: Built, broadcast: Broadcast, before: dict[str, dict[str, Any]], *,
                now: datetime, tell: TellMoved | None) -> None:
    """Each real match of a published plan whose planned time changed: its players are told (contract §21; the
    teller decides whether the move is big enough). Waiting draw matches have no players to tell yet."""
    if tell is None or not (broadcast.plan or {}).get("published"):
        return
    labels = built.problem.court_labels
    for key, where in broadcast.planned.items():
        match_id, old = built.match_ids.get(key), before.get(key)
        if match_id and old and old["planned_on"] != where["planned_on"]:
            tell(uow, match_id=match_id, old=parse_iso(old["planned_on"]), new=parse_iso(where["planned_on"]),
                 now=now, court=labels.get(where["table_id"], where["table_id"]))


def _placings(planned: dict[str, dict[str, Any]], keys: set[str]) -> dict[str, dict[str, Any] | None]:
    """The plan's place of each of `keys` as an audit entry keeps it (None: not planned)."""
    return {key: {"tableID": where["table_id"], "plannedOn": where["planned_on"], "byHand": bool(where.get("by_hand"))}
            if (where := planned.get(key)) else None for key in sorted(keys)}


def _audit_plan(uow: UnitOfWork, broadcast: Broadcast, before: dict[str, dict[str, Any]], *,
                action: AuditAction, target: tuple[TargetType, str], now: datetime) -> None:
    """One audit entry for a change of the stored plan (§16 "plan"): each match (or draw match) whose court, time
    or by-hand mark changed, by its key, before and after. A plan that changed nothing writes no entry."""
    after = broadcast.planned
    moved = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    if moved:
        audit.record(uow, account_id=broadcast.account_id, action=action, target=target,
                     before=_placings(before, moved), after=_placings(after, moved), now=now)


@dataclass(frozen=True)
class PlanWork:
    """What a planning reads (under the store's lock): the broadcast, what `build` made of it, and the problem
    with the hand-placed matches pinned. Two reads of unchanged data give equal `problem`s."""

    broadcast: Broadcast
    built: Built
    problem: Problem


@dataclass(frozen=True)
class PlanMade:
    """What a planning computes from its `PlanWork` alone (no store: it may run outside the store's lock)."""

    made: Plan
    needed: NeededRead | None


def read_plan_work(uow: UnitOfWork, *, account_id: str, broadcast_id: str, keep_placed: bool, now: datetime,
                   server: Scoring, zone: tzinfo) -> PlanWork:
    """The inputs of a planning (contract §20): refused without plan settings that name a day."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    if not (broadcast.plan or {}).get("days"):
        raise Invalid("Give the broadcast's plan settings with at least one day first.",
                      details={"json": {"plan": ["No days to plan."]}})
    built = build(uow, broadcast, now=now, server=server, zone=zone, called=True)
    minutes = {item.key: item.minutes for item in built.problem.items}
    pinned = {}
    if keep_placed:
        for key, where in broadcast.planned.items():
            if where.get("by_hand") and key in minutes and key not in built.problem.fixed:
                start = to_minute(parse_iso(where["planned_on"]))
                pinned[key] = Slot(where["table_id"], start, start + minutes[key])
    return PlanWork(broadcast, built, Problem(**{**built.problem.__dict__, "pinned": pinned}))


def compute_plan(work: PlanWork) -> PlanMade:
    """The plan, and the day's end that would hold every match when some are left out for want of time: pure
    computation."""
    made = scheduler.plan(work.problem)
    return PlanMade(made, _needed(work.problem) if made.unplaced and made.short_of_time else None)


def write_plan(uow: UnitOfWork, work: PlanWork, computed: PlanMade, *, dry_run: bool, now: datetime,
               tell: TellMoved | None = None) -> PlanResultRead:
    """Store the computed plan (unless `dry_run`), audit it, tell the players of a published time that moved,
    and answer. `work` must be read in this same unit of work (the caller checks a plan computed from an earlier
    read against it: `plan_broadcast_apart` in the API)."""
    broadcast, built, problem, made = work.broadcast, work.built, work.problem, computed.made
    minutes = {item.key: item.minutes for item in built.problem.items}
    by_day: dict[str, int] = {}
    planned: dict[str, dict[str, Any]] = {}
    for key, slot in made.slots.items():
        previous = broadcast.planned.get(key, {})
        planned[key] = {"table_id": slot.court, "planned_on": iso(from_minute(slot.start)),
                        "by_hand": bool(previous.get("by_hand")) and key in problem.pinned}
        if key in built.problem.fixed and previous:
            planned[key] = previous
        day = next((d for d in problem.days if d.start <= slot.start < d.end), None)
        if day is not None:
            by_day[day.date] = max(by_day.get(day.date, slot.end), slot.end)
    if not dry_run:
        before, broadcast.planned = broadcast.planned, planned
        note_published(broadcast)
        broadcast.updated_on = iso(now)
        uow.broadcasts.put(broadcast)
        _audit_plan(uow, broadcast, before, action=AuditAction.BROADCAST_PLANNED,
                    target=(TargetType.BROADCAST, broadcast.id), now=now)
        _tell_moves(uow, built, broadcast, before, now=now, tell=tell)
    unplaced: list[UnplacedRead] = [{**_not_placed(built, key, minutes[key]), "reason": reason}
                                    for key, reason in made.unplaced.items()]
    answer: PlanResultRead = {
        "placed": made.placed, "unplaced": unplaced,
        "days": [{"date": d.date, "end": iso(from_minute(by_day[d.date])) if d.date in by_day else None}
                 for d in problem.days]}
    if unplaced and computed.needed is not None:
        answer["needed"] = computed.needed
    return answer


def plan_broadcast(uow: UnitOfWork, *, account_id: str, broadcast_id: str, dry_run: bool, keep_placed: bool,
                   now: datetime, server: Scoring, zone: tzinfo, tell: TellMoved | None = None) -> PlanResultRead:
    """Place every match still to play (contract §20); called and started ones stay. Stored unless `dry_run`;
    the players of a published match whose time moved are told (`tell`). All in one unit of work; the API reads,
    computes outside the store's lock, then writes (`read_plan_work`, `compute_plan`, `write_plan`)."""
    work = read_plan_work(uow, account_id=account_id, broadcast_id=broadcast_id, keep_placed=keep_placed, now=now,
                          server=server, zone=zone)
    return write_plan(uow, work, compute_plan(work), dry_run=dry_run, now=now, tell=tell)


#: How much longer a last day may be made to find the end that would hold every match (a day and a half).
LONGEST_STRETCH = 36 * 60


def _needed(problem: Problem) -> NeededRead | None:
    """The last day's end that would hold every match at these lengths (issue 46: "nothing says how long the day
    would need"): the plan made again with the last day stretched; None when even that leaves a match out (a
    cause other than the day's length: a feeder cycle, a limit, a player's time)."""
    if not problem.days:
        return None
    last = problem.days[-1]
    stretched = Day(date=last.date, start=last.start, end=last.end + LONGEST_STRETCH, courts=last.courts)
    made = scheduler.plan(Problem(**{**problem.__dict__, "days": (*problem.days[:-1], stretched)}))
    if made.unplaced:
        return None
    end = max((slot.end for slot in made.slots.values() if slot.start >= last.start), default=last.end)
    return {"date": last.date, "end": iso(from_minute(end))}


def _not_placed(built: Built, key: str, minutes: int) -> NotPlacedRead:
    """What a match without a place is (names, event, round), its length and IDs."""
    shown = built.shown.get(key) or Shown(names=[], event=None, round=None)
    row: NotPlacedRead = {"names": list(shown["names"]), "event": shown["event"], "round": shown["round"],
                          "minutes": minutes}
    if (match_id := built.match_ids.get(key)):
        row["matchID"] = match_id
    if (draw_match_id := built.draw_match_ids.get(key)):
        row["drawMatchID"] = draw_match_id
    return row




def _slot_view(built: Built, key: str, slot: Slot) -> PlanSlotRead:
    shown = built.shown.get(key) or Shown(names=[], event=None, round=None)
    view: PlanSlotRead = {"plannedOn": iso(from_minute(slot.start)), "minutes": slot.end - slot.start,
                          "names": list(shown["names"]),  # a copy: the shown values are kept between requests
                          "event": shown["event"], "round": shown["round"], "tableID": slot.court}
    if (match_id := built.match_ids.get(key)):
        view["matchID"] = match_id
    if (draw_match_id := built.draw_match_ids.get(key)):
        view["drawMatchID"] = draw_match_id
    return view


def plan_grid(uow: UnitOfWork, *, account_id: str, broadcast_id: str, now: datetime, server: Scoring,
              zone: tzinfo) -> PlanGridRead:
    """The plan as a grid: per day, per court, its slots in time order; and every conflict of the plan."""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    built = build(uow, broadcast, now=now, server=server, zone=zone)
    plan = stored_plan(built, broadcast)
    minutes = {item.key: item.minutes for item in built.problem.items}
    return {"days": grid_days(uow, built, broadcast, plan), "conflicts": conflicts_of(built, plan),
            "unplaced": [_not_placed(built, item.key, minutes[item.key]) for item in built.problem.items
                         if item.key not in plan.slots]}


def grid_days(uow: UnitOfWork, built: Built, broadcast: Broadcast, plan: Plan) -> list[PlanGridDayRead]:
    zone = built.problem.zone
    dates = {d.date: d for d in built.problem.days}
    by_date: dict[str, dict[str, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    for key, slot in plan.slots.items():
        day = next((d for d in built.problem.days if d.start <= slot.start < d.end), None)
        date = day.date if day else from_minute(slot.start).astimezone(zone).date().isoformat()
        by_date[date][slot.court].append((slot.start, key))
    days: list[PlanGridDayRead] = []
    for date in sorted(set(dates) | set(by_date)):
        courts = list(dates[date].courts) if date in dates else []
        courts += [c for c in sorted(by_date[date]) if c not in courts]
        days.append({"date": date, "courts": [
            PlanCourtRead(tableID=court, label=built.problem.court_labels.get(court, court),
                          slots=[_slot_view(built, key, plan.slots[key])
                                 for _, key in sorted(by_date[date].get(court, []))])
            for court in courts]})
    return days


def _key_of_match(uow: UnitOfWork, *, account_id: str, match_id: str) -> tuple[Broadcast, str]:
    match = uow.matches.get(match_id)
    if match is None or match.account_id != account_id:
        raise NotFound(f"No match '{match_id}'.")
    if match.status != MatchStatus.PENDING:
        raise Conflict(f"Match '{match_id}' is {match.status}, not pending: only pending matches are planned.",
                       code="match_not_pending")
    broadcast_id = ""
    if match.draw_id:
        record = uow.draws.get(match.draw_id)
        broadcast_id = record.broadcast_id if record else ""
    elif match.table_id:
        table = uow.tables.get(match.table_id)
        broadcast_id = table.broadcast_id if table else ""
    broadcast = get_broadcast(uow, account_id=account_id, broadcast_id=broadcast_id)
    return broadcast, match.draw_match_id or match.id


def _key_of_draw_match(uow: UnitOfWork, *, account_id: str, draw_match_id: str) -> tuple[Broadcast, str]:
    """The draw match's broadcast: its draw as this process last saw it (a hint, checked), else the broadcast whose
    plan has it (only its draws are read), else any draw of the account, newest first (a draw is decoded to be
    read: reading every draw of a long-lived account is dear)."""
    hint = uow.draw_cache.draw_of(draw_match_id) if uow.draw_cache is not None else None
    hinted = uow.draws.get(hint) if hint else None
    records = [hinted] if hinted is not None and hinted.account_id == account_id else []
    if not records:
        planned_in = [b.id for b in uow.broadcasts.find(account_id=account_id) if draw_match_id in b.planned]
        records = [r for broadcast_id in planned_in
                   for r in uow.draws.find(account_id=account_id, broadcast_id=broadcast_id)]
    if not records:
        records = sorted(uow.draws.find(account_id=account_id), key=lambda r: r.seq, reverse=True)
    for record in records:
        with draw_store.reading(uow, record) as draw:
            dm = draw.matches.get(draw_match_id)
            if dm is None:
                continue
            if dm.status not in (DrawMatchStatus.WAITING, DrawMatchStatus.READY):
                raise Conflict(f"Draw match '{draw_match_id}' is {dm.status}: only matches still to play are "
                               "planned.", code="draw_match_not_open")
            return get_broadcast(uow, account_id=account_id, broadcast_id=record.broadcast_id), dm.id
    raise NotFound(f"No draw match '{draw_match_id}'.")


def move(uow: UnitOfWork, *, account_id: str, match_id: str | None = None, draw_match_id: str | None = None,
         table_id: str, planned_on: datetime, now: datetime, server: Scoring, zone: tzinfo,
         tell: TellMoved | None = None) -> MoveRead:
    """Plan one match by hand at a court and time; never refused for a conflict, every conflict told; its players
    told when it moves in a published plan (`tell`)."""
    if match_id is not None:
        broadcast, key = _key_of_match(uow, account_id=account_id, match_id=match_id)
    else:
        broadcast, key = _key_of_draw_match(uow, account_id=account_id, draw_match_id=draw_match_id or "")
    if table_id not in broadcast.table_ids:
        raise Invalid(f"'{table_id}' is not a court of this broadcast.",
                      details={"json": {"tableID": ["Not a court of this match's broadcast."]}})
    built = build(uow, broadcast, now=now, server=server, zone=zone)
    if key not in {item.key for item in built.problem.items} or key in built.problem.fixed:
        raise Conflict("This match is not one to plan (called, started, complete or never to be played).",
                       code="match_not_pending")
    planned = {**broadcast.planned, key: {"table_id": table_id, "planned_on": iso(planned_on), "by_hand": True}}
    before, broadcast.planned = broadcast.planned, planned
    note_published(broadcast)
    broadcast.updated_on = iso(now)
    uow.broadcasts.put(broadcast)
    real = match_id or built.match_ids.get(key)
    _audit_plan(uow, broadcast, before, action=AuditAction.MATCH_PLANNED,
                target=(TargetType.MATCH, real) if real else (TargetType.DRAW_MATCH, key), now=now)
    _tell_moves(uow, built, broadcast, before, now=now, tell=tell)
    plan = stored_plan(built, broadcast)
    return {"slot": _slot_view(built, key, plan.slots[key]), "conflicts": conflicts_of(built, plan)}
