"""A club's event as the account grows around it (issue 42): every operation on the club's broadcast should cost
what it cost alone, however many broadcasts, matches and results the account has.

Runs the real Flask app in process (Flask test client: no sockets) over a real store: a TinyDB data dir in a temp dir
(fsynced journal) and/or a throwaway PostgreSQL cluster (as the tests start; `fsync=off`), rate limits lifted. One
account, in three states measured in one run:
- `alone`: nothing but the club's event;
- `grown`: the account grew around it: 9 more broadcasts of 16 courts, 3,000 queued matches, six 128-entry
  knockouts, 600 matches played elsewhere (the issue's measurement);
- `tenfold`: ten times that (a season: 100 broadcasts, 30,000 queued matches, 60 draws, 10,000 played).
In each state a fresh copy of the club's event is opened (one broadcast, 4 courts, 24 queued matches (6 a court), a
16-entry knockout whose first round waits in the court pool, check-in required, 10 minutes' rest, everyone checked in,
an event page), so the club is the same in each, and its operations are timed, `--samples` rounds of: start-next +
complete on one of its courts (a match queued again behind, so the queue stays as long), its people list, its court
pool, its results, the account's audit page, its event page's state (built anew: a write came before it), and the
court board's first page (`limit=100`: the account's first courts, whichever broadcast they are of) and its first 4
courts (`limit=4`: the first club's courts, the same 4 in every state). The clock moves 90 s a round. Each figure is
the median over the rounds (milliseconds); each state's figure is also given as its ratio to `alone`. The 100-court
page shows 4 courts alone and 100 after growth, with longer queues, so its cost is also given per court shown and
per row shown (a court, its match in play and each queued match).

    .venv/bin/python bench/bench_growth.py [--backend tinydb,postgres] [--samples 15] [--states alone,grown,tenfold]

Prints one JSON object per backend.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.app import create_app  # noqa: E402
from api.bootstrap import bootstrap as build_services  # noqa: E402
from domain.auth import bootstrap  # noqa: E402
from domain.clock import FixedClock  # noqa: E402
from domain.settings import Settings  # noqa: E402
from storage.backend import AnyStore, open_store  # noqa: E402
from storage.repository import unit_of_work  # noqa: E402
from tests.pg_cluster import Cluster  # noqa: E402

OPERATOR_KEY = "svc_op_bench-operator-key-0123456789abcdefghijklmnop"
GAME = [{"a": 11, "b": 5}]


@dataclass(frozen=True)
class Size:
    """What the account holds besides the club's events."""

    broadcasts: int
    queued: int
    draws: int
    played: int


STATES = {"alone": Size(0, 0, 0, 0), "grown": Size(9, 3_000, 6, 600), "tenfold": Size(100, 30_000, 60, 10_000)}
COURTS_ELSEWHERE = 16
DRAW_SIZE = 128


class Operator:
    def __init__(self, app: Any) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {OPERATOR_KEY}"}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.client.open("/api/v1" + path, method=method, json=body, headers=self.headers)
        assert response.status_code == expect, (path, response.status_code, response.get_data(as_text=True)[:500])
        return response.json


