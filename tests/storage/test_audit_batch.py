"""`audit.record_created` (a new draw's real matches, contract §16 and §22 "Speed"): one entry per record created,
the same entries one `audit.record` call each would write, appended in one write with the kept head written once,
on both backends; the chain stays whole and the next entry follows it."""

from __future__ import annotations

from dataclasses import dataclass

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import FixedClock
from storage.backend import AnyStore
from storage.repository import unit_of_work

BOTH_BACKENDS = True


@dataclass
class Made:
    id: str
    name: str
    note: str | None = None
    token: str | None = None


MADE = [Made(id=f"thing_{n}", name=f"Thing {n}", note="n" if n % 2 else None, token="secret")
        for n in range(5)]


def test_created_records_get_the_entries_record_would_write_in_one_chain(store: AnyStore, clock: FixedClock) -> None:
    actor = audit.Actor(audit.ActorKind.OPERATOR, "opk_test")
    with unit_of_work(store, actor=actor) as uow:
        account = uow.accounts.find()[0].id
        before = uow.audit.kept_head(account)
        audit.record_created(uow, account_id=account, action=AuditAction.PLAYER_CREATED,
                             target_type=TargetType.PLAYER, created=MADE,
                             now=clock.now())
    start = before[0] if before is not None else 0
    with unit_of_work(store, actor=actor) as uow:
        audit.record(uow, account_id=account, action=AuditAction.PLAYER_CHANGED, target=(TargetType.PLAYER, "thing_0"),
                     after={"name": "later"}, now=clock.now())
    with unit_of_work(store) as uow:
        entries = list(audit.chain(uow, account))
        head = uow.audit.kept_head(account)
    made = entries[start:start + len(MADE)]
    assert [(e.seq, e.target_type, e.target_id, e.action, e.actor_kind, e.actor_id) for e in made] == [
        (start + n + 1, "player", f"thing_{n}", "player.created", "operator", "opk_test") for n in range(len(MADE))]
    assert [e.after for e in made] == [audit.kept(None, m)[1] for m in MADE]
    assert made[1].after == {"id": "thing_1", "name": "Thing 1", "note": "n", "token": "…"}
    assert all(e.before is None for e in made)
    assert entries[-1].seq == start + len(MADE) + 1 and entries[-1].prev_hash == made[-1].hash
    assert head == (entries[-1].seq, entries[-1].hash)
    assert audit.walk(account, entries, head).intact


def test_nothing_created_writes_nothing(store: AnyStore, clock: FixedClock) -> None:
    with unit_of_work(store) as uow:
        account = uow.accounts.find()[0].id
        before = uow.audit.kept_head(account)
        audit.record_created(uow, account_id=account, action=AuditAction.PLAYER_CREATED,
                             target_type=TargetType.PLAYER, created=[],
                             now=clock.now())
    with unit_of_work(store) as uow:
        assert uow.audit.kept_head(account) == before
