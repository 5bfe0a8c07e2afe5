"""Contract §8a on a real server: a venue's many clients. 1,000 idle keep-alive connections (phones that opened a
page and slept) never keep a new client from being answered, and a `304` keeps its connection for the next poll,
on the output and the event page feeds."""

from __future__ import annotations

import http.client
import logging
import re
import socket
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import requests
from waitress import wasyncore

from api import platform
from api.access_log import ACCESS
from api.context import FeedAnswer, KeptFeed
from cli import serving
from cli.serving import raise_open_file_limit, venue_server
from domain.settings import Settings
from tests.server_process import ServerProcess

IDLE = 1000


@pytest.fixture
def idle_sockets() -> Iterator[list[socket.socket]]:
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


def feeds(server: ServerProcess) -> list[str]:
    broadcast = server.call("POST", "/operator/broadcasts", {"name": "Day", "tables": [{"label": "Court 1"}]})
    broadcast_id = broadcast["data"]["id"]
    output = server.call("GET", f"/operator/broadcasts/{broadcast_id}/outputs")["data"][0]["url"]
    event = server.call("POST", f"/operator/broadcasts/{broadcast_id}/event-page/enable")["data"]["url"]
    return [output + "/state", event + "/state"]


def test_a_304_keeps_the_connection_for_the_next_poll(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory()
    for url in feeds(server):
        parts = urllib.parse.urlsplit(url)
        assert parts.hostname is not None, url
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        connection.request("GET", parts.path)
        first = connection.getresponse()
        first.read()
        etag = first.getheader("ETag")
        assert first.status == 200 and etag
        sock = connection.sock
        for _ in range(3):
            connection.request("GET", parts.path, headers={"If-None-Match": etag})
            again = connection.getresponse()
            again.read()
            assert again.status == 304 and again.getheader("Connection") is None, url
            assert connection.sock is sock  # the same TCP connection: the server did not close it
        connection.close()


def test_a_thousand_idle_connections_do_not_stall_a_new_client(
        server_factory: Callable[..., ServerProcess], idle_sockets: list[socket.socket]) -> None:
    raise_open_file_limit(IDLE + 256)
    server = server_factory()
    for _ in range(IDLE):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        idle_sockets.append(sock)  # connected, never sends a request: a phone asleep on the Wi-Fi
    for attempt in range(5):
        response = requests.get(server.base + "/health", timeout=10)
        assert response.status_code == 200, attempt
    broadcast = server.call("POST", "/operator/broadcasts", {"name": "Day", "tables": [{"label": "Court 1"}]})
    assert broadcast["data"]["id"].startswith("brd_")


class BusyApp:
    """A WSGI app whose `/slow` holds its worker until released, with the `kept_feed_answer` hook the Courtside
    app offers (`CourtsideFlask.kept_feed_answer`): `/feed` is kept in memory at ETag "v1"; `/unkept` is a feed
    whose snapshot is not built yet (the app answers it)."""

    def __init__(self) -> None:
        self.release = threading.Event()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] == "/slow":
            self.release.wait(30)
        body = b"o" * 50_000 if environ["PATH_INFO"] == "/big" else b"ok"  # big: the worker sends it itself
        start_response("200 OK", [("Content-Length", str(len(body))), ("Content-Type", "text/plain")])
        return [body]

    def kept_feed_answer(self, method: str, path: str, tag: str | None,
                         request_id: str | None = None) -> FeedAnswer | None:
        if method == "GET" and path == "/feed":
            return KeptFeed("v1", b'{"v":1}', (("Cache-Control", "no-cache"),)).answer(tag, request_id)
        return None


@contextmanager
def running(server: Any) -> Iterator[Any]:
    """A venue server (`cli.serving.venue_server`) running its loop in a thread, closed on exit."""
    runner = threading.Thread(target=server.run, daemon=True)
    runner.start()
    try:
        yield server
    finally:
        server.close()
        wasyncore.close_all(server._map)  # the clients' connections too: the loop turns while any is open
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
        runner.join(10)


