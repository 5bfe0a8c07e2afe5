"""Cost of one durable write with 100,000 documents stored vs with 1,000 (contract §8: about the same).

Two stores are filled (1,000 and 100,000 match-like documents of ~400 bytes), then the same write (read one
document, change it, put it back, plus one new document: one fsynced journal append) is timed on both,
alternating A/B so that disk and CPU noise hit both equally. Compaction is amortized: it runs once the journal
outgrows the snapshot, so its cost per write is (compaction time) / (writes between compactions); that figure
is measured and reported separately, with the part of it that holds the store lock (copying the tables'
document references; serializing, writing and fsyncing the snapshot happen while other transactions go on).

    .venv/bin/python bench/bench_storage.py [--writes 2000] [--dir /tmp]

Like `courtside serve`, the bench calls `gc.freeze()` once the stores are loaded: otherwise a full garbage
collection pass, whose cost grows with the number of live objects (~200 ms at 100,000 documents), lands on
whichever write happens to trigger it.

Prints one JSON object; `ratio_median` is what docs/performance.md quotes (must be <= 1.5).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson  # noqa: E402

from storage.engine import Store  # noqa: E402


def match_doc(n: int) -> dict[str, Any]:
    return {
        "id": f"mat_{n:08d}", "account_id": "acc_bench", "connection_id": f"con_{n % 50}",
        "table_id": f"tbl_{n % 200}", "status": "queued", "best_of": 5,
        "home": {"name": f"Player {n}", "club": "Club"}, "away": {"name": f"Player {n + 1}", "club": "Club"},
        "games": [[11, 9], [8, 11]], "created_on": "2026-11-22T00:00:00.000Z",
        "updated_on": "2026-11-22T00:00:00.000Z", "notes": "x" * 120,
    }


def filled_store(directory: Path, documents: int) -> Store:
    store = Store(directory)
    for start in range(0, documents, 5_000):
        with store.transaction() as tx:
            for n in range(start, min(start + 5_000, documents)):
                tx.put("matches", f"mat_{n:08d}", match_doc(n))
    store.compact()
    with store.transaction() as tx:  # build the index a real service would use
        tx.find("matches", table_id="tbl_1")
    return store


def one_write(store: Store, documents: int, n: int, rng: random.Random) -> float:
    """One unit of work like an API write: read, change and put one document, insert one new one."""
    key = f"mat_{rng.randrange(documents):08d}"
    started = time.perf_counter()
    with store.transaction() as tx:
        doc = tx.get("matches", key)
        assert doc is not None
        doc["status"] = "live" if doc["status"] == "queued" else "queued"
        doc["table_id"] = f"tbl_{n % 200}"
        tx.put("matches", key, doc)
        tx.put("matches", f"new_{n:08d}", match_doc(documents + n))
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writes", type=int, default=2_000, help="timed writes per store")
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--dir", default=None, help="where the temporary data dirs go (default: system temp)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="courtside-bench-", dir=args.dir))
    try:
        started = time.perf_counter()
        stores = {size: filled_store(root / str(size), size) for size in (args.small, args.large)}
        fill_seconds = time.perf_counter() - started
        gc.collect()
        gc.freeze()  # as `courtside serve` does after loading the data dir
        rng = random.Random(7)
        timings: dict[int, list[float]] = {size: [] for size in stores}
        for n in range(args.writes):
            for size, store in stores.items():
                timings[size].append(one_write(store, size, n, rng))
        large = stores[args.large]
        snapshot_bytes = (root / str(args.large) / "db.json").stat().st_size
        journal_bytes = (root / str(args.large) / "journal.jsonl").stat().st_size
        started = time.perf_counter()
        tables, cut = large._snapshot_begin()  # the compaction's phases, timed apart
        locked = time.perf_counter() - started
        data = orjson.dumps(tables)
        large._snapshot_write(data)
        finishing = time.perf_counter()
        large._snapshot_finish(len(data), cut)
        locked += time.perf_counter() - finishing
        compact_seconds = time.perf_counter() - started
        writes_between_compactions = snapshot_bytes / (journal_bytes / args.writes)
        for store in stores.values():
            store.close()
        small_t, large_t = timings[args.small], timings[args.large]
        result = {
            "documents": [args.small, args.large],
            "writes_each": args.writes,
            "median_ms": [round(statistics.median(small_t) * 1000, 3), round(statistics.median(large_t) * 1000, 3)],
            "mean_ms": [round(statistics.fmean(small_t) * 1000, 3), round(statistics.fmean(large_t) * 1000, 3)],
            "p95_ms": [round(statistics.quantiles(t, n=20)[-1] * 1000, 3) for t in (small_t, large_t)],
            "max_ms": [round(max(t) * 1000, 3) for t in (small_t, large_t)],
            "ratio_median": round(statistics.median(large_t) / statistics.median(small_t), 3),
            "ratio_mean": round(statistics.fmean(large_t) / statistics.fmean(small_t), 3),
            "large_snapshot_mb": round(snapshot_bytes / 1e6, 1),
            "large_compaction_ms": round(compact_seconds * 1000, 1),
            "large_compaction_lock_held_ms": round(locked * 1000, 1),
            "amortized_compaction_ms_per_write": round(compact_seconds * 1000 / writes_between_compactions, 3),
            "fill_seconds": round(fill_seconds, 1),
        }
        print(json.dumps(result))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
