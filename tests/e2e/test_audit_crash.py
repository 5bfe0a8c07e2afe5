"""A SIGKILL at any moment never leaves a change without its audit entry, nor an entry without its change
(contract §16), on TinyDB and on PostgreSQL.

Writers make changes of three kinds at once (developer keys, partner match syncs, live scores written one point
at a time) while `courtside serve` is killed at a (seeded) random moment; a tiny compaction threshold makes the
TinyDB server snapshot every few writes, so kills also land mid-compaction. After each kill the store is opened
directly and compared with its audit log: every developer key's connection has exactly one `key.created`, every
match exactly one creating `match.synced`, the stored score is exactly the last of the `match.scored` entries
(one per applied point, none for a point not applied), and the chain is intact. Every acknowledged change is
there with its entry.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from domain.access import audit
from domain.settings import Settings
from storage.backend import open_store
from storage.repository import unit_of_work
from tests.eventually import eventually
from tests.server_process import ServerProcess

BOTH_BACKENDS = True
ROUNDS = 4
ENV = {"COURTSIDE_JOURNAL_COMPACT_BYTES": "8192", "COURTSIDE_DEV_KEY_RATE_LIMIT": "100000",
       "COURTSIDE_RATE_LIMIT": "100000"}


def game(n: int) -> list[dict[str, int]]:
    """The n-th point of a game that never ends (1-0, 1-1, 2-1, ...): a score names its point."""
    return [{"a": (n + 1) // 2, "b": n // 2}]


def point_of(scores: list[dict[str, int]]) -> int:
    return scores[0]["a"] + scores[0]["b"] if scores else 0


class Writers:
    """Threads making changes until the server dies; what each acknowledged is kept."""

    def __init__(self, server: ServerProcess, partner_key: str, table_id: str, live_id: str, round_: int) -> None:
        self.server, self.partner_key, self.table_id, self.live_id, self.round = (
            server, partner_key, table_id, live_id, round_)
        self.keys: list[str] = []  # connection IDs of acknowledged developer keys
        self.syncs: list[str] = []  # externalIDs of acknowledged syncs
        self.points: list[int] = []  # acknowledged score writes
        self.unexpected: list[str] = []
        self.stop = threading.Event()

    def _post(self, session: requests.Session, method: str, path: str, body: Any, key: str) -> Any:
        try:
            response = session.request(method, self.server.base + path, json=body, timeout=10,
                                        headers={"Authorization": f"Bearer {key}"})
        except requests.RequestException:
            return None  # killed: never acknowledged
        if response.status_code >= 300:
            self.unexpected.append(f"{method} {path}: {response.status_code} {response.text}")
            return None
        return response.json()["data"]

    def make_keys(self) -> None:
        session = requests.Session()
        for n in range(10**6):
            if self.stop.is_set():
                return
            made = self._post(session, "POST", "/operator/keys", {"name": f"r{self.round}-{n}"},
                              self.server.operator_key)
            if made is None:
                return
            self.keys.append(made["connectionID"])

    def sync(self) -> None:
        session = requests.Session()
        for n in range(10**6):
            if self.stop.is_set():
                return
            external_id = f"r{self.round}-m{n}"
            made = self._post(session, "PUT", "/matches", {
                "externalID": external_id, "tableID": self.table_id, "playerListExternalID": "pl",
                "playerA": {"manualName": f"A {n}"}, "playerB": {"manualName": f"B {n}"}}, self.partner_key)
            if made is None:
                return
            self.syncs.append(external_id)

    def score(self, start: int) -> None:
        session = requests.Session()
        for n in range(start + 1, 10**6):
            if self.stop.is_set():
                return
            made = self._post(session, "POST", f"/operator/matches/{self.live_id}/score", {"gameScores": game(n)},
                              self.server.operator_key)
            if made is None:
                return
            self.points.append(n)


def check(settings: Settings, writers: list[Writers]) -> int:
    """Compare the store with its audit log (the server is dead); returns the live match's stored point."""
    store = open_store(settings)
    try:
        with unit_of_work(store) as uow:
            account = uow.accounts.find()[0].id
            entries = list(audit.chain(uow, account))
            verdict = audit.walk(account, iter(entries))
            assert verdict.intact, verdict
            keys = {c.id for c in uow.connections.find(account_id=account) if c.kind == "developer_key"}
            key_entries = [e.target_id for e in entries if e.action == "key.created"]
            assert sorted(key_entries) == sorted(keys)  # one each, no entry for a key not stored
            matches = {m.id: m for m in uow.matches.find(account_id=account)}
            created = [e.target_id for e in entries if e.action == "match.synced" and e.before is None]
            assert sorted(created) == sorted(matches)  # one each (the live match's too), none for a lost one
            live = next(m for m in matches.values() if m.external_id == "live")
            scored = [point_of(e.after["gameScores"]) for e in entries
                      if e.action == "match.scored" and e.target_id == live.id]
            stored = point_of(live.game_scores)
            assert scored == list(range(1, stored + 1))  # every applied point has its entry, and only those
            by_external = {m.external_id for m in matches.values()}
            for round_writers in writers:
                assert set(round_writers.keys) <= keys
                assert set(round_writers.syncs) <= by_external
                assert all(point <= stored for point in round_writers.points)
            return stored
    finally:
        store.close()


def test_a_sigkill_never_separates_a_change_from_its_audit_entry(
    server_factory: Callable[..., ServerProcess], tmp_path: Path, settings: Settings,
) -> None:
    rng = random.Random(20261125)
    data_dir = tmp_path / "data"
    settings = settings.with_(data_dir=data_dir)
    server = server_factory(data_dir=data_dir, env=ENV)
    partner_key = server.developer_key()
    broadcast = server.call("POST", "/broadcasts", {"name": "Open", "tables": [{"label": "Court 1"},
                                                                              {"label": "Court 2"}]},
                            key=partner_key)["data"]
    tables = [t["id"] for t in broadcast["tables"]]
    server.call("PUT", "/player-lists", {"externalID": "pl", "name": "Entrants", "players": []}, key=partner_key)
    live = server.call("PUT", "/matches", {"externalID": "live", "tableID": tables[1], "playerListExternalID": "pl",
                                           "playerA": {"manualName": "Ann"}, "playerB": {"manualName": "Bo"}},
                       key=partner_key)["data"]
    server.call("POST", f"/operator/matches/{live['id']}/start", {})
    point = 0
    done: list[Writers] = []
    for round_ in range(ROUNDS):
        writers = Writers(server, partner_key, tables[0], live["id"], round_)
        threads = [threading.Thread(target=writers.make_keys), threading.Thread(target=writers.sync),
                   threading.Thread(target=writers.score, args=(point,))]
        for thread in threads:
            thread.start()
        eventually(lambda: writers.points or not all(t.is_alive() for t in threads),  # noqa: B023
                   interval=0.01)
        time.sleep(rng.uniform(0.0, 1.2))
        assert server.kill(signal.SIGKILL) == -signal.SIGKILL
        writers.stop.set()
        for thread in threads:
            thread.join(timeout=30)
        assert writers.unexpected == []
        assert writers.points, "no point was acknowledged before the kill"
        done.append(writers)
        point = check(settings, done)
        server = server_factory(data_dir=data_dir, env=ENV)  # starts again on what the kill left
    assert server.kill(signal.SIGTERM) == 0
    assert check(settings, done) == point
