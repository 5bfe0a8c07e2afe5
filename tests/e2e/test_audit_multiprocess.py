"""The audit log across two `courtside serve` processes on one PostgreSQL database (contract §16, §12): changes
made through both at once each write exactly one entry, `seq` stays 1, 2, ... without a gap or a duplicate, and
the chain verifies (`courtside audit verify` with COURTSIDE_DATABASE_URL)."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys

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
    synced = all_at_once([(lambda n=n: partner.match(n % 2, f"m{n}", tables[n]))
                          for n in range(MATCHES)])
    assert [r.status_code for r in synced] == [200] * MATCHES, [r.text for r in synced]
    ids = [r.json()["data"]["id"] for r in synced]
    started = all_at_once([(lambda n=n: servers[n % 2].operator_call(
        "POST", f"/operator/matches/{ids[n]}/start", {"force": True})) for n in range(MATCHES)])
    assert [r.status_code for r in started] == [200] * MATCHES, [r.text for r in started]
    scored = all_at_once([(lambda n=n: servers[(n + 1) % 2].operator_call(
        "POST", f"/operator/matches/{ids[n]}/score", {"gameScores": [{"a": 3, "b": n % 5}]}))
        for n in range(MATCHES)])
    assert [r.status_code for r in scored] == [200] * MATCHES, [r.text for r in scored]
    keys = all_at_once([(lambda n=n: servers[n % 2].operator_call("POST", "/operator/keys", {"name": f"k{n}"}))
                        for n in range(6)])
    assert [r.status_code for r in keys] == [201] * 6
    won = [{"a": 11, "b": 3}, {"a": 11, "b": 4}]  # best of 3
    completed = all_at_once([(lambda n=n: servers[n % 2].operator_call(
        "POST", f"/operator/matches/{ids[n]}/complete", {"gameScores": won})) for n in range(MATCHES)])
    assert [r.status_code for r in completed] == [200] * MATCHES, [r.text for r in completed]
    corrected = all_at_once([(lambda n=n: servers[(n + 1) % 2].operator_call(
        "POST", f"/operator/matches/{ids[n]}/score", {"gameScores": [won[0], {"a": 9, "b": 11}, {"a": 11, "b": 9}],
                                                      "reason": f"sheet {n}"})) for n in range(MATCHES)])
    assert [r.status_code for r in corrected] == [200] * MATCHES, [r.text for r in corrected]
    queued = [partner.match(n % 2, f"q{n}", tables[n]).json()["data"]["id"] for n in range(4)]
    cancelled = all_at_once([(lambda n=n: servers[n % 2].operator_call("POST", f"/operator/matches/{queued[n]}/cancel"))
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
    assert json.loads(result.stdout) == {"entries": len(found), "intact": True}
