"""Contract §12: three `courtside serve` processes on one PostgreSQL database, hammered at once.

Every invariant holds across processes: one active match per table, one record per externalID, a refresh token
used once (a replay revokes its family), one shared rate-limit count, each webhook attempt made once, and no
acknowledged write lost when one process is SIGKILLed under load.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from functools import partial
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests

from scheduler.dispatcher import RECOVERY_SECONDS
from tests.api.test_oauth import CHALLENGE, REDIRECT, VERIFIER
from tests.eventually import eventually
from tests.pg_cluster import Cluster
from tests.server_process import ServerProcess, free_port
from tests.webhook_receiver import Loopback, Receiver, Reply, running_receiver

RATE_LIMIT = 40
ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2",
       "COURTSIDE_DEV_KEY_RATE_LIMIT": str(RATE_LIMIT), "COURTSIDE_LOG_LEVEL": "DEBUG"}
PLAYERS = [{"externalID": f"p{n}", "firstName": f"Player {n}"} for n in range(1, 9)]


class Fleet:
    """`courtside serve` processes on one database (and one data dir holding the operator key file)."""

    def __init__(self, url: str, data_dir: Path, env: dict[str, str]) -> None:
        self.env = {**os.environ, **ENV, **env, "COURTSIDE_DATABASE_URL": url}
        self.data_dir = data_dir
        self.servers: list[ServerProcess] = []

    def start(self, count: int) -> list[ServerProcess]:
        """Start `count` more processes at once (the very first one alone: it creates the account and key)."""
        if not self.servers:
            self.servers.append(ServerProcess(self.data_dir, free_port(), self.env).start())
            count -= 1
        more = [ServerProcess(self.data_dir, free_port(), self.env).start(wait=False) for _ in range(count)]
        self.servers += more
        for server in more:
            server.wait_ready()
        return self.servers

    def stop(self) -> None:
        for server in self.servers:
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGTERM)
                try:
                    server.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.process.kill()


@pytest.fixture
def fleet(pg_cluster: Cluster, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Fleet]:
    """An empty fleet on a new database; `@pytest.mark.parametrize("fleet", [{env}], indirect=True)` adds
    settings."""
    started = Fleet(pg_cluster.new_database(), tmp_path / "data", getattr(request, "param", {}))
    yield started
    started.stop()


@pytest.fixture
def servers(fleet: Fleet) -> list[ServerProcess]:
    """Three serve processes on one database."""
    return fleet.start(3)


class Partner:
    """One developer-key connection, calling whichever process it is told to."""

    def __init__(self, servers: list[ServerProcess]) -> None:
        self.servers = servers
        self.headers = {"Authorization": f"Bearer {servers[0].developer_key()}"}

    def call(self, server: int, method: str, path: str, body: Any = None) -> requests.Response:
        return requests.request(method, self.servers[server].base + path, json=body, headers=self.headers,
                                timeout=60)

    def ok(self, server: int, method: str, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.call(server, method, path, body)
        assert response.status_code == status, response.text
        return response.json()["data"]

    def event(self, tables: int = 1) -> list[str]:
        """A broadcast with courts and a player list; returns the table IDs."""
        made = self.ok(0, "POST", "/broadcasts", {"name": "Open", "tables": [{"label": f"Court {n}"}
                                                                            for n in range(1, tables + 1)]}, 201)
        self.ok(0, "PUT", "/player-lists", {"externalID": "pl-1", "name": "Entrants", "players": PLAYERS})
        return [table["id"] for table in made["tables"]]

    def match(self, server: int, external_id: str, table: str, players: tuple[str, str] = ("p1", "p2"),
              ) -> requests.Response:
        return self.call(server, "PUT", "/matches", {
            "externalID": external_id, "tableID": table, "playerListExternalID": "pl-1",
            "playerA": {"externalID": players[0]}, "playerB": {"externalID": players[1]}, "bestOf": 3})


Call = Callable[[], requests.Response]


def all_at_once(calls: list[Call]) -> list[requests.Response]:
    """Run the calls together, released by one barrier so they really race."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], requests.Response]) -> requests.Response:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_concurrent_starts_on_one_table_through_three_processes_exactly_one_wins(
    servers: list[ServerProcess],
) -> None:
    partner = Partner(servers)
    (table,) = partner.event()
    matches = [partner.match(0, f"m{n}", table).json()["data"]["id"] for n in range(6)]
    responses = all_at_once([
        partial(servers[n % 3].operator_call, "POST", f"/operator/matches/{matches[n]}/start") for n in range(6)])
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200, 409, 409, 409, 409, 409], [r.text for r in responses]
    active = [m for m in partner.ok(1, "GET", "/matches?limit=100") if m["status"] == "active"]
    assert len(active) == 1


