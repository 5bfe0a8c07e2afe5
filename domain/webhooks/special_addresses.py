"""Which IP addresses a webhook may reach (contract §7, §8a): the IANA special-purpose address registries, as a
table in the project rather than the interpreter's `ipaddress` flags, which differ between Python versions (3.11
calls 192.0.0.8 global).

Sources: IANA IPv4 Special-Purpose Address Registry and IPv6 Special-Purpose Address Registry (their "Globally
Reachable" column; "N/A" counts as not reachable), the IPv4 multicast block, and the IPv6 Address Space registry
(only 2000::/3 is global unicast). The most specific entry that contains an address decides.
"""

from __future__ import annotations

import ipaddress
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# (block, globally reachable)
REGISTRY: Final[tuple[tuple[str, bool], ...]] = (
    # IPv4 special-purpose registry
    ("0.0.0.0/8", False),  # "this network"
    ("10.0.0.0/8", False),  # private use
    ("100.64.0.0/10", False),  # shared address space (CGN)
    ("127.0.0.0/8", False),  # loopback
    ("169.254.0.0/16", False),  # link local
    ("172.16.0.0/12", False),  # private use
    ("192.0.0.0/24", False),  # IETF protocol assignments (incl. 192.0.0.0/29, 192.0.0.8/32, 192.0.0.170/31)
    ("192.0.2.0/24", False),  # documentation (TEST-NET-1)
    ("192.31.196.0/24", True),  # AS112-v4
    ("192.52.193.0/24", True),  # AMT
    ("192.88.99.0/24", False),  # deprecated 6to4 relay anycast
    ("192.168.0.0/16", False),  # private use
    ("192.175.48.0/24", True),  # direct delegation AS112 service
    ("198.18.0.0/15", False),  # benchmarking
    ("198.51.100.0/24", False),  # documentation (TEST-NET-2)
    ("203.0.113.0/24", False),  # documentation (TEST-NET-3)
    ("240.0.0.0/4", False),  # reserved
    ("255.255.255.255/32", False),  # limited broadcast
    ("224.0.0.0/4", False),  # multicast
    # IPv6 address space: only global unicast is reachable
    ("::/0", False),
    ("2000::/3", True),
    # IPv6 special-purpose registry
    ("::1/128", False),  # loopback
    ("::/128", False),  # unspecified
    ("::ffff:0:0/96", False),  # IPv4-mapped (the IPv4 address inside is judged too)
    ("64:ff9b::/96", True),  # IPv4-IPv6 translation
    ("64:ff9b:1::/48", False),  # local-use IPv4-IPv6 translation
    ("100::/64", False),  # discard-only
    ("100:0:0:1::/64", False),  # dummy IPv6 prefix
    ("2001::/23", False),  # IETF protocol assignments
    ("2001::/32", False),  # TEREDO (N/A)
    ("2001:1::1/128", True),  # port control protocol anycast
    ("2001:1::2/128", True),  # traversal using relays around NAT anycast
    ("2001:1::3/128", True),  # DNS-SD service registration protocol anycast
    ("2001:2::/48", False),  # benchmarking
    ("2001:3::/32", True),  # AMT
    ("2001:4:112::/48", True),  # AS112-v6
    ("2001:10::/28", False),  # deprecated ORCHID
    ("2001:20::/28", True),  # ORCHIDv2
    ("2001:30::/28", True),  # drone remote ID protocol entity tags
    ("2001:db8::/32", False),  # documentation
    ("2002::/16", False),  # 6to4 (N/A; the IPv4 address inside is judged too)
    ("2620:4f:8000::/48", True),  # direct delegation AS112 service
    ("3fff::/20", False),  # documentation
    ("5f00::/16", False),  # segment routing (SRv6) SIDs
    ("fc00::/7", False),  # unique local
    ("fe80::/10", False),  # link-local unicast
    ("ff00::/8", False),  # multicast
)

_TABLE: Final[list[tuple[Network, bool]]] = sorted(
    ((ipaddress.ip_network(block), reachable) for block, reachable in REGISTRY),
    key=lambda entry: entry[0].prefixlen, reverse=True)  # most specific first


#: The NAT64 well-known prefix (RFC 6052): the IPv4 address is the last 32 bits.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def carried_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries, which is what it reaches and so what is judged: IPv4-mapped
    (`::ffff:a.b.c.d`), 6to4 (`2002::/16`), Teredo, and NAT64's well-known prefix (`64:ff9b::a.b.c.d`, RFC 6052:
    `64:ff9b::7f00:1` is 127.0.0.1 through the translator)."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)


def globally_reachable(ip: IPAddress) -> bool:
    """Whether the registries mark the address globally reachable (IPv4 outside every entry is)."""
    for network, reachable in _TABLE:
        if network.version == ip.version and ip in network:
            return reachable
    return True
