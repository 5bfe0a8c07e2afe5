"""Idempotent scoring operations (contract §17 `opID`): a retried request changes nothing and answers as the
first did, for 24 hours, on both backends and across processes.

The answer is stored in the same unit of work as the change it answers, so a process killed between the write
and the answer leaves both or neither: a retry after a crash finds the answer, or runs the operation once.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from domain.clock import iso, parse_iso
from domain.errors import Invalid
from domain.models import Operation
from domain.ports import UnitOfWork

KEPT = timedelta(hours=24)
OP_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_op_id(op_id: Any) -> str | None:
    """The `opID` of a body (None when absent); 1-64 URL-safe characters, else 400 `validation_failed`."""
    if op_id is None:
        return None
    if not isinstance(op_id, str) or not OP_ID.fullmatch(op_id):
        raise Invalid("opID must be 1-64 URL-safe characters (A-Z, a-z, 0-9, '-', '_').",
                      details={"json": {"opID": ["1-64 URL-safe characters."]}})
    return op_id


def _key(scope: str, op_id: str) -> str:
    return "op_" + hashlib.sha256(f"{scope}\n{op_id}".encode()).hexdigest()[:40]


def once(uow: UnitOfWork, *, account_id: str, scope: str, op_id: str | None, now: datetime,
         act: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `act` (the change and its answer) unless `op_id` already ran on `scope` in the last 24 hours; then
    answer the remembered answer and change nothing. The answer is stored in this unit of work."""
    if op_id is None:
        return act()
    key = _key(scope, op_id)
    known = uow.operations.get(key)
    if known is not None and known.account_id == account_id and parse_iso(known.created_on) > now - KEPT:
        return known.answer
    answer = act()
    uow.operations.put(Operation(id=key, account_id=account_id, scope=scope, op_id=op_id, answer=answer,
                                 created_on=iso(now)))
    return answer


def forget_expired(uow: UnitOfWork, *, now: datetime) -> int:
    """Delete the answers remembered for more than 24 hours: they answer no retry any more, and the table then
    holds about one day of taps instead of every tap ever made. Returns how many went."""
    expired = [op.id for op in uow.operations.find() if parse_iso(op.created_on) <= now - KEPT]
    for key in expired:
        uow.operations.delete(key)
    return len(expired)
