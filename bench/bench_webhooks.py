"""Webhook benchmarks (a script, not a test).

1. Latency: a real `courtside serve` process and a receiver on loopback. Each operator score call records a
   `match.score_updated` event; latency runs from sending that call to the signed delivery arriving.
2. Throughput: the dispatcher (real HTTP sender, 8 workers) drains an outbox of deliveries to 20 receivers
   of which 5 answer slowly; deliveries/second to the fast ones, and how many slow ones got through meanwhile.

    .venv/bin/python bench/bench_webhooks.py [--events 200] [--per-receiver 50] [--slow-seconds 0.5]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.bootstrap import bootstrap  # noqa: E402
from domain import webhooks  # noqa: E402
from domain.access import auth  # noqa: E402
from domain.clock import SystemClock  # noqa: E402
from domain.events import record_event  # noqa: E402
from domain.models import EventType  # noqa: E402
from domain.settings import Settings  # noqa: E402
from storage.engine import Store  # noqa: E402
from storage.repository import unit_of_work  # noqa: E402
from tests.server_process import free_port  # noqa: E402
from tests.webhook_receiver import Loopback  # noqa: E402


class Receiver(Loopback):
    """A loopback receiver that timestamps each request; `delay` seconds before answering 200."""

    def __init__(self, delay: float = 0.0) -> None:
        self.arrivals: list[tuple[float, str]] = []
        self.condition = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                arrived = time.perf_counter()
                if delay:
                    time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver.condition:
                    receiver.arrivals.append((arrived, self.headers["webhook-id"]))
                    receiver.condition.notify_all()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        super().__init__(Handler)
        self.start()

    def wait_for(self, count: int, timeout: float = 60) -> None:
        with self.condition:
            if not self.condition.wait_for(lambda: len(self.arrivals) >= count, timeout=timeout):
                raise RuntimeError(f"only {len(self.arrivals)} of {count} deliveries arrived")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def bench_latency(events: int) -> dict[str, float]:
    """Median and p99 from the operator call that records an event to its arrival at the receiver."""
    receiver = Receiver()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = open(Path(tmp) / "server.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--data-dir", f"{tmp}/data", "--port", str(port)],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            env=dict(os.environ, COURTSIDE_RATE_LIMIT="1000000", COURTSIDE_DEV_KEY_RATE_LIMIT="1000000"),
        )
        try:
            base = f"http://127.0.0.1:{port}/api/v1"
            for _ in range(300):
                try:
                    if requests.get(base + "/health", timeout=1).status_code == 200:
                        break
                except requests.RequestException:
                    time.sleep(0.1)
            operator = requests.Session()
            operator.headers["Authorization"] = "Bearer " + (Path(tmp) / "data" / "operator.key").read_text().strip()
            key = operator.post(base + "/operator/keys", json={"name": "bench"}).json()["data"]["key"]
            partner = requests.Session()
            partner.headers["Authorization"] = f"Bearer {key}"
            partner.patch(base + "/webhooks/configuration", json={"url": receiver.url}).raise_for_status()
            table = partner.post(base + "/broadcasts", json={"name": "Bench", "tables": [{"label": "C1"}]}).json()
            table_id = table["data"]["tables"][0]["id"]
            players = [{"externalID": "p1", "firstName": "A"}, {"externalID": "p2", "firstName": "B"}]
            partner.put(base + "/player-lists", json={"externalID": "pl", "name": "L", "players": players})
            match = partner.put(base + "/matches", json={
                "externalID": "m", "tableID": table_id, "playerListExternalID": "pl",
                "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}}).json()["data"]
            operator.post(f"{base}/operator/matches/{match['id']}/start").raise_for_status()
            receiver.wait_for(1)
            latencies = []
            for index in range(events):
                games = [{"a": 11, "b": 7}] if index % 2 else [{"a": 7, "b": 11}]
                before = len(receiver.arrivals)
                sent = time.perf_counter()
                operator.post(f"{base}/operator/matches/{match['id']}/score",
                              json={"gameScores": games}).raise_for_status()
                receiver.wait_for(before + 1)
                latencies.append((receiver.arrivals[before][0] - sent) * 1000)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
            log.close()
    return {"events": events, "median_ms": statistics.median(latencies), "p99_ms": percentile(latencies, 0.99)}


def bench_throughput(per_receiver: int, slow_seconds: float) -> dict[str, float]:
    """Drain an outbox to 15 fast and 5 slow receivers with the real dispatcher."""
    fast = [Receiver() for _ in range(15)]
    slow = [Receiver(delay=slow_seconds) for _ in range(5)]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "data", webhook_timeout=10.0)
        store = Store(settings.data_dir)
        clock = SystemClock()
        now = clock.now()
        with unit_of_work(store) as uow:
            account = auth.bootstrap(uow, operator_key=auth.new_operator_key(), now=now)
            for receiver in fast + slow:
                _, connection = auth.create_developer_key(uow, account_id=account.id, name="bench", scopes=None,
                                                          now=now, ttl_seconds=3600)
                webhooks.configure(uow, account_id=account.id, connection_id=connection.id, now=now,
                                   guard=webhooks.UrlGuard(allow_private=True, resolve=lambda host: []),
                                   change=webhooks.WebhookChange(url=receiver.url))
                for index in range(per_receiver):
                    record_event(uow, account_id=account.id, connection_id=connection.id,
                                 event_type=EventType.MATCH_SCORE_UPDATED, data={"index": index}, now=now)
        dispatcher = bootstrap(settings, store, clock=clock).dispatcher
        started = time.perf_counter()
        dispatcher.start()
        for receiver in fast:
            receiver.wait_for(per_receiver, timeout=600)
        fast_seconds = time.perf_counter() - started
        slow_done = sum(len(receiver.arrivals) for receiver in slow)
        dispatcher.shutdown()
        store.close()
    fast_total = 15 * per_receiver
    return {"fast_deliveries": fast_total, "fast_seconds": fast_seconds,
            "fast_per_second": fast_total / fast_seconds, "slow_delivered_meanwhile": slow_done,
            "slow_total": 5 * per_receiver, "slow_seconds_each": slow_seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--per-receiver", type=int, default=50)
    parser.add_argument("--slow-seconds", type=float, default=0.5)
    args = parser.parse_args()
    latency = bench_latency(args.events)
    print(f"latency: {latency['events']} events, median {latency['median_ms']:.1f} ms, p99 {latency['p99_ms']:.1f} ms")
    result = bench_throughput(args.per_receiver, args.slow_seconds)
    print(f"throughput: {result['fast_deliveries']} deliveries to 15 fast receivers in {result['fast_seconds']:.2f} s "
          f"= {result['fast_per_second']:.0f}/s, while 5 slow receivers ({result['slow_seconds_each']} s each) "
          f"got {result['slow_delivered_meanwhile']} of {result['slow_total']}")


if __name__ == "__main__":
    main()