def test_the_same_external_id_synced_through_all_three_processes_is_one_record(
    servers: list[ServerProcess],
) -> None:
    partner = Partner(servers)
    (table,) = partner.event()
    responses = all_at_once([partial(partner.match, n % 3, "same-match", table) for n in range(9)])
    assert all(response.status_code in (200, 201) for response in responses), [r.text for r in responses]
    assert sorted(r.status_code for r in responses).count(201) <= 1
    assert len({response.json()["data"]["id"] for response in responses}) == 1
    listed = [m for m in partner.ok(2, "GET", "/matches?limit=100") if m["externalID"] == "same-match"]
    assert len(listed) == 1


def test_one_refresh_token_at_two_processes_one_wins_and_a_replay_revokes_the_family(
    servers: list[ServerProcess],
) -> None:
    app = servers[0].operator_call("POST", "/operator/apps", {"name": "Scoreboard", "redirectURIs": [REDIRECT]})
    assert app.status_code == 201, app.text
    client = app.json()["data"]
    approved = servers[0].operator_call("POST", "/operator/oauth/approve", {
        "clientID": client["clientID"], "redirectURI": REDIRECT, "codeChallenge": CHALLENGE})
    assert approved.status_code == 200, approved.text
    auth = {"client_id": client["clientID"], "client_secret": client["clientSecret"]}
    issued = requests.post(servers[1].base + "/oauth/token", timeout=30, data=auth | {
        "grant_type": "authorization_code", "code": approved.json()["data"]["code"], "code_verifier": VERIFIER,
        "redirect_uri": REDIRECT}).json()
    refresh = auth | {"grant_type": "refresh_token", "refresh_token": issued["refresh_token"]}
    responses = all_at_once([partial(requests.post, servers[n].base + "/oauth/token", data=refresh, timeout=30)
                             for n in (1, 2)])
    assert sorted(r.status_code for r in responses) == [200, 400], [r.text for r in responses]
    loser = next(r for r in responses if r.status_code == 400)
    assert loser.json()["error"]["code"] == "invalid_grant"
    winner = next(r for r in responses if r.status_code == 200).json()
    # The loser's presentation was a replay: the whole family is revoked, the winner's tokens included.
    again = requests.post(servers[0].base + "/oauth/token", timeout=30,
                          data=auth | {"grant_type": "refresh_token", "refresh_token": winner["refresh_token"]})
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "invalid_grant"
    call = requests.get(servers[2].base + "/connection", timeout=30,
                        headers={"Authorization": f"Bearer {winner['access_token']}"})
    assert call.status_code == 401


def test_the_rate_limit_is_counted_once_across_processes(servers: list[ServerProcess]) -> None:
    partner = Partner(servers)
    # the windows are aligned to the clock's minutes: a burst that straddles a minute is counted in two windows
    # (CI saw all 60 answered 200), so the burst starts with at least 20 s of its minute left
    if time.time() % 60 > 40:
        time.sleep(61 - time.time() % 60)
    responses = all_at_once([partial(partner.call, n % 3, "GET", "/broadcasts") for n in range(RATE_LIMIT + 20)])
    statuses = collections.Counter(response.status_code for response in responses)
    assert statuses == {200: RATE_LIMIT, 429: 20}
    limited = next(r for r in responses if r.status_code == 429)
    assert limited.json()["error"]["code"] == "rate_limited"
    assert limited.headers["RateLimit-Remaining"] == "0"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


