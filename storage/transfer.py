"""Moving a store between backends: `courtside export` writes every document as JSON lines, `courtside import`
loads such a file into an empty store of either backend, keeping IDs, creation order (`seq`), credential hashes
and deliveries. Keys are written sorted, so the same data gives the same file whichever backend held it.

File: a header line `{"courtside": "export", "format": 1, "tables": [...]}`, then one line per document,
`{"doc": {...}, "table": "<name>"}`, table by table in the header's order, each in creation order.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import orjson

from storage.audit_log import keep_missing_heads
from storage.backend import AnyStore
from storage.pg_schema import TABLES
from storage.player_records import move_player_records
from storage.port import StorageError

FORMAT = 1


class ImportRefused(StorageError):
    """The file is not a Courtside export, or the store is not empty."""


def _line(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS) + b"\n"


def export_lines(store: AnyStore) -> Iterator[bytes]:
    """The export of a whole store, line by line (one transaction: a consistent copy)."""
    with store.transaction() as tx:
        yield _line({"courtside": "export", "format": FORMAT, "tables": list(TABLES)})
        for table in TABLES:
            for doc in tx.find(table):
                yield _line({"table": table, "doc": doc})


def export_to(store: AnyStore, out: IO[bytes]) -> int:
    """Write the export to `out`; returns how many documents it holds."""
    count = -1
    for count, line in enumerate(export_lines(store)):  # noqa: B007
        out.write(line)
    return count


def import_from(store: AnyStore, path: Path) -> dict[str, int]:
    """Load an export into an empty store in one transaction; returns the documents loaded per table."""
    lines = path.read_bytes().splitlines()
    try:
        header = orjson.loads(lines[0]) if lines else None
    except orjson.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("courtside") != "export" or header.get("format") != FORMAT:
        raise ImportRefused(f"{path} is not a Courtside export (format {FORMAT}).")
    counts = {table: 0 for table in TABLES}
    with store.transaction() as tx:
        filled = [table for table in TABLES if tx.find(table)]
        if filled:
            raise ImportRefused(f"The store is not empty (it holds {', '.join(filled)}); import needs an empty one.")
        for number, raw in enumerate(lines[1:], start=2):
            try:
                entry = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise ImportRefused(f"{path} line {number} is not JSON; nothing was imported.") from exc
            table, doc = entry.get("table") if isinstance(entry, dict) else None, entry.get("doc")
            if table not in counts or not isinstance(doc, dict) or not isinstance(doc.get("id"), str):
                raise ImportRefused(f"{path} line {number} is not a document of a known table; nothing was imported.")
            tx.put(table, doc["id"], doc)
            counts[table] += 1
        keep_missing_heads(tx)  # an export from before the audit head was kept apart (§16)
        move_player_records(tx)  # an export from before players' reports and mail had their own tables (§21)
    follow = getattr(store, "follow_imported_seq", None)
    if follow is not None:
        follow()
    return counts
