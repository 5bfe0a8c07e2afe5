"""`courtside audit verify` and `export` while `courtside serve` owns the data dir (TinyDB: one process): they read
the running server's `GET /operator/audit` and check the chain themselves (contract §16)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.server_process import ROOT, ServerProcess


def courtside(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    return subprocess.run([sys.executable, "-m", "cli.main", "audit", *args, "--data-dir", str(server.data_dir),
                           "--api-url", server.root], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_verify_and_export_go_through_the_running_server(server_factory: Callable[..., ServerProcess],
                                                          tmp_path: Path) -> None:
    server = server_factory()
    for n in range(3):
        server.call("POST", "/operator/keys", {"name": f"k{n}"})
    listed = server.call("GET", "/operator/audit?limit=100")["data"]
    verified = courtside(server, "verify")
    assert verified.returncode == 0, verified.stderr
    head = server.call("GET", "/operator/audit/head")["data"]
    assert (head["seq"], head["hash"]) == (listed[0]["seq"], listed[0]["hash"])
    assert head["line"] == f"Audit {head['seq']} · {head['hash'][:12]}…"
    assert json.loads(verified.stdout) == {"entries": len(listed), "intact": True,
                                           "head": {"seq": head["seq"], "hash": head["hash"]}}
    out = tmp_path / "audit.jsonl"
    exported = courtside(server, "export", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines == list(reversed(listed))
    assert out.stat().st_mode & 0o777 == 0o600  # §16: the export is no one else's to read
