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
#: The route a scorer link's mark on a match carries (`remember(..., route=SCORER)`).
SCORER = "scorer"


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


def recall(uow: UnitOfWork, *, account_id: str, scope: str, op_id: str, now: datetime) -> Operation | None:
    """The operation remembered for `op_id` on `scope` in the last 24 hours, if any."""
    known = uow.operations.get(_key(scope, op_id))
    if known is not None and known.account_id == account_id and parse_iso(known.created_on) > now - KEPT:
        return known
    return None


def remember(uow: UnitOfWork, *, account_id: str, scope: str, op_id: str, now: datetime, answer: dict[str, Any],
             route: str | None = None) -> None:
    """Keep `answer` for `op_id` on `scope` (in this unit of work). `route` names another route than the
    scope's own that applied it (the record's `scope` is then `route:scope`): that route's retry answers as it
    is then, never the first answer in another route's shape."""
    uow.operations.put(Operation(id=_key(scope, op_id), account_id=account_id,
                                 scope=f"{route}:{scope}" if route else scope, op_id=op_id, answer=answer,
                                 created_on=iso(now)))


def once(uow: UnitOfWork, *, account_id: str, scope: str, op_id: str | None, now: datetime,
         act: Callable[[], dict[str, Any]], current: Callable[[], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run `act` (the change and its answer) unless `op_id` already ran on `scope` in the last 24 hours; then
    answer the remembered answer and change nothing. The answer is stored in this unit of work.

    `scope` is a match (operator routes) or a scorer link's table; when another route applied `op_id` to the
    scope's match (§17: same match, any route), nothing changes either and `current()` answers the state as it is
    now, in this route's shape."""
    if op_id is None:
        return act()
    known = recall(uow, account_id=account_id, scope=scope, op_id=op_id, now=now)
    if known is not None:
        return known.answer if known.scope == scope or current is None else current()
    answer = act()
    remember(uow, account_id=account_id, scope=scope, op_id=op_id, now=now, answer=answer)
    return answer


def once_on_court(uow: UnitOfWork, *, account_id: str, table_id: str, match_id: str | None, op_id: str | None,
                  now: datetime, act: Callable[[], tuple[dict[str, Any], str]],
                  current: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`once` for a scorer link's action on its court (`match_id`: the court's match before the action, if any).

    A retry on the link answers its first answer. An `op_id` an operator route already applied to the court's
    match changes nothing and answers `current()`. `act` answers the new state and the match it acted on, which is
    marked with `op_id` too, so the operator routes see that it was applied."""
    if op_id is None:
        return act()[0]
    scope = f"table:{table_id}"
    known = recall(uow, account_id=account_id, scope=scope, op_id=op_id, now=now)
    if known is not None:
        return known.answer
    if match_id is not None and recall(uow, account_id=account_id, scope=match_id, op_id=op_id, now=now):
        return current()
    answer, acted = act()
    remember(uow, account_id=account_id, scope=scope, op_id=op_id, now=now, answer=answer)
    remember(uow, account_id=account_id, scope=acted, op_id=op_id, now=now, answer={}, route=SCORER)
    return answer


def forget_expired(uow: UnitOfWork, *, now: datetime) -> int:
    """Delete the answers remembered for more than 24 hours: they answer no retry any more, and the table then
    holds about one day of taps instead of every tap ever made. Returns how many went."""
    expired = [op.id for op in uow.operations.find() if parse_iso(op.created_on) <= now - KEPT]
    for key in expired:
        uow.operations.delete(key)
    return len(expired)
