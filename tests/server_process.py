"""A real `courtside serve` process on a free loopback port: the one helper the end-to-end tests, the browser
tests, the benches and the screenshot scripts start servers with."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from tests.eventually import answers, eventually

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop_process(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, *, timeout: float = 30) -> None:
    """Stop a child (`sig`, then SIGKILL if it is still running after `timeout` seconds) and reap it."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


@dataclass
class ServerProcess:
    """`courtside serve --data-dir DATA_DIR --port PORT` with `env` (this process's environment by default); its
    output goes to `server-PORT.log` beside the data dir."""

    data_dir: Path
    port: int
    env: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        return self.root + "/api/v1"

    @property
    def operator_key(self) -> str:
        return (self.data_dir / "operator.key").read_text().strip()

    def start(self, wait: bool = True) -> ServerProcess:
        self.log_path = self.data_dir.parent / f"server-{self.port}.log"
        self.data_dir.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the file
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(self.data_dir), "--port",
                 str(self.port)], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            )
        if wait:
            self.wait_ready()
        return self

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path and self.log_path.exists() else ""

    def wait_ready(self, timeout: float = 30) -> None:
        """Return once the health route answers; fail at once with the server's log if it exited."""
        process = self.process
        assert process is not None
        eventually(lambda: answers(self.base + "/health"), timeout=timeout, interval=0.1,
                   gave_up=lambda: None if process.poll() is None else f"`courtside serve` exited:\n{self.log()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None:
            stop_process(self.process, sig)

    def kill(self, sig: int = signal.SIGKILL) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        return self.process.wait(timeout=30)

    def operator_call(self, method: str, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return requests.request(method, self.base + path, json=body, timeout=30,
                                headers={"Authorization": f"Bearer {self.operator_key}"})

    def call(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        """The JSON answer of an API call with `key` (the operator key by default), which must succeed."""
        response = requests.request(method, self.base + path, json=body, timeout=30,
                                    headers={"Authorization": f"Bearer {key or self.operator_key}"})
        assert response.status_code < 300, (method, path, response.status_code, response.text)
        return response.json()

    def developer_key(self, scope: str | None = None) -> str:
        response = self.operator_call("POST", "/operator/keys", {"name": "test"} | ({"scope": scope} if scope else {}))
        assert response.status_code == 201, response.text
        return str(response.json()["data"]["key"])
