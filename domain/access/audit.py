"""The audit log (contract §16): who changed what, when, and why, as a hash chain per account.

Every service that changes a match, a draw, a check-in, event settings, a link, a key, an app or a connection
makes ONE call, in the unit of work that makes the change:

    audit.record(uow, account_id=..., action=AuditAction.MATCH_STARTED, target=(TargetType.MATCH, match.id),
                 before=old, after=new, now=now)

so the entry is committed with the change or not at all (TinyDB: the same journal line; PostgreSQL: the same
transaction). The actor (who, through which request) is not an argument: the API layer names it when it opens the
unit of work (`uow.actor`, an `Actor`), and a scheduler job names itself.

An entry's `hash` is the hex SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) of the entry without
`hash`; `prevHash` is the previous entry's `hash` (64 zeros for `seq` 1). `seq` is 1, 2, ... without a gap per
account: the unit of work reads the account's last entry and appends the next (TinyDB: under the store lock;
PostgreSQL: a unique (account, seq) index, so of two transactions racing for one `seq` one loses and runs again).

`before` and `after` keep only what changed (both given: the top-level fields whose values differ); secrets are
written as "…" (key material, hashes of keys, webhook secrets, link keys).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from domain.access.audit_records import SYSTEM as SYSTEM
from domain.access.audit_records import Actor as Actor
from domain.access.audit_records import ActorKind as ActorKind
from domain.access.audit_records import AuditAction as AuditAction
from domain.access.audit_records import AuditEntry as AuditEntry
from domain.access.audit_records import AuditQuery as AuditQuery
from domain.access.audit_records import TargetType as TargetType
from domain.clock import iso
from domain.errors import Invalid
from domain.pagination import DEFAULT_LIMIT, decode_cursor, encode_cursor
from domain.ports import UnitOfWork

ZERO_HASH = "0" * 64
REDACTED = "…"
REASON_MAX = 500
SECRET_FIELDS = frozenset({
    "key", "key_hash", "keyHash", "secret", "client_secret", "client_secret_hash", "clientSecret",
    "clientSecretHash", "webhook_secret", "token", "access_token", "refresh_token", "operator_key", "operatorKey",
    "code_challenge", "dynamic_url_id", "internal_id", "url_key",
})
UNKEPT = frozenset({"updatedOn", "scorers"})  # the entry's `at` says when; who scored lately is the actor


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted, no spaces, UTF-8 (the same bytes as Python's
    `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()`)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def entry_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(body)).hexdigest()


# ----------------------------------------------------------------------------------------------- what is kept
def _camel(name: str) -> str:
    """`table_id` -> `tableID`, `game_scores` -> `gameScores`: the API's spelling."""
    head, *rest = name.split("_")
    return head + "".join("ID" if part == "id" else part[:1].upper() + part[1:] for part in rest)


def redact(value: Any) -> Any:
    """JSON with every secret field (at any depth) written as "…"."""
    if isinstance(value, dict):
        return {key: (REDACTED if item is not None and key in SECRET_FIELDS
                      else redact(item) if isinstance(item, dict | list) else item)
                for key, item in value.items()}
    if isinstance(value, list):
        return [redact(item) if isinstance(item, dict | list) else item for item in value]
    return value


_NAMES: dict[type, tuple[tuple[str, str], ...]] = {}


def _names(model: type) -> tuple[tuple[str, str], ...]:
    """A model's field names and their API names (camelCase), without the storage `seq`; once per model."""
    names = _NAMES.get(model)
    if names is None:
        names = _NAMES[model] = tuple((f.name, _camel(f.name)) for f in dataclasses.fields(model)
                                      if f.name != "seq")
    return names