class Tally(Loopback):
    """A webhook receiver on 127.0.0.1 counting every request by webhook-id, with when it came. `failing` answers
    500 to the first attempt of each event (so every event is retried), else 200. Each answer takes 20 ms, so two
    attempts of one event made at once overlap, and that is recorded."""

    def __init__(self, *, failing: bool = False) -> None:
        self.failing = failing
        self.arrivals: dict[str, list[float]] = collections.defaultdict(list)
        self.overlapping: list[str] = []
        self._open: collections.Counter[str] = collections.Counter()
        self._lock = threading.Lock()
        tally = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                event_id = self.headers["webhook-id"]
                with tally._lock:
                    tally.arrivals[event_id].append(time.monotonic())
                    first = len(tally.arrivals[event_id]) == 1
                    tally._open[event_id] += 1
                    if tally._open[event_id] > 1:
                        tally.overlapping.append(event_id)
                time.sleep(0.02)
                with tally._lock:
                    tally._open[event_id] -= 1
                self.send_response(500 if tally.failing and first else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        super().__init__(Handler)
        self.start()


@pytest.fixture
def tallies() -> Iterator[tuple[Tally, Tally]]:
    """A receiver that fails every event's first attempt, and one that takes each at once."""
    made = Tally(failing=True), Tally()
    yield made
    for tally in made:
        tally.stop()


def _operator_deliveries(server: ServerProcess) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = ""
    while True:
        response = server.operator_call("GET", f"/operator/webhooks?limit=100{cursor}")
        assert response.status_code == 200, response.text
        found += response.json()["data"]
        if not response.json().get("nextCursor"):
            return found
        cursor = f"&cursor={response.json()['nextCursor']}"


PARTNERS, COURTS, POINTS = 4, 3, 5


def test_every_webhook_attempt_is_made_by_exactly_one_process(
    fleet: Fleet, servers: list[ServerProcess], tallies: tuple[Tally, Tally],
) -> None:
    """84 events of 4 connections, raised through all three processes at once; two connections' receiver fails
    each first attempt. Every event arrives, each attempt exactly once: as many requests per webhook-id as the
    delivery counts attempts (2 failing, 1 else), never two of one event at once, retries a slot apart."""
    failing, steady = tallies
    partners = [Partner(servers) for _ in range(PARTNERS)]
    receiver_of: dict[str, Tally] = {}
    courts: list[str] = []
    for number, partner in enumerate(partners):
        tally = (failing, steady)[number % 2]
        partner.ok(number % 3, "PATCH", "/webhooks/configuration", {"url": tally.url})
        receiver_of[partner.ok(number % 3, "GET", "/connection")["connectionID"]] = tally
        for court, table in enumerate(partner.event(tables=COURTS)):
            made = partner.match(court % 3, f"m{court}", table, (f"p{2 * court + 1}", f"p{2 * court + 2}"))
            assert made.status_code == 200, made.text
            courts.append(made.json()["data"]["id"])
    actions = [("start", None), *(("score", {"gameScores": [{"a": point, "b": 0}]}) for point in range(1, POINTS + 1)),
               ("complete", {"gameScores": [{"a": 11, "b": 3}, {"a": 11, "b": 4}]})]

    def play(court: int) -> requests.Response:
        for step, (action, body) in enumerate(actions):
            response = servers[(court + step) % 3].operator_call(
                "POST", f"/operator/matches/{courts[court]}/{action}", body)
            if response.status_code != 200:
                return response
        return response

    played = all_at_once([partial(play, court) for court in range(len(courts))])
    assert [r.status_code for r in played] == [200] * len(courts), [r.text for r in played if r.status_code != 200]

    def settled() -> list[dict[str, Any]] | None:
        deliveries = _operator_deliveries(servers[0])
        return deliveries if all(d["status"] == "delivered" for d in deliveries) else None

    deliveries = eventually(settled, timeout=120, interval=0.5)
    assert len(deliveries) == len(courts) * len(actions) == 84  # none lost
    assert collections.Counter(d["eventType"] for d in deliveries) == {
        "match.started": 12, "match.score_updated": 60, "match.completed": 12}
    assert {*failing.arrivals, *steady.arrivals} == {d["eventID"] for d in deliveries}  # nothing else was sent
    for delivery in deliveries:
        tally = receiver_of[delivery["connectionID"]]
        arrivals = tally.arrivals[delivery["eventID"]]
        expected = [500, 200] if tally.failing else [200]
        assert len(arrivals) == delivery["attemptCount"] == len(expected), delivery
        assert [attempt["statusCode"] for attempt in delivery["attempts"]] == expected, delivery
        assert all(later - earlier >= 0.15 for earlier, later in itertools.pairwise(arrivals)), delivery
    assert not failing.overlapping and not steady.overlapping
    with psycopg.connect(fleet.env["COURTSIDE_DATABASE_URL"]) as conn:  # the three dispatchers shared the work
        owners = conn.execute("SELECT count(DISTINCT doc->>'claimed_by') FROM deliveries").fetchone()
    assert owners is not None and owners[0] == 3


HANGING = {"COURTSIDE_WEBHOOK_TIMEOUT": "60"}  # a receiver that hangs holds its attempt for the whole test


def _manual_attempt_hanging(servers: list[ServerProcess], receiver: Receiver, at: int) -> tuple[Partner, str]:
    """A partner's `POST /webhooks/test` through process `at`, its attempt hanging at the receiver (on that
    request's thread); returns the partner and the event ID."""
    partner = Partner(servers)
    partner.ok(0, "PATCH", "/webhooks/configuration", {"url": receiver.url})
    receiver.reply(Reply(hang=True))

    def send() -> None:
        with contextlib.suppress(requests.RequestException):  # the process may be killed under it
            partner.call(at, "POST", "/webhooks/test")

    threading.Thread(target=send, daemon=True).start()
    event_id = receiver.wait_for(1)[0].headers["webhook-id"]
    assert partner.ok(0, "GET", f"/webhooks/{event_id}")["status"] == "delivering"
    return partner, event_id


def _delivered(server: ServerProcess, event_id: str) -> dict[str, Any] | None:
    """The operator's read of the delivery once it is delivered (operator reads: no developer rate limit)."""
    read: dict[str, Any] = server.operator_call("GET", f"/operator/webhooks/{event_id}").json()["data"]
    return read if read["status"] == "delivered" else None


def _received(receiver: Receiver, event_id: str) -> int:
    return sum(request.headers["webhook-id"] == event_id for request in receiver.received)


RECOVERY_PASS = re.compile(r"^(\S+ \S+) DEBUG courtside\.webhooks: recovery pass", re.MULTILINE)


def _await_recovery_passes(servers: list[ServerProcess]) -> None:
    """Wait until every one of `servers` has started a periodic recovery pass after now (their DEBUG log lines,
    stamped when the pass began): what a pass would wrongly do to a claim has been done by then."""
    since = datetime.now()

    def passed(server: ServerProcess) -> bool:
        return any(datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f") > since
                   for stamp in RECOVERY_PASS.findall(server.log()))

    eventually(lambda: all(passed(server) for server in servers), timeout=4 * RECOVERY_SECONDS,
               gave_up=lambda: next((f"a server exited:\n{s.log()}" for s in servers
                                     if s.process is not None and s.process.poll() is not None), None))


def _interrupted(read: dict[str, Any]) -> bool:
    return any(attempt.get("error") == "interrupted" for attempt in read["attempts"])


@pytest.mark.parametrize("fleet", [HANGING], indirect=True)
def test_a_manual_attempt_under_way_is_not_made_again_by_a_process_that_starts(
    fleet: Fleet, receiver: Receiver,
) -> None:
    """A starting process makes the claims of stopped processes due again: not a running one's manual attempt."""
    servers = fleet.start(2)
    partner, event_id = _manual_attempt_hanging(servers, receiver, at=1)
    fleet.start(1)  # recovers interrupted claims before it answers: had it released this one, the record says so
    read = servers[2].operator_call("GET", f"/operator/webhooks/{event_id}").json()["data"]
    assert read["status"] == "delivering" and not _interrupted(read), read
    _await_recovery_passes(servers)  # and the periodic passes of all three leave it alone too
    assert _received(receiver, event_id) == 1
    read = servers[2].operator_call("GET", f"/operator/webhooks/{event_id}").json()["data"]
    assert read["status"] == "delivering" and not _interrupted(read), read
    receiver.release()
    final = eventually(lambda: _delivered(servers[2], event_id))
    assert final["attemptCount"] == 1
    assert _received(receiver, event_id) == 1


@pytest.mark.parametrize("fleet", [HANGING], indirect=True)
def test_the_manual_attempt_of_a_killed_process_is_made_again_by_exactly_one_other(
    fleet: Fleet, receiver: Receiver,
) -> None:
    """SIGKILL mid-attempt: the claim does not stay stuck (it would hold the connection's deliveries too), and
    of the two processes left exactly one makes it due again and attempts it."""
    servers = fleet.start(3)
    _, event_id = _manual_attempt_hanging(servers, receiver, at=2)
    servers[2].kill(signal.SIGKILL)
    eventually(lambda: _delivered(servers[0], event_id), timeout=4 * RECOVERY_SECONDS)
    _await_recovery_passes(servers[:2])  # every survivor's next recovery pass: none makes it due again
    assert _received(receiver, event_id) == 2
    final = _delivered(servers[1], event_id)
    assert final is not None
    assert final["attemptCount"] == 1  # the killed attempt never finished, so it is not counted
    assert [attempt.get("error") for attempt in final["attempts"]] == ["interrupted", None]


@pytest.mark.parametrize("fleet", [HANGING], indirect=True)
def test_a_process_whose_listening_connection_drops_keeps_its_claims(fleet: Fleet, receiver: Receiver) -> None:
    """A process is alive while it is connected, whichever of its sessions broke: when the database ends every
    listening session (a failover, an idle-session killer), the claims stay their processes', and no other makes
    an attempt under way a second time; the listeners come back."""
    servers = fleet.start(2)
    partner, event_id = _manual_attempt_hanging(servers, receiver, at=1)

    def listeners(end: bool = False) -> int:
        with psycopg.connect(fleet.env["COURTSIDE_DATABASE_URL"], autocommit=True) as conn:
            row = conn.execute(f"SELECT count({'pg_terminate_backend(pid)' if end else '*'}) FROM pg_stat_activity "
                               "WHERE query LIKE 'LISTEN%' AND datname = current_database() "
                               "AND pid <> pg_backend_pid()").fetchone()
        return int(row[0]) if row else 0

    assert listeners(end=True) == 2
    eventually(lambda: listeners() == 2)  # each process listens again
    _await_recovery_passes(servers)  # a recovery pass of every process
    assert _received(receiver, event_id) == 1
    read = servers[0].operator_call("GET", f"/operator/webhooks/{event_id}").json()["data"]
    assert read["status"] == "delivering" and not _interrupted(read), read
    receiver.release()
    assert eventually(lambda: _delivered(servers[0], event_id))["attemptCount"] == 1
    assert _received(receiver, event_id) == 1


def test_sigkill_of_one_process_under_load_loses_no_acknowledged_write(servers: list[ServerProcess]) -> None:
    partner = Partner(servers)
    (table,) = partner.event()
    acknowledged: list[tuple[str, str]] = []
    lock = threading.Lock()
    stop = threading.Event()

    def writer(worker: int) -> None:
        for n in range(10_000):
            if stop.is_set():
                return
            external_id = f"w{worker}-{n}"
            try:
                response = partner.match(worker % 3, external_id, table)
            except requests.RequestException:
                continue  # the killed process: no answer, so nothing was acknowledged
            if response.status_code in (200, 201):
                with lock:
                    acknowledged.append((external_id, response.json()["data"]["id"]))

    threads = [threading.Thread(target=writer, args=(worker,)) for worker in range(6)]
    for thread in threads:
        thread.start()
    eventually(lambda: len(acknowledged) >= 30 or None, timeout=60)
    servers[2].kill(signal.SIGKILL)
    eventually(lambda: len(acknowledged) >= 60 or None, timeout=60)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    stored = {m["externalID"]: m["id"] for m in _all_matches(partner)}
    missing = [external_id for external_id, match_id in acknowledged if stored.get(external_id) != match_id]
    assert not missing


def _all_matches(partner: Partner) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = ""
    while True:
        response = partner.call(0, "GET", f"/matches?limit=100{cursor}")
        if response.status_code == 429:  # the writers may have used the key's window up: read after it resets
            time.sleep(int(response.headers["Retry-After"]) + 0.5)
            continue
        assert response.status_code == 200, response.text
        found += response.json()["data"]
        after = response.json().get("pagination", {}).get("nextCursor") or response.json().get("nextCursor")
        if not after:
            return found
        cursor = f"&cursor={after}"


def test_an_output_page_served_by_one_process_shows_a_change_made_through_another_within_a_second(
    servers: list[ServerProcess],
) -> None:
    """Output pages cache their state by the store's change counter: NOTIFY moves it in every process."""
    partner = Partner(servers)
    (table,) = partner.event()
    match = partner.match(0, "live", table).json()["data"]["id"]
    broadcast = partner.ok(0, "GET", "/broadcasts")[0]["id"]
    outputs = servers[0].operator_call("GET", f"/operator/broadcasts/{broadcast}/outputs").json()["data"]
    venue = next(output for output in outputs if output["kind"] == "venue")
    state_url = f"http://127.0.0.1:{servers[2].port}/{venue['url'].split('/', 3)[3]}/state"
    before = requests.get(state_url, timeout=30)
    assert before.status_code == 200, before.text
    assert requests.get(state_url, timeout=30).json() == before.json()  # now served from the cache
    started = servers[0].operator_call("POST", f"/operator/matches/{match}/start")
    assert started.status_code == 200, started.text
    changed = eventually(lambda: (lambda body: body if body != before.json() else None)(
        requests.get(state_url, timeout=30).json()), timeout=1.0, interval=0.05)
    assert changed != before.json()


def test_a_read_cached_by_one_process_follows_a_write_through_another_within_a_second(
    servers: list[ServerProcess],
) -> None:
    """Process B keeps partner match reads and principals in its read cache; a write through process A reaches
    them by NOTIFY: B answers the new state within 1 s (contract §12), never the cached old one after that."""
    partner = Partner(servers)
    (table,) = partner.event()
    match = partner.match(0, "cached", table).json()["data"]
    assert partner.ok(1, "GET", "/matches/cached") == partner.ok(1, "GET", "/matches/cached")  # cached by B
    assert partner.ok(1, "GET", "/matches/cached")["status"] == "pending"
    started = servers[0].operator_call("POST", f"/operator/matches/{match['id']}/start")
    assert started.status_code == 200, started.text
    seen = eventually(lambda: (lambda read: read if read["status"] == "active" else None)(
        partner.ok(1, "GET", "/matches/cached")), timeout=1.0, interval=0.1)
    assert seen["isActive"] is True

    connection = partner.ok(1, "GET", "/connection")["connectionID"]  # B has the key's principal cached now
    revoked = servers[0].operator_call("DELETE", f"/operator/connections/{connection}")
    assert revoked.status_code == 200, revoked.text
    eventually(lambda: partner.call(1, "GET", "/connection").status_code == 401, timeout=1.0, interval=0.1)


def test_a_link_rotated_while_a_process_was_not_listening_is_refused_within_a_second_of_its_return(
    servers: list[ServerProcess],
) -> None:
    """Contract §8a/§12: a process that lost its listening connection may have missed a NOTIFY; when it listens
    again it treats everything as changed, so a link rotated meanwhile is refused at once, not served from the
    cache until some later change."""
    partner = Partner(servers)
    partner.event()
    broadcast = partner.ok(0, "GET", "/broadcasts")[0]["id"]
    url = servers[0].env["COURTSIDE_DATABASE_URL"]

    def listeners() -> int:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' "
                               "AND datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        return row[0] if row is not None else -1

    def drops_seen() -> list[int]:
        return [server.log().count("lost the change listener's connection") for server in servers]

    # A process waits 0.5 s between seeing its connection drop and listening again: a loaded machine may be slower
    # than that between the drop and the rotation, whose NOTIFY then reaches a listener and proves nothing; such a
    # try is made again with the new link.
    for _ in range(5):
        outputs = servers[0].operator_call("GET", f"/operator/broadcasts/{broadcast}/outputs").json()["data"]
        venue = next(output for output in outputs if output["kind"] == "venue")
        state_url = f"http://127.0.0.1:{servers[2].port}/{venue['url'].split('/', 3)[3]}/state"
        assert requests.get(state_url, timeout=30).status_code == 200
        assert requests.get(state_url, timeout=30).status_code == 200  # kept by process 2 now

        seen = drops_seen()
        with psycopg.connect(url, autocommit=True) as conn:
            ended = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE "
                                 "'LISTEN%' AND datname = current_database() AND pid <> pg_backend_pid()").fetchone()
        assert ended is not None and ended[0] == 3
        # each process has seen its connection drop (its log says so) and waits before listening again
        def all_dropped(seen: list[int] = seen) -> bool:
            return all(now > before for now, before in zip(drops_seen(), seen, strict=True))

        eventually(all_dropped, timeout=10, interval=0.01)
        # read again after that drop: only the re-check on listening again can drop the link from the cache now
        assert requests.get(state_url, timeout=30).status_code == 200
        rotated = servers[0].operator_call("POST", f"/operator/outputs/{venue['id']}/rotate")
        assert rotated.status_code == 200, rotated.text
        missed = listeners() == 0  # committed before this count, so while nobody listened: no process heard it
        eventually(lambda: listeners() == 3, timeout=10, interval=0.05)
        if missed:
            break
    else:
        pytest.fail("every rotation was committed while a process listened again: nothing was missed")
    eventually(lambda: requests.get(state_url, timeout=30).status_code == 404, timeout=1.0, interval=0.05)
