"""A real webhook receiver for tests: a threaded `http.server` on 127.0.0.1 that records every request and
answers scripted statuses, and helpers that verify deliveries with the `standardwebhooks` package."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

import orjson
from standardwebhooks import Webhook


@dataclass(frozen=True)
class Received:
    """One request as the receiver saw it."""

    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return orjson.loads(self.body)

    def verify(self, secret: str) -> Any:
        """The parsed event if the Standard Webhooks signature verifies with `secret` (raises otherwise)."""
        return Webhook(secret).verify(self.body, self.headers)


@dataclass
class Reply:
    """A scripted answer: status, extra headers, and a delay (`hang=True`: wait until `release()`)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    hang: bool = False


class Loopback:
    """An HTTP server on a free 127.0.0.1 port serving `handler` on daemon threads (the test and bench receivers)."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def start(self) -> Self:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Receiver(Loopback):
    """Records requests; answers the scripted replies in order, then `default`."""

    def __init__(self, default: Reply | None = None) -> None:
        self.default = default or Reply()
        self.script: list[Reply] = []
        self.received: list[Received] = []
        self._changed = threading.Condition()
        self._released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._changed:
                    reply = receiver.script.pop(0) if receiver.script else receiver.default
                    receiver.received.append(Received(self.path, dict(self.headers.items()), body))
                    receiver._changed.notify_all()
                if reply.hang:
                    receiver._released.wait(timeout=60)
                elif reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the sender gave up (timeout) or died

            def log_message(self, format: str, *args: Any) -> None:
                pass

        super().__init__(Handler)

    def reply(self, *replies: Reply | int) -> Receiver:
        """Queue answers (a bare int is a status)."""
        with self._changed:
            self.script.extend(Reply(r) if isinstance(r, int) else r for r in replies)
        return self

    def wait_for(self, count: int, timeout: float = 30) -> list[Received]:
        """Block until `count` requests arrived (a bound, not a timing assertion)."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout=timeout):
                raise AssertionError(f"expected {count} requests, got {len(self.received)}")
            return list(self.received)

    def release(self) -> None:
        self._released.set()

    def stop(self) -> None:
        self.release()
        super().stop()


def running_receiver(default: Reply | None = None) -> Iterator[Receiver]:
    """A started receiver for a fixture (`yield from running_receiver()`), stopped afterwards."""
    started = Receiver(default).start()
    try:
        yield started
    finally:
        started.stop()


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    from tests.server_process import free_port

    return f"http://127.0.0.1:{free_port()}/hook"


class Trickler:
    """A hostile receiver on 127.0.0.1: reads the request, then answers one byte every `interval` seconds.

    Records how many connections it holds at once (`most_at_once`) and when each one ended.
    """

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Padding: " + b"x" * 200 + b"\r\n\r\n"

    def __init__(self, interval: float = 0.25) -> None:
        import socket

        self.interval = interval
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.open = 0
        self.most_at_once = 0
        self.connections = 0
        self.closed_at: list[float] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: Any) -> None:
        with self._lock:
            self.open += 1
            self.connections += 1
            self.most_at_once = max(self.most_at_once, self.open)
        try:
            conn.recv(65536)
            for byte in self.ANSWER:
                if self._stop.wait(self.interval):
                    break
                conn.sendall(bytes([byte]))
        except OSError:
            pass  # the sender gave up
        finally:
            conn.close()
            with self._lock:
                self.open -= 1
                self.closed_at.append(time.monotonic())

    def stop(self) -> None:
        self._stop.set()
        self.listener.close()
