"""Webhook URLs and secrets: which destinations are allowed (no private or special address, §8a), new signing
secrets, and the Standard Webhooks signature headers."""

from __future__ import annotations

import base64
import ipaddress
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from standardwebhooks import Webhook

from domain.errors import Invalid
from domain.webhooks.special_addresses import carried_ipv4, globally_reachable
from domain.webhooks.types import _IPV6_URL, _URL, SECRET_PREFIX, URL_MAX, USER_AGENT, Resolver


def new_webhook_secret(token_bytes: Callable[[int], bytes] = secrets.token_bytes) -> str:
    """`whsec_` + standard base64 of 32 random bytes (the Standard Webhooks secret format)."""
    return SECRET_PREFIX + base64.b64encode(token_bytes(32)).decode()


def _blocked(address: str) -> bool:
    """Anything the IANA special-purpose registries do not mark globally reachable (loopback, private,
    link-local, shared 100.64/10, documentation, benchmarking, reserved, ...) or multicast: the table in
    `domain/webhooks/special_addresses.py`, never the interpreter's `ipaddress` flags (contract §8a).

    IPv4 addresses carried inside IPv6 (mapped `::ffff:a.b.c.d`, 6to4 `2002::/16`, Teredo, NAT64 `64:ff9b::/96`)
    are judged by the IPv4 address they carry (`carried_ipv4`).
    """
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.split("%", 1)[0])
    carried = carried_ipv4(ip)
    if carried is not None:
        return _blocked(str(carried))
    return not globally_reachable(ip)


def valid_url(url: str) -> bool:
    """An absolute http(s) URL of at most 1000 characters (`URL_PATTERN`, or a bracketed IPv6 literal host)."""
    if len(url) > URL_MAX:
        return False
    if _URL.fullmatch(url):
        return True
    literal = _IPV6_URL.fullmatch(url)
    if literal is None:
        return False
    try:
        ipaddress.IPv6Address(literal.group(1))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class UrlGuard:
    """Which webhook URLs may be called: checked when a URL is configured and again before every attempt (the
    host may resolve elsewhere by then). Built once from the settings; `resolve` is the DNS lookup."""

    allow_private: bool
    resolve: Resolver

    def check(self, url: str) -> None:
        """An absolute http(s) URL; unless private addresses are allowed, none of its addresses is internal
        (400 `webhook_url_not_allowed`)."""
        if not valid_url(url):
            raise Invalid("The webhook URL must be an absolute http(s) URL of at most 1000 characters.",
                          details={"json": {"url": ["Not a valid absolute http(s) URL."]}})
        if self.allow_private:
            return
        host = urlsplit(url).hostname or ""
        try:
            addresses = [host] if _is_ip(host) else self.resolve(host)
        except OSError as exc:
            raise Invalid(f"The webhook host {host} does not resolve.", code="webhook_url_not_allowed") from exc
        if not addresses or any(_blocked(address) for address in addresses):
            raise Invalid(f"The webhook URL {url} points to an address that is not globally routable.",
                          code="webhook_url_not_allowed")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def signed_headers(*, event_id: str, body: str, secret: str, now: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt, signed with `secret` at `now`."""
    timestamp = datetime.fromtimestamp(int(now.timestamp()), tz=UTC)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(timestamp.timestamp())),
        "webhook-signature": Webhook(secret).sign(event_id, timestamp, body),
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
