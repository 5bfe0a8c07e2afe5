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


class AuditAction(StrEnum):
    """What a change did, as its entry names it (`noun.verb`); the one list of them (a test checks that every
    action the code writes is here)."""

    APP_CREATED = "app.created"
    BROADCAST_CHANGED = "broadcast.changed"
    BROADCAST_CREATED = "broadcast.created"
    BROADCAST_DELETED = "broadcast.deleted"
    BROADCAST_EVENT_SETTINGS_CHANGED = "broadcast.event_settings_changed"
    BROADCAST_HANDED_OVER = "broadcast.handed_over"
    BROADCAST_PLANNED = "broadcast.planned"
    CONNECTION_APPROVED = "connection.approved"
    CONNECTION_REVOKED = "connection.revoked"
    COURT_CHANGED = "court.changed"
    DRAW_COMPLETED = "draw.completed"
    DRAW_CREATED = "draw.created"
    DRAW_DELETED = "draw.deleted"
    DRAW_REPLACED = "draw.replaced"
    DRAW_WITHDRAWN = "draw.withdrawn"
    KEY_CREATED = "key.created"
    KEY_ROTATED = "key.rotated"
    LINK_DISABLED = "link.disabled"
    LINK_ENABLED = "link.enabled"
    LINK_REVOKED = "link.revoked"
    LINK_ROTATED = "link.rotated"
    MATCH_CALLED = "match.called"
    MATCH_CANCELLED = "match.cancelled"
    MATCH_COMPLETED = "match.completed"
    MATCH_CORRECTED = "match.corrected"
    MATCH_CREATED = "match.created"
    MATCH_MOVED = "match.moved"
    MATCH_PLANNED = "match.planned"
    MATCH_POINT = "match.point"
    MATCH_POINT_UNDONE = "match.point_undone"
    MATCH_RESULT_ENTERED = "match.result_entered"
    MATCH_RETIRED = "match.retired"
    MATCH_SCORED = "match.scored"
    MATCH_STARTED = "match.started"
    MATCH_STOPPED = "match.stopped"
    MATCH_SYNCED = "match.synced"
    MATCH_WALKOVER = "match.walkover"
    PERSON_CHECKED_IN = "person.checked_in"
    PERSON_CHECKED_OUT = "person.checked_out"
    PLAYER_CHANGED = "player.changed"
    PLAYER_CREATED = "player.created"
    PLAYER_DELETED = "player.deleted"
    PLAYER_IMPORTED = "player.imported"
    PLAYER_LIST_CHANGED = "player_list.changed"
    PLAYER_LIST_CREATED = "player_list.created"
    PLAYER_LIST_SYNCED = "player_list.synced"
    REPORT_CANCELLED = "report.cancelled"
    REPORT_CONFIRMED = "report.confirmed"
    REPORT_DISPUTED = "report.disputed"
    REPORT_SUBMITTED = "report.submitted"
    ROSTER_CHANGED = "roster.changed"
    ROSTER_CREATED = "roster.created"
    ROSTER_DELETED = "roster.deleted"
    ROSTER_SIGNED_UP = "roster.signed_up"
    TABLE_QUEUE_REORDERED = "table.queue_reordered"
    TEAM_CHANGED = "team.changed"
    TEAM_SYNCED = "team.synced"
    WEBHOOK_CONFIGURED = "webhook.configured"
    WEBHOOK_SECRET_ROTATED = "webhook.secret_rotated"


class TargetType(StrEnum):
    """The kind of record an audit entry is about (its `target.type`)."""

    APP = "app"
    BROADCAST = "broadcast"
    CONNECTION = "connection"
    DRAW = "draw"
    DRAW_MATCH = "draw_match"  # a planned draw match not yet made a real match (`match.planned`)
    KEY = "key"
    LINK = "link"
    MATCH = "match"
    OUTPUT = "output"
    PERSON = "person"
    PLAYER = "player"
    PLAYER_LIST = "player_list"
    ROSTER = "roster"
    TABLE = "table"
    TEAM = "team"


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
