"""Contract §12: three `courtside serve` processes on one PostgreSQL database, hammered at once.

Every invariant holds across processes: one active match per table, one record per externalID, a refresh token
used once (a replay revokes its family), one shared rate-limit count, each webhook attempt made once, and no
acknowledged write lost when one process is SIGKILLed under load.
"""

from __future__ import annotations

import collections
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.api.test_oauth import CHALLENGE, REDIRECT, VERIFIER
from tests.conftest import ServerProcess, free_port
from tests.eventually import eventually
from tests.pg_cluster import Cluster
from tests.webhook_receiver import Receiver, running_receiver

RATE_LIMIT = 40
ENV = {"COURTSIDE_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.4", "COURTSIDE_WEBHOOK_POLL_SECONDS": "0.2",
       "COURTSIDE_DEV_KEY_RATE_LIMIT": str(RATE_LIMIT)}
PLAYERS = [{"externalID": f"p{n}", "firstName": f"Player {n}"} for n in range(1, 9)]


@pytest.fixture
def servers(pg_cluster: Cluster, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Three serve processes on one database (and one data dir holding the operator key file)."""
    env = {**os.environ, **ENV, "COURTSIDE_DATABASE_URL": pg_cluster.new_database()}
    data_dir = tmp_path / "data"
    started = [ServerProcess(data_dir, free_port(), env).start()]  # the first one creates the account and key
    started += [ServerProcess(data_dir, free_port(), env).start(wait=False) for _ in range(2)]
    for server in started[1:]:
        server.wait_ready()
    yield started
    for server in started:
        if server.process is not None and server.process.poll() is None:
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.process.kill()


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
