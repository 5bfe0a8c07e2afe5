"""A scoring operation retried with its opID after `courtside serve` was SIGKILLed between the write and the
answer counts once (contract §17), on TinyDB and on PostgreSQL.

A scorer sends points one after another (sides alternating, so the game never ends), each with a new opID and
the version of the previous answer, until the server is killed at a (seeded) random moment. The request in flight
at the kill may or may not have been applied; after a restart it is sent again, byte for byte: it must answer
200, and the match must hold exactly one point per acknowledged operation plus that one.
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

from tests.eventually import eventually
from tests.server_process import ServerProcess

BOTH_BACKENDS = True
ROUNDS = 3
ENV = {"COURTSIDE_JOURNAL_COMPACT_BYTES": "8192", "COURTSIDE_RATE_LIMIT": "100000"}


class Scorer:
    """Points with opIDs until the server dies; the acknowledged ones and the one in flight are kept."""

    def __init__(self, server: ServerProcess, match_id: str, version: int, round_: int, start: int) -> None:
        self.server, self.match_id, self.version, self.round, self.n = server, match_id, version, round_, start
        self.acknowledged: list[str] = []
        self.in_flight: dict[str, Any] | None = None
        self.unexpected: list[str] = []

    def run(self) -> None:
        session = requests.Session()
        headers = {"Authorization": f"Bearer {self.server.operator_key}"}
        while True:
            op_id = f"r{self.round}-{self.n}"
            body: dict[str, Any] = {"side": "ab"[self.n % 2], "version": self.version, "opID": op_id}
            self.in_flight = body
            try:
                answer = session.post(f"{self.server.base}/operator/matches/{self.match_id}/point", json=body,
                                      headers=headers, timeout=10)
            except requests.RequestException:
                return  # killed: this one may or may not have been applied
            if answer.status_code != 200:
                self.unexpected.append(f"{answer.status_code} {answer.text}")
                return
            self.acknowledged.append(op_id)
            self.version = answer.json()["data"]["scoreVersion"]
            self.n += 1


def points(server: ServerProcess, table_id: str) -> int:
    [match] = server.call("GET", f"/operator/matches?tableID={table_id}&status=active")["data"]
    return sum(g["a"] + g["b"] for g in match["gameScores"])


def test_an_opid_retried_after_a_sigkill_between_write_and_answer_counts_once(
    server_factory: Callable[..., ServerProcess], tmp_path: Path,
) -> None:
    rng = random.Random(20261125)
    data_dir = tmp_path / "data"
    server = server_factory(data_dir=data_dir, env=ENV)
    broadcast = server.call("POST", "/operator/broadcasts", {"name": "Open", "tables": [{"label": "Court 1"}]})
    table_id = broadcast["data"]["tables"][0]["id"]
    match = server.call("POST", "/operator/matches", {"tableID": table_id, "playerA": {"manualName": "Ann"},
                                                       "playerB": {"manualName": "Bo"}})["data"]
    version = server.call("POST", f"/operator/matches/{match['id']}/start", {})["data"]["scoreVersion"]
    counted, n = 0, 0
    for round_ in range(ROUNDS):
        scorer = Scorer(server, match["id"], version, round_, n)
        thread = threading.Thread(target=scorer.run)
        thread.start()
        eventually(lambda: scorer.acknowledged or not thread.is_alive(), interval=0.01)  # noqa: B023
        time.sleep(rng.uniform(0.0, 0.5))
        assert server.kill(signal.SIGKILL) == -signal.SIGKILL
        thread.join(timeout=30)
        assert scorer.unexpected == [] and scorer.acknowledged
        server = server_factory(data_dir=data_dir, env=ENV)  # starts again on what the kill left
        assert scorer.in_flight is not None
        retried = server.operator_call("POST", f"/operator/matches/{match['id']}/point", scorer.in_flight)
        assert retried.status_code == 200, retried.text
        again = server.operator_call("POST", f"/operator/matches/{match['id']}/point", scorer.in_flight)
        assert again.json() == retried.json()
        counted += len(scorer.acknowledged) + 1
        assert points(server, table_id) == counted
        version, n = retried.json()["data"]["scoreVersion"], scorer.n + 1
    assert server.kill(signal.SIGTERM) == 0
