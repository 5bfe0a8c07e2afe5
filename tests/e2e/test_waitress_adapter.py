"""The waitress adapter (`cli/serving.py`) leans on waitress 3's internals: these tests fail loudly, naming the
assumption, when an installed waitress stops being what the adapter was written against, and `serve` refuses to
start on such a waitress instead of serving a venue with a silently broken loop."""

from __future__ import annotations

import http.client
import re
import threading
import tomllib
from typing import Any

import pytest
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

from cli import serving
from cli.serving import (
    WAITRESS_MAJOR,
    AnswerKeptFeedsInLoop,
    EpollLoop,
    KeepAliveChannel,
    WaitressChanged,
    check_waitress,
    venue_server,
    waitress_assumptions,
)
from domain.settings import Settings
from tests.conftest import ROOT


def hello(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]


def test_the_installed_waitress_holds_every_assumption_of_the_adapter() -> None:
    """Every assumption `check_waitress` reads off waitress holds, and pyproject.toml pins the major it checks."""
    assert waitress_assumptions() == []
    check_waitress()
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = [dependency for dependency in dependencies if re.match(r"waitress\b", dependency)]
    assert pinned == [f"waitress>={WAITRESS_MAJOR},<{WAITRESS_MAJOR + 1}"]


@pytest.mark.parametrize("change", ["another major", "a channel method gone", "run loops elsewhere"])
def test_serve_refuses_a_waitress_that_broke_an_assumption(monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """A waitress of another major, or one whose channel or server no longer has what the adapter uses, is refused
    before listening (`WaitressChanged`, naming what changed)."""
    if change == "another major":
        monkeypatch.setattr(serving, "version", lambda name: "4.0.0")
        named = "waitress 4.0.0 is installed"
    elif change == "a channel method gone":
        monkeypatch.delattr(HTTPChannel, "write_soon")
        named = "HTTPChannel.write_soon is gone"
    else:
        def run(self: Any) -> None:
            """A run that turns some other loop."""
        monkeypatch.setattr(BaseWSGIServer, "run", run)
        named = "BaseWSGIServer.run no longer turns self.asyncore.loop(...)"
    with pytest.raises(WaitressChanged, match=re.escape(named)):
        check_waitress()
    with pytest.raises(WaitressChanged, match=re.escape(named)):
        venue_server(hello, Settings(host="127.0.0.1", port=0))


def test_a_venue_server_runs_on_every_hook_the_adapter_sets() -> None:
    """What `check_waitress` cannot read off the classes, on a real server: `run` turns our `EpollLoop`, a
    connection is our `KeepAliveChannel` (reported to the loop when opened), a parsed request reaches our
    `add_task` with the channel, holding the request attributes the loop's feed answer reads, and the app's answer
    comes back on a kept connection."""
    server = venue_server(hello, Settings(host="127.0.0.1", port=0, threads=1))
    assert isinstance(server, BaseWSGIServer)
    loop = server.asyncore
    assert isinstance(loop, EpollLoop) and server.channel_class is KeepAliveChannel
    turned: list[dict[str, Any]] = []
    seen: list[tuple[type, list[str]]] = []
    turn = loop.loop

    def recording_loop(**kwargs: Any) -> None:
        turned.append(kwargs)
        turn(**kwargs)

    loop.loop = recording_loop  # type: ignore[method-assign,assignment]
    hand_over = server.add_task
    assert not isinstance(hand_over, AnswerKeptFeedsInLoop)  # `hello` keeps no feeds: waitress's own add_task
    opened: list[int | None] = []
    reported = loop.opened_or_closed

    def report(fd: int | None) -> None:
        opened.append(fd)
        reported(fd)

    loop.opened_or_closed = report  # type: ignore[method-assign]

    def add_task(channel: Any) -> None:
        request = channel.requests[0]
        seen.append((type(channel), [name for name in ("requests_lock", "connected", "total_outbufs_len",
                                                         "last_activity", "_fileno", "server")
                                     if not hasattr(channel, name)]
                     + [name for name in ("error", "version", "command", "path", "headers", "close")
                        if not hasattr(request, name)]))
        hand_over(channel)

    server.add_task = add_task
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        for _ in range(2):  # the same kept connection twice
            connection.request("GET", "/")
            answer = connection.getresponse()
            assert (answer.status, answer.read()) == (200, b"ok")
        connection.close()
    finally:
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        runner.join(10)
    assert turned and turned[0]["map"] is server._map
    assert seen == [(KeepAliveChannel, []), (KeepAliveChannel, [])]
    assert opened and all(fd is not None for fd in opened)


def test_a_venue_server_answers_kept_feeds_through_its_add_task() -> None:
    """An app with kept feeds (`kept_feed_answer`) gets `AnswerKeptFeedsInLoop` as the server's `add_task`."""

    class FeedApp:
        def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
            return hello(environ, start_response)

        def kept_feed_answer(self, method: str, path: str, tag: str | None, request_id: str | None) -> None:
            return None

    server = venue_server(FeedApp(), Settings(host="127.0.0.1", port=0))
    try:
        assert isinstance(server, BaseWSGIServer) and isinstance(server.add_task, AnswerKeptFeedsInLoop)
    finally:
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
