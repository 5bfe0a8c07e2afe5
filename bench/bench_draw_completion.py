"""What completing a draw's match costs (contract §22 "Speed"), each as a ratio to a plain operator match completion
in the same run: completing a match of a running 128-entry single elimination draw (feed-forward included; goal at
most 1.5x), and the completion that closes a round of a 128-entry Swiss draw, which pairs the next round and puts
its 64 real matches in the pool (goal at most 3x).

Runs the real Flask app in process (Flask test client, no sockets) over a real TinyDB store (`--backend postgres`: a
throwaway PostgreSQL cluster), rate limits lifted;
the operations take turns so the machine's load falls on all alike. Medians of per-operation wall times.
As `courtside serve` does, the loaded app is frozen out of full garbage collections (`gc.freeze`); a collection
runs before each timed operation (not timed), so one operation's garbage is not charged to the next. The Swiss
round's other 63 matches are played between the timed completions (not timed).

    .venv/bin/python -m bench.bench_draw_completion [--backend postgres] [--ops 10]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
from typing import Any

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from bench.bench_audit import OPERATOR_KEY, Client, postgres_stores, tinydb_stores
from bench.bench_draws import WIN, timed
from domain.access.auth import bootstrap
from domain.clock import SystemClock
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work

ENTRIES = 128


class Setup:
    def __init__(self, settings: Settings) -> None:
        self.store = open_store(settings)
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=SystemClock().now())
        self.operator = Client(create_app(build_services(settings, self.store)), OPERATOR_KEY)
        made = self.operator.call("POST", "/operator/broadcasts", {"name": "Bench", "tables": [
            {"label": f"Court {i}"} for i in range(1, 5)]}, expect=201)["data"]
        self.broadcast = made["id"]
        self.plain_court, self.draw_court, self.swiss_court = (t["id"] for t in made["tables"][:3])
        self.made = 0
        self.create("single_elimination", self.draw_court)
        self.swiss = self.create("swiss", self.swiss_court)

    def create(self, draw_format: str, court: str) -> str:
        self.made += 1
        number = self.made
        body = {"broadcastID": self.broadcast, "name": f"Draw {number}", "format": draw_format, "bestOf": 1,
                "randomSeed": number, "tableIDs": [court],
                "entries": [{"players": [{"manualName": f"D{number} Player {i}"}]} | ({"seed": i} if i <= 8 else {})
                            for i in range(1, ENTRIES + 1)]}
        return str(self.operator.call("POST", "/operator/draws", body, expect=201)["data"]["id"])

    def plain_ready(self) -> str:
        match = self.operator.call("POST", "/operator/matches", {
            "tableID": self.plain_court, "bestOf": 1, "playerA": {"manualName": "Plain A"},
            "playerB": {"manualName": "Plain B"}}, expect=201)["data"]["id"]
        self.operator.call("POST", f"/operator/tables/{self.plain_court}/start-next")
        return str(match)

    def started(self, court: str) -> str:
        return str(self.operator.call("POST", f"/operator/tables/{court}/start-next")["data"]["id"])

    def draw_ready(self) -> str:
        """A started match of the running single elimination draw (a new draw when it is played out)."""
        try:
            return self.started(self.draw_court)
        except AssertionError:
            self.create("single_elimination", self.draw_court)
            return self.started(self.draw_court)

    def swiss_last(self) -> str:
        """The started last match of the Swiss draw's current round, its others played (a new draw when it is
        played out)."""
        draw = self.operator.call("GET", f"/operator/draws/{self.swiss}")["data"]
        if draw["status"] == "complete":
            self.swiss = self.create("swiss", self.swiss_court)
            draw = self.operator.call("GET", f"/operator/draws/{self.swiss}")["data"]
        current = draw["rounds"][-1]["drawMatches"]
        for _ in range(sum(1 for dm in current if dm["status"] in ("ready", "active")) - 1):
            self.complete(self.started(self.swiss_court))
        return self.started(self.swiss_court)

    def complete(self, match_id: str) -> None:
        self.operator.call("POST", f"/operator/matches/{match_id}/complete", {"gameScores": WIN})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("tinydb", "postgres"), default="tinydb")
    parser.add_argument("--ops", type=int, default=10)
    args = parser.parse_args()
    with (postgres_stores() if args.backend == "postgres" else tinydb_stores()) as settings:
        setup = Setup(settings())
        figures: dict[str, list[float]] = {"plain_complete": [], "draw_complete": [], "swiss_round_complete": []}
        gc.collect()
        gc.freeze()
        try:
            for _ in range(args.ops):
                for key, ready in (("plain_complete", setup.plain_ready), ("draw_complete", setup.draw_ready),
                                   ("swiss_round_complete", setup.swiss_last)):
                    match_id = ready()
                    gc.collect()
                    figures[key].append(timed(setup.complete, match_id))
        finally:
            setup.store.close()
    ms = {key: round(statistics.median(values), 2) for key, values in figures.items()}
    result: dict[str, Any] = {
        "backend": args.backend, "entries": ENTRIES, "ops": args.ops, "median_ms": ms,
        "draw_complete_ratio": round(ms["draw_complete"] / ms["plain_complete"], 2), "draw_complete_goal": 1.5,
        "swiss_round_ratio": round(ms["swiss_round_complete"] / ms["plain_complete"], 2), "swiss_round_goal": 3.0}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
