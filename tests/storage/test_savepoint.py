"""The unit of work's savepoint (domain/ports.py): what a failing block wrote is undone, the rest commits."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.bulk import each
from domain.errors import Conflict, DomainError
from domain.models import Account
from storage.engine import Store
from storage.repository import unit_of_work


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "data")


def account(key: str) -> Account:
    return Account(id=key, name=key.title(), created_on="2026-01-01T00:00:00Z")


def test_a_raising_savepoint_undoes_its_writes_and_events_and_keeps_earlier_ones(store: Store) -> None:
    with unit_of_work(store) as uow:
        uow.accounts.put(account("kept"))
        uow.new_event_ids.append("evt-kept")
        with pytest.raises(RuntimeError), uow.savepoint():
            uow.accounts.put(account("undone"))
            uow.accounts.delete("kept")
            uow.new_event_ids.append("evt-undone")
            raise RuntimeError("item failed")
        assert uow.accounts.get("undone") is None
        assert uow.accounts.get("kept") is not None
        assert uow.new_event_ids == ["evt-kept"]
        uow.accounts.put(account("after"))  # the unit of work stays usable
    with unit_of_work(store) as uow:
        assert sorted(a.id for a in uow.accounts.find()) == ["after", "kept"]
    store.close()


def test_a_bulk_item_that_fails_after_writing_leaves_nothing_and_the_others_apply(store: Store) -> None:
    def apply(key: str) -> Account:
        created = uow.accounts.put(account(key))
        if key == "bad":
            raise Conflict("refused after a write")
        return created

    with unit_of_work(store) as uow:
        outcomes = each(uow, ["one", "bad", "two"], apply)
    assert [o.code if isinstance(o, DomainError) else o.id for o in outcomes] == ["one", "conflict", "two"]
    with unit_of_work(store) as uow:
        assert sorted(a.id for a in uow.accounts.find()) == ["one", "two"]
    store.close()
