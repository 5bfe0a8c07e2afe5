"""Scale-out (contract §12): GET and PUT throughput of real `serve` processes, 1, 2 and 4 on PostgreSQL against 1
on the TinyDB data dir, in one run.

Each setup gets a fresh store (a throwaway PostgreSQL cluster, as the tests start, or a temp data dir), a developer
key, a broadcast of `--courts` courts with a player list and 200 queued matches on the first. Then client threads,
spread evenly over the processes, run for a fixed time: `GET /matches/{id}` (reads), `PUT /matches` with new
externalIDs on the first court (`PUT`: every write appends to one queue, the worst case for SERIALIZABLE), or the
same spread over every court (`PUT_SPREAD`: a platform syncing many courts); each write a committed transaction.
Client threads run in this process, so on a small machine the client shares the CPU with the servers: read the
ratios, not the absolute figures. The throwaway cluster runs with `fsync=off` (as in the tests) while the TinyDB
data dir fsyncs every commit: a PostgreSQL write here costs its transaction, not a disk flush.

    .venv/bin/python bench/bench_postgres.py [--seconds 5] [--clients 8] [--processes 1,2,4] [--courts 50]

Prints one JSON object: requests per second per setup and mode, and each PostgreSQL figure as a ratio of the
TinyDB one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pg_cluster import Cluster  # noqa: E402
from tests.server_process import ServerProcess, free_port  # noqa: E402

PLAYERS = [{"externalID": f"p{n}", "firstName": f"Player {n}"} for n in range(1, 9)]


def start(processes: int, env: dict[str, str], data_dir: Path) -> list[ServerProcess]:
    servers = [ServerProcess(data_dir, free_port(), env).start()]
    servers += [ServerProcess(data_dir, free_port(), env).start(wait=False) for _ in range(processes - 1)]
    for server in servers[1:]:
        server.wait_ready()
    return servers


def prepare(server: ServerProcess, courts: int) -> tuple[dict[str, str], list[str], list[str]]:
    headers = {"Authorization": f"Bearer {server.developer_key()}"}
    made = requests.post(server.base + "/broadcasts", headers=headers, timeout=30, json={
        "name": "Bench", "tables": [{"label": f"Court {n}"} for n in range(1, courts + 1)]}).json()["data"]
    tables = [made_table["id"] for made_table in made["tables"]]
    table = tables[0]
    requests.put(server.base + "/player-lists", json={"externalID": "pl", "name": "P", "players": PLAYERS},
                 headers=headers, timeout=30).raise_for_status()
    ids = []
    for n in range(200):
        response = requests.put(server.base + "/matches", headers=headers, timeout=30, json={
            "externalID": f"seed-{n}", "tableID": table, "playerListExternalID": "pl",
            "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}})
        response.raise_for_status()
        ids.append(f"seed-{n}")  # GET /matches/{externalID}
    return headers, tables, ids


def load(servers: list[ServerProcess], headers: dict[str, str], tables: list[str], ids: list[str], *, mode: str,
         clients: int, seconds: float) -> float:
    """Requests per second over `seconds`, `clients` threads spread over the servers."""
    counts = [0] * clients
    deadline = time.monotonic() + seconds
    serial = itertools.count()
    errors: list[str] = []

    def client(index: int) -> None:
        session = requests.Session()
        base = servers[index % len(servers)].base
        n = 0
        while time.monotonic() < deadline:
            if mode == "GET":
                response = session.get(f"{base}/matches/{ids[n % len(ids)]}", headers=headers, timeout=30)
            else:
                number = next(serial)
                table = tables[number % len(tables)] if mode == "PUT_SPREAD" else tables[0]
                response = session.put(base + "/matches", headers=headers, timeout=30, json={
                    "externalID": f"w-{number}", "tableID": table, "playerListExternalID": "pl",
                    "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}})
            if response.status_code in (200, 201):
                counts[index] += 1
            elif not errors:
                errors.append(f"{mode} {response.status_code} {response.text[:200]}")
            n += 1

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        print(f"first failure: {errors[0]}", file=sys.stderr)
    return sum(counts) / (time.monotonic() - began)


def stop(servers: list[ServerProcess]) -> None:
    for server in servers:
        if server.process is not None:
            server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--courts", type=int, default=50, help="courts of the broadcast (PUT_SPREAD writes over all)")
    args = parser.parse_args()
    base_env = {**os.environ, "COURTSIDE_DEV_KEY_RATE_LIMIT": "100000000", "COURTSIDE_RATE_LIMIT": "100000000"}
    base_env.pop("COURTSIDE_DATABASE_URL", None)
    results: dict[str, Any] = {}
    cluster = Cluster.start()
    try:
        setups = [("tinydb-1", 1, None)] + [(f"postgres-{n}", n, "pg") for n in map(int, args.processes.split(","))]
        for name, processes, kind in setups:
            env = dict(base_env)
            if kind == "pg":
                env["COURTSIDE_DATABASE_URL"] = cluster.new_database()
            with tempfile.TemporaryDirectory() as temp:
                servers = start(processes, env, Path(temp) / "data")
                try:
                    headers, tables, ids = prepare(servers[0], args.courts)
                    results[name] = {
                        mode: round(load(servers, headers, tables, ids, mode=mode, clients=args.clients,
                                         seconds=args.seconds), 1)
                        for mode in ("GET", "PUT", "PUT_SPREAD")}
                finally:
                    stop(servers)
    finally:
        cluster.stop()
    tiny = results["tinydb-1"]
    ratios = {name: {mode: round(figures[mode] / tiny[mode], 2) for mode in figures}
              for name, figures in results.items() if name != "tinydb-1"}
    print(json.dumps({"requests_per_second": results, "over_tinydb_1": ratios, "clients": args.clients,
                      "seconds": args.seconds, "cpus": os.cpu_count(), "load": os.getloadavg()}, indent=2))


if __name__ == "__main__":
    main()
