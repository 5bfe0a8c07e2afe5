"""Identifiers and secrets we mint: opaque prefixed strings from a CSPRNG, and their stored hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_id(prefix: str) -> str:
    """An opaque ID such as `brd_3kF...`: the prefix names the kind of resource."""
    return f"{prefix}_{secrets.token_urlsafe(12).replace('-', 'x').replace('_', 'y')}"


def new_secret(prefix: str) -> str:
    """A credential: 32 random bytes behind a kind prefix (`svc_token`, `svc_test`, `svc_op`...)."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def hash_secret(secret: str) -> str:
    """What storage keeps of a credential: its SHA-256 (credentials have 256 bits of entropy)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def same_secret(secret: str, stored_hash: str) -> bool:
    """Constant-time check of a presented credential against a stored hash."""
    return hmac.compare_digest(hash_secret(secret), stored_hash)


#: A partner's own identifier (`externalID` of a match, player list, team or player): 1 to 200 characters, no
#: `/` (it names the resource in a path, where a slash, even percent-encoded, is not reachable), no control
#: characters, no leading or trailing white space. One regular expression, valid in Python and ECMAScript alike,
#: so the API document states as its `pattern` the rule the server applies.
EXTERNAL_ID_MAX = 200
_EXTERNAL_CHAR = r"[^/\x00-\x1f\x7f-\x9f]"
_EXTERNAL_EDGE = r"[^/\s\x00-\x1f\x7f-\x9f]"
EXTERNAL_ID = f"^{_EXTERNAL_EDGE}(?:{_EXTERNAL_CHAR}{{0,{EXTERNAL_ID_MAX - 2}}}{_EXTERNAL_EDGE})?$"
EXTERNAL_ID_MESSAGE = ("An externalID is 1 to 200 characters without '/', control characters or leading and "
                       "trailing white space.")
