"""Scoring formats benchmark (contract §18) on a real server, in one run:

1. a point under a sets format (tennis: 15-30-40, games, sets, tiebreaks) against a point under a games format
   (badminton), `POST /operator/matches/{id}/point`, interleaved, median latency and their ratio (goal ≤ 1.2);
2. completing a best-of-5 sets match with its whole score checked (`6-4 4-6 7-6(5) 3-6 7-5`) against completing a
   best-of-5 games match (`11-7 9-11 11-9 8-11 11-6`, the completion Courtside had), median and ratio
   (goal ≤ 1.1).

    .venv/bin/python -m bench.bench_formats [points=400] [completions=60]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import requests

from bench.outputs_support import running_server
from tests.server_process import ServerProcess

FIVE_SETS = {"kind": "sets", "bestOf": 5}
SETS_SCORE: list[dict[str, Any]] = [
    {"a": 6, "b": 4}, {"a": 4, "b": 6}, {"a": 7, "b": 6, "tiebreak": {"a": 7, "b": 5}}, {"a": 3, "b": 6},
    {"a": 7, "b": 5}]
GAMES_SCORE = [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 9}, {"a": 8, "b": 11}, {"a": 11, "b": 6}]


class Desk:
    """The operator's HTTP session on one court of a broadcast in one format."""

    def __init__(self, server: ServerProcess, scoring: Any) -> None:
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {server.operator_key}"
        self.api = f"{server.root}/api/v1"
        broadcast = self.call("POST", "/operator/broadcasts", {"name": f"Bench {scoring}", "scoring": scoring,
                                                              "tables": [{"label": "Court 1"}]})
        self.court = broadcast["tables"][0]["id"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        response = self.session.request(method, self.api + path, json=body, timeout=30)
        assert response.status_code < 300, (path, response.status_code, response.text)
        return response.json()["data"]

    def start(self) -> dict[str, Any]:
        match = self.call("POST", "/operator/matches", {"tableID": self.court, "playerA": {"manualName": "Ann Lee"},
                                                        "playerB": {"manualName": "Bo Kim"}})
        return dict(self.call("POST", f"/operator/matches/{match['id']}/start"))

    def point(self, match: dict[str, Any], side: str) -> tuple[dict[str, Any], float]:
        started = time.perf_counter()
        answer = self.call("POST", f"/operator/matches/{match['id']}/point",
                           {"side": side, "version": match["scoreVersion"]})
        return dict(answer), time.perf_counter() - started

    def complete(self, scores: list[dict[str, Any]]) -> float:
        match = self.start()
        started = time.perf_counter()
        self.call("POST", f"/operator/matches/{match['id']}/complete", {"gameScores": scores})
        return time.perf_counter() - started


def point_times(desk: Desk, match: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], float]:
    """One point (a new match once the last is decided, outside the timing)."""
    if match["status"] != "active" or max(match["score"].values()) * 2 > match["bestOf"]:
        if match["status"] == "active":
            desk.call("POST", f"/operator/matches/{match['id']}/complete")
        match = desk.start()
    return desk.point(match, "a" if rng.random() < 0.55 else "b")


def main(points: int = 400, completions: int = 60) -> None:
    with running_server() as server:
        tennis, badminton = Desk(server, "tennis"), Desk(server, "badminton")
        rng = random.Random(18)
        sets_match, games_match = tennis.start(), badminton.start()
        sets_times: list[float] = []
        games_times: list[float] = []
        for _ in range(points):  # interleaved: both see the same machine
            sets_match, spent = point_times(tennis, sets_match, rng)
            sets_times.append(spent)
            games_match, spent = point_times(badminton, games_match, rng)
            games_times.append(spent)
        five_sets, five_games = Desk(server, FIVE_SETS), Desk(server, "table_tennis")
        sets_done = []
        games_done = []
        for _ in range(completions):
            sets_done.append(five_sets.complete(SETS_SCORE))
            games_done.append(five_games.complete(GAMES_SCORE))
    point_ratio = statistics.median(sets_times) / statistics.median(games_times)
    done_ratio = statistics.median(sets_done) / statistics.median(games_done)
    print(f"point, tennis:    median {statistics.median(sets_times) * 1000:.2f} ms over {points}")
    print(f"point, badminton: median {statistics.median(games_times) * 1000:.2f} ms over {points}")
    print(f"ratio tennis / games: {point_ratio:.2f} (goal <= 1.2)")
    print(f"complete, 5 sets checked: median {statistics.median(sets_done) * 1000:.2f} ms over {completions}")
    print(f"complete, 5 games:        median {statistics.median(games_done) * 1000:.2f} ms over {completions}")
    print(f"ratio sets / games: {done_ratio:.2f} (goal <= 1.1)")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
