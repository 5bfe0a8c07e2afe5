"""How `serve` listens (contract §8a): waitress, set up for a venue's network.

- Up to `COURTSIDE_CONNECTION_LIMIT` open connections (waitress's default of 100 let a hall of sleeping phones
  stall every new client), watched with poll() instead of select() (which stops at 1,024 descriptors), and the
  process's open-file limit raised to its hard limit to hold them.
- A body-less answer (`304 Not Modified`, `204`) keeps its keep-alive connection: waitress 3.0 closes it because
  it has no Content-Length, so every conditional poll of an output or event page cost a new TCP connection.
- Forwarded headers reach the app when `COURTSIDE_TRUSTED_PROXIES` is set (waitress 3 clears them by default,
  before the app's ProxyFix could read them); without trusted proxies waitress still clears them.
- A public feed's poll is answered in waitress's network loop, as soon as it is parsed, from the app's kept
  snapshots (`CourtsideFlask.kept_feed_answer`): `304` while the page's ETag is current (most polls of a venue's
  screens and phones), else `200` with the kept body; no worker thread, no WSGI environ, no Flask. Only the first
  poll after a change builds the snapshot in a worker. The worker threads stay free for the operator and the
  partners, who then do not queue behind hundreds of pollers (§8a, docs/decisions.md).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
from waitress.task import WSGITask
from waitress.utilities import build_http_date

from api.context import FeedAnswer
from api.platform import log_access
from cli import event_loop
from cli.event_loop import EpollLoop
from domain.settings import Settings


class KeepAliveTask(WSGITask):  # type: ignore[misc]
    """A WSGI task that does not close an HTTP/1.1 keep-alive connection after a response without a body."""

    def set_close_on_finish(self) -> None:
        keep = (not self.has_body and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close")
        if not keep:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's channel with `KeepAliveTask`, telling the server's `EpollLoop` (if any) when it opens or
    closes, so the loop asks only changed connections for their state."""

    task_class = KeepAliveTask

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        self._report(self._fileno)

    def del_channel(self, map: Any = None) -> None:
        fd = self._fileno
        super().del_channel(map)
        self._report(fd)

    def _report(self, fd: int | None) -> None:
        loop = getattr(self.server, "venue_loop", None)
        if loop is not None:
            loop.opened_or_closed(fd)


FeedAnswers = Callable[[str, str, str | None, str | None], FeedAnswer | None]


class AnswerKeptFeedsInLoop:
    """The server's `add_task`, called by a channel in the network loop when a request is parsed: a feed poll
    that `answers` answers from memory is written to the channel at once; anything else goes to a worker.

    With `log_each`, every poll answered here gets its access-log line as a request the app answers does (§8a:
    method, path, status, ms, request ID; queued, so the log thread redacts the key and writes it)."""

    def __init__(self, hand_over: Callable[[HTTPChannel], None], answers: FeedAnswers, *,
                 log_each: bool = False) -> None:
        self.hand_over = hand_over
        self.answers = answers
        self.log_each = log_each

    def __call__(self, channel: HTTPChannel) -> None:
        if not self._answered(channel):
            self.hand_over(channel)

    def _answered(self, channel: HTTPChannel) -> bool:
        # Called with the channel's requests_lock held and this request the only one: no worker serves it yet.
        request = channel.requests[0]
        if (request.error or request.version != "1.1" or len(channel.requests) != 1 or not channel.connected
                or channel.total_outbufs_len  # an earlier answer still being sent: keep the order simple
                or request.headers.get("CONNECTION", "").lower() == "close"):
            return False
        started = time.perf_counter()
        answer = self.answers(request.command, request.path, request.headers.get("IF_NONE_MATCH"),
                              request.headers.get("SERVICE_REQUEST_ID"))
        if answer is None:
            return False
        if self.log_each:  # before the answer leaves: a client that has it finds its line queued
            log_access(request.command, request.path, answer.status[:3], (time.perf_counter() - started) * 1000,
                       answer.request_id)
        head = "".join(f"{name}: {value}\r\n" for name, value in answer.headers)
        channel.write_soon(f"HTTP/1.1 {answer.status}\r\n{head}Date: {build_http_date(time.time())}\r\n"
                           "Server: waitress\r\n\r\n".encode("latin-1") + answer.body)
        request.close()
        channel.requests.pop(0)
        channel.last_activity = time.time()
        return True


def raise_open_file_limit(wanted: int) -> None:
    """Let this process hold `wanted` connections (up to the hard limit the system allows)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted)) if hard != resource.RLIM_INFINITY else max(soft, wanted)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def venue_server(app: Any, settings: Settings) -> BaseWSGIServer | MultiSocketServer:
    """The waitress server for `app` with the venue settings (raises OSError when it cannot listen)."""
    raise_open_file_limit(settings.connection_limit + 256)
    server = create_server(app, host=settings.host, port=settings.port, threads=settings.threads,
                           connection_limit=settings.connection_limit, asyncore_use_poll=True,
                           channel_timeout=settings.idle_timeout, backlog=2048,
                           # far above ours, so that our own limit answers with the JSON envelope
                           max_request_header_size=16 * settings.max_header_bytes,
                           # waitress drops X-Forwarded-* unless told to keep them; with trusted proxies the app's
                           # ProxyFix (api/app.py) believes exactly COURTSIDE_TRUSTED_PROXIES of them (§8a)
                           clear_untrusted_proxy_headers=settings.trusted_proxies == 0)
    answers: FeedAnswers | None = getattr(app, "kept_feed_answer", None)
    listeners = [server] if isinstance(server, BaseWSGIServer) else [
        listening for listening in getattr(server, "map", {}).values() if isinstance(listening, BaseWSGIServer)]
    loop = EpollLoop() if event_loop.available() else None
    if loop is not None:
        server.asyncore = loop  # its run() turns this loop instead of waitress's
    for listening in listeners:
        listening.channel_class = KeepAliveChannel
        listening.venue_loop = loop
        if answers is not None:
            listening.add_task = AnswerKeptFeedsInLoop(
                listening.add_task, answers, log_each=settings.access_log)
    return server