def _record(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _fields(value: Any) -> dict[str, Any] | None:
    """A record's fields by their API names, values as they are."""
    if value is None:
        return None
    if _record(value):
        return {camel: getattr(value, name) for name, camel in _names(type(value))}
    return dict(value)


def _json(value: Any) -> Any:
    result: Any = orjson.loads(orjson.dumps(value))
    return result


def snapshot(value: Any) -> Any:
    """What an entry keeps of a record: a model (dataclass) as its fields in camelCase without its storage
    `seq`, a mapping as is; JSON only (secrets are redacted by `kept`)."""
    return _json(_fields(value))


def changed(before: Any, after: Any) -> tuple[Any, Any]:
    """Both objects: only the top-level fields whose values differ (the `id` kept for reference)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return before, after
    keys = [key for key in dict.fromkeys([*before, *after])
            if before.get(key) != after.get(key) and key not in UNKEPT]
    kept_before = {key: before.get(key) for key in keys}
    kept_after = {key: after.get(key) for key in keys}
    if "id" in after and after.get("id") == before.get("id"):
        kept_before["id"] = kept_after["id"] = after["id"]
    return kept_before, kept_after


def kept(before: Any, after: Any) -> tuple[Any, Any]:
    """What an entry keeps of a change: the differing fields of the two records, as JSON, then secrets redacted
    (so a rotated key shows as "…" before and after, its value in neither). Fields are compared before they are
    turned into JSON, so only what changed is converted (the write path of every change runs this)."""
    if _record(before) and type(before) is type(after):  # the common case, field by field without copies
        kept_before, kept_after = {}, {}
        for name, camel in _names(type(after)):
            old, new = getattr(before, name), getattr(after, name)
            if (old != new and camel not in UNKEPT) or name == "id":
                kept_before[camel], kept_after[camel] = old, new
        if kept_before.get("id") != kept_after.get("id"):
            kept_before.pop("id"), kept_after.pop("id")
        kept_before, kept_after = _json((kept_before, kept_after))
    else:
        kept_before, kept_after = _json(changed(_fields(before), _fields(after)))
        if kept_before is None or kept_after is None:  # a creation or a deletion: the fields it has
            kept_before, kept_after = _present(kept_before), _present(kept_after)
    return redact(kept_before), redact(kept_after)


def _present(record: Any) -> Any:
    """A whole record as a creation or deletion keeps it: without the fields it does not have (null)."""
    if not isinstance(record, dict):
        return record
    return {key: value for key, value in record.items() if value is not None and key not in UNKEPT}


def check_reason(reason: str | None) -> str | None:
    """A reason as an entry keeps it: trimmed, None when blank, at most 500 characters (else 400)."""
    if reason is None:
        return None
    if len(reason) > REASON_MAX:
        raise Invalid(f"reason is at most {REASON_MAX} characters.",
                      details={"json": {"reason": [f"Longer than maximum length {REASON_MAX}."]}})
    return reason.strip() or None


# ----------------------------------------------------------------------------------------------- writing
def build_entry(
    previous: AuditEntry | None, *, account_id: str, actor: Actor, action: AuditAction,
    target: tuple[TargetType, str],
    before: Any, after: Any, reason: str | None, at: str,
) -> AuditEntry:
    """The entry that follows `previous` in the account's chain (pure: seq, prevHash and hash computed here)."""
    seq = previous.seq + 1 if previous is not None else 1
    prev_hash = previous.hash if previous is not None else ZERO_HASH
    fields: dict[str, Any] = dict(
        account_id=account_id, seq=seq, at=at, actor_kind=str(actor.kind), actor_id=actor.id,
        request_id=actor.request_id, action=str(action), target_type=str(target[0]), target_id=target[1],
        before=before,
        after=after, reason=reason, prev_hash=prev_hash)
    return AuditEntry(**fields, hash=entry_hash(AuditEntry(**fields, hash="").body()))


def record(
    uow: UnitOfWork, *, account_id: str, action: AuditAction, target: tuple[TargetType, str], before: Any = None,
    after: Any = None, reason: str | None = None, now: datetime, actor: Actor | None = None,
) -> AuditEntry | None:
    """Append one entry for a change made in this unit of work (the one call every changing service makes).

    `action` and `target`'s type are members of the vocabularies (`AuditAction`, `TargetType`: StrEnums, so an
    entry stores the same strings as ever); `target` is `(type, id)`, e.g. `(TargetType.MATCH, "mat_…")`;
    `before`/`after` are records (models or dicts; None for a creation or a deletion): the entry keeps only their
    differing fields, secrets redacted. Returns the entry
    (None while the log is switched off, which only benchmarks do). `actor` is for the rare service that itself
    establishes who acts (a connection born in the code exchange); the unit of work's actor otherwise.
    """
    if not uow.audit_enabled:
        return None
    kept_before, kept_after = kept(before, after)
    while True:  # twice at most: an adapter's remembered head may be out of date (see `AuditLog.append`)
        entry = build_entry(uow.audit.head(account_id), account_id=account_id, actor=actor or uow.actor,
                            action=action, target=target, before=kept_before, after=kept_after, reason=reason,
                            at=iso(now))
        if uow.audit.append(entry):
            return entry


def record_created(
    uow: UnitOfWork, *, account_id: str, action: AuditAction, target_type: TargetType, created: Sequence[Any],
    now: datetime,
) -> None:
    """Append one entry per record created in this unit of work (each as `record` with `after` the record and
    `target` (`target_type`, its `id`) would write it, in order): the first through `record`, the others in one
    write with the kept head written once (a new draw's real matches: one entry each, not one write each)."""
    if not uow.audit_enabled or not created:
        return
    first, *rest = created
    previous = record(uow, account_id=account_id, action=action, target=(target_type, first.id), after=first,
                      now=now)
    actor, at, entries = uow.actor, iso(now), []
    for item in rest:
        kept_before, kept_after = kept(None, item)
        previous = build_entry(previous, account_id=account_id, actor=actor, action=action,
                               target=(target_type, item.id), before=kept_before, after=kept_after, reason=None,
                               at=at)
        entries.append(previous)
    uow.audit.append_all(entries)


# ----------------------------------------------------------------------------------------------- reading
def list_entries(
    uow: UnitOfWork, *, account_id: str, query: AuditQuery, limit: int | None, cursor: str | None,
) -> tuple[list[AuditEntry], str | None]:
    """One page of the account's entries matching `query`, newest first, and the next page's cursor."""
    limit = limit or DEFAULT_LIMIT
    before = decode_cursor(cursor) if cursor is not None else None  # the list's one cursor: the last seq shown
    if before is not None and before <= 1:
        return [], None
    found = uow.audit.newest(account_id, before_seq=before, limit=limit + 1, query=query)
    page = found[:limit]
    return page, encode_cursor(page[-1].seq) if len(found) > limit else None


def history(uow: UnitOfWork, *, account_id: str, target_type: str, target_id: str) -> list[AuditEntry]:
    """Every entry about one record, oldest first (a match's history)."""
    query = AuditQuery(target_type=target_type, target_id=target_id)
    return list(reversed(uow.audit.newest(account_id, before_seq=None, limit=None, query=query)))


# ----------------------------------------------------------------------------------------------- checking
@dataclass(frozen=True)
class Verdict:
    """What walking one account's chain found: how many entries, the first bad `seq` (None: intact), and the
    head kept apart from the entries (`seq`, `hash`; None when none is kept)."""

    account_id: str
    count: int
    first_bad: int | None
    head: tuple[int, str] | None = None

    @property
    def intact(self) -> bool:
        return self.first_bad is None


def walk(account_id: str, entries: Iterable[AuditEntry], head: tuple[int, str] | None = None, *,
         newer_allowed: bool = False) -> Verdict:
    """Check a chain given oldest first: seq 1, 2, ... without a gap, each `prevHash` the previous `hash`, each
    `hash` the hash of its entry. An entry changed, removed or moved makes the first `seq` where the chain breaks
    bad (for a removed or moved entry: the seq expected at that place).

    `head` is the head kept apart (§16; None: not checked): the chain must end at it, with its hash, so removing
    the newest entries is found too (bad: the first removed `seq`); entries beyond a head of `(0, zeros)` (none
    kept) are bad from `seq` 1.
    `newer_allowed`: the head was read before the entries (a running server's API), so entries after it are
    changes made meanwhile, not a fault."""
    expected_seq, prev_hash, count = 1, ZERO_HASH, 0
    at_head: str | None = None
    for entry in entries:
        count += 1
        if entry.seq != expected_seq or entry.prev_hash != prev_hash or entry.hash != entry_hash(entry.body()):
            bad = min(expected_seq, entry.seq) if entry.seq >= 1 else expected_seq
            return Verdict(account_id, count, bad, head)
        if head is not None and entry.seq == head[0]:
            at_head = entry.hash
        expected_seq, prev_hash = expected_seq + 1, entry.hash
    last = expected_seq - 1
    if head is None:
        return Verdict(account_id, count, None, head)
    if last < head[0]:
        return Verdict(account_id, count, last + 1, head)  # the newest entries were removed
    if at_head != head[1] and head[0] > 0:
        return Verdict(account_id, count, head[0], head)
    if last > head[0] and not newer_allowed:
        return Verdict(account_id, count, head[0] + 1, head)  # entries the head does not know of
    return Verdict(account_id, count, None, head)


def kept_head(uow: UnitOfWork, account_id: str) -> tuple[int, str]:
    """The account's head as kept apart from the entries (`seq`, `hash`); `(0, 64 zeros)` before the first."""
    return uow.audit.kept_head(account_id) or (0, ZERO_HASH)


def head_line(head: tuple[int, str]) -> str:
    """The head as a paper copy carries it: "Audit 2035 · 3f2a9c0b1d4e…" (seq and the hash's first 12 digits)."""
    return f"Audit {head[0]} · {head[1][:12]}…"


def chain(uow: UnitOfWork, account_id: str, *, batch: int = 500) -> Iterator[AuditEntry]:
    """Every entry of the account in the order storage holds them (by `seq`), oldest first."""
    after = 0
    while True:
        found = uow.audit.oldest(account_id, after_seq=after, limit=batch)
        yield from found
        if len(found) < batch:
            return
        after = found[-1].seq


def from_view(account_id: str, view: Mapping[str, Any]) -> AuditEntry:
    """An entry from its API / export shape (`view()`), for checking an exported file."""
    return AuditEntry(
        account_id=account_id, seq=view["seq"], at=view["at"], actor_kind=view["actor"]["kind"],
        actor_id=view["actor"]["id"], request_id=view["requestID"], action=view["action"],
        target_type=view["target"]["type"], target_id=view["target"]["id"], before=view["before"],
        after=view["after"], reason=view["reason"], prev_hash=view["prevHash"], hash=view["hash"],
    )
