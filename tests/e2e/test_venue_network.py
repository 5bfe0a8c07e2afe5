"""Contract §8a on a real server: a venue's many clients. 1,000 idle keep-alive connections (phones that opened a
page and slept) never keep a new client from being answered, and a `304` keeps its connection for the next poll,
on the output and the event page feeds."""

from __future__ import annotations

import http.client
import socket
import urllib.parse
from collections.abc import Callable, Iterator

import pytest
import requests

from cli.serving import raise_open_file_limit
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
