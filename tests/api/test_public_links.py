"""Contract §8a, public links and rate limits on the venue network: `COURTSIDE_PUBLIC_URL` is the root of every
public link (outputs, scorer, sign-up, event page); unset, the request's scheme and host, as up to
`COURTSIDE_TRUSTED_PROXIES` proxies forwarded them (never more); sign-ups are limited per client address, with
successes and failures counted apart; PostgreSQL's limit rows of anonymous callers do not pile up."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from domain.clock import FixedClock
from tests.api.test_self_registration import make_roster, sign_up_path, submit
from tests.conftest import Api

FORWARDED = {"X-Forwarded-For": "203.0.113.7, 198.51.100.2", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "scores.club.example", "X-Forwarded-Port": "8443"}


def links(operator: Api, partner: Api, **headers: str) -> list[str]:
    """Every kind of public link of one broadcast, read with these request headers."""
    broadcast = operator.post("/operator/broadcasts", json={"name": "Day", "tables": [{"label": "Court 1"}]},
                              headers=headers).json["data"]
    table = broadcast["tables"][0]["id"]
    roster = make_roster(partner)
    found = [o["url"] for o in operator.get(f"/operator/broadcasts/{broadcast['id']}/outputs",
                                            headers=headers).json["data"]]
    for path in (f"/operator/tables/{table}/scorer", f"/operator/rosters/{roster['id']}/registration",
                 f"/operator/broadcasts/{broadcast['id']}/event-page"):
        found.append(operator.get(path, headers=headers).json["data"]["url"])
    return found


@pytest.mark.parametrize("settings", [{"public_url": "https://scores.club.example"}], indirect=True)
def test_the_public_url_is_the_root_of_every_link(operator: Api, partner: Api) -> None:
    found = links(operator, partner)
    assert len(found) == 4
    assert all(url.startswith("https://scores.club.example/") for url in found), found
    assert [url.split("/")[3] for url in found] == ["outputs", "score", "register", "event"]


def test_without_proxies_forwarded_headers_are_ignored(operator: Api, partner: Api) -> None:
    assert all(url.startswith("http://localhost/") for url in links(operator, partner, **FORWARDED))


@pytest.mark.parametrize("settings", [{"trusted_proxies": 1}], indirect=True)
def test_a_trusted_proxy_gives_scheme_host_and_port(operator: Api, partner: Api) -> None:
    found = links(operator, partner, **FORWARDED)
    assert all(url.startswith("https://scores.club.example:8443/") for url in found), found


@pytest.mark.parametrize("settings", [{"trusted_proxies": 1, "registration_rate_limit": 1}], indirect=True)
def test_sign_up_limits_key_on_the_forwarded_client_address(operator: Api, partner: Api, app: Flask) -> None:
    path = sign_up_path(operator, make_roster(partner)["id"])

    def from_address(address: str, first: str) -> Any:
        client = app.test_client()
        headers = {"X-Forwarded-For": address}
        page = client.get(path, headers=headers).get_data(as_text=True)
        token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        return client.post(path, data={"csrf": token, "firstName": first, "lastName": "X"}, headers=headers)

    assert from_address("203.0.113.7", "A").status_code == 201
    assert from_address("203.0.113.7", "B").status_code == 429  # the same player's phone
    assert from_address("203.0.113.8", "C").status_code == 201  # another phone behind the same proxy


@pytest.mark.parametrize("settings", [{"registration_rate_limit": 2, "registration_failure_limit": 3}],
                         indirect=True)
def test_failed_sign_ups_and_successes_are_limited_apart(operator: Api, partner: Api, app: Flask,
                                                         clock: FixedClock) -> None:
    path = sign_up_path(operator, make_roster(partner)["id"])
    visitor = app.test_client()
    for _ in range(2):  # typos: a name missing
        assert submit(visitor, path, firstName="", lastName="Silva").status_code == 400
    assert submit(visitor, path, firstName="Ana", lastName="Silva").status_code == 201  # not locked out
    assert submit(visitor, path, firstName="ana", lastName="SILVA").status_code == 409  # a third failure
    assert submit(visitor, path, firstName="Bo", lastName="Chen").status_code == 429  # failures used up
    clock.advance(seconds=600)
    assert submit(visitor, path, firstName="Bo", lastName="Chen").status_code == 201
    assert submit(visitor, path, firstName="Cy", lastName="Diaz").status_code == 201
    limited = submit(visitor, path, firstName="Di", lastName="Evans")
    assert limited.status_code == 429 and 0 < int(limited.headers["Retry-After"]) <= 600
