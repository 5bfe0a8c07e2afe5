"""Players' reports and mail (contract §21) have their own tables; a data dir, an export or a PostgreSQL database
from before, which kept them as lists on the broadcast document, has them moved there (TinyDB when the store
opens and on import, PostgreSQL by migration V8), in their order, the broadcast document left without them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import psycopg

from domain.models import ReportStatus
from domain.public import mail, personal
from domain.settings import Settings
from storage import pg_schema
from storage.backend import AnyStore, open_store
from storage.engine import Store
from storage.postgres import PgStore
from storage.repository import unit_of_work
from storage.transfer import FORMAT, import_from
from tests.pg_cluster import Cluster

ACCOUNT, BROADCAST = "acc_legacy", "brd_legacy"


def legacy_report(number: int, status: str) -> dict[str, Any]:
    return {"id": f"rpt_{number}", "match_id": f"mat_{number}", "games": [{"a": 11, "b": number}],
            "reported_by": "per_ann", "side": "a", "status": status, "reported_on": f"2026-11-23T10:0{number}:00Z",
            "settled_by": None}


def legacy_mail(number: int, status: str) -> dict[str, Any]:
    return {"id": f"mail_{number}", "to": f"p{number}@example.org", "subject": f"Called to Court {number}",
            "body": "Your page: ...", "status": status, "attempts": 0 if status == "pending" else 1,
            "next_attempt_on": "2026-11-23T10:00:00Z" if status != "sent" else None,
            "created_on": f"2026-11-23T10:0{number}:00Z", "sent_on": None, "last_error": None}


LEGACY_BROADCAST = {
    "id": BROADCAST, "account_id": ACCOUNT, "name": "Club Day", "table_ids": [], "created_on": "2026-11-23T09:00:00Z",
    "updated_on": "2026-11-23T09:00:00Z", "self_report": True,
    "reports": [legacy_report(1, "confirmed"), legacy_report(2, "waiting"), legacy_report(3, "disputed")],
    "mail": [legacy_mail(1, "sent"), legacy_mail(2, "failing"), legacy_mail(3, "pending")],
}


def assert_moved(store: AnyStore) -> None:
    """The three reports and three messages are in their tables, as the desk and `GET /operator/mail` read them,
    and the broadcast document no longer holds them."""
    with unit_of_work(store) as uow:
        reports = personal.desk_reports(uow, account_id=ACCOUNT, broadcast_id=BROADCAST, status=None)
        assert [(r["reportID"], r["status"], r["gameScores"]) for r in reports] == [
            ("rpt_3", "disputed", [{"a": 11, "b": 3}]), ("rpt_2", "waiting", [{"a": 11, "b": 2}]),
            ("rpt_1", "confirmed", [{"a": 11, "b": 1}])]
        waiting = personal.desk_reports(uow, account_id=ACCOUNT, broadcast_id=BROADCAST, status=ReportStatus.WAITING)
        assert [r["reportID"] for r in waiting] == ["rpt_2"]
        assert {(r.account_id, r.broadcast_id, r.side) for r in uow.player_reports.find()} == {
            (ACCOUNT, BROADCAST, "a")}
        listed = mail.list_mail(uow, account_id=ACCOUNT, broadcast_id=None, status=None)
        assert [(m["id"], m["status"], m["broadcastID"]) for m in listed] == [
            ("mail_3", "pending", BROADCAST), ("mail_2", "failing", BROADCAST), ("mail_1", "sent", BROADCAST)]
        assert [m.id for m in uow.mail.find(account_id=ACCOUNT)] == ["mail_1", "mail_2", "mail_3"]  # kept order
        broadcast = uow.broadcasts.get(BROADCAST)
        assert broadcast is not None and broadcast.name == "Club Day" and broadcast.self_report is True
    with store.transaction() as tx:
        doc = tx.get("broadcasts", BROADCAST)
        assert doc is not None and "reports" not in doc and "mail" not in doc


def test_a_tinydb_data_dir_from_before_has_its_reports_and_mail_moved_when_it_opens(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    old = Store(data_dir)
    with old.transaction() as tx:
        tx.put("broadcasts", BROADCAST, LEGACY_BROADCAST)
    old.close()
    settings = Settings(data_dir=data_dir)
    for _ in range(2):  # moved once; opening again changes nothing
        store = open_store(settings)
        try:
            assert_moved(store)
        finally:
            store.close()


def test_an_export_from_before_imports_with_its_reports_and_mail_moved(tmp_path: Path) -> None:
    exported = tmp_path / "old.jsonl"
    exported.write_bytes(orjson.dumps({"courtside": "export", "format": FORMAT, "tables": ["broadcasts"]}) + b"\n"
                         + orjson.dumps({"table": "broadcasts", "doc": LEGACY_BROADCAST | {"seq": 1}}) + b"\n")
    store = Store(tmp_path / "data")
    try:
        counts = import_from(store, exported)
        assert counts["broadcasts"] == 1
        assert_moved(store)
    finally:
        store.close()


def test_postgres_migration_v8_moves_reports_and_mail_out_of_the_broadcasts(pg_cluster: Cluster) -> None:
    url = pg_cluster.new_database(upgraded=False)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE courtside_schema (version integer PRIMARY KEY, "
                     "applied_on timestamptz NOT NULL DEFAULT now())")
        for number, sql in enumerate(pg_schema.MIGRATIONS[:7], start=1):  # the schema before V8
            conn.execute(sql.encode())
            conn.execute("INSERT INTO courtside_schema (version) VALUES (%s)", (number,))
        conn.execute("INSERT INTO broadcasts (id, seq, doc) VALUES (%s, nextval('doc_seq'), %s::jsonb)",
                     (BROADCAST, orjson.dumps(LEGACY_BROADCAST).decode()))
        assert pg_schema.upgrade(conn) == (7, pg_schema.LATEST)
    store = PgStore(url, listen=False)
    try:
        assert_moved(store)
    finally:
        store.close()
