"""Event-day bench (contract §9): the court board with estimates vs without, and a 1,000-row schedule import.

Runs the real Flask app in process (Flask test client: no sockets) over a real Store (fsynced journal) in a temp
dir, rate limits lifted. The board: one operator broadcast with `--courts` courts, `--queued` matches queued
over them (imported), one match in play per court and `--history` completed ones (the estimates' history).
`GET /operator/tables?limit=100` is timed with estimates (the route as served) and without (the same route with
the board built `estimates=False`), alternating (and alternating which goes first), `--reads` times each; the
ratio of medians, of minimums and the median of the pairs' ratios are printed (on a loaded machine the minimums
and the pairs are the steadier figures). The import: `POST /operator/matches/import`
of 1,000 rows (two players each, the courts of a fresh broadcast), `--rounds` times.

    .venv/bin/python bench/bench_event_day.py [--courts 50] [--queued 2000] [--history 20] [--reads 30] [--rounds 5]

Prints one JSON object (milliseconds; medians).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app  # noqa: E402
from api.bootstrap import bootstrap as build_services  # noqa: E402
from api.routes import operator_matches  # noqa: E402
from domain.access.auth import bootstrap  # noqa: E402
from domain.clock import FixedClock  # noqa: E402
from domain.event_day.board import Board  # noqa: E402
from domain.settings import Settings  # noqa: E402
from storage.engine import Store  # noqa: E402
from storage.repository import unit_of_work  # noqa: E402

OPERATOR_KEY = "svc_op_bench-operator-key-0123456789abcdefghijklmnop"


class Operator:
    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {OPERATOR_KEY}"}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.client.open(path, method=method, json=body, headers=self.headers)
        assert response.status_code == expect, (path, response.status_code, response.get_data(as_text=True)[:500])
        return response.json

    def broadcast(self, courts: int) -> dict[str, Any]:
        body = {"name": "Bench Open", "tables": [{"label": f"Court {i}"} for i in range(1, courts + 1)]}
        return dict(self.call("POST", "/api/v1/operator/broadcasts", body, expect=201)["data"])

    def rows(self, count: int, courts: int, start: int = 0) -> list[dict[str, str]]:
        return [{"court": f"Court {1 + i % courts}", "playerA": f"Player {2 * (start + i)}",
                 "playerB": f"Player {2 * (start + i) + 1}", "round": "R1"} for i in range(count)]

    def import_rows(self, broadcast_id: str, rows: list[dict[str, str]]) -> None:
        body = {"broadcastID": broadcast_id, "rows": rows, "dryRun": False}
        assert self.call("POST", "/api/v1/operator/matches/import", body)["data"]["queued"] == len(rows)


def seed(operator: Operator, clock: FixedClock, *, courts: int, queued: int, history: int) -> None:
    broadcast = operator.broadcast(courts)
    tables = [t["id"] for t in broadcast["tables"]]
    operator.import_rows(broadcast["id"], operator.rows(history, courts, start=10_000))
    for index in range(history):  # the history: completed matches of 10 to 30 minutes
        match = operator.call("POST", f"/api/v1/operator/tables/{tables[index % courts]}/start-next")["data"]
        clock.advance(60 * (10 + index % 21))
        operator.call("POST", f"/api/v1/operator/matches/{match['id']}/complete",
                      {"gameScores": [{"a": 11, "b": 5}] * 3})
    done = 0
    while done < queued + courts:
        chunk = min(1000, queued + courts - done)
        operator.import_rows(broadcast["id"], operator.rows(chunk, courts, start=done))
        done += chunk
    for table_id in tables:  # one match in play per court
        operator.call("POST", f"/api/v1/operator/tables/{table_id}/start-next")
    clock.advance(600)


def timed(action: Any) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--courts", type=int, default=50)
    parser.add_argument("--queued", type=int, default=2000)
    parser.add_argument("--history", type=int, default=20)
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        settings = Settings(data_dir=Path(directory) / "data", rate_limit=10**9)
        store = Store(settings.data_dir)
        clock = FixedClock()
        with unit_of_work(store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
        operator = Operator(create_app(build_services(settings, store, clock=clock)))
        seed(operator, clock, courts=args.courts, queued=args.queued, history=args.history)

        def read() -> None:  # the request only: the client's parsing of the answer is not the server's cost
            response = operator.client.get("/api/v1/operator/tables?limit=100", headers=operator.headers)
            assert response.status_code == 200 and len(response.get_data()) > 100_000

        board = operator.call("GET", "/api/v1/operator/tables?limit=100")["data"]
        assert sum(len(t["queue"]) for t in board) == args.queued
        assert all("estimatedStartOn" in m for t in board for m in t["queue"])

        with_estimates: list[float] = []
        without: list[float] = []
        served = Board
        route_module = vars(operator_matches)  # the route's own name for the board, swapped to compare
        read()  # warm up
        plain_board = functools.partial(Board, estimates=False)
        for index in range(args.reads):  # alternate, and alternate who goes first, so load hits both alike
            for estimates in ((True, False) if index % 2 == 0 else (False, True)):
                route_module["Board"] = served if estimates else plain_board
                (with_estimates if estimates else without).append(timed(read))
        route_module["Board"] = served

        imports: list[float] = []
        for _ in range(args.rounds):
            broadcast = operator.broadcast(args.courts)
            rows = operator.rows(1000, args.courts, start=50_000)
            imports.append(timed(lambda b=broadcast, r=rows: operator.import_rows(b["id"], r)))
        store.close()
    board_with, board_without = statistics.median(with_estimates), statistics.median(without)
    print(json.dumps({
        "courts": args.courts, "queued": args.queued, "history": args.history,
        "board_with_estimates_ms": round(board_with, 1), "board_without_estimates_ms": round(board_without, 1),
        "ratio": round(board_with / board_without, 3),
        "ratio_of_minimums": round(min(with_estimates) / min(without), 3),
        "median_ratio_of_pairs": round(statistics.median(w / o for w, o in zip(with_estimates, without,
                                                                                strict=True)), 3),
        "import_1000_rows_ms": round(statistics.median(imports), 1),
        "import_1000_rows_max_ms": round(max(imports), 1),
    }, indent=2))


if __name__ == "__main__":
    main()
