"""`courtside init` and `courtside serve` as a club runs them (contract §1): real processes, real files."""

from __future__ import annotations

import json
import re
import signal
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import requests

from domain.ids import hash_secret
from tests.conftest import ROOT
from tests.eventually import eventually
from tests.server_process import ServerProcess, free_port


def courtside(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_init_is_idempotent_and_keeps_only_the_key_hash_in_storage(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first = courtside("init", "--data-dir", str(data_dir))
    second = courtside("init", f"--data-dir={data_dir}")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    printed = json.loads(first.stdout)
    assert json.loads(second.stdout) == printed
    assert set(printed) == {"dataDir", "accountID", "operatorKey"}
    assert printed["dataDir"] == str(data_dir.resolve())
    assert printed["accountID"].startswith("acc_")
    key = printed["operatorKey"]
    assert key.startswith("svc_op_")
    key_file = data_dir / "operator.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text().strip() == key
    stored = b"".join(path.read_bytes() for path in data_dir.iterdir() if path.name != "operator.key")
    assert key.encode() not in stored
    assert hash_secret(key).encode() in stored


def test_init_interrupted_after_writing_the_key_completes_with_the_same_key(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    first = json.loads(courtside("init", "--data-dir", str(data_dir)).stdout)
    (data_dir / "courtside.json").unlink()  # as if killed before the last step
    again = courtside("init", "--data-dir", str(data_dir))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == first


def test_serve_runs_init_logs_its_urls_and_init_then_prints_the_same_key(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    assert requests.get(server.base + "/health", timeout=10).json()["data"]["status"] == "ok"
    printed = json.loads(courtside("init", "--data-dir", str(server.data_dir)).stdout)
    assert printed["operatorKey"] == server.operator_key
    assert server.kill(signal.SIGTERM) == 0
    assert server.log_path is not None
    log = server.log_path.read_text()
    assert f"Courtside API on http://127.0.0.1:{server.port}/api/v1" in log
    assert f"http://127.0.0.1:{server.port}/api/v1/docs" in log


def test_a_second_serve_on_the_same_data_dir_exits_at_once_with_a_clear_message(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    second = courtside("serve", "--data-dir", str(server.data_dir), "--port", str(free_port()), timeout=30)
    assert second.returncode == 1
    assert f"courtside: The data dir {server.data_dir.resolve()} is already in use" in second.stderr
    assert requests.get(server.base + "/health", timeout=10).status_code == 200  # the first one is unharmed


def test_serve_on_a_busy_port_exits_with_a_clear_message_and_frees_the_data_dir(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    server = server_factory()
    other = tmp_path / "other"
    second = courtside("serve", "--data-dir", str(other), "--port", str(server.port), timeout=30)
    assert second.returncode == 1
    assert f"courtside: Cannot listen on 127.0.0.1:{server.port}" in second.stderr
    again = courtside("init", "--data-dir", str(other))  # the data dir was released
    assert again.returncode == 0, again.stderr


def test_sigterm_and_sigint_stop_cleanly_and_keep_the_data(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    first_key = server.developer_key()
    assert server.kill(signal.SIGTERM) == 0
    assert server.log_path is not None and "stopped cleanly" in server.log_path.read_text()

    server = server_factory(data_dir=server.data_dir)
    second_key = server.developer_key()
    assert server.kill(signal.SIGINT) == 0

    server = server_factory(data_dir=server.data_dir)
    for key in (first_key, second_key):
        response = requests.get(server.base + "/connection", headers={"Authorization": f"Bearer {key}"}, timeout=10)
        assert response.status_code == 200, response.text
    assert server.kill(signal.SIGTERM) == 0
    assert (server.data_dir / "journal.jsonl").read_bytes() == b""  # a clean stop leaves a full snapshot


def test_access_log_is_on_by_default_with_ms_and_never_shows_a_public_key(
        server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    key = "scr_" + "k" * 43
    paths = [f"/score/{key}", f"/outputs/out_{'o' * 43}/state", f"/register/reg_{'r' * 43}", f"/event/evt_{'e' * 43}"]
    for path in paths:
        assert requests.get(server.root + path, timeout=10).status_code == 404
    health = requests.get(server.base + "/health", headers={"Service-Request-ID": "check-access-log"}, timeout=10)
    assert health.status_code == 200

    def logged() -> str | None:
        text = server.log()
        return text if "request_id=check-access-log" in text else None

    text = eventually(logged, timeout=15)
    assert re.search(r"GET /api/v1/health 200 \d+\.\dms request_id=check-access-log", text), text[-2000:]
    for prefix in ("score", "outputs", "register", "event"):
        assert f"GET /{prefix}/… " in text or f"GET /{prefix}/…/state " in text, prefix
    for secret in ("k" * 43, "o" * 43, "r" * 43, "e" * 43):
        assert secret not in text


def test_access_log_can_be_turned_off(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(env={"COURTSIDE_ACCESS_LOG": "false"})
    assert requests.get(server.base + "/health", headers={"Service-Request-ID": "not-logged-1"},
                        timeout=10).status_code == 200
    server.stop()
    assert "not-logged-1" not in server.log()
