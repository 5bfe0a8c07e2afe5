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
