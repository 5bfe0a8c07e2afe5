"""The audit log as the services write it (contract §16), on the in-memory unit of work: one entry per change in
the change's unit of work, the actor of the unit of work, only what changed, the chain verified, a match's history,
pages and filters, and nothing written when the change fails."""

from __future__ import annotations

import dataclasses

import pytest

from domain.access import audit
from domain.access.audit_records import Actor, ActorKind, AuditQuery
from domain.errors import Conflict
from domain.match import matches as svc
from tests.domain.world import RULES, World


@pytest.fixture
def world() -> World:
    return World()


def chain(world: World) -> list[audit.AuditEntry]:
    with world.uow() as uow:
        return list(audit.chain(uow, world.account_id))


def test_every_change_of_a_match_is_one_entry_in_order(world: World) -> None:
    court = world.court()
    world.house_list()  # the list the match names, made before the count
    before = len(chain(world))
    world.played(court, "m1")
    assert [e.action for e in chain(world)[before:]] == ["match.synced", "match.started", "match.completed"]


def test_the_chain_the_services_write_walks_intact_to_its_kept_head(world: World) -> None:
    world.played(world.court(), "m1")
    entries = chain(world)
    with world.uow() as uow:
        head = audit.kept_head(uow, world.account_id)
    verdict = audit.walk(world.account_id, entries, head)
    assert verdict.intact and verdict.count == len(entries) == head[0]


def test_removing_the_newest_entry_is_found_by_the_kept_head(world: World) -> None:
    world.played(world.court(), "m1")
    entries = chain(world)
    with world.uow() as uow:
        head = audit.kept_head(uow, world.account_id)
    verdict = audit.walk(world.account_id, entries[:-1], head)
    assert verdict.first_bad == head[0]


def test_a_changed_entry_breaks_the_chain_at_its_seq(world: World) -> None:
    world.played(world.court(), "m1")
    entries = chain(world)
    entries[2] = dataclasses.replace(entries[2], action="match.forged")
    assert audit.walk(world.account_id, entries).first_bad == entries[2].seq


def test_a_started_match_keeps_only_its_changed_fields(world: World) -> None:
    made = world.sync(world.court(), "m1")
    world.start(made)
    entry = chain(world)[-1]
    assert entry.action == "match.started"
    assert entry.before is not None and entry.after is not None
    assert set(entry.after) == {"id", "status", "startedOn", "scoreVersion"}
    assert (entry.before["status"], entry.after["status"]) == ("pending", "active")


def test_the_entry_names_the_unit_of_works_actor_and_request(world: World) -> None:
    made = world.sync(world.court(), "m1")
    with world.uow() as uow:
        uow.actor = Actor(ActorKind.OPERATOR, "opk_1234", request_id="req-1")
        svc.start_match(uow, account_id=world.account_id, match_id=made.id, now=world.now, rules=RULES)
    entry = chain(world)[-1]
    assert (entry.actor_kind, entry.actor_id, entry.request_id) == ("operator", "opk_1234", "req-1")


def test_a_refused_change_writes_no_entry(world: World) -> None:
    court = world.court()
    world.start(world.sync(court, "m1"))
    entries = len(chain(world))
    with pytest.raises(Conflict):
        world.start(world.sync(court, "m2", a="Cy Dunn", b="Di Eve"))
    assert [e.action for e in chain(world)[entries:]] == ["match.synced"]


def test_a_correction_keeps_its_reason(world: World) -> None:
    done = world.played(world.court(), "m1")
    world.score(done, [{"a": 11, "b": 9}, {"a": 11, "b": 9}, {"a": 11, "b": 9}], reason="  wrong sheet  ")
    entry = chain(world)[-1]
    assert (entry.action, entry.reason) == ("match.corrected", "wrong sheet")
    assert entry.after is not None and entry.after["gameScores"][0] == {"a": 11, "b": 9}


def test_a_matchs_history_is_its_entries_oldest_first(world: World) -> None:
    court = world.court()
    done = world.played(court, "m1")
    world.sync(court, "m2", a="Cy Dunn", b="Di Eve")
    with world.uow() as uow:
        entries = audit.history(uow, account_id=world.account_id, target_type="match", target_id=done.id)
    assert [e.action for e in entries] == ["match.synced", "match.started", "match.completed"]


def test_the_list_pages_newest_first_with_a_cursor(world: World) -> None:
    world.played(world.court(), "m1")
    total = len(chain(world))
    with world.uow() as uow:
        first, cursor = audit.list_entries(uow, account_id=world.account_id, query=AuditQuery(), limit=2,
                                           cursor=None)
        second, _ = audit.list_entries(uow, account_id=world.account_id, query=AuditQuery(), limit=2,
                                       cursor=cursor)
    assert [e.seq for e in first] == [total, total - 1]
    assert [e.seq for e in second] == [total - 2, total - 3]


def test_the_list_filters_by_target_type(world: World) -> None:
    world.played(world.court(), "m1")
    with world.uow() as uow:
        found, cursor = audit.list_entries(uow, account_id=world.account_id, query=AuditQuery(target_type="match"),
                                           limit=None, cursor=None)
    assert {e.target_type for e in found} == {"match"}
    assert len(found) == 3 and cursor is None


def test_a_broadcasts_creation_keeps_its_courts(world: World) -> None:
    world.broadcast("Court 1", "Court 2", name="Open day")
    entry = next(e for e in chain(world) if e.action == "broadcast.created")
    assert entry.before is None and entry.after is not None
    assert entry.after["name"] == "Open day"
    assert [c["label"] for c in entry.after["courts"]] == ["Court 1", "Court 2"]


def test_the_head_line_is_the_seq_and_the_hashs_first_12_digits() -> None:
    assert audit.head_line((2035, "3f2a9c0b1d4e" + "0" * 52)) == "Audit 2035 · 3f2a9c0b1d4e…"


def test_a_chain_read_in_batches_is_the_whole_chain(world: World) -> None:
    world.played(world.court(), "m1")
    with world.uow() as uow:
        batched = list(audit.chain(uow, world.account_id, batch=2))
    assert [e.seq for e in batched] == list(range(1, len(chain(world)) + 1))


def test_entries_exported_and_read_back_walk_intact(world: World) -> None:
    world.played(world.court(), "m1")
    again = [audit.from_view(world.account_id, e.view()) for e in chain(world)]
    assert audit.walk(world.account_id, again).intact
