"""Authenticated GET throughput of our API as a fraction of a bare Flask endpoint served the same way.

Two server processes run side by side on loopback: `courtside serve` (a fresh data dir, a developer key, rate
limits lifted so they do not cut the run short) and a bare Flask app with one JSON endpoint, both under
waitress with the same number of threads. This process is the load: N client threads with keep-alive
connections, each run bounded by a request count and a duration, alternating bare / ours for several rounds so
machine noise hits both equally. Every response must be a 200.

    .venv/bin/python bench/bench_http.py [--seconds 2] [--requests 20000] [--clients 4] [--rounds 5]

Prints one JSON object; `ratio` (the median over rounds of ours / bare requests per second, each pair run
back to back) is what docs/performance.md quotes.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve_bare(port: int, threads: int) -> None:
    """The baseline: the least a Flask app under waitress can do for one JSON GET."""
    from flask import Flask, jsonify
    from waitress import serve

    app = Flask("bare")

    @app.get("/api/v1/connection")
    def connection() -> Any:
        return jsonify({"data": {"connectionID": "con_bare", "appID": "app_bare", "scopes": ["matches.read"],
                                 "tokenExpiresOn": None}})

    serve(app, host="127.0.0.1", port=port, threads=threads, _quiet=True)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


def call(port: int, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    payload = json.loads(response.read())
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {payload}")
    return payload


def load(port: int, token: str, clients: int, seconds: float, requests: int) -> tuple[float, int, int]:
    """Keep-alive GETs from `clients` threads until `requests` are done or `seconds` pass: (rps, ok, bad)."""
    lock = threading.Lock()
    counts = {"ok": 0, "bad": 0, "issued": 0}
    deadline = time.monotonic() + seconds
    headers = {"Authorization": f"Bearer {token}"}

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < deadline:
            with lock:
                if counts["issued"] >= requests:
                    return
                counts["issued"] += 1
            conn.request("GET", "/api/v1/connection", headers=headers)
            response = conn.getresponse()
            response.read()
            with lock:
                counts["ok" if response.status == 200 else "bad"] += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    return counts["ok"] / elapsed, counts["ok"], counts["bad"]


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="longest duration of one measured run")
    parser.add_argument("--requests", type=int, default=20_000, help="most requests in one measured run")
    parser.add_argument("--clients", type=int, default=4, help="client threads")
    parser.add_argument("--rounds", type=int, default=5, help="bare/ours pairs of runs")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads of both servers")
    parser.add_argument("--serve-bare", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        serve_bare(args.serve_bare, args.threads)
        return

    data_dir = Path(tempfile.mkdtemp(prefix="courtside-bench-http-"))
    env = dict(os.environ, COURTSIDE_DEV_KEY_RATE_LIMIT=str(10**9), COURTSIDE_RATE_LIMIT=str(10**9),
               COURTSIDE_THREADS=str(args.threads))
    ours_port, bare_port = free_port(), free_port()
    ours = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir / "data"), "--port", str(ours_port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    bare = subprocess.Popen(
        [sys.executable, __file__, "--serve-bare", str(bare_port), "--threads", str(args.threads)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_ready(ours_port, "/api/v1/health", ours)
        wait_ready(bare_port, "/api/v1/connection", bare)
        operator_key = (data_dir / "data" / "operator.key").read_text().strip()
        key = call(ours_port, "POST", "/api/v1/operator/keys", operator_key, {"name": "bench"})["data"]["key"]
        for port in (bare_port, ours_port):  # warm up both
            load(port, key, args.clients, 1.0, 500)
        rates: dict[str, list[float]] = {"bare": [], "ours": []}
        bad = 0
        for _ in range(args.rounds):
            for name, port in (("bare", bare_port), ("ours", ours_port)):
                rps, _ok, failed = load(port, key, args.clients, args.seconds, args.requests)
                rates[name].append(rps)
                bad += failed
        result = {
            "clients": args.clients, "server_threads": args.threads, "rounds": args.rounds,
            "bare_rps": [round(rate) for rate in rates["bare"]],
            "ours_rps": [round(rate) for rate in rates["ours"]],
            "bare_median_rps": round(statistics.median(rates["bare"])),
            "ours_median_rps": round(statistics.median(rates["ours"])),
            "ratio": round(statistics.median(o / b for o, b in zip(rates["ours"], rates["bare"], strict=True)), 3),
            "ratio_of_medians": round(statistics.median(rates["ours"]) / statistics.median(rates["bare"]), 3),
            "non_200": bad,
        }
        print(json.dumps(result))
    finally:
        stop(ours)
        stop(bare)
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
