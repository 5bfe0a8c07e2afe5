"""HTTP throughput of our API against a bare Flask endpoint, measured side by side with wrk in one run.

Servers (each its own process, waitress with the same number of threads, on loopback):
- `bare`: a Flask app with one JSON GET endpoint: the least a Flask app under waitress can do.
- `base`: `courtside serve` on a fresh data dir, rate limits lifted (`COURTSIDE_DEV_KEY_RATE_LIMIT`), a developer
  key, a broadcast with a `queue` table, a player list and one match to read.
- `same`: the same set-up plus 20,000 more matches queued on its `queue` table.
- `spread`: the same set-up plus 20,000 more matches spread over 50 other tables.

All run at once, so "before" (base) and "after" (same, spread) are measured side by side rather than one after
the other. Load: wrk (2 threads, 16 connections by default); each round runs every measure once, back to back
(bare, base, same, spread ...), so machine noise hits all alike. Rows printed (each a ratio from this one run,
the median of the per-round ratios):

1. `get_match_over_bare`: authenticated `GET /matches/{externalID}` rps / bare GET rps.
2. `put_match_over_bare`: `PUT /matches` (a new match at the end of a queue) rps on base / bare GET rps.
3. `put_cost_20k_same_table`: PUT cost with 20,000 more matches on the same table (same) over without (base).
4. `put_cost_20k_spread_50_tables`: the same with the 20,000 spread over 50 tables (spread over base).

    .venv/bin/python bench/bench_http.py [--seconds 3] [--rounds 3] [--threads 8] [--connections 16]

Also `--writers 1,4,16`: `PUT /matches` throughput with that many concurrent connections (group commit).
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server_process import free_port, stop_process  # noqa: E402

GET_BODY = {"data": {"id": "mat_bare", "externalID": "m0", "status": "pending", "queuePosition": 1}}

PUT_LUA = r"""
local made = 0
function setup(thread)
  made = made + 1
  thread:set("tid", made)
end
function init(args)
  run, table_id, token = args[1], args[2], args[3]
  counter = 0
