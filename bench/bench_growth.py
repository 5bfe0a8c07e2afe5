"""A club's event as the account grows around it (issue 42): every operation on the club's broadcast should cost
what it cost alone, however many broadcasts, matches and results the account has.

Runs the real Flask app in process (Flask test client: no sockets) over a real store: a TinyDB data dir in a temp dir
(fsynced journal) and/or a throwaway PostgreSQL cluster (as the tests start; `fsync=off`), rate limits lifted.
One store holds three accounts, each with its own operator key:
- `alone`: nothing but the club's event;
- `grown`: the account grew around it: 9 more broadcasts of 16 courts, 3,000 queued matches, six 128-entry
  knockouts, 600 matches played elsewhere (the issue's measurement);
- `tenfold`: ten times that (a season: 100 broadcasts, 30,000 queued matches, 60 draws, 10,000 played).
Each account has the same club event, opened before its growth (one broadcast, 4 courts, 24 queued matches (6 a
court), a 16-entry knockout whose first round waits in the court pool, check-in required, 10 minutes' rest, everyone
checked in, an event page). Then `--samples` rounds, each doing on every account's club in turn (the order rotating
round by round, so machine noise hits the three alike): start-next + complete on one of its courts (a match queued
again behind, so the queue stays as long), its people list, its court pool, its results, the account's audit page,
its event page's state (built anew: a write came before it) and the court board's first 4 courts (`limit=4`: the
club's, the same in every account), these reads in an order rotating round by round. The clock moves 90 s a round.
Then as many rounds of the court board's first page (`limit=100`: the account's first courts, the club's 4 then
the others'), the accounts in turn: apart, because that read (150 ms over 2,500 documents after growth) slows
whatever follows it in the process for a while (caches and heap: the same 4-court board read 1.2x after it and
1.0x before it, with the same calls and documents). Each figure is the median over the rounds
(milliseconds); `ratio` is the median of the per-round ratios to `alone` (paired: the same round, moments apart),
`ratio of minimums` the ratio of the fastest rounds (on a loaded machine the steadier figure). The 100-court page
shows 4 courts alone and 100 after growth, with other queues, so its cost is also given per court and per row
shown (a court, its match in play and each queued match).

Before any account grows, the same club is also measured in a fourth account on the (nearly) empty store (`empty
store`, its own rounds): `alone` against it is what the other accounts' data cost (sequential phases: noisier).
`documents read` is the median of what each operation read (the store's count, as tests/api/test_read_counts.py
counts): equal in every state when nothing of the rest of the account or the store is read.

    .venv/bin/python bench/bench_growth.py [--backend tinydb,postgres] [--samples 15] [--fraction 1.0]

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
from domain.access.auth import bootstrap, house_connection  # noqa: E402
from domain.clock import FixedClock, iso  # noqa: E402
from domain.ids import hash_secret, new_id  # noqa: E402
from domain.models import SCOPES, Account, Credential, CredentialKind  # noqa: E402
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
    def __init__(self, app: Any, key: str = OPERATOR_KEY) -> None:
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {key}"}

    def call(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        response = self.client.open("/api/v1" + path, method=method, json=body, headers=self.headers)
        assert response.status_code == expect, (path, response.status_code, response.get_data(as_text=True)[:500])
        return response.json


@dataclass
class Growth:
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


READS = ("people", "pool", "results", "audit page", "event page state", "board, first 4 courts")
BOARD_PAGE = "board page"


def one_round(operator: Operator, club: Club, round_number: int, times: dict[str, list[float]],
              store: AnyStore) -> None:
    """The club's operations once, each timed (ms) into `times`, and the documents (rows) each read into
    `times["reads: ..."]` (the store's count, as tests/api/test_read_counts.py reads it)."""
    op = operator

    def timed(action: Callable[[], Any], name: str) -> float:
        before = store.reads
        start = time.perf_counter()
        action()
        took = (time.perf_counter() - start) * 1000
        times.setdefault(f"reads: {name}", []).append(store.reads - before)
        return took

    brd = club.broadcast_id

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

    reads = dict(zip(READS, (
        get(f"/api/v1/operator/broadcasts/{brd}/people?limit=100"),
        get(f"/api/v1/operator/broadcasts/{brd}/pool?limit=100"),
        get(f"/api/v1/operator/results?broadcastID={brd}"),
        get("/api/v1/operator/audit?limit=50"),
        lambda: op.client.get(club.page + "/state").get_data(),
        get("/api/v1/operator/tables?limit=4"),
    ), strict=True))
    court = club.tables[round_number % len(club.tables)]
    times.setdefault("start-next + complete", []).append(timed(functools.partial(play, court),
                                                               "start-next + complete"))
    guests = [f"Guest {2 * round_number}", f"Guest {2 * round_number + 1}"]
    op.call("POST", "/operator/matches", {  # queued again behind, so the court's queue stays as long
        "tableID": court, "bestOf": 1, "playerA": {"manualName": guests[0]}, "playerB": {"manualName": guests[1]}},
        expect=201)
    for guest in guests:
        op.call("POST", f"/operator/broadcasts/{brd}/people/{_person(op, brd, guest)}/check-in", {"present": True})
    names = list(reads)  # in an order rotating round by round (what comes before a read can slow it)
    for name in names[round_number % len(names):] + names[:round_number % len(names)]:
        times.setdefault(name, []).append(timed(reads[name], name))


def board_round(operator: Operator, times: dict[str, list[float]], store: AnyStore) -> None:
    """The court board's first page (`limit=100`), timed into `times[BOARD_PAGE]` with the documents it read."""
    before = store.reads
    start = time.perf_counter()
    response = operator.client.get("/api/v1/operator/tables?limit=100", headers=operator.headers)
    took = (time.perf_counter() - start) * 1000
    assert response.status_code == 200, response.status_code
    times.setdefault(BOARD_PAGE, []).append(took)
    times.setdefault(f"reads: {BOARD_PAGE}", []).append(store.reads - before)


def summary(operator: Operator, times: dict[str, list[float]]) -> dict[str, Any]:
    board = operator.call("GET", "/operator/tables?limit=100")["data"]
    courts, rows = len(board), sum(1 + len(c["queue"]) + (c["activeMatch"] is not None) for c in board)
    medians = {name: round(statistics.median(values), 2) for name, values in times.items()
               if not name.startswith("reads: ")}
    minimums = {name: round(min(values), 2) for name, values in times.items() if not name.startswith("reads: ")}
    reads = {name[len("reads: "):]: statistics.median(values) for name, values in times.items()
             if name.startswith("reads: ")}
    return {"ms": medians, "min ms": minimums, "documents read": reads, "board courts shown": courts,
            "board rows shown": rows,
            "board ms per court": round(medians["board page"] / courts, 3),
            "board ms per row": round(medians["board page"] / rows, 4)}


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


def add_account(store: AnyStore, key: str, clock: FixedClock) -> None:
    """Another account of the store, with its house connection and its own operator key (as `bootstrap` makes the
    first)."""
    with unit_of_work(store) as uow:
        account = uow.accounts.put(Account(id=new_id("acc"), name=key[-8:], created_on=iso(clock.now())))
        house_connection(uow, account_id=account.id, now=clock.now())
        uow.credentials.put(Credential(id=hash_secret(key), kind=CredentialKind.OPERATOR, account_id=account.id,
                                       connection_id=None, scopes=list(SCOPES), created_on=iso(clock.now()),
                                       name="operator"))


def run(backend: str, samples: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory, backend_store(backend, Path(directory)) as (settings, store):
        clock = FixedClock()
        with unit_of_work(store) as uow:
            bootstrap(uow, operator_key=OPERATOR_KEY, now=clock.now())
        app = create_app(build_services(settings, store, clock=clock))
        operators = {"alone": Operator(app)}
        for state in ("early", "grown", "tenfold"):
            key = f"{OPERATOR_KEY[:-8]}{state:>8}".replace(" ", "x")
            add_account(store, key, clock)
            operators[state] = Operator(app, key)
        found: dict[str, Any] = {"empty store": {}, "alone": {}, "grown": {}, "tenfold": {}}

        early_operator = operators.pop("early")  # an account of its own: the club measured before anything grew
        early = open_club(early_operator, "Club event (empty store)")
        times: dict[str, list[float]] = {}
        for round_number in range(samples):
            one_round(early_operator, early, round_number, times, store)
            clock.advance(90)
        for _ in range(samples):
            board_round(early_operator, times, store)
        found["empty store"] = summary(early_operator, times)

        clubs = {state: open_club(operator, f"Club event ({state})") for state, operator in operators.items()}
        for state in ("grown", "tenfold"):
            started = time.perf_counter()
            Growth(operators[state], clock).grow(STATES[state])
            found[state] = {"set-up s": round(time.perf_counter() - started, 1)}
        gc.collect()
        gc.freeze()  # as `courtside serve` does once loaded (docs/performance.md, Storage)
        states = list(operators)
        per_state: dict[str, dict[str, list[float]]] = {state: {} for state in states}
        for round_number in range(samples):
            order = states[round_number % 3:] + states[:round_number % 3]
            for state in order:
                one_round(operators[state], clubs[state], round_number, per_state[state], store)
            clock.advance(90)
        for round_number in range(samples):  # the 100-court pages apart: a 150 ms read slows what follows it
            for state in states[round_number % 3:] + states[:round_number % 3]:
                board_round(operators[state], per_state[state], store)
        for state in states:
            found[state] = summary(operators[state], per_state[state]) | found.get(state, {})
        for state in ("empty store", *states):
            mine = found[state]
            base = per_state["alone"]
            if state == "empty store":  # sequential: the ratio of medians
                mine["ratio to alone"] = {name: round(found["alone"]["ms"][name] / ms, 2)
                                          for name, ms in mine["ms"].items()}
                continue
            ratio = {name: round(statistics.median(a / b for a, b in zip(values, base[name], strict=True)), 2)
                     for name, values in per_state[state].items()
                     if name != "board page" and not name.startswith("reads: ")}
            ratio["board per court"] = round(mine["board ms per court"] / found["alone"]["board ms per court"], 2)
            ratio["board per row"] = round(mine["board ms per row"] / found["alone"]["board ms per row"], 2)
            mine["ratio"] = ratio
            mine["ratio of minimums"] = {name: round(ms / found["alone"]["min ms"][name], 2)
                                         for name, ms in mine["min ms"].items()}
        return {"backend": backend, "samples": samples, "states": found}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="tinydb,postgres")
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--fraction", type=float, default=1.0, help="shrink every size (a quick try: 0.05)")
    args = parser.parse_args()
    for name, size in STATES.items():
        STATES[name] = Size(*(max(bool(value), round(value * args.fraction)) for value in vars(size).values()))
    for backend in args.backend.split(","):
        print(json.dumps(run(backend, args.samples), indent=1), flush=True)


if __name__ == "__main__":
    main()