def test_a_kept_feed_poll_is_answered_while_every_worker_is_busy() -> None:
    """§8a: a feed poll is answered from its kept snapshot in the server's network loop (304 while unchanged, 200
    with the kept body after a change), so pollers never wait for (or take) a worker thread the operator needs.
    With the only worker held, the polls are still answered, on a kept connection."""
    app = BusyApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        port = server.effective_port
        try:
            slow = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            slow.request("GET", "/slow")  # holds the one worker until released
            poll = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            for _ in range(3):
                poll.request("GET", "/feed", headers={"If-None-Match": '"v1"'})
                answer = poll.getresponse()
                assert answer.read() == b"" and answer.status == 304 and answer.getheader("ETag") == '"v1"'
            poll.request("GET", "/feed", headers={"If-None-Match": '"v0"'})  # the page holds an older state
            answer = poll.getresponse()
            assert (answer.status, answer.read(), answer.getheader("ETag")) == (200, b'{"v":1}', '"v1"')
            assert answer.getheader("Content-Type") == "application/json" and answer.getheader("Content-Length") == "7"
            assert not app.release.is_set()  # answered while the worker was still busy
            poll.request("GET", "/unkept")  # not kept: that one needs the app
            app.release.set()
            assert slow.getresponse().read() == b"ok"
            changed = poll.getresponse()
            assert changed.status == 200 and changed.read() == b"ok"
        finally:
            app.release.set()


def test_every_feed_poll_answered_in_the_loop_gets_its_access_log_line(caplog: pytest.LogCaptureFixture) -> None:
    """§8a: an access log line for every request, also a poll answered from memory in the network loop: method,
    path, status, ms and the request ID its answer carries."""
    with running(venue_server(BusyApp(), Settings(host="127.0.0.1", port=0, threads=1))) as server:
        poll = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        request_ids = []
        with caplog.at_level(logging.INFO, logger="courtside.access"):
            for held in ('"v1"', '"v0"', '"v1"'):
                poll.request("GET", "/feed", headers={"If-None-Match": held})
                answer = poll.getresponse()
                answer.read()
                request_ids.append(answer.getheader("Service-Request-ID"))
            ACCESS.flush()  # lines are written in batches by the access log's thread
        lines = [line for r in caplog.records if r.name == "courtside.access" for line in r.getMessage().splitlines()]
        assert [line.split()[:3] for line in lines] == [["GET", "/feed", "304"], ["GET", "/feed", "200"],
                                                        ["GET", "/feed", "304"]]
        assert [line.split()[4] for line in lines] == [f"request_id={rid}" for rid in request_ids]
        assert all(re.fullmatch(r"\d+\.\dms", line.split()[3]) for line in lines)


def test_a_feed_poll_answered_in_the_loop_echoes_the_clients_request_id() -> None:
    """§2: the client's `Service-Request-ID` reaches the app's `kept_feed_answer` from the loop and comes back on
    the answer (the Courtside app refuses an invalid one there: tests/api/test_event_page.py)."""
    app = BusyApp()
    app.release.set()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        poll = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        poll.request("GET", "/feed", headers={"If-None-Match": 'W/"v1"', "Service-Request-ID": "desk-poll-0001"})
        answer = poll.getresponse()
        assert answer.read() == b"" and answer.status == 304
        assert answer.getheader("Service-Request-ID") == "desk-poll-0001"


def test_feed_polls_answered_in_the_loop_are_not_logged_with_the_access_log_off(
        caplog: pytest.LogCaptureFixture) -> None:
    """`COURTSIDE_ACCESS_LOG=false` turns the loop's lines off too."""
    with running(venue_server(BusyApp(), Settings(host="127.0.0.1", port=0, threads=1, access_log=False))) as server:
        poll = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        with caplog.at_level(logging.INFO, logger="courtside.access"):
            poll.request("GET", "/feed", headers={"If-None-Match": '"v1"'})
            assert poll.getresponse().status == 304
        assert [r for r in caplog.records if r.name == "courtside.access"] == []


