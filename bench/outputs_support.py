"""A real server with a realistic day on it, for output screenshots, the browser test and the outputs benchmark.

`running_server()` starts `courtside serve` on a free loopback port over a temp data dir; `seed_day(server)`
creates a partner, a player list, a broadcast of four courts showing every design, and matches in every state.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.server_process import ServerProcess, free_port

PLAYERS = [
    ("p1", "Mima", "Ito", "JPN"), ("p2", "Timo", "Boll", "Borussia Düsseldorf"),
    ("p3", "Maximiliana", "Oberschleissheimer-Konstantinopoulou", "TTC Riverside Athletic Club"),
    ("p4", "Ana", "Silva", "Porto TT"), ("p5", "Jan", "Novak", "CZE"), ("p6", "Lena", "Berg", "TTC Riverside"),
    ("p7", "Chen", "Wei", "CHN"), ("p8", "Sofia", "Polcanova", "AUT"), ("p9", "Hugo", "Calderano", "BRA"),
    ("p10", "Bernadette", "Szocs", "ROU"), ("p11", "Liam", "Pitchford", "ENG"), ("p12", "Dang", "Qiu", "GER"),
]


@contextmanager
def running_server(parent: Path | None = None) -> Iterator[ServerProcess]:
    """A real server over a fresh data dir (in `parent`, default the system's temp dir)."""
    with tempfile.TemporaryDirectory(dir=parent) as tmp:
        server = ServerProcess(Path(tmp) / "data", free_port()).start()
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


def seed_court(server: ServerProcess, *, scoreboards: list[str] | None = None, **fields: Any) -> Court:
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


def seed_day(server: ServerProcess) -> Day:
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
