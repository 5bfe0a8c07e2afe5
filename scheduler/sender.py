"""The real I/O behind webhook attempts: an HTTP sender with one overall deadline, and a name resolver (the OS).

A receiver that trickles its answer one byte at a time defeats a per-read timeout (each read succeeds in time),
so the sender arms a watchdog for the whole attempt: when the deadline passes it shuts the socket down, which
ends whatever read or write is blocked (contract §8: one overall deadline per attempt).
"""

from __future__ import annotations

import http.client
import socket
import threading
from urllib.parse import urlsplit

from domain.webhooks import SendResult


class _Watchdog:
    """Shuts a connection's socket down when the attempt's deadline passes."""

    def __init__(self, connection: http.client.HTTPConnection, deadline: float) -> None:
        self.connection = connection
        self.fired = threading.Event()
        self._timer = threading.Timer(deadline, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        self.fired.set()
        sock = self.connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def _refused(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _connection(url: str, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return connection_class(parts.hostname or "", parts.port, timeout=timeout), target


def http_send(url: str, body: bytes, headers: dict[str, str], timeout: float) -> SendResult:
    """POST once, no redirects followed, within `timeout` seconds overall; the status, or an error word."""
    connection, target = _connection(url, timeout)
    try:
        with _Watchdog(connection, timeout) as watchdog:
            try:
                connection.connect()
                if watchdog.fired.is_set():  # the deadline passed while connecting
                    return SendResult(error="timeout")
                connection.request("POST", target, body=body, headers=headers)
                response = connection.getresponse()
                return SendResult(status=response.status, retry_after=response.getheader("Retry-After"))
            except TimeoutError:
                return SendResult(error="timeout")
            except (OSError, http.client.HTTPException) as exc:
                if watchdog.fired.is_set():
                    return SendResult(error="timeout")
                if isinstance(exc, OSError) and _refused(exc):
                    return SendResult(error="connection refused")
                return SendResult(error="connection error")
    finally:
        connection.close()


def resolve_host(host: str) -> list[str]:
    """Every address the host name resolves to (raises OSError when it does not resolve)."""
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, None)})
