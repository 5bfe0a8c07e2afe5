"""Contract §8a, secrets at rest: the data dir is 0700 and its files (snapshot, journal, lock, operator key) 0600,
also a data dir an older version left readable by others (tightened on start)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from domain.access.auth import bootstrap
from domain.clock import FixedClock
from storage.engine import Store
from storage.repository import unit_of_work


def modes(data_dir: Path) -> dict[str, int]:
    return {"": stat.S_IMODE(data_dir.stat().st_mode)} | {
        p.name: stat.S_IMODE(p.stat().st_mode) for p in data_dir.iterdir() if p.is_file()}


def test_a_new_data_dir_and_its_files_are_private(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with unit_of_work(store) as uow:
        bootstrap(uow, operator_key="svc_op_" + "k" * 43, now=FixedClock().now())
    store.close()  # writes the snapshot
    found = modes(tmp_path / "data")
    assert found[""] == 0o700
    assert {"db.json", "courtside.lock"} <= set(found) and all(
        mode == 0o600 for name, mode in found.items() if name), found


def test_an_old_readable_data_dir_is_tightened_on_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store(data).close()
    os.chmod(data, 0o755)
    for path in data.iterdir():
        os.chmod(path, 0o644)
    Store(data).close()
    assert all(mode in (0o700, 0o600) for mode in modes(data).values()), modes(data)
