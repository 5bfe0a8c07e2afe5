"""Players' reports and mail (contract §21) moved out of their broadcasts, for a TinyDB data dir or an export made
before they had their own tables (PostgreSQL's migration V8 does the same in SQL).

They were kept as lists on the broadcast document (`reports`, `mail`): each report or mail attempt rewrote the whole
broadcast. Moving them keeps their order (creation `seq`) and adds the account and broadcast they belong to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.engine import Transaction
    from storage.postgres import PgTransaction

MOVED = {"reports": "player_reports", "mail": "mail"}


def move_player_records(tx: Transaction | PgTransaction) -> int:
    """Move every broadcast's kept `reports` and `mail` into their tables and drop the lists from the broadcast;
    returns how many records moved (0 once moved: idempotent)."""
    moved = 0
    for broadcast in tx.find("broadcasts"):
        if not any(name in broadcast for name in MOVED):
            continue
        for name, table in MOVED.items():
            items: list[dict[str, Any]] = broadcast.pop(name, None) or []
            for item in items:
                if tx.get(table, item["id"]) is None:
                    tx.put(table, item["id"], item | {"account_id": broadcast["account_id"],
                                                      "broadcast_id": broadcast["id"]})
                    moved += 1
        tx.put("broadcasts", broadcast["id"], broadcast)
    return moved
