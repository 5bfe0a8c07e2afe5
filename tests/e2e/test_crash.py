"""No acknowledged write is lost, whenever `courtside serve` is killed with SIGKILL (contract §8).

Several threads create developer keys (`POST /operator/keys`: each 201 is an acknowledged write) while the
server is killed at a (seeded) random moment; after each restart every acknowledged key must authenticate.
A tiny compaction threshold makes the server snapshot every few writes, so kills also land mid-compaction.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

from storage.engine import Store
from tests.eventually import eventually
from tests.server_process import ServerProcess

ROUNDS = 5
WRITERS = 4


def write_until_killed(
    server: ServerProcess, acknowledged: list[str], unexpected: list[str], stop: threading.Event, worker: int
) -> None:
    """Create keys until the server dies; keep every key whose creation was acknowledged with a 2xx."""
    session = requests.Session()
    headers = {"Authorization": f"Bearer {server.operator_key}"}
    n = 0
    while not stop.is_set():
        n += 1
        try:
            response = session.post(server.base + "/operator/keys", json={"name": f"w{worker}-{n}"},
                                    headers=headers, timeout=10)
        except requests.RequestException:
            return  # killed: this write was never acknowledged
        if 200 <= response.status_code < 300:
            acknowledged.append(response.json()["data"]["key"])
        elif response.status_code != 429:
            unexpected.append(f"{response.status_code} {response.text}")  # never a 5xx


def assert_all_authenticate(server: ServerProcess, keys: list[str]) -> None:
    """Every key authenticates `GET /connection` (checked from 4 threads: there are thousands)."""

    def status(chunk: list[str]) -> list[tuple[str, int]]:
        session = requests.Session()
        return [
            (key, session.get(server.base + "/connection", headers={"Authorization": f"Bearer {key}"},
                              timeout=10).status_code)
            for key in chunk
        ]

    with ThreadPoolExecutor(4) as pool:
        results = [pair for chunk in pool.map(status, [keys[i::4] for i in range(4)]) for pair in chunk]
    assert [pair for pair in results if pair[1] != 200] == []
    assert len(results) == len(keys)


def test_acknowledged_writes_survive_sigkill_at_random_moments(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    rng = random.Random(20261122)
    data_dir = tmp_path / "data"
    env = {"COURTSIDE_JOURNAL_COMPACT_BYTES": "4096"}
    acknowledged: list[str] = []
    for _ in range(ROUNDS):
        server = server_factory(data_dir=data_dir, env=env)  # the data dir must open after every kill
        assert_all_authenticate(server, acknowledged)  # everything acknowledged in earlier rounds
        stop = threading.Event()
        this_round: list[str] = []
        unexpected: list[str] = []
        writers = [
            threading.Thread(target=write_until_killed, args=(server, this_round, unexpected, stop, worker))
            for worker in range(WRITERS)
        ]
        for writer in writers:
            writer.start()
        eventually(lambda: this_round or not all(w.is_alive() for w in writers), interval=0.01)  # noqa: B023
        time.sleep(rng.uniform(0.0, 1.2))  # then kill at a random moment
        assert server.kill(signal.SIGKILL) == -signal.SIGKILL
        stop.set()
        for writer in writers:
            writer.join(timeout=30)
        assert this_round, "no write was acknowledged before the kill"
        assert unexpected == []
        acknowledged.extend(this_round)

    server = server_factory(data_dir=data_dir, env=env)
    assert_all_authenticate(server, acknowledged)
    assert server.kill(signal.SIGTERM) == 0
    store = Store(data_dir)
    with store.transaction() as tx:
        developer_keys = tx.find("credentials", kind="developer_key")
    store.close()
    assert len(developer_keys) >= len(acknowledged)
