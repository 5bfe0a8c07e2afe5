"""Public links reached by an unguessable key (contract §10 outputs, §11 scorer and sign-up pages).

A key is a kind prefix plus 43 URL-safe characters; storage keeps it with its SHA-256, by which a presented key
is looked up before the stored key is compared with it in constant time.
"""

from __future__ import annotations

import dataclasses
import hmac
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol, TypeVar

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.ids import hash_secret, new_secret
from domain.models import Link, LinkKind
from domain.ports import UnitOfWork

MAX_KEY_LENGTH = 200
PUBLIC_KEY = re.compile(r"\b(?:out|scr|reg|evt|ply)_[A-Za-z0-9_-]{16,}")


def redact(text: str) -> str:
    """Text for a log with every public link key replaced by `…` (contract §8a: `/score/…`)."""
    return PUBLIC_KEY.sub("…", text)


class Keyed(Protocol):
    @property
    def key(self) -> str | None: ...


K = TypeVar("K", bound=Keyed)


def new_key(prefix: str) -> tuple[str, str]:
    """A fresh key (`{prefix}_` + 43 URL-safe characters) and its hash."""
    key = new_secret(prefix)
    return key, hash_secret(key)


def plausible(key: str, prefix: str) -> bool:
    """Whether a presented key is worth a lookup (its kind's prefix, a sane length)."""
    return key.startswith(f"{prefix}_") and len(key) <= MAX_KEY_LENGTH


def same_key(found: Sequence[K], key: str) -> K | None:
    """The record found by the key's hash whose stored key equals the presented one (constant-time compare)."""
    if not found:
        return None
    stored = found[0].key
    if stored is None or not hmac.compare_digest(stored.encode(), key.encode()):
        return None
    return found[0]


def ensure_link(uow: UnitOfWork, *, kind: LinkKind, prefix: str, account_id: str, target_id: str,
                now: datetime) -> Link:
    """The target's link of this kind, made on first read (one per target)."""
    link = uow.links.get(f"{kind}:{target_id}")
    if link is None:
        key, key_hash = new_key(prefix)
        link = uow.links.put(Link(id=f"{kind}:{target_id}", account_id=account_id, kind=kind, target_id=target_id,
                                  key=key, key_hash=key_hash, created_on=iso(now)))
    return link


def rotate_link(uow: UnitOfWork, link: Link, *, prefix: str, now: datetime) -> Link:
    """A new key for the link (also after a revoke); the old URL answers 404 at once."""
    before = dataclasses.replace(link)
    link.key, link.key_hash = new_key(prefix)
    link.created_on = iso(now)
    rotated = uow.links.put(link)
    audit.record(uow, account_id=link.account_id, action=AuditAction.LINK_ROTATED, target=(TargetType.LINK, link.id),
                 before=before, after=rotated, now=now)
    return rotated


def link_by_key(uow: UnitOfWork, *, key: str, kind: LinkKind, prefix: str) -> Link | None:
    """The live link of this kind a public URL names, or None."""
    link = same_key(uow.links.find(key_hash=hash_secret(key)), key) if plausible(key, prefix) else None
    return link if link is not None and link.kind == kind else None


def close_broadcast_links(uow: UnitOfWork, *, account_id: str, broadcast_id: str) -> None:
    """A deleted broadcast's event page link and its people's personal links go with it (§8a: closed at once, as a
    rotation closes them): the links table's write refuses every kept snapshot of their pages at once, and no link
    is left that names nothing. Their targets are the broadcast's ID, or `{broadcastID}/...`."""
    for link in uow.links.find(account_id=account_id):
        if link.target_id == broadcast_id or link.target_id.startswith(broadcast_id + "/"):
            uow.links.delete(link.id)
