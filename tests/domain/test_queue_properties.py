"""Queue invariants under random sequences of sync, move, cancel, start and complete.

The real services run on the in-memory store (it passes the store contract of tests/storage); a small reference
model of the spec's rules says what every queue must look like after each step. Invariants: positions 1..n
contiguous per table, no match on two tables, at most one active match per table, locked (active/completed)
matches never change, and one connection's operations never touch another connection's matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.clock import FixedClock, iso
from domain.errors import DomainError
from domain.match import matches as svc
from domain.models import Match, PlayerList, Table
from domain.views import Reader
from storage.memory import MemoryStore
from storage.repository import unit_of_work

ACCOUNT = "acc_1"
CONNECTIONS = ("conn_a", "conn_b")
TABLES = {"tbl_0": "conn_a", "tbl_1": "conn_a", "tbl_2": "conn_b"}  # table -> managing connection
EXTERNAL_IDS = ("m1", "m2", "m3")
RULES = svc.Rules()
Key = tuple[str, str]  # (connection, externalID)

operations = st.tuples(
    st.sampled_from(("sync", "sync", "move", "cancel", "start", "complete")),
    st.sampled_from(CONNECTIONS), st.sampled_from(EXTERNAL_IDS), st.sampled_from(list(TABLES)),
)


@dataclass
class Model:
    """The spec's rules over plain lists: what each queue must hold after each step."""

    queues: dict[str, list[Key]] = field(default_factory=lambda: {t: [] for t in TABLES})
    active: dict[str, Key | None] = field(default_factory=lambda: dict.fromkeys(TABLES))
    completed: set[Key] = field(default_factory=set)

    def table_of(self, key: Key) -> str | None:
        return next((t for t, queue in self.queues.items() if key in queue), None)

    def locked(self, key: Key) -> bool:
        return key in self.completed or key in self.active.values()

    def apply(self, op: str, key: Key, table: str) -> bool:
        """Apply one operation; False when the service must refuse it (and change nothing)."""
        current = self.table_of(key)
        if op in ("sync", "move"):
            if self.locked(key) or TABLES[table] != key[0] or (op == "move" and current is None):
                return False
            if current != table:
                if current is not None:
                    self.queues[current].remove(key)
                self.queues[table].append(key)
            return True
        if op == "cancel":
            if current is None:
                return False
            self.queues[current].remove(key)
            return True
        if op == "start":
            if current is None or self.active[current] is not None:
                return False
            self.queues[current].remove(key)
            self.active[current] = key
            return True
        if key in self.completed:
            return True  # completing it again with the scores it has: answered, nothing changes
        playing = next((t for t, k in self.active.items() if k == key), None)
        if playing is None:
            return False
        self.active[playing] = None
        self.completed.add(key)
        return True


def setup(store: MemoryStore) -> None:
    now = iso(FixedClock().now())
    with unit_of_work(store) as uow:
        for table_id, manager in TABLES.items():
            uow.tables.put(Table(id=table_id, account_id=ACCOUNT, broadcast_id="brd_1", label=table_id,
                                 created_on=now, updated_on=now, manager_connection_id=manager))
        for connection in CONNECTIONS:
            uow.player_lists.put(PlayerList(id=f"pl_{connection}", account_id=ACCOUNT, name="Entrants",
                                            players=[{"externalID": "p1", "source": "mapped"}], created_on=now,
                                            updated_on=now, connection_id=connection, external_id="pl"))


def run(store: MemoryStore, op: str, key: Key, table: str, clock: FixedClock) -> bool:
    """One operation through the real services in its own unit of work; False if a rule refused it."""
    connection, external_id = key
    try:
        with unit_of_work(store) as uow:
            if op == "sync":  # each match has its own player, so no start is refused as player_busy
                sync = svc.MatchSync(external_id=external_id, table_id=table, player_list_external_id="pl",
                                     participants={"playerA": {"manualName": f"{connection} {external_id}"}},
                                     event_name=f"at {clock.now()}")
                svc.sync_match(uow, account_id=ACCOUNT, connection_id=connection, sync=sync, now=clock.now(),
                               rules=RULES)
            elif op == "move":
                svc.move_match(uow, account_id=ACCOUNT, connection_id=connection, external_id=external_id,
                               table_id=table, now=clock.now())
            elif op == "cancel":
                svc.cancel_match(uow, connection_id=connection, external_id=external_id, now=clock.now())
            else:
                match = svc.find_match(uow, connection_id=connection, external_id=external_id)
                if op == "start":
                    svc.start_match(uow, account_id=ACCOUNT, match_id=match.id, now=clock.now(), rules=RULES)
                else:
                    svc.complete_match(uow, account_id=ACCOUNT, match_id=match.id, now=clock.now(), rules=RULES,
                                       game_scores=[{"a": 11, "b": 4}] * 3)
    except DomainError:
        return False
    return True


def snapshot(store: MemoryStore) -> dict[str, Match]:
    with unit_of_work(store) as uow:
        return {m.id: m for m in uow.matches.find()}


def check_invariants(store: MemoryStore, model: Model) -> None:
    with unit_of_work(store) as uow:
        reader = Reader(uow)
        seen: list[str] = []
        for table_id in TABLES:
            table = uow.tables.get(table_id)
            assert table is not None
            read = reader.table(table, connection_id=None)
            queue = read["queue"]
            assert [m["queuePosition"] for m in queue] == list(range(1, len(queue) + 1))
            assert all(m["tableID"] == table_id and m["status"] == "pending" for m in queue)
            keys = [(uow.matches.get(m["id"]).connection_id, m["externalID"]) for m in queue]  # type: ignore[union-attr]
            assert keys == model.queues[table_id]
            active = read["activeMatch"]
            expected = model.active[table_id]
            assert (active and active["externalID"]) == (expected and expected[1])
            assert len(uow.matches.find(table_id=table_id, status="active")) <= 1
            seen += [m["id"] for m in queue] + ([active["id"]] if active else [])
            for connection in CONNECTIONS:
                mine = reader.table(table, connection_id=connection)
                assert [m["externalID"] for m in mine["queue"]] == [e for c, e in model.queues[table_id]
                                                                    if c == connection]
        assert len(seen) == len(set(seen))  # no match on two tables
        completed = {(m.connection_id, m.external_id) for m in uow.matches.find(status="completed")}
        assert completed == model.completed


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operations, min_size=1, max_size=40))
def test_queues_stay_contiguous_and_locked_matches_never_change(steps: list[tuple[str, str, str, str]]) -> None:
    store = MemoryStore()
    try:
        setup(store)
        clock, model = FixedClock(), Model()
        for op, connection, external_id, table in steps:
            clock.advance(1)
            key = (connection, external_id)
            before = snapshot(store)
            locked_before = {i: m for i, m in before.items() if m.status != "pending"}
            expected = model.apply(op, key, table)
            assert run(store, op, key, table, clock) == expected, (op, key, table)
            after = snapshot(store)
            repeat = op == "complete" and key in {(m.connection_id, m.external_id) for m in locked_before.values()
                                                  if m.status == "completed"}
            if not expected or repeat:
                assert after == before  # a refused operation, or a repeated completion, changes nothing
            for match_id, match in locked_before.items():
                if op == "complete" and (match.connection_id, match.external_id) == key:
                    continue  # the operator completing the active match is the one allowed change
                assert after[match_id] == match
            for match_id, match in after.items():
                if match.connection_id != connection and match_id in before and op in ("sync", "move", "cancel"):
                    assert before[match_id] == match  # another connection's match is never touched
            check_invariants(store, model)
    finally:
        store.close()
