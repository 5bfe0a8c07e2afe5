"""Idempotent creates (contract §23 `Idempotency-Key`): a create retried with the same key and the same body
within 24 hours answers the first answer again (status and body, even if the thing changed since) and creates
nothing; the same key with another body is `409 idempotency_key_reused`.

Keys are kept per caller (a connection, or the operator key) and route (method and path), in the table of
remembered answers that §17's `opID`s use (`domain/match/operations.py`, forgotten after the same 24 hours). The
answer is stored in the unit of work of the create itself, so a crash leaves both or neither; two processes
storing the same key collide on one record and the loser runs again and finds the winner's answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from domain.clock import iso, parse_iso
from domain.errors import Conflict, Invalid
from domain.match.operations import KEPT
from domain.models import Operation
from domain.ports import UnitOfWork
from domain.webhooks.types import KEY_MAX, KEY_MIN


@dataclass(frozen=True)
class Answer:
    """A create's first answer: HTTP status and the exact body."""

    status: int
    body: str


def check_key(key: str) -> str:
    """An `Idempotency-Key` of 8-200 characters (as §7's), else `400 invalid_idempotency_key`."""
    if not KEY_MIN <= len(key) <= KEY_MAX:
        raise Invalid(f"Idempotency-Key must be {KEY_MIN} to {KEY_MAX} characters.", code="invalid_idempotency_key")
    return key


def _record_id(scope: str, key: str) -> str:
    return "idk_" + hashlib.sha256(f"{scope}\n{key}".encode()).hexdigest()[:40]


def remembered(uow: UnitOfWork, *, account_id: str, scope: str, key: str, fingerprint: str,
               now: datetime) -> Answer | None:
    """The first answer of `key` on `scope` (caller and route) in the last 24 hours, if any; the same key with a
    body of another `fingerprint` is `409 idempotency_key_reused`."""
    known = uow.operations.get(_record_id(scope, key))
    if known is None or known.account_id != account_id or parse_iso(known.created_on) <= now - KEPT:
        return None
    if known.answer.get("fingerprint") != fingerprint:
        raise Conflict("This Idempotency-Key was used with another body; use a new key for a new request.",
                       code="idempotency_key_reused")
    return Answer(status=int(known.answer["status"]), body=str(known.answer["body"]))


def remember(uow: UnitOfWork, *, account_id: str, scope: str, key: str, fingerprint: str, answer: Answer,
             now: datetime) -> None:
    """Keep the create's answer under `key` (in the create's own unit of work) for 24 hours."""
    uow.operations.put(Operation(
        id=_record_id(scope, key), account_id=account_id, scope=scope, op_id=key[:64],
        answer={"status": answer.status, "body": answer.body, "fingerprint": fingerprint}, created_on=iso(now),
    ))
