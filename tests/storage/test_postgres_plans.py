"""PostgreSQL: the hot reads of issue 42 use indexes (storage/pg_schema.py V6). A database with a platform's history
(5,000 courts of 250 accounts, 24,000 matches on 400 of them, most completed, pools of 40 draws) is analyzed, then
each read the event day makes (a court's active match, its results since a moment or its latest ones, a player
list's active and recent matches, a partner list reference's, a draw's pool, a page of the account's courts, a
court's queue) runs with its SQL captured, and `EXPLAIN` of that SQL must show the index meant for it and no
sequential scan."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from domain.models import POOL, Match, MatchStatus, Table
from storage.postgres import PgStore, PgTransaction
from storage.repository import StoreUnitOfWork
from tests.pg_cluster import Cluster

COURTS = 400
PER_COURT = 60
DRAWS = 40
TABLES = 5000  # the platform's courts (the first COURTS have matches)
ACCOUNTS = 250
SINCE = "2026-11-21T09:00:00.000Z"


def a_match(number: int, court: int, status: MatchStatus, table_id: str | None = None, **extra: Any) -> Match:
    day = 1 + number % 28
    done = f"2026-10-{day:02d}T{number % 24:02d}:00:00.000Z" if status == MatchStatus.COMPLETED else None
    return Match(id=f"mat_{number}", scheduled_match_id=f"sm_{number}", account_id=f"acc_{court % 3}",
                 connection_id=f"con_{court % 3}", external_id=f"m{number}",
                 table_id=f"tbl_{court}" if table_id is None else table_id,
                 player_list_external_id=f"list_{court % 50}", status=status, queue_order=number,
                 scheduled_on="", created_on="", updated_on="", completed_on=done,
                 player_list_id=f"pl_{court % 50}" if court % 2 else None, **extra)


@pytest.fixture(scope="module")
def store(pg_cluster: Cluster) -> Iterator[PgStore]:
    opened = PgStore(pg_cluster.new_database(), listen=False)
    matches: list[Match] = []
    for court in range(COURTS):
        for place in range(PER_COURT):
            number = court * PER_COURT + place
            status = (MatchStatus.ACTIVE if place == 0 else MatchStatus.PENDING if place < 6
                      else MatchStatus.COMPLETED)
            matches.append(a_match(number, court, status))
    for draw in range(DRAWS):
        for place in range(30):
            number = COURTS * PER_COURT + draw * 30 + place
            status = MatchStatus.PENDING if place < 10 else MatchStatus.COMPLETED
            matches.append(a_match(number, draw, status, table_id=POOL, draw_id=f"drw_{draw}"))
    with opened.transaction() as tx:
        uow = StoreUnitOfWork(tx)
        uow.matches.put_all(matches)
        uow.tables.put_all([Table(id=f"tbl_{court}", account_id=f"acc_{court % ACCOUNTS}",
                                  broadcast_id=f"brd_{court % 40}", label=f"Court {court}", created_on="",
                                  updated_on="") for court in range(TABLES)])
    with opened.transaction() as tx:
        tx.rows("SELECT 1")
        tx._conn.execute("ANALYZE matches")
        tx._conn.execute("ANALYZE tables")
    yield opened
    opened.close()


def captured(store: PgStore, read: Callable[[StoreUnitOfWork], Any]) -> list[tuple[str, Any]]:
    """The statements (SQL, parameters) a read ran, the gate's lock left out."""
    seen: list[tuple[str, Any]] = []
    with store.transaction() as tx:
        original = tx._execute

        def spy(sql: str, params: Any = None) -> Any:
            seen.append((sql, params))
            return original(sql, params)

        tx._execute = spy  # type: ignore[method-assign]
        read(StoreUnitOfWork(tx))
    return seen


def plan_nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from plan_nodes(child)


