"""What draws (contract §13) cost: making a 128-entry draw (`POST /operator/draws`) and completing a match of a
running 128-entry draw (`POST /operator/matches/{id}/complete`, feed-forward included), each as a ratio to a plain
operator match completion in the same run. The goal: at most 2x each.

Runs the real Flask app in process (Flask test client, no sockets) over a real TinyDB store, rate limits lifted;
the operations take turns so the machine's load falls on all alike. Medians of per-operation wall times.

`draw_preview` (`POST /operator/draws/preview` with the same body: the same parsing, checks, engine and 128-entry
answer, nothing stored) shows how much of making a draw is not storage at all (`preview_ratio`).

    .venv/bin/python -m bench.bench_draws [--ops 20] [--format single_elimination]

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from bench.bench_audit import LIFTED, OPERATOR_KEY, Client
from domain.access.auth import bootstrap
from domain.clock import SystemClock
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work

WIN = [{"a": 11, "b": 4}]


class Setup:
    def __init__(self, data_dir: Path, draw_format: str) -> None:
        settings = Settings(data_dir=data_dir, **LIFTED)  # type: ignore[arg-type]
        self.store = open_store(settings)
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=SystemClock().now())
        self.operator = Client(create_app(build_services(settings, self.store)), OPERATOR_KEY)
        made = self.operator.call("POST", "/operator/broadcasts", {"name": "Bench", "tables": [
            {"label": f"Court {i}"} for i in range(1, 5)]}, expect=201)["data"]
        self.broadcast = made["id"]
        self.plain_court, self.draw_court = made["tables"][0]["id"], made["tables"][1]["id"]
        self.format = draw_format
        self.made = 0
        self.running = self.create()

    def body(self, number: int) -> dict[str, Any]:
        body = {"broadcastID": self.broadcast, "name": f"Draw {number}", "format": self.format, "bestOf": 1,
                "randomSeed": number, "tableIDs": [self.draw_court],
                "entries": [{"players": [{"manualName": f"D{number} Player {i}"}], "seed": i if i <= 32 else None}
                            for i in range(1, 129)]}
        body["entries"] = [{k: v for k, v in e.items() if v is not None} for e in body["entries"]]
        return body

    def create(self) -> str:
        self.made += 1
        return str(self.operator.call("POST", "/operator/draws", self.body(self.made), expect=201)["data"]["id"])

    def preview(self) -> None:
        self.operator.call("POST", "/operator/draws/preview", self.body(self.made + 1), expect=200)

    def plain_ready(self) -> str:
        match = self.operator.call("POST", "/operator/matches", {
            "tableID": self.plain_court, "bestOf": 1, "playerA": {"manualName": "Plain A"},
            "playerB": {"manualName": "Plain B"}}, expect=201)["data"]["id"]
        self.operator.call("POST", f"/operator/tables/{self.plain_court}/start-next")
        return str(match)

    def draw_ready(self) -> str:
        return str(self.operator.call("POST", f"/operator/tables/{self.draw_court}/start-next")["data"]["id"])

    def complete(self, match_id: str) -> None:
        self.operator.call("POST", f"/operator/matches/{match_id}/complete", {"gameScores": WIN})


def timed(action: Any, *args: Any) -> float:
    started = time.perf_counter()
    action(*args)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops", type=int, default=20)
    parser.add_argument("--format", default="single_elimination")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup = Setup(Path(tmp) / "data", args.format)
        figures: dict[str, list[float]] = {"plain_complete": [], "draw_complete": [], "draw_create": [],
                                           "draw_preview": []}
        try:
            for _ in range(args.ops):
                figures["plain_complete"].append(timed(setup.complete, setup.plain_ready()))
                figures["draw_complete"].append(timed(setup.complete, setup.draw_ready()))
                figures["draw_create"].append(timed(setup.create))
                figures["draw_preview"].append(timed(setup.preview))
        finally:
            setup.store.close()
    ms = {key: round(statistics.median(values), 2) for key, values in figures.items()}
    print(json.dumps({"format": args.format, "entries": 128, "ops": args.ops, "median_ms": ms,
                      "create_ratio": round(ms["draw_create"] / ms["plain_complete"], 2),
                      "complete_ratio": round(ms["draw_complete"] / ms["plain_complete"], 2),
                      "preview_ratio": round(ms["draw_preview"] / ms["plain_complete"], 2)}))


if __name__ == "__main__":
    main()
