"""docs/partner-guide.md is true: its `python` and `sh` blocks run, in order, against a live server.

Python blocks share one namespace (like a notebook); `sh` blocks run in bash. Every block runs in a scratch
directory laid out as a fresh clone after the README's set-up (its `.venv`), with `COURTSIDE_API_URL` and
`COURTSIDE_OPERATOR_KEY` set as the guide says the operator's machine has them, and a `PATH` without the venv (a
reader's shell does not have it: issue 41 found `courtside` called bare).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import ROOT
from tests.server_process import ServerProcess

GUIDE = ROOT / "docs" / "partner-guide.md"
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
EXECUTED = {"python", "sh"}
#: contract.md §2, "Error envelope and codes".
CONTRACT_CODES = (
    "method_not_allowed bad_request validation_failed invalid_cursor invalid_request_id invalid_event_id "
    "idempotency_key_required invalid_idempotency_key duplicate_table conflicting_patch roster_type_immutable "
    "unknown_player webhook_url_not_allowed invalid_request invalid_grant unsupported_grant_type invalid_scope "
    "authentication_required invalid_token invalid_client insufficient_scope table_not_managed not_found "
    "match_locked match_undecided match_not_pending match_not_active table_busy webhook_not_configured "
    "idempotency_key_reused delivery_in_progress payload_too_large unsupported_media_type rate_limited "
    "internal_error player_in_use"
).split()


def blocks(text: str) -> list[tuple[str, str, int]]:
    """(language, code, line number) of every executed fenced block, in order."""
    return [
        (match.group(1), match.group(2), text.count("\n", 0, match.start()) + 1)
        for match in FENCE.finditer(text)
        if match.group(1) in EXECUTED
    ]


def test_the_guide_has_examples_of_every_step() -> None:
    text = GUIDE.read_text()
    found = blocks(text)
    assert {language for language, _, _ in found} == EXECUTED
    code = "\n".join(source for _, source, _ in found)
    for step in ("courtside apps create", "\"oauth\", \"approve\"", "/oauth/authorize", "code_verifier",
                 "refresh_token", "nextCursor", "Retry-After", "Service-Request-ID", "Webhook(", "verify(",
                 "secret/rotate"):
        assert step in code, step
    for heading in ("Register your app", "authorization step", "Refresh", "Rate limits", "webhooks", "Errors"):
        assert heading.lower() in text.lower(), heading


def test_every_error_code_of_the_contract_is_in_the_guide_table() -> None:
    table = GUIDE.read_text().split("| Status | `error.code` | When |", 1)[1]
    assert sorted(code for code in CONTRACT_CODES if f"`{code}`" not in table) == []


def reader_clone(tmp_path: Path) -> tuple[Path, str]:
    """A directory laid out as a fresh clone after `make .venv/.installed` (its `.venv` is the test's own), and a
    `PATH` without that venv's `bin` (nor any other `courtside`)."""
    clone = tmp_path / "clone"
    clone.mkdir()
    (clone / ".venv").symlink_to(Path(sys.prefix))
    entries = os.environ["PATH"].split(os.pathsep)
    path = os.pathsep.join(p for p in entries if p and not (Path(p) / "courtside").exists())
    assert subprocess.run(["bash", "-c", "command -v courtside"], env={"PATH": path},
                          capture_output=True).returncode != 0
    return clone, path


def test_every_match_field_is_in_the_guide_with_its_meaning(app: Flask) -> None:
    """The guide's two tables of match fields name every property of the sync body and of the match read of the
    OpenAPI document (the issue: a developer found `startTime` and `matchRound` only there)."""
    document = app.test_client().get("/api/v1/openapi.json").json
    assert document is not None
    schemas = document["components"]["schemas"]
    text = GUIDE.read_text()
    section = text[text.index("### Queuing matches"):text.index("### Retrying a create")]
    named = set(re.findall(r"`(\w+)`", "\n".join(line.split(" | ")[0] for line in section.splitlines()
                                                   if line.startswith("| `"))))
    assert set(schemas["MatchSync"]["properties"]) <= named
    assert set(schemas["MatchRead"]["properties"]) <= named
    assert "when the match was queued" in section


@pytest.fixture
def live(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory()


def test_guide_examples_run_against_a_live_server(
    live: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work, path = reader_clone(tmp_path)
    monkeypatch.chdir(work)
    monkeypatch.setenv("COURTSIDE_API_URL", live.base.removesuffix("/api/v1"))
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", live.operator_key)
    monkeypatch.setenv("PATH", path)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    namespace: dict[str, Any] = {"__name__": "partner_guide"}
    found = blocks(GUIDE.read_text())
    assert len(found) >= 10
    for language, code, line in found:
        if language == "sh":
            result = subprocess.run(["bash", "-euo", "pipefail", "-c", code], capture_output=True, text=True,
                                    timeout=60)
            assert result.returncode == 0, f"sh block at line {line} failed:\n{result.stderr}"
        else:
            try:
                exec(compile(code, f"{GUIDE.name}:{line}", "exec"), namespace)  # noqa: S102 - the guide's own code
            except Exception as error:
                raise AssertionError(f"python block at line {line} failed: {error!r}") from error
