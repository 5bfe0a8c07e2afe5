"""`courtside console` and `courtside up`: the Streamlit console (and the API) as child processes.

The console gets the API URL and the operator key through its environment (COURTSIDE_API_URL,
COURTSIDE_OPERATOR_KEY), runs headless on `settings.console_port`; SIGTERM/SIGINT stop every child cleanly.
"""

from __future__ import annotations

import logging
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from console.client import operator_key_of
from domain.settings import Settings, child_environment, is_loopback

APP = Path(__file__).resolve().parent / "app.py"
log = logging.getLogger("courtside.console")


def console_command(settings: Settings) -> list[str]:
    """The `streamlit run` command line of the console."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.headless=true", f"--server.port={settings.console_port}", f"--server.address={settings.host}",
        "--browser.gatherUsageStats=false", "--server.fileWatcherType=none", "--client.toolbarMode=minimal",
    ]


def console_env(settings: Settings) -> dict[str, str]:
    """The environment of the console process: ours plus the API URL, the operator key and the data dir.

    A console bound beyond loopback (`--host 0.0.0.0`) is reachable by anyone on that network, so it gets no
    key at all: it asks each browser for the operator key (`COURTSIDE_CONSOLE_SIGN_IN`).
    """
    if not is_loopback(settings.host):
        return child_environment({"COURTSIDE_API_URL": settings.api_url, "COURTSIDE_CONSOLE_SIGN_IN": "true"},
                                 without=("COURTSIDE_OPERATOR_KEY", "COURTSIDE_DATA_DIR"))
    variables = {"COURTSIDE_API_URL": settings.api_url, "COURTSIDE_DATA_DIR": str(settings.data_dir.resolve())}
    key = operator_key_of(settings)
    if key:
        variables["COURTSIDE_OPERATOR_KEY"] = key
    return child_environment(variables)


def _stop(process: subprocess.Popen[bytes], timeout: float = 15) -> int:
    """SIGTERM a child, then SIGKILL it if it does not stop in time; its exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


class _Supervisor:
    """Children that stop together: when one exits, or on SIGTERM/SIGINT, all are stopped (last started first)."""

    def __init__(self) -> None:
        self.children: list[subprocess.Popen[bytes]] = []
        self.stopping = False
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum: int, frame: Any) -> None:
        self.stopping = True

    def start(self, command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(command, env=env)
        self.children.append(child)
        return child

    def wait(self) -> int:
        """Block until a signal arrives or a child exits; stop the rest; 0 on a requested stop."""
        while not self.stopping and all(child.poll() is None for child in self.children):
            time.sleep(0.2)
        failed = next((child.returncode for child in self.children if child.poll() not in (None, 0)), 0)
        self.shutdown()
        return 0 if self.stopping else int(failed or 0)

    def shutdown(self) -> None:
        for child in reversed(self.children):
            _stop(child)


def port_taken(host: str, port: int) -> bool:
    """Whether another program already listens on `host:port` (binding there fails as Streamlit's would)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers bind: TIME_WAIT is no owner
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def taken_ports(settings: Settings, *, api: bool) -> str | None:
    """What to tell the user when a port `up` (api=True) or `console` needs is taken, naming the setting that picks
    another (issue 51: "Port 8501 is not available" said nothing of how to choose one); None when all are free."""
    wanted = [("console", settings.console_port, "COURTSIDE_CONSOLE_PORT", "--console-port" if api else "--port")]
    if api:
        wanted.insert(0, ("API", settings.port, "COURTSIDE_PORT", "--port"))
    for what, port, variable, option in wanted:
        if port_taken(settings.host, port):
            return (f"Port {port} for the {what} is taken by another program (another Courtside?). Stop it, or "
                    f"choose a free port: {variable}={port + 1} make run (or {option} {port + 1}).")
    return None


def run_console(settings: Settings) -> int:
    """Run the console against a running API until it exits or we are told to stop."""
    problem = taken_ports(settings, api=False)
    if problem:
        log.error("%s", problem)
        return 1
    supervisor = _Supervisor()
    log.info("Courtside console on http://%s:%s (API %s)", settings.host, settings.console_port, settings.api_url)
    supervisor.start(console_command(settings), console_env(settings))
    return supervisor.wait()


def wait_healthy(api_url: str, server: subprocess.Popen[bytes], timeout: float = 60) -> bool:
    """Poll `/api/v1/health` until it answers 200; False if the server exits or the time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if requests.get(api_url.rstrip("/") + "/api/v1/health", timeout=1).status_code == 200:
                return True
        except requests.RequestException:
            pass
        time.sleep(0.2)
    return False


def run_up(settings: Settings) -> int:
    """`courtside serve` as a child, then (once healthy) the console against it; stop both together. A port that is
    taken is said first, with how to choose another, before anything starts."""
    problem = taken_ports(settings, api=True)
    if problem:
        log.error("%s", problem)
        return 1
    supervisor = _Supervisor()
    data_dir = settings.data_dir.resolve()
    server = supervisor.start([
        sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir),
        "--host", settings.host, "--port", str(settings.port),
    ])
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "") else settings.host
    api_url = f"http://{host}:{settings.port}"
    if not wait_healthy(api_url, server):
        log.error("the API did not become healthy at %s", api_url)
        supervisor.shutdown()
        return 1
    console = settings.with_(api_url=api_url, data_dir=data_dir, operator_key=operator_key_of(
        settings.with_(data_dir=data_dir)))
    log.info("Courtside console on http://%s:%s", settings.host, settings.console_port)
    supervisor.start(console_command(console), console_env(console))
    return supervisor.wait()
