"""The PostgreSQL schema, as numbered migrations: `courtside db upgrade` applies the missing ones, in order, once.

Every model table holds whole documents as `jsonb` (`doc`) beside real columns for what the domain looks up:
generated stored columns copied from the document (so a write is still one whole-document put) with indexes and
unique constraints on them: externalIDs per connection, table queues, delivery due times, credential hashes.
"""

from __future__ import annotations

import psycopg

# Tables of the storage port (`storage.repository.StoreUnitOfWork`), in the order an export lists them.
TABLES = (
    "accounts", "apps", "connections", "credentials", "codes", "broadcasts", "tables", "rosters", "player_lists",
    "teams", "matches", "outputs", "webhook_configs", "deliveries", "links", "audit",
    "operations", "draws", "draw_parts", "audit_heads", "player_reports", "mail",
)

# Real columns per table: the document fields the domain finds records by (`find(field=value)` uses them).
COLUMNS: dict[str, tuple[str, ...]] = {
    "accounts": (),
    "apps": ("account_id", "client_id"),
    "connections": ("account_id", "app_id"),
    "credentials": ("account_id", "connection_id", "family_id", "kind"),
    "codes": ("account_id", "family_id"),
    "broadcasts": ("account_id", "default_player_list_id"),
    "tables": ("account_id", "broadcast_id", "manager_connection_id"),
    "rosters": ("account_id", "player_list_id"),
    "player_lists": ("account_id", "connection_id", "external_id", "roster_id"),
    "teams": ("account_id", "connection_id", "external_id", "roster_id"),
    "matches": ("account_id", "connection_id", "external_id", "table_id", "status"),
    "outputs": ("account_id", "broadcast_id", "key_hash"),
    "webhook_configs": ("account_id",),
    "deliveries": ("account_id", "connection_id", "status", "next_attempt_on"),
    "links": ("account_id", "kind", "target_id", "key_hash"),
    "audit": ("account_id", "target_type", "target_id", "actor_kind"),
    "operations": ("account_id",),
    "draws": ("account_id", "broadcast_id"),
    "draw_parts": ("draw_id",),
    "audit_heads": (),
    "player_reports": ("account_id", "broadcast_id", "match_id", "status"),
    "mail": ("account_id", "broadcast_id", "status"),
}


def _table_sql(table: str) -> str:
    columns = "".join(f",\n  {column} text GENERATED ALWAYS AS (doc->>'{column}') STORED" for column in COLUMNS[table])
    indexes = "".join(f"CREATE INDEX {table}_{column} ON {table} ({column});\n" for column in COLUMNS[table])
    return (f"CREATE TABLE {table} (\n  id text PRIMARY KEY,\n  seq bigint NOT NULL,\n  doc jsonb NOT NULL"
            f"{columns}\n);\n"
            f"CREATE INDEX {table}_seq ON {table} (seq);\n{indexes}")


V1_TABLES = TABLES[:TABLES.index("links") + 1]
V1 = "CREATE SEQUENCE doc_seq;\n" + "".join(_table_sql(table) for table in V1_TABLES) + """
-- one record per externalID and connection (idempotent sync under concurrent processes)
CREATE UNIQUE INDEX matches_external ON matches (connection_id, external_id);
CREATE UNIQUE INDEX player_lists_external ON player_lists (connection_id, external_id)
  WHERE connection_id IS NOT NULL AND external_id IS NOT NULL;
CREATE UNIQUE INDEX teams_external ON teams (connection_id, external_id);
-- each table's queue: pending matches in (queue_order, seq) order
CREATE INDEX matches_queue ON matches (table_id, ((doc->'queue_order')), seq, id) WHERE status = 'pending';
-- due deliveries, earliest first
CREATE INDEX deliveries_due ON deliveries (next_attempt_on, seq) WHERE status = 'pending';
-- an output link is found by the hash of its key
CREATE UNIQUE INDEX outputs_key ON outputs (key_hash);
CREATE UNIQUE INDEX links_key ON links (key_hash) WHERE key_hash IS NOT NULL;
-- rate-limit windows shared by every process: one count per key and window
CREATE TABLE rate_windows (
  key text NOT NULL,
  window_start bigint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
"""

# The audit log (contract §16): one row per entry; `number` is the entry's `seq`, gapless per account, so two
# transactions appending the same number collide on `audit_chain` and one of them runs again.
V2 = _table_sql("audit") + """
ALTER TABLE audit ADD COLUMN number bigint GENERATED ALWAYS AS ((doc->>'number')::bigint) STORED;
CREATE UNIQUE INDEX audit_chain ON audit (account_id, number);
CREATE INDEX audit_target ON audit (account_id, target_id, number);
"""

# Scoring operations' answers (contract §17 `opID`), one row per scope and opID, written in the operation's own
# transaction.
V3 = _table_sql("operations")

