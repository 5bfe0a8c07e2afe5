"""What making a draw costs against importing its first round (contract §22 "Speed"): `POST /operator/draws` with
n entries, and `POST /operator/matches/import` of the n/2 rows of a first round, each in the same run, for every
format. The goal: making the draw at most 0.75x the import.

Runs the real Flask app in process (Flask test client, no sockets) over a real TinyDB store (`--backend postgres`: a
throwaway PostgreSQL cluster), rate limits lifted;
the operations take turns so the machine's load falls on all alike. Medians of per-operation wall times.
As `courtside serve` does, the loaded app is frozen out of full garbage collections (`gc.freeze`); a collection
runs before each timed operation (not timed), so one operation's garbage is not charged to the next.

    .venv/bin/python -m bench.bench_draw_formats [--backend postgres] [--ops 10] [--entries 128] \
        [--format consolation ...]

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
from bench.bench_draws import timed
from domain.access.auth import bootstrap
from domain.clock import SystemClock
from domain.draws.model import DrawFormat
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work


class Setup:
    def __init__(self, settings: Settings, entries: int) -> None:
        self.store = open_store(settings)
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=SystemClock().now())
        self.operator = Client(create_app(build_services(settings, self.store)), OPERATOR_KEY)
        made = self.operator.call("POST", "/operator/broadcasts", {"name": "Bench", "tables": [
            {"label": f"Court {i}"} for i in range(1, 9)]}, expect=201)["data"]
        self.broadcast = made["id"]
        self.courts = [t["label"] for t in made["tables"]]
        self.entries = entries
        self.made = 0

    def create(self, draw_format: str) -> None:
        self.made += 1
        number = self.made
        body = {"broadcastID": self.broadcast, "name": f"Draw {number}", "format": draw_format, "bestOf": 1,
                "randomSeed": number,
                "entries": [{"players": [{"manualName": f"D{number} Player {i}"}]} | ({"seed": i} if i <= 8 else {})
                            for i in range(1, self.entries + 1)]}
        self.operator.call("POST", "/operator/draws", body, expect=201)

    def import_first_round(self) -> None:
        self.made += 1
        number = self.made
        rows = [{"court": self.courts[i % len(self.courts)], "playerA": f"I{number} Player {2 * i + 1}",
                 "playerB": f"I{number} Player {2 * i + 2}", "round": "Round 1", "event": f"Import {number}",
                 "bestOf": 1} for i in range(self.entries // 2)]
        self.operator.call("POST", "/operator/matches/import", {"broadcastID": self.broadcast, "rows": rows,
                                                                "dryRun": False}, expect=200)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("tinydb", "postgres"), default="tinydb")
    parser.add_argument("--ops", type=int, default=10)
    parser.add_argument("--entries", type=int, default=128)
    parser.add_argument("--format", action="append", choices=[f.value for f in DrawFormat])
    args = parser.parse_args()
    formats: list[str] = args.format or [f.value for f in DrawFormat if f != DrawFormat.ROUND_ROBIN]
    with (postgres_stores() if args.backend == "postgres" else tinydb_stores()) as settings:
        setup = Setup(settings(), args.entries)
        figures: dict[str, list[float]] = {key: [] for key in ("import_first_round", *formats)}
        gc.collect()
        gc.freeze()
        try:
            for _ in range(args.ops):
                gc.collect()
                figures["import_first_round"].append(timed(setup.import_first_round))
                for fmt in formats:
                    gc.collect()
                    figures[fmt].append(timed(setup.create, fmt))
        finally:
            setup.store.close()
    ms = {key: round(statistics.median(values), 2) for key, values in figures.items()}
    result: dict[str, Any] = {"backend": args.backend, "entries": args.entries, "ops": args.ops, "median_ms": ms,
                              "create_to_import_ratio": {f: round(ms[f] / ms["import_first_round"], 2)
                                                         for f in formats}, "goal": 0.75}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