def test_connections_closed_and_reopened_on_reused_descriptors_are_all_answered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's network loop (`cli.serving.EpollLoop`) keeps its poll set between turns: a connection closed and a
    new one given the same descriptor number must be watched afresh (phones come and go all day), also with a
    thousand idle connections open, and keep-alive requests on one connection are answered turn after turn, also
    when the worker sends a big answer itself and finishes while the loop asks the connection for its state. The
    loop's once-a-second full pass is turned off here, so a connection it forgets hangs the test."""
    monkeypatch.setattr(serving, "FULL_EVERY", 3600.0)
    app = BusyApp()
    app.release.set()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=2))) as server:
        idle: list[socket.socket] = []
        try:
            raise_open_file_limit(IDLE + 256)
            for round_ in range(3):
                for _ in range(40):  # a new connection per request, closed at once: descriptor numbers come back
                    connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
                    connection.request("GET", "/x")
                    assert connection.getresponse().read() == b"ok", round_
                    connection.close()
                idle += [socket.create_connection(("127.0.0.1", server.effective_port), timeout=10)
                         for _ in range(IDLE // 3)]
            kept = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
            for _ in range(20):
                kept.request("GET", "/feed", headers={"If-None-Match": '"v1"'})
                polled = kept.getresponse()
                assert polled.read() == b"" and polled.status == 304
                kept.request("POST", "/x", body=b"{}", headers={"Content-Type": "application/json"})
                assert kept.getresponse().read() == b"ok"
            for _ in range(200):
                kept.request("GET", "/big")
                assert len(kept.getresponse().read()) == 50_000
        finally:
            for sock in idle:
                sock.close()


class ChangingApp(BusyApp):
    """`BusyApp` whose kept `/feed` moves to a new state when told (`change`), with the store-version stamp the
    Courtside app offers (`CourtsideFlask.kept_feed_stamp`); `kept=False` leaves the new state unbuilt, as after a
    write the app has not built the feed for yet (then the app answers it: `"v2-built"`)."""

    def __init__(self) -> None:
        super().__init__()
        self.release.set()
        self.version = 1
        self.kept = True
        self.answered_by_app: list[str] = []

    def change(self, *, kept: bool = True) -> None:
        self.kept = kept
        self.version += 1

    def kept_feed_stamp(self) -> int:
        return self.version

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] == "/feed":
            self.answered_by_app.append(environ.get("HTTP_PREFER", ""))
            self.kept = True
            body = b'{"v":%d}' % self.version
            start_response("200 OK", [("Content-Length", str(len(body))), ("ETag", f'"v{self.version}"')])
            return [body]
        return super().__call__(environ, start_response)

    def kept_feed_answer(self, method: str, path: str, tag: str | None,
                         request_id: str | None = None) -> FeedAnswer | None:
        if method != "GET" or path != "/feed" or not self.kept:
            return None
        return KeptFeed(f"v{self.version}", b'{"v":%d}' % self.version, ()).answer(tag, request_id)


def held_poll(port: int, wait: int, tag: str = '"v1"') -> http.client.HTTPConnection:
    """A feed poll sent with `Prefer: wait=N` on a new connection; the answer is read by the caller."""
    poll = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    poll.request("GET", "/feed", headers={"If-None-Match": tag, "Prefer": f"wait={wait}"})
    return poll


def test_a_held_feed_poll_is_answered_when_the_feed_changes_without_taking_a_worker() -> None:
    """Issue 52.1: push, not poll. A poll asking `Prefer: wait=25` whose page is current is held by the network loop
    (no worker: the only one still answers another request meanwhile) and answered with the new state as soon as
    the feed changes, long before its wait ends (the client gives up after 10 s), saying it held it."""
    app = ChangingApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        port = server.effective_port
        polls = [held_poll(port, 25) for _ in range(3)]
        other = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        other.request("GET", "/x")
        assert other.getresponse().read() == b"ok"  # the one worker is free while three polls are held
        app.change()
        for poll in polls:
            answer = poll.getresponse()
            assert (answer.status, answer.read(), answer.getheader("ETag")) == (200, b'{"v":2}', '"v2"')
            assert answer.getheader("Preference-Applied") == "wait=25"
        assert app.answered_by_app == []  # all answered in the loop, from the kept state
        for connection in (*polls, other):
            connection.close()


def test_a_held_poll_whose_feed_has_not_changed_gets_304_when_its_wait_ends() -> None:
    app = ChangingApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        poll = held_poll(server.effective_port, 1)
        answer = poll.getresponse()
        assert (answer.status, answer.read()) == (304, b"")
        assert answer.getheader("Preference-Applied") == "wait=1" and answer.getheader("ETag") == '"v1"'
        poll.request("GET", "/feed", headers={"If-None-Match": '"v1"'})  # no Prefer: answered at once, not held
        plain = poll.getresponse()
        assert plain.status == 304 and plain.getheader("Preference-Applied") is None
        poll.close()


def test_a_held_poll_whose_new_state_is_not_kept_goes_to_the_app_once_per_feed() -> None:
    """After a write the app has not built the feed's state for yet, one held poll goes to a worker (the app builds
    it); the others get it from memory on the loop's next look."""
    app = ChangingApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        polls = [held_poll(server.effective_port, 25) for _ in range(4)]
        other = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        other.request("GET", "/x")
        assert other.getresponse().read() == b"ok"  # all four are held by now (the loop read them first)
        app.change(kept=False)
        answers = [poll.getresponse() for poll in polls]
        assert [(a.status, a.read()) for a in answers] == [(200, b'{"v":2}')] * 4
        assert app.answered_by_app == ["wait=25"]
        assert sorted(str(a.getheader("Preference-Applied")) for a in answers) == ["None"] + ["wait=25"] * 3
        for connection in (*polls, other):
            connection.close()


def test_prefer_wait_is_read_as_rfc_7240_says_and_capped() -> None:
    assert platform.wanted_wait("wait=10") == 10
    assert platform.wanted_wait("respond-async, wait=100") == platform.WAIT_MAX
    assert platform.wanted_wait("handling=lenient; wait=3") == 3
    assert platform.wanted_wait("wait=0") is None and platform.wanted_wait("nowait=5") is None
    assert platform.wanted_wait(None) is None and platform.wanted_wait("wait=abc") is None


class BuildingApp(ChangingApp):
    """`ChangingApp` with the Courtside app's feed builder (`CourtsideFlask.build_kept_feed`): the server's builder
    thread builds a state the held polls wait for, so none of them goes to a worker."""

    def __init__(self) -> None:
        super().__init__()
        self.built: list[str] = []

    def build_kept_feed(self, path: str) -> None:
        self.built.append(path)
        self.kept = True

    def kept_feed_answer(self, method: str, path: str, tag: str | None, request_id: str | None = None, *,
                         fresh: bool = False) -> FeedAnswer | None:
        return super().kept_feed_answer(method, path, tag, request_id)


def test_held_polls_whose_new_state_is_not_kept_wait_for_the_builder_not_a_worker() -> None:
    app = BuildingApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        polls = [held_poll(server.effective_port, 25) for _ in range(4)]
        other = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        other.request("GET", "/x")
        assert other.getresponse().read() == b"ok"
        app.change(kept=False)
        answers = [poll.getresponse() for poll in polls]
        assert [(a.status, a.read(), a.getheader("Preference-Applied")) for a in answers] == \
            [(200, b'{"v":2}', "wait=25")] * 4
        assert app.answered_by_app == [] and app.built == ["/feed"]
        for connection in (*polls, other):
            connection.close()


class GoneApp(BuildingApp):
    """A feed whose build keeps nothing (its link was rotated meanwhile): the app answers it (a 404 in Courtside)."""

    def build_kept_feed(self, path: str) -> None:
        self.built.append(path)


def test_a_held_poll_whose_build_keeps_nothing_goes_to_the_app_not_round_the_builder() -> None:
    app = GoneApp()
    with running(venue_server(app, Settings(host="127.0.0.1", port=0, threads=1))) as server:
        poll = held_poll(server.effective_port, 25)
        other = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
        other.request("GET", "/x")
        assert other.getresponse().read() == b"ok"
        app.change(kept=False)
        answer = poll.getresponse()  # long before its wait ends (the client gives up after 10 s)
        assert (answer.status, answer.read()) == (200, b'{"v":2}')
        assert app.answered_by_app == ["wait=25"] and 1 <= len(app.built) <= 2
        for connection in (poll, other):
            connection.close()
