"""The audit log's storage (`domain.ports.AuditLog`) on both backends: one document per entry in the `audit` table.

The head of each account's chain (last `seq` and `hash`) is also kept apart, in `audit_heads`, written with every
append; the next entry follows it, so removing the newest entries leaves a gap `audit verify` finds (§16).

TinyDB: an entry's key is `{account}/{seq}` and an ordered index keeps each account's entries by `seq`, so a page
newest-first reads only the entries it shows (plus those a filter skips); the head is one lookup. The store
lock serializes units of work, so reading the head and appending the next `seq` cannot interleave.

PostgreSQL: the `audit` table (schema version 2) with the entry's `seq` as a real column (`number`) under a
unique (account, number) index: two transactions that read the same head both try to insert the same number,
and one of them fails (unique violation or serialization failure), which the unit of work's retry runs again
alone. So `seq` has no gap and no duplicate across processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.access.audit import AuditEntry, AuditQuery
from storage.port import Ordering

if TYPE_CHECKING:
    from storage.engine import Transaction
    from storage.postgres import PgTransaction

TABLE = "audit"
#: The chain's head per account, kept apart from the entries (§16): `{"id": account, "number": seq, "hash"}`,
#: written in the transaction of every append, so removing the newest entries leaves a head they no longer reach.
HEADS = "audit_heads"
HINT = "audit-head:"  # PgTransaction.remembered key: this process's last committed entry of an account
# A remembered head is out of date when an entry follows it, or when it is not the table's entry of its seq.
STALE = (f"EXISTS (SELECT 1 FROM {TABLE} WHERE account_id = %s AND number >= %s) OR NOT EXISTS "
         f"(SELECT 1 FROM {TABLE} WHERE account_id = %s AND number = %s AND doc->>'hash' = %s)")
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


def head_doc(entry: AuditEntry) -> dict[str, Any]:
    """The kept head an appended entry makes."""
    return {"id": entry.account_id, "account_id": entry.account_id, "number": entry.seq, "hash": entry.hash}


def _from_head(doc: dict[str, Any]) -> AuditEntry:
    """The kept head as the entry the next one follows: only its `seq` and `hash` are known (and needed: the
    entry itself may be gone, and the next one must still follow the head, never reuse a removed `seq`)."""
    return AuditEntry(account_id=doc["account_id"], seq=int(doc["number"]), at="", actor_kind="", actor_id="",
                      request_id=None, action="", target_type="", target_id="", before=None, after=None,
                      reason=None, prev_hash="", hash=str(doc["hash"]))


def kept_head(tx: Transaction | PgTransaction, account_id: str) -> tuple[int, str] | None:
    """The head kept apart for the account (`seq`, `hash`), None when none was ever written."""
    doc = tx.get(HEADS, account_id)
    return (int(doc["number"]), str(doc["hash"])) if doc is not None else None


def keep_missing_heads(tx: Transaction | PgTransaction) -> int:
    """Write the kept head of every account whose chain has entries but no head yet (a data dir or an import from
    before heads were kept); returns how many. A head already kept is never touched."""
    written = 0
    for account in tx.find("accounts"):
        if tx.get(HEADS, account["id"]) is None:
            last = tx.ordered(TABLE, CHAIN, CHAIN_ORDER, (account["id"],), last=True)
            if last:
                tx.put(HEADS, account["id"], head_doc(from_doc(last[0])))
                written += 1
    return written


class _Heads:
    """What a unit of work knows of the accounts' heads without reading them: the last entry it appended per
    account (so a bulk of n changes reads the stored head once, not n times over its growing staged entries), and
    the last entry this process committed per account (`remembered`, a hint each adapter checks before it relies
    on it). A savepoint that rolls back makes it forget both."""

    def __init__(self, tx: Transaction | PgTransaction) -> None:
        self._heads: dict[str, AuditEntry] = {}
        self._remember = tx.remember
        self._remembered = tx.remembered

    def _hint(self, account_id: str) -> AuditEntry | None:
        hint = self._remembered.get(HINT + account_id)
        return hint if isinstance(hint, AuditEntry) else None

    def _appended(self, entry: AuditEntry) -> None:
        self._heads[entry.account_id] = entry
        self._remember[HINT + entry.account_id] = entry

    def forget(self) -> None:
        self._heads.clear()
        self._remember.clear()  # rolled-back entries must not become the next transaction's hint


class TinyAuditLog(_Heads):
    """The audit log of one embedded-store transaction. One process owns the store and its lock serializes the
    units of work, so the kept head is the truth (one lookup)."""

    def __init__(self, tx: Transaction) -> None:
        super().__init__(tx)
        self._tx = tx

    def head(self, account_id: str) -> AuditEntry | None:
        if account_id in self._heads:
            return self._heads[account_id]
        kept = self._tx.get(HEADS, account_id)  # one lookup; the head, even when its entry was removed
        if kept is not None:
            return _from_head(kept)
        docs = self._tx.ordered(TABLE, CHAIN, CHAIN_ORDER, (account_id,), last=True)
        return from_doc(docs[0]) if docs else None

    def append(self, entry: AuditEntry) -> bool:
        doc = to_doc(entry)
        self._tx.put(TABLE, doc["id"], doc)
        self._tx.put(HEADS, entry.account_id, head_doc(entry))
        self._appended(entry)
        return True

    def append_all(self, entries: list[AuditEntry]) -> None:
        if not entries:
            return
        self._tx.put_all(TABLE, {doc["id"]: doc for doc in map(to_doc, entries)})
        self._tx.put(HEADS, entries[-1].account_id, head_doc(entries[-1]))
        self._appended(entries[-1])

    def kept_head(self, account_id: str) -> tuple[int, str] | None:
        return kept_head(self._tx, account_id)

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
        if before_seq is not None and before_seq <= head.seq:
            position = min(position, self._position(account_id, before_seq))
        result: list[AuditEntry] = []
        # newest first, a batch at a time: the first as long as the page (an unfiltered page reads only its own
        # entries, however long the log: issue 42), then SCAN_BATCH while a filter skips entries
        batch = SCAN_BATCH if limit is None else min(SCAN_BATCH, limit)
        while position > 0 and (limit is None or len(result) < limit):
            start = max(0, position - batch)
            batch = SCAN_BATCH
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


class PgAuditLog(_Heads):
    """The audit log of one PostgreSQL transaction (the `audit` table, schema version 2).

    Reading an account's head is one round trip; so while this process's remembered head is right, an entry is
    appended in ONE statement that adds it only if no entry follows that head and the head is the table's entry of
    its seq. When another process has appended since, nothing is added and `append` says so: the caller builds the
    entry again on the head read from the table (no abort, no retry).
    """

    def __init__(self, tx: PgTransaction) -> None:
        super().__init__(tx)
        self._tx = tx
        self._hinted: set[str] = set()  # accounts whose head came from the hint, not from the table
        self._stale: set[str] = set()  # accounts whose hint proved stale in this transaction

    def head(self, account_id: str) -> AuditEntry | None:
        if account_id in self._heads:
            return self._heads[account_id]
        hint = self._hint(account_id) if account_id not in self._stale else None
        if hint is not None:
            self._hinted.add(account_id)
            return hint
        kept = self._tx.get(HEADS, account_id)  # the head, even when its entry was removed
        if kept is not None:
            return _from_head(kept)
        rows = self._tx.rows(f"SELECT doc FROM {TABLE} WHERE account_id = %s ORDER BY number DESC LIMIT 1",
                             (account_id,))
        return from_doc(rows[0][0]) if rows else None

    def append(self, entry: AuditEntry) -> bool:
        doc = to_doc(entry)
        account = entry.account_id
        if account in self._hinted and account not in self._heads:
            self._hinted.discard(account)
            if not self._tx.insert(TABLE, doc["id"], doc, unless=STALE, params=(
                    account, entry.seq, account, entry.seq - 1, entry.prev_hash)):
                self._stale.add(account)
                return False  # another process appended since: read the head from the table
        else:
            self._tx.insert(TABLE, doc["id"], doc)
        self._tx.put(HEADS, account, head_doc(entry))
        self._appended(entry)
        return True

    def append_all(self, entries: list[AuditEntry]) -> None:
        if not entries:
            return
        self._tx.insert_all(TABLE, {doc["id"]: doc for doc in map(to_doc, entries)})
        self._tx.put(HEADS, entries[-1].account_id, head_doc(entries[-1]))
        self._appended(entries[-1])

    def kept_head(self, account_id: str) -> tuple[int, str] | None:
        return kept_head(self._tx, account_id)

    def forget(self) -> None:
        super().forget()
        self._hinted.clear()

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
