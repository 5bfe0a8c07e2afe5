"""The audit log's storage (`domain.ports.AuditLog`) on both backends: one document per entry in the `audit` table.

TinyDB: an entry's key is `{account}/{seq}` and an ordered index keeps each account's entries by `seq`, so the
head is O(log n) and a page newest-first reads only the entries it shows (plus those a filter skips). The store
lock serializes units of work, so reading the head and appending the next `seq` cannot interleave.

PostgreSQL: the `audit` table (schema version 2) with the entry's `seq` as a real column (`number`) under a
unique (account, number) index: two transactions that read the same head both try to insert the same number,
and one of them fails (unique violation or serialization failure), which the unit of work's retry runs again
alone. So `seq` has no gap and no duplicate across processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.audit import AuditEntry, AuditQuery
from storage.engine import Ordering

if TYPE_CHECKING:
    from storage.engine import Transaction
    from storage.postgres import PgTransaction

TABLE = "audit"
CHAIN = "chain"
CHAIN_ORDER = Ordering(group=("account_id",), sort=("number",), where={})
SCAN_BATCH = 200


def to_doc(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": key_of(entry.account_id, entry.seq), "account_id": entry.account_id, "number": entry.seq,
        "at": entry.at, "actor_kind": entry.actor_kind, "actor_id": entry.actor_id,
        "request_id": entry.request_id, "action": entry.action, "target_type": entry.target_type,
        "target_id": entry.target_id, "before": entry.before, "after": entry.after, "reason": entry.reason,
        "prev_hash": entry.prev_hash, "hash": entry.hash,
    }


def from_doc(doc: dict[str, Any]) -> AuditEntry:
    return AuditEntry(
        account_id=doc["account_id"], seq=doc["number"], at=doc["at"], actor_kind=doc["actor_kind"],
        actor_id=doc["actor_id"], request_id=doc.get("request_id"), action=doc["action"],
        target_type=doc["target_type"], target_id=doc["target_id"], before=doc.get("before"),
        after=doc.get("after"), reason=doc.get("reason"), prev_hash=doc["prev_hash"], hash=doc["hash"],
    )


def key_of(account_id: str, seq: int) -> str:
    return f"{account_id}/{seq}"


class TinyAuditLog:
    """The audit log of one embedded-store transaction."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def head(self, account_id: str) -> AuditEntry | None:
        docs = self._tx.ordered(TABLE, CHAIN, CHAIN_ORDER, (account_id,), last=True)
        return from_doc(docs[0]) if docs else None

    def append(self, entry: AuditEntry) -> None:
        doc = to_doc(entry)
        self._tx.put(TABLE, doc["id"], doc)

    def newest(
        self, account_id: str, *, before_seq: int | None, limit: int | None, query: AuditQuery,
    ) -> list[AuditEntry]:
        if query.target_id is not None:  # one record's history: its few entries, by the target index
            found = [from_doc(doc) for doc in self._tx.find(TABLE, account_id=account_id,
                                                            target_id=query.target_id)]
            found = [e for e in found if query.matches(e) and (before_seq is None or e.seq < before_seq)]
            found.sort(key=lambda e: e.seq, reverse=True)
            return found if limit is None else found[:limit]
        head = self.head(account_id)
        if head is None:
            return []
        position = self._tx.ordered_count(TABLE, CHAIN, CHAIN_ORDER, (account_id,))
        if before_seq is not None:
            position = min(position, self._position(account_id, before_seq))
        result: list[AuditEntry] = []
        while position > 0 and (limit is None or len(result) < limit):  # newest first, a batch at a time
            start = max(0, position - SCAN_BATCH)
            docs = self._tx.ordered(TABLE, CHAIN, CHAIN_ORDER, (account_id,), start=start, stop=position)
            for doc in reversed(docs):
                entry = from_doc(doc)
                if query.matches(entry) and (before_seq is None or entry.seq < before_seq):
                    result.append(entry)
                    if limit is not None and len(result) >= limit:
                        break
            position = start
        return result

    def _position(self, account_id: str, seq: int) -> int:
        """How many of the account's entries come before the one numbered `seq` (a cursor names an entry)."""
        rank = self._tx.rank(TABLE, CHAIN, CHAIN_ORDER, key_of(account_id, seq))
        if rank is not None:
            return rank
        return sum(1 for doc in self._tx.find(TABLE, account_id=account_id) if doc["number"] < seq)

    def oldest(self, account_id: str, *, after_seq: int, limit: int) -> list[AuditEntry]:
        start = 0 if after_seq <= 0 else self._position(account_id, after_seq) + 1
        docs = self._tx.ordered(TABLE, CHAIN, CHAIN_ORDER, (account_id,), start=start, stop=start + limit)
        return [from_doc(doc) for doc in docs]


class PgAuditLog:
    """The audit log of one PostgreSQL transaction (the `audit` table, schema version 2)."""

    def __init__(self, tx: PgTransaction) -> None:
        self._tx = tx

    def head(self, account_id: str) -> AuditEntry | None:
        rows = self._tx.rows(f"SELECT doc FROM {TABLE} WHERE account_id = %s ORDER BY number DESC LIMIT 1",
                             (account_id,))
        return from_doc(rows[0][0]) if rows else None

    def append(self, entry: AuditEntry) -> None:
        doc = to_doc(entry)
        self._tx.insert(TABLE, doc["id"], doc)

    def newest(
        self, account_id: str, *, before_seq: int | None, limit: int | None, query: AuditQuery,
    ) -> list[AuditEntry]:
        clauses: list[str] = ["account_id = %s"]
        params: list[Any] = [account_id]
        for column, value in (("target_type", query.target_type), ("target_id", query.target_id),
                              ("actor_kind", query.actor_kind)):
            if value is not None:
                clauses.append(f"{column} = %s")
                params.append(value)
        if query.since is not None:
            clauses.append("doc->>'at' >= %s")
            params.append(query.since)
        if before_seq is not None:
            clauses.append("number < %s")
            params.append(before_seq)
        page = "" if limit is None else f" LIMIT {int(limit)}"
        rows = self._tx.rows(f"SELECT doc FROM {TABLE} WHERE {' AND '.join(clauses)} ORDER BY number DESC{page}",
                             params)
        return [from_doc(row[0]) for row in rows]

    def oldest(self, account_id: str, *, after_seq: int, limit: int) -> list[AuditEntry]:
        rows = self._tx.rows(f"SELECT doc FROM {TABLE} WHERE account_id = %s AND number > %s ORDER BY number "
                             f"LIMIT {int(limit)}", (account_id, after_seq))
        return [from_doc(row[0]) for row in rows]
