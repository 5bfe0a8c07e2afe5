"""A real server with a realistic day on it, for output screenshots, the browser test and the outputs benchmark.

`running_server()` starts `courtside serve` on a free loopback port over a temp data dir; `seed_day(server)`
creates a partner, a player list, a broadcast of four courts showing every design, and matches in every state.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = [
    ("p1", "Mima", "Ito", "JPN"), ("p2", "Timo", "Boll", "Borussia Düsseldorf"),
    ("p3", "Maximiliana", "Oberschleissheimer-Konstantinopoulou", "TTC Riverside Athletic Club"),
    ("p4", "Ana", "Silva", "Porto TT"), ("p5", "Jan", "Novak", "CZE"), ("p6", "Lena", "Berg", "TTC Riverside"),
    ("p7", "Chen", "Wei", "CHN"), ("p8", "Sofia", "Polcanova", "AUT"), ("p9", "Hugo", "Calderano", "BRA"),
    ("p10", "Bernadette", "Szocs", "ROU"), ("p11", "Liam", "Pitchford", "ENG"), ("p12", "Dang", "Qiu", "GER"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_process(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, *, timeout: float = 30) -> None:
    """Stop a child (`sig`, then SIGKILL if it is still running after `timeout` seconds) and reap it."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@dataclass
class Server:
    data_dir: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def operator_key(self) -> str:
        return (self.data_dir / "operator.key").read_text().strip()

    def start(self) -> Server:
        """Start `courtside serve`; RuntimeError with its log if it exits or is not up within 30 s."""
        log_path = self.data_dir.parent / "server.log"
        with open(log_path, "ab") as log:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(self.data_dir), "--port",
                 str(self.port)], cwd=ROOT, env=dict(os.environ), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                if requests.get(self.root + "/api/v1/health", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"`courtside serve` did not come up:\n{log_path.read_text(errors='replace')[-3000:]}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None:
            stop_process(self.process, sig)

    def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        response = requests.request(method, self.root + "/api/v1" + path, json=body, timeout=30,
                                    headers={"Authorization": f"Bearer {key or self.operator_key}"})
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()


@contextmanager
def running_server() -> Iterator[Server]:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data", free_port()).start()
        try:
            yield server
        finally:
            server.stop()


def pct(values: list[float], q: float) -> float:
    """The `q` quantile of the values (nearest rank below)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Court:
    """A partner's one-court broadcast with one match queued on it."""

    key: str  # the partner's key
    broadcast_id: str
    table_id: str
    match: dict[str, Any]


def seed_court(server: Server, *, scoreboards: list[str] | None = None, **fields: Any) -> Court:
    """A partner's broadcast "Club Night" of one court (showing `scoreboards`) with Mima Ito vs Timo Boll queued;
    `fields` add to or change the match."""
    key = server.call("POST", "/operator/keys", {"name": "club system"})["data"]["key"]
    players = [{"externalID": "p1", "firstName": "Mima", "lastName": "Ito"},
               {"externalID": "p2", "firstName": "Timo", "lastName": "Boll"}]
    server.call("PUT", "/player-lists", {"externalID": "open", "name": "Open", "players": players}, key)
    broadcast = server.call("POST", "/broadcasts", {"name": "Club Night", "tables": [{"label": "Court 1"}]}
                            | ({"scoreboardIDs": scoreboards} if scoreboards else {}), key)["data"]
    table_id = broadcast["tables"][0]["id"]
    match = server.call("PUT", "/matches", {
        "externalID": "m1", "tableID": table_id, "playerListExternalID": "open",
        "playerA": {"externalID": "p1"}, "playerB": {"externalID": "p2"}} | fields, key)["data"]
    return Court(key, broadcast["id"], table_id, match)


@dataclass
class Day:
    broadcast_id: str
    outputs: list[dict[str, Any]]
    matches: dict[str, dict[str, Any]]  # by externalID

    def url(self, design: str, court: str = "Court 1") -> str:
        if design == "venue":
            return next(str(o["url"]) for o in self.outputs if o["kind"] == "venue")
        return next(str(o["url"]) for o in self.outputs if o["design"] == design and o["tableLabel"] == court)


def seed_day(server: Server) -> Day:
    """Four courts showing classic, lowerthird and court; doubles live on Court 1, singles on 2 and 3, Court 4
    waiting with a queue; two queued matches behind each live one."""
    key = server.call("POST", "/operator/keys", {"name": "club system"})["data"]["key"]
    players = [{"externalID": e, "firstName": f, "lastName": ln} | ({"country": t} if len(t) == 3 else {"clubName": t})
               for e, f, ln, t in PLAYERS]
    server.call("PUT", "/player-lists", {"externalID": "open", "name": "Open", "players": players}, key)
    broadcast = server.call("POST", "/broadcasts", {
        "name": "Riverside Open 2026", "scoreboardIDs": ["classic", "lowerthird", "court"],
        "tables": [{"label": f"Court {n}"} for n in range(1, 5)]}, key)["data"]
    tables = [t["id"] for t in broadcast["tables"]]

    def ref(e: str) -> dict[str, str]:
        return {"externalID": e}

    specs: list[tuple[str, int, dict[str, Any]]] = [
        ("d1", 0, {"playerA": ref("p3"), "playerA2": ref("p4"), "playerB": ref("p1"), "playerB2": ref("p8"),
                   "isDoubles": True, "eventName": "Mixed Doubles", "matchRound": "Semi-final"}),
        ("s1", 1, {"playerA": ref("p2"), "playerB": ref("p9"), "eventName": "Men's Singles", "matchRound": "Final"}),
        ("s2", 2, {"playerA": ref("p10"), "playerB": ref("p6"), "eventName": "Women's Singles",
                   "matchRound": "Quarter-final"}),
        ("q1", 0, {"playerA": ref("p5"), "playerB": ref("p11"), "eventName": "Men's Singles", "matchRound": "R16"}),
        ("q2", 0, {"playerA": ref("p7"), "playerB": ref("p12"), "eventName": "Men's Singles", "matchRound": "R16"}),
        ("q3", 1, {"playerA": ref("p1"), "playerB": ref("p10"), "eventName": "Women's Singles", "matchRound": "Final"}),
        ("q4", 3, {"playerA": ref("p8"), "playerB": ref("p6"), "eventName": "Women's Singles", "matchRound": "R16"}),
        ("q5", 3, {"playerA": ref("p9"), "playerB": ref("p7"), "eventName": "Men's Singles", "matchRound": "R16"}),
    ]
    matches = {}
    for external_id, court, fields in specs:
        body = {"externalID": external_id, "tableID": tables[court], "playerListExternalID": "open"} | fields
        matches[external_id] = server.call("PUT", "/matches", body, key)["data"]
    scores = {"d1": [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 7, "b": 5}],
              "s1": [{"a": 11, "b": 6}, {"a": 11, "b": 13}, {"a": 11, "b": 9}, {"a": 3, "b": 2}],
              "s2": [{"a": 4, "b": 6}]}
    for external_id, games in scores.items():
        match_id = matches[external_id]["id"]
        server.call("POST", f"/operator/matches/{match_id}/start", {})
        server.call("POST", f"/operator/matches/{match_id}/score", {"gameScores": games})
    outputs = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")["data"]
    return Day(broadcast["id"], outputs, matches)
