"""`courtside console` and `courtside up` as real processes: they serve, and SIGTERM stops every child."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests

from console.launch import console_env
from domain.settings import Settings
from tests.conftest import ROOT
from tests.eventually import answers, eventually
from tests.server_process import ServerProcess, free_port


def comes_up(url: str) -> bool:
    """Whether `url` answers 200 within a minute (a bound, not a timing assertion)."""
    return eventually(lambda: answers(url), timeout=60, interval=0.2)


def refused(url: str) -> bool:
    try:
        requests.get(url, timeout=2)
    except requests.ConnectionError:
        return True
    return False


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Start `courtside ...` processes; any still running at the end is killed."""
    started: list[subprocess.Popen[bytes]] = []

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = open(tmp_path / f"cli-{len(started)}.log", "wb")  # noqa: SIM115
        process = subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT,
                                   env=dict(os.environ) | (env or {}), stdout=log, stderr=subprocess.STDOUT)
        started.append(process)
        return process

    yield run
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


def test_console_command_serves_the_console_against_a_running_api_and_stops_on_sigterm(
    server_factory: Callable[..., ServerProcess], spawn: Callable[..., subprocess.Popen[bytes]],
) -> None:
    server = server_factory()
    port = free_port()
    console = spawn("console", "--api-url", f"http://127.0.0.1:{server.port}", "--port", str(port),
                    env={"COURTSIDE_DATA_DIR": str(server.data_dir)})
    assert comes_up(f"http://127.0.0.1:{port}/_stcore/health")
    page = requests.get(f"http://127.0.0.1:{port}/", timeout=10)
    assert page.status_code == 200 and "<html" in page.text.lower()
    console.send_signal(signal.SIGTERM)
    assert console.wait(timeout=30) == 0
    assert refused(f"http://127.0.0.1:{port}/_stcore/health")


def test_up_runs_the_api_and_the_console_together_and_stops_both(
    tmp_path: Path, spawn: Callable[..., subprocess.Popen[bytes]],
) -> None:
    api_port, console_port = free_port(), free_port()
    up = spawn("up", "--data-dir", str(tmp_path / "data"), "--port", str(api_port),
               "--console-port", str(console_port))
    assert comes_up(f"http://127.0.0.1:{api_port}/api/v1/health")
    assert comes_up(f"http://127.0.0.1:{console_port}/_stcore/health")
    assert (tmp_path / "data" / "operator.key").read_text().startswith("svc_op_")
    up.send_signal(signal.SIGINT)
    assert up.wait(timeout=60) == 0
    assert refused(f"http://127.0.0.1:{api_port}/api/v1/health")
    assert refused(f"http://127.0.0.1:{console_port}/_stcore/health")


def test_a_console_beyond_loopback_gets_no_operator_key_and_asks_for_one(tmp_path: Path) -> None:
    """Structure issue, defect 3: `up --host 0.0.0.0` must not hand the network an operator console."""
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "operator.key").write_text("svc_op_secret\n")
    settings = Settings(data_dir=data_dir, host="0.0.0.0", operator_key="svc_op_secret")
    env = console_env(settings)
    assert "COURTSIDE_OPERATOR_KEY" not in env and "COURTSIDE_DATA_DIR" not in env
    assert env["COURTSIDE_CONSOLE_SIGN_IN"] == "true"
    local = console_env(settings.with_(host="127.0.0.1"))
    assert local["COURTSIDE_OPERATOR_KEY"] == "svc_op_secret" and "COURTSIDE_CONSOLE_SIGN_IN" not in local


def test_up_with_the_console_port_taken_says_how_to_choose_another_and_starts_nothing(
    tmp_path: Path, spawn: Callable[..., subprocess.Popen[bytes]],
) -> None:
    """Issue 51, point 10: `make run` with 8501 taken stopped with "Port 8501 is not available" and no word on how
    to pick another, after starting the API."""
    api_port, console_port = free_port(), free_port()
    with socket.socket() as other:
        other.bind(("127.0.0.1", console_port))
        other.listen()
        up = spawn("up", "--data-dir", str(tmp_path / "data"), "--port", str(api_port),
                   "--console-port", str(console_port))
        assert up.wait(timeout=60) == 1
    said = (tmp_path / "cli-0.log").read_text()
    assert f"Port {console_port} for the console is taken" in said
    assert f"COURTSIDE_CONSOLE_PORT={console_port + 1} make run" in said
    assert refused(f"http://127.0.0.1:{api_port}/api/v1/health")
