"""Queue position on PostgreSQL (docs/decisions.md): `uow.matches.queue_position` is a `count(*)` of the entries
before the match in the partial index `matches_queue`. How long does it take as a court's queue grows, against the
TinyDB store's order-statistic index, and which plan does PostgreSQL use?

Per queue length: a fresh store holding one court with that many pending matches (documents shaped like real
ones, plus as many completed matches on the same court, which the partial index leaves out); then the position
of the last match (the longest count) and of the first, each in its own read-only unit of work, `--reads` times.
PostgreSQL runs in a throwaway cluster (as the tests start it), on a unix socket.

    .venv/bin/python bench/bench_queue_position.py [--sizes 50,200,1000,5000] [--reads 200]

Prints one JSON object: per size, the median milliseconds of a whole unit of work asking for the last and the
first position on each backend, and PostgreSQL's plan for the count (EXPLAIN ANALYZE of the last one).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage.backend import AnyStore  # noqa: E402
from storage.engine import Store  # noqa: E402
from storage.postgres import PgStore, PgTransaction  # noqa: E402
from storage.repository import unit_of_work  # noqa: E402
from tests.pg_cluster import Cluster  # noqa: E402

TABLE = "tbl_bench"


def match(number: int, status: str) -> dict[str, Any]:
    stamp = "2026-11-23T10:00:00.000Z"
    return {
        "id": f"mat_{number:08d}", "scheduled_match_id": f"sm_{number:08d}", "account_id": "acc_1",
        "connection_id": "con_1", "external_id": f"m{number}", "table_id": TABLE, "player_list_external_id": "pl",
        "status": status, "queue_order": number, "scheduled_on": stamp, "created_on": stamp, "updated_on": stamp,
        "participants": {"playerA": {"externalID": f"p{number}"}, "playerB": {"externalID": f"q{number}"}},
        "game_scores": [] if status == "pending" else [{"a": 11, "b": 7}, {"a": 11, "b": 9}],
        "event_name": "Open", "match_round": "Round 1", "best_of": 3,
    }


def fill(store: AnyStore, size: int) -> None:
    with store.transaction() as tx:
        for number in range(size):
            tx.put("matches", f"mat_{number:08d}", match(number, "pending"))
            tx.put("matches", f"mat_{size + number:08d}", match(size + number, "completed"))


def median_ms(store: AnyStore, match_id: str, reads: int) -> float:
    times = []
    for _ in range(reads):
        began = time.perf_counter()
        with unit_of_work(store) as uow:
            uow.matches.queue_position(match_id)
        times.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(times), 3)


def plan(store: PgStore, match_id: str) -> list[str]:
    """EXPLAIN ANALYZE of the count `rank` sends for `match_id` (its SQL caught on the way out)."""
    caught: list[tuple[str, Any]] = []
    execute = PgTransaction._execute

    def catching(self: PgTransaction, sql: str, params: Any = None) -> Any:
        caught.append((sql, params))
        return execute(self, sql, params)

    PgTransaction._execute = catching  # type: ignore[method-assign]
    try:
        with unit_of_work(store) as uow:
            uow.matches.queue_position(match_id)
    finally:
        PgTransaction._execute = execute  # type: ignore[method-assign]
    sql, params = next((sql, params) for sql, params in caught if "count(*)" in sql)
    with store.transaction() as tx:
        rows = tx._execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql, params).fetchall()
    return [str(row[0]) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="50,200,1000,5000")
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    results: dict[str, Any] = {}
    cluster = Cluster.start()
    try:
        for size in map(int, args.sizes.split(",")):
            last, first = f"mat_{size - 1:08d}", "mat_00000000"
            figures: dict[str, Any] = {}
            with tempfile.TemporaryDirectory() as temp:
                tiny = Store(Path(temp) / "data")
                try:
                    fill(tiny, size)
                    figures["tinydb_ms"] = {"last": median_ms(tiny, last, args.reads),
                                            "first": median_ms(tiny, first, args.reads)}
                finally:
                    tiny.close()
            pg = PgStore(cluster.new_database(), listen=False)
            try:
                fill(pg, size)
                with pg.transaction() as tx:
                    tx._execute("ANALYZE matches")
                figures["postgres_ms"] = {"last": median_ms(pg, last, args.reads),
                                          "first": median_ms(pg, first, args.reads)}
                figures["postgres_plan_last"] = plan(pg, last)
            finally:
                pg.close()
            results[str(size)] = figures
    finally:
        cluster.stop()
    print(json.dumps({"queued_matches": results, "reads": args.reads}, indent=2))


if __name__ == "__main__":
    main()
