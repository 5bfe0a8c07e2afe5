"""Contract §8a, secrets at rest, through the real `courtside serve` on both backends (issue 37, point 8): the
data dir is 0700 and its files 0600 also with PostgreSQL (it holds the operator key there too), including a data
dir made beforehand with the usual 0755/0644."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

from tests.server_process import ServerProcess

BOTH_BACKENDS = True


def test_the_data_dir_is_private_on_either_backend(server_factory: Callable[..., ServerProcess],
                                                   tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)  # as `mkdir` under the usual umask leaves it
    note = data / "notes.txt"
    note.write_text("the operator's own file\n")
    note.chmod(0o644)
    server = server_factory(data_dir=data)
    assert server.call("GET", "/operator/audit/head")["data"]["seq"] >= 0
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = {p.name: stat.S_IMODE(p.stat().st_mode) for p in data.iterdir() if p.is_file()}
    assert "operator.key" in files and all(mode == 0o600 for mode in files.values()), files
