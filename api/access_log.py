"""The access log (contract §8a): a line for every request (method, path, status, ms, request ID), written off the
request path and off the network loop.

A request only appends a tuple to a deque (atomic in CPython: no lock, no `LogRecord`, no formatting). One writer
thread wakes every `INTERVAL` seconds, formats every waiting line at once and hands them to the
`courtside.access` logger as ONE record (one line per request in its message), so the log's handlers (the
server's log thread redacts link keys and writes, `cli/serve.py`) run once per batch instead of once per request.
With 200 output pages polling, a record, a format and a write per poll cost more than the polls (issue 37).
Lines reach the log at most `INTERVAL` late; `flush()` writes the waiting ones now (a clean stop, tests).
"""

from __future__ import annotations

import atexit
import collections
import logging
import threading

LOGGER = logging.getLogger("courtside.access")
INTERVAL = 0.2  # seconds between batches: a line is at most this late in the log
Entry = tuple[str, str, "int | str", float, str]


class AccessLog:
    """Lines waiting to be written, and the one thread that writes them in batches."""

    def __init__(self, logger: logging.Logger = LOGGER, interval: float = INTERVAL) -> None:
        self.logger = logger
        self.interval = interval
        self.waiting: collections.deque[Entry] = collections.deque()
        self._writer: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._write_lock = threading.Lock()  # one batch at a time, in order (the writer, or a flush)
        self._wake = threading.Event()

    def add(self, method: str, path: str, status: int | str, ms: float, request_id: str) -> None:
        """Queue one request's line (the hot path: one append)."""
        self.waiting.append((method, path, status, ms, request_id))
        if self._writer is None:
            self._start()

    def _start(self) -> None:
        with self._start_lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._run, name="courtside-access-log", daemon=True)
                self._writer.start()

    def _run(self) -> None:
        while True:
            self._wake.wait(self.interval)
            self._wake.clear()
            self.flush()

    def flush(self) -> None:
        """Write every waiting line now, as one record."""
        with self._write_lock:
            lines = []
            waiting = self.waiting
            try:
                while True:
                    method, path, status, ms, request_id = waiting.popleft()
                    lines.append(f"{method} {path} {status} {ms:.1f}ms request_id={request_id}")
            except IndexError:
                pass
            if lines and self.logger.isEnabledFor(logging.INFO):
                self.logger.info("%s", "\n".join(lines))


ACCESS = AccessLog()
atexit.register(ACCESS.flush)
