"""The browser tests' console helper (bench/browser_support.py): a console that cannot start fails at once, with
its own output, instead of leaving a later Playwright step to time out on a blank page."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bench.browser_support import ConsoleDidNotStart, running_console


def test_a_console_that_exits_fails_with_its_output(tmp_path: Path) -> None:
    with socket.socket() as taken:  # the console's port is in use: streamlit exits
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ConsoleDidNotStart) as failure:
            with running_console("http://127.0.0.1:9", tmp_path, log=tmp_path / "console.log", port=port):
                pytest.fail("the console answered on a port that was taken")
    message = str(failure.value)
    assert "did not start (exited with status 1)" in message
    assert f"Port {port} for the console is taken by another program" in message  # and how to pick another:
    assert f"COURTSIDE_CONSOLE_PORT={port + 1} make run (or --port {port + 1})" in message


def test_a_console_that_is_not_up_in_time_fails_naming_the_bound(tmp_path: Path) -> None:
    log = tmp_path / "console.log"
    with pytest.raises(ConsoleDidNotStart, match=r"did not start \(not up within 0\.2 s\)"):
        with running_console("http://127.0.0.1:9", tmp_path, log=log, bound=0.2):
            pytest.fail("a console answered within 0.2 s")
    assert log.exists()
