"""docs/partner-guide.md is true: its `python` and `sh` blocks run, in order, against a live server.

Python blocks share one namespace (like a notebook); `sh` blocks run in bash with the `courtside` CLI on PATH.
Every block runs in the same scratch directory, with `COURTSIDE_API_URL` and `COURTSIDE_OPERATOR_KEY` set as
the guide says the operator's machine has them.
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
    "internal_error"
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


@pytest.fixture
def live(server_factory: Callable[..., ServerProcess]) -> ServerProcess:
    return server_factory()


def test_guide_examples_run_against_a_live_server(
    live: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "partner"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("COURTSIDE_API_URL", live.base.removesuffix("/api/v1"))
    monkeypatch.setenv("COURTSIDE_OPERATOR_KEY", live.operator_key)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
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