# Draws (contract §13): one document per draw, found by account and broadcast.
V4 = _table_sql("draws")

# A draw's state in parts (its head, its entries, one per draw match), found by draw: a change writes only the parts
# it changed instead of the whole draw.
V5 = _table_sql("draw_parts")

# Reads that depend on what an operation is about, never on the account's history (issue 42): a table's matches of
# one status (its active match, its results), each table's and each player list's completed matches by
# `completed_on` (who rests now: a range read of the last hours), a draw's matches in the court pool, and an
# account's tables in creation order (the court board's page). `doc->'field'` is the expression `find` and the
# ordered reads compare on for a field without a column (storage/postgres.py `_expr`), so these indexes serve them.
V6 = """
CREATE INDEX matches_table_status ON matches (table_id, status);
CREATE INDEX matches_completed ON matches (table_id, (doc->'completed_on'), seq, id) WHERE status = 'completed';
CREATE INDEX matches_list_status ON matches ((doc->'player_list_id'), status);
CREATE INDEX matches_list_completed ON matches ((doc->'player_list_id'), (doc->'completed_on'), seq, id)
  WHERE status = 'completed';
CREATE INDEX matches_list_ref_status ON matches (connection_id, (doc->'player_list_external_id'), status);
CREATE INDEX matches_list_ref_completed ON matches
  (connection_id, (doc->'player_list_external_id'), (doc->'completed_on'), seq, id) WHERE status = 'completed';
CREATE INDEX matches_draw_status ON matches ((doc->'draw_id'), status, table_id);
CREATE INDEX tables_account_seq ON tables (account_id, seq, id);
"""

# The audit chain's head per account, kept apart from its entries (contract §16), filled from the entries there are.
V7 = _table_sql("audit_heads") + """
INSERT INTO audit_heads (id, seq, doc)
SELECT account_id, nextval('doc_seq'), jsonb_build_object(
  'id', account_id, 'account_id', account_id, 'number', number, 'hash', doc->>'hash')
FROM (SELECT DISTINCT ON (account_id) account_id, number, doc FROM audit ORDER BY account_id, number DESC) AS heads;
"""

# Players' reported results and mail (contract §21) in their own tables, moved out of the broadcast documents that
# held them (a report or a mail attempt rewrote its whole broadcast), in the order they were kept there.
V8 = _table_sql("player_reports") + _table_sql("mail") + """
INSERT INTO player_reports (id, seq, doc)
SELECT item->>'id', nextval('doc_seq'),
       item || jsonb_build_object('account_id', b.doc->'account_id', 'broadcast_id', b.id)
FROM broadcasts b, jsonb_array_elements(coalesce(b.doc->'reports', '[]')) WITH ORDINALITY AS kept(item, n)
ORDER BY b.seq, kept.n;
INSERT INTO mail (id, seq, doc)
SELECT item->>'id', nextval('doc_seq'),
       item || jsonb_build_object('account_id', b.doc->'account_id', 'broadcast_id', b.id)
FROM broadcasts b, jsonb_array_elements(coalesce(b.doc->'mail', '[]')) WITH ORDINALITY AS kept(item, n)
ORDER BY b.seq, kept.n;
UPDATE broadcasts SET doc = doc - 'reports' - 'mail' WHERE doc ? 'reports' OR doc ? 'mail';
"""

# A match's deliveries per connection (contract §23): the next event's `sequence` and the dispatcher's order read
# them by `doc->'match_id'`.
V9 = """
CREATE INDEX deliveries_match ON deliveries (connection_id, (doc->'match_id'));
"""

MIGRATIONS: tuple[str, ...] = (V1, V2, V3, V4, V5, V6, V7, V8, V9)
LATEST = len(MIGRATIONS)
UPGRADE_LOCK = 0x636F757274  # advisory lock key: one `db upgrade` at a time


def current_version(conn: psycopg.Connection) -> int:
    """The schema version of the database (0 when Courtside never upgraded it)."""
    exists = conn.execute("SELECT to_regclass('courtside_schema') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return 0
    row = conn.execute("SELECT max(version) FROM courtside_schema").fetchone()
    return int(row[0] or 0) if row else 0


def upgrade(conn: psycopg.Connection) -> tuple[int, int]:
    """Apply the missing migrations, each in its own transaction; returns (version before, version after).

    Idempotent, and safe when several processes run it at once (they queue on an advisory lock).
    """
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (UPGRADE_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS courtside_schema (version integer PRIMARY KEY, "
                     "applied_on timestamptz NOT NULL DEFAULT now())")
        before = current_version(conn)
        for number, sql in enumerate(MIGRATIONS, start=1):
            if number > before:
                with conn.transaction():
                    conn.execute(sql.encode())
                    conn.execute("INSERT INTO courtside_schema (version) VALUES (%s)", (number,))
    return before, current_version(conn)
