"""What the order of play (contract §20) achieves and costs on the reference event: a 32-entry knockout, four
round-robin groups of 4 and a 16-entry doubles knockout, 6 courts, 30-minute matches, no rest, one day 09:00-21:00.

- quality: the planned day's length (first start to last end) as a ratio to the §20 lower bound (the larger of all
  match minutes over the courts and the longest chain of dependent matches); the goal: at most 1.15;
- planning cost: `POST …/plan` as a ratio to making the event's three draws (`POST /operator/draws` x 3) in the
  same run; the goal: at most 1;
- a hand move: `POST /operator/draw-matches/{id}/plan` (the move and the whole plan's conflicts) as a ratio to a
  plain operator match completion in the same run; the goal: at most 2.

Runs the real Flask app in process (Flask test client, no sockets) over a real TinyDB store, rate limits lifted, the
clock fixed at 08:00 of the day (UTC); each round makes a new broadcast with its draws, plans it, moves one match
and completes one plain match, so the machine's load falls on all alike. Medians of per-operation wall times.

    .venv/bin/python -m bench.bench_plan [--ops 10]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from bench.bench_audit import LIFTED, OPERATOR_KEY, Client
from domain.access.auth import bootstrap
from domain.clock import FixedClock, parse_iso
from domain.match.scoring import SERVER_DEFAULT
from domain.plan import service
from domain.plan.bound import lower_bound
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work

DAY = "2026-12-05"
START = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


def entries(prefix: str, count: int, *, doubles: bool = False) -> list[dict[str, Any]]:
    return [{"players": [{"manualName": f"{prefix} Player {i}"}]
             + ([{"manualName": f"{prefix} Partner {i}"}] if doubles else []), "seed": i}
            for i in range(1, count + 1)]


class Setup:
    def __init__(self, data_dir: Path) -> None:
        settings = Settings(data_dir=data_dir, time_zone="UTC", **LIFTED)  # type: ignore[arg-type]
        self.store = open_store(settings)
        self.clock = FixedClock(datetime(2026, 12, 5, 8, 0, tzinfo=UTC))
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=self.clock.now())
        self.operator = Client(create_app(build_services(settings, self.store, clock=self.clock)), OPERATOR_KEY)
        plain = self.operator.call("POST", "/operator/broadcasts", {"name": "Plain", "tables": [
            {"label": "Plain court"}]}, expect=201)["data"]
        self.plain_court = plain["tables"][0]["id"]
        self.round = 0

    def event(self) -> tuple[str, list[dict[str, Any]]]:
        """A new broadcast of six courts with its plan settings (the draws come next)."""
        self.round += 1
        made = self.operator.call("POST", "/operator/broadcasts", {"name": f"Reference {self.round}", "tables": [
            {"label": f"Court {i}"} for i in range(1, 7)]}, expect=201)["data"]
        self.operator.call("PATCH", f"/operator/broadcasts/{made['id']}", {"plan": {
            "days": [{"date": DAY, "start": "09:00", "end": "21:00"}], "matchMinutes": {"default": 30}}})
        bodies: list[dict[str, Any]] = [
            {"name": "Singles", "format": "single_elimination", "entries": entries(f"S{self.round}", 32)},
            {"name": "Groups", "format": "round_robin", "groupCount": 4, "entries": entries(f"G{self.round}", 16)},
            {"name": "Doubles", "format": "single_elimination",
             "entries": entries(f"D{self.round}", 16, doubles=True)},
        ]
        return made["id"], [{"broadcastID": made["id"], "bestOf": 1, "randomSeed": self.round} | b for b in bodies]

    def make_draws(self, bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [self.operator.call("POST", "/operator/draws", body, expect=201)["data"] for body in bodies]

    def plan(self, broadcast_id: str) -> dict[str, Any]:
        return dict(self.operator.call("POST", f"/operator/broadcasts/{broadcast_id}/plan", {})["data"])

    def move(self, draw: dict[str, Any], table_id: str) -> None:
        final = draw["rounds"][-1]["drawMatches"][0]
        self.operator.call("POST", f"/operator/draw-matches/{final['id']}/plan",
                           {"tableID": table_id, "plannedOn": f"{DAY}T09:00:00Z"})

    def plain_ready(self) -> str:
        match = self.operator.call("POST", "/operator/matches", {
            "tableID": self.plain_court, "bestOf": 1, "playerA": {"manualName": "Plain A"},
            "playerB": {"manualName": "Plain B"}}, expect=201)["data"]["id"]
        self.operator.call("POST", f"/operator/tables/{self.plain_court}/start-next")
        return str(match)

    def complete(self, match_id: str) -> None:
        self.operator.call("POST", f"/operator/matches/{match_id}/complete", {"gameScores": [{"a": 11, "b": 4}]})

    def bound(self, broadcast_id: str) -> int:
        with unit_of_work(self.store) as uow:
            broadcast = uow.broadcasts.get(broadcast_id)
            assert broadcast is not None
            built = service.build(uow, broadcast, now=self.clock.now(), server=SERVER_DEFAULT, zone=UTC)
            return lower_bound(built.problem)


def timed(action: Any, *args: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action(*args)
    return (time.perf_counter() - started) * 1000, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=10)
    args = parser.parse_args()
    figures: dict[str, list[float]] = {"draws_create": [], "plan": [], "move": [], "plain_complete": []}
    quality: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        setup = Setup(Path(tmp) / "data")
        try:
            for _ in range(args.ops):
                broadcast_id, bodies = setup.event()
                took, draws = timed(setup.make_draws, bodies)
                figures["draws_create"].append(took)
                took, answer = timed(setup.plan, broadcast_id)
                figures["plan"].append(took)
                assert answer["placed"] == 70 and answer["unplaced"] == [], answer
                length = (parse_iso(answer["days"][0]["end"]) - START).total_seconds() / 60
                bound = setup.bound(broadcast_id)
                quality.append(length / bound)
                court = setup.operator.call("GET", f"/operator/broadcasts/{broadcast_id}/plan")["data"]
                table_id = court["days"][0]["courts"][0]["tableID"]
                figures["move"].append(timed(setup.move, draws[0], table_id)[0])
                figures["plain_complete"].append(timed(setup.complete, setup.plain_ready())[0])
        finally:
            setup.store.close()
    ms = {key: round(statistics.median(values), 2) for key, values in figures.items()}
    print(json.dumps({"matches": 70, "courts": 6, "ops": args.ops, "median_ms": ms,
                      "day_minutes": round(length), "lower_bound_minutes": bound,
                      "bound_ratio": round(max(quality), 3),
                      "plan_to_draws_ratio": round(ms["plan"] / ms["draws_create"], 2),
                      "move_to_complete_ratio": round(ms["move"] / ms["plain_complete"], 2)}))


if __name__ == "__main__":
    main()