@dataclass
class Account:
    """The account as it grows: its other broadcasts' courts, and what has been added so far."""

    operator: Operator
    clock: FixedClock
    courts: list[str] = field(default_factory=list)
    size: Size = Size(0, 0, 0, 0)
    broadcast_ids: list[str] = field(default_factory=list)
    imports: int = 0

    def grow(self, to: Size) -> None:
        op = self.operator
        while len(self.broadcast_ids) < to.broadcasts:
            number = len(self.broadcast_ids)
            made = op.call("POST", "/operator/broadcasts", {
                "name": f"Tournament {number}",
                "tables": [{"label": f"Court {i + 1}"} for i in range(COURTS_ELSEWHERE)]}, expect=201)["data"]
            op.call("PATCH", f"/operator/broadcasts/{made['id']}", {"eventDay": {"restMinutes": 15}})
            self.broadcast_ids.append(made["id"])
            self.courts += [t["id"] for t in made["tables"]]
        queued, played, draws = self.size.queued, self.size.played, self.size.draws
        share = max(1, to.queued // max(1, to.broadcasts))  # each broadcast its share, in imports of <= 1,000
        while queued < to.queued:
            chunk = min(1_000, share, to.queued - queued)
            broadcast_id = self.broadcast_ids[self.imports % len(self.broadcast_ids)]
            self.imports += 1
            rows = [{"court": f"Court {1 + (queued + i) % COURTS_ELSEWHERE}", "round": "R1",
                     "playerA": f"Player {2 * (queued + i)}", "playerB": f"Player {2 * (queued + i) + 1}"}
                    for i in range(chunk)]
            result = op.call("POST", "/operator/matches/import",
                             {"broadcastID": broadcast_id, "rows": rows, "dryRun": False})
            assert result["data"]["queued"] == chunk
            queued += chunk
        while draws < to.draws:
            op.call("POST", "/operator/draws", {
                "broadcastID": self.broadcast_ids[draws % len(self.broadcast_ids)], "name": f"Open {draws}",
                "format": "single_elimination", "bestOf": 1, "randomSeed": draws,
                "entries": [{"players": [{"manualName": f"Entrant {draws}-{i}"}]} for i in range(DRAW_SIZE)]},
                expect=201)
            draws += 1
        turn = 0
        while played < to.played:  # round robin over the courts: start the next match, play it; a minute a round
            court = self.courts[turn % len(self.courts)]
            turn += 1
            if turn % len(self.courts) == 0:
                self.clock.advance(60)
            started = op.client.post(f"/api/v1/operator/tables/{court}/start-next", headers=op.headers)
            if started.status_code == 200:
                match = started.json["data"]
                op.call("POST", f"/operator/matches/{match['id']}/complete",
                        {"gameScores": GAME * (int(match.get("bestOf") or 5) // 2 + 1)})
                played += 1
            assert turn < 10 * to.played + len(self.courts), "the courts ran out of matches to play"
        self.size = to


@dataclass
class Club:
    broadcast_id: str
    tables: list[str]
    page: str


def open_club(operator: Operator, name: str) -> Club:
    op = operator
    made = op.call("POST", "/operator/broadcasts", {
        "name": name, "tables": [{"label": f"Court {i + 1}"} for i in range(4)]}, expect=201)["data"]
    club = Club(made["id"], [t["id"] for t in made["tables"]], "")
    op.call("PATCH", f"/operator/broadcasts/{club.broadcast_id}",
            {"eventDay": {"requireCheckIn": True, "restMinutes": 10}})
    for number in range(24):
        op.call("POST", "/operator/matches", {
            "tableID": club.tables[number % 4], "bestOf": 1, "playerA": {"manualName": f"Member {2 * number}"},
            "playerB": {"manualName": f"Member {2 * number + 1}"}}, expect=201)
    op.call("POST", "/operator/draws", {
        "broadcastID": club.broadcast_id, "name": "Club knockout", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 1, "entries": [{"players": [{"manualName": f"Entrant {i}"}], "seed": i + 1} for i in range(16)]},
        expect=201)
    people = op.call("GET", f"/operator/broadcasts/{club.broadcast_id}/people?limit=100")
    for row in people["data"]:
        op.call("POST", f"/operator/broadcasts/{club.broadcast_id}/people/{row['personID']}/check-in",
                {"present": True})
    url = op.call("POST", f"/operator/broadcasts/{club.broadcast_id}/event-page/enable")["data"]["url"]
    club.page = "/event/" + url.rsplit("/event/", 1)[1]
    return club


def timed(action: Callable[[], Any]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def measure(operator: Operator, clock: FixedClock, club: Club, samples: int) -> dict[str, Any]:
    """`samples` rounds of the club's operations; medians (ms), and the board's courts and rows shown."""
    op = operator
    times: dict[str, list[float]] = {}
    shown: tuple[int, int] = (0, 0)

    def get(path: str) -> Callable[[], None]:
        def read() -> None:
            response = op.client.get(path, headers=op.headers)
            assert response.status_code == 200, (path, response.status_code)
        return read

    def play(court: str) -> None:
        started = op.client.post(f"/api/v1/operator/tables/{court}/start-next", headers=op.headers)
        assert started.status_code == 200, started.get_data(as_text=True)[:300]
        done = op.client.post(f"/api/v1/operator/matches/{started.json['data']['id']}/complete",
                              json={"gameScores": GAME}, headers=op.headers)
        assert done.status_code == 200, done.get_data(as_text=True)[:300]

    brd = club.broadcast_id
    reads = {
        "people": get(f"/api/v1/operator/broadcasts/{brd}/people?limit=100"),
        "pool": get(f"/api/v1/operator/broadcasts/{brd}/pool?limit=100"),
        "results": get(f"/api/v1/operator/results?broadcastID={brd}"),
        "audit page": get("/api/v1/operator/audit?limit=50"),
        "event page state": lambda: op.client.get(club.page + "/state").get_data(),
        "board page": get("/api/v1/operator/tables?limit=100"),
        "board, first 4 courts": get("/api/v1/operator/tables?limit=4"),
    }
    for round_number in range(samples):
        court = club.tables[round_number % len(club.tables)]
        times.setdefault("start-next + complete", []).append(timed(functools.partial(play, court)))
        op.call("POST", "/operator/matches", {  # queued again behind, so the court's queue stays as long
            "tableID": court, "bestOf": 1, "playerA": {"manualName": f"Guest {2 * round_number}"},
            "playerB": {"manualName": f"Guest {2 * round_number + 1}"}}, expect=201)
        op.call("POST", f"/operator/broadcasts/{brd}/people/"
                        f"{_person(op, brd, f'Guest {2 * round_number}')}/check-in", {"present": True})
        op.call("POST", f"/operator/broadcasts/{brd}/people/"
                        f"{_person(op, brd, f'Guest {2 * round_number + 1}')}/check-in", {"present": True})
        for name, read in reads.items():
            times.setdefault(name, []).append(timed(read))
        clock.advance(90)
    board = op.call("GET", "/operator/tables?limit=100")["data"]
    shown = (len(board), sum(1 + len(c["queue"]) + (c["activeMatch"] is not None) for c in board))
    medians = {name: round(statistics.median(values), 2) for name, values in times.items()}
    return {"ms": medians, "board courts shown": shown[0], "board rows shown": shown[1],
            "board ms per court": round(medians["board page"] / shown[0], 3),
            "board ms per row": round(medians["board page"] / shown[1], 4)}


def _person(op: Operator, broadcast_id: str, name: str) -> str:
    people = op.call("GET", f"/operator/broadcasts/{broadcast_id}/people?limit=100")["data"]
    return str(next(row["personID"] for row in people if row["name"] == name))


@contextlib.contextmanager
def backend_store(name: str, directory: Path) -> Iterator[tuple[Settings, AnyStore]]:
    if name == "tinydb":
        settings = Settings(data_dir=directory / "data", rate_limit=10**9, event_max_stale=0)
        store = open_store(settings)
        try:
            yield settings, store
        finally:
            store.close()
        return
    cluster = Cluster.start()
    try:
        settings = Settings(data_dir=directory / "data", rate_limit=10**9, event_max_stale=0,
                            database_url=cluster.new_database())
        store = open_store(settings)
        try:
            yield settings, store
        finally:
            store.close()
    finally:
        cluster.stop()


def run(backend: str, states: list[str], samples: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory, backend_store(backend, Path(directory)) as (settings, store):
        clock = FixedClock()
        with unit_of_work(store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
        operator = Operator(create_app(build_services(settings, store, clock=clock)))
        account = Account(operator, clock)
        found: dict[str, Any] = {}
        for state in states:
            started = time.perf_counter()
            account.grow(STATES[state])
            club = open_club(operator, f"Club event ({state})")
            gc.collect()
            gc.freeze()  # as `courtside serve` does once loaded (docs/performance.md, Storage)
            grown_s = round(time.perf_counter() - started, 1)
            found[state] = measure(operator, clock, club, samples) | {"set-up s": grown_s}
        if "alone" in found:
            base = found["alone"]
            for state in states:
                mine = found[state]
                mine["ratio"] = {name: round(ms / base["ms"][name], 2) for name, ms in mine["ms"].items()
                                 if name != "board page"}
                mine["ratio"]["board per court"] = round(mine["board ms per court"] / base["board ms per court"], 2)
                mine["ratio"]["board per row"] = round(mine["board ms per row"] / base["board ms per row"], 2)
        return {"backend": backend, "samples": samples, "states": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="tinydb,postgres")
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--states", default="alone,grown,tenfold")
    parser.add_argument("--fraction", type=float, default=1.0, help="shrink every size (a quick try: 0.05)")
    args = parser.parse_args()
    for name, size in STATES.items():
        STATES[name] = Size(*(round(value * args.fraction) for value in vars(size).values()))
    states = [s for s in args.states.split(",") if s]
    unknown = [s for s in states if s not in STATES]
    if unknown:
        parser.error(f"unknown states {unknown}: use {', '.join(STATES)}")
    for backend in args.backend.split(","):
        print(json.dumps(run(backend, states, args.samples), indent=1), flush=True)


if __name__ == "__main__":
    main()
