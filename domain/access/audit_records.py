"""The audit log's records: who made a change (`Actor`), one entry of a chain (`AuditEntry`) and the list's
filters (`AuditQuery`). Plain values importing nothing of ours, so `domain.ports` (the unit of work's protocol)
and `domain.access.audit` (the rules, which take a unit of work) can both name them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ActorKind(StrEnum):
    """Who made a change: the operator (key), a partner connection, a court's scorer link, a roster's sign-up
    page, or a job of the server itself."""

    OPERATOR = "operator"
    PARTNER = "partner"
    SCORER = "scorer"
    REGISTRATION = "registration"
    PLAYER = "player"  # a person's own link (contract §21): id is their personID
    SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    """The author of the changes of one unit of work: kind, id (operator key ID, connection ID, the scorer link's
    table ID, the sign-up page's roster ID, or the job's name) and the request that made them (None for jobs)."""

    kind: ActorKind
    id: str
    request_id: str | None = None


SYSTEM = Actor(ActorKind.SYSTEM, "courtside")


@dataclass(frozen=True)
class AuditEntry:
    """One entry of an account's chain (stored as is; `body()` is the contract's shape without `hash`)."""

    account_id: str
    seq: int
    at: str
    actor_kind: str
    actor_id: str
    request_id: str | None
    action: str
    target_type: str
    target_id: str
    before: Any
    after: Any
    reason: str | None
    prev_hash: str
    hash: str

    def body(self) -> dict[str, Any]:
        """The entry as the API shows it, without `hash` (what `hash` is computed over)."""
        return {
            "seq": self.seq, "at": self.at, "actor": {"kind": self.actor_kind, "id": self.actor_id},
            "requestID": self.request_id, "action": self.action,
            "target": {"type": self.target_type, "id": self.target_id},
            "before": self.before, "after": self.after, "reason": self.reason, "prevHash": self.prev_hash,
        }

    def view(self) -> dict[str, Any]:
        """The entry as the API and the export show it."""
        return self.body() | {"hash": self.hash}


@dataclass(frozen=True)
class AuditQuery:
    """Filters of `GET /operator/audit` (every one optional)."""

    target_type: str | None = None
    target_id: str | None = None
    actor_kind: str | None = None
    since: str | None = None  # ISO timestamp: entries at or after it

    def matches(self, entry: AuditEntry) -> bool:
        return ((self.target_type is None or entry.target_type == self.target_type)
                and (self.target_id is None or entry.target_id == self.target_id)
                and (self.actor_kind is None or entry.actor_kind == self.actor_kind)
                and (self.since is None or entry.at >= self.since))
