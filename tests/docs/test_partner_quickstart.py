"""docs/partner-quickstart.md is true: its `sh` blocks run, in order, in one bash session, against a live server."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.conftest import ROOT
from tests.docs.test_partner_guide import reader_clone
from tests.server_process import ServerProcess

QUICKSTART = ROOT / "docs" / "partner-quickstart.md"
SH = re.compile(r"^```sh\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


def test_quickstart_covers_key_broadcast_list_and_assignment() -> None:
    script = "\n".join(SH.findall(QUICKSTART.read_text()))
    for step in ("courtside keys create", "POST \"$API/broadcasts\"", "PUT \"$API/player-lists\"",
                 "PATCH \"$API/tables/$TABLE_ID\"", "tables/bulk", "nextCursor", "PUT \"$API/matches\"",
                 'export PATH="$PWD/.venv/bin:$PATH"'):
        assert step in script, step
    assert not re.search(r"^courtside ", QUICKSTART.read_text(), re.MULTILINE) or "activate" in QUICKSTART.read_text()


def test_quickstart_commands_run_against_a_live_server(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = server_factory()
    clone, path = reader_clone(tmp_path)  # a fresh clone after the README's set-up, the venv not on PATH
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    env.update({
        "COURTSIDE_API_URL": server.base.removesuffix("/api/v1"),
        "COURTSIDE_DATA_DIR": str(server.data_dir),
        "PATH": path,
    })
    script = "\n".join(SH.findall(QUICKSTART.read_text()))
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=clone, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for expected in ('["m-101","mapped"]', '["m-103","mapped"]', "207", '{"succeeded":1,"failed":1}',
                     '{"labels":["Court 2"],"nextCursor":null}',
                     '{"status":"pending","queuePosition":1,"playerA":"Ana Silva","playerB":"Chloe Martin",'
                     '"startTime":"2026-11-28T14:00:00.000Z"}'):
        assert expected in lines, expected
    assert '"playerListExternalID": "club-a-members"' in result.stdout
    assert '{"code":"conflicting_patch"' in result.stdout
    assert sorted(path.name for path in clone.iterdir()) == [".venv"]  # the page's files went to a scratch dir
