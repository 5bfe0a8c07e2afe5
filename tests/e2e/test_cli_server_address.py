"""Contract §8a, the CLI and the operator key (issue 37, point 2), through the real `courtside serve`: a command
that needs the server finds it from the data dir (the server records its address there while it serves) and sends
the operator key nowhere else; `--api-url` may be a root or end in `/api/v1`; with neither, it says none runs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import requests

from tests.conftest import ROOT
from tests.server_process import ServerProcess

BOTH_BACKENDS = True


def cli(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with the server's backend and no other Courtside setting (no COURTSIDE_API_URL)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COURTSIDE_")}
    if "COURTSIDE_DATABASE_URL" in server.env:
        env["COURTSIDE_DATABASE_URL"] = server.env["COURTSIDE_DATABASE_URL"]
    return subprocess.run([sys.executable, "-m", "cli.main", *args, "--data-dir", str(server.data_dir)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)


def works(server: ServerProcess, key: str) -> bool:
    return requests.get(server.base + "/matches", headers={"Authorization": f"Bearer {key}"}, timeout=10).ok


@contextmanager
def listener() -> Iterator[tuple[int, Callable[[], bool]]]:
    """A port where something listens, and whether anything connected to it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)

    def contacted() -> bool:
        try:
            sock.accept()[0].close()
        except BlockingIOError:
            return False
        return True

    try:
        yield sock.getsockname()[1], contacted
    finally:
        sock.close()


def test_commands_find_the_server_from_the_data_dir(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    recorded = json.loads((server.data_dir / "server.json").read_text())
    assert recorded["url"] == f"http://127.0.0.1:{server.port}"
    assert (server.data_dir / "server.json").stat().st_mode & 0o777 == 0o600
    made = cli(server, "keys", "create", "--name", "found")
    assert made.returncode == 0, made.stderr
    assert works(server, json.loads(made.stdout)["key"])
    verified = cli(server, "audit", "verify")
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["intact"] is True
    prefixed = cli(server, "keys", "create", "--api-url", f"http://127.0.0.1:{server.port}/api/v1/")
    assert prefixed.returncode == 0, prefixed.stderr  # the prefix is not doubled
    assert works(server, json.loads(prefixed.stdout)["key"])


def test_without_a_running_server_the_key_goes_nowhere(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    server.stop()
    assert not (server.data_dir / "server.json").exists()  # forgotten on a clean stop
    with listener() as (port, contacted):
        (server.data_dir / "server.json").write_text(json.dumps(  # left by a killed server: its process is gone
            {"url": f"http://127.0.0.1:{port}", "pid": dead_pid()}))
        result = cli(server, "keys", "create")
        assert result.returncode == 1 and result.stdout == ""
        assert "No Courtside server is running for the data dir" in result.stderr
        assert not contacted()


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_killed_server_is_not_taken_for_a_running_one(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    server.kill()
    result = cli(server, "operator-key", "rotate")
    assert result.returncode == 1 and "No Courtside server is running" in result.stderr


def test_a_live_foreign_process_with_the_recorded_pid_is_not_taken_for_the_server(
        server_factory: Callable[..., ServerProcess]) -> None:
    """A PID is reused: a record naming a live process that is not a Courtside server (it does not hold the data
    dir's server lock), with a listener on the recorded port, gets no operator key."""
    server = server_factory()
    server.stop()
    foreign = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with listener() as (port, contacted):
            (server.data_dir / "server.json").write_text(json.dumps({"url": f"http://127.0.0.1:{port}",
                                                                     "pid": foreign.pid}))
            result = cli(server, "keys", "create")
            assert result.returncode == 1 and result.stdout == ""
            assert "No Courtside server is running for the data dir" in result.stderr
            assert not contacted()
    finally:
        foreign.kill()
        foreign.wait()
