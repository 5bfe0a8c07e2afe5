"""How good and how quick the order of play is (contract §20 "Quality and speed", sharpened with §24; issue 46):
on four events, Courtside's plan against the best plan Google OR-Tools' CP-SAT finds for the same rules.

The events, built the same way each run over HTTP (`POST /operator/broadcasts`, `PATCH` its plan settings and
rest, `POST /operator/draws` per draw), all on one day 09:00-21:00 (UTC):

1. reference: §20's reference event: a 32-entry knockout, four round-robin groups of 4, a 16-entry doubles
   knockout; 6 courts, 30-minute matches, no rest;
2. shared: the same with 12 players in two or three of its draws (4 in all three, 4 in singles and groups, 4 in
   singles and doubles);
3. club: a 16-entry consolation draw, an 8-entry play-off draw and 12 entries in 3 groups with play-offs; 4 courts,
   40-minute matches, 30 minutes rest, a daily limit of 4 matches, two players not before 11:00;
4. large: a 64-entry knockout, a 32-entry double elimination and eight round-robin groups of 5 (205 matches);
   8 courts, 20-minute matches, 15 minutes rest.

For each: `POST /operator/broadcasts/{id}/plan` (timed against making the event's draws, medians over `--ops`
runs; the goal: at most 1), the plan's conflicts (`GET …/plan`, the product's checker: none expected), and CP-SAT
on the planner's own problem (`domain.plan.service.build`), modelled from the rules apart from the planner
(`bench/cp_sat_plan.py`), `--cp-sat-seconds` (default 60) on one worker; its plan is checked by the product's
checker too. The goal: every match that fits placed, and the day's length (from 09:00 to its last end) at most
1.05 x CP-SAT's. The Flask test client over a real TinyDB store, rate limits lifted, the clock at 08:00 of the day.

    .venv/bin/python -m bench.bench_plan_quality [--ops 5] [--cp-sat-seconds 60] [--event club ...]

Needs OR-Tools (the `bench` extra: `pip install 'ortools>=9.10'`). Prints a Markdown table, then one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from bench.bench_audit import LIFTED, OPERATOR_KEY, Client
from domain.access.auth import bootstrap
from domain.clock import FixedClock, parse_iso
from domain.match.scoring import SERVER_DEFAULT
from domain.plan import checker, service
from domain.plan.model import Problem, from_minute
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work

INSTALL = ("bench.bench_plan_quality needs Google OR-Tools, a bench-only dependency: "
           "pip install 'ortools>=9.10'  (or: pip install -e '.[bench]')")
DAY = "2026-12-05"
START = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)
GOAL_RATIO = 1.05
GOAL_COST = 1.0

Body = dict[str, Any]


def entries(names: list[str], *, partners: list[str] | None = None) -> list[Body]:
    """Seeded entries (seed = position), doubles when partners are given."""
    return [{"players": [{"manualName": name}] + ([{"manualName": partners[i]}] if partners else []), "seed": i + 1}
            for i, name in enumerate(names)]


def named(prefix: str, count: int) -> list[str]:
    return [f"{prefix} Player {i}" for i in range(1, count + 1)]


@dataclass(frozen=True)
class Event:
    """One of the four events: its courts, plan settings, rest and draws (made with a run's name prefix)."""

    name: str
    courts: int
    minutes: int
    rest: int
    draws: Callable[[str], list[Body]]
    daily_total: int | None = None
    not_before: tuple[str, ...] = ()  # names of players who may not play before 11:00


def reference(prefix: str, shared: list[str] | None = None) -> list[Body]:
    singles, groups = named(f"{prefix}S", 32), named(f"{prefix}G", 16)
    doubles, partners = named(f"{prefix}D", 16), [f"{prefix}D Partner {i}" for i in range(1, 17)]
    if shared is not None:  # 0-3 in all three draws, 4-7 in singles and groups, 8-11 in singles and doubles
        singles[:12] = shared
        groups[:8] = shared[:8]
        doubles[:4], doubles[4:8] = shared[:4], shared[8:12]
    return [{"name": "Singles", "format": "single_elimination", "entries": entries(singles)},
            {"name": "Groups", "format": "round_robin", "groupCount": 4, "entries": entries(groups)},
            {"name": "Doubles", "format": "single_elimination", "entries": entries(doubles, partners=partners)}]


def shared(prefix: str) -> list[Body]:
    return reference(prefix, [f"{prefix}X Player {i}" for i in range(1, 13)])


def club(prefix: str) -> list[Body]:
    return [{"name": "Consolation", "format": "consolation", "entries": entries(named(f"{prefix}C", 16))},
            {"name": "Play-offs", "format": "playoff_all", "entries": entries(named(f"{prefix}P", 8))},
            {"name": "Groups", "format": "round_robin_playoff", "groupCount": 3,
             "entries": entries(named(f"{prefix}R", 12))}]


def large(prefix: str) -> list[Body]:
    return [{"name": "Knockout", "format": "single_elimination", "entries": entries(named(f"{prefix}K", 64))},
            {"name": "Double elimination", "format": "double_elimination", "entries": entries(named(f"{prefix}E", 32))},
            {"name": "Groups", "format": "round_robin", "groupCount": 8, "entries": entries(named(f"{prefix}G", 40))}]


EVENTS = (
    Event("reference", courts=6, minutes=30, rest=0, draws=reference),
    Event("shared", courts=6, minutes=30, rest=0, draws=shared),
    Event("club", courts=4, minutes=40, rest=30, draws=club, daily_total=4,
          not_before=("C Player 1", "P Player 2")),
    Event("large", courts=8, minutes=20, rest=15, draws=large),
)


class Setup:
    def __init__(self, data_dir: Path) -> None:
        settings = Settings(data_dir=data_dir, time_zone="UTC", **LIFTED)  # type: ignore[arg-type]
        self.store = open_store(settings)
        self.clock = FixedClock(datetime(2026, 12, 5, 8, 0, tzinfo=UTC))
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=self.clock.now())
        self.operator = Client(create_app(build_services(settings, self.store, clock=self.clock)), OPERATOR_KEY)
        self.round = 0

    def broadcast(self, event: Event) -> tuple[str, list[Body]]:
        """A new broadcast with the event's courts and rest, and the bodies of its draws (made next, timed)."""
        self.round += 1
        made = self.operator.call("POST", "/operator/broadcasts", {"name": f"{event.name} {self.round}", "tables": [
            {"label": f"Court {i}"} for i in range(1, event.courts + 1)]}, expect=201)["data"]
        if event.rest:
            self.operator.call("PATCH", f"/operator/broadcasts/{made['id']}", {"eventDay": {"restMinutes": event.rest}})
        bodies = [{"broadcastID": made["id"], "bestOf": 1, "randomSeed": 46} | body
                  for body in event.draws(f"R{self.round} ")]
        return made["id"], bodies

    def settle(self, event: Event, broadcast_id: str) -> None:
        """The plan settings: the day, the match length, the daily limit and not-before (by the people's IDs)."""
        plan: Body = {"days": [{"date": DAY, "start": "09:00", "end": "21:00"}],
                      "matchMinutes": {"default": event.minutes}}
        if event.daily_total is not None:
            plan["dailyLimit"] = {"total": event.daily_total}
        if event.not_before:
            people = self.operator.call("GET", f"/operator/broadcasts/{broadcast_id}/people")["data"]
            wanted = {f"R{self.round} {name}" for name in event.not_before}
            plan["notBefore"] = [{"personID": p["personID"], "time": f"{DAY}T11:00"} for p in people
                                 if p["name"] in wanted]
            assert len(plan["notBefore"]) == len(wanted), (wanted, people[:3])
        self.operator.call("PATCH", f"/operator/broadcasts/{broadcast_id}", {"plan": plan})

    def make_draws(self, bodies: list[Body]) -> None:
        for body in bodies:
            self.operator.call("POST", "/operator/draws", body, expect=201)

    def plan(self, broadcast_id: str) -> Body:
        return dict(self.operator.call("POST", f"/operator/broadcasts/{broadcast_id}/plan", {})["data"])

    def conflicts(self, broadcast_id: str) -> list[Body]:
        return list(self.operator.call("GET", f"/operator/broadcasts/{broadcast_id}/plan")["data"]["conflicts"])

    def problem(self, broadcast_id: str) -> Problem:
        with unit_of_work(self.store) as uow:
            broadcast = uow.broadcasts.get(broadcast_id)
            assert broadcast is not None
            return service.build(uow, broadcast, now=self.clock.now(), server=SERVER_DEFAULT, zone=UTC).problem


