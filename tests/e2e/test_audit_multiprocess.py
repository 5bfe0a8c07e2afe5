"""The audit log across two `courtside serve` processes on one PostgreSQL database (contract §16, §12): changes
made through both at once each write exactly one entry, `seq` stays 1, 2, ... without a gap or a duplicate, and
the chain verifies (`courtside audit verify` with COURTSIDE_DATABASE_URL)."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from functools import partial

from tests.e2e.test_multiprocess import Fleet, Partner, all_at_once, fleet  # noqa: F401 - the fixture
from tests.server_process import ROOT, ServerProcess

MATCHES = 12


def entries(server: ServerProcess) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    cursor = ""
    while True:
        body = server.call("GET", "/operator/audit?limit=100" + (f"&cursor={cursor}" if cursor else ""))
        found += body["data"]
        if not body["nextCursor"]:
            return found
        cursor = body["nextCursor"]


def test_changes_through_two_processes_each_write_one_entry_in_one_gapless_chain(fleet: Fleet) -> None:  # noqa: F811
    servers = fleet.start(2)
    partner = Partner(servers)
    tables = partner.event(tables=MATCHES)
    before = len(entries(servers[0]))
    synced = all_at_once([partial(partner.match, n % 2, f"m{n}", tables[n])
                          for n in range(MATCHES)])
    assert [r.status_code for r in synced] == [200] * MATCHES, [r.text for r in synced]
    ids = [r.json()["data"]["id"] for r in synced]
    started = all_at_once([partial(servers[n % 2].operator_call,
        "POST", f"/operator/matches/{ids[n]}/start", {"force": True}) for n in range(MATCHES)])
    assert [r.status_code for r in started] == [200] * MATCHES, [r.text for r in started]
    scored = all_at_once([partial(servers[(n + 1) % 2].operator_call,
        "POST", f"/operator/matches/{ids[n]}/score", {"gameScores": [{"a": 3, "b": n % 5}]})
        for n in range(MATCHES)])
    assert [r.status_code for r in scored] == [200] * MATCHES, [r.text for r in scored]
    keys = all_at_once([partial(servers[n % 2].operator_call, "POST", "/operator/keys", {"name": f"k{n}"})
                        for n in range(6)])
    assert [r.status_code for r in keys] == [201] * 6
    won = [{"a": 11, "b": 3}, {"a": 11, "b": 4}]  # best of 3
    completed = all_at_once([partial(servers[n % 2].operator_call,
        "POST", f"/operator/matches/{ids[n]}/complete", {"gameScores": won}) for n in range(MATCHES)])
    assert [r.status_code for r in completed] == [200] * MATCHES, [r.text for r in completed]
    corrected = all_at_once([partial(servers[(n + 1) % 2].operator_call,
        "POST", f"/operator/matches/{ids[n]}/score", {"gameScores": [won[0], {"a": 9, "b": 11}, {"a": 11, "b": 9}],
                                                      "reason": f"sheet {n}"}) for n in range(MATCHES)])
    assert [r.status_code for r in corrected] == [200] * MATCHES, [r.text for r in corrected]
    queued = [partner.match(n % 2, f"q{n}", tables[n]).json()["data"]["id"] for n in range(4)]
    cancelled = all_at_once([partial(servers[n % 2].operator_call, "POST", f"/operator/matches/{queued[n]}/cancel")
                             for n in range(4)])
    assert [r.status_code for r in cancelled] == [200] * 4

    found = entries(servers[1])
    new = found[: len(found) - before]
    assert [e["seq"] for e in reversed(found)] == list(range(1, len(found) + 1))  # no gap, no duplicate
    counts = collections.Counter((e["action"], e["target"]["id"]) for e in new)  # type: ignore[index]
    assert all(count == 1 for count in counts.values()), counts
    assert collections.Counter(action for action, _ in counts) == {
        "match.synced": MATCHES + 4, "match.started": MATCHES, "match.scored": MATCHES, "key.created": 6,
        "match.completed": MATCHES, "match.corrected": MATCHES, "match.cancelled": 4}
    reasons = {e["target"]["id"]: e["reason"] for e in new if e["action"] == "match.corrected"}  # type: ignore[index]
    assert reasons == {ids[n]: f"sheet {n}" for n in range(MATCHES)}
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    env["COURTSIDE_DATABASE_URL"] = fleet.env["COURTSIDE_DATABASE_URL"]
    result = subprocess.run([sys.executable, "-m", "cli.main", "audit", "verify"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    head = {"seq": found[0]["seq"], "hash": found[0]["hash"]}  # the head kept apart is the newest entry (§16)
    assert json.loads(result.stdout) == {"entries": len(found), "intact": True, "head": head}


def test_draws_and_points_through_two_processes_feed_forward_and_each_write_one_entry(fleet: Fleet) -> None:  # noqa: F811
    """Contract §13, §16, §17 across processes: the two semi-finals of one draw completed at once through two
    processes both reach the final (no lost update of the draw), and draws (create, withdraw, delete), points and
    undo each write exactly one entry in the one gapless chain."""
    servers = fleet.start(2)
    broadcast = servers[0].call("POST", "/broadcasts", {"name": "Club day", "tables": [
        {"label": f"Court {n}"} for n in range(1, 3)]}, key=servers[0].developer_key())["data"]
    courts = [table["id"] for table in broadcast["tables"]]
    before = len(entries(servers[0]))
    knockout = servers[0].call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": "Open", "format": "single_elimination", "bestOf": 1,
        "randomSeed": 7, "entries": [{"players": [{"manualName": f"Player {n}"}], "seed": n} for n in range(1, 5)]},
    )["data"]
    started = all_at_once([partial(servers[n].operator_call, "POST", f"/operator/tables/{courts[n]}/start-next")
                           for n in range(2)])
    assert [r.status_code for r in started] == [200] * 2, [r.text for r in started]
    semis = [r.json()["data"]["id"] for r in started]
    completed = all_at_once([partial(servers[1 - n].operator_call,
        "POST", f"/operator/matches/{semis[n]}/complete", {"gameScores": [{"a": 11, "b": 5}]}) for n in range(2)])
    assert [r.status_code for r in completed] == [200] * 2, [r.text for r in completed]
    final = servers[1].call("GET", f"/operator/draws/{knockout['id']}")["data"]["rounds"][1]["drawMatches"][0]
    assert final["status"] == "ready" and all(slot["entryID"] for slot in final["slots"]), final

    play = servers[0].call("POST", f"/operator/tables/{courts[0]}/start-next")["data"]
    version = play["scoreVersion"]
    for n, side in enumerate(("a", "b", "a")):
        version = servers[n % 2].call("POST", f"/operator/matches/{play['id']}/point",
                                      {"side": side, "version": version})["data"]["scoreVersion"]
    undone = servers[1].call("POST", f"/operator/matches/{play['id']}/undo", {"version": version})["data"]
    assert undone["gameScores"] == [{"a": 1, "b": 1}]

    made = [servers[n].call("POST", "/operator/draws", {
        "broadcastID": broadcast["id"], "name": name, "format": "round_robin", "bestOf": 1, "randomSeed": 7,
        "entries": [{"players": [{"manualName": f"{name} {k}"}]} for k in range(1, 4)]})["data"]
        for n, name in enumerate(("Veterans", "Juniors"))]
    servers[0].call("POST", f"/operator/draws/{made[0]['id']}/entries/{made[0]['entries'][2]['id']}/withdraw")
    servers[1].call("DELETE", f"/operator/draws/{made[1]['id']}")

    found = entries(servers[0])
    new = found[: len(found) - before]
    assert [e["seq"] for e in reversed(found)] == list(range(1, len(found) + 1))  # no gap, no duplicate
    actions = collections.Counter(str(e["action"]) for e in new)
    assert {action: actions[action] for action in ("draw.created", "draw.withdrawn", "draw.deleted", "match.point",
                                                   "match.point_undone", "match.started", "match.completed")} == {
        "draw.created": 3, "draw.withdrawn": 1, "draw.deleted": 1, "match.point": 3, "match.point_undone": 1,
        "match.started": 3, "match.completed": 2}
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    env["COURTSIDE_DATABASE_URL"] = fleet.env["COURTSIDE_DATABASE_URL"]
    result = subprocess.run([sys.executable, "-m", "cli.main", "audit", "verify"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    head = {"seq": found[0]["seq"], "hash": found[0]["hash"]}  # the head kept apart is the newest entry (§16)
    assert json.loads(result.stdout) == {"entries": len(found), "intact": True, "head": head}
