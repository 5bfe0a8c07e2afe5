"""Contract §8a: webhook addresses are judged by the IANA special-purpose registries (a table in the project)."""

from __future__ import annotations

import ipaddress

import pytest

from domain.webhooks.special_addresses import carried_ipv4, globally_reachable


@pytest.mark.parametrize("address", [
    "192.0.0.8", "192.0.0.1", "192.0.0.170", "192.0.2.5", "198.18.0.1", "198.19.255.255", "100.64.0.1",
    "10.1.2.3", "127.0.0.1", "169.254.1.1", "0.1.2.3", "240.0.0.1", "255.255.255.255", "224.0.0.251",
    "::1", "::", "fe80::1", "fd00::1", "ff02::1", "2001:db8::1", "64:ff9b:1::1", "3fff::1", "5f00::1", "100::1",
    "2001:2::1", "2001:10::1", "4000::1",
])
def test_not_globally_reachable(address: str) -> None:
    assert not globally_reachable(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", [
    "8.8.8.8", "1.1.1.1", "192.31.196.1", "192.175.48.1", "2606:4700::1111", "64:ff9b::808:808", "2001:4:112::1",
    "2001:20::1", "2620:4f:8000::1",
])
def test_globally_reachable(address: str) -> None:
    assert globally_reachable(ipaddress.ip_address(address))


@pytest.mark.parametrize(("address", "carried"), [
    ("64:ff9b::7f00:1", "127.0.0.1"), ("64:ff9b::a00:1", "10.0.0.1"), ("64:ff9b::808:808", "8.8.8.8"),
    ("::ffff:127.0.0.1", "127.0.0.1"), ("2002:6440:1::1", "100.64.0.1"),
])
def test_an_ipv6_address_carrying_an_ipv4_one_is_judged_by_it(address: str, carried: str) -> None:
    assert carried_ipv4(ipaddress.ip_address(address)) == ipaddress.ip_address(carried)


def test_an_address_carrying_none_says_so() -> None:
    assert carried_ipv4(ipaddress.ip_address("2606:4700::1111")) is None
    assert carried_ipv4(ipaddress.ip_address("8.8.8.8")) is None