end
function request()
  counter = counter + 1
  local body = string.format(
    '{"externalID":"%s-%d-%d","tableID":"%s","playerListExternalID":"pl","eventName":"Open",' ..
    '"matchRound":"R64","playerA":{"externalID":"p%d"},"playerB":{"externalID":"p%d"}}',
    run, tid, counter, table_id, counter % 64, (counter + 1) % 64)
  return wrk.format("PUT", "/api/v1/matches",
    {["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json"}, body)
end
"""

GET_LUA = r"""
function init(args)
  token = args[1]
end
function request()
  return wrk.format("GET", nil, {["Authorization"] = "Bearer " .. token})
end
"""


def serve_bare(port: int, threads: int) -> None:
    """The baseline: the least a Flask app under waitress can do for one JSON GET."""
    import logging

    from flask import Flask, jsonify
    from waitress import serve

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # as `courtside serve` does
    app = Flask("bare")

    @app.get("/api/v1/matches/m0")
    def match() -> Any:
        return jsonify(GET_BODY)

    serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


def wait_ready(port: int, path: str, process: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server on port {port} exited with {process.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            if conn.getresponse().status in {200, 401}:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not come up")


def call(port: int, method: str, path: str, token: str, body: Any = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, "/api/v1" + path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    payload = json.loads(response.read())
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {payload}")
    return payload


_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


def wrk(url: str, script: Path, args: list[str], *, seconds: float, threads: int, connections: int) -> dict[str, Any]:
    """One wrk run: requests per second, p50/p99 latency (ms) and the count of non-2xx answers."""
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), url, "--", *args],
        check=True, capture_output=True, text=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    latency = {}
    for pct in ("50", "99"):
        found = re.search(rf"^\s+{pct}%\s+([\d.]+)(us|ms|s)", out, re.M)
        latency[pct] = round(float(found.group(1)) * _UNITS[found.group(2)], 2) if found else None
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50_ms": latency["50"], "p99_ms": latency["99"], "non_2xx": int(bad.group(1)) if bad else 0}


class Ours:
    """One `courtside serve` with its data set up for the runs."""

    def __init__(self, work: Path, name: str, threads: int, extra_tables: int) -> None:
        self.port = free_port()
        self.data_dir = work / name
        env = dict(os.environ, COURTSIDE_DEV_KEY_RATE_LIMIT=str(10**9), COURTSIDE_RATE_LIMIT=str(10**9),
                   COURTSIDE_THREADS=str(threads))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(self.data_dir), "--port", str(self.port)],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_ready(self.port, "/api/v1/health", self.process)
        operator_key = (self.data_dir / "operator.key").read_text().strip()
        self.key = call(self.port, "POST", "/operator/keys", operator_key, {"name": "bench"})["data"]["key"]
        labels = ["queue", "short"] + [f"spread {n}" for n in range(extra_tables)]
        self.tables = []
        for start in range(0, len(labels), 50):  # a broadcast holds at most 50 tables
            body = {"name": f"Bench {start}", "tables": [{"label": x} for x in labels[start:start + 50]]}
            self.tables += [table["id"] for table in self.call("POST", "/broadcasts", body)["data"]["tables"]]
        players = [{"externalID": f"p{n}", "firstName": "Player", "lastName": str(n)} for n in range(64)]
        self.call("PUT", "/player-lists", {"externalID": "pl", "name": "Entrants", "players": players})
        self.call("PUT", "/matches", self.match("m0", self.tables[1], 0))

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return call(self.port, method, path, self.key, body)

    @staticmethod
    def match(external_id: str, table_id: str, n: int) -> dict[str, Any]:
        return {"externalID": external_id, "tableID": table_id, "playerListExternalID": "pl",
                "playerA": {"externalID": f"p{n % 64}"}, "playerB": {"externalID": f"p{(n + 1) % 64}"}}

    def queue(self, count: int, tables: list[str], prefix: str) -> None:
        """Queue `count` more matches, round-robin over `tables`, 100 per bulk request."""
        for start in range(0, count, 100):
            batch = [self.match(f"{prefix}{n}", tables[n % len(tables)], n) for n in range(start, start + 100)]
            outcome = self.call("POST", "/matches/bulk", {"matches": batch})["data"]
            assert outcome["failed"] == 0, outcome

    def stop(self) -> None:
        stop_process(self.process)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=3, help="duration of one wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="bare/ours pairs per measure")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads of every server")
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--more", type=int, default=20_000, help="matches queued between before and after")
    parser.add_argument("--writers", default="", help="also PUT throughput at these connection counts, e.g. 1,4,16")
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare, args.threads)
        return
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed (Debian: apt-get install wrk)")

    work = Path(tempfile.mkdtemp(prefix="courtside-bench-http-"))
    (work / "put.lua").write_text(PUT_LUA)
    (work / "get.lua").write_text(GET_LUA)
    bare_port = free_port()
    bare = subprocess.Popen([sys.executable, __file__, "--serve-bare", str(bare_port), "--threads", str(args.threads)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    servers: list[Ours] = []
    run_ids = iter(range(10**6))

    def run(server: Ours | None, kind: str, table: str = "", connections: int | None = None) -> dict[str, Any]:
        """One wrk run: a GET of the bare endpoint (`server` None) or of ours, or a PUT to ours."""
        conns = connections or args.connections
        options = {"seconds": args.seconds, "threads": min(args.wrk_threads, conns), "connections": conns}
        if server is None:
            result = wrk(f"http://127.0.0.1:{bare_port}/api/v1/matches/m0", work / "get.lua", ["x"], **options)
        elif kind == "get":
            result = wrk(f"http://127.0.0.1:{server.port}/api/v1/matches/m0", work / "get.lua", [server.key],
                         **options)
        else:
            result = wrk(f"http://127.0.0.1:{server.port}/api/v1/matches", work / "put.lua",
                         [f"r{next(run_ids)}", table, server.key], **options)
        assert result["non_2xx"] == 0, result
        return result

    def ratio(numerators: list[float], denominators: list[float]) -> float:
        return round(statistics.median(n / d for n, d in zip(numerators, denominators, strict=True)), 3)

    try:
        wait_ready(bare_port, "/api/v1/matches/m0", bare)
        base, same, spread = (Ours(work, name, args.threads, extra)
                              for name, extra in (("base", 0), ("same", 0), ("spread", 50)))
        servers.extend((base, same, spread))
        started = time.perf_counter()
        same.queue(args.more, [same.tables[0]], "more")
        spread.queue(args.more, spread.tables[2:], "more")
        queue_seconds = time.perf_counter() - started
        for server in servers:  # warm up
            run(server, "get")
            run(server, "put", server.tables[0])
        rps: dict[str, list[float]] = {key: [] for key in ("bare", "get", "put", "put_same", "put_spread")}
        for _ in range(args.rounds):
            rps["bare"].append(run(None, "get")["rps"])
            rps["get"].append(run(base, "get")["rps"])
            rps["put"].append(run(base, "put", base.tables[0])["rps"])
            rps["put_same"].append(run(same, "put", same.tables[0])["rps"])
            rps["put_spread"].append(run(spread, "put", spread.tables[2])["rps"])
        result: dict[str, Any] = {
            "get_match_over_bare": ratio(rps["get"], rps["bare"]),
            "put_match_over_bare": ratio(rps["put"], rps["bare"]),
            "put_cost_20k_same_table": ratio(rps["put"], rps["put_same"]),
            "put_cost_20k_spread_50_tables": ratio(rps["put"], rps["put_spread"]),
            "goals": {"get_match_over_bare": ">= 0.6", "put_match_over_bare": ">= 0.15",
                      "put_cost_20k_same_table": "<= 1.5", "put_cost_20k_spread_50_tables": "<= 1.2"},
            "rps": {key: [round(value) for value in values] for key, values in rps.items()},
            "queueing_20k_twice_s": round(queue_seconds, 1),
        }
        if args.writers:
            writers = {}
            for count in (int(n) for n in args.writers.split(",")):
                bare_rps, put_rps = [], []
                for _ in range(args.rounds):
                    bare_rps.append(run(None, "get", connections=count)["rps"])
                    put_rps.append(run(base, "put", base.tables[0], connections=count)["rps"])
                writers[str(count)] = {"put_rps": round(statistics.median(put_rps)),
                                       "over_bare_get": ratio(put_rps, bare_rps)}
            result["put_by_concurrent_writers"] = writers
        result.update({"seconds": args.seconds, "rounds": args.rounds, "server_threads": args.threads,
                       "wrk": f"-t{args.wrk_threads} -c{args.connections}"})
        print(json.dumps(result, indent=2))
    finally:
        for server in servers:
            server.stop()
        stop_process(bare)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
