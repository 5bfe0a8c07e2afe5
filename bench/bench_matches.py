"""Match sync and queue reads: one bulk sync of 100 matches vs 100 single syncs; a full queue read with 2,000
matches stored.

Runs the real Flask app (in process, Flask test client: no sockets, so the figures are the app's and the
store's cost) over a real Store (fsynced journal) in a temp dir, with rate limits lifted.

    .venv/bin/python bench/bench_matches.py [--rounds 5] [--stored 2000] [--reads 20] [--dir /tmp]

Prints one JSON object (milliseconds; medians over the rounds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app  # noqa: E402
from api.bootstrap import bootstrap as build_services
from domain.access.auth import bootstrap  # noqa: E402
from domain.clock import SystemClock  # noqa: E402
from domain.settings import Settings  # noqa: E402
from storage.engine import Store  # noqa: E402
from storage.repository import unit_of_work  # noqa: E402

OPERATOR_KEY = "svc_op_bench-operator-key-0123456789abcdefghijklmnop"


class Client:
    def __init__(self, app: Any, token: str) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.client.open("/api/v1" + path, method=method, json=body, headers=self.headers)
        assert response.status_code == expect, (path, response.status_code, response.get_data(as_text=True)[:300])
        return response.json


def timed(action: Callable[[], Any]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stored", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(dir=args.dir) as directory:
        settings = Settings(data_dir=Path(directory), rate_limit=10**9, dev_key_rate_limit=10**9)
        store = Store(settings.data_dir)
        with unit_of_work(store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=SystemClock().now())
        app = create_app(build_services(settings, store))
        operator = Client(app, OPERATOR_KEY)
        partner = Client(app, operator.call("POST", "/operator/keys", {"name": "bench"}, expect=201)["data"]["key"])
        tables = partner.call("POST", "/broadcasts", {"name": "Bench", "tables": [
            {"label": "Bulk"}, {"label": "Single"}, {"label": "Queue"}]}, expect=201)["data"]["tables"]
        bulk_table, single_table, queue_table = (t["id"] for t in tables)
        players = [{"externalID": f"p{n}", "firstName": "Player", "lastName": str(n)} for n in range(64)]
        partner.call("PUT", "/player-lists", {"externalID": "pl", "name": "Entrants", "players": players})

        def body(external_id: str, table_id: str, n: int) -> dict[str, Any]:
            return {"externalID": external_id, "tableID": table_id, "playerListExternalID": "pl",
                    "eventName": "Open", "matchRound": "R64", "bestOf": 5,
                    "playerA": {"externalID": f"p{n % 64}"}, "playerB": {"externalID": f"p{(n + 1) % 64}"}}

        def bulk_sync(batch: list[dict[str, Any]]) -> None:
            partner.call("POST", "/matches/bulk", {"matches": batch})

        def single_syncs(batch: list[dict[str, Any]]) -> None:
            for item in batch:
                partner.call("PUT", "/matches", item)

        bulk_ms, single_ms = [], []
        for round_ in range(args.rounds):  # alternate, so disk noise hits both alike
            bulk_batch = [body(f"b{round_}-{n}", bulk_table, n) for n in range(100)]
            bulk_ms.append(timed(lambda: bulk_sync(bulk_batch)))  # noqa: B023 - called at once
            single_batch = [body(f"s{round_}-{n}", single_table, n) for n in range(100)]
            single_ms.append(timed(lambda: single_syncs(single_batch)))  # noqa: B023 - called at once

        for start in range(0, args.stored, 100):
            batch = [body(f"q{n}", queue_table, n) for n in range(start, min(start + 100, args.stored))]
            partner.call("POST", "/matches/bulk", {"matches": batch})
        table_read = [timed(lambda: partner.call("GET", f"/tables/{queue_table}")) for _ in range(args.reads)]
        board_read = [timed(lambda: operator.call("GET", "/operator/tables")) for _ in range(args.reads)]
        last = f"q{args.stored - 1}"
        match_read = [timed(lambda: partner.call("GET", f"/matches/{last}")) for _ in range(args.reads)]
        queue = partner.call("GET", f"/tables/{queue_table}")["data"]["queue"]
        assert len(queue) == args.stored and queue[-1]["queuePosition"] == args.stored
        store.close()

    median = statistics.median
    print(json.dumps({
        "bulk_sync_100_ms": round(median(bulk_ms), 1),
        "single_syncs_100_ms": round(median(single_ms), 1),
        "single_over_bulk": round(median(single_ms) / median(bulk_ms), 1),
        "stored_on_table": args.stored,
        "table_read_ms": round(median(table_read), 1),
        "operator_board_read_ms": round(median(board_read), 1),
        "match_read_ms": round(median(match_read), 1),
        "rounds": args.rounds, "reads": args.reads,
    }, indent=2))


if __name__ == "__main__":
    main()
