"""The README is true: its partner quick start runs against a live server, its webhook receiver verifies."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from standardwebhooks import Webhook

from tests.conftest import ROOT
from tests.server_process import ServerProcess

README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 3)
    return README[start:end if end != -1 else None]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```\s*$", text, re.MULTILINE | re.DOTALL)


def test_readme_quick_start_prints_what_it_says_against_a_live_server(
    server_factory: Callable[..., ServerProcess], tmp_path: Path,
) -> None:
    server = server_factory()
    quick_start = section("Partner quick start (curl)")
    [script] = blocks(quick_start, "sh")
    [expected] = blocks(quick_start, "json")
    assert "`jq`" in quick_start and ".venv/bin/courtside" in script  # what a reader needs is said
    venv_bin = str(Path(sys.executable).parent)
    reader_path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p and p != venv_bin)
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"} | {
        "COURTSIDE_API_URL": server.base.removesuffix("/api/v1"),
        "COURTSIDE_DATA_DIR": str(server.data_dir),
        "PATH": reader_path,  # a reader's shell: the venv is not activated
    }
    assert subprocess.run(["bash", "-c", "command -v courtside"], env=env, capture_output=True).returncode != 0
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected.splitlines()


def test_readme_webhook_receiver_accepts_a_signed_delivery_and_refuses_a_forged_one(capsys: Any) -> None:
    [code] = blocks(section("Receiving webhooks"), "python")
    secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(code.replace('"whsec_..."', repr(secret)), "README.md", "exec"), namespace)  # noqa: S102
    client = namespace["app"].test_client()
    body = json.dumps({"id": "e" * 40, "type": "match.completed", "createdOn": "2026-11-21T10:00:00.000Z",
                       "connectionID": "conn_x", "data": {"match": {"externalID": "m1", "score": {"a": 3, "b": 1}}}})
    now = datetime.now(UTC)
    headers = {"webhook-id": "e" * 40, "webhook-timestamp": str(int(now.timestamp())),
               "webhook-signature": Webhook(secret).sign("e" * 40, now, body), "Content-Type": "application/json"}
    assert client.post("/courtside", data=body, headers=headers).status_code == 204
    assert "m1 {'a': 3, 'b': 1}" in capsys.readouterr().out
    forged = headers | {"webhook-signature": Webhook("whsec_" + "A" * 32).sign("e" * 40, now, body)}
    assert client.post("/courtside", data=body, headers=forged).status_code == 400
