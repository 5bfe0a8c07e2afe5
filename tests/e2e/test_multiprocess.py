"""Contract §12: three `courtside serve` processes on one PostgreSQL database, hammered at once.

Every invariant holds across processes: one active match per table, one record per externalID, a refresh token
used once (a replay revokes its family), one shared rate-limit count, each webhook attempt made once, and no
acknowledged write lost when one process is SIGKILLed under load.
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from scheduler.dispatcher import RECOVERY_SECONDS
from tests.api.test_oauth import CHALLENGE, REDIRECT, VERIFIER
from tests.conftest import ServerProcess, free_port
from tests.eventually import eventually
from tests.pg_cluster import Cluster
from tests.webhook_receiver import Receiver, Reply, running_receiver

RATE_LIMIT = 40
ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2",
       "COURTSIDE_DEV_KEY_RATE_LIMIT": str(RATE_LIMIT)}
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


def all_at_once(calls: list[Callable[[], requests.Response]]) -> list[requests.Response]:
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
        (lambda n=n: servers[n % 3].operator_call("POST", f"/operator/matches/{matches[n]}/start"))
        for n in range(6)])
    statuses = sorted(response.status_code for response in responses)
    assert statuses == [200, 409, 409, 409, 409, 409], [r.text for r in responses]
    active = [m for m in partner.ok(1, "GET", "/matches?limit=100") if m["status"] == "active"]
    assert len(active) == 1


def test_the_same_external_id_synced_through_all_three_processes_is_one_record(
    servers: list[ServerProcess],
) -> None:
    partner = Partner(servers)
    (table,) = partner.event()
    responses = all_at_once([(lambda n=n: partner.match(n % 3, "same-match", table)) for n in range(9)])
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
    responses = all_at_once([(lambda n=n: requests.post(servers[n].base + "/oauth/token", data=refresh, timeout=30))
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
    responses = all_at_once([(lambda n=n: partner.call(n % 3, "GET", "/broadcasts")) for n in range(RATE_LIMIT + 20)])
    statuses = collections.Counter(response.status_code for response in responses)
    assert statuses == {200: RATE_LIMIT, 429: 20}
    limited = next(r for r in responses if r.status_code == 429)
    assert limited.json()["error"]["code"] == "rate_limited"
    assert limited.headers["RateLimit-Remaining"] == "0"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    yield from running_receiver()


def test_every_webhook_attempt_is_made_by_exactly_one_process(
    servers: list[ServerProcess], receiver: Receiver,
) -> None:
    partner = Partner(servers)
    partner.ok(0, "PATCH", "/webhooks/configuration", {"url": receiver.url})
    tables = partner.event(tables=3)
    all_at_once([(lambda n=n: partner.match(n % 3, f"m{n}", tables[n % 3], (f"p{n % 3 * 2 + 1}", f"p{n % 3 * 2 + 2}")))
                 for n in range(30)])
    started = all_at_once([
        (lambda n=n: servers[n].operator_call(
            "POST", f"/operator/matches/{partner.ok(n, 'GET', f'/tables/{tables[n]}')['queue'][0]['id']}/start"))
        for n in range(3)])
    assert [r.status_code for r in started] == [200, 200, 200], [r.text for r in started]

    def settled() -> list[dict[str, Any]] | None:
        deliveries = partner.ok(0, "GET", "/webhooks?limit=100")
        return deliveries if deliveries and all(d["status"] == "delivered" for d in deliveries) else None

    deliveries = eventually(settled, timeout=60)
    assert len(deliveries) == 3
    ids = [request.headers["webhook-id"] for request in receiver.received]
    assert sorted(ids) == sorted(d["eventID"] for d in deliveries)  # each event once: no attempt twice
    assert all(d["attemptCount"] == 1 for d in deliveries)


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


@pytest.mark.parametrize("fleet", [HANGING], indirect=True)
def test_a_manual_attempt_under_way_is_not_made_again_by_a_process_that_starts(
    fleet: Fleet, receiver: Receiver,
) -> None:
    """A starting process makes the claims of stopped processes due again: not a running one's manual attempt."""
    servers = fleet.start(2)
    partner, event_id = _manual_attempt_hanging(servers, receiver, at=1)
    fleet.start(1)  # recovers interrupted claims before it answers, and its dispatcher passes at once
    time.sleep(1.0)  # a few dispatch passes of every process (0.2 s polls)
    assert _received(receiver, event_id) == 1
    assert partner.ok(2, "GET", f"/webhooks/{event_id}")["status"] == "delivering"
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
    time.sleep(RECOVERY_SECONDS + 1)  # every survivor's next recovery pass: none makes it due again
    assert _received(receiver, event_id) == 2
    final = _delivered(servers[1], event_id)
    assert final is not None
    assert final["attemptCount"] == 1  # the killed attempt never finished, so it is not counted
    assert [attempt.get("error") for attempt in final["attempts"]] == ["interrupted", None]


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
