"""What the audit log (contract §16) costs on the write path: a scored point (`POST /operator/matches/{id}/score`)
and a partner sync (`PUT /matches`, a new match each time) with the log on, against the same run's figures with
it off (`bootstrap(..., audit_enabled=False)`, the only switch there is). The goal: within 1.2x.

Runs the real Flask app in process (Flask test client, no sockets: the figures are the app's and the store's)
over a real store, rate limits lifted. On and off run side by side on fresh stores (each round its own
data dir or database), one operation on each in turn, so the machine's load falls on both alike; medians over
the rounds of the mean per operation, wall time (`point`,
`sync`: what a caller waits, the journal's fsync included) and this process's CPU time (`*_cpu`: the work the log
adds, without the disk's noise).

    .venv/bin/python -m bench.bench_audit [--rounds 5] [--ops 100] [--postgres]

`--postgres` also runs both on a throwaway PostgreSQL cluster (tests/pg_cluster.py: fsync off, so the figures
are the SQL path's, not a disk's). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from api.app import create_app
from api.bootstrap import bootstrap as build_services
from domain.access.auth import bootstrap
from domain.clock import SystemClock
from domain.settings import Settings
from storage.backend import AnyStore, open_store
from storage.repository import unit_of_work

OPERATOR_KEY = "svc_op_bench-operator-key-0123456789abcdefghijklmnop"
LIFTED = {"rate_limit": 10**9, "dev_key_rate_limit": 10**9, "access_log": False}


class Client:
    def __init__(self, app: Any, token: str) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.client.open("/api/v1" + path, method=method, json=body, headers=self.headers)
        assert response.status_code == expect, (path, response.status_code, response.get_data(as_text=True)[:300])
        return response.json


def game(n: int) -> list[dict[str, int]]:
    """The n-th point of a game that never ends (1-0, 1-1, 2-1, ...)."""
    return [{"a": (n + 1) // 2, "b": n // 2}]


@contextmanager
def tinydb_stores() -> Iterator[Callable[[], Settings]]:
    with tempfile.TemporaryDirectory() as tmp:
        count = iter(range(10**6))
        yield lambda: Settings(data_dir=Path(tmp) / f"data{next(count)}", **LIFTED)  # type: ignore[arg-type]


@contextmanager
def postgres_stores() -> Iterator[Callable[[], Settings]]:
    from tests.pg_cluster import Cluster

    cluster = Cluster.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            yield lambda: Settings(data_dir=Path(tmp) / "data", database_url=cluster.new_database(),
                                   **LIFTED)  # type: ignore[arg-type]
    finally:
        cluster.stop()


class Setup:
    """One app over a fresh store, with or without the audit log: a partner, two courts, a live match."""

    def __init__(self, settings: Settings, *, audit: bool) -> None:
        self.audit = audit
        self.store: AnyStore = open_store(settings)
        with unit_of_work(self.store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=SystemClock().now())
        app = create_app(build_services(settings, self.store, audit_enabled=audit))
        self.operator = Client(app, OPERATOR_KEY)
        key = self.operator.call("POST", "/operator/keys", {"name": "bench"}, expect=201)["data"]["key"]
        self.partner = Client(app, key)
        self.tables = [t["id"] for t in self.partner.call("POST", "/broadcasts", {
            "name": "Bench", "tables": [{"label": "Court 1"}, {"label": "Court 2"}]}, expect=201)["data"]["tables"]]
        self.partner.call("PUT", "/player-lists", {"externalID": "pl", "name": "Bench", "players": [
            {"externalID": "p1", "firstName": "Ann", "lastName": "Lee"},
            {"externalID": "p2", "firstName": "Bo", "lastName": "Ma"}]})
        self.live = self.sync("live", 1)["id"]
        self.operator.call("POST", f"/operator/matches/{self.live}/start", {})
        self.points = self.synced = 0

    def sync(self, external_id: str, table: int = 0) -> Any:
        return self.partner.call("PUT", "/matches", {
            "externalID": external_id, "tableID": self.tables[table], "playerListExternalID": "pl",
            "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}})["data"]

    def point(self) -> None:
        self.points += 1
        self.operator.call("POST", f"/operator/matches/{self.live}/score", {"gameScores": game(self.points)})

    def next_sync(self) -> None:
        self.synced += 1
        self.sync(f"m{self.synced}")

    def close(self) -> None:
        with unit_of_work(self.store) as uow:
            head = uow.audit.head(uow.accounts.find()[0].id)
        assert (head is not None and head.seq >= self.points + self.synced) if self.audit else head is None
        self.store.close()


def one_round(stores: Callable[[], Settings], *, ops: int) -> dict[bool, dict[str, float]]:
    """Both setups side by side, one operation on each in turn (which goes first alternates), so the machine's
    load at any moment falls on both alike: milliseconds per scored point and per sync, wall and CPU."""
    setups = {True: Setup(stores(), audit=True), False: Setup(stores(), audit=False)}
    spent = {audit: {"point": 0.0, "sync": 0.0, "point_cpu": 0.0, "sync_cpu": 0.0} for audit in setups}
    try:
        for kind, action in (("point", Setup.point), ("sync", Setup.next_sync)):
            for n in range(ops):
                for audit in ((True, False) if n % 2 == 0 else (False, True)):
                    started, cpu = time.perf_counter(), time.process_time()
                    action(setups[audit])
                    spent[audit][kind] += (time.perf_counter() - started) * 1000 / ops
                    spent[audit][f"{kind}_cpu"] += (time.process_time() - cpu) * 1000 / ops
    finally:
        for setup in setups.values():
            setup.close()
    return spent


def run(stores: Callable[[], Settings], *, rounds: int, ops: int) -> dict[str, Any]:
    one_round(stores, ops=10)  # warm up imports and caches
    figures = [one_round(stores, ops=ops) for _ in range(rounds)]
    result: dict[str, Any] = {}
    for kind in ("point", "sync", "point_cpu", "sync_cpu"):
        on = statistics.median(f[True][kind] for f in figures)
        off = statistics.median(f[False][kind] for f in figures)
        result[kind] = {"on_ms": round(on, 3), "off_ms": round(off, 3), "ratio": round(on / off, 3)}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ops", type=int, default=100)
    parser.add_argument("--postgres", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"rounds": args.rounds, "ops": args.ops}
    with tinydb_stores() as stores:
        report["tinydb"] = run(stores, rounds=args.rounds, ops=args.ops)
    if args.postgres:
        with postgres_stores() as stores:
            report["postgres"] = run(stores, rounds=args.rounds, ops=args.ops)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
