"""How `serve` listens (contract §8a): waitress, set up for a venue's network.

- Up to `COURTSIDE_CONNECTION_LIMIT` open connections (waitress's default of 100 let a hall of sleeping phones
  stall every new client), watched with poll() instead of select() (which stops at 1,024 descriptors), and the
  process's open-file limit raised to its hard limit to hold them.
- A body-less answer (`304 Not Modified`, `204`) keeps its keep-alive connection: waitress 3.0 closes it because
  it has no Content-Length, so every conditional poll of an output or event page cost a new TCP connection.
"""

from __future__ import annotations

import resource
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
from waitress.task import WSGITask

from domain.settings import Settings


class KeepAliveTask(WSGITask):  # type: ignore[misc]
    """A WSGI task that does not close an HTTP/1.1 keep-alive connection after a response without a body."""

    def set_close_on_finish(self) -> None:
        keep = (not self.has_body and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close")
        if not keep:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
    task_class = KeepAliveTask


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
                           max_request_header_size=16 * settings.max_header_bytes)
    for listening in getattr(server, "map", {}).values():
        if isinstance(listening, BaseWSGIServer):
            listening.channel_class = KeepAliveChannel
    if isinstance(server, BaseWSGIServer):
        server.channel_class = KeepAliveChannel
    return server
