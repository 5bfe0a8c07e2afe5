"""Group commit in the store: durable write throughput at 1, 4 and 16 concurrent writer threads.

Each writer thread runs units of work like an API write (read one document, change it, put it back, insert a
new one) on one store for a fixed time; every transaction returns only once its journal line is fsynced. The
same load runs in two modes, alternated round by round (A B A B) so disk and CPU noise hit both alike:

- `group`: the store as it is: concurrent transactions share one journal fsync (`Store.flushes` counts them).
- `serial`: every transaction (its fsync included) holds one lock, as the store did before group commit:
  one fsync per commit, whatever the number of writers.

    .venv/bin/python bench/bench_group_commit.py [--writers 1,4,16] [--seconds 2] [--rounds 3] [--dir /tmp]

Prints one JSON object: per writer count, commits per second in each mode (median over rounds), commits per
fsync, and `group_over_serial` (median of the per-round ratios).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.engine import Store  # noqa: E402


def match_doc(n: int) -> dict[str, Any]:
    return {
        "id": f"mat_{n:08d}", "account_id": "acc_bench", "connection_id": f"con_{n % 50}",
        "table_id": f"tbl_{n % 200}", "status": "pending", "queue_order": n, "best_of": 5,
        "participants": {"playerA": {"externalID": f"p{n}"}, "playerB": {"externalID": f"p{n + 1}"}},
        "created_on": "2026-11-22T00:00:00.000Z", "updated_on": "2026-11-22T00:00:00.000Z", "notes": "x" * 120,
    }


def run(store: Store, writers: int, seconds: float, serial: bool, first: int) -> tuple[int, int, float]:
    """`writers` threads writing for `seconds`: (commits, fsyncs, median latency in ms)."""
    gate = threading.Lock()
    deadline = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(writers)]

    @contextlib.contextmanager
    def serialized() -> Iterator[None]:
        if serial:
            with gate:
                yield
        else:
            yield

    def writer(w: int) -> None:
        n = first + w * 10_000_000
        while time.monotonic() < deadline:
            started = time.perf_counter()
            with serialized(), store.transaction() as tx:
                doc = tx.get("matches", f"mat_{w:08d}") or match_doc(w)
                doc["updated_on"] = str(n)
                tx.put("matches", f"mat_{w:08d}", doc)
                tx.put("matches", f"new_{n}", match_doc(n))
            latencies[w].append(time.perf_counter() - started)
            n += 1

    flushes = store.flushes
    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = [t for per_writer in latencies for t in per_writer]
    return len(every), store.flushes - flushes, statistics.median(every) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", default="1,4,16", help="concurrent writer threads, comma-separated")
    parser.add_argument("--seconds", type=float, default=2.0, help="duration of one run")
    parser.add_argument("--rounds", type=int, default=3, help="group/serial pairs per writer count")
    parser.add_argument("--dir", default=None, help="where the temporary data dir goes (default: system temp)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="courtside-bench-gc-", dir=args.dir))
    store = Store(root / "data")
    first = 0
    result: dict[str, Any] = {}
    try:
        for writers in (int(n) for n in args.writers.split(",")):
            modes: dict[str, list[tuple[int, int, float]]] = {"group": [], "serial": []}
            for _ in range(args.rounds):
                for mode in ("group", "serial"):
                    first += 100_000
                    modes[mode].append(run(store, writers, args.seconds, mode == "serial", first))
            rate = {mode: [commits / args.seconds for commits, _, _ in runs] for mode, runs in modes.items()}
            result[str(writers)] = {
                "group_commits_per_s": round(statistics.median(rate["group"])),
                "serial_commits_per_s": round(statistics.median(rate["serial"])),
                "group_over_serial": round(statistics.median(
                    g / s for g, s in zip(rate["group"], rate["serial"], strict=True)), 2),
                "group_commits_per_fsync": round(
                    sum(c for c, _, _ in modes["group"]) / max(1, sum(f for _, f, _ in modes["group"])), 2),
                "serial_commits_per_fsync": round(
                    sum(c for c, _, _ in modes["serial"]) / max(1, sum(f for _, f, _ in modes["serial"])), 2),
                "group_p50_ms": round(statistics.median(p for _, _, p in modes["group"]), 2),
                "serial_p50_ms": round(statistics.median(p for _, _, p in modes["serial"]), 2),
            }
        result.update({"seconds": args.seconds, "rounds": args.rounds})
        print(json.dumps(result, indent=2))
    finally:
        store.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