def timed(action: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action(*args)
    return (time.perf_counter() - started) * 1000, result


def minutes_from_nine(moment: datetime | None) -> int | None:
    return None if moment is None else int((moment - START).total_seconds() // 60)


def clock(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%H:%M")


def run_event(setup: Setup, event: Event, *, ops: int, seconds: float, solve: Callable[..., Any]) -> Body:
    """The event `ops` times (draws and plan timed), then CP-SAT on the last run's problem."""
    draws_ms: list[float] = []
    plan_ms: list[float] = []
    answer: Body = {}
    broadcast_id = ""
    for _ in range(ops):
        broadcast_id, bodies = setup.broadcast(event)
        draws_ms.append(timed(setup.make_draws, bodies)[0])
        setup.settle(event, broadcast_id)
        took, answer = timed(setup.plan, broadcast_id)
        plan_ms.append(took)
    conflicts = setup.conflicts(broadcast_id)
    problem = setup.problem(broadcast_id)
    end = parse_iso(answer["days"][0]["end"]) if answer["days"][0]["end"] else None
    found = solve(problem, seconds=seconds, workers=1)
    best_minute = found.ends.get(DAY)
    best = from_minute(best_minute) if best_minute is not None else None
    ours, theirs = minutes_from_nine(end), minutes_from_nine(best)
    draws, plan = statistics.median(draws_ms), statistics.median(plan_ms)
    return {"event": event.name, "matches": len(problem.items), "placed": answer["placed"],
            "unplaced": len(answer["unplaced"]), "conflicts": len(conflicts), "end": clock(end),
            "day_minutes": ours, "cp_sat_placed": found.placed, "cp_sat_end": clock(best),
            "cp_sat_day_minutes": theirs, "cp_sat_status": found.status, "cp_sat_optimal": found.optimal,
            "cp_sat_seconds": round(found.seconds, 1), "cp_sat_bound": found.bound,
            "cp_sat_conflicts": len(checker.check(problem, found.plan)),
            "ratio": round(ours / theirs, 3) if ours is not None and theirs else None,
            "draws_ms": round(draws, 1), "plan_ms": round(plan, 1), "cost": round(plan / draws, 2),
            "unplaced_reasons": sorted({u["reason"] for u in answer["unplaced"]})}


def table(rows: list[Body], command: str) -> str:
    lines = ["| event | matches | placed (Courtside / CP-SAT) | Courtside end | CP-SAT end | ratio (≤ 1.05) | "
             "plan / draws ms | cost (≤ 1.0) | conflicts |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        proved = ("optimal" if r["cp_sat_optimal"]
                  else f"{r['cp_sat_status'].lower()}, bound {r['cp_sat_bound']:.0f} min")
        ratio_ok = r["ratio"] is not None and r["ratio"] <= GOAL_RATIO and r["placed"] >= r["cp_sat_placed"]
        lines.append(
            f"| {r['event']} | {r['matches']} | {r['placed']} / {r['cp_sat_placed']} | {r['end']} "
            f"({r['day_minutes']} min) | {r['cp_sat_end']} ({r['cp_sat_day_minutes']} min, {proved}) | "
            f"{r['ratio']} {'met' if ratio_ok else 'NOT met'} | {r['plan_ms']} / {r['draws_ms']} | "
            f"{r['cost']} {'met' if r['cost'] <= GOAL_COST else 'NOT met'} | "
            f"{r['conflicts']} / {r['cp_sat_conflicts']} |")
    return "\n".join([*lines, "", f"    {command}"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=5, help="runs of each event for the timings (medians)")
    parser.add_argument("--cp-sat-seconds", type=float, default=60.0, help="CP-SAT's time limit per event")
    parser.add_argument("--event", action="append", choices=[e.name for e in EVENTS])
    args = parser.parse_args()
    try:
        from bench.cp_sat_plan import solve
    except ModuleNotFoundError as missing:
        if missing.name is None or not missing.name.startswith("ortools"):
            raise
        sys.exit(INSTALL)
    chosen = [e for e in EVENTS if not args.event or e.name in args.event]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        setup = Setup(Path(tmp) / "data")
        try:
            for event in chosen:
                rows.append(run_event(setup, event, ops=args.ops, seconds=args.cp_sat_seconds, solve=solve))
        finally:
            setup.store.close()
    command = " ".join([".venv/bin/python -m bench.bench_plan_quality", *sys.argv[1:]])
    print(table(rows, command))
    print(json.dumps({"date": datetime.now(UTC).isoformat(timespec="seconds"), "ops": args.ops,
                      "cp_sat_seconds": args.cp_sat_seconds, "events": rows}))


if __name__ == "__main__":
    main()
