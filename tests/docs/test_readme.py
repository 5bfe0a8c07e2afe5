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

from domain.settings import Settings
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


def test_the_configuration_table_is_true_to_the_code() -> None:
    """Every variable `Settings.from_env` reads is in the README's table, nothing else is, and each default the
    table states for a number or a switch is the code's (contract §1; issue 41: `COURTSIDE_ACCESS_LOG` was
    documented `false` while it is on)."""
    readers = dict(re.findall(r'"(\w+)": \("(COURTSIDE_\w+)"', (ROOT / "domain" / "settings.py").read_text()))
    by_variable = {variable: name for name, variable in readers.items()}
    rows = [line.split(" | ") for line in section("Configuration").splitlines() if line.startswith("| `COURTSIDE_")]
    documented: dict[str, str] = {}
    for cells in rows:
        variables = re.findall(r"`(COURTSIDE_\w+)`", cells[0])
        defaults = re.findall(r"`([^`]*)`", cells[1])
        for index, variable in enumerate(variables):
            paired = len(defaults) == len(variables) or (len(variables) == 1 and defaults)
            documented[variable] = defaults[index] if paired else ""  # "`a` / `b`" for two variables
    assert sorted(documented) == sorted(by_variable)
    checked = 0
    for variable, text in documented.items():
        default = getattr(Settings(), by_variable[variable])
        if isinstance(default, bool):
            assert text == str(default).lower(), variable
        elif isinstance(default, int | float):
            assert float(text) == default, variable
        elif isinstance(default, tuple):
            assert [float(part) for part in text.split(",")] == list(default), variable
        else:
            continue
        checked += 1
    assert checked >= 20


def test_the_changelog_and_the_versioning_policy_exist_and_are_linked() -> None:
    """Contract §23: `CHANGELOG.md` records each change to the API, and `docs/` states the versioning and
    deprecation policy (what may change within /api/v1, how long a deprecated field stays)."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    policy = (ROOT / "docs" / "versioning.md").read_text()
    assert "(CHANGELOG.md)" in README and "(docs/versioning.md)" in README
    for change in ("Idempotency-Key", "winnerSide", "match.cancelled", "player_in_use", "operationId",
                   "BulkSyncResult", "offset"):
        assert change in changelog, change
    assert "What may change within `/api/v1`" in policy and "12 months" in policy and "deprecated" in policy