def explained(store: PgStore, sql: str, params: Any) -> list[dict[str, Any]]:
    with store.transaction() as tx:
        assert isinstance(tx, PgTransaction)
        row = tx._conn.execute(("EXPLAIN (FORMAT JSON) " + sql).encode(), params).fetchone()
    assert row is not None
    return list(plan_nodes(row[0][0]["Plan"]))


HOT: dict[str, tuple[Callable[[StoreUnitOfWork], Any], str | set[str]]] = {
    "a court's active match": (lambda u: u.matches.find(table_id="tbl_7", status=MatchStatus.ACTIVE),
                               "matches_table_status"),
    "a court's results of the last hours": (lambda u: u.matches.completed(table_id="tbl_7", since=SINCE),
                                            "matches_completed"),
    "a court's latest results": (lambda u: u.matches.completed(table_id="tbl_7", last=20),
                                 {"matches_completed", "matches_table_status"}),  # its count: either serves
    "a list's matches in play": (lambda u: u.matches.find(player_list_id="pl_7", status=MatchStatus.ACTIVE),
                                 "matches_list_status"),
    "a list's results of the last hours": (lambda u: u.matches.completed(player_list_id="pl_7", since=SINCE),
                                           "matches_list_completed"),
    "a list reference's matches in play": (
        lambda u: u.matches.find(connection_id="con_1", player_list_external_id="list_4", player_list_id=None,
                                 status=MatchStatus.ACTIVE), "matches_list_ref_status"),
    "a list reference's results of the last hours": (
        lambda u: u.matches.completed(connection_id="con_1", player_list_external_id="list_4", player_list_id=None,
                                      since=SINCE), "matches_list_ref_completed"),
    "a draw's pool": (lambda u: u.matches.find(draw_id="drw_3", table_id=POOL, status=MatchStatus.PENDING),
                      "matches_draw_status"),
    "a page of the account's courts": (lambda u: u.tables.account_page("acc_1", after_seq=100, limit=6),
                                       "tables_account_seq"),
    "a court's queue": (lambda u: u.matches.queue("tbl_7"), "matches_queue"),
}


@pytest.mark.parametrize("name", list(HOT))
def test_each_hot_read_uses_its_index(store: PgStore, name: str) -> None:
    read, wanted = HOT[name]
    indexes = {wanted} if isinstance(wanted, str) else wanted
    statements = [s for s in captured(store, read) if not s[0].startswith("SELECT pg_advisory")]
    assert statements, name
    for sql, params in statements:
        nodes = explained(store, sql, params)
        scans = [node for node in nodes if "Scan" in node["Node Type"]]
        assert not [node for node in scans if node["Node Type"] == "Seq Scan"], (name, sql, nodes)
        assert indexes & {node.get("Index Name") for node in scans}, (name, sql, nodes)


def test_the_reads_return_what_they_should(store: PgStore) -> None:
    """The same reads answer right (what the plans above are plans of)."""
    with store.transaction() as tx:
        uow = StoreUnitOfWork(tx)
        assert [m.id for m in uow.matches.find(table_id="tbl_7", status=MatchStatus.ACTIVE)] == ["mat_420"]
        latest = uow.matches.completed(table_id="tbl_7", last=5)
        everything = uow.matches.completed(table_id="tbl_7")
        assert len(everything) == PER_COURT - 6 and latest == everything[-5:]
        assert [m.completed_on for m in everything] == sorted(m.completed_on or "" for m in everything)
        since = "2026-10-20T00:00:00.000Z"
        assert uow.matches.completed(table_id="tbl_7", since=since) == [
            m for m in everything if (m.completed_on or "") >= since]
        assert len(uow.matches.find(draw_id="drw_3", table_id=POOL, status=MatchStatus.PENDING)) == 10
        page = uow.tables.account_page("acc_1", after_seq=None, limit=5)
        assert [t.account_id for t in page] == ["acc_1"] * 5
        after = uow.tables.account_page("acc_1", after_seq=page[-1].seq, limit=5)
        assert after[0].seq > page[-1].seq and len({t.id for t in page + after}) == 10

