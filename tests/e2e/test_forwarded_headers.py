"""Contract §8a, proxies (issue 37, point 1), through the real `courtside serve` (waitress): with
`COURTSIDE_TRUSTED_PROXIES=1` the forwarded scheme and host make the links and the forwarded client address keys
the rate limits, so one client behind the proxy no longer locks out every other; without it they are ignored."""

from __future__ import annotations

from collections.abc import Callable

import requests

from tests.server_process import ServerProcess

BOTH_BACKENDS = True
LIMIT = 3
FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.club.example", "X-Forwarded-Port": "443"}


def event_url(server: ServerProcess, headers: dict[str, str]) -> str:
    made = server.call("POST", "/operator/broadcasts", {"name": "Day", "tables": [{"label": "Court 1"}]})["data"]
    response = requests.post(f"{server.base}/operator/broadcasts/{made['id']}/event-page/enable", timeout=10,
                             headers={"Authorization": f"Bearer {server.operator_key}", **headers})
    assert response.status_code == 200, response.text
    return str(response.json()["data"]["url"])


def token_attempt(server: ServerProcess, client: str) -> int:
    return requests.post(server.base + "/oauth/token", timeout=10, headers={"X-Forwarded-For": client},
                         data={"grant_type": "authorization_code", "client_id": "nobody", "code": "x"}).status_code


def test_a_trusted_proxys_forwarded_headers_make_links_and_key_rate_limits(
        server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(env={"COURTSIDE_TRUSTED_PROXIES": "1", "COURTSIDE_TOKEN_RATE_LIMIT": str(LIMIT)})
    assert event_url(server, FORWARDED).startswith("https://scores.club.example/event/evt_")
    statuses = [token_attempt(server, "203.0.113.5") for _ in range(LIMIT + 1)]
    assert statuses[-1] == 429 and 429 not in statuses[:-1], statuses
    assert token_attempt(server, "203.0.113.6") != 429  # another client behind the same proxy


def test_without_trusted_proxies_forwarded_headers_are_ignored(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory(env={"COURTSIDE_TOKEN_RATE_LIMIT": str(LIMIT)})
    assert event_url(server, FORWARDED).startswith(f"http://127.0.0.1:{server.port}/event/evt_")
    statuses = [token_attempt(server, f"203.0.113.{n}") for n in range(LIMIT + 1)]
    assert statuses[-1] == 429, statuses  # a forged X-Forwarded-For does not buy new quota
